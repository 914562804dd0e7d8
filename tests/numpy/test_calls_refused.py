"""np.round, a.dtype, np.linalg.norm, np.isclose, np.nansum, np.flip,
np.diff and ... where
compiled code refuses them, with a message that says what to write instead;
what they do compile is in the corpus (corpus_np_ewise.py,
corpus_np_create.py, corpus_np_reduce.py)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def float_decimals(a):
    return np.round(a, 1.5)


@kiln.njit
def round_bools(a):
    return np.round(a > 0)


@kiln.njit
def dtype_as_value(a):
    return a.dtype


@kiln.njit
def unknown_keyword(a):
    return np.round(a, mode=1)


@kiln.njit
def norm_of_order_one(a):
    return np.linalg.norm(a, 1)


@kiln.njit
def isclose_of_expressions(a):
    return np.isclose(a * 2, a)


@kiln.njit
def nansum_along_axis(a):
    return np.nansum(a, axis=0)


@kiln.njit
def flip_axis_at_run_time(a, k):
    return np.flip(a, k)


@kiln.njit
def diff_of_expression(a):
    return np.diff(a * 2)


@kiln.njit
def two_ellipses(a):
    return a[..., 0, ...]


@kiln.njit
def ellipsis_as_value(a):
    x = ...
    return a


def test_refusals_say_what_to_write():
    a = np.arange(-3.0, 3.0)
    with pytest.raises(kiln.TypingError, match="np.round takes decimals as an int, got float64"):
        float_decimals(a)
    with pytest.raises(kiln.TypingError, match="np.round of booleans gives float16 in NumPy") as e:
        round_bools(a)
    assert "a.astype(np.float64)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="a.dtype names a type here, not a value") as e:
        dtype_as_value(a)
    assert "np.empty(n, dtype=a.dtype)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.round takes the array, decimals and out= only"):
        unknown_keyword(a)
    with pytest.raises(kiln.TypingError, match=r"np.linalg.norm takes only the array here \(the 2-norm") as e:
        norm_of_order_one(a)
    assert "np.abs(x).sum()" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.isclose compares names or constants in compiled code") as e:
        isclose_of_expressions(a)
    assert "Assign them to names first" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.nansum takes only the array here"):
        nansum_along_axis(a)
    with pytest.raises(kiln.TypingError, match="np.flip takes an array and a constant axis here") as e:
        flip_axis_at_run_time(a, 0)
    assert "::-1" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.diff takes a name or a constant in compiled code"):
        diff_of_expression(a)
    with pytest.raises(kiln.TypingError, match=r"an index can only have a single ellipsis \('...'\)"):
        two_ellipses(a.reshape(2, 3))
    with pytest.raises(kiln.TypingError, match=r"\.\.\. \(Ellipsis\) stands for axes in an array index only"):
        ellipsis_as_value(a)
