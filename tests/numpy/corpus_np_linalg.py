"""Corpus: np.linalg.solve, inv and det, on LAPACK as NumPy's own linalg:
results equal to the bit, float32 computed in float64 as NumPy does, and
NumPy's errors for singular, non-square and mismatched operands; and
np.trace, np.diag and diagonals; np.cross."""
import numpy as np

from np_diff import case
from np_inputs import floats, ints

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


# Factorizations and eigenvalues: the LAPACK routines NumPy calls, with its workspace sizes, so equal to the bit.
_X = _rng.standard_normal((6, 6))
_SPD = _X @ _X.T + 6 * np.eye(6)
_NAN = np.array([[np.nan, 1.0], [1.0, 1.0]])
SYMMETRIC = [(_SPD,), (np.asfortranarray(_SPD),), (_SPD[::2, ::2],), (_SPD.astype(np.float32),), (np.array([[2, -1], [-1, 2]]),),
             (np.zeros((0, 0)),), (np.eye(1) * 3,), (np.array([[1.0, 2.0], [2.0, 1.0]]),), (np.ones((2, 3)),), (_NAN,)]
RECTANGLES = [(_X,), (_X[:, :4],), (_X[:3].T,), (_B,), (_B.T.astype(np.float32),), (_INTS,), (np.zeros((0, 3)),),
              (np.zeros((3, 0)),), (np.zeros((0, 0)),), (np.ones((1, 5)),), (_X[::-1, 1::2],)]


@case(*SYMMETRIC)
def cholesky(a): return np.linalg.cholesky(a)
@case(*SYMMETRIC)
def eigh(a): return np.linalg.eigh(a)
@case(*SYMMETRIC)
def eigh_upper(a): return np.linalg.eigh(a, UPLO="U")
@case(*SYMMETRIC)
def eigvalsh(a): return np.linalg.eigvalsh(a)
@case(*SYMMETRIC)
def eigvalsh_upper_lowercase(a): return np.linalg.eigvalsh(a, "u")
@case(*[(a,) for a, _ in SYSTEMS], (np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.eye(3) * -2,))
def slogdet(a): return np.linalg.slogdet(a)
@case(*RECTANGLES, (_NAN,))
def svd(a): return np.linalg.svd(a)
@case(*RECTANGLES)
def svd_reduced(a): return np.linalg.svd(a, full_matrices=False)
@case(*RECTANGLES)
def singular_values(a): return np.linalg.svd(a, compute_uv=False)
@case(*RECTANGLES)
def qr(a): return np.linalg.qr(a)
@case(*RECTANGLES)
def qr_complete(a): return np.linalg.qr(a, mode="complete")
@case(*RECTANGLES)
def qr_r(a): return np.linalg.qr(a, "r")
@case((_SPD,), (_X,), (_INTS,))
def factors_rebuild_the_matrix(a):   # what a course checks: A = QR = U S Vt, A v = w v, L L^T = A A^T + I
    q, r = np.linalg.qr(a)
    u, s, vt = np.linalg.svd(a)
    w, v = np.linalg.eigh(a @ a.T)
    low = np.linalg.cholesky(a @ a.T + np.eye(a.shape[0]))
    return (np.abs(q @ r - a).max() < 1e-9, np.abs((u * s) @ vt - a).max() < 1e-9,
            np.abs(a @ a.T @ v - v * w).max() < 1e-8, np.abs(low @ low.T - a @ a.T - np.eye(a.shape[0])).max() < 1e-9)


_FIT = np.linspace(0.0, 1.0, 9)
_DESIGN = np.vstack([_FIT, np.ones(9)]).T
LEAST_SQUARES = [(_DESIGN, 3 * _FIT - 1 + 0.1 * np.sin(40 * _FIT)), (_X, _X[:, 0]), (_B, _rng.standard_normal(5)),
                 (_B.T, _rng.standard_normal(3)), (_X[:, :3], _X[:, 3:]), (_B.astype(np.float32), np.ones(5, np.float32)),
                 (_INTS, np.array([1, 2, 3])), (np.ones((4, 2)), np.arange(4.0)), (np.zeros((0, 2)), np.zeros(0)),
                 (_DESIGN, np.zeros((9, 0))), (_DESIGN, np.ones(8)), (np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]), np.ones(3))]


