"""An augmented assignment whose right side reads the array it writes, at
other positions (a[1:] += a[:-1], a += a[::-1]), gives NumPy's result: the
whole right side first, then the store. Fused into one loop it used to read
elements the loop had already overwritten (a running sum instead). A view
held in another variable, or another argument on the same memory, is
found at run time, as NumPy finds it."""
import numpy as np
import pytest

import kiln
from np_diff import check


def shifted_add(a):
    a[1:] += a[:-1]
    return a


def reversed_add(a):
    a += a[::-1]
    return a


def strided_mul(a):
    a[::2] *= a[1::2] + a[::2]
    return a


def column_into_row(m):
    m[0] -= m[:, 0]
    return m


def through_a_held_view(a):
    v = a[::-1]
    a += v
    return a


def into_a_reversed_view(m):   # the program generator's find: a view reversed along the second axis
    v = m[:, ::-1]
    v -= m
    return m


def two_arguments(a, b):   # b may be a view of a
    a += b
    return a


def same_positions(a):   # safe to fuse: every element reads only itself
    a += a * 2 - 1
    return a


INPUTS = [np.arange(-5.0, 7.0), np.arange(-6, 6, dtype=np.int64), np.arange(12.0)[::-1], np.zeros(0)]


@pytest.mark.parametrize("fn", [shifted_add, reversed_add, strided_mul, same_positions, through_a_held_view])
def test_one_axis_overlaps_agree_with_numpy(fn):
    jitted = kiln.njit(fn)
    for a in INPUTS:
        if fn is strided_mul and a.size % 2:
            continue
        check(jitted, (a.copy(),))


def test_a_column_into_a_row_agrees_with_numpy():
    jitted = kiln.njit(column_into_row)
    for m in (np.arange(16.0).reshape(4, 4), np.arange(16.0).reshape(4, 4).T, -np.ones((3, 3))):
        check(jitted, (m.copy(),))


def test_views_held_elsewhere_agree_with_numpy():
    m = np.arange(12.0).reshape(3, 4)
    check(kiln.njit(into_a_reversed_view), (m.copy(),))
    check(kiln.njit(into_a_reversed_view), (np.asfortranarray(m),))
    adder = kiln.njit(two_arguments)
    for second in (lambda x: x[::-1], lambda x: x, lambda x: np.ones(10)):
        want, got = np.arange(10.0), np.arange(10.0)
        two_arguments(want, second(want))
        adder(got, second(got))
        assert np.array_equal(got, want)
