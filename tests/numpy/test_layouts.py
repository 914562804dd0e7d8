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
