"""A float running min or max vectorizes under fastmath, which lets it
assume no NaN and ignore the sign of zero: `m = max(m, a[i])` and `if a[i]
< m: m = a[i]`. The result is CPython's for inputs without NaN, and the
remarks say the loop ran in vector lanes. Without fastmath the loops keep
Python's answer with NaNs in the array, whatever their place."""
import numpy as np
import pytest

import kiln

RNG = np.random.default_rng(11)
SIZES = (1, 7, 8, 9, 33, 1000, 4099)


def running_max(a):
    m = -np.inf
    for i in range(a.shape[0]):
        m = max(m, a[i])
    return m


def running_min_by_if(a):
    m = a[0]
    for x in a:
        if x < m:
            m = x
    return m


def min_and_max(a):
    lo, hi = a[0], a[0]
    for x in a:
        lo = min(lo, x)
        hi = max(x, hi)
    return lo, hi


def kinds(f):
    """{(kind, line relative to def)} of f's latest signature."""
    first = f.py_func.__code__.co_firstlineno
    return {(r["kind"], r["line"] - first) for r in f.inspect_remarks()}


def arrays(n):
    """Negative and positive values, float64 and float32, contiguous and strided."""
    a = RNG.uniform(-1e3, 1e3, 2 * n)
    for x in (a[:n], a[::2]):
        yield x
        yield x.astype(np.float32)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("fn", (running_max, running_min_by_if, min_and_max))
def test_fastmath_gives_cpython_s_result(fn, n):
    fast = kiln.njit(fastmath=True)(fn)
    for a in arrays(n):
        assert fast(a) == fn(a)


@pytest.mark.parametrize("fn, loop_line", ((running_max, 2), (running_min_by_if, 2), (min_and_max, 2)))
def test_fastmath_vectorizes_the_loop(fn, loop_line):
    fast = kiln.njit(fastmath=True)(fn)
    fast(np.ones(10))
    assert ("vectorized", loop_line) in kinds(fast)


def test_the_no_nans_flag_is_the_one_that_counts():
    """fastmath={'nnan', 'nsz'} is enough; reassociation alone is not, since
    a NaN could then still decide the answer."""
    some = kiln.njit(fastmath={"nnan", "nsz"})(running_max)
    some(np.ones(10))
    assert ("vectorized", 2) in kinds(some)
    reassoc = kiln.njit(fastmath={"reassoc"})(running_max)
    reassoc(np.ones(10))
    assert ("vectorized", 2) not in kinds(reassoc)


@pytest.mark.parametrize("where", (0, 1, 500, 999))
def test_without_fastmath_a_nan_gives_python_s_answer(where):
    a = RNG.uniform(-1, 1, 1000)
    a[where] = np.nan
    for fn in (running_max, running_min_by_if, min_and_max):
        got, want = kiln.njit(fn)(a), fn(a)
        assert np.array_equal(np.array(got), np.array(want), equal_nan=True), fn.__name__


def test_a_parallel_max_under_fastmath_vectorizes_its_chunks():
    def pmax(a):
        m = -np.inf
        for i in kiln.prange(a.shape[0]):
            m = max(m, a[i])
        return m

    f = kiln.njit(fastmath=True, parallel=True)(pmax)
    a = RNG.uniform(-5, 5, 100_003)
    assert f(a) == a.max()
    first = pmax.__code__.co_firstlineno
    assert {r["kind"] for r in f.inspect_remarks() if r["line"] - first == 2} == {"vectorized"}


def test_a_guvectorize_row_max_under_fastmath_matches_numpy():
    @kiln.guvectorize(["void(float64[:], float64[:])"], "(n)->()", fastmath=True)
    def row_max(a, out):
        m = -np.inf
        for x in a:
            m = max(m, x)
        out[0] = m

    a = RNG.uniform(-5, 5, (37, 1001))
    assert np.array_equal(row_max(a), a.max(axis=1))
    assert np.array_equal(row_max(a[:, ::3]), a[:, ::3].max(axis=1))
