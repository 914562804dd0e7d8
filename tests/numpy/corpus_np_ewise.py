"""Corpus: array expressions (operators, comparisons, ufuncs) with
broadcasting, on every dtype and layout, fused into one loop."""
import numpy as np

from np_diff import case
from np_inputs import M, MI, PAIRS, V, VI, VP, bools, floats, ints

ALL = V + VI + M + MI


@case(*PAIRS)
def add_pair(a, b): return a + b
@case(*PAIRS)
def sub_pair(a, b): return a - b
@case(*PAIRS)
def mul_pair(a, b): return a * b
@case(*PAIRS)
def truediv_pair(a, b): return a / b
@case(*PAIRS)
def floordiv_pair(a, b): return a // b
@case(*PAIRS)
def mod_pair(a, b): return a % b
@case(*PAIRS)
def lt_pair(a, b): return a < b
@case(*PAIRS[:-1])   # NumPy 1.x answers False (with a warning) for shapes that do not broadcast
def eq_pair(a, b): return a == b
@case(*PAIRS)
def ge_pair(a, b): return a >= b
@case(*PAIRS)
def maximum_pair(a, b): return np.maximum(a, b)
@case(*PAIRS)
def fmin_pair(a, b): return np.fmin(a, b)
@case(*PAIRS)
def chain_pair(a, b): return (a + b) * (a - b) / 2.0 + 1
@case(*ALL)
def scalar_add_int(a): return a + 3
@case(*ALL)
def scalar_mul_float(a): return a * 2.5
@case(*ALL)
def scalar_rsub(a): return 10 - a
@case(*ALL)
def negate(a): return -a
@case(*ALL)
def positive(a): return +a
@case(*ALL)
def square_op(a): return a ** 2
@case(*V, *M)
def cube_float(a): return a ** 3.0
@case(*VI)
def int_power(a): return a ** 2 + a ** 0
@case((ints(4),), )
def int_negative_power(a): return a ** -1
SQRT_EDGES = [-np.inf, -0.0, 0.0, 4.0, np.inf, np.nan, -1.0]
@case((np.array(SQRT_EDGES),), (np.array(SQRT_EDGES, dtype=np.float32)[::-1],), (floats((3, 4), special=True).T,))
def half_power(a): return a ** 0.5, np.power(a, 0.5)   # the operator is np.sqrt's (nan at -inf), np.power is pow's
@case((bools(7),), (bools((3, 4)).T,), (bools(0),))   # ** squares for 2: booleans give int8, not power's int64
def bool_powers(a): return a ** 2, a ** 2.0, a ** 3, a ** 0.5
@case(*ALL)
def floordiv_scalar(a): return a // 4
@case(*ALL)
def mod_scalar(a): return a % 7
@case(*VI, *V)
def div_by_zero_scalar(a): return a / 0
@case(*VI)
def int_floordiv_zero(a): return a // 0, a % 0
@case(*V)
def float_floordiv_zero(a): return a // 0.0, a % 0.0
@case(*ALL)
def compare_scalar(a): return a > 0
@case(*ALL)
def compare_chain_and(a): return (a > -5) & (a < 5)
@case(*ALL)
def compare_or(a): return (a < -5) | (a > 5)
@case(*VI, *MI)
def bitwise_ops(a): return (a & 6) | (a ^ 3)
@case(*VI)
def shifts(a): return (a << 2) >> 1
@case(*VI)
def invert_int(a): return ~a
@case(*ALL)
def invert_mask(a): return ~(a > 0)
@case(*V, *M)
def sin_cos(a): return np.sin(a) * np.cos(a)
@case(*V, *M)
def tan(a): return np.tan(a)
@case(*V)
def arcs(a): return np.arcsin(a / 100), np.arccos(a / 100), np.arctan(a)
@case(*V)
def hyperbolic(a): return np.sinh(a / 10), np.cosh(a / 10), np.tanh(a)
@case(*V, *VP)
def exps(a): return np.exp(a / 10), np.expm1(a / 10)
@case(*VP, *V)
def logs(a): return np.log(a), np.log1p(a), np.log10(a), np.log2(a)
VI_WIDE = [a for a in VI if a[0].itemsize >= 4]   # NumPy gives float16 for small ints, which Kiln lacks


