"""Corpus: reductions (whole array and along an axis), cumulative sums,
dot products, views and slice assignment."""
import numpy as np

from np_diff import case
from np_inputs import M, MI, V, VI, bools, floats, ints

NONEMPTY_V = [a for a in V + VI if a[0].size > 0]
NONEMPTY_M = [a for a in M + MI if a[0].size > 0]
M3 = [(floats((2, 3, 4)),), (ints((3, 2, 2)),), (floats((4, 3, 2))[::2, :, ::-1],)]


@case(*V, *VI, *M, *MI)
def sum_all(a): return a.sum()
@case(*V, *VI, *M, *MI)
def np_sum(a): return np.sum(a)
@case(*V, *VI, *M)
def prod_all(a): return np.prod(a / 8.0)
@case(*VI, *MI)
def prod_int(a): return a.prod()
@case(*NONEMPTY_V, *NONEMPTY_M)
def min_max(a): return a.min(), a.max(), np.min(a), np.max(a)
@case(*V[1:2], *VI[-1:])
def min_empty(a): return a.min()


def _nan_at(a, i):
    a = a.copy()
    a.reshape(-1)[i] = np.nan
    return a


# whole-array min and max run as a vectorized loop: every dtype (unsigned
# ones past their signed range, where a signed compare would go wrong;
# int64's ends), bool, a NaN in a vector lane or the tail or only in a
# view, and the layouts that are copied first (uint64 past 2**63:
# test_min_max_vectorizes.py, as the corpus compares ints as int64)
EXTREME_INPUTS = [
    (ints(37, np.int16, -2**15, 2**15),), (ints(33, np.uint16, 0, 2**16),), (ints(35, np.uint32, 0, 2**32),),
    (ints(34, np.int8, -128, 128),), (ints(36, np.uint8, 0, 256),), (ints(38, np.uint64, 0, 2**62),),
    (np.array([0, -2**63, 2**63 - 1, 5] * 9, np.int64),),
    (bools(41),), (np.zeros(19, bool),), (np.ones(3, bool),),
    (_nan_at(floats(40), 21),), (_nan_at(floats(37, np.float32), 36),), (_nan_at(floats(64), 0),),
    (np.array([np.inf, -np.inf] * 10),), (np.array([np.nan] * 9),),
    (_nan_at(floats((6, 7)), 13)[::2, ::-3],), (np.asfortranarray(_nan_at(floats((5, 9)), 40)),),
    (floats((40, 3), np.float32).T[:, ::2],), (ints((8, 9), np.uint8).T,),
]
@case(*EXTREME_INPUTS)
def min_max_every_dtype(a): return a.min(), a.max(), np.amin(a), np.amax(a)
@case(*V[1:2])
def argmax_empty(a): return np.argmax(a)
@case(*NONEMPTY_V, *NONEMPTY_M)
def amin_amax(a): return np.amin(a), np.amax(a)
@case(*V, *VI, *M)
def mean(a): return a.mean(), np.mean(a)
@case(*V, *VI, *M)
def var_std(a): return a.var(), np.std(a)
@case(*NONEMPTY_V, *NONEMPTY_M)
def argmin_argmax(a): return a.argmin(), np.argmax(a)
@case(*V, *VI, *M)
def all_any(a): return (a > 0).all(), np.any(a > 5), a.all(), np.any(a)
@case(*M, *MI)
def sum_axis0(a): return a.sum(axis=0)
@case(*M, *MI)
def sum_axis1(a): return np.sum(a, axis=1)
@case(*M, *MI)
def sum_axis_neg(a): return a.sum(axis=-1)
@case(*M)
def sum_axis_bad(a): return a.sum(axis=2)
@case(*M3)
def sum_3d_axes(a): return a.sum(axis=0), a.sum(axis=1), a.sum(axis=2)
@case(*NONEMPTY_M)
def max_axis(a): return a.max(axis=0), np.min(a, axis=1)
@case(*NONEMPTY_M, *M3)
def argmax_axis(a): return a.argmax(axis=0), np.argmin(a, axis=-1)
@case(*M, *M3)
def mean_axis(a): return a.mean(axis=0), np.mean(a, axis=1)
@case(*M)
def var_std_axis(a): return a.var(axis=0), a.std(axis=1)
@case(*M, *MI)
def prod_axis(a): return np.prod(a % 3 + 1, axis=1)
@case(*M)
def all_any_axis(a): return (a > 0).all(axis=0), (a > 0).any(axis=1)
@case(*V, *VI)
def sum_1d_axis0(a): return a.sum(axis=0)
@case(*V, *VI, *M)
def cumsum_flat(a): return np.cumsum(a), a.cumsum()
@case(*M, *MI, *M3)
def cumsum_axis(a): return np.cumsum(a, axis=0), a.cumsum(axis=1)
@case(*VI)
def cumprod(a): return np.cumprod(a % 3 + 1)
@case(*V)
def nan_propagates(a): return np.max(a), np.min(a), a.sum(), np.argmax(a)
@case(*V)
def reduce_expression(a): return np.sum(a * a), np.max(np.abs(a)), (a > 0).sum()
@case((floats(5), floats(5)), (ints(4), floats(4)), (floats(3), floats(4)), (floats(0), floats(0)))
def dot_1d(a, b): return np.dot(a, b)
@case((floats((3, 4)), floats(4)), (floats(3), floats((3, 2))))
def dot_by_keyword(a, b): return np.dot(a, b=b), np.dot(b=b, a=a)
@case((floats((3, 4)), floats(4)), (floats((2, 3)).T, floats(2)), (floats((3, 4)), floats(3)))
def dot_2d_1d(a, b): return np.dot(a, b)
@case((floats(3), floats((3, 4))), (ints(2), ints((2, 5))))
def dot_1d_2d(a, b): return a.dot(b)
@case((floats((3, 4)), floats((4, 2))), (floats((4, 3)).T, np.asfortranarray(floats((4, 5)))), (floats((2, 2)), floats((3, 2))),
      (ints((2, 3)), ints((3, 2))), (floats((0, 3)), floats((3, 2))))
