"""Corpus: boolean masks and integer-array indices (read and write),
sorting, unique, searchsorted, digitize, isin, histogram, None (np.newaxis) in an index,
np.unravel_index of one index."""
import numpy as np

from np_diff import case
from np_inputs import M, MI, PAIRS, V, VI, bools, floats, ints

FINITE = [(floats(9),), (floats(12)[::3],), (ints(10).astype(np.float64),), (floats(0),)]


@case(*V, *VI, *M, *MI)
def mask_select(a): return a[a > 0]
@case(*V, *M)
def mask_compound(a): return a[(a > -5) & (a < 5)]
@case(*V, *M)
def mask_from_other_array(a): return a[np.isfinite(a)]
@case((floats(5), floats(4) > 0))
def mask_wrong_shape(a, m): return a[m]
@case(*V, *VI, *M)
def mask_assign_scalar(a):
    a[a < 0] = 0
    return a
@case(*V, *M)
def mask_assign_values(a):
    m = a > 1
    a[m] = np.arange(m.sum()) * 1.0
    return a
@case((floats(6),))
def mask_assign_wrong_count(a):
    a[a > -100] = np.ones(2)
    return a
@case(*V, *M)
def mask_sum(a): return a[a > 0].sum(), (a > 0).sum()
@case(*[v for v in V + VI if v[0].size > 0], *M)
def int_index(a): return a[np.array([0, -1, 0])]
@case((floats(5), np.array([1, 5])), (floats(5), np.array([-6])))
def int_index_out_of_bounds(a, i): return a[i]
@case(*[m for m in M if m[0].shape[0] >= 2])
def int_index_rows(a): return a[np.array([1, 0, 1])]
@case(*[v for v in V + VI if v[0].size > 2])
def int_index_assign(a):
    a[np.array([0, 2])] = 7
    return a
@case(*[v for v in V if v[0].size > 2])
def int_index_assign_values(a):
    a[np.array([2, 0])] = np.array([-1.0, -2.0])
    return a
@case(*[m for m in M if m[0].shape[0] >= 2])
def int_index_assign_rows(a):
    a[np.array([0, 1])] = 0.5
    return a
@case(*V, *VI)
def sort_func(a): return np.sort(a)
@case(*V, *VI)
def sort_method(a):
    a.sort()
    return a
@case(*FINITE, *VI)
def argsort(a): return np.argsort(np.unique(a)), np.unique(a)[np.argsort(np.unique(a))]
@case(*V, *VI, *M, *MI)
def unique(a): return np.unique(a)
@case((np.array([3, 1, 3, 2, 1, 1]),), (np.array([True, False, True]),))
def unique_small(a): return np.unique(a)
@case((np.array([3, 1, 3, 2, 1, 1]),), (np.array([3.0, np.nan, -1.0, 2.0, -1.0, np.nan]),), (np.zeros(0),),
      (np.arange(12).reshape(3, 4) % 5,), (np.array([True, False, True]),), (np.arange(10, dtype=np.uint8)[::-3] % 2,))
def unique_with_counts(a):
    return np.unique(a, return_counts=True), np.unique(a, True, True, True), np.unique(a, return_inverse=True), np.unique(a, return_index=False)
@case((np.array([4, 2, 4, 4, 9]),))
def most_common(a):   # a course's mode of a sample: the value seen most often
    values, counts = np.unique(a, return_counts=True)
    return values[np.argmax(counts)]
@case(*FINITE, *VI)
def searchsorted_scalar(a): return np.searchsorted(np.sort(a), 0), np.searchsorted(np.sort(a), 3.5)
@case(*FINITE, *VI)
def searchsorted_array(a): return np.searchsorted(np.sort(a), np.array([-100.0, 0.0, 2.0, 100.0]))
_TIES = np.array([1, 2, 2, 2, 3, 5, 5])
@case(*FINITE, *VI, (_TIES,), (_TIES[::-1].astype(np.float32),))
def searchsorted_sides(a):
    s = np.sort(a)
    return np.searchsorted(s, a, side="right"), np.searchsorted(s, 2, "left"), np.searchsorted(s, 2.0, side="right")
