"""kiln.extending (python/kiln/extending.py): register_jitable and overload
with implementations written in Python, as Numba's; compiled results
against the same functions run by CPython."""
import math

import numpy as np
import pytest

import kiln
from kiln import types
from kiln.extending import overload, register_jitable


@register_jitable
def clip01(x):
    return min(max(x, 0.0), 1.0)


@register_jitable(fastmath=True)
def scaled_sum(a, k):
    s = 0.0
    for v in a:
        s += v * k
    return s


def magnitude(x):
    """Pure Python, overloaded below for compiled code."""
    if isinstance(x, np.ndarray):
        return math.sqrt(float((x * x).sum()))
    return abs(x)


@overload(magnitude)
def magnitude_for(x):
    if isinstance(x, (types.Integer, types.Float)):
        return lambda x: abs(x)
    if isinstance(x, types.Array) and x.ndim == 1 and isinstance(x.dtype, types.Float):
        def of_a_vector(x):
            s = 0.0
            for v in x:
                s += v * v
            return math.sqrt(s)
        return of_a_vector
    return None


def last_of(a):
    raise NotImplementedError("only compiled code has this")


@overload(np.tril_indices_from)   # a NumPy function, written by its user: it takes the place of Kiln's own
def tril_indices_from_for(arr, k=0):
    def impl(arr, k=0):
        n, m = arr.shape
        return np.tril_indices(n, k, m)
    return impl


def uses_them(x, a):
    return clip01(x), scaled_sum(a, x), magnitude(-x), magnitude(a), magnitude(-3)


compiled = kiln.njit(uses_them)


@pytest.mark.parametrize("x, a", [(0.25, np.array([3.0, 4.0])), (-2.0, np.zeros(0)), (7.5, np.arange(5.0)[::-2]),
                                  (math.nan, np.array([math.inf, -1.0]))])
def test_compiled_calls_give_what_python_gives(x, a):
    got, want = compiled(x, a), uses_them(x, a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w or (math.isnan(g) and math.isnan(w))


def test_registered_functions_stay_python_for_python_callers():
    assert type(clip01).__name__ == "function"   # the function itself, not a dispatcher
    assert clip01(3.0) == 1.0 and magnitude(np.array([3.0, 4.0])) == 5.0
    with pytest.raises(NotImplementedError):
        last_of(np.zeros(2))


@pytest.mark.parametrize("shape, k", [((3, 3), 0), ((2, 4), 1), ((4, 2), -1), ((0, 3), 0)])
def test_an_overload_gives_compiled_code_a_numpy_function(shape, k):
    a = np.ones(shape)
    lower = kiln.njit(lambda a, k: (np.tril_indices_from(a), np.tril_indices_from(a, k)))
    for got, want in zip(lower(a, k), (np.tril_indices_from(a), np.tril_indices_from(a, k))):
        assert len(got) == 2 and all(np.array_equal(g, w) for g, w in zip(got, want))


def test_an_overload_without_an_implementation_for_the_types_says_so_at_the_users_line():
    @kiln.njit
    def of_a_matrix(m):
        return magnitude(m)
    with pytest.raises(kiln.TypingError) as info:
        of_a_matrix(np.zeros((2, 2)))
    said = str(info.value)
    assert "return magnitude(m)" in said and "has no implementation for (array(float64, 2d, C))" in said
    assert "Hint: Have the overload return an implementation" in said


def test_types_look_as_numbas_to_a_factory():
    a = types.float32[:, ::1]
    assert isinstance(a, types.Array) and (a.ndim, a.layout, a.dtype) == (2, "C", types.float32)
    assert isinstance(types.int16, types.Integer) and types.int16.bitwidth == 16 and types.int16.signed
    assert not isinstance(types.int16, types.Float) and isinstance(types.complex64, types.Number)
    pair = types.UniTuple(types.float64, 2)
    assert isinstance(pair, types.UniTuple) and not isinstance(pair, types.Tuple) and pair.count == 2
    assert isinstance(types.Tuple((types.float64, types.int8)), types.Tuple)
