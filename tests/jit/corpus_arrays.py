"""Corpus, part 3: arrays passed in from Python (any dtype, C, F and strided
views, empty ones), indexing, slicing, iteration, writes; and the seeds'
CPU functions."""
import math
import random

import numpy as np

import kiln
from jit_diff import case

rng = np.random.default_rng(3)
V = rng.standard_normal(17)
M = rng.standard_normal((5, 7))
I = rng.integers(-100, 100, size=11)
VECS = [(V,), (V[::2],), (V[::-3],), (np.zeros(0),), (V.astype(np.float32),)]
MATS = [(M,), (np.asfortranarray(M),), (M[::2, 1::3],), (M.T,), (np.zeros((0, 3)),)]
INTV = [(I,), (I.astype(np.int8),), (I.astype(np.uint16) ,), (I[1::2].astype(np.int32),)]


@case(*VECS, *INTV)
def arr_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s
@case(*VECS, *INTV)
def arr_iter_sum(a):
    s = 0
    for x in a:
        s += x
    return s
@case(*VECS)
def arr_negative_index(a):
    if len(a) == 0:
        return 0.0
    return a[-1] + a[-len(a)]
@case(*VECS, *INTV)
def arr_max_loop(a):
    m = -1e300
    for x in a:
        if x > m:
            m = x
    return m
@case(*VECS)
def arr_scale_inplace(a):
    for i in range(len(a)):
        a[i] = a[i] * 2.0 + 1.0
@case(*INTV)
def arr_int_write(a):
    for i in range(a.size):
        a[i] = a[i] // 3
    return a.size
@case(*MATS)
def mat_sum_2idx(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i, j] * (i + 1) - j
    return s
@case(*MATS)
def mat_chained_index(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i][j]
    return s
@case(*MATS)
def distance_matrix_chained_assign(m):   # Numba's test_array_exprs issue 1264: both halves at once
    n = m.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = out[j, i] = np.sum((m[i] - m[j]) ** 2)
    return out
@case((np.zeros(3),), (np.arange(4.0)[::-1],))
def chained_assign_left_to_right(a):
    i = 0
    a[i] = i = 2        # a[0] first, then i
    a[i], a[0] = t = (a[0] + 1.0, -1.0)
    return a, i, t
@case((np.zeros(4),), (np.arange(6.0)[::-1],), (np.zeros(5, dtype=np.int32),))
def tuple_assigned_to_a_slice(a):   # the tuple as NumPy takes it: an array, broadcast
    a[1:3] = (7.0, 8)
    a[-1:] = (a[0] - 1,)
    return a
@case((M.copy(),), (np.zeros((2, 3)),))
def tuple_assigned_to_rows(m):
    m[0, :2] = (1.5, -2)
    m[:, 1] = (2.0,)
    return m
@case((np.array([1.0, -1.0, 0.0]),), (np.zeros(0),))
def inverted_mask_elements(a):   # ~ of an element's comparison is NumPy's logical not (librosa's __rqa_dp)
    out = 0.0
    for i in range(a.shape[0]):
        link = a[i] > 0
        out += (~link) * 0.5 + link
    return out   # (~ of a Python bool, as ~(len(a) > 0), is the int's in CPython: the one difference)
@case((V, 1, 2), (V, -1, -2), (np.zeros(0), 0, 1), (I, 3, 5))
def slice_objects(a, lo, step):   # s = slice(...) indexes as lo:hi:step (quantecon's _cartesian_nearest_indices)
    s = slice(None, None, step)
    t = slice(lo, None)
    u = slice(3)
    return a[s], a[t], a[u], a[1:][s]
@case(*MATS[:4])   # (the empty one's m[0] is out of bounds, which only boundscheck=True checks)
def slice_objects_among_indices(m):
    rows = slice(1, None)
    return m[rows, 0], m[0, rows], m[rows, rows]
@case(*MATS)
def mat_rows(m):
    s = 0.0
    for row in m:
        for x in row:
            s = s * 0.5 + x
    return s
@case(*MATS)
def mat_shape_ndim_size(m):
    r, c = m.shape
    return r, c, m.ndim, m.size, len(m)
@case(*MATS)
def mat_column_view(m):
    if m.shape[1] == 0:
        return 0.0
    col = m[:, 0]
    s = 0.0
    for x in col:
        s += x
    return s
@case(*MATS)
def mat_row_view(m):
    if m.shape[0] == 0:
        return 0.0
    row = m[-1]
    return row.shape[0] + row[0] if row.shape[0] > 0 else 0.0
@case(*MATS)
def mat_write_transpose_sum(m):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = i * 10 + j
@case(*VECS)
def slices_steps(a):
    s = 0.0
    b = a[1:-1]
    c = a[::-2]
    d = a[3:100:3]
    for x in b:
        s += x
    for x in c:
        s -= x
    for x in d:
        s *= 0.5
        s += x
    return s, len(b), len(c), len(d)
@case(*VECS)
def slice_negative_bounds(a):
    v = a[-5:-1]
    w = a[-100:2]
    return len(v), len(w), len(a[5:2]), len(a[::-1])
@case(*VECS)
def returns_view(a):
    return a[1:5]
@case(*MATS)
def returns_row(m):
    if m.shape[0] == 0:
        return m[0:0, 0:0].shape[0] * 1.0
    return float(m[0, 0])
