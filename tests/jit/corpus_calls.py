"""Corpus, part 4: keyword arguments and default values (from Python and
between kiln functions), tuple comparisons, enumerate/zip over tuples,
complex powers, mutual recursion and functions defined inside compiled
functions (recursive ones too)."""
import operator

import numpy as np

import kiln
from jit_diff import case

INTS = [(a, b) for a in [-7, -1, 0, 2, 9] for b in [-3, 0, 2, 2**62]]
FLOATS = [(a, b) for a in [-2.5, -0.0, 0.0, 1.5] for b in [-1.0, 0.0, 1.5, float("inf")]]


@kiln.jit
def _affine(x, scale=2.0, shift=1):
    return x * scale + shift


@kiln.jit
def _clip(x, lo=-1, hi=1):
    return lo if x < lo else hi if x > hi else x


@case((3,), (2.5,), (-4,), (0,))
def keyword_and_default_calls(x):
    return (_affine(x), _affine(x, 3), _affine(x, shift=-2), _affine(shift=5, x=x, scale=0.5),
            _affine(x, 0.25, shift=x))


@case(*[(x,) for x in [-9, -1, 0, 1, 7]])
def defaults_in_a_loop(n):
    s = 0
    for i in range(-abs(n), abs(n) + 1):
        s += _clip(i) + _clip(i, hi=3) + _clip(i, -5, hi=5) + _clip(lo=0, x=i)
    return s


@case((1,), (1, 2), (1, 2, 3), (-4.5,), (0, 0.5))
def own_defaults_from_python(a, b=10, c=-1.5):
    return a * b + c


@case(*INTS)
def tuple_compare_ints(a, b):
    t, u = (a, b), (b, a)
    return (t == u, t != u, t < u, t <= u, t > u, t >= u, (a,) < (a, b), (a, b) == (a,))


@case(*FLOATS)
def tuple_compare_floats(a, b):
    return ((a, b) < (a, b), (a, b) <= (a, 2.0), (a, 1, b) == (a, 1.0, b), (a, (b, 1)) > (a, (b, 0)),
            (b, a) >= (b, -a))


@case((float("nan"), 1.0), (1.0, float("nan")), (2.0, 3.0))
def tuple_compare_nan(a, b):
    # new float objects on each side: CPython's tuples treat the *same* NaN
    # object as equal (identity), which compiled values cannot mirror
    return (a * 1.0, b) < (a + 0.0, b * 1.0), (a * 1.0, b) == (a + 0.0, b * 1.0), (a + 0.0,) != (a * 1.0,)


@case(*INTS[:8])
def tuple_compare_chained(a, b):
    return (a, 0) < (a, 1) < (b, 0), (0, a) <= (0, a) == (0, a)


@case((1, 2), (-3, 4), (0, 0))
def enumerate_tuple(a, b):
    s = 0.0
    for i, v in enumerate((a, b * 0.5, a - b)):
        s += (i + 1) * v
    for i, v in enumerate((a, b), 10):
        s -= i * v
    return s


@case((1, 2), (-3, 4), (5, 0))
def zip_tuples(a, b):
    s = 0.0
    for x, y, z in zip((a, b, a * b), (1.5, -2.0, 0.5, 99.0), (1, 2, 3)):
        if z == 3 and a > 4:
            break
        s += x * y - z
    else:
        s += 1000
    return s


@case(*[(ar, ai, br, bi) for ar, ai in [(1.5, -2.0), (0.0, 0.0), (-3.0, 0.5)]
        for br, bi in [(2.0, 0.0), (-3.0, 0.0), (0.5, 0.0), (1.5, -0.75), (0.0, 0.0), (150.0, 0.0)]])
def complex_power(ar, ai, br, bi):
    return complex(ar, ai) ** complex(br, bi)


@case(*[(ar, n) for ar in [0.0, -1.25, 2.0] for n in [0, 1, 5, -2, 101]])
def complex_power_int(ar, n):
    return complex(ar, 0.5 * ar) ** n, complex(ar, 1.0) ** float(n)