@case(*LEAST_SQUARES)
def lstsq(a, b): return np.linalg.lstsq(a, b, rcond=None)
@case(*LEAST_SQUARES)
def lstsq_rcond(a, b): return np.linalg.lstsq(a, b, 1e-3)
@case(*LEAST_SQUARES[:3])
def lstsq_rcond_minus_one(a, b): return np.linalg.lstsq(a, b, rcond=-1)
@case((_DESIGN, 3 * _FIT - 1),)
def line_fit(x, y):   # a course's straight line through points: slope and intercept
    (slope, intercept), res, rank, sv = np.linalg.lstsq(x, y, rcond=None)
    return round(slope, 9), round(intercept, 9), rank


# eig / eigvals of real matrices with real eigenvalues (complex ones raise: tests/numpy/test_linalg_eig.py)
_UPPER = np.triu(_X) + np.diag(np.arange(6.0))
GENERAL = [(_SPD,), (_UPPER,), (_UPPER.T.astype(np.float32),), (np.array([[2, 1], [1, 3]]),), (np.array([[4.0, 1.0], [2.0, 3.0]]),),
           (np.zeros((0, 0)),), (np.ones((2, 3)),), (np.array([[np.inf, 0.0], [0.0, 1.0]]),), (_NAN,), (_UPPER[::2, ::2],)]


@case(*GENERAL)
def eig(a): return np.linalg.eig(a)
@case(*GENERAL)
def eigvals(a): return np.linalg.eigvals(a)


# matrix_power: NumPy's short cuts (0 to 3), its binary decomposition, the inverse's powers; integers wrap as NumPy's matmul
_MARKOV = np.array([[0.9, 0.1], [0.5, 0.5]])
POWERS = [(_X, 0), (_X, 1), (_X, 2), (_X, 3), (_X, 7), (_X, -5), (_X.astype(np.float32), 6), (_X.astype(np.float32), -2),
          (np.arange(9).reshape(3, 3), 5), (np.arange(9, dtype=np.int8).reshape(3, 3), 9), (np.ones((2, 3)), 2),
          (_SINGULAR, -1), (_MARKOV, 50), (np.zeros((0, 0)), 3), (_X[::2, ::2].T, 4), (np.arange(4, dtype=np.uint16).reshape(2, 2), 11)]


@case(*POWERS)
def matrix_power(a, p): return np.linalg.matrix_power(a, p)
@case((_MARKOV,))
def markov_steady_state(p):   # a course's chain: the rows of P**n settle on the steady state
    return np.linalg.matrix_power(p, 64)[0], np.linalg.matrix_power(p, 65)[1]


# pinv and matrix_rank: through the reduced SVD as NumPy's, float32 in float32, NumPy's cutoffs
@case(*RECTANGLES[:6], (_SINGULAR,), (np.zeros((3, 3)),), (np.eye(4)[::2],), (_X.astype(np.float32),))
def pinv(a): return np.linalg.pinv(a), np.linalg.pinv(a, 1e-3), np.linalg.pinv(a, rcond=0.5)
@case(*RECTANGLES, (_SINGULAR,), (np.zeros((3, 3)),), (_X.astype(np.float32),))
def matrix_rank(a): return np.linalg.matrix_rank(a), np.linalg.matrix_rank(a, 1e-3), np.linalg.matrix_rank(a, tol=None)


# np.linalg.norm with ord= and no axis=: a vector's norm or a matrix's, as x's dimensions say
_VEC = np.array([3.0, -4.0, 0.0, 1.0])
VECTORS = [(_VEC,), (_VEC[::-2],), (np.zeros(0),), (_VEC.astype(np.float32),), (np.array([1, -2, 3]),),
           (np.array([True, False, True]),), (np.array([1.0, np.nan, 2.0]),), (np.array([-np.inf, 1.0]),)]
@case(*VECTORS)
def vector_norm_inf(v): return np.linalg.norm(v, np.inf)
@case(*VECTORS)
def vector_norm_minus_inf(v): return np.linalg.norm(v, -np.inf)
@case(*VECTORS)
def vector_norms_summed(v):
    return np.linalg.norm(v, 0), np.linalg.norm(v, 1), np.linalg.norm(v, ord=2), np.linalg.norm(v, 3), np.linalg.norm(v, 0.5)