@case(*VP, *V, *VI_WIDE)
def sqrt(a): return np.sqrt(a)
@case(*ALL)
def absolute(a): return np.abs(a), np.absolute(a)
@case(*V, *M, *VI_WIDE)
def rounding(a): return np.floor(a), np.ceil(a), np.trunc(a)
@case(*ALL)
def sign(a): return np.sign(a)
@case(*PAIRS)
def hypot(a, b): return np.hypot(a, b)
@case(*PAIRS)
def arctan2(a, b): return np.arctan2(a, b)
@case(*PAIRS)
def power_func(a, b): return np.power(np.abs(a), b / 10)
@case(*PAIRS)
def mod_func(a, b): return np.mod(a, b)
@case(*V, *VI)
def maximum_scalar(a): return np.maximum(a, 0), np.minimum(a, 0.5)
@case(*V)
def fmax_nan(a): return np.fmax(a, 1.0), np.fmin(a, 1.0)
@case(*V, *M)
def predicates(a): return np.isnan(a), np.isinf(a), np.isfinite(a)
@case(*VI)
def predicates_int(a): return np.isnan(a), np.isfinite(a)
@case(*ALL)
def where_mask(a): return np.where(a > 0, a, 0)
@case(*PAIRS)
def where_two(a, b): return np.where(a > b, a, b)
@case(*V, *VI, *M)
def where_scalars(a): return np.where(a > 0, 1.0, -1.0)
@case(*ALL)
def clip_scalars(a): return np.clip(a, -3, 4)
@case(*V)
def clip_float(a): return np.clip(a, -0.5, 0.5)
@case(*PAIRS)
def clip_arrays(a, b): return np.clip(a, b, b + 1)
@case(*V, *M)
def long_chain(a): return np.sqrt(np.abs(np.sin(a) * 2 + np.cos(a) ** 2)) - np.exp(-np.abs(a))
@case(*V)
def deg_rad(a): return np.deg2rad(a), np.rad2deg(a)
@case(*V, *VI)
def logical(a): return np.logical_and(a > 0, a < 3), np.logical_or(a > 0, a < -3), np.logical_not(a > 0)
@case(*M)
def broadcast_row_col(a): return a - a.mean(axis=0) + a.sum(axis=1).reshape(-1, 1) if a.shape[0] > 0 else a
@case(*M)
def column_vector(a): return a[:, 0:1] * a
@case((floats((2, 3, 4)), floats((3, 1))), (floats((2, 1, 4)), floats((3, 4))), (floats((2, 3, 4)), floats(5)))
def broadcast_3d(a, b): return a * b + 1
@case(*PAIRS)
def ufunc_out(a, b):
    out = np.empty_like(a + b)
    np.add(a, b, out=out)
    return out
@case(*V, *M)
def ufunc_out_inplace(a):
    np.sin(a, out=a)
    return a
@case(*V, *M, *VI)
def iadd_scalar(a):
    a += 2
    return a
@case(*PAIRS[:4])
def iadd_array(a, b):
    a += b
    return a
@case(*V, *M)
def imul_isub(a):
    a *= 3.0
    a -= 1.0
    a /= 2.0
    return a
