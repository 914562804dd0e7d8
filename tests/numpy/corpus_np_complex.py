"""Corpus: complex arrays (complex128 and complex64) in compiled code:
indexing, arithmetic with arrays and scalars (NumPy's division, with its
infinities and NaNs for a zero divisor), np.abs, conjugate, comparisons,
powers, np.sqrt/exp/log and the trigonometric and hyperbolic functions,
.real/.imag as views one can read and write, and sum/prod/mean/cumsum,
on every layout, empty arrays and non-finite parts."""
import numpy as np

from np_diff import case
from np_inputs import floats, rng


def cplx(shape, dtype=np.complex128, special=False):
    a = (floats(shape) + 1j * floats(shape)).astype(dtype)
    if special and a.size >= 6:
        flat = a.reshape(-1)
        flat[:6] = [complex(np.nan, 1), complex(2, np.inf), complex(-np.inf, 0), 0j, complex(-0.0, -0.0), 1e300 + 1e300j]
    return a


_m = cplx((6, 8))
# one-dimensional and two-dimensional, every layout, both widths
C = [(cplx(7),), (cplx(0),), (cplx(11)[::-2],), (cplx(6, np.complex64),), (cplx(9, special=True),)]
CM = [(cplx((3, 4)),), (np.asfortranarray(cplx((4, 3))),), (_m[::2, ::-3],), (cplx((0, 3)),),
      (cplx((3, 5), np.complex64),)]
CPAIRS = [(cplx((3, 4)), cplx(4)), (cplx(6), cplx(6)[::-1]), (cplx(5), floats(5)), (cplx((2, 3)), rng.integers(-5, 5, 3)),
          (cplx(4, np.complex64), cplx(4)), (cplx(0), cplx(1))]
# divisors with zero, infinite and tiny/huge parts
DIVISORS = [(cplx(6), np.array([0j, 1e-300 + 0j, 0 + 1e-300j, 1e300 + 1e300j, complex(np.inf, 1), 3 - 4j])),
            (cplx(6, special=True), np.array([1 + 1j, 0j, -2j, 5 + 0j, complex(0, -0.0), 1e-310 + 1e-310j]))]
SUMS = [(cplx(7),), (cplx(0),), (cplx(11)[::-2],), (cplx((3, 4)),), (np.asfortranarray(cplx((4, 3))),),
        (cplx(5, np.complex64),)]


@case(*C[:1], *C[2:])
def c_index(a): return a[0], a[-1], a[1:3]
@case(*CM[:3], CM[4])
def c_index2(a): return a[1, 2], a[:, 1], a[-1]
@case((cplx(5), 2, 3 - 1j), (cplx((3, 4)), 1, 2.5), (cplx(4, np.complex64), -1, 1j))
def c_setitem(a, i, v):
    a[i] = v
    return a
@case(*CPAIRS)
def c_add(a, b): return a + b
@case(*CPAIRS)
def c_sub(a, b): return a - b
@case(*CPAIRS)
def c_mul(a, b): return a * b
@case(*CPAIRS, *DIVISORS)
def c_div(a, b): return a / b
@case(*C, *CM)
def c_scalars(a): return a * 2.0 + 1j, 3 - a, a / 2j, (1 + 1j) * a
@case(*C, *CM)
def c_negate_conj(a): return -a, np.conj(a), np.conjugate(a), +a
@case(*C, *CM)
def c_abs(a): return np.abs(a), np.absolute(a)
@case(*C, *CM)
def c_square(a): return np.square(a), a * a
@case(*C)
def c_predicates(a): return np.isnan(a), np.isinf(a), np.isfinite(a)
@case(*CPAIRS[:4])
def c_equal(a, b): return a == b, a != b
@case((cplx(9, special=True), cplx(9, special=True)))
def c_equal_nan(a, b): return a == b, a != b
@case(*C)
def c_where(a): return np.where(a.real > 0, a, 0)
@case(*C, *CM)
def c_parts(a): return a.real, a.imag
@case(*C, *CM)
def c_parts_functions(a): return np.real(a), np.imag(a), np.real(a.real)
@case(*C)
def c_parts_by_keyword(a): return np.real(val=a), np.imag(val=a)
@case(*C, *CM)
def c_parts_math(a): return a.real * a.real + a.imag * a.imag, np.hypot(a.real, a.imag)
@case((cplx(5),), (cplx((3, 4)),), (cplx(6)[::2],))
def c_write_parts(a):
    a.imag[:] = a.real
    re = a.real
    re[0] = -1.0
    return a
@case(*SUMS)
def c_sum(a): return a.sum(), np.sum(a)
@case(*SUMS)
def c_prod(a): return a.prod()
@case(*SUMS[:5])
def c_mean(a): return a.mean(), np.mean(a)
@case(*SUMS)
def c_cumsum(a): return np.cumsum(a)
@case((cplx((3, 4)),), (cplx((2, 5)).T,), (cplx((0, 3)),))
def c_sum_axis(a): return a.sum(axis=0), a.sum(axis=1), a.mean(axis=0)
@case(*SUMS[:5])
def c_fused_sum(a): return np.sum(a * 2 - 1j), (a * a).mean()
@case(*C, *CM)
def c_math(a):
    return np.sqrt(a), np.exp(a), np.log(a), np.sin(a), np.cos(a), np.tan(a), np.sinh(a), np.cosh(a), np.tanh(a)
@case(*C, *CM)
def c_inverse_math(a):
    return np.arcsin(a), np.arccos(a), np.arctan(a), np.arcsinh(a), np.arccosh(a), np.arctanh(a)
@case((cplx(8),), (cplx((3, 4)),))
def c_math_chain(a): return np.abs(np.exp(1j * a) - np.sqrt(a * a + 1))
@case(*C, *CM)
def c_small_powers(a): return a ** 2 + 1j, a ** 3, np.square(a) - a * a, a ** 4
@case((cplx(6), cplx(6)), (cplx(6, np.complex64), cplx(6, np.complex64)),
      (np.array([0j, 0j, 0j, 2 + 1j, 0j, complex(np.nan, 0)]), np.array([2 + 0j, -1 + 0j, 1j, 0j, 0j, 0j])))
def c_power(a, b): return a ** b, np.power(a, 2.5), a ** (0.5 - 1j)
@case(*C)
def c_loop(a):
    s = 0j
    for i in range(a.shape[0]):
        s += a[i] * a[i].conjugate()
    return s
# np.angle, np.iscomplex, np.isreal, and np.real / np.imag of real arrays (zeros, read-only) and of numbers
@case(*C, (np.array([1.0, -2.0, 0.0, -0.0, np.nan, -np.inf]),), (np.arange(-3, 3),), (np.array([[1 + 0j, -1j], [-2 + 0j, 0j]]),))
def angles(z): return np.angle(z), np.angle(z, deg=True), np.iscomplex(z), np.isreal(z), np.imag(z), np.real(z), z.imag
@case((1 + 2j,), (-3.0,), (4,), (complex(-1, -0.0),))
def angle_of_a_number(z): return np.angle(z), np.angle(z, True), np.iscomplex(z), np.isreal(z), np.imag(z), np.real(z)
# np.iscomplexobj and np.isrealobj: by the dtype, whatever the values (a complex array of real values is complex)
@case(*C, (np.array([1.0, np.nan]),), (np.arange(-3, 3),), (np.zeros((2, 0), np.complex64),), (np.ones(2, bool),))
def complex_by_type(z): return np.iscomplexobj(z), np.isrealobj(z), np.iscomplexobj(z * 2), np.isrealobj(z[:1].real), np.iscomplexobj(3.0), np.iscomplexobj(1j)
