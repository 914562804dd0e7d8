"""prange in parallel=True functions: results equal the same function run by
CPython (where kiln.prange is range) with 1, 2 and many threads: reductions
exact for integers and within rounding for floats, locals after the loop as
Python leaves them, exceptions from any iteration, empty and stepped ranges."""
import math

import numpy as np
import pytest

import kiln
from kiln import prange


@pytest.fixture(params=[1, 2, 5])
def threads(request):
    before = kiln.get_num_threads()
    kiln.set_num_threads(request.param)
    yield request.param
    kiln.set_num_threads(before)


@kiln.njit(parallel=True)
def int_reductions(a):
    total = 0
    neg = 0
    prod = 1
    for i in prange(a.shape[0]):
        total += a[i]
        neg -= a[i] * 3
        prod *= a[i] % 3 + 1
    return total, neg, prod


@kiln.njit(parallel=True)
def float_sum(a, start, stop, step):
    s = 0.5
    for i in prange(start, stop, step):
        s += math.sin(a[i]) * a[i]
    return s


@kiln.njit(parallel=True)
def extremes(a):
    lo = a[0]
    hi = a[0]
    for i in prange(len(a)):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
    return lo, hi


@kiln.njit(parallel=True)
def fill_rows(out, k):
    t = -1.0
    for i in prange(out.shape[0]):
        t = i * k
        for j in range(out.shape[1]):
            out[i, j] = t + j
    return t


@kiln.njit(parallel=True)
def matmul(a, b, c):
    for i in prange(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


@kiln.njit(parallel=True)
def divide_all(a, d, out):
    for i in prange(a.shape[0]):
        out[i] = a[i] // d[i]


def wrap64(x):
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def test_integer_reductions_are_exact(threads):
    rng = np.random.default_rng(5)
    for a in (rng.integers(-10**12, 10**12, size=100_003), np.arange(7), np.array([], dtype=np.int64),
              np.full(100, 2**62, dtype=np.int64)):
        want = int_reductions.py_func(a.astype(object))   # Python ints: exact, wrapped below
        got = int_reductions(a)
        assert got == tuple(wrap64(int(x)) for x in want)


def test_float_reduction_over_stepped_and_empty_ranges(threads):
    a = np.linspace(-50, 50, 20_001)
    for start, stop, step in ((0, 20_001, 1), (3, 20_000, 7), (20_000, -1, -3), (10, 10, 1), (10, 0, 1)):
        assert math.isclose(float_sum(a, start, stop, step), float_sum.py_func(a, start, stop, step),
                            rel_tol=1e-11, abs_tol=1e-9)
    with pytest.raises(ValueError, match="must not be zero"):
        float_sum(a, 0, 10, 0)


def test_min_max_reductions(threads):
    a = np.random.default_rng(6).normal(size=50_001)
    assert extremes(a) == extremes.py_func(a)
    ints = np.array([5, -3, 9, 9, -3], dtype=np.int64)
    assert extremes(ints) == (-3, 9)


def test_private_locals_hold_the_last_iteration_after_the_loop(threads):
    out, ref = np.zeros((1001, 17)), np.zeros((1001, 17))
    assert fill_rows(out, 0.25) == fill_rows.py_func(ref, 0.25)
    np.testing.assert_array_equal(out, ref)
    assert fill_rows(np.zeros((0, 3)), 2.0) == -1.0   # no iteration: the value from before


def test_matmul_with_views(threads):
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(120, 80)), rng.normal(size=(160, 90))[::2, ::3]   # b non-contiguous
    c = np.zeros((120, 30))
    matmul(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-12, atol=1e-12)


def test_an_iteration_raising_reaches_the_caller(threads):
    a = np.arange(-5000, 5000)
    d = np.ones_like(a)
    d[7321] = 0
    with pytest.raises(ZeroDivisionError):
        divide_all(a, d, np.empty_like(a))
    d[7321] = -2
    out = np.empty_like(a)
    divide_all(a, d, out)   # the pool still works after a failure
    np.testing.assert_array_equal(out, a // d)


def test_prange_without_parallel_is_range():
    @kiln.njit
    def serial_sum(n):
        s = 0
        for i in prange(n):
            s += i
        return s
    assert serial_sum(1000) == 499500
    assert list(kiln.prange(2, 8, 3)) == [2, 5]
    assert all(spec.parallel == [] for spec in serial_sum._kiln_specs.values())


def test_thread_count_is_checked():
    with pytest.raises(ValueError, match="between 1 and"):
        kiln.set_num_threads(0)
    with pytest.raises(ValueError):
        kiln.set_num_threads(kiln.get_num_threads() + 10_000)


@kiln.njit(parallel=True)
def scratch_rows(m):
    out = np.zeros(m.shape[0])
    last = np.zeros(1)
    for i in prange(m.shape[0]):
        doubled = m[i] * 2.0
        buf = np.zeros(m.shape[1])
        for j in range(m.shape[1]):
            if j == 3:
                continue
            buf[j] = doubled[j] + 1
        out[i] = buf.sum()
        last = buf
    return out, last


def test_arrays_made_in_iterations_are_freed_and_the_last_one_kept(threads):
    import _kiln
    m = np.arange(-40.0, 60.0).reshape(20, 5)
    before = _kiln.nrt_stats()["live_bytes"]
    for _ in range(20):
        out, last = scratch_rows(m)
    want_out, want_last = scratch_rows.py_func(m)
    np.testing.assert_array_equal(out, want_out)
    np.testing.assert_array_equal(last, want_last)   # the last iteration's array, as in Python
    del out, last
    assert _kiln.nrt_stats()["live_bytes"] == before


@kiln.njit(parallel=True, boundscheck=True)
def shifted_copy(a, out, shift):
    for i in prange(a.shape[0]):
        out[i + shift] = a[i]
    return out


def test_boundscheck_in_a_worker_raises_index_error(threads):
    a = np.arange(50_000.0)
    np.testing.assert_array_equal(shifted_copy(a, np.zeros(50_001), 1)[1:], a)
    with pytest.raises(IndexError, match="out of bounds"):
        shifted_copy(a, np.zeros(50_000), 1)   # the last iteration writes past the end


@kiln.njit(parallel=True)
def sum_of_sqrt(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += math.sqrt(a[i])
    return s


def test_a_float_reduction_reassociates_inside_a_chunk(threads):
    # the chunks already add in another order than Python, so the body may
    # too: its loop vectorizes (what a user sees in inspect_llvm and in the
    # time), and the sum stays within rounding of CPython's
    a = np.random.default_rng(8).random(100_003)
    assert math.isclose(sum_of_sqrt(a), sum_of_sqrt.py_func(a), rel_tol=1e-12)
    assert sum_of_sqrt(a[:0]) == 0.0
    code = list(sum_of_sqrt.inspect_llvm().values())[0]
    assert "fadd reassoc" in code and "vector.body" in code
    serial = kiln.njit(sum_of_sqrt.py_func)
    serial(a)
    assert "fadd reassoc" not in list(serial.inspect_llvm().values())[0]   # kiln.prange is range there
    assert "differ from the serial loop's by rounding" in sum_of_sqrt.parallel_report().text(2)