@case(*VECTORS)
def vector_norm_minus_one(v): return np.linalg.norm(v, -1), np.linalg.norm(v, -2.0)
_MAT = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
MATRICES = [(_MAT,), (_MAT.T[::-1],), (_A,), (np.asfortranarray(_B),), (np.zeros((0, 3)),), (np.zeros((3, 0)),), (_INTS,),
            (_B.astype(np.float32),), (np.array([[1.0, np.nan], [0.0, 2.0]]),), (_SINGULAR,)]
@case(*MATRICES)
def matrix_norm_one(m): return np.linalg.norm(m, 1)
@case(*MATRICES)
def matrix_norm_minus_one(m): return np.linalg.norm(m, -1)
@case(*MATRICES)
def matrix_norm_inf(m): return np.linalg.norm(m, np.inf), np.linalg.norm(m, ord=-np.inf)
@case(*MATRICES[:8])
def matrix_norm_two(m): return np.linalg.norm(m, 2)
@case(*MATRICES[:8])
def matrix_norm_minus_two(m): return np.linalg.norm(m, -2)
@case(*MATRICES)
def matrix_norm_fro_nuc(m): return np.linalg.norm(m, 'fro'), np.linalg.norm(m, 'f'), np.linalg.norm(m, None)
@case(*MATRICES[:8])
def matrix_norm_nuc(m): return np.linalg.norm(m, 'nuc')
@case((_A, _B[:, 0]), (_INTS, np.array([1.0, 0.0, -1.0])))
def jacobi_residual(a, b):   # a course's convergence test: the largest change, and the residual's 1-norm
    x = np.zeros(len(b))
    d = np.diag(a)
    for _ in range(3):
        new = (b - (a @ x - d * x)) / d
        change = np.linalg.norm(new - x, np.inf)
        x = new
    return change, np.linalg.norm(a @ x - b, 1)


# np.linalg.cond: through the singular values for p None, 2, -2; as norm(x, p) * norm(inv(x), p) otherwise
CONDS = [(_A,), (_A.T[::2, ::2],), (_SINGULAR,), (np.zeros((2, 2)),), (_INTS,), (_A.astype(np.float32),),
         (np.array([[1.0, np.nan], [0.0, 2.0]]),), (_B,), (np.zeros((0, 0)),)]
@case(*CONDS)
def cond_two(a): return np.linalg.cond(a), np.linalg.cond(a, 2), np.linalg.cond(a, p=-2)
@case(*CONDS)
def cond_one(a): return np.linalg.cond(a, 1), np.linalg.cond(a, -1)
@case(*CONDS)
def cond_inf_fro_nuc(a): return np.linalg.cond(a, np.inf), np.linalg.cond(a, -np.inf), np.linalg.cond(a, 'fro'), np.linalg.cond(a, 'nuc')
# np.cross of 3-vectors along the last axis, the other axes broadcast (jit/numpy/np_cross.c); 4-vectors are
# NumPy's ValueError
_V3 = np.array([1.0, 2.0, 3.0])
@case((_V3, np.array([4.0, 5.0, 6.0])), (np.arange(3), np.array([1.5, -2.0, 0.5])), (floats((5, 3)), floats((5, 3))),
      (floats((5, 3)), _V3), (floats((2, 1, 3)), floats((4, 3))), (floats((4, 3))[::-1], np.asfortranarray(floats((4, 3)))),
      (floats((0, 3)), _V3), (np.array([1, 2, 3], np.int8), np.array([100, 50, -7], np.int8)),
      (ints((3, 3), np.int32), floats(3, np.float32)), (np.ones(4), np.ones(3)))
def cross(a, b): return np.cross(a, b), np.cross(b, a), np.cross(a, a)
# np.kron of 1-d and 2-d arrays, the one with fewer axes given 1s in front (jit/numpy/np_kron.c)
@case((np.arange(3.0), np.arange(2)), (floats((2, 3)), floats((3, 2))), (np.eye(2), np.arange(4).reshape(2, 2)),
      (np.arange(3), floats((2, 2))), (floats((2, 2))[::-1], np.arange(3)), (floats((0, 2)), np.ones((2, 2))),
      (np.array([1, 2], np.int8), np.array([100, 100], np.int8)), (np.asfortranarray(floats((2, 3))), ints((2, 1), np.int32)))
def kron(a, b): return np.kron(a, b), np.kron(b, a)
