"""Corpus, part 1: scalar arithmetic, comparisons, builtins, math, cmath."""
import cmath
import math

import numpy as np

import kiln
from jit_diff import case

INTS = [0, 1, -1, 7, -7, 13, -13, 2**31, -2**31 - 5, 2**62 + 3, 2**63 - 1, -2**63]
SMALL = [0, 1, -1, 3, -3, 10, -10]
FLOATS = [0.0, -0.0, 1.5, -2.25, 3.75, -1e-300, 1e300, 0.1]
POS = [0.5, 1.0, 2.0, 3.5, 1e-10, 100.0]
UNIT = [-0.9, -0.5, 0.0, 0.25, 0.75]

II = [(a, b) for a in INTS for b in [0, 1, -1, 3, -5, 2**40, -2**63]]
SS = [(a, b) for a in SMALL for b in SMALL]
FF = [(a, b) for a in FLOATS for b in [0.0, 1.0, -3.0, 0.5, 2.5e-3]]
IF = [(a, b) for a in SMALL for b in [0.5, -2.0, 0.0]]
I1 = [(a,) for a in INTS]
F1 = [(a,) for a in FLOATS]
P1 = [(a,) for a in POS]
U1 = [(a,) for a in UNIT]


@case(*II)
def int_add(a, b): return a + b
@case(*II)
def int_sub(a, b): return a - b
@case(*II)
def int_mul(a, b): return a * b
@case(*II)
def int_floordiv(a, b): return a // b
@case(*II)
def int_mod(a, b): return a % b
@case(*II)
def int_truediv(a, b): return a / b
@case(*SS)
def int_mixed_expr(a, b): return (a * 3 - b) * (a + 1) - b * b
@case(*[(a, b) for a in SMALL for b in [0, 1, 2, 3, 7]])
def int_pow(a, b): return a ** b
@case(*[(a, b) for a in INTS for b in [0, 1, 5, 63, 64, 100]])
def int_lshift(a, b): return a << b
@case(*[(a, b) for a in INTS for b in [0, 1, 5, 63, 64, 100, -1]])
def int_rshift(a, b): return a >> b
@case(*II)
def int_bitops(a, b): return (a & b) ^ (a | ~b)
@case(*I1)
def int_neg(a): return -a
@case(*I1)
def int_abs(a): return abs(a)
@case(*II)
def int_compare(a, b): return (a < b, a <= b, a == b, a != b, a > b, a >= b)
@case(*[(a, b, c) for a in SMALL for b in SMALL for c in (0, 5)])
def chained_compare(a, b, c): return a < b <= c
@case(*II)
def int_divmod(a, b): return divmod(a, b)
@case(*FF)
def float_add(a, b): return a + b
@case(*FF)
def float_sub_mul(a, b): return a * b - a
@case(*FF)
def float_div(a, b): return a / b
@case(*FF)
def float_floordiv(a, b): return a // b
@case(*FF)
def float_mod(a, b): return a % b
@case(*FF)
def float_divmod(a, b): return divmod(a, b)
@case(*[(a, b) for a in POS for b in [0.0, 1.0, 2.0, 0.5, -1.5, 3.0]])
def float_pow(a, b): return a ** b
# (CPython raises OverflowError where x ** 2 overflows; compiled code, like
# Numba's, gives inf: the inputs stay in range)
@case(*[(a,) for a in [0.0, -0.0, 1.5, -2.25, 3.75, 0.1]])
def float_square(a): return a ** 2 + a ** 3
# whole constant exponents up to 16, int or float, multiplied out (Numba's speed): within a few units in
# the last place of CPython's pow, signs, zeros, infinities and NaN alike
@case(*[(a,) for a in [0.0, -0.0, 1.5, -2.25, 3.75, 0.1, -1.0, 7, -3, float("inf"), float("-inf"), float("nan")]])
def float_whole_powers(a):
    return (a ** 4, a ** 5.0, (1.0 / (a + 0.5)) ** 6, a ** 6.0, a ** 7, a ** 11.0, a ** 16, a ** 2.0, a ** 3.0,
            a ** 17.0, abs(a) ** 2.5)
