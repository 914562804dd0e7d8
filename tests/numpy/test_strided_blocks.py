"""A new 1-d array from an expression of math functions over operands that
are not all contiguous (`np.cos(a[::2])`) is computed in blocks: each
operand's elements are copied into a buffer on the stack, and the
expression runs over the buffers with glibc's vector math
(jit/numpy/lower_np_ewise.c). The numbers are NumPy's, to a few units in the last
place, for every layout of the operands, sizes around the block edges,
broadcast scalars, an operand used twice and results of other dtypes; the
runtime's blocks balance."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.njit
def wave(x, y):
    return np.cos(x * x + y * y) / (1 + x * x + y * y)


@kiln.njit
def scaled_exp(a, s):
    return np.exp(a * 0.001) + s


@kiln.njit
def sine_above(a):
    return np.sin(a) > 0.5


@kiln.njit
def log_twice(a):
    return np.log1p(a * a) - a


@kiln.njit
def tanh32(a):
    return np.tanh(a)


@kiln.njit
def every(a, k):
    x = a[::k]   # strided as far as the compiler knows; contiguous when k is 1
    return np.sin(x) * x


def wave_np(x, y):
    return np.cos(x * x + y * y) / (1 + x * x + y * y)


def views(a):
    """Strided 1-d views of a: every other element, reversed by threes, a
    column of a 2-d array, and a contiguous one beside them."""
    m = a[: len(a) // 4 * 4].reshape(-1, 4)
    return [a[::2], a[::-3], a[1:][::5], m[:, 1], a[: len(a) // 2]]


# a block holds 16384 bytes of array operands: 1024 elements of two float64
# operands, 2048 of one, 4096 of one float32 or int32
SIZES = [0, 1, 7, 1023, 1024, 1025, 2047, 2049, 4095, 4097, 9000]


def close(got, expected, rtol):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 1e-3)


def test_expressions_over_strided_views_give_numpys_numbers():
    rng = np.random.default_rng(2)
    before = live()
    for n in SIZES:
        a = rng.standard_normal(5 * n + 8) * 3
        b = rng.standard_normal(5 * n + 8) * 3
        for u in views(a):
            v = b[: 2 * len(u) : 2]
            close(wave(u, v), wave_np(u, v), 1e-13)
            close(wave(u, 0.5), wave_np(u, 0.5), 1e-13)            # a broadcast scalar
            w = np.ascontiguousarray(v)
            close(wave(u, w), wave_np(u, w), 1e-13)                 # a contiguous operand beside
            close(log_twice(u), np.log1p(u * u) - u, 1e-13)         # one operand, used twice
            close(scaled_exp(u, 2.0), np.exp(u * 0.001) + 2.0, 1e-14)
            assert np.array_equal(sine_above(u), np.sin(u) > 0.5)
    assert live() == before


def test_unit_strides_are_read_in_place():
    rng = np.random.default_rng(6)
    before = live()
    for n in SIZES:
        a = rng.standard_normal(3 * n + 1)
        for k in (1, 2, 3, -1, -2):
            close(every(a, k), np.sin(a[::k]) * a[::k], 1e-13)
    assert live() == before


def test_other_element_types():
    rng = np.random.default_rng(4)
    before = live()
    for n in SIZES:
        ints = rng.integers(-2000, 2000, size=3 * n + 4, dtype=np.int32)
        floats = (rng.standard_normal(3 * n + 4) * 2).astype(np.float32)
        for u in views(ints):
            close(scaled_exp(u, 1), np.exp(u * 0.001) + 1, 1e-14)
        for u in views(floats):
            close(tanh32(u), np.tanh(u), 4e-7)
    assert live() == before


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf, -0.0])
def test_special_values_in_a_view(special):
    a = np.linspace(-4, 4, 5001)
    a[100] = a[3000] = special
    u = a[::2]
    with np.errstate(all="ignore"):
        expected = np.log1p(u * u) - u
    got = log_twice(u)
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-13)
    assert np.array_equal(got[~finite], expected[~finite], equal_nan=True)
