"""The seeds' parallel code as the course writes it: seed 000's
matrix_multiplication_numba2 (prange on all three loops), its square_mean
with prange in a plain njit function, and seed 004's l2_norm gufunc on the
CPU, against NumPy."""
import math

import numpy as np

from kiln import guvectorize, njit, prange


@njit(parallel=True)
def matrix_multiplication_numba2(A, B, C):
    """
        Perform square matrix multiplication of C = A * B using loops.
    """
    n = len(A[0])
    for i in prange(n):
        for j in prange(n):
            tmp = 0.
            for k in prange(n):
                tmp += A[i, k]*B[k, j]
            C[i, j] = tmp


@njit
def square_mean_numba(arr):
    res = np.empty(arr.shape[0])
    arr = np.power(arr, 2)
    for i in prange(arr.shape[0]):
        res[i] = np.mean(arr[i])
    return res


@guvectorize(['(float32[:], float32[:])'],  # have to include the output array in the type signature
             '(i)->()')                     # map a 1D array to a scalar output
def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value**2
    out[0] = math.sqrt(acc)


def test_matrix_multiplication_numba2():
    rng = np.random.default_rng(12)
    A, B = rng.random((60, 60)), rng.random((60, 60))
    C = np.zeros((60, 60))
    matrix_multiplication_numba2(A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-12)
    outer, *inner = sorted(matrix_multiplication_numba2.parallel_report().loops, key=lambda lp: lp["line"])
    assert outer["parallel"] and len(inner) == 2 and not any(lp["parallel"] for lp in inner)


def test_square_mean_numba():
    arr = np.random.default_rng(13).integers(0, 100, size=(1000, 2)).astype(np.float64)
    np.testing.assert_allclose(square_mean_numba(arr), np.mean(arr**2, axis=1))


def test_l2_norm_gufunc():
    angles = np.random.uniform(-np.pi, np.pi, 10)
    coords = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)
    np.testing.assert_allclose(l2_norm(coords), np.ones(10, dtype=np.float32), rtol=1e-6)
    v = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(l2_norm(v), np.linalg.norm(v, axis=1), rtol=1e-6)
