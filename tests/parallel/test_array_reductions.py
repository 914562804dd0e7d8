"""Array reductions in prange loops (`acc += a[i]`, as Numba allows): each
thread accumulates into a private array that is combined into acc after the
loop. Results equal CPython's run of the same function with 1, 2 and 4
threads (exact for integers, within rounding for floats), acc is updated in
place as in Python, and the checker keeps the loops serial, saying why,
where the accumulator is also read or assigned in the loop."""
import warnings

import numpy as np
import pytest

import _kiln
import kiln
from kiln import prange
from thread_counts import threads  # noqa: F401  (a fixture: pytest finds it by name)


def column_sums(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i]
    return acc


def into_given(a, acc):
    for i in prange(a.shape[0]):
        acc -= a[i, :] * 2
    return acc


def block_sums(a, acc):
    for i in prange(a.shape[0]):
        acc += a[i]            # a[i] is 2-d: acc is a 2-d reduction
    return acc


def products(a):
    acc = np.ones(a.shape[1], dtype=np.int64)
    for i in prange(a.shape[0]):
        acc *= a[i]
    return acc


def counted(n, acc):
    for i in prange(n):
        acc += 1
        if i % 3 == 0:
            acc += i
    return acc


def raising(a, d):
    acc = np.zeros(a.shape[1], dtype=np.int64)
    for i in prange(a.shape[0]):
        acc += a[i] * (7 // int(d[i]))   # a Python int division: raises for 0
    return acc


def reads_the_accumulator(a, out):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i]
        out[i] = acc[0]
    return acc


def rebinds_the_accumulator(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc = acc + a[i]
    return acc


def no_warnings(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", kiln.ParallelSafetyWarning)
        return f(*args)


@pytest.mark.parametrize("rows", [0, 1, 5, 10_001])
def test_float_rows_sum_within_rounding(threads, rows):
    a = np.random.default_rng(rows).normal(size=(rows, 13))
    f = kiln.njit(parallel=True)(column_sums)
    np.testing.assert_allclose(no_warnings(f, a), column_sums(a), rtol=1e-11, atol=1e-11)
    (loop,) = f.parallel_report().loops
    assert loop["parallel"] and loop["reductions"] == [("acc", "+=", column_sums.__code__.co_firstlineno + 3)]


def test_integers_exact_in_place_and_wrapping(threads):
    b = np.arange(-5000, 5000, dtype=np.int64).reshape(1000, 10)
    f = kiln.njit(parallel=True)(into_given)
    acc = np.ones(10, dtype=np.int64)
    out = no_warnings(f, b, acc)
    assert out is acc                                          # updated in place, as Python does
    np.testing.assert_array_equal(acc, into_given(b, np.ones(10, dtype=np.int64)))
    big = np.full((64, 3), 2**61, dtype=np.int64)              # the sums wrap around, as NumPy's do
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(f(big, np.zeros(3, dtype=np.int64)), into_given(big, np.zeros(3, dtype=np.int64)))
    p = np.random.default_rng(0).integers(-3, 4, size=(41, 6))
    np.testing.assert_array_equal(no_warnings(kiln.njit(parallel=True)(products), p), products(p))


def test_non_contiguous_and_2d_accumulators(threads):
    a = np.random.default_rng(9).integers(-99, 99, size=(3001, 4, 6))
    want = block_sums(a, np.zeros((6, 4), dtype=np.int64).T.copy())
    acc = np.zeros((6, 4), dtype=np.int64).T                   # Fortran-ordered view
    got = no_warnings(kiln.njit(parallel=True)(block_sums), a, acc)
    assert got is acc
    np.testing.assert_array_equal(acc, want)
    strided = np.zeros(20)[::2]
    got = no_warnings(kiln.njit(parallel=True)(counted), 1000, strided)
    np.testing.assert_array_equal(got, counted(1000, np.zeros(20)[::2]))


def test_an_exception_in_the_loop_reaches_python(threads):
    f = kiln.njit(parallel=True)(raising)
    a = np.arange(40_000).reshape(4000, 10)
    d = np.ones(4000, dtype=np.int64)
    np.testing.assert_array_equal(f(a, d), raising(a, d))
    d[2999] = 0
    with pytest.raises(ZeroDivisionError):        # as CPython does
        f(a, d)
    d[2999] = 1
    np.testing.assert_array_equal(f(a, d), raising(a, d))      # and the function still works


@pytest.mark.parametrize("fn,why", [
    (reads_the_accumulator, "`acc` is accumulated across iterations"),
    (rebinds_the_accumulator, "`acc` is assigned in one iteration"),
])
def test_accumulators_used_otherwise_stay_serial(fn, why):
    f = kiln.njit(parallel=True)(fn)
    a = np.random.default_rng(1).normal(size=(300, 5))
    args = (a, np.zeros(300)) if fn is reads_the_accumulator else (a,)
    with pytest.warns(kiln.ParallelSafetyWarning, match="runs serially"):
        got = f(*[x.copy() for x in args])
    np.testing.assert_allclose(got, fn(*[x.copy() for x in args]), rtol=1e-13)
    (loop,) = [lp for lp in f.parallel_report().loops if lp["kind"] == "prange"]
    assert not loop["parallel"] and why in loop["reason"]


def test_per_thread_arrays_are_given_back(threads):
    f = kiln.njit(parallel=True)(column_sums)
    g = kiln.njit(parallel=True)(raising)
    a = np.arange(60_000, dtype=np.int64).reshape(6000, 10)
    af = a.astype(float)
    d = np.ones(6000, dtype=np.int64)
    d[4321] = 0
    f(af)
    before = _kiln.nrt_stats()
    for _ in range(5):
        f(af)                                   # the result dies at once, giving its block back
        with pytest.raises(ZeroDivisionError):
            g(a, d)
    after = _kiln.nrt_stats()
    assert after["alloc"] - before["alloc"] >= 10              # the per-thread arrays were made ...
    assert after["live_bytes"] == before["live_bytes"]         # ... and all given back, on errors too


def element_by_element(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        for j in range(a.shape[1]):
            acc[j] += a[i, j]
    return acc


def test_element_updates_stay_serial_and_point_at_the_array_reduction():
    f = kiln.njit(parallel=True)(element_by_element)
    a = np.random.default_rng(3).normal(size=(200, 6))
    with pytest.warns(kiln.ParallelSafetyWarning, match=r"in place \(`acc \+= row`\)"):
        got = f(a)
    np.testing.assert_allclose(got, element_by_element(a), rtol=1e-13)
