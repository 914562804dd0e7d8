"""Whole-array reductions (np.sum, np.prod, min, max, mean, var, std, all, any) in a
parallel=True function are split across the thread pool for large arrays:
the results equal CPython's run of the same function (exact for integers,
wrapping included; within rounding for float sums) with 1, 2 and 4
threads, on negative, empty, NaN-holding and non-contiguous inputs."""
import warnings

import numpy as np
import pytest

import kiln
from thread_counts import threads  # noqa: F401  (a fixture: pytest finds it by name)


def reductions(a):
    return np.sum(a), np.prod(a), np.min(a), np.max(a), a.mean(), np.all(a), np.any(a)


def total(a):
    return a.sum()


def smallest(a):
    return a.min()


@pytest.mark.parametrize("n", [1, 9, 40_000, 250_003])
def test_integer_reductions_are_exact(threads, n):
    f = kiln.njit(parallel=True)(reductions)
    a = np.random.default_rng(n).integers(-5, 5, n)
    a[a == 0] = 3   # a product that is not zero, overflowing and wrapping as NumPy's does
    with np.errstate(over="ignore"):
        got, want = f(a), reductions(a)
    for k in (0, 1, 2, 3, 5, 6):                               # sum, prod, min, max, all, any
        assert got[k] == want[k] and isinstance(got[k], type(want[k].item())), (k, got[k], want[k])
    assert got[4] == pytest.approx(want[4], rel=1e-12)          # the mean divides the exact sum
    big = np.full(n, 2**62, dtype=np.int64)                    # the sum wraps around, as in NumPy
    assert kiln.njit(parallel=True)(total)(big) == big.sum()


@pytest.mark.parametrize("n", [1, 9, 40_000, 250_003])
def test_float_reductions_within_rounding(threads, n):
    f = kiln.njit(parallel=True)(reductions)
    x = np.random.default_rng(n).normal(size=n)
    got, want = f(x), reductions(x)
    np.testing.assert_allclose(got[:5], want[:5], rtol=1e-10)
    assert got[2] == want[2] and got[3] == want[3]            # min and max are exact
    assert got[5:] == want[5:]


def test_a_nan_anywhere_wins_min_and_max(threads):
    x = np.random.default_rng(2).normal(size=200_000)
    for where in (0, 123_457, 199_999):
        y = x.copy()
        y[where] = np.nan
        got = kiln.njit(parallel=True)(reductions)(y)
        assert np.isnan(got[2]) and np.isnan(got[3]) and np.isnan(got[0])


def test_empty_and_non_contiguous(threads):
    f = kiln.njit(parallel=True)(total)
    assert f(np.zeros(0)) == 0.0
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        kiln.njit(parallel=True)(smallest)(np.zeros(0, dtype=np.int64))
    m = np.arange(-300_000, 300_000, dtype=np.int64).reshape(600, 1000)
    view = m[::2, 1::3]                                        # strided: copied, then split
    assert f(view) == view.sum()
    assert kiln.njit(parallel=True)(smallest)(m.T) == m.min()
    b = np.ones(100_000, dtype=np.bool_)
    b[77_777] = False
    got = kiln.njit(parallel=True)(reductions)(b)
    assert got[0] == b.sum() and got[5] is False and got[6] is True


def test_the_report_names_the_split_reductions():
    f = kiln.njit(parallel=True)(total)
    f(np.ones(5))
    (loop,) = f.parallel_report().loops
    assert loop["kind"] == "whole-array reduction" and loop["parallel"]
    assert "whole-array reduction, split from 32,768 elements): PARALLEL" in f.parallel_report().text(1)
    serial = kiln.njit(total)
    serial(np.ones(5))
    assert "kj_pool_run" in list(f.inspect_llvm().values())[0]
    assert "kj_pool_run" not in list(serial.inspect_llvm().values())[0]


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32])
def test_other_dtypes(threads, dtype):
    rng = np.random.default_rng(7)
    a = (rng.integers(0, 200, 150_001) if np.dtype(dtype).kind in "ui" else rng.normal(size=150_001)).astype(dtype)
    got, want = kiln.njit(parallel=True)(reductions)(a), reductions(a)
    assert got[2] == want[2] and got[3] == want[3] and got[5:] == want[5:]
    if np.dtype(dtype).kind in "ui":
        assert got[0] == want[0]
    else:
        np.testing.assert_allclose(got[0], want[0], rtol=1e-4)    # float32: NumPy sums pairwise in float32


def spread(a):
    return np.var(a), np.std(a), a.var(), a.std()


@pytest.mark.parametrize("n", [0, 1, 7, 100_001])
def test_var_and_std_take_two_split_passes(threads, n):
    f = kiln.njit(parallel=True)(spread)
    x = np.random.default_rng(n).normal(3.0, 2.0, size=n)
    ints = np.arange(-n // 2, n - n // 2)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's warning for the empty mean
        for arr in (x, ints):
            np.testing.assert_allclose(f(arr), spread(arr), rtol=1e-10, equal_nan=True)
