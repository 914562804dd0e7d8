"""Where NumPy in compiled code decides differently from NumPy, because
NumPy's result type there depends on the values, which a compiled
function's type cannot:
- eig and eigvals of a real matrix whose eigenvalues are complex: NumPy
  returns complex arrays then, and real ones otherwise. As Numba's, Kiln's
  eig gives real results for a real matrix and raises ValueError, with
  what to do instead, when they would be complex;
- matrix_power of an integer matrix to a negative power: NumPy returns the
  float inverse's power. Kiln's result keeps the matrix's integer type, so
  it raises ValueError saying to convert the matrix first;
- np.cov and np.corrcoef of a 2-d array of one variable: NumPy squeezes the
  1 x 1 result to 0-d, as it does for a 1-d array. As Numba's, Kiln's
  result is 0-d for a 1-d array and 2-d otherwise, so one row raises.
The other cases are compared with NumPy in corpus_np_linalg.py and
corpus_np_reduce.py."""
import numpy as np
import pytest

import kiln

ROTATION = np.array([[0.0, -1.0], [1.0, 0.0]])


@kiln.njit
def eig(a):
    return np.linalg.eig(a)


@kiln.njit
def eigvals(a):
    return np.linalg.eigvals(a)


@kiln.njit
def eigvals_or_none(a):
    try:
        return np.linalg.eigvals(a).sum()
    except ValueError:
        return -1.0


def test_complex_eigenvalues_raise_with_what_to_do():
    assert np.iscomplexobj(np.linalg.eigvals(ROTATION))   # what NumPy gives
    for f in (eig, eigvals):
        with pytest.raises(ValueError, match="this matrix has complex eigenvalues") as e:
            f(ROTATION)
        assert "np.linalg.eigh for a symmetric matrix" in str(e.value)


def test_compiled_code_can_catch_it_and_go_on():
    assert eigvals_or_none(ROTATION) == -1.0
    assert eigvals_or_none(np.diag([1.0, 2.0])) == 3.0


@kiln.njit
def power(a, p):
    return np.linalg.matrix_power(a, p)


def test_an_integer_matrix_to_a_negative_power_asks_for_a_float_matrix():
    a = np.array([[2, 1], [1, 1]])
    with pytest.raises(ValueError, match="integer matrix to a negative power") as e:
        power(a, -1)
    assert "a.astype(np.float64)" in str(e.value)
    assert np.array_equal(power(a.astype(np.float64), -1), np.linalg.matrix_power(a, -1))
    assert power(a, 3).dtype == a.dtype


@kiln.njit
def covariance(m):
    return np.cov(m)


def test_covariance_of_one_row_asks_for_a_1d_array():
    with pytest.raises(RuntimeError, match="np.cov / np.corrcoef of a 2-d array of one variable") as e:
        covariance(np.ones((1, 5)))
    assert "pass the variable as a 1-d array (m[0])" in str(e.value)
    assert covariance(np.arange(5.0)).shape == np.cov(np.arange(5.0)).shape == ()
    assert covariance(np.arange(10.0).reshape(2, 5)).shape == (2, 2)
