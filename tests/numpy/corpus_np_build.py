"""Corpus: arrays built from others. np.repeat (and a.repeat) and np.tile,
on arrays of every kind of dtype and layout, empty ones and views, with
NumPy's errors for negative counts, counts of the wrong length and an
axis out of range; np.triu, np.tril and np.tri; np.convolve and np.correlate;
np.split, np.array_split, np.hsplit, np.vsplit and np.dsplit (lists of views);
np.resize and np.indices."""
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
@case((3, 4, 1), (0, 2, 0), (3, 2, -5), (4, 4, 0), (2, 5, 3), (-3, 2, 0), (2, -1, 1))   # a negative N or M: none
def tri(n, m, k): return np.tri(n), np.tri(n, m, k), np.tri(n, M=m, k=k, dtype=np.int32), np.tri(n, None, -1, bool)
@case((np.arange(1.0, 10.0).reshape(3, 3),))
def split_into_triangles(a):   # a course's LU-style split: strictly lower + upper gives the matrix back
    return (np.tril(a, -1) + np.triu(a) == a).all()


# np.convolve and np.correlate: every mode, either array the longer, strided and reversed views, ints kept ints
_SIGNAL = np.array([0.0, 1.0, 4.0, 9.0, 16.0, 25.0, 36.0])
_WINDOW = np.ones(3) / 3
PAIRS = [(_SIGNAL, _WINDOW), (_WINDOW, _SIGNAL), (np.arange(5), np.array([1, -1])), (np.arange(4, dtype=np.int8), np.arange(3, dtype=np.int8)),
         (_SIGNAL[::-2], np.array([0.5, 0.25])), (np.array([2.0]), np.array([3.0])), (_SIGNAL, _SIGNAL), (np.zeros(0), np.ones(2)),
         (np.ones(2), np.zeros(0)), (np.arange(4, dtype=np.float32), np.array([1.0, 2.0], dtype=np.float32)),
         (np.array([True, False, True]), np.array([True, True])),
         # operands of different dtypes: NumPy converts both to the result's (each read with its own size)
         (np.arange(2, dtype=np.int8), np.arange(2, dtype=np.int32)), (np.arange(5, dtype=np.int32), np.arange(-2, 1, dtype=np.int8)),
         (np.arange(4, dtype=np.uint8), np.array([1.5, -2.0])), (np.array([0.5, 2.0, -1.0], dtype=np.float32), np.arange(6, dtype=np.int16)),
         (np.array([True, False]), np.arange(3.0))]


@case(*PAIRS)
def convolve(a, v): return np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, mode="valid")
@case(*PAIRS)
def correlate(a, v): return np.correlate(a, v), np.correlate(a, v, "same"), np.correlate(a, v, mode="full")
@case((_SIGNAL, 3),)
def moving_average(x, w):   # a course's smoothing: the mean of each window of w points
    return np.convolve(x, np.ones(w), "valid") / w
# np.split and its kin: a list of views, at sections or indices, along an axis
_CUT = np.arange(10.0)
@case(*[(a, n) for a in (_CUT, _CUT[::-2], np.zeros(0)) for n in (1, 2, 3, 4, 10, 11, 0, -2)])
def split_in_sections(a, n): return np.array_split(a, n), np.split(a, n)
@case(*[(a,) for a in ARRAYS if a.ndim == 2])
def split_matrices(m):
    return (np.array_split(m, 2), np.array_split(m, 2, axis=1), np.split(m, (1, -1), axis=-1),
            np.hsplit(m, [1]), np.vsplit(m, np.array([2, 1, 5])))
@case((_CUT, (3, -2, 20)), (_CUT, (7, 3)), (_CUT, (-20, 0, 10)), (_CUT[::3], (1,)), (np.zeros(0), (0, 1)))
def split_at_indices(a, cuts): return np.split(a, cuts), np.array_split(a, list(cuts))
@case((_CUT,), (np.zeros((0, 2)),))
def split_at_no_index(a): return np.split(a, ()), np.array_split(a, (), axis=0)
@case((_CUT, np.array([3, -2, 20])), (_CUT[::-1], np.array([4, 4], dtype=np.int32)), (_CUT, np.zeros(0, dtype=np.int64)))
def split_at_an_array_of_indices(a, cuts): return np.hsplit(a, cuts), np.array_split(a, cuts[::-1])
@case((np.arange(24, dtype=np.int8).reshape(2, 3, 4),), (np.arange(24.0).reshape(2, 4, 3).transpose(1, 0, 2),))
def split_blocks(b): return np.dsplit(b, 2) if b.shape[2] % 2 == 0 else np.dsplit(b, [1]), np.array_split(b, 2, 1)
# np.asfortranarray: a Fortran-ordered copy, or the array itself when it is one (tests/numpy/test_layouts.py: the flags)
@case(*[(a,) for a in ARRAYS])
def fortran_copies(a): return np.asfortranarray(a), np.asfortranarray(a, dtype=np.complex128), np.asfortranarray(a.T)


# np.resize: a's elements in C order, repeated to fill the new shape; zeros for an empty a (jit/numpy/np_resize.c)
@case(*[(a, 5) for a in ARRAYS], (_M, 0), (np.zeros(0, np.int8), 4), (_M, -1))
def resize(a, n): return np.resize(a, (n, 3)), np.resize(a, n), np.resize(a, (2, n, 2))


# np.indices: the index grid of a tuple of dimensions (jit/numpy/np_indices.c)
@case((0,), (1,), (4,))
def indices(n): return np.indices((n, 3)), np.indices((2, n, 1), dtype=np.int8), np.indices((n,), dtype=float), np.indices(())