@case(*V, *M)
def f32_scalar_keeps_f32(a): return a.astype(np.float32) * 2.0
@case(*VI)
def int8_plus_int(a): return a.astype(np.int8) + 1
@case(*VI)
def uint_wraps(a): return a.astype(np.uint8) - 200
@case(*VI)
def bool_arith(a): return (a > 0) + (a < 10)
@case(*V, *M)
def mixed_int_float_arrays(a): return a * a.astype(np.int32)
@case((2.5,), (-1.0,), (0.0,))
def scalar_ufuncs(x): return np.sign(x), np.clip(x, 0.0, 1.0), np.logical_not(x > 0)
# np.round: NumPy's algorithm (x * 10**d, rint, / 10**d), halves to even, ints kept for d >= 0
_HALVES = (np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 1234.5678, 1e300, -1e-300]),)
@case(*V, *M, *VI, *MI, _HALVES)
def round_default(a): return np.round(a)
@case(*V, *M, *VI, *MI, _HALVES)
def round_decimals(a): return np.round(a, 1), np.around(a, 2), a.round(-1), np.round(a, decimals=-2)
@case(*V[:2], *VI[:2], _HALVES)
def round_far_decimals(a): return np.round(a, 25), np.round(a, -25), np.round(a, 400)
@case(*V, _HALVES)   # of an int, 0 * inf is NaN, whose cast to int NumPy leaves undefined
def round_past_1e308(a): return np.round(a, -400)
@case((np.array([250, 255, 3], np.uint8),), (np.array([-128, 127, 65], np.int8),), (np.array([2**62 + 1, -15]),))
def round_int_to_tens(a): return np.round(a, -1)
@case((np.array([1.25 + 2.5j, -0.5 - 1.35j]),))
def round_complex(a): return np.round(a, 1)
@case(*V, *M)
def round_fused_out(a):
    out = np.empty_like(a)
    np.round(a * 3.0, 1, out)
    return out, np.round(a, 2, out=np.empty_like(a)) + 1
@case((2.5, 0), (-7.45, 1), (1234.5, -2), (3, -1), (-15, -1))
def round_scalar(x, d): return np.round(x, d), np.round(x)
# np.isclose and np.outer: NumPy's definitions, fused (jit/frontend/np_rewrite.c)
_NEAR = (np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 100.0, 0.0]), np.array([1.0 + 1e-9, np.nan, np.inf, np.inf, 0.0, 100.001, -0.0]))
@case(_NEAR, (_NEAR[0].astype(np.float32), _NEAR[1].astype(np.float32)), *PAIRS[:4], (ints(4), ints(4)), (2.0, 2.0 + 1e-7))
def isclose(a, b): return np.isclose(a, b), np.isclose(a, b, equal_nan=True), np.isclose(a, b, rtol=1e-3, atol=0.5)
@case(*PAIRS, (floats((2, 2)), ints(3, np.int8)))
def outer(a, b): return np.outer(a, b), np.outer(b, a[::-1])
# np.logaddexp, logaddexp2, heaviside and sinc: NumPy's definitions, fused (jit/frontend/np_rewrite.c)
_LOGS = (np.array([-1.5, 0.0, 2.0, np.nan, np.inf, -np.inf, 3.0, -np.inf, 700.0]),
         np.array([-1.5, 1.0, 0.5, 1.0, np.inf, 2.0, np.nan, -np.inf, -700.0]))
@case(_LOGS, (_LOGS[0].astype(np.float32), _LOGS[1].astype(np.float32)), *PAIRS[:4], (ints(5), ints(5)), (1.5, -2.0), (3.0, 3.0))
def logaddexp(a, b): return np.logaddexp(a, b), np.logaddexp2(a, b)
@case(_LOGS, (_LOGS[0].astype(np.float32), _LOGS[1].astype(np.float32)), (ints(6), ints(6)), (floats(5), 0.5), (0.0, 0.25), (-2.0, 0.25))
def heaviside(x, h): return np.heaviside(x, h)
@case(*V, *M, (np.array([0.0, 1.0, -2.0, 0.5, 1e-30]),), (ints(5),), (0.0,), (0.25,))
def sinc(x): return np.sinc(x), np.sinc(x) * 2
# np.isposinf, isneginf, signbit and fix: NumPy's definitions, fused (jit/frontend/np_rewrite.c); signbit
# is set for -0.0 and a NaN with its sign bit
_SIGNED = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, -0.5, 2.5, -2.7])
@case(*V, *M, (_SIGNED,), (_SIGNED.astype(np.float32),), *VI[:2], (-0.0,), (np.inf,), (float("-nan"),), (-7,))
def sign_and_infinity(x): return np.isposinf(x), np.isneginf(x), np.signbit(x), np.fix(x)
@case(*VI, *MI)
def sign_and_infinity_of_ints(x): return np.isposinf(x), np.isneginf(x), np.signbit(x)
# np.gcd and np.lcm (magnitudes; int8's gcd(-128, 0) wraps to -128 as NumPy's) and np.reciprocal of
# ints (1 and -1 keep their value, 0 gives what NumPy's conversion of inf gives on x86)
_GCD = (np.array([12, -12, 0, 0, -128, 1, -1, 7, 127], dtype=np.int8),
        np.array([18, 18, 5, 0, 0, 1, -1, -21, -127], dtype=np.int8))
