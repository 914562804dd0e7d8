"""Joining arrays where compiled code refuses at compile time (what NumPy
would refuse when it runs, or what Kiln does not compile), with a message
that says what to write; what compiles is in the corpus
(corpus_np_create.py)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def mixed_dimensions(a, b):
    return np.concatenate((a, b))


@kiln.njit
def not_a_tuple(a):
    return np.hstack(a)


@kiln.njit
def axis_at_run_time(a, k):
    return np.concatenate((a, a), axis=k)


@kiln.njit
def axis_out_of_bounds(a):
    return np.stack((a, a), axis=2)


def test_refusals_say_what_to_write():
    v, m = np.arange(3.0), np.ones((2, 3))
    with pytest.raises(kiln.TypingError, match=r"np.concatenate takes arrays of one number of dimensions") as e:
        mixed_dimensions(m, v)
    assert "a.reshape(1, -1)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.hstack takes a tuple or a list of arrays, got array") as e:
        not_a_tuple(v)
    assert "np.concatenate((a, b))" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.concatenate takes a constant int axis"):
        axis_at_run_time(m, 1)
    with pytest.raises(kiln.TypingError, match="axis 2 is out of bounds for array of dimension 2"):
        axis_out_of_bounds(v)
    assert mixed_dimensions(v, v).tolist() == [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]   # the function still compiles for others
