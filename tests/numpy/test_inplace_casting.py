"""In-place operators on arrays cast as NumPy's do: the result is computed
in the dtype NumPy gives the operation and stored cast to the array's own
dtype where 'same_kind' casting allows it (float32 *= float64, int32 +=
int64), and refused when it does not (an int array /= anything, int +=
float): NumPy's UFuncTypeError at run time, a TypingError naming both
dtypes at compile time here."""
import numpy as np
import pytest

import kiln
from np_diff import live


def scale(a, b):
    a *= b
    return a


def shift_back(a, b):
    a += b
    a -= b * 0.5
    return a


def halve(a, b):
    a /= b
    return a


PAIRS = [(np.float32, np.float64), (np.int32, np.int64), (np.int8, np.int64), (np.float32, np.int64),
         (np.float64, np.float32), (np.int16, np.uint8), (np.complex64, np.float64), (np.uint8, np.uint16)]


@pytest.mark.parametrize("fn", [scale, shift_back, halve], ids=lambda f: f.__name__)
@pytest.mark.parametrize("ta, tb", PAIRS, ids=lambda t: np.dtype(t).name)
def test_in_place_results_are_cast_to_the_arrays_dtype(fn, ta, tb):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(9) * 1000).astype(ta)
    b = (rng.standard_normal(9) * 100 + 1).astype(tb)
    try:
        want = fn(a.copy(), b)
    except TypeError:   # NumPy's UFuncTypeError: no same_kind cast
        with pytest.raises(kiln.TypingError, match="same_kind"):
            kiln.njit(fn)(a.copy(), b)
        return
    before = live()
    got = kiln.njit(fn)(a.copy(), b)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    del got
    assert live() == before
