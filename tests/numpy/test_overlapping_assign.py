"""`a[...] = expression` and a ufunc's out= evaluate the expression straight
into the target, with no temporary array, unless the target shares memory
with an operand at other positions (a[1:] = a[:-1] * 2, a stencil
a[1:-1] = (a[:-2] + a[2:]) / 2): then the result is NumPy's, as if the
whole right side were computed first."""
import numpy as np
import pytest

import _kiln
import kiln
from np_diff import check


def shifted(a):
    a[1:] = a[:-1] * 2
    return a


def shifted_back(a):
    a[:-1] = a[1:] + 1
    return a


def stencil(a):
    a[1:-1] = (a[:-2] + a[2:]) / 2
    return a


def reversed_view(a):
    a[::-1] = a + 1
    return a


def same_positions(a):   # every element reads only itself: fused in place
    a[:] = a * 2 - 1
    return a


def into_other(a, out):
    out[:] = a * a + 1
    return out


def truncating_store(a, out):   # float results into an int array, as NumPy's assignment casts
    out[1:] = a[1:] * 1.5
    return out


def first_row_everywhere(m):
    m[:] = m[0] * 2
    return m


def column_from_column(m):
    m[:, 0] = m[:, 1] + m[:, 0]
    return m


def ufunc_out_shifted(a):
    np.add(a[:-1], a[1:], out=a[1:])
    return a


def wrong_shape(a, out):
    out[:3] = a + 1
    return out


ONE_AXIS = [np.arange(-5.0, 7.0), np.arange(-6, 6, dtype=np.int64), np.arange(12.0)[::-1] ** 2,
            np.arange(24.0)[::2], np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -6.0]), np.zeros(0), np.array([2.5])]


@pytest.mark.parametrize("fn", [shifted, shifted_back, stencil, reversed_view, same_positions, ufunc_out_shifted])
def test_one_axis_overlaps_agree_with_numpy(fn):
    jitted = kiln.njit(fn)
    for a in ONE_AXIS:
        if fn in (stencil, ufunc_out_shifted) and a.size < 1:
            continue
        check(jitted, (a.copy(),))


@pytest.mark.parametrize("fn", [first_row_everywhere, column_from_column])
def test_two_axis_overlaps_agree_with_numpy(fn):
    jitted = kiln.njit(fn)
    for m in (np.arange(16.0).reshape(4, 4), np.arange(16.0).reshape(4, 4).T, -np.ones((3, 3)),
              np.arange(30.0).reshape(5, 6)[::2, 1:]):
        check(jitted, (m.copy(),))


def test_separate_arrays_and_casts_agree_with_numpy():
    a = np.linspace(-3, 3, 9)
    check(kiln.njit(into_other), (a, np.zeros(9)))
    check(kiln.njit(into_other), (a, np.zeros(9, dtype=np.float32)))
    check(kiln.njit(into_other), (a[::-1], np.zeros(18)[::2]))
    check(kiln.njit(into_other), (a, a))   # the same array passed twice: element for element
    check(kiln.njit(truncating_store), (a, np.zeros(9, dtype=np.int64)))


def test_a_shape_that_does_not_fit_is_numpys_error():
    check(kiln.njit(wrong_shape), (np.ones(4), np.zeros(6)))   # ValueError: could not broadcast ...


def allocations(fn, *args):
    before = _kiln.nrt_stats()["alloc"]
    fn(*args)
    return _kiln.nrt_stats()["alloc"] - before


def test_no_temporary_array_unless_the_target_overlaps():
    a, out = np.arange(1000.0), np.zeros(1000)
    fused, buffered = kiln.njit(into_other), kiln.njit(shifted)
    fused(a, out)
    buffered(a.copy())
    assert allocations(fused, a, out) == 0
    assert allocations(buffered, a.copy()) == 1
