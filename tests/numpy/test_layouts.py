"""Memory layouts that NumPy calls promise: np.asfortranarray gives a
Fortran-contiguous array, sharing memory with its argument exactly when
NumPy's does (the corpus checks the values)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def fortran(a):
    return np.asfortranarray(a)


_M = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("a", [_M, np.asfortranarray(_M), _M[:, ::2], _M.T, np.arange(5), np.zeros((0, 3)),
                               np.arange(24).reshape(2, 3, 4)[:, ::-1]])
def test_asfortranarray_is_fortran_ordered_and_copies_when_numpy_does(a):
    got, want = fortran(a), np.asfortranarray(a)
    assert got.flags.f_contiguous and np.array_equal(got, want)
    assert np.shares_memory(got, a) == np.shares_memory(want, a)


@kiln.njit
def sorted_copies(a):
    s, p = np.sort(a), np.partition(a, 0)
    return s, p, np.mean(s), np.sum(p)


_BIG = np.array([-1, -33, -3, -12, 3037000500, -12, -7, -37, 0, 1, 34, -17, 2**62, 15, -39], dtype=np.int64)


@pytest.mark.parametrize("a", [np.asfortranarray(_BIG.reshape(5, 3)), _BIG.reshape(5, 3), _BIG.reshape(3, 5).T,
                               np.asfortranarray(_BIG.reshape(5, 3, 1)), np.asfortranarray(_BIG[:0].reshape(0, 3)),
                               np.asfortranarray(_M[:, ::-1] - 5.5)])
@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value encountered")
def test_sort_and_partition_keep_the_memory_order_numpy_keeps(a):
    """NumPy copies with order='K' before sorting: a Fortran-ordered array's sorted copy is
    Fortran-ordered too, and a mean of it adds in that order (its rounding is NumPy's)."""
    s, p, mean, total = sorted_copies(a)
    want_s, want_p = np.sort(a), np.partition(a, 0)
    # a partition's other elements may stand in any order: Kiln's are sorted
    assert np.array_equal(s, want_s) and np.array_equal(np.sort(p), want_s)
    assert np.array_equal(p[..., :1], want_p[..., :1])
    for got, want in ((s, want_s), (p, want_p)):
        assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
    assert mean == np.mean(want_s) or (np.isnan(mean) and np.isnan(np.mean(want_s)))
    assert total == np.sum(want_p)
