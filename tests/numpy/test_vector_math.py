"""The math ufuncs of array expressions call glibc's SIMD math (libmvec)
through LLVM's loop vectorizer: each line is marked vectorized, and every
result agrees with NumPy's to a few units in the last place, on inputs
that reach the edges (NaN, infinities, signed zeros, out of domain,
overflow, tiny and huge values) in contiguous arrays, strided views and
lengths that leave a scalar remainder."""
import linecache

import numpy as np
import pytest

import kiln
from np_diff import live

SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, np.nan, np.inf, -np.inf, 1e-300, -1e-300, 5e-324,
            1e300, -1e300, 709.0, 710.0, -745.0, 88.0, 89.0, -104.0, np.pi, -np.pi / 2, 1e22, 3.0e9]


def inputs(dtype, n=1003):
    """Specials, then normal values over several scales; an odd length, so
    the vector loop leaves a remainder."""
    rng = np.random.default_rng(7)
    spread = rng.standard_normal(n) * np.repeat([1e-3, 1.0, 30.0, 1e4], n // 4 + 1)[:n]
    with np.errstate(all="ignore"):
        return np.concatenate([np.array(SPECIALS), spread]).astype(dtype)


def agree(expected, got, dtype):
    """Same NaN places, same infinities, finite values within 8 ulp of NumPy's
    (both sides are libraries with a few ulp of error: NumPy's own SIMD
    loops, glibc's vector math)."""
    assert got.dtype == expected.dtype and got.shape == expected.shape
    nan = np.isnan(expected)
    assert np.array_equal(nan, np.isnan(got))
    inf = np.isinf(expected)
    assert np.array_equal(expected[inf], got[inf])
    fin = ~nan & ~inf
    e, g = expected[fin], got[fin]
    tolerance = 8 * np.spacing(np.maximum(np.abs(e), np.finfo(dtype).tiny).astype(dtype))
    bad = np.abs(g.astype(np.float64) - e) > tolerance
    assert not bad.any(), list(zip(e[bad][:5], g[bad][:5]))


UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
         "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt"]
BINARY = ["arctan2", "hypot", "power"]


def compiled(name, nargs):
    """A kiln function applying np.<name> (its own source, so the remarks
    point at its line)."""
    namespace = {"np": np, "kiln": kiln}
    args = "a" if nargs == 1 else "a, b"
    code = f"@kiln.njit\ndef apply({args}):\n    return np.{name}({args})\n"
    path = f"<vector_math_{name}>"
    linecache.cache[path] = (len(code), None, code.splitlines(True), path)
    exec(compile(code, path, "exec"), namespace)
    return namespace["apply"]


def vectorized_lines(f):
    return {r["line"] for sig in f.signatures for r in f.inspect_remarks(sig) if r["kind"] == "vectorized"}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", UNARY)
def test_unary_math_is_vectorized_and_agrees_with_numpy(name, dtype):
    before = live()
    f = compiled(name, 1)
    a = inputs(dtype)
    with np.errstate(all="ignore"):
        for x in (a, a[::3], a[:7]):
            agree(getattr(np, name)(x), f(x), dtype)
    assert 3 in vectorized_lines(f), f.inspect_remarks()
    assert live() == before


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", BINARY)
def test_binary_math_is_vectorized_and_agrees_with_numpy(name, dtype):
    before = live()
    f = compiled(name, 2)
    a = inputs(dtype)
    with np.errstate(all="ignore"):   # power's exponents: small, of both signs, some NaN
        b = np.roll(a, 5) if name != "power" else np.abs(np.roll(a, 5)) % 7 - 3
        for x, y in ((a, b), (a[::2], b[1::2]), (a[:9], b[:9])):
            agree(getattr(np, name)(x, y), f(x, y), dtype)
    assert 3 in vectorized_lines(f), f.inspect_remarks()
    assert live() == before


def test_seed_chain_matches_numpy():
    """The seed's evaluate_functions: six ufuncs in a loop, 100 elements."""
    @kiln.njit
    def evaluate_functions(n):
        vector1 = np.linspace(-1500.00, 1500.0, n)
        for i in range(100):
            vector2 = np.sin(vector1)
            vector1 = np.arcsin(vector2)
            vector2 = np.cos(vector1)
            vector1 = np.arccos(vector2)
            vector2 = np.tan(vector1)
            vector1 = np.arctan(vector2)
        return vector1

    before = live()
    for n in (1, 8, 100, 101):
        assert np.allclose(evaluate_functions(n), evaluate_functions.py_func(n), rtol=1e-12, atol=1e-12)
    assert live() == before