def dot_2d(a, b): return np.dot(a, b)
@case((floats((3, 3)),))
def matrix_power_loop(a):
    r = np.eye(3)
    for _ in range(3):
        r = np.dot(r, a)
    return r
@case(*V, *M)
def slice_view_sum(a): return a[1:].sum() if a.shape[0] > 1 else 0.0
@case(*V, *VI)
def slice_assign_scalar(a):
    a[1:-1] = 7
    return a
@case(*V)
def slice_assign_array(a):
    a[::2] = np.arange(a[::2].shape[0]) * 1.5
    return a
@case(*V)
def slice_assign_wrong_shape(a):
    a[0:2] = np.ones(3)
    return a
@case(*M)
def row_assign_broadcast(a):
    if a.shape[0] > 0:
        a[0] = a[-1] * 2
    a[:, 0] = 1.0
    return a
@case(*M)
def slice_assign_overlap(a):
    a[1:] = a[:-1]
    return a
@case(*V, *M)
def full_slice_fill(a):
    a[:] = 0.5
    return a
@case(*M)
def column_means_loop(a):
    out = np.zeros(a.shape[1])
    for j in range(a.shape[1]):
        out[j] = a[:, j].mean() if a.shape[0] > 0 else 0.0
    return out
@case(*M)
def row_norms(a):
    return np.sqrt((a * a).sum(axis=1))
@case(*M)
def normalize_rows(a):
    s = np.abs(a).sum(axis=1) + 1.0
    return a / s.reshape(-1, 1)
@case((floats((3, 4)), floats((4, 2))), (floats((2, 3)), floats(3)), (floats(4), floats(4)), (floats((5, 2)).T, floats((5, 3))))
def matmul_operator(a, b): return a @ b
@case((floats((3, 4)), floats(4)), (floats((4, 3)).T, floats((4, 3)).T), (ints(6), floats(6)[::-1]),
      (floats(0), floats(0)), (floats((2, 1)), floats(3)))
def fused_reductions(a, b):
    return np.sum(a * b), (a - b).mean(), np.max(a + b), (a * b > 0).all(), np.any(a > b), np.prod(a / 100 + 1)