@case((np.array([1.0, np.nan, 2]), np.array([np.nan, 1])), (np.arange(5), np.array([1.5, 3])), (np.arange(6).reshape(2, 3), np.array([[0, 5]])),
      (np.array([True, False]), np.array([1])), (np.arange(3), np.zeros(0)), (np.arange(12).reshape(3, 4)[:, ::2], np.array([2, 10, 3])),
      (np.array([-1, 255, 3], np.int16), np.array([255], np.uint8)), (np.zeros((2, 0)), np.arange(3.0)), (np.array([-0.0, np.inf]), np.array([0.0, np.inf])))
def isin(e, t): return np.isin(e, t), np.isin(e, t, invert=True), np.in1d(e, t), np.isin(element=e, test_elements=t, assume_unique=True)
_EDGES = np.array([0.0, 1.0, 2.5, 4.0, 10.0])
@case((np.array([0.2, 6.4, 3.0, 1.6, -1.0, 10.0, np.nan]), _EDGES), (np.array([0.2, 6.4, 3.0, 1.0]), _EDGES[::-1]),
      (np.arange(6).reshape(2, 3), np.array([1, 3, 3, 4])), (np.arange(5), np.array([4, 3, 3, 1])), (2.5, _EDGES),
      (np.arange(3), np.array([1, 3, 2])), (np.arange(3.0), np.zeros(0)), (np.arange(3), np.array([2.0, 2.0])),
      (np.array([-np.inf, np.inf]), _EDGES), (np.arange(4, dtype=np.uint8), np.array([1.5, 2.5])))
