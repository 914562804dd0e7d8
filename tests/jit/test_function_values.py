"""Kiln functions as values, beyond the corpus (corpus_function_values.py):
lambdas and inner defs passed from compiled code, functions passed into
parallel loops, one specialization per function passed, and the errors a
user meets: a Python function, a builtin, a closure over local variables,
two functions in one variable, calling a number."""
import math

import numpy as np
import pytest

import kiln
from corpus_function_values import _cube as cube, _midpoint_rule as midpoint, _square as square


def python_midpoint(f, a, b, n):
    h = (b - a) / n
    return sum(f(a + (i + 0.5) * h) for i in range(n)) * h


def test_a_lambda_and_an_inner_def_pass_as_values():
    @kiln.njit
    def both(x):
        def triple(y):
            return 3 * y
        return midpoint(lambda t: t * t + 1.0, 0.0, x, 10), midpoint(triple, 0.0, x, 4)

    for x in (1.0, -2.5, 0.0, 7.25):
        got = both(x)
        assert got[0] == pytest.approx(python_midpoint(lambda t: t * t + 1.0, 0.0, x, 10), rel=1e-12)
        assert got[1] == pytest.approx(python_midpoint(lambda y: 3 * y, 0.0, x, 4), rel=1e-12)


def test_a_function_argument_runs_in_a_parallel_loop():
    @kiln.njit(parallel=True)
    def apply_all(f, a):
        out = np.empty_like(a)
        for i in kiln.prange(a.shape[0]):
            out[i] = f(a[i])
        return out

    a = np.linspace(-3.0, 3.0, 10_001)
    np.testing.assert_array_equal(apply_all(cube, a), a * a * a)
    np.testing.assert_array_equal(apply_all(square, a[::7]), a[::7] ** 2)
    assert apply_all.parallel_report().loops[0]["parallel"]


def test_each_function_passed_gets_its_own_specialization_and_type():
    @kiln.njit
    def integrate(f, n):
        return midpoint(f, 0.0, 1.0, n)

    assert integrate(square, 1000) == pytest.approx(1 / 3)
    assert integrate(cube, 1000) == pytest.approx(1 / 4)
    assert integrate(square, 10) == pytest.approx(python_midpoint(lambda x: x * x, 0.0, 1.0, 10))
    assert len(integrate.signatures) == 2
    names = [str(sig[0]) for sig in integrate.signatures]
    assert names[0].startswith("function(_square at 0x") and names[1].startswith("function(_cube at 0x")
    assert kiln.typeof(square) == integrate.signatures[0][0]
    (lines,) = integrate.inspect_types(integrate.signatures[0], pretty=False).values()
    assert lines[-1][2]["f"] == str(kiln.typeof(square))


def test_a_returned_function_is_the_same_python_object():
    @kiln.njit
    def pick(f):
        g = f
        return g

    assert pick(cube) is cube


def test_a_python_function_is_refused_with_advice():
    with pytest.raises(TypeError, match=r"argument 'f' is the Python function .*<lambda>.*decorate it with @kiln.njit"):
        midpoint(lambda x: x, 0.0, 1.0, 4)
    with pytest.raises(TypeError, match=r"argument 'f' is the callable sin.*wrap it in a kiln function"):
        midpoint(math.sin, 0.0, 1.0, 4)
    assert midpoint(square, 0.0, 3.0, 3) == pytest.approx(python_midpoint(lambda x: x * x, 0.0, 3.0, 3))


def test_a_closure_over_local_variables_is_not_a_value():
    @kiln.njit
    def shifted(x, k):
        return midpoint(lambda t: t + k, 0.0, x, 4)

    with pytest.raises(kiln.TypingError, match="an inner function that reads variables of the function around it") as e:
        shifted(1.0, 2.0)
    assert "Pass the variables it reads as arguments" in str(e.value)


def test_two_functions_in_one_variable_name_both():
    @kiln.njit
    def choose(flag, x):
        f = square
        if flag:
            f = cube
        return f(x)

    with pytest.raises(kiln.TypingError, match=r"function\(_square at 0x.*function\(_cube at 0x|function\(_cube at 0x.*function\(_square at 0x"):
        choose(True, 2.0)


def test_looping_over_a_tuple_of_different_functions_says_to_index_it():
    @kiln.njit
    def total(fs, x):
        s = 0.0
        for f in fs:
            s += f(x)
        return s

    assert total((square, square), 3.0) == 18.0
    with pytest.raises(kiln.TypingError, match="its items have different types") as e:
        total((square, cube), 3.0)
    assert "t[0], t[1]" in str(e.value)


def test_calling_a_number_is_a_typing_error():
    @kiln.njit
    def call(x):
        return x(1)

    with pytest.raises(kiln.TypingError, match="int64 is not callable"):
        call(3)
