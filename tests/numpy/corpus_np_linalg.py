"""Corpus: np.linalg.solve, inv and det, on LAPACK as NumPy's own linalg:
results equal to the bit, float32 computed in float64 as NumPy does, and
NumPy's errors for singular, non-square and mismatched operands; and
np.trace, np.diag and diagonals."""
import numpy as np

from np_diff import case

_rng = np.random.default_rng(42)
_A = _rng.standard_normal((5, 5))
_B = _rng.standard_normal((5, 3))
_SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
_INTS = np.array([[4, -2, 1], [3, 6, -4], [2, 1, 8]])
SYSTEMS = [(_A, _B[:, 0]), (_A.T, _B), (np.asfortranarray(_A), _B[::-1, ::2]), (_A[::2, ::2], _B[::2, 1]),
           (_A.astype(np.float32), _B.astype(np.float32)), (_A.astype(np.float32), _B[:, 0]), (_INTS, np.array([1, 2, 3])),
           (np.zeros((0, 0)), np.zeros(0)), (_SINGULAR, np.ones(2)), (np.ones((2, 3)), np.ones(2)), (_A, _B[:4]),
           (_A, _B[:2, 0])]


@case(*SYSTEMS)
def solve(a, b): return np.linalg.solve(a, b)
@case(*[(a,) for a, _ in SYSTEMS])
def inv(a): return np.linalg.inv(a)
@case(*[(a,) for a, _ in SYSTEMS], (np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.eye(3) * -2,))
def det(a): return np.linalg.det(a)
@case((_A, _B[:, 0]), (_INTS, np.array([1.0, 0.0, -1.0])))
def residual_of_solution(a, b):   # used the way a course uses it
    x = np.linalg.solve(a, b)
    return np.abs(a @ x - b).max() < 1e-9, x @ x


# np.trace, np.diag, np.diagonal and a.diagonal(): read-only views of a diagonal, as NumPy's
_RECT = np.arange(12.0).reshape(3, 4)
@case((_RECT,), (_RECT.T[::-1],), (np.arange(12).reshape(4, 3)[::2],), (np.zeros((0, 3)),), (_INTS,), (_A.astype(np.float32),))
def diagonals(m):
    return (np.trace(m), np.trace(m, 1), np.trace(m, -2), m.diagonal(), m.diagonal(-1), np.diagonal(m, offset=2),
            np.diag(m, 9), np.diag(m) * 2)
@case((np.array([1, 2, 3]),), (np.arange(4.0)[::-2],), (np.zeros(0, np.int8),), (np.array([True, False]),))
def diag_of_vector(v): return np.diag(v), np.diag(v, 2), np.diag(v, k=-1)
