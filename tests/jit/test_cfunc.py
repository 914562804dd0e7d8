"""kiln.cfunc: a kiln function behind a C function pointer, called through
ctypes and by SciPy's quad as a LowLevelCallable, with results checked
against the same Python function; an exception inside reaches
sys.unraisablehook and the call returns zero; what C cannot pass is a
TypingError."""
import math

import numpy as np
import pytest
import scipy
import scipy.integrate

import kiln


def gaussian(x):
    return math.exp(-x * x / 2.0) / math.sqrt(2.0 * math.pi)


def test_quad_integrates_a_cfunc_as_a_low_level_callable():
    compiled = kiln.cfunc("float64(float64)")(gaussian)
    for lo, hi in ((0.0, 1.0), (-3.0, 2.5), (-np.inf, np.inf)):
        got = scipy.integrate.quad(scipy.LowLevelCallable(compiled.ctypes), lo, hi)
        want = scipy.integrate.quad(gaussian, lo, hi)
        assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-15)
    assert compiled.address == compiled._spec.address and compiled.address > 0
    assert "_cfunc" in compiled.inspect_llvm()


def clamp_add(a, b):
    s = a + b
    return -100 if s < -100 else 100 if s > 100 else s


def is_positive(x, flip):
    return (x > 0) != flip


@pytest.mark.parametrize("function, signature, argsets", [
    (clamp_add, "int32(int32, int32)", [(1, 2), (-90, -20), (60, 70), (0, 0)]),
    (clamp_add, "int64(int64, int64)", [(2**40, -2**40), (-7, 3)]),
    (is_positive, "boolean(float32, boolean)", [(1.5, False), (1.5, True), (-0.0, False), (float("nan"), True)]),
    (gaussian, "float32(float32)", [(0.0,), (1.0,), (-2.5,)]),
])
def test_ctypes_calls_agree_with_python(function, signature, argsets):
    compiled = kiln.cfunc(signature)(function)
    for args in argsets:
        want = function(*args)
        got = compiled(*args)
        if isinstance(want, float):
            assert got == pytest.approx(want, rel=1e-6)
        else:
            assert got == want


def test_an_exception_goes_to_the_unraisable_hook_and_the_call_returns_zero(monkeypatch):
    seen = []
    monkeypatch.setattr("sys.unraisablehook", seen.append)

    @kiln.cfunc("int64(int64, int64)")
    def divide(a, b):
        return a // b

    assert divide(7, 2) == 3 and not seen
    assert divide(7, 0) == 0
    assert len(seen) == 1 and seen[0].exc_type is ZeroDivisionError and "divide" in str(seen[0].object)
    assert divide(-7, 2) == -4   # the next call is unaffected


def test_a_cfunc_returning_nothing_calls_other_kiln_functions(monkeypatch):
    seen = []
    monkeypatch.setattr("sys.unraisablehook", seen.append)

    @kiln.njit
    def check(a):
        if a.sum() < 0:
            raise ValueError("negative")

    @kiln.cfunc("void(float64)")
    def validate(x):
        check(np.full(3, x))

    assert validate(2.0) is None and not seen
    assert validate(-1.0) is None
    assert len(seen) == 1 and seen[0].exc_type is ValueError and str(seen[0].exc_value) == "negative"


def first_item(x):
    return x[0]


def as_complex(x):
    return x + 0j


@pytest.mark.parametrize("function, signature, message", [
    (first_item, "float64(float64[:])", r"a cfunc's argument 'x' is array\(float64, 1d, A\), which a C caller cannot pass"),
    (as_complex, "complex128(float64)", "a cfunc returns complex128, which C cannot receive"),
])
def test_what_c_cannot_pass_is_a_typing_error(function, signature, message):
    with pytest.raises(kiln.TypingError, match=message):
        kiln.cfunc(signature)(function)


def test_a_signature_is_required():
    with pytest.raises(TypeError, match="kiln.cfunc needs a signature"):
        kiln.cfunc(gaussian)
    with pytest.raises(TypeError, match="needs the return type"):
        kiln.cfunc("(float64,)")(gaussian)