@case((1e200, 2.0), (10.0, 400.0))
def complex_power_overflow(a, b):
    return complex(a, a) ** complex(b, 0.0)


@kiln.jit
def _collatz_even(n, steps):
    if n == 1:
        return steps
    if n % 2 == 0:
        return _collatz_even(n // 2, steps + 1)
    return _collatz_odd(n, steps)


@kiln.jit
def _collatz_odd(n, steps):
    if n == 1:
        return steps
    return _collatz_even(3 * n + 1, steps + 1)


@case((1,), (6,), (27,), (97,))
def mutual_recursion(n):
    return _collatz_even(n, 0)


@case((np.array([0.5, -1.0]), 5), (np.array([2.0, 0.0]), 0), (np.zeros(1), -3))
def inner_function_reads_outer_variables_as_they_are_now(a, n):
    k = 2
    def f(x, y):
        return x * k + y + a[0]
    s = 0.0
    for i in range(n):
        s += f(i, 1.5)
        k = k + 1
    return s + f(y=-1.0, x=n)


@case((4,), (-7,), (0,))
def two_inner_functions(n):
    def neg(x):
        return -x
    def twice(x):
        if x < 0:
            return x * 2
        return x + x
    return neg(n) + twice(n) + twice(neg(n))


@case((0,), (1,), (5,), (12,), (-2,))
def recursive_inner_function(n):
    def fact(m):
        if m < 2:
            return 1
        return m * fact(m - 1)
    return fact(n), fact(n + 20)   # 22! wraps at 64 bits, as compiled integers do


@case((0, 1), (6, 0), (9, -3))
def recursive_inner_function_reading_outer_variables(n, k):
    scale = k * 2
    def fib(m):
        if m < 2:
            return m + scale
        return fib(m - 1) + fib(m - 2)
    def twice_fib(m):   # calls an earlier inner function, passing on what it reads
        return 2 * fib(m)
    return fib(n), twice_fib(n)



@case((3, 10), (-2.5, 0), (0, -7))
def lambdas_bound_to_names(x, k):   # each an inner function reading what it needs of the outer ones
    twice_plus = lambda y: y * 2 + k
    square_plus = lambda a, b: a * a + b
    return twice_plus(x), square_plus(x, 1.0), twice_plus(twice_plus(x)), square_plus(k, x)


@case((np.arange(5.0),), (np.array([-1.0, 3.0]),))
def lambda_over_an_array(a):
    scaled = lambda v: v / np.abs(a).max()
    return scaled(a), scaled(a[::-1]).sum()


# the operator module's functions, as the operators they are (infer_calls.c: operator_call); one
# held in a global, as Numba's tests hold them
LESS = operator.lt
@case((3, 4.5), (-7, 2), (2.5, -0.0), (True, 3), (1 + 2j, 2))
def operator_functions(a, b):
    return (operator.add(a, b), operator.sub(a, b), operator.mul(a, b), operator.neg(a), operator.pos(b),
            operator.eq(a, b), operator.ne(a, b), operator.not_(a), operator.truth(b), operator.abs(a),
            operator.iadd(a, b), operator.imul(a, b), operator.contains((1, 2, 3), a), operator.is_not(a, None))
@case((7, 2), (-9, 4), (5, -3))
def operator_integer_functions(a, b):
    return (operator.floordiv(a, b), operator.mod(a, b), operator.pow(a, 2), operator.and_(a, b), operator.or_(a, b),
            operator.xor(a, b), operator.lshift(a, 2), operator.rshift(a, 1), operator.invert(a), LESS(a, b),
            operator.le(a, b), operator.ge(a, b), operator.gt(a, b), operator.truediv(a, b))
@case((np.arange(4.0), 2.0), (np.array([-1, 5]), 3))
def operator_on_arrays(a, k):
    return operator.mul(a, k), operator.lt(a, k), operator.neg(a)