@case(*V)
def fused_min_nan_and_empty(a): return np.min(a * 2), (a + 1).max()
# NumPy functions that are other NumPy code (jit/frontend/np_rewrite.c)
@case(*V, *VI, *M, *MI, (bools((3, 4)),))
def count_nonzero(a): return np.count_nonzero(a), np.count_nonzero(a > 1), np.count_nonzero(a, axis=0)
@case(*V, *VI, *M, (np.array([np.nan, np.nan]),), (np.array([1.0, np.nan, np.inf]),))
def nansum(a): return np.nansum(a)
_WITH_NAN = np.array([[1.0, np.nan, 3.0], [np.nan, -2.5, np.inf]])
@case((_WITH_NAN,), (_WITH_NAN[:, 0],), (_WITH_NAN.T,), (np.full(3, np.nan),), (np.zeros(0),), (np.arange(7),),
      (np.array([np.nan, 1.5, 2.0], dtype=np.float32),), (np.array([True, False, True]),), (_WITH_NAN[::-1, ::2],))
def nan_reductions(a): return np.nanmean(a), np.nanvar(a), np.nanstd(a), np.nanprod(a), np.nansum(a)
# ... and of any expression without effects, computed again where the rewrite reads it twice
# (frontend/np_rewrite.c: kj_rw_plain)
@case((_WITH_NAN[0],), (_WITH_NAN[:, 0],), (np.full(3, np.nan),), (np.arange(7.0),), (np.array([np.nan, 1.5, 2.0], dtype=np.float32),))
def nan_reductions_of_expressions(a):
    return (np.nanmean(a * 2), np.nansum(a + 1), np.nanmax(np.abs(a)), np.nanstd(a[::2] - 1), np.ptp(a * 3),
            np.diff(a ** 2), np.isclose(a * 2, a + a), np.nancumsum(np.sqrt(np.abs(a))))
@case(*V, *VI, *M, *MI, (floats((3, 4), special=True),))
def nan_cumulative(a):
    small = a / 8.0
    return np.nancumsum(a), np.nancumprod(small), np.nancumprod(a)
# np.inner and np.vdot, as np.dot of the last axes and of the flattened arrays (jit/frontend/np_rewrite.c)
@case((floats(6), floats(6)[::-1]), (floats(4), floats(4, np.float32)), (ints(5), ints(5)), (floats((3, 4)), floats((2, 4))),
      (floats(4), floats((3, 4))), (floats((2, 3)), floats(3)), (floats(0), floats(0)), (ints((2, 3)), floats((4, 3))[::-1]))
def inner(a, b): return np.inner(a, b)
@case((floats(6), floats(6)[::-1]), (floats((2, 3)), floats((3, 2))), (ints(5), ints(5, np.int32)), (floats(0), floats(0)),
      (floats((2, 3)).T, ints(6)))
def vdot(a, b): return np.vdot(a, b), np.vdot(b, a)
@case((_WITH_NAN,), (np.full(3, np.nan),), (np.zeros(0),), (np.arange(7),), (np.array([np.nan, 1.5, 2.0, 8.0], dtype=np.float32),))
def nanmedian(a): return np.nanmedian(a)
@case(*V, *VI, *M, (np.array([3 + 4j, -1j, 2.0]),))
def linalg_norm(a): return np.linalg.norm(a)
_OBS = np.array([[0.5, 1.5, -2.0, 4.0, 3.25, 0.0], [1.0, 2.0, 2.5, -1.0, 0.0, 7.0], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0]])
@case((_OBS,), (_OBS[0],), (_OBS[:2],), (np.arange(12).reshape(3, 4),), (np.zeros((0, 4)),), (np.ones((3, 1)),),
      (np.asfortranarray(_OBS),), (_OBS[:, ::-2],), (_OBS[0].astype(np.float32),), (np.array([True, False, True]),))
