"""What complex arrays cannot do in compiled code yet is refused at compile
time with a message naming it and a hint, and the function still runs
what it can for other argument types (the corpus, corpus_np_complex.py,
checks what they can do)."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.njit
def largest(a):
    return a.max()


@kiln.njit
def log10(a):
    return np.log10(a)


@kiln.njit
def imaginary(a):
    return np.imag(a)


def test_complex_ordering_and_math_are_refused_with_a_hint():
    a = np.array([1 + 2j, -3j])
    before = live()
    with pytest.raises(kiln.TypingError, match="np.max of a complex array is not supported yet") as e:
        largest(a)
    assert "np.abs(a)" in str(e.value)
    with pytest.raises(kiln.UnsupportedError, match="np.log10 of complex numbers in array expressions"):
        log10(a)
    with pytest.raises(kiln.TypingError, match=r"np.imag takes an array or a number, got UniTuple\(float64 x 2\)"):
        imaginary((1.0, 2.0))
    assert largest(np.array([1.0, 5.0])) == 5.0 and log10(np.array([100.0]))[0] == 2.0
    assert imaginary(a).tolist() == [2.0, -3.0]
    assert live() == before