@case(*IF)
def mixed_int_float(a, b): return a * b + a
@case(*FF)
def float_compare(a, b): return (a < b, a == b, a >= b)
# exactly, as CPython: 2**63 - 1 is below 2.0**63, 2**53 + 1 above 2.0**53 (a
# converted int would tie both); NaN and the infinities unordered or beyond
EDGE_INTS = [0, -1, 2**53, 2**53 + 1, -2**53 - 1, 2**63 - 1, -2**63, -2**63 + 1]
EDGE_FLOATS = [0.0, 2.0**53, -2.0**53, 2.0**63, -2.0**63, 9.2e18, float("nan"), float("inf"), -float("inf")]
@case(*[(i, f) for i in EDGE_INTS for f in EDGE_FLOATS])
def int_float_compare(i, f): return (i < f, i <= f, i == f, i != f, i > f, i >= f, f < i, f >= i, f == i)
# constant ints: those within 2**53 convert exactly (one float comparison), those beyond compare exactly
@case(*[(f,) for f in EDGE_FLOATS + [4.0, 3.5, -4.0, 2.0**53 + 2, 9007199254740992.0]])
def float_against_constant_ints(f):
    return (f >= 4, 4 < f, f == -4, f <= 2**53, f > 2**53 + 1, 2**53 + 1 == f, f < -2**53 - 1, f != 2**63 - 1,
            f >= -2**63)
@case(*F1)
def float_neg_abs(a): return -abs(a)
@case(*[(a, b) for a in [True, False] for b in [True, False]])
def bool_ops(a, b): return (a and b, a or b, not a, a & b, a | b, a ^ b)
@case(*[(a, b) for a in [True, False] for b in [True, False]])
def bool_arith(a, b): return a + b
@case(*SS)
def and_or_values(a, b): return (a and b) or (b - a)
@case(*SS)
def ifexp(a, b): return a if a > b else b * 2
@case(*SS)
def ifexp_mixed(a, b): return a if a > b else 0.5
@case(*I1)
def int_to_float(a): return float(a)
@case(*F1)
def float_to_int(a): return int(a) if abs(a) < 1e18 else 0
@case(*[(a,) for a in [0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 7.0, -3.2]])
def round_half_even(a): return round(a)
# (round(x, n) scales by 10**n in binary, as Numba does; CPython rounds the
# exact decimal, so halfway cases such as 2.675 differ and are left out)
@case(*[(a,) for a in [0.125, -3.14159, 1234.5678, 7.0]])
def round_ndigits(a): return round(a, 2)
@case(*SS)
def min_max(a, b): return (min(a, b), max(a, b), min(a, b, -2), max(a, 2.5))
@case(*FF)
def min_max_float(a, b): return (min(a, b), max(a, b))
@case(*SS)
def builtin_pow(a, b): return pow(a, 2) + pow(b, 3)
@case(*[(a, b, m) for a in [2, 3, -7, 10] for b in [0, 5, 13] for m in [7, 1000, -3]])
def builtin_powmod(a, b, m): return pow(a, b, m)
@case(*[(a,) for a in [0, 1, -1, 5]])
def bool_of(a): return (bool(a), bool(a * 0.5), int(True) + a)
@case(*P1)
def math_sqrt_exp_log(x): return (math.sqrt(x), math.exp(-x), math.log(x), math.log10(x), math.log2(x))
@case(*P1)
def math_log1p_expm1(x): return (math.log1p(x), math.expm1(-x))
@case(*F1)
def math_trig(x): return (math.sin(x), math.cos(x), math.tan(x), math.atan(x))
@case(*U1)
def math_inverse_trig(x): return (math.asin(x), math.acos(x), math.atanh(x))
@case(*U1)
def math_hyperbolic(x): return (math.sinh(x), math.cosh(x), math.tanh(x), math.asinh(x))
@case(*[(x,) for x in [1.0, 1.5, 10.0]])
def math_acosh(x): return math.acosh(x)
@case(*FF)
def math_two_args(a, b): return (math.atan2(a, b), math.hypot(a, b), math.copysign(a, b))
@case(*[(a, b) for a in [5.5, -5.5, 3.0] for b in [2.0, -2.0, 0.75]])
def math_fmod(a, b): return math.fmod(a, b)
@case(*[(x,) for x in [0.5, -0.5, 1.5, -1.5, 2.0, -7.25, 1e10]])
def math_floor_ceil_trunc(x): return (math.floor(x), math.ceil(x), math.trunc(x))
@case(*[(x,) for x in [1, -3, 0]])
def math_floor_of_int(x): return math.floor(x) + math.ceil(x)
@case(*[(x,) for x in [0.0, 1.0, float("inf"), float("-inf"), float("nan")]])
def math_predicates(x): return (math.isnan(x), math.isinf(x), math.isfinite(x))
@case(*[(x,) for x in [0.1, 0.5, 1.0, 2.5, -0.3]])
def math_special(x): return (math.erf(x), math.erfc(x), math.gamma(x + 1.0), math.lgamma(abs(x) + 0.5))
@case(*[(x,) for x in [0.0, 30.0, -45.0, 180.0]])
def math_degrees_radians(x): return (math.radians(x), math.degrees(math.radians(x)))
@case(*[(x,) for x in [2.0, 8.0, 100.0]])
def math_log_base(x): return math.log(x, 2.0)
@case(*[(a, b) for a in [12, -18, 0, 7] for b in [8, 0, -4, 21]])
def math_gcd(a, b): return math.gcd(a, b)
@case(*[(x,) for x in [2.5, -2.5, 3.0, 0.0, -0.0, -4.0, float("inf"), -float("inf"), float("nan")]])
def math_modf(x): return math.modf(x)
# an exponent past a C int's range (2**40) is clamped, not wrapped: it underflows to a signed zero
@case(*[(x, e) for x in [0.5, 3.0] for e in [0, 3, -2]], (0.5, -2**40), (-3.0, -2**40), (0.0, 2**40))
def math_ldexp(x, e): return math.ldexp(x, e)
@case(*[(x,) for x in [1.0, 2.0]])
def math_constants(x): return (math.pi * x, math.e, math.tau, math.inf > x)
@case(*[(x,) for x in [0.5, 4.0]])
def numpy_scalar_funcs(x): return (np.sqrt(x), np.sin(x), np.arctan2(x, 1.0), np.floor(x), np.maximum(x, 1.0))
@case(*[(a, b) for a in [1.0, -2.0, 0.5] for b in [0.0, 3.0, -1.5]])
def complex_build(a, b): return complex(a, b)
@case(*[(a, b) for a in [1.0, -2.0, 0.5] for b in [0.25, 3.0, -1.5]])
def complex_arith(a, b):
    z = complex(a, b)
    w = complex(b, a)
    return (z + w, z - w, z * w, z / w, -z)
