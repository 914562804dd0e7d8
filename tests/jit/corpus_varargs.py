"""Corpus, part 5: *args parameters (from Python and between kiln
functions, heterogeneous, empty, with defaults before them), calls that
spread a tuple, f(*t), into kiln functions, builtins and math functions,
and sum / min / max of a tuple (the seed course's mean(*args))."""
import math

import numpy as np

import kiln
from jit_diff import case

ARR = np.arange(-3.0, 4.0)


@kiln.jit
def _total(*values):
    s = 0
    for v in values:
        s += v
    return s


@kiln.jit
def _head(first, *rest):
    return first, len(rest), rest


@kiln.jit
def _weighted(x, w=2, *more):
    return x * w + _total(*more)


@kiln.jit
def _norm3(x, y, z):
    return math.sqrt(x * x + y * y + z * z)


@case((), (1,), (-2, 5), (1, 2.5, -3), (2**62, 2**62, 2**62), (True, 3), (np.int8(-7), np.uint16(9)))
def star_args_from_python(*values):
    s = 0
    for v in values:
        s += v
    return s, len(values), values


@case((1,), (1, 2), (-4, 2.5, np.float32(0.5)), (0, ARR), (ARR, ARR[::2], 3))
def positional_then_star_args(first, *rest):
    return first, rest


@case((2, (1, 2, 3)), (-1.5, (0.5,)), (7, ()), (2**62, (2**62, 5)))
def star_args_between_kiln_functions(x, t):
    return _total(x, *t), _total(*t), _total(), _head(x, *t), _head(*t, x)


@case((3, -2), (0.5, 4.0), (-7, 2**62))
def star_args_with_a_default_before_them(a, b):
    return _weighted(a), _weighted(a, b), _weighted(a, b, b, 1), _weighted(*(a, b, a)), _weighted(a, w=b)


@case(((1.0, 2.0, 2.0),), ((-3, 4, 12),), ((0, 0, 0),))
def spread_a_tuple_argument(t):
    return _norm3(*t), max(*t), min(*t, 100), math.hypot(*(t[1], t[2]))


@case((1, 2), (-5, 7.5))
def spread_a_local_tuple_and_a_display(a, b):
    t = (a, b, a - b)
    u = (b,)
    return _norm3(*t), _norm3(a, *u, 1), _norm3(*(a, b), *u), max(*(a, b, 0)), _total(*t, *u, *())


@case(*[(n,) for n in [-3, 0, 1, 6]])
def spread_in_a_loop(n):
    acc = 0.0
    for i in range(n):
        t = (i, i + 1, -i)
        acc += _norm3(*t) + _total(*t, i)
    return acc


@case((ARR,), (ARR[::-2],), (np.zeros(0),))
def spread_arrays(a):
    t = (a, a)
    return _head(*t)[1], _total(len(a), *(a.size, a.ndim))


@kiln.jit
def _mean(*args):   # the seed course's mean(*args), jitted
    return sum(args) / len(args)


@case((1.0, 2.0, 3.0), (4, -1), (2.5,), (), (2**40, -3, 1))
def seed_mean_of_star_args(*values):
    return sum(values) / len(values)


@case((3, (1.5, -2, 7)), (0, ()), (-1, (2**62, 2**62)), (2, (np.float32(0.5), True)))
def sum_min_max_of_tuples(start, t):
    u = (start, 2, -5)
    return sum(t), sum(t, start), sum(u), min(u), max(u), max((start, 1.5)), sum((start, start)), _mean(*u)

