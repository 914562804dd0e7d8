"""Corpus: arrays built from others. np.repeat (and a.repeat) and np.tile,
on arrays of every kind of dtype and layout, empty ones and views, with
NumPy's errors for negative counts, counts of the wrong length and an
axis out of range; np.triu, np.tril and np.tri."""
import numpy as np

from np_diff import case

_M = np.arange(12).reshape(3, 4)
ARRAYS = [_M, np.asfortranarray(_M * 1.5), _M[::-1, 1::2], np.array([True, False, True]), np.array([1 + 2j, -3j]),
          np.arange(5, dtype=np.float32), np.zeros((0, 3)), np.arange(24, dtype=np.int8).reshape(2, 3, 4)]


@case(*[(a, 2) for a in ARRAYS], (_M, 0), (_M, -1), (np.arange(3), np.array([1, 0, 2])), (np.arange(3), np.array([2])),
      (np.arange(3), np.array([1, 2])), (np.arange(3), np.array([1, -1, 1])), (_M, np.arange(12, dtype=np.uint8)))
def repeat_flat(a, r): return np.repeat(a, r)
@case(*[(a, 2) for a in ARRAYS], (_M, np.array([1, 0, 3])), (_M, np.array([3])), (_M, np.array([1, 2])))
def repeat_first_axis(a, r): return np.repeat(a, r, axis=0), a.repeat(r, 0)
@case((_M, 3), (_M[:, ::-1], np.array([0, 1, 2, 3])), (np.zeros((2, 0)), 4), (np.arange(24.0).reshape(2, 3, 4), 2))
def repeat_last_axis(a, r): return np.repeat(a, r, axis=-1), a.repeat(r, axis=a.ndim - 1)
@case((_M, 2, 1), (_M, 2, -2), (_M, 2, 2), (_M, 2, -3))
def repeat_axis_from_a_variable(a, r, ax): return np.repeat(a, r, ax)
@case(*[(a, 2) for a in ARRAYS], (_M, (2, 1)), (_M, (1, 2, 3)), (np.arange(3.0), (2, 2)), (_M, ()), (_M, 0), (_M, (0, 2)),
      (_M, -1), (_M[::2], (3,)), (np.array([True, False]), (2, 3)))
def tile(a, r): return np.tile(a, r)
@case((np.array([0.0, 1.0]), 3))
def tiled_pattern_sum(base, n):   # a course's periodic signal: a pattern repeated and summed
    return np.tile(base, n).sum() + np.repeat(base, n).sum()


@case(*[(a, 1) for a in ARRAYS], (_M, -1), (_M, 10), (_M, -10), (np.arange(4), 0), (np.ones((2, 2), dtype=complex), 0))
def triangles(m, k): return np.triu(m), np.triu(m, k), np.tril(m), np.tril(m, k=k)
@case((3, 4, 1), (0, 2, 0), (3, 2, -5), (4, 4, 0), (2, 5, 3))
def tri(n, m, k): return np.tri(n), np.tri(n, m, k), np.tri(n, M=m, k=k, dtype=np.int32), np.tri(n, None, -1, bool)
@case((np.arange(1.0, 10.0).reshape(3, 3),))
def split_into_triangles(a):   # a course's LU-style split: strictly lower + upper gives the matrix back
    return (np.tril(a, -1) + np.triu(a) == a).all()
