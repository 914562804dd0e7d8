"""Arguments that may be None (Optional arrays): a NumPy function of one
reads the array it holds, and one that holds None raises Numba's TypeError
instead of reading the struct of an absent value."""
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
