"""0-d arrays (np.array(3.0)) passed in from Python: `a[()]` reads and
writes their one element, as in NumPy. This used to crash the process
while compiling (an index of no axes had no element pointer)."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.njit
def doubled_in_place(a):
    a[()] = a[()] * 2
    return a[()]


@kiln.njit
def axes_and_total(a):
    return a.ndim, a.size, a.sum()


def test_zero_d_element_reads_and_writes_like_numpy():
    for value in (3.5, -2.0, 0.0):
        a, b = np.array(value), np.array(value)
        expected = doubled_in_place.py_func(a)
        assert doubled_in_place(b) == expected and b[()] == a[()]
    ints = np.array(-7, np.int32)
    assert doubled_in_place(ints) == -14 and ints[()] == -14


def test_zero_d_shape_queries_match_numpy():
    a = np.array(2.5)
    assert axes_and_total(a) == axes_and_total.py_func(a) == (0, 1, 2.5)


def test_zero_d_arithmetic_gives_numbers_and_loops_are_refused_with_a_hint():
    """Operators and ufuncs of 0-d arrays give numbers, as in NumPy (the
    corpus, corpus_np_zero_d.py, checks them against NumPy); iterating one
    is NumPy's TypeError, refused at compile time with a hint."""
    @kiln.njit
    def negated(a):
        return -a

    @kiln.njit
    def looped(a):
        t = 0.0
        for x in a:
            t += x
        return t

    before = live()
    assert negated(np.array(1.5)) == -1.5 and isinstance(negated(np.array(1.5)), float)
    with pytest.raises(kiln.TypingError) as e:
        looped(np.array(1.5))
    assert "cannot loop over" in str(e.value)
    assert looped(np.ones(2)) == 2.0 and negated(np.ones(2)).tolist() == [-1.0, -1.0]   # the process goes on
    assert live() == before