def digitize(x, bins): return np.digitize(x, bins), np.digitize(x, bins, right=True), np.digitize(x, bins=bins, right=False)
@case(*FINITE, *VI, (floats((3, 4)),))
def histogram_default(a): return np.histogram(a)
@case(*FINITE, *VI)
def histogram_bins(a): return np.histogram(a, 7)
@case(*FINITE)
def histogram_range(a): return np.histogram(a, 4, (-5.0, 5.0))
@case((np.array([2.0, 2.0, 2.0]),), (np.array([1.0, np.nan]),), (np.array([1.0, np.inf]),))
def histogram_edge_cases(a): return np.histogram(a, 3)
@case(*FINITE)
def histogram_bad_bins(a): return np.histogram(a, 0)
@case(*FINITE)
def histogram_bad_range(a): return np.histogram(a, 3, (1.0, 0.0))
@case(*V)
def median_by_sort(a):
    s = np.sort(a)
    return s[s.shape[0] // 2] if s.shape[0] > 0 else 0.0
@case(*V, *VI)
def augmented_views_and_masks(a):
    if a.shape[0] > 2:
        a[1:] += 1
        a[::2] *= 2
    a[a > 3] -= 3
    a[np.arange(a.shape[0]) % 2 == 0] += 10
    return a
@case(*M, *MI, (floats((2, 3, 4)),))
def sort_rows(a): return np.sort(a), np.argsort(np.sort(a)), np.sort(a.T)
@case(*VI, *MI, (ints(30, lo=0, hi=4),), (ints((3, 9), lo=0, hi=3),), *V)
def sort_kinds_with_ties(a):   # Kiln's sort is stable: the order NumPy's stable kinds give
    return (np.argsort(a, kind="stable"), np.argsort(a, -1, "mergesort"), a.argsort(kind="stable"),
            np.sort(a, axis=-1, kind="quicksort"), np.sort(a, -1, "heapsort"))
@case(*MI, (ints((3, 9), lo=0, hi=3),))
def argsort_last_axis_by_number(a): return np.argsort(a, axis=1, kind="stable"), a.argsort(1)
@case(*M, *MI)
def sort_rows_in_place(a):
    a.sort()
    return a
# None (np.newaxis) adds an axis of length 1: outer differences, pairwise distances
@case(*PAIRS[2:3], (floats(3), ints(4, np.int32)), (floats(0), floats(2)))
def newaxis_outer(x, y): return x[:, None] - y[None, :], x[np.newaxis] * 2, y[:, np.newaxis].shape
@case(*M[:4], M[5], *MI)   # not the empty one: a[None, 0] indexes past it, unchecked as in Numba
def newaxis_views(a): return a[None], a[:, None, :], a[1:, None], a[None, 0], a[0, None, ::-1], a[:, :, None]
@case((floats((5, 2)),), (floats((1, 3)),), (floats((0, 2)),))
def newaxis_pairwise_distances(p):
    d = p[:, None, :] - p[None, :, :]
    return np.sqrt((d * d).sum(axis=2))
# ... in an index, and np.flip and np.diff, which are written with it (jit/frontend/np_rewrite.c)
_CUBE = (floats((2, 3, 4)),)
@case(_CUBE, (floats((2, 3, 4))[:, ::-1, 1:],), *M[:4], (floats((2, 0, 3)),))
def ellipsis_index(a): return a[..., 0], a[0, ...], a[...], a[..., None], a[1:, ..., ::-1]
@case(_CUBE, *M[:4], M[5])   # not the empty one: a[0, ...] indexes past it, unchecked as in Numba
def ellipsis_store(a):
    a[..., 0] = -1.0
    a[0, ...] *= 2
    return a
@case(*V, *VI, _CUBE, *M, *MI)
def flip_every_axis(a): return np.flip(a), np.flip(a, 0), np.flip(a, axis=-1), np.flipud(a)
@case(_CUBE, *M, *MI)
def flip_second_axis(a): return np.fliplr(a), np.flip(a, 1), np.flip(a, -2)
@case(*V, *VI, (np.arange(5, dtype=np.uint8),), (floats(1),))
def diff_1d(a): return np.diff(a), np.diff(a, 2), np.diff(a, n=0), np.diff(a, n=4)
@case(_CUBE, *M, *MI)
def diff_axes(a): return np.diff(a), np.diff(a, axis=0), np.diff(a, 2, -2)
@case(*V, *VI, *M, *MI, (floats(1),), (np.arange(5, dtype=np.uint8),))
def ediff1d(a): return np.ediff1d(a)
# set operations, np.take, np.extract, np.select and np.rot90 (jit/frontend/np_rewrite.c): NaN, empty, 2-d and
# strided operands, mixed dtypes (the result takes NumPy's common dtype)
_SETS = [(ints(12, lo=-5, hi=5), ints(7, lo=-3, hi=8)), (floats(6), floats(0)), (np.array([1.0, np.nan, 2.0, 2.0]), np.array([np.nan, 2.0])),
         (ints((3, 4), lo=0, hi=6), floats(5)[::-1].round()), (np.arange(6, dtype=np.int32)[::2], np.arange(3, dtype=np.uint8)),
         (floats(0), ints(3)), (floats((2, 3)).T.round(), floats((3, 2)).round())]
@case(*_SETS)
def set_operations(a, b): return np.union1d(a, b), np.intersect1d(a, b), np.setdiff1d(a, b), np.setdiff1d(ar1=b, ar2=a)
@case(*V[:1], *V[2:], *VI[:4], *M[:4], *MI, _CUBE)
def take_flat(a): return np.take(a, np.array([0, -1, a.size // 2])), np.take(a, 1), np.take(a, -2, axis=None)
@case(*M[:4], *MI, _CUBE)
def take_first_axis(a): return np.take(a, np.array([1, 0, -1]), axis=0), np.take(a, 0, axis=0), np.take(a, np.array([-2]), 0)
@case(*V[:1], *V[2:], *VI[:4], *M[:4], *MI, _CUBE)
def take_as_a_method(a): return a.take(np.array([0, -1])), a.take(0), a.take(np.array([-1, 0]), axis=0), a.take(indices=1)
@case(*V, *VI, *M, *MI)
def extract(a): return np.extract(a > 0, a), np.extract(a < 0, a * 2), np.extract(a.astype(np.int64) % 2, a)
@case(*V, *VI, *M, *MI)
def select(a): return np.select([a > 0, a < 0], [a, -a]), np.select((a > 5, a > 0), (a * 2, a), default=-1), np.select([a > 1], [a + 1.5], 0.5)
@case((3, 0), (4, 1), (0, 0), (5, -2), (1, 3))
def tri_indices(n, k): return np.tril_indices(n), np.tril_indices(n, k), np.triu_indices(n, k), np.triu_indices(n, k=k, m=3), np.tril_indices(4, k, n)
@case((np.ones((3, 3)), 0), (np.ones((2, 5)), 1), (np.ones((4, 2)), -1), (np.ones((0, 3)), 0), (np.ones((3, 3))[::-1], 2))
def tri_indices_from(a, k): return np.tril_indices_from(a), np.triu_indices_from(a, k), np.tril_indices_from(a, k=k)
@case((1.5,), (3,), (True,), (np.zeros(2),), (np.zeros(()),), ((1, 2),), (np.int8(4),))
def isscalar(x): return np.isscalar(x), np.isscalar(1.0)
# one integer array beside slices: the positions it names along its axis, copied (jit/numpy/lower_np_fancy.c)
@case(*[(x, np.array(i, dtype=np.int64)) for (x,) in M[:4] for i in ([0, -1, 1], [], [1, 1])],
      (MI[0][0], np.array([3, 0], np.int32)), (MI[2][0], np.array([-1], np.int8)), (_CUBE[0], np.array([1, -3])),
      (floats((3, 4)), np.array([4])), (floats((3, 4)), np.array([-5])))
def by_index_beside_slices(a, idx):
    return a[:, idx], a[::-1, idx] * 2, a[..., idx], a[1:, idx].sum(), a[idx, ::-1], a[idx, :]
# one integer array beside integers (and slices after it): the integers' view indexed by the array,
# where NumPy puts the array's axis (jit/numpy/infer_np_index.c); read, and written
@case(*[(x, np.array(i, dtype=np.int64)) for (x,) in M[:4] for i in ([0, -1, 1], [], [1, 1])],
      (MI[0][0], np.array([1, 0], np.int32)), (floats((3, 4)), np.array([-3])))
def by_index_beside_integers(a, idx):
    b = a.copy()
    b[idx, 0] = -1
    b[1, idx % a.shape[1]] *= 3
    return a[idx, 0], a[1, idx % a.shape[1]], a[idx, -1] * 2, b
@case((_CUBE[0], np.array([1, 0])), (_CUBE[0], np.array([-1])), (_CUBE[0], np.array([], np.int64)))
def by_index_beside_integers_3d(c, idx):
    return c[:, 0, idx], c[idx, :, 1], c[0, 1, idx], c[1, idx, 2], c[idx, 1:, -1]
# a 1-d mask beside slices: the positions of its true elements (jit/numpy/lower_np_fancy.c)
@case(*[(x, np.arange(x.shape[1]) % 2 == 0) for (x,) in M[:4]], (MI[0][0], np.zeros(4, np.bool_)),
      (_CUBE[0], np.array([True, False, True])), (floats((3, 4)), np.ones(4, np.bool_)), (floats((3, 4)), np.ones(3, np.bool_)))
def by_mask_beside_slices(a, m):
    b = a.copy()
    b[:, m] = -1
    b[1:, m] *= 3
    return a[:, m], a[::-1, m] * 2, a[1:, m].sum(), b
# ... and written: each position it names gets its part of the value, broadcast as NumPy does
@case(*[(x, np.array(i, dtype=np.int64), v) for (x,) in M[:4] for i, v in (([0, -1], 9.5), ([1, 1], -2.0), ([], 3.0))],
      (floats((3, 4)), np.array([3, 0], np.int32), np.arange(6.0).reshape(3, 2)),
      (floats((3, 4)), np.array([2, 1]), np.arange(2.0)), (floats((3, 4)), np.array([2, 1]), np.arange(3.0).reshape(3, 1)),
      (ints((3, 4)), np.array([-1], np.int8), 2.7), (_CUBE[0], np.array([1, -3]), np.arange(4.0)),
      (_CUBE[0], np.array([2]), np.arange(8.0).reshape(2, 1, 4)), (floats((3, 4)), np.array([4]), 1.0))
def by_index_beside_slices_written(a, idx, v):
    a[:, idx] = v
    a[..., idx] *= 2
    a[1:, idx] += a[1:, idx]
    return a
@case(*M, *MI, _CUBE)
def rot90_every_k(a): return np.rot90(a), np.rot90(a, 2), np.rot90(a, k=3), np.rot90(a, 0), np.rot90(a, -1), np.rot90(a, 5)
# loops over np.ndindex and np.ndenumerate, and arrays indexed by their tuples (jit/numpy/np_ndindex.c)
@case(*V, *VI[:2], *M, *MI, _CUBE, (floats((2, 0, 3)),))
def ndindex_weighted_sum(a):
    s = 0.0
    for idx in np.ndindex(a.shape):
        s += a[idx] * (idx[0] + 1)
    return s
@case(*V, *VI[:2], *M, *MI, _CUBE)
def ndenumerate_into(a):
    out = np.zeros(a.shape)
    for idx, v in np.ndenumerate(a):
        out[idx] = v * 2 + idx[-1]
    return out
@case(*M[:2], *MI[:1], _CUBE)
def ndenumerate_comprehension(a): return [v for idx, v in np.ndenumerate(a) if idx[0] > 0], [i[-1] for i in np.ndindex(a.shape)]
@case(*M[:4], *MI)
def index_by_tuple(a):
    at, last = (1, 0), (-1, -1)
    v = a[at]
    a[at] = -7
    return v, a[last], a[at]
@case(_CUBE, (floats((3, 2, 2))[::-1],))
def view_by_tuple(a):
    at = (1, -1)
    return a[at], a[at][0]
@case((3, 4), (0, 2), (2, 0), (1, 1), (-1, 2))
def ndindex_of_ints(n, m):
    c = 0
    for i, j in np.ndindex(n, m):
        c += i * 10 + j
    for t in np.ndindex(n):
        c += t[0]
    for u in np.ndindex((m, 2, 1)):
        c += u[1] - u[2]
    for (i, j), k in zip(np.ndindex(n, m), range(100, 107)):   # continue and break keep the index in step
        if (i + j) % 3 == 0:
            continue
        if k > 105:
            break
        c += k * i - j
    return c
# a.item(): NumPy's checks and C order over any layout
@case(*V[:4], *VI[:4], *M[:4], *MI)
def item_flat(a): return a.item(0), a.item(-1), a.item(a.size // 2)
@case(*V[:1], *M[:1], (floats(0),))
def item_out_of_bounds(a): return a.item(a.size)
@case((np.array([[2.5]]),), (np.array(7),), (floats(3),))
def item_of_one(a): return a.item()
# np.median, np.percentile, np.quantile: NumPy's 'linear' method, NaN, the ends, its messages
@case(*V, *VI, *M, *MI, (np.array([np.inf, 1.0, -np.inf]),), (np.array([5.0]),))
def median(a): return np.median(a), np.median(a[::-1])
@case(*V[:1], *V[2:], *VI[:4], *M[:4], *MI, (np.array([np.inf, 1.0, -np.inf]),), (np.array([5.0]),))
def percentiles(a): return (
    np.percentile(a, 0), np.percentile(a, 12.5), np.percentile(a, 30), np.quantile(a, 0.5), np.quantile(a, 0.999),
    np.percentile(a, 100))
@case((floats(5), 101.0), (floats(5), -0.5), (floats(0), 50.0), (ints(4), np.nan))
def percentile_refused(a, q): return np.percentile(a, q)
# where an array is nonzero: np.nonzero (a.nonzero(), np.where(a)), np.flatnonzero, np.argwhere
@case(*V, *VI, *M, *MI, (bools((3, 4)),), (floats((2, 3, 2))[:, ::-1] > 0,), (np.array([0.0, np.nan, -0.0, 2.0]),))
def nonzero_family(a): return np.nonzero(a), a.nonzero(), np.where(a > 1), np.flatnonzero(a), np.argwhere(a)
@case((ints((3, 4)),), (floats((0, 2)),))
def nonzero_unpacked(a):
    i, j = np.nonzero(a > 0)
    return i * 10 + j
# a[i, j]: an integer array per axis names points (a[np.nonzero(m)] too), read and written
_I, _J = np.array([0, 2, -1, 1]), np.array([1, 3, 0, -4], dtype=np.int32)
@case((floats((3, 4)), _I, _J), (ints((3, 4), np.int32).T.copy().T, _I, _J), (floats((3, 4)), _I[:0], _J[:0]),
      (floats((3, 4)), np.array([0, 3]), np.array([0, 1])), (floats((3, 4)), _I, _J[:3]))
def points_read(a, i, j): return a[i, j], a[np.nonzero(a > 0)], a[np.where(a < 0)]
@case((floats((3, 4)), _I, _J, 9.5), (floats((3, 4)), _I, _J, np.arange(4.0)), (floats((3, 4)), _I, _J, np.array([7])),
      (floats((3, 4)), _I, _J, np.arange(3.0)))
def points_write(a, i, j, v):
    a[i, j] = v
    a[np.nonzero(a < -5)] = 0
    return a
# np.take_along_axis, np.fill_diagonal and np.broadcast_to (jit/numpy/np_place.c)
_ROWS = np.array([[0, 1], [3, -1], [2, 2]])
@case((floats((3, 4)), _ROWS), (ints((3, 4), np.int32), _ROWS[:, :1]), (floats((3, 4))[::-1, ::2], _ROWS[:1] % 2),
      (np.asfortranarray(floats((3, 4))), _ROWS.astype(np.int8)), (floats((3, 0)), _ROWS[:, :0]),
      (floats((3, 4)), np.array([[4, 0]])))
def take_along_axis(a, idx):
    return (np.take_along_axis(a, idx, axis=1), np.take_along_axis(a, idx, -1), np.take_along_axis(a.T, idx.T, 0),
            np.take_along_axis(a, np.argsort(a), axis=1), np.take_along_axis(a.ravel(), idx.ravel(), None))
@case(*[(x, v) for (x,) in (*M[:4], (floats((5, 3)),), (ints((3, 3), np.int16),), (floats((2, 2, 2)),))
        for v in (7, -2.5, np.array([1.0, 2.0]), np.arange(4).reshape(2, 2), np.zeros(0))],
      (floats((2, 2, 3)), 1.0))
def fill_diagonal(a, v):
    b = a.copy()
    np.fill_diagonal(a, v)
    if a.ndim == 2:
        np.fill_diagonal(b, v, wrap=True)
    return a, b
@case((floats(4),), (floats((3, 1)),), (floats((1, 4))[:, ::-1],), (ints(1, np.int8),), (floats(0),))
def broadcast_to(x):
    v = np.broadcast_to(x, (3, 4)) if x.size else np.broadcast_to(x, (2, 0))
    return v, np.broadcast_to(x, (2, 3, 4)).sum() if x.size else 0.0, np.broadcast_to(x, x.shape) * 2
# np.atleast_1d/2d/3d: the array itself, a view with axes of length 1 added, or a new array of a number
# (jit/numpy/np_atleast.c)
@case(*V[:3], *M[:3], _CUBE, (floats((2, 3, 4, 1)),), (2.5,), (-7,), (True,))
def atleast(x): return np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x), np.atleast_2d(x).shape, np.atleast_3d(x) * 2
# np.trim_zeros (a view) and np.delete without an axis (flattened; repeated and negative positions)
# (jit/numpy/np_trim_zeros.c, np_delete.c)
@case((np.array([0, 0, 1, 2, 0, 3, 0]),), (np.array([0.0, -0.0]),), (floats(0),), (np.array([1, 0, 0])[::-1],),
      (np.array([False, True, False]),), (floats(5),), (np.array([0.0, np.nan, 0.0]),))
def trim_zeros(x): return np.trim_zeros(x), np.trim_zeros(x, 'f'), np.trim_zeros(x, trim='b'), np.trim_zeros(x, 'fb') * 2
@case((np.arange(5), 1, np.array([1, 1, 3])), (floats((2, 3)), -1, np.array([0, 4])), (ints(5)[::-1], 0, np.array([], np.int64)),
      (np.arange(4), 3, np.array([-1, -4], np.int8)), (np.asfortranarray(floats((2, 2))), 2, np.array([3, 0, 3])),
      (np.arange(5), 5, np.array([0])), (np.arange(5), 0, np.array([7])), (np.arange(5), -6, np.array([0])))
def delete(a, i, idx): return np.delete(a, i), np.delete(a, idx), np.delete(a.ravel(), idx)
# np.moveaxis with constant ints: a view with the axes in the order the move gives (np_funcs.c)
@case(_CUBE, (floats((2, 3, 4))[:, ::-1, 1:],), *M[:4], (np.asfortranarray(floats((2, 3, 4))),), (floats((2, 0, 3)),))
def moveaxis(a): return np.moveaxis(a, 0, -1), np.moveaxis(a, -1, 0), np.moveaxis(a, source=1, destination=0) * 2, np.moveaxis(a, 0, 0).shape
# np.nanpercentile and np.nanquantile: of the numbers only, NaN when there is none, NumPy's messages for q
_SOME_NAN = np.array([np.nan, 1.0, np.nan, 3.0, -2.5])
@case(*V, *VI, *M[:4], (_SOME_NAN,), (_SOME_NAN[::-2],), (np.full(3, np.nan),), (np.array([np.nan, np.inf, -np.inf]),))
def nan_percentiles(a):
    return np.nanpercentile(a, 0), np.nanpercentile(a, 37.5), np.nanquantile(a, 0.5), np.nanquantile(a, 1.0), np.nanpercentile(a, q=90)
@case((_SOME_NAN, 101.0), (np.full(2, np.nan), -1.0), (np.zeros(0), 50.0))
def nan_percentile_of_q(a, q): return np.nanpercentile(a, q), np.nanquantile(a, q / 100)


# np.put and np.place write into the array in its C order, a view of any layout too (jit/numpy/np_put.c);
# the corpus compares the arrays after the call
_P = np.arange(12.0).reshape(3, 4)
@case(*[(a, i, v) for a in (np.arange(5.0), _P.copy(), _P.copy()[:, ::2], np.arange(6, dtype=np.int8))
        for i, v in ((0, 7.0), (-1, 3), (np.array([1, 0, 2]), np.array([9.0, 8.0])), (np.array([], np.int64), np.array([1.0])),
                     (np.array([1]), np.zeros(0)))],
      (np.arange(5.0), 10, 1.0), (np.arange(5.0), -6, 1.0), (np.arange(5.0), np.array([0, 5]), 1.0))
def put(a, i, v):
    return np.put(a, i, v)
@case(*[(a, m, v) for a in (np.arange(5.0), _P.copy()[::-1, 1::2]) for m, v in
        ((0, np.array([9.0, 8.0])), (0, np.array([1.5])), (1, np.zeros(0)))],
      (np.arange(5.0), 0, np.zeros(0)), (np.arange(5.0), 2, np.array([1.0])))
def place(a, m, v):   # m: 0 every element but each third, 1 none, 2 a mask of another size
    mask = np.arange(a.size).reshape(a.shape) % 3 != 1
    if m == 1:
        return np.place(a, mask & False, v)
    if m == 2:
        return np.place(a, np.zeros(3, np.bool_), v)
    return np.place(a, mask, v)


# np.unravel_index of one index (jit/numpy/np_unravel_index.c): NumPy's ValueError outside the array, a
# negative length (a negative size) too; NumPy's C division where two lengths are negative
@case(*[(i, s) for i in (0, 5, 6, -1, 23, np.int8(7), True) for s in ((2, 3), (2, 3, 4), 6, (), (2, 0), (-2, -3))])
def unravel_index(i, s): return np.unravel_index(i, s)
