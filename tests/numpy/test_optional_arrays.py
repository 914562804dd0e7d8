"""Arguments that may be None (Optional arrays): wherever the array is
used (a NumPy function, an index, an attribute, a method, a loop,
arithmetic, an in-place operation) the array it holds is read, and one
that holds None raises Numba's TypeError instead of reading the struct of
an absent value."""
import numpy as np
import pytest

import kiln
from kiln import Optional, float64
from np_diff import live

MAYBE_MATRIX = kiln.float64(Optional(float64[:, :]))


@kiln.njit(MAYBE_MATRIX)
def guarded_sum(a):
    if a is None:
        return 0.0
    return np.sum(a)


@kiln.njit(MAYBE_MATRIX)
def guarded_trace(a):
    if a is None:
        return -1.0
    return np.trace(a)


@kiln.njit(MAYBE_MATRIX)
def unguarded_mean(a):
    return np.mean(a)


@kiln.njit
def maybe_made(n, make):
    a = None
    if make:
        a = np.arange(n) * 1.5
    if a is not None:
        return np.sum(a) + np.max(a * 2)
    return -1.0


@pytest.mark.parametrize("m", [np.arange(9.0).reshape(3, 3), np.arange(16.0).reshape(4, 4)[::2, ::-1],
                               np.asfortranarray(np.arange(6.0).reshape(2, 3) - 2.5), np.zeros((0, 2))])
def test_functions_of_an_optional_array_read_the_array(m):
    assert guarded_sum(m) == np.sum(m)
    assert guarded_trace(m) == np.trace(m)
    if m.size:
        assert unguarded_mean(m) == np.mean(m)
    assert guarded_sum(None) == 0.0 and guarded_trace(None) == -1.0


def test_none_where_the_array_is_used_is_numbas_type_error():
    with pytest.raises(TypeError, match=r"expected array\(float64, 2d, A\), got None"):
        unguarded_mean(None)


def test_a_local_that_may_be_none():
    before = live()
    assert maybe_made(4, True) == np.sum(np.arange(4) * 1.5) + 9.0
    assert maybe_made(4, False) == -1.0
    assert live() == before


@kiln.njit(kiln.float64(Optional(float64[:])))
def used_every_way(a):
    if a is None:
        return -1.0
    s = 0.0
    for x in a:
        s += x
    b = a.copy()
    b[0] = a[1] + a.shape[0]
    a[1:] += a[:-1]
    return s + b[0] + a.T[0] + np.sum(a * 2 + a)


@kiln.njit((Optional(kiln.int64[:]),))
def doubled_in_place(a):
    if a is not None:
        a += a
    return a


@kiln.njit(kiln.float64(Optional(float64[:])))
def first(a):
    return a[0]


@pytest.mark.parametrize("x", [np.arange(4.0), np.linspace(-1, 1, 7)[::2], np.array([np.nan, 1.0, -2.0])])
def test_an_optional_array_indexed_looped_and_changed_in_place(x):
    before = live()
    want_x, got_x = x.copy(), x.copy()
    want = used_every_way.py_func(want_x)
    got = used_every_way(got_x)
    assert (np.isnan(want) and np.isnan(got)) or got == want
    assert np.array_equal(got_x, want_x, equal_nan=True)
    assert used_every_way(None) == -1.0
    assert doubled_in_place(np.arange(3)).tolist() == [0, 2, 4] and doubled_in_place(None) is None
    assert live() == before


def test_an_index_of_none_is_numbas_type_error():
    assert first(np.array([2.5])) == 2.5
    with pytest.raises(TypeError, match=r"expected array\(float64, 1d, A\), got None"):
        first(None)


@kiln.njit
def maybe_five(flag):
    if flag:
        return 5
    return None


@kiln.njit
def looked_up(x, flag):
    items = {x for i in range(3)}
    return maybe_five(flag) in items, maybe_five(flag) in [x, 2.0]


def test_an_optional_number_looked_up_with_in():
    assert looked_up(5.0, True) == (True, True) and looked_up(4.0, True) == (False, False)
    with pytest.raises(TypeError, match="expected int64, got None"):   # Numba's; it crashed
        looked_up(5.0, False)


@kiln.njit((Optional(kiln.int8[:, :]),))
def scaled_in_place(a):
    if a is not None:
        a *= a | np.ones((a.shape[0], a.shape[1]), dtype=np.int64)   # computed in int64, stored as int8
    return a


def test_an_optional_array_changed_in_place_with_a_cast():
    x = np.arange(6, dtype=np.int8).reshape(2, 3)
    want = scaled_in_place.py_func(x.copy())
    got = scaled_in_place(x.copy())
    assert got.dtype == np.int8 and np.array_equal(got, want)
    assert scaled_in_place(None) is None
