"""A kiln.vectorize kernel follows NumPy's error model, as Numba's does: a
float (or int / int) division by zero gives inf or nan, as np.divide does,
instead of raising. Free of that exit, a loop with libm math vectorizes
through glibc's SIMD functions (the seed's f(x, y) ran ten times faster)."""
import numpy as np
import pytest

import kiln


def ratio(x, y):
    return x / y


def falloff(x, y):
    return np.cos(x ** 2 + y ** 2) / (1 + x ** 2 + y ** 2)


def test_float_division_by_zero_is_numpys():
    f = kiln.vectorize(ratio)
    x = np.array([1.0, -1.0, 0.0, 2.5, -0.0])
    y = np.array([0.0, 0.0, 0.0, -0.0, 4.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.divide(x, y)
    with pytest.warns(RuntimeWarning, match="divide by zero"):   # NumPy's warning, from the CPU's flags
        got = f(x, y)
    np.testing.assert_array_equal(got, expected)   # inf, -inf, nan, -inf, -0.0


def test_int_true_division_by_zero_is_numpys():
    f = kiln.vectorize(["float64(int64, int64)"])(ratio)
    x = np.array([3, -3, 0, 7], dtype=np.int64)
    y = np.array([0, 0, 0, 2], dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.true_divide(x, y)
        np.testing.assert_array_equal(f(x, y), expected)


def test_seed_falloff_matches_numpy_on_a_grid():
    f = kiln.vectorize(falloff)
    grid = np.linspace(-3, 3, 301)
    x, y = np.meshgrid(grid, grid)
    np.testing.assert_allclose(f(x, y), np.cos(x ** 2 + y ** 2) / (1 + x ** 2 + y ** 2), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(f(x[::3, ::-2], y[::3, ::-2]), falloff(x[::3, ::-2], y[::3, ::-2]), rtol=1e-14,
                               atol=1e-15)   # strided views take the ufunc's general loop
