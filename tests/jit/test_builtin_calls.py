"""Calls of Python's builtins, math, cmath and random in compiled code: each
found by its name in the registry of callables, NumPy's ufuncs of numbers
through the builtin their entry names, and a refusal that says what the
function does take."""
import cmath
import math
import random

import numpy as np
import pytest

import kiln


def _refusal(fn, *args):
    with pytest.raises(kiln.TypingError) as info:
        fn(*args)
    return str(info.value)


@pytest.mark.parametrize("x", [2.5, -2.5, 3.0, -0.0, 7])
def test_numpy_names_of_math_functions_keep_numpys_result_types(x):
    @kiln.njit
    def f(x):
        return np.floor(x), math.floor(x), np.arctan2(x, 2.0), np.maximum(x, 1), np.absolute(x)
    got = f(x)
    want = f.py_func(x)
    assert got[:2] == want[:2] and got[3:] == want[3:]
    assert got[2] == pytest.approx(want[2], rel=1e-15)   # libm's atan2 against NumPy's: an ulp apart
    assert [type(v) for v in got[:2]] == [float, int]   # np.floor keeps a float, math.floor gives an int


@pytest.mark.parametrize("call,args,reason", [
    (lambda a, b: math.gcd(a, b), (1.5, 2), "It takes 2 integers."),
    (lambda a: math.factorial(a), (2.0,), "It takes 1 integer."),
    (lambda a, b: math.ldexp(a, b), (1.0, 2.5), "It takes 2 real numbers, an integer last."),
    (lambda a, b: math.atan2(a, b), (1.0, 2j), "It takes 2 real numbers."),
    (lambda a: math.prod((a, a)), (2.0,), "This function is not compiled yet"),
    (lambda a: cmath.tan(a), (1j,), "cmath supports sqrt, exp, log"),
    (lambda a, b: random.randint(a, b), (1.0, 3), "Compiled code supports random.random()"),
])
def test_a_refused_call_says_what_the_function_takes(call, args, reason):
    msg = _refusal(kiln.njit(call), *args)
    assert "is not supported in compiled code" in msg
    assert reason in msg


def test_math_cmath_and_random_entries_agree_with_cpython():
    @kiln.njit
    def f(x, n):
        random.seed(n)
        r = random.randint(1, 6)
        return (math.gcd(n, 12), math.comb(n, 2), math.isqrt(n), math.frexp(x), math.modf(x),
                cmath.sqrt(complex(x, -1.0)), cmath.polar(complex(x, 1.0)), 1 <= r <= 6)
    for x, n in [(2.75, 9), (-0.5, 0), (1e300, 40)]:
        got, want = f(x, n), f.py_func(x, n)
        assert got[:5] == want[:5]
        assert got[5] == pytest.approx(want[5]) and got[6] == pytest.approx(want[6])
        assert got[7]


def test_a_negative_argument_raises_maths_value_error():
    @kiln.njit
    def f(n, k):
        return math.comb(n, k)
    with pytest.raises(ValueError, match="k must be a non-negative integer"):
        f(3, -1)
    assert f(5, 2) == 10


@pytest.mark.parametrize("z", [complex(1.5, -2.0), complex(float("nan"), 0.0), complex(0.0, float("inf")),
                               complex(-0.0, 1e308)])
def test_cmath_entries_agree_with_cpython(z):
    @kiln.njit
    def f(z):
        return (cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z), cmath.phase(z),
                cmath.rect(abs(z.real) if z.real == z.real else 1.0, 0.5))
    got, want = f(z), f.py_func(z)
    assert got[:3] == want[:3]
    assert got[3] == pytest.approx(want[3], nan_ok=True) and got[4] == pytest.approx(want[4])
    if cmath.isfinite(z) and abs(z) < 1e300:
        g = kiln.njit(lambda z: (cmath.log(z), cmath.sin(z), cmath.cos(z)))
        for a, b in zip(g(z), g.py_func(z)):
            assert a == pytest.approx(b, rel=1e-12)


def test_random_and_np_random_share_one_stream_in_compiled_code():
    @kiln.njit
    def draws(n):
        random.seed(n)
        a = random.random()
        random.seed(n)   # random's seed governs np.random too
        b = np.random.random()
        np.random.seed(n)
        return a, b, random.random()
    a, b, c = draws(7)
    assert a == b == c
    assert 0.0 <= a < 1.0
    assert draws(8)[0] != a
