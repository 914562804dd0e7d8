"""Corpus, part 6: kiln functions as values, as Numba's first-class
dispatchers. A function passed as an argument (an integrand, a derivative,
a reducer), passed on to another kiln function, kept in a variable or a
tuple, returned, and called with keywords and defaults: each call compiles
as a direct call to that function. Lambdas and inner defs passed from
compiled code, which CPython cannot pass to a kiln function, are in
test_function_values.py."""
import numpy as np

import kiln
from jit_diff import case


@kiln.njit
def _square(x):
    return x * x


@kiln.njit
def _cube(x):
    return x * x * x


@kiln.njit
def _halve(x):
    return x // 2 if x % 2 == 0 else 3 * x + 1


@kiln.njit
def _scaled(x, k=2.0, shift=0):
    return k * x + shift


@kiln.njit
def _parabola(x):
    return x * x - 2.0


@kiln.njit
def _parabola_slope(x):
    return 2.0 * x


@kiln.njit
def _larger(a, b):
    return a if a > b else b


@kiln.njit
def _midpoint_rule(f, a, b, n):
    h = (b - a) / n
    s = 0.0
    for i in range(n):
        s += f(a + (i + 0.5) * h)
    return s * h


FUNCTIONS_AND_BOUNDS = [(f, a, b, n) for f in (_square, _cube, _scaled) for a, b in ((0.0, 1.0), (-2.0, 3.5), (1.0, 1.0))
                        for n in (1, 7, 100)]


@case(*FUNCTIONS_AND_BOUNDS)
def trapezoid_of_a_function_argument(f, a, b, n):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h


@case(*[(f, a, b, n) for f, a, b, n in FUNCTIONS_AND_BOUNDS if n > 1])
def passed_on_to_another_kiln_function(f, a, b, n):
    return _midpoint_rule(f, a, b, n), _midpoint_rule(_square, a, b, n)


@case((_parabola, _parabola_slope, 1.0, 20), (_parabola, _parabola_slope, -3.0, 20), (_parabola, _parabola_slope, 5.0, 0))
def newton_with_a_function_and_its_derivative(f, df, x, steps):
    for _ in range(steps):
        x = x - f(x) / df(x)
    return x


@case(*[(_halve, n, 1000) for n in (1, 6, 27, 97, -4, 2**40)])
def iterate_an_integer_map(step, n, limit):
    count = 0
    while n != 1 and count < limit:
        n = step(n)
        count += 1
    return count, n


@case(*[(_larger, a) for a in (np.array([3, -1, 9, 9, 2]), np.array([-2.5, -7.0]), np.arange(12.0)[::-3])])
def reduce_an_array_with_a_function(op, a):
    acc = a[0]
    for x in a[1:]:
        acc = op(acc, x)
    return acc


@case(*[(_square, a) for a in (np.arange(6.0), np.array([-1.5, 0.0, 2.0]), np.zeros(0), np.arange(20.0).reshape(4, 5)[:, 1])])
def map_over_an_array(f, a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = f(a[i])
    return out


@case((_scaled, 1.5), (_scaled, -4), (_scaled, 0))
def keywords_and_defaults_through_a_value(f, x):
    return f(x), f(x, 3), f(x, k=-1.0), f(x, shift=5, k=0.5), f(*(x, 1.0, 2))


@case((_square, _cube, 2.0), (_cube, _square, -1.5), (_square, _square, 3))
def functions_in_a_tuple_and_a_variable(f, g, x):
    pair = (f, g)
    h = pair[1]
    return pair[0](x) + h(x), h(pair[0](x))


@case((_square, 3.0), (_cube, -2))
def a_function_returned_and_called(f, x):
    g = _identity(f)
    return g(x)


@kiln.njit
def _identity(v):
    return v