@case(*[(z,) for z in [1 + 2j, -3.5 + 0.5j, 0j, 2 - 1j]])
def complex_parts(z): return (z.real, z.imag, z.conjugate(), abs(z))
@case(*[(z,) for z in [1 + 2j, -3.5 + 0.5j, 4 + 0j, -4 + 0j, 2 - 1j]])
def cmath_funcs(z): return (cmath.sqrt(z), cmath.exp(z), cmath.phase(z))
@case(*[(z,) for z in [1 + 2j, -3.5 + 0.5j, 2 - 1j]])
def cmath_log_trig(z): return (cmath.log(z), cmath.sin(z), cmath.cos(z), cmath.polar(z))
@case(*[(r, p) for r in [1.0, 2.0] for p in [0.0, 1.0, -2.0]])
def cmath_rect(r, p): return cmath.rect(r, p)
@case(*[(z, w) for z in [1 + 1j, 2 - 3j] for w in [1 + 1j, 0.5 + 0j]])
def complex_compare(z, w): return (z == w, z != w)
@case(*[(np.float32(x), np.float32(y)) for x, y in [(1.5, 2.25), (-3.0, 0.125)]])
def float32_arith(x, y): return x * y + x
# (NumPy wraps int32 + int32 at 32 bits; compiled code widens to int64 as
# Numba does, so the inputs do not overflow 32 bits)
@case(*[(np.int32(a), np.int32(b)) for a, b in [(7, 3), (-7, 2), (40000, 3)]])
def int32_arith(a, b): return a + b, a * b, a // b
@case(*[(np.uint8(a), np.uint8(b)) for a, b in [(200, 50), (3, 7)]])
def uint8_arith(a, b): return a + b
@case(*[(np.uint64(a),) for a in [0, 1, 2**63 + 5]])
def uint64_ops(a): return a >> np.uint64(1)
@case(*[(x,) for x in [1.5, -2.5]])
def numpy_scalar_cast(x): return (np.float32(x) * np.float32(2.0), np.int64(x), np.uint8(3) + np.uint8(4))
@case(*[(a, b) for a in [3, -3] for b in [2, -2]])
def aug_assign_ops(a, b):
    x = a
    x += b
    x *= 3
    x -= 1
    x //= b
    x %= 7
    x **= 2
    x <<= 2
    x >>= 1
    x |= 1
    x &= 0xff
    x ^= 5
    return x
