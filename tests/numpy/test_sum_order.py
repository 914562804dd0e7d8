"""np.sum and np.mean of a float array add in NumPy's order (pairwise within
blocks of 8192, the blocks one after another), and np.var / np.std add
their squared deviations the same way, so they give NumPy's result to the
last bit, alone, together with other reductions of the array, and along
the last axis; along an outer axis NumPy adds row after row, and so does
Kiln."""
import numpy as np
import pytest

import kiln


def total(a):
    return np.sum(a)


def average(a):
    return a.mean()


def together(a):
    return np.sum(a), a.max(), np.mean(a)


def spread(a):
    return np.var(a), a.std()


def columns(m):
    return m.sum(axis=0)


def column_spread(m):
    return m.var(axis=0), m.std(axis=1)


def rows(m):
    return m.sum(axis=1)


SIZES = [1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 1000, 8191, 8192, 8193, 20000, 100_003]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sums_and_means_are_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(5)
    for fn in (total, average, together, spread):
        jitted = kiln.njit(fn)
        for n in SIZES:
            a = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(dtype)   # mixed magnitudes
            assert jitted(a) == fn(a), (fn.__name__, dtype, n)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_axis_sums_follow_numpys_order(dtype):
    m = np.random.default_rng(6).standard_normal((300, 700)).astype(dtype)
    assert (kiln.njit(columns)(m) == columns(m)).all()
    assert (kiln.njit(rows)(m) == rows(m)).all()
    got, want = kiln.njit(column_spread)(m), column_spread(m)
    assert (got[0] == want[0]).all() and (got[1] == want[1]).all()
    assert kiln.njit(total)(m[::2, 1::3]) == pytest.approx(total(m[::2, 1::3]), rel=1e-5)   # copied first: rounding


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_integer_variances_are_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(8)
    jitted = kiln.njit(spread)
    for n in SIZES:
        a = rng.integers(-1000, 1000, n).astype(dtype)
        assert jitted(a) == spread(a), (dtype, n)


def integers(rng, dtype, n):
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int16, np.bool_])
def test_integer_means_are_numpys_to_the_bit(dtype, parallel):
    # NumPy casts an int array to float64 a block at a time and sums each
    # block pairwise; int64 values near 2**63 round at every addition, so
    # any other order (one after another, or a pool's split) shows.
    rng = np.random.default_rng(9)
    for fn in (average, together, spread):
        jitted = kiln.njit(parallel=parallel)(fn)
        for n in SIZES:
            a = integers(rng, dtype, n)
            assert jitted(a) == fn(a), (fn.__name__, n)
            assert jitted(a[::3]) == fn(a[::3]), (fn.__name__, n, "strided")
        cube = np.asfortranarray(integers(rng, dtype, 36).reshape(3, 3, 4))
        assert jitted(cube) == fn(cube), (fn.__name__, "Fortran order")


def test_fastmath_may_reorder():
    a = np.random.default_rng(7).standard_normal(10_000)
    assert kiln.njit(fastmath=True)(total)(a) == pytest.approx(total(a), rel=1e-12)
