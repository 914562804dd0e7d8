"""Corpus: arrays created in compiled code and returned to Python."""
import numpy as np

from np_diff import case
from np_inputs import M, MI, SIZES, V, VI, floats, ints


@case(*SIZES, (-1,))
def zeros_1d(n): return np.zeros(n)
@case(*SIZES)
def zeros_2d_int(n): return np.zeros((n, 3), dtype=np.int32)
@case(*SIZES)
def ones_f32(n): return np.ones(n, np.float32)
@case(*SIZES)
def ones_3d(n): return np.ones((2, n, 2), dtype=np.int8)
@case(*SIZES)
def full_int(n): return np.full((n, 2), 7)
@case(*SIZES)
def full_float(n): return np.full(n, -2.5)
@case(*SIZES)
def full_dtype(n): return np.full(n, 3, dtype=np.float32)
@case(*SIZES)
def full_bool(n): return np.full(n, True)
@case(*SIZES)
def empty_shape(n): return np.empty((n, 4)).shape
@case(*SIZES)
def empty_filled(n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * i
    return a
@case(*V, *VI, *M)
def zeros_like(a): return np.zeros_like(a)
@case(*V, *VI, *M)
def ones_like(a): return np.ones_like(a)
@case(*V, *M)
def full_like(a): return np.full_like(a, 4)
@case(*V, *M)
def empty_like_shape(a): return np.empty_like(a).shape, np.empty_like(a, dtype=np.int8).ndim
@case(*V, *VI)
def ones_like_dtype(a): return np.ones_like(a, dtype=np.float32)
@case((10,), (0,), (-5,), (1,))
def arange_stop(n): return np.arange(n)
@case((2, 10), (10, 2), (-3, 3))
def arange_start_stop(a, b): return np.arange(a, b)
@case((0, 10, 3), (10, 0, -3), (1, 2, 5), (5, 5, 1), (0, 1, 0))
def arange_step(a, b, c): return np.arange(a, b, c)
@case((0.0, 1.0, 0.1), (1.5, -2.0, -0.25), (0.0, 3.0, 1.0))
def arange_float(a, b, c): return np.arange(a, b, c)
@case((5,), (0,))
def arange_dtype(n): return np.arange(n, dtype=np.float32)
@case((0.0, 1.0, 5), (-1.0, 1.0, 2), (2.0, 2.0, 4), (0.0, 1.0, 1), (0.0, 1.0, 0), (0.0, 1.0, -1))
def linspace_num(a, b, n): return np.linspace(a, b, n)
@case((0.0, 10.0),)
def linspace_default(a, b): return np.linspace(a, b)
@case((0.0, 1.0, 5),)
def linspace_no_endpoint(a, b, n): return np.linspace(a, b, n, endpoint=False)
@case((3,), (0,), (1,))
def eye_square(n): return np.eye(n)
@case((3, 5, 1), (4, 2, -1), (2, 2, 3))
def eye_rect(n, m, k): return np.eye(n, m, k)
@case((4,), (0,))
def identity_int(n): return np.identity(n, dtype=np.int64)
@case((3, 4, 1), (2, 2, -1))
def eye_by_keyword(n, m, k): return np.eye(N=n, M=m, k=k), np.eye(n, k=k, dtype=np.int32), np.identity(n=n)
@case(*V, *VI, *M)
def copy_func(a): return np.copy(a)
@case(*V, *M)
def copy_method(a):
    b = a.copy()
    if b.size > 0:
        c = b.reshape(-1)
        c[0] = 99.0
    return b
@case(*V, *VI, *M)
def array_of_array(a): return np.array(a)
# of a number (0-d) and of tuples nested one shape deep, the numbers promoted as NumPy does
@case((2,), (-1.5,), (True,), (np.float32(0.25),), (1 + 2j,))
def array_of_numbers_and_tuples(x):
    return (np.array(x), np.asarray(x), np.array(((x, 2), (3, x))), np.asarray((x, True, 1)),
            np.array(((1, 2.5),), dtype=np.float32), np.array(()), np.array((((x,),),)))
@case(*M)
def ascontiguous(a): return np.ascontiguousarray(a)
@case(*V, *M)
def astype_f32(a): return a.astype(np.float32)
@case(*VI, *MI)
def astype_float(a): return a.astype(np.float64)
@case(*VI)
def astype_bool(a): return a.astype(np.bool_)
INT16, FLOAT32 = np.dtype(np.int16), np.dtype("float32")   # dtype objects held in globals, as the scalar types
@case(*V, *VI)
def astype_dtype_objects(a): return a.astype(INT16), np.zeros(a.shape, FLOAT32), np.ones(2, dtype=INT16)
@case((3,), (0,))
def dtype_held_in_a_name(n):   # quantecon's sa_indices: dtype = np.int_, then np.empty(L, dtype=dtype)
    dtype = np.int_
    small = INT16
    return np.empty(n, dtype=dtype).shape, np.zeros(n, small), np.arange(n).astype(dtype), dtype(2.0)
@case(*M)
def transpose_T(a): return a.T
@case(*M)
def transpose_method(a): return a.transpose()
@case(*M, *MI)
def flatten(a): return a.flatten()
@case(*M)
def ravel(a): return a.ravel()
@case(*M)
def np_ravel(a): return np.ravel(a), np.ravel(a * 2 - 1)[::2]
@case(*M, *MI)
def flat_read(a):   # a.flat: the elements in C order, as a.ravel() reads them
    s = 0.0
    for x in a.flat:
        s = s * 0.5 + x
    return s, a.flat[a.size - 1] if a.size else 0.0, a.flat[1:3]
@case((floats((3, 4)),), (ints((2, 5)),), (floats((0, 2)),))
def flat_write(a):   # through a.flat of a C-contiguous array, into it
    for i in range(0, a.size, 2):
        a.flat[i] = -1
    return a
# a view where NumPy counts the array C-contiguous (axes of length 1 keep any stride), so a write
# through the result reaches a; otherwise a copy, and a keeps its values
@case(*M, (floats((1, 5))[::-1],), (floats((6, 8))[2:3, ::-1],), (floats((4, 5))[:, 1:2],), (floats(7)[3:4],))
def ravel_writes_through_a_view(a):
    r = a.ravel()
    r += 1
    return a
@case((np.arange(12.0),), (np.arange(12),))
def reshape_args(a): return a.reshape(3, 4)
@case((np.arange(12.0),), (np.arange(12).reshape(3, 4),), (np.zeros(0),))
def reshape_and_shape_functions(a): return np.reshape(a, (-1, 2)), np.reshape(a, a.size), np.shape(a)
@case((np.arange(12.0),), (np.arange(7.0),))
def reshape_tuple(a): return a.reshape((2, -1))
@case((np.arange(24.0).reshape(2, 3, 4),))
def reshape_3d(a): return a.reshape(4, 6).sum(axis=1)
@case((np.arange(12.0),))
def reshape_shares(a):
    b = a.reshape(4, 3)
    b[1, 1] = -1.0
    return a
@case(*SIZES)
def created_in_loop(n):
    total = 0.0
    for i in range(n):
        a = np.ones(i + 1)
        total += a.sum()
    return total
@case(*SIZES)
def returned_tuple_of_arrays(n): return np.zeros(n), np.ones((n, 2)), n
@case(*SIZES)
def dtype_strings(n): return np.zeros(n, dtype="float32"), np.ones(n, "i4"), np.arange(n, dtype="uint8"), np.full(n, 2, "int16")
@case(*V[:4], *VI)   # no NaN: float to int of NaN is undefined in NumPy too
def astype_string(a): return a.astype("float32"), a.astype("int64")
@case(*V[:4], *VI, *M[:3], *MI)   # a.dtype names the dtype of what is made from a
def dtype_of_argument(a):
    n = a.shape[0]
    return (np.empty(n, dtype=a.dtype).shape, np.zeros((n, 2), a.dtype), np.ones_like(a, dtype=a.dtype),
            np.full(n, 3, a.dtype), np.arange(n, dtype=a.dtype), a.astype(np.float32).astype(a.dtype))
# joining arrays: the promoted dtype, every layout, empty arrays, NumPy's messages for shapes that do not fit
_ROWS = (floats((2, 3)), ints((2, 3), np.int32)[:, ::-1])
_SHORT = (floats((2, 3)), floats((2, 4)))
@case((floats(3), ints(4, np.uint8)), (floats(0), floats(2)), _ROWS, _SHORT, (floats((3, 2)).T, floats((2, 1))))
def concatenate_first_axis(a, b): return np.concatenate((a, b)), np.concatenate((b, a, b), axis=0)
@case(_ROWS, _SHORT, (floats((2, 3)), floats((3, 3))), (np.asfortranarray(floats((2, 2))), floats((2, 0))))
def concatenate_last_axis(a, b): return np.concatenate((a, b), axis=1), np.concatenate((b, a), axis=-1)
@case((floats(3), ints(2)), _ROWS, _SHORT, (floats((2, 3)), floats((3, 3))))
def hstack_vstack(a, b): return np.hstack((a, b)), np.vstack((a, a, b[::-1]))
# column_stack: 1-d arrays are columns, beside 2-d ones (a design matrix); row_stack is vstack
@case((floats(3), ints(3, np.int8)), (floats(3), floats(4)), (floats((3, 2)), floats(3)[::-1]), (floats((3, 1)).T, floats((1, 2))),
      (floats(0), floats(0)), (np.asfortranarray(floats((3, 2))), ints((3, 2))))
def column_and_row_stack(a, b):
    return np.column_stack((a, b)), np.column_stack((b, a, a)), np.row_stack((a, a))
@case((floats(3), ints(3, np.int8)), (floats(3), floats(4)), _ROWS, (floats((0, 2)), floats((0, 2))))
def stack_axes(a, b): return np.stack((a, b)), np.stack((b, a), axis=1), np.stack((a, b, a), axis=-1)
@case(*V[:3])
def concatenate_in_loop(a):
    out = a[:0].copy()
    for i in range(3):
        out = np.concatenate((out, a * i))
    return out
# np.logspace and np.expand_dims (jit/frontend/np_rewrite.c)
@case((0, 2, 5), (0.0, 1.0, 4), (-1.5, 2.5, 1), (2, 0, 0), (3.0, -3.0, 7))
def logspace(a, b, n): return np.logspace(a, b, n), np.logspace(a, b, n, endpoint=False), np.logspace(a, b, n, base=2.0)
# np.geomspace: the ends exactly start and stop, both negated back when negative, NaN
# between ends of opposite signs, NumPy's ValueError for a zero end (jit/numpy/np_geomspace.c)
@case((1, 1000, 4), (-1.0, -16.0, 5), (2.5, 0.1, 7), (-1, 10, 3), (1e-3, 1e7, 1), (np.float32(3), 9, 0), (0, 3, 3),
      (5, -0.0, 2))
def geomspace(a, b, n): return np.geomspace(a, b, n), np.geomspace(a, b, n, endpoint=False), np.geomspace(a, b)
# np.polyval: Horner's rule over p, elementwise over x, in NumPy's dtype for x and p (jit/numpy/np_polyval.c)
_X32 = np.arange(-3, 3, dtype=np.float32)
@case(*[(p, x) for p in (np.array([1.0, -2.0, 0.5]), np.array([1, 2, -3]), np.array([1, 2], np.int8))
        for x in (_X32, np.arange(5), np.arange(-4, 4, dtype=np.int8), 2.0, 3, np.arange(6.0).reshape(2, 3).T, np.zeros(0),
                  np.array([np.inf, -np.inf, np.nan]))],
      (np.array([2 ** 40, 3]), np.array([2 ** 30])), (np.array([1 + 2j, 3]), np.array([0.5, -1.0])))
def polyval(p, x): return np.polyval(p, x)
# np.unwrap of a 1-d array: NumPy's corrections step by step, a float period (jit/numpy/np_unwrap.c)
_PHASES = np.cumsum(np.random.default_rng(3).normal(0, 2, 40)) % (2 * np.pi)
@case(*[(p, d) for p in (_PHASES, np.array([0, 3, 6.5, -2, 1], np.float32), np.arange(5) * 3, np.zeros(0), np.array([5.0]),
                         np.array([0.0, np.pi, 0.0, -np.pi]), np.array([0.0, np.nan, 1.0, np.inf, 2.0]), _PHASES[::-3],
                         np.array([0, 100, -100], np.int8))
        for d in (1.0, 4.0)])
def unwrap(p, d): return np.unwrap(p), np.unwrap(p, d), np.unwrap(p, period=360.0), np.unwrap(p, discont=d, axis=-1)
# window functions (jit/frontend/np_rewrite.c), in NumPy's formulas: M below 1 gives an empty
# array, M == 1 a single 1.0; an integer M puts exact zeros at the ends, as NumPy's
@case((-3,), (0,), (1,), (2,), (3,), (5,), (8,), (51,), (256,), (4.0,))
def windows(m): return np.hanning(m), np.hamming(m), np.blackman(m), np.bartlett(m), np.bartlett(M=7) * m
@case(*V, *M)
def expand_dims(a): return np.expand_dims(a, 0), np.expand_dims(a, 1), np.expand_dims(a, -1), np.expand_dims(a, -2) + 1
# np.transpose / a.transpose with axes and np.swapaxes: views with the axes permuted
_CUBE = np.arange(24.0).reshape(2, 3, 4)
@case((_CUBE,), (_CUBE[:, ::-1, ::2],), (np.asfortranarray(_CUBE),), (np.arange(24).reshape(4, 3, 2).T,))
def permuted_axes(a):
    return (np.transpose(a), np.transpose(a, (1, 0, 2)), a.transpose(2, 0, 1) * 2, a.transpose((0, 1, 2)),
            np.swapaxes(a, 0, -1), a.swapaxes(1, 2).copy())
@case(*M)
def swapped_matrix(m): return np.swapaxes(m, 0, 1), np.transpose(m, axes=(1, 0)) + 1, m.transpose(-1, -2)
# np.append (both raveled, joined, NumPy's promotion) and np.roll
@case((np.array([1, 2]), np.array([0.5, 1.5], np.float32)), (np.zeros(0, np.int8), np.array([True])),
      (np.arange(6).reshape(2, 3)[:, ::-1], np.arange(4.0).reshape(2, 2).T), (np.array([-1.5]), np.zeros(0)))
def append(a, b): return np.append(a, b), np.append(a, 3.5), np.append(2, b), np.append(b, a)
@case(*[(x, s) for (x,) in V[:3] + VI[:2] + M[:4] for s in (0, 2, -7)], (np.zeros((0, 3)), 1))
def roll(a, s): return np.roll(a, s), np.roll(a, shift=-s), np.roll(a, s, axis=-1), np.roll(a, s, 0)
@case((np.arange(6).reshape(2, 3), 2))
def roll_past_the_axes(a, k): return np.roll(a, 1, axis=k)   # NumPy's AxisError
# np.meshgrid of 1-d arrays, 'xy' (NumPy's default) and 'ij'
@case((np.arange(3), np.array([0.5, 1.5]), np.arange(4.0)[::-1]), (np.zeros(0), np.arange(2, dtype=np.int8), np.ones(1, np.float32)))
def meshgrid(x, y, z):
    X, Y = np.meshgrid(x, y)
    A, B = np.meshgrid(x, y, indexing='ij')
    P, Q, R = np.meshgrid(x, y, z)
    return X, Y, A, B * 2, P, Q, R, np.meshgrid(z)[0]
# np.vander: powers as NumPy's multiply.accumulate gives them, in x's dtype promoted with int64 (jit/numpy/np_vander.c)
@case((np.array([1, 2, 3]), 2), (floats(4), 3), (np.array([2, 3]), 0), (np.array([1, 2], np.int8), 4), (np.array([True, False]), 2),
      (floats(0), 2), (floats(5)[::-2], 5), (ints(4, np.uint8), 3), (floats(3, np.float32), 6), (floats(2), -1))
def vander(x, n): return np.vander(x), np.vander(x, n), np.vander(x, n, increasing=True), np.vander(x, N=n)
@case(*[(a, b, s) for a, b, s in [(0, 5, 1), (10, -3, -2), (2, 2, 1), (-4, 7, 3), (5, 0, 1), (1, 9, 0)]])
def arange_dtype_by_position(a, b, s): return np.arange(a, b, s, np.float32), np.arange(a, b, s, np.int16), np.arange(a * 0.5, b, s + 0.25, np.float64)
@case(*M, *V)
def joined_shapes(a): return np.zeros(a.shape + (2,)), np.ones((1,) + a.shape, np.int8), a.shape + a.shape