def covariance(m): return np.cov(m), np.corrcoef(m), np.cov(m, bias=True), np.cov(m, ddof=0), np.cov(m, None, True, False, 2)
@case((_OBS[:, :3],), (_OBS.T,))
def covariance_of_columns(m): return np.cov(m, rowvar=False), np.corrcoef(m, rowvar=False), np.corrcoef(m, rowvar=0), np.cov(m, rowvar=1)
@case((np.arange(5.0), np.arange(5.0) ** 2), (np.arange(5.0), -np.arange(5.0)), (_OBS[:2], _OBS[2]), (np.ones(4), np.arange(4.0)),
      (np.arange(5.0), np.arange(4.0)), (_OBS[:2].T, _OBS[2]), (np.arange(4), np.array([2, 0, 1, 3])))
def covariance_of_two(x, y): return np.cov(x, y), np.corrcoef(x, y), np.corrcoef(x, y)[0, 1], np.cov(x, y, False)
@case((np.arange(12.0).reshape(3, 4) - 5,), (np.arange(6).reshape(2, 3),), (np.ones((2, 3), np.float32),), (np.zeros((0, 3)),),
      (np.array([[3 + 4j, -1j], [2.0, 0.5j]]),), (np.arange(24.0).reshape(2, 3, 4)[:, ::-1],))
def norms_of_lines(x):   # a norm for each row or column: vector norms along an axis
    return (np.linalg.norm(x, axis=1), np.linalg.norm(x, 1, axis=0), np.linalg.norm(x, np.inf, 1), np.linalg.norm(x, -np.inf, axis=-1),
            np.linalg.norm(x, 3, 1), np.linalg.norm(x, ord=2, axis=0), np.linalg.norm(x, None, 1), np.linalg.norm(x, 0.5, 1))
_CLOSE = (np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 100.0, 0.0]),
          np.array([1.0 + 1e-9, np.nan, np.inf, np.inf, 0.0, 100.001, -0.0]))
@case(_CLOSE, (_CLOSE[0][[0, 5, 6]], _CLOSE[1][[0, 5, 6]]), (floats(4), floats(4)), (ints(5), ints(5)),
      (_CLOSE[0].astype(np.float32), _CLOSE[1].astype(np.float32)), (1.0, 1.0 + 1e-12), (floats((2, 3)), floats(3)))