@case(*[(a,) for a in [3, -8, 0]])
def aug_assign_promotes(a):
    x = a
    x /= 2
    x += 0.25
    return x
@case(*SS)
def is_none_checks(a, b):
    x = None
    if a > b:
        x = a
    return x is None, x is not None
@case(*[(a,) for a in [0, 1, 2, 3]])
def unary_ops(a): return (+a, -a, ~a, not a)
@case(*[(a,) for a in [5, -5]])
def float_int_equality(a): return (a == 5.0, a < 5.5, 1 < a < 10)
GLOBAL_F32 = np.float32(0.1)
GLOBAL_TUPLE = (1, 2.5, 3)
GLOBAL_INT = 42
@case(*[(x,) for x in [1.0, 2.0]])
def global_constants(x): return (x * GLOBAL_F32, GLOBAL_TUPLE[1] + x, GLOBAL_INT - x)
@case(*[(n,) for n in [0, 1, 5, 20, 25, -1]])
def math_factorial(n): return math.factorial(n)
@case(*[(n,) for n in [0, 1, 15, 16, 2**52 + 1, 2**62, -4]])
def math_isqrt(n): return math.isqrt(n)
@case(*[(n, k) for n, k in [(5, 2), (10, 0), (3, 5), (30, 15), (60, 30), (-1, 2), (4, -1)]])
def math_comb_perm(n, k): return math.comb(n, k), math.perm(n, k)
@case(*[(x,) for x in [0.0, 1.0, -6.5, 1e-300, 3.75]])
def math_frexp(x): return math.frexp(x)
@case(*[(x, y) for x, y in [(1.0, 2.0), (1.0, 0.0), (0.0, -1.0)]])
def math_nextafter(x, y): return math.nextafter(x, y)
@case(*[(x,) for x in [1.0, 0.0, -3.5, 1e300, float("inf")]])
def math_ulp(x): return math.ulp(x)
@case(*[(a, b, c) for a, b, c in [(2, 20, 3), (20, 2, -3), (0, 0, 1), (5, -5, 1), (-10, 10, 7), (3, 7, -1),
                                   (1, 2, 0), (-2**62, 2**62, 2**61), (0, 2**62, 1)]])
def len_of_range(a, b, c): return len(range(a, b, c)), len(range(b)), len(range(a, b))
@case(*[(x,) for x in [0, 2, -7]])
def number_limits(x):
    return (np.iinfo(np.int32).max + x, np.iinfo(np.int64).min, np.iinfo(np.uint8).max, np.iinfo(int).bits,
            np.finfo(np.float64).eps * x, np.finfo(np.float32).max, np.finfo(float).tiny, np.iinfo(np.int16).min - x)
@case(*[(a, b) for a, b in [((1, 2), (3.5,)), ((), (4,)), ((True,), ()), ((), ()), ((-1, 2**62), (0.25, False))]])
def tuple_join(a, b): return a + b, b + a + (7,), (1.5,) + a
@case(*[(a, b) for a, b in [((1, 2), (3.5,)), ((), (4,)), ((True,), ()), ((), ()), ((-1, 2**62), (0.25, False))]])
def starred_display(a, b): return (*a, *b), (0, *a, 9), (*b,), (*a, 1.5, *b, 2), (*(a + b), *a)
@case(*[(x, v) for x, v in [(2.5, 3), (7, 3.9), (7, -3.9), (True, 0.0), (np.float32(1.5), 0.1), (1j, 2.0), (-0.0, -7)]])
def type_of_a_number_called(x, v): return type(x)(v), type(x)(v) + x
