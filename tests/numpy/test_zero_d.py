"""0-d arrays (np.array(3.0)) passed in from Python: `a[()]` reads and
writes their one element, as in NumPy. This used to crash the process
while compiling (an index of no axes had no element pointer)."""
import numpy as np
import pytest

import kiln


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


def test_zero_d_arithmetic_and_loops_are_refused_with_a_hint():
    @kiln.njit
    def negated(a):
        return -a

    @kiln.njit
    def looped(a):
        t = 0.0
        for x in a:
            t += x
        return t

    for f, said in ((negated, "0-d array is not supported yet"), (looped, "cannot loop over")):
        with pytest.raises(kiln.TypingError) as e:
            f(np.array(1.5))
        assert said in str(e.value)
    assert negated(np.ones(2)).tolist() == [-1.0, -1.0]   # the kernel goes on; 1-d still compiles
