"""Array expressions in a parallel=True function: the fused elementwise loop
is split across the thread pool for large arrays (run directly for small
ones), with NumPy's results for 1, 2 and many threads; the same function
without parallel=True has no split loop."""
import numpy as np
import pytest

import kiln


def seed_f(x, y):
    """Seed 002's f, as an array expression."""
    return np.cos(x**2 + y**2) / (1 + x**2 + y**2)


def blend(a, b, k):
    return a * k + np.sqrt(np.abs(b)) - 1.5


@pytest.mark.parametrize("threads", [1, 2, 5])
@pytest.mark.parametrize("n", [0, 7, 40_000, 300_001])
def test_split_array_expressions_match_numpy(threads, n):
    before = kiln.get_num_threads()
    kiln.set_num_threads(threads)
    try:
        f = kiln.njit(parallel=True)(seed_f)
        g = kiln.njit(parallel=True)(blend)
        rng = np.random.default_rng(n)
        x, y = rng.normal(size=n), rng.normal(size=n)
        np.testing.assert_allclose(f(x, y), seed_f(x, y), rtol=1e-13)
        np.testing.assert_allclose(g(x, y, 0.25), blend(x, y, 0.25), rtol=1e-13)
        xs = rng.normal(size=(n // 100 + 1, 100))[:, ::3]      # non-contiguous: the strided loop
        np.testing.assert_allclose(f(xs, xs), seed_f(xs, xs), rtol=1e-13)
    finally:
        kiln.set_num_threads(before)


def test_only_parallel_functions_split_their_loops():
    par, ser = kiln.njit(parallel=True)(blend), kiln.njit(blend)
    x = np.ones(10)
    par(x, x, 2.0)
    ser(x, x, 2.0)
    (p,), (s,) = par.inspect_llvm().values(), ser.inspect_llvm().values()
    assert "_ew" in p and "kj_pool_run" in p
    assert "kj_pool_run" not in s
