"""A float sum without fastmath keeps Python's order of adds. When the rest
of its loop is slow work (a square root, a division, a math function), the
loop still vectorizes: that work runs in vector lanes and the adds follow
one another in source order (LLVM's ordered reductions), and the remarks
say so. When the rest is a few multiplies and loads, vector lanes gain
nothing and the loop stays scalar, with Kiln's remarks saying why. Either
way the result is CPython's to the bit; fastmath=True lets the adds reorder."""
import math

import numpy as np
import pytest

import kiln

RNG = np.random.default_rng(7)
SIZES = (0, 1, 7, 8, 9, 33, 1000, 4099)


def sum_sqrt(a):
    acc = 0.
    for x in a:
        acc += np.sqrt(x)
    return acc


def sum_ratio(a, b):
    acc = 0.
    for i in range(a.shape[0]):
        acc = acc + a[i] / b[i]
    return acc


def sum_sqrt_f32(a):
    acc = np.float32(0)
    for x in a:
        acc += np.sqrt(x)
    return acc


def sum_squares(a):
    acc = 0.
    for x in a:
        acc += x**2
    return acc


def dot(a, b):
    acc = 0.
    for i in range(len(a)):
        acc += a[i] * b[i]
    return acc


def matmul(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            C[i, j] = 0.
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]


def add_into(a, c):
    for i in range(a.shape[0]):
        c[i] += a[i]


def kinds(f):
    """{(kind, line relative to def)} of f's latest signature."""
    first = f.py_func.__code__.co_firstlineno
    return {(r["kind"], r["line"] - first) for r in f.inspect_remarks()}


def inputs(n, dtype=np.float64):
    a = RNG.uniform(0.0, 4.0, 2 * n).astype(dtype)
    return a[::2], a[:n]   # a strided view and a contiguous array


@pytest.mark.parametrize("n", SIZES)
def test_slow_bodies_vectorize_and_add_in_source_order(n):
    strided, contiguous = inputs(n)
    f = kiln.njit(sum_sqrt)
    for a in (strided, contiguous):
        assert f(a) == sum_sqrt(a)          # to the bit
    denominators = RNG.uniform(0.5, 2.0, n)
    g = kiln.njit(error_model="numpy")(sum_ratio)   # no ZeroDivisionError exit to block the vectorizer
    assert g(contiguous, denominators) == sum_ratio(contiguous, denominators)
    h = kiln.njit(sum_sqrt_f32)
    for a in (strided.astype(np.float32), contiguous.astype(np.float32)):
        assert h(a) == sum_sqrt_f32(a)     # float32 adds in float32, in order


def test_the_remarks_name_the_vectorized_loop_and_the_sum_kept_in_order():
    f = kiln.njit(sum_sqrt)
    f(np.ones(10))
    assert kinds(f) == {("vectorized", 2), ("ordered", 3)}
    g = kiln.njit(error_model="numpy")(sum_ratio)
    g(np.ones(10), np.ones(10))
    assert kinds(g) == {("vectorized", 2), ("ordered", 3)}


def test_fastmath_reorders_the_sum():
    fast = kiln.njit(fastmath=True)(sum_sqrt)
    a = RNG.uniform(0.0, 4.0, 4099)
    assert fast(a) == pytest.approx(sum_sqrt(a), rel=1e-12)
    assert kinds(fast) == {("vectorized", 2)}


def test_a_negative_input_gives_nan_in_both():
    a = np.array([1.0, -1.0, 4.0])
    with np.errstate(invalid="ignore"):
        assert math.isnan(kiln.njit(sum_sqrt)(a)) and math.isnan(sum_sqrt(a))


@pytest.mark.parametrize("n", SIZES)
def test_cheap_bodies_stay_scalar_and_say_why(n):
    strided, contiguous = inputs(n)
    f, g = kiln.njit(sum_squares), kiln.njit(dot)
    for a in (strided, contiguous):
        assert f(a) == sum_squares(a)
        assert g(a, contiguous) == dot(a, contiguous)
    why = "its float sum must add in source order (no fastmath)"
    for fn, loop_line in ((f, 2), (g, 2)):
        assert kinds(fn) == {("missed", loop_line), ("analysis", loop_line + 1)}
        assert any(why in r["message"] for r in fn.inspect_remarks())


def test_matmul_sums_into_one_element_and_stays_scalar():
    A, B = RNG.uniform(-1, 1, (5, 7)), RNG.uniform(-1, 1, (7, 3))
    want, got = np.zeros((5, 3)), np.zeros((5, 3))
    matmul(A, B, want)
    f = kiln.njit(matmul)
    f(A, B, got)
    assert np.array_equal(got, want)
    assert kinds(f) == {("missed", 4), ("analysis", 5)}


def test_an_elementwise_update_is_no_sum_and_vectorizes():
    a, c = RNG.uniform(-1, 1, 1001), RNG.uniform(-1, 1, 1001)
    want = c.copy()
    add_into(a, want)
    f = kiln.njit(add_into)
    f(a, c)
    assert np.array_equal(c, want)
    assert kinds(f) == {("vectorized", 1)}
