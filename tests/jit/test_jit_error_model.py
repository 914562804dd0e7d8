"""kiln.jit's error_model, as Numba's: 'python' (the default) raises
ZeroDivisionError on a float division by zero, 'numpy' gives inf or nan.
A loop that cannot raise vectorizes, math calls included (the notebook's
vectorization report says so)."""
import math

import numpy as np
import pytest

import kiln


def divide(a, b):
    return a / b


def test_python_model_raises_and_numpy_model_gives_ieee():
    strict = kiln.jit(divide)
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        strict(1.0, 0.0)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        strict(1, 0)
    loose = kiln.jit(error_model="numpy")(divide)
    assert loose(1.0, 0.0) == math.inf and loose(-1.0, 0.0) == -math.inf
    assert math.isnan(loose(0.0, 0.0)) and math.isnan(loose(0, 0))
    assert loose(7, 2) == 3.5 and strict(7, 2) == 3.5


def test_unknown_error_model_is_a_clear_error():
    with pytest.raises(ValueError, match="error_model must be 'python' or 'numpy'"):
        kiln.jit(error_model="c")(divide)


def cos_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = math.cos(x[i] * x[i])


def falloff_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = np.cos(x[i] * x[i]) / (1.0 + x[i] * x[i])


def vectorized(f):
    return any(r["kind"] == "vectorized" for r in f.inspect_remarks())


@pytest.mark.parametrize("model", ["python", "numpy"])
def test_math_calls_in_a_loop_vectorize(model):
    f = kiln.jit(error_model=model)(cos_loop)
    x = np.linspace(-4, 4, 1001)
    out = np.empty_like(x)
    f(x, out)
    np.testing.assert_allclose(out, np.cos(x * x), rtol=1e-15, atol=1e-15)
    assert vectorized(f), f.inspect_remarks()


def test_a_division_that_may_raise_keeps_the_loop_scalar_unless_numpy_model():
    x = np.linspace(-4, 4, 1001)
    expected = np.cos(x * x) / (1.0 + x * x)
    for model, vectorizes in (("python", False), ("numpy", True)):
        f = kiln.jit(error_model=model)(falloff_loop)
        out = np.empty_like(x)
        f(x, out)
        np.testing.assert_allclose(out, expected, rtol=1e-15, atol=1e-15)
        assert vectorized(f) == vectorizes, (model, f.inspect_remarks())