@case(*VECS)
def enumerate_array(a):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    return s
@case(*[(V, V[::-1]), (V[:5], V[3:]), (np.zeros(0), V)])
def zip_arrays(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s
@case(*[(V, V[::-1]), (V[:5], V[3:]), (np.zeros(0), V)])
def enumerate_zip_nested_targets(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b), 2):
        s += i * x - y
    return s
@case((M[:, :2],), (np.zeros((0, 2)),), (M[:3, :3],), (M[:, :1],))
def unpack_rows_in_a_tuple(m):   # CPython's messages for rows of other lengths
    out = 0.0
    for i, (p, q) in enumerate(m):
        out += i * (p - q)
    (first, second), third = (out, 2 * out), 3
    return first + second + third
@case(*[(I.astype(np.int64), 3), (I.astype(np.int64), -4)])
def index_with_arg(a, k):
    return a[k] + a[k + 1]
@case(*[(np.array([True, False, True]),), (np.zeros(4, dtype=np.bool_),)])
def bool_array(a):
    c = 0
    for x in a:
        if x:
            c += 1
    a[0] = not a[0]
    return c
@case(*[(np.array([1 + 2j, -3j, 0.5 + 0j]),), (np.array([1 + 1j], dtype=np.complex64),)])
def complex_array(a):
    s = 0j
    for z in a:
        s += z * z.conjugate()
    return s
@case(*[(rng.standard_normal((3, 4, 5)),), (rng.standard_normal((2, 3, 4))[:, ::2, 1:],)])
def three_d_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i - j + k)
    return s
@case(*[(np.arange(12.0).reshape(3, 4),)])
def partial_index_3(a):
    r = a[1]
    return r[2] + a[2, 1:3][1]
@case(*[(V, 1.5), (V[::2], -2.0)])
def axpy_inplace(a, alpha):
    for i in range(a.shape[0]):
        a[i] += alpha * i
@case(*[(np.arange(6.0), np.arange(6.0)[::-1].copy())])
def two_arrays_same_dtype(a, b):
    for i in range(len(a)):
        a[i], b[i] = b[i], a[i]
@case(*[(np.arange(5, dtype=np.int64),)])
def unpack_array(a):
    if len(a) != 5:
        return 0
    p, q, r, s, t = a
    return p - q + r - s + t
@case(*VECS)
def index_error_wraps(a):
    if len(a) == 0:
        return 0.0
    return a[len(a) - 1]


def matrix_multiplication(A, B, C):
    n = len(A[0])
    for i in range(n):
        for j in range(n):
            tmp = 0.
            for k in range(n):
                tmp += A[i, k] * B[k, j]
            C[i, j] = tmp


case((rng.random((6, 6)), rng.random((6, 6)), np.zeros((6, 6))))(matrix_multiplication)


@case(*[(rng.random((8, 2)),), (rng.random((30, 2)),)])
def closest_pair(points):
    min_distance2 = 999999.
    mdp1, mdp2 = None, None
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            distance2 = (points[i][0] - points[j][0])**2 + \
                        (points[i][1] - points[j][1])**2
            if distance2 < min_distance2:
                min_distance2 = distance2
                mdp1, mdp2 = points[i], points[j]
    return mdp1, mdp2, math.sqrt(min_distance2)


@case(*[(rng.random((2, 3, 4)).astype(np.float32), rng.random((2, 3, 4)).astype(np.float32),
         np.zeros((2, 3, 4), np.float32))])
def maximum_3(a, b, c):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                c[i, j, k] = max(a[i, j, k], b[i, j, k])
    return c


@case(*[(np.zeros(20), 0.1), (np.zeros(1), 0.3)])
def quadratic_map(x, x0):
    x[0] = x0
    for t in range(len(x) - 1):
        x[t + 1] = 4 * x[t] * (1 - x[t])


def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if z.real * z.real + z.imag * z.imag >= 4:
            return i
    return max_iters


case(*[(-0.5, 0.5, 50), (0.3, 0.1, 20), (-2.0, 1.0, 10), (np.float32(0.25), np.float32(0.5), 30)])(mandel)
_mandel = kiln.jit(mandel)


# a constant slice of a tuple of numbers: a.shape[:2], t[::-1], bounds clamped as Python clamps them
@case(*MATS, (np.zeros((2, 3, 4)),), (np.zeros(5),))
def shape_slices(a):
    t = (1, 2.5, -3, True)
    (rows,) = a.shape[:1]
    return a.shape[:2], a.shape[1:], a.shape[::-1], a.shape[-2:], a.shape[9:], rows, t[::2], t[3:0:-2], t[-9:9]


@case(*[(rng.random(50),)])
def do_sum(A):
    acc = 0.
    for x in A:
        acc += np.sqrt(x)
    return acc


@case(*[(3, 4), (1.5, 2.0)])
def average_numbers(x, y):
    return (x + y) / 2.0


@case(*[(0,), (1,), (100,)])
def seeded_random_in_range(n):
    random.seed(42)
    ok = True
    for i in range(n):
        x = random.uniform(-1, 1)
        r = random.random()
        k = random.randint(3, 7)
        ok = ok and -1 <= x <= 1 and 0 <= r < 1 and 3 <= k <= 7
    return ok