@case(_GCD, tuple(g.astype(np.int64) for g in _GCD), tuple(g.astype(np.int16)[::-2] for g in _GCD),
      (_GCD[0].astype(np.uint64), _GCD[1].astype(np.uint8)), (ints((3, 4)), ints(4, np.int32)), (ints(0), ints(0)),
      (np.int64(-2**63), np.int64(0)), (12, 18), (np.uint64(2**63), np.uint64(2**62)))
def gcd_lcm_reciprocal(a, b): return np.gcd(a, b), np.lcm(a, b), np.reciprocal(a), np.reciprocal(b)
# np.spacing (up from +-0.0, NaN for inf), np.nextafter, np.ldexp with an int exponent (int64 ones
# clamped), np.float_power (float64 always) and np.reciprocal of floats
_STEPS = np.array([1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -3e-310])
_EXPONENTS = np.array([1, -1, 2000, -2000, 2**40, -2**40, 3, 0, 5])
@case((_STEPS, _EXPONENTS), (_STEPS[:7].astype(np.float32), _EXPONENTS[:7].astype(np.int32)),
      (_STEPS[::-2], _EXPONENTS[::2].astype(np.int8)), (floats((3, 4)), ints(4)), (floats(0), ints(0)),
      (ints(5), ints(5, np.int16, -3, 3)), (-0.0, 7), (2.5, np.int64(-3)))
def float_steps(x, n):
    return np.spacing(x), np.nextafter(x, 0.0), np.ldexp(x, n), np.float_power(x, 2), np.reciprocal(x * 1.0)
@case((np.array([1 + 2j, -1.5j, 0j, 3.0 + 0j]),), (np.array([1 + 2j, -0.5 - 1j], dtype=np.complex64),), (2 - 1j,))
def float_power_complex(z): return np.float_power(z, 2), np.float_power(z, 0.5), np.float_power(2.0, z)
# np.modf: the fraction keeps x's sign (0.0 for inf), as NumPy's (jit/frontend/np_rewrite.c)
@case(*V, *M, *VI[:2], (_SIGNED,), (_SIGNED.astype(np.float32),), (2.5,), (-3,), (float("-inf"),))
def modf(x): return np.modf(x)
# np.nan_to_num: NaN, +inf and -inf replaced (by default 0.0 and the dtype's largest finite numbers),
# both parts of a complex number, integers left as they are (jit/numpy/np_nan_to_num.c)
_CPLX_SPECIAL = np.array([complex(np.nan, np.inf), 1 - 1j, complex(-np.inf, np.nan)])
@case(*V, *M, *VI[:3], (_SIGNED,), (_SIGNED.astype(np.float32),), (_CPLX_SPECIAL,), (_CPLX_SPECIAL.astype(np.complex64),),
      (np.array([True, False]),), (float("nan"),), (-7,))
def nan_to_num(x):
    return np.nan_to_num(x), np.nan_to_num(x, nan=-1.0, posinf=5, neginf=None), np.nan_to_num(x, True, 2.5, -1e300, 1e300)
@case(*V[:4], (_SIGNED.copy(),), (_SIGNED.astype(np.float32)[::-1],), *MI[:1])
def nan_to_num_in_place(x):
    y = np.nan_to_num(x, copy=False)
    y[...] += 0
    return x, y
# np.frexp: libm's mantissa and int32 exponent, as NumPy takes them (jit/numpy/np_frexp.c)
@case(*V, *M, *VI[:2], (_SIGNED,), (_SIGNED.astype(np.float32),), (np.array([-1e-310, 5e-324, 1e308]),), (2.5,), (-3,))
def frexp(x): return np.frexp(x)
