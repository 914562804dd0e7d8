"""Reductions of array expressions (np.sum(x * y), (a - b).max(), np.all(x < y))
and whole-array argmin / argmax in a parallel=True function are split
across the thread pool without making the expression's array (argmin and
argmax, serially too, keep the block of 4096 elements where the extreme
first appears, then find it there): the results
equal CPython's run of the same function (exact for integers, wrapping
included; within rounding for float sums) with 1, 2 and 4 threads, on
negative, empty, NaN-holding, broadcast and non-contiguous inputs."""
import numpy as np
import pytest

import kiln
from thread_counts import threads  # noqa: F401  (a fixture: pytest finds it by name)


def dot(x, y):
    return np.sum(x * y)


def dot_method(x, y):
    return (x * y).sum()


def expression_reductions(x, y):
    return (np.sum(x - 2 * y), np.prod(np.sign(x - y)), np.mean(x * y), np.min(x - y), np.max(x + y),
            (x * y).max(), np.all(x >= y), np.any(x > y))


def seed_002_max(x, y):
    return np.max(np.cos(x**2 + y**2) / (1 + x**2 + y**2))


def positions(a):
    return np.argmax(a), np.argmin(a), a.argmax(), a.argmin()


def difference_argmin(x, y):
    return (x - y).argmin()


SIZES = [1, 9, 40_000, 250_003]   # below and above the size from which loops are split


@pytest.mark.parametrize("n", SIZES)
def test_integer_expressions_are_exact(threads, n):
    rng = np.random.default_rng(n)
    x, y = rng.integers(-50, 50, n), rng.integers(-50, 50, n)
    f = kiln.njit(parallel=True)(expression_reductions)
    got, want = f(x, y), expression_reductions(x, y)
    for k in (0, 1, 3, 4, 5, 6, 7):
        assert got[k] == want[k] and type(got[k]) is type(want[k].item()), (k, got[k], want[k])
    assert got[2] == pytest.approx(want[2], rel=1e-12)
    big = np.full(n, 2**62, dtype=np.int64)              # 2 * 2**62 per element: the sum wraps, as in NumPy
    assert kiln.njit(parallel=True)(dot)(big, np.full(n, 2)) == dot(big, np.full(n, 2))


@pytest.mark.parametrize("n", SIZES)
def test_float_expressions_within_rounding(threads, n):
    rng = np.random.default_rng(n + 1)
    x, y = rng.normal(size=n), rng.normal(size=n)
    got = kiln.njit(parallel=True)(expression_reductions)(x, y)
    want = expression_reductions(x, y)
    np.testing.assert_allclose(got[:3], want[:3], rtol=1e-9)
    assert got[3:] == want[3:]                            # min, max, all and any are exact
    for f in (dot, dot_method, seed_002_max):
        assert kiln.njit(parallel=True)(f)(x, y) == pytest.approx(f(x, y), rel=1e-9)


def test_a_nan_anywhere_wins_min_and_max_of_an_expression(threads):
    x, y = np.random.default_rng(3).normal(size=(2, 200_000))
    f = kiln.njit(parallel=True)(expression_reductions)
    for where in (0, 99_999, 199_999):
        z = x.copy()
        z[where] = np.nan
        got = f(z, y)
        assert np.isnan(got[0]) and np.isnan(got[3]) and np.isnan(got[4]) and np.isnan(got[5])
        assert got[6] is False                            # NaN >= y is False, as in NumPy


def test_empty_operands(threads):
    e = np.zeros(0)
    assert kiln.njit(parallel=True)(dot)(e, e) == 0.0
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        kiln.njit(parallel=True)(expression_reductions)(e, e)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        kiln.njit(parallel=True)(positions)(e)


def test_broadcast_and_strided_operands_take_the_serial_loop(threads):
    rng = np.random.default_rng(5)
    m = rng.integers(-9, 9, (600, 400))
    col, row = m[:, :1], m[0]
    view = m[::2, 1::3]
    f = kiln.njit(parallel=True)(dot)
    assert f(col, row) == dot(col, row)                  # (600, 1) * (400,) broadcasts to (600, 400)
    assert f(view, view) == dot(view, view)
    assert f(m, m) == dot(m, m)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16])
@pytest.mark.parametrize("n", SIZES)
def test_argmin_argmax_first_occurrence(threads, dtype, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 100, n).astype(dtype)           # many ties: the first index wins
    b = a[::-1].copy()
    for f in (kiln.njit(parallel=True)(positions), kiln.njit(positions)):   # split, and the serial two passes
        assert f(a) == positions(a)
        assert f(b) == positions(b)
        if np.dtype(dtype).kind == "i":
            assert f(a - 50) == positions(a - 50)


@pytest.mark.parametrize("parallel", [True, False])
@pytest.mark.parametrize("n", [4095, 4096, 4097, 3 * 4096 + 5, 200_003])
def test_argmin_argmax_at_block_edges(threads, parallel, n):
    f = kiln.njit(parallel=parallel)(positions)
    x = np.random.default_rng(n).normal(size=n)
    places = sorted({p for p in (0, 4095, 4096, 2 * 4096 + 1, n // 2, n - 1) if p < n})
    for at in places:
        for twin in places[places.index(at):]:   # the same extreme again, later: the first still wins
            y = x.copy()
            y[[at, twin]] = 9.5
            y[[(at + 1) % n, (twin + 1) % n]] = -9.5
            assert f(y) == positions(y)
            assert f(y.astype(np.int32) * 3) == positions(y.astype(np.int32) * 3)


@pytest.mark.parametrize("parallel", [True, False])
def test_argmin_argmax_nan_and_signed_zero(threads, parallel):
    x = np.random.default_rng(9).normal(size=300_000)
    f = kiln.njit(parallel=parallel)(positions)
    for where in ((7,), (150_000, 290_000), (299_999,)):
        y = x.copy()
        y[list(where)] = np.nan
        assert f(y) == positions(y) == (where[0],) * 4      # the first NaN wins both
    z = np.zeros(100_000)
    z[40_000] = -0.0
    z[70_000] = -0.0
    assert f(z) == positions(z)
    assert f(-z) == positions(-z)
    assert f(x[::3]) == positions(x[::3])                # a strided view is copied, then split


def test_argmin_of_an_expression(threads):
    x, y = np.random.default_rng(4).normal(size=(2, 123_457))
    assert kiln.njit(parallel=True)(difference_argmin)(x, y) == difference_argmin(x, y)


def test_the_report_and_the_code_show_the_split():
    f = kiln.njit(parallel=True)(dot)
    f(np.ones(3), np.ones(3))
    (loop,) = f.parallel_report().loops
    assert loop["kind"] == "whole-array reduction" and loop["parallel"]
    code = list(f.inspect_llvm().values())[0]
    assert "kj_pool_run" in code
    assert "kj_nrt_alloc" not in code                     # no array is made for x * y
    g = kiln.njit(parallel=True)(positions)
    g(np.ones(3))
    assert "kj_pool_run" in list(g.inspect_llvm().values())[0]