def allclose(a, b): return np.allclose(a, b), np.allclose(a, b, equal_nan=True), np.allclose(a, b, 1e-2, 1e-3)
@case((np.arange(3), np.arange(3)), (np.arange(3), np.arange(4)), (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
      (np.arange(3.0), np.ones((2, 3))), (np.zeros((2, 0)), np.zeros((2, 0))), (np.arange(6).reshape(2, 3), np.arange(6.0).reshape(2, 3)),
      (np.array([True, False]), np.array([1, 0])), (np.arange(4)[::2], np.array([0, 2])), (np.ones(2, np.float32), np.ones(2)))
def array_equal(a, b): return np.array_equal(a, b), np.array_equal(a, b, equal_nan=True), np.array_equal(a1=a, a2=b)
# np.ptp and np.average (no weights): NumPy's definitions (jit/frontend/np_rewrite.c)
@case(*V[:4], *VI[:4], *M[:4])
def ptp_and_average(a): return np.ptp(a), np.average(a), np.ptp(a, 0), np.average(a, axis=0)
@case(*M[:4], *MI)
def ptp_rows(a): return np.ptp(a, axis=1), np.average(a, 1), np.ptp(a, -1)
@case(*V[1:2], *M[4:5])
def ptp_of_empty(a): return np.ptp(a)   # NumPy's ValueError for a zero-size reduction
# np.bincount and np.interp (jit/numpy/lower_np_bins.c)
_COUNTS = [(np.array([1, 1, 3, 0, 7]),), (np.array([2, 0, 2], np.int8),), (np.array([True, False, True]),),
           (np.array([5, 1, 5, 9], np.uint32)[::-1],), (np.array([3, -1, 2]),)]
@case(*_COUNTS)
def bincount(x): return np.bincount(x), np.bincount(x, minlength=12)
@case(*[(x, (np.arange(len(x)) * 0.5).astype(np.float32)) for (x,) in _COUNTS], (np.array([1, 2]), np.ones(3)))
def bincount_weights(x, w): return np.bincount(x, w), np.bincount(x, weights=w[::-1], minlength=3)
@case((np.array([], np.int64),), (np.array([0, 4]),))
def bincount_minlength(x): return np.bincount(x, minlength=0), np.bincount(x, minlength=-1)
_XP = np.array([1.0, 2.0, 2.0, 3.0, 7.5])
@case((np.array([0.0, 4.0, np.nan, 2.0, 1.0, 3.0, 1.5, -np.inf, np.inf, 7.5]), _XP, np.array([3.0, 2.0, 5.0, 0.0, -1.0])),
      (floats((3, 4)), _XP, ints(5)), (2.5, _XP[::-1][::-1], _XP * 2), (np.array([1.5], np.float32), _XP[:1], _XP[1:2]),
      (np.nan, _XP[:1], _XP[1:2]), (1.0, _XP[:0], _XP[:0]), (1.0, _XP, _XP[:3]),
      (np.array([0.5, 1.5, 2.5]), np.array([1.0, 2.0, 3.0]), np.array([np.inf, 1.0, np.inf])))
def interp(x, xp, fp): return np.interp(x, xp, fp), np.interp(x, xp, fp, left=-1.0, right=99)
# reductions of a tuple, as of NumPy's array of it: np.prod(a.shape)
@case(*M[:4], *V[:2])
def reductions_of_shape(a): return np.prod(a.shape), np.sum(a.shape), np.max(a.shape), np.mean(a.shape), np.all(a.shape)
@case((2.0, np.nan, 1.0), (1, 2, 3), (True, False, True), (-1.5, 2, 0))
def reductions_of_tuple(x, y, z):
    t = (x, y, z)
    return np.sum(t), np.prod(t), np.min(t), np.amax(t), np.mean(t), np.any(t)
@case(*V, *VI)
def tolist(a):
    b = a.tolist()
    b.append(7)
    return b, (a > 0).tolist()
# np.trapz and a.clip (jit/frontend/np_rewrite.c)
@case((np.array([1.0, 2.0, 4.0]), np.array([0.0, 1.0, 3.0])), (np.array([1, 2, 4]), np.array([0, 1, 3])),
      (np.array([]), np.array([])), (np.array([2.5]), np.array([1.0])), (floats(5), floats(5)), (floats(4), floats(3)))
def trapz(y, x): return np.trapz(y), np.trapz(y, dx=0.5), np.trapz(y, x)
@case(*M[:4], *MI)
def trapz_rows(m):
    x = np.arange(m.shape[1]) * 0.5
    return np.trapz(m), np.trapz(m, axis=0), np.trapz(m, x), np.trapz(m, dx=2, axis=-2)
@case(*V, *VI, *M[:3])
def clip_method(a): return a.clip(-1, 1.5), a.clip(min=0, max=2) * 2
# np.nanmin and np.nanmax: NumPy's fmin and fmax reductions, NaN dropped, all-NaN giving NaN
_NANS = np.array([np.nan, 1.5, -2.0, np.nan, 0.0])
@case((_NANS,), (_NANS.astype(np.float32)[::-1],), (np.full(3, np.nan),), (np.zeros(0),), *VI[:3])
def nan_extremes(a): return np.nanmax(a), np.nanmin(a), np.nanmax(a * 2 - 1)
@case((np.array([[np.nan, 1.0, 2.0], [np.nan, -3.0, np.nan]]),), *M[:4], *MI)
def nan_extremes_along_axes(m): return np.nanmax(m, axis=0), np.nanmin(m, 1), np.nanmax(m, -1)
# np.nanargmin and np.nanargmax: the first extreme of the numbers; no number at all (all NaN, or empty
# floats) is NumPy's "All-NaN slice encountered", empty ints its argmin's error
@case((_NANS,), (_NANS.astype(np.float32)[::-1],), (np.full(3, np.nan),), (np.array([np.nan, -0.0, 0.0]),), *V, *VI)
def nan_arg_extremes(a): return np.nanargmin(a), np.nanargmax(a)
@case((np.array([[np.nan, 1.0, 2.0], [-3.0, -3.0, np.nan]]),), (np.array([[np.nan, 1.0], [np.nan, np.nan]]),), *M, *MI)
def nan_arg_extremes_along_axes(m): return np.nanargmax(m, axis=0), np.nanargmin(m, 1), np.nanargmax(m, -1)
