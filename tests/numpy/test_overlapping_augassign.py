"""An augmented assignment whose right side reads the array it writes, at
other positions (a[1:] += a[:-1], a += a[::-1]), gives NumPy's result: the
whole right side first, then the store. Fused into one loop it used to read
elements the loop had already overwritten (a running sum instead)."""
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


def same_positions(a):   # safe to fuse: every element reads only itself
    a += a * 2 - 1
    return a


INPUTS = [np.arange(-5.0, 7.0), np.arange(-6, 6, dtype=np.int64), np.arange(12.0)[::-1], np.zeros(0)]


@pytest.mark.parametrize("fn", [shifted_add, reversed_add, strided_mul, same_positions])
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
