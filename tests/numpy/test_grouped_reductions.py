"""Several whole-array reductions of one array in one statement
(np.sum(a) + a.max() + np.mean(a)) run as one pass over the array; the
results are CPython + NumPy's, bit for bit where Kiln's single reductions
are (integers, min and max, float sums in serial order), on every dtype,
block-boundary sizes, non-contiguous views, NaN and empty arrays (an
empty min or max raises where it stands in the expression)."""
import math

import numpy as np
import pytest

import kiln
from np_diff import check


def stats(a):
    return np.sum(a) + a.max() + np.mean(a)


def spread(a):
    return a.max() - a.min(), a.sum(), np.prod(a), np.all(a), np.any(a)


def normalized(a):
    return (a.sum() - a.size * np.min(a)) / (np.amax(a) - np.amin(a) + 1)


def sum_then_max(a, b):   # b is reduced alone: the group is a's
    return np.sum(a) + np.sum(b) + np.max(a)


def empty_max_after_index(a):   # a[0] raises IndexError before a.max() can raise ValueError
    return np.sum(a) + a[0] + a.max()


def math_of_reductions(a):   # (uint8 * uint8 of scalars follows Numba's promotion, not NumPy's: not here)
    return math.sqrt(abs(np.mean(a))) + np.sqrt(abs(a.max() * 1.0)) + len(a)


def sum_alone(a):
    return np.sum(a)


def sum_and_max(a):
    return np.sum(a), a.max()

RNG = np.random.default_rng(7)
ARRAYS = [
    RNG.normal(size=10_000), RNG.normal(size=4096), RNG.normal(size=4097), RNG.normal(size=3),
    RNG.integers(-50, 50, 9000), RNG.integers(0, 200, 5000, dtype=np.uint8), RNG.integers(-9, 9, 70, dtype=np.int32),
    RNG.normal(size=(60, 70)).astype(np.float32), RNG.normal(size=(80, 90))[::3, 1::2],
    np.array([1.0, np.nan, 3.0]), np.array([-np.inf, 2.0]), np.full(5000, 2**62, dtype=np.int64),
]


@pytest.mark.parametrize("fn", [stats, spread, normalized, math_of_reductions])
def test_grouped_reductions_agree_with_numpy(fn):
    jitted = kiln.njit(fn)
    with np.errstate(over="ignore", invalid="ignore"):
        for a in ARRAYS:
            check(jitted, (a,))


def test_float_sums_keep_their_serial_order():
    a = RNG.normal(size=100_003)
    alone = kiln.njit(sum_alone)(a)
    together = kiln.njit(sum_and_max)(a)
    assert together[0] == alone   # the same additions in the same order


def test_the_other_array_and_the_empty_cases():
    check(kiln.njit(sum_then_max), (RNG.normal(size=5000), RNG.normal(size=300)))
    check(kiln.njit(stats), (np.zeros(0),))                    # ValueError from a.max()
    first_index = kiln.njit(boundscheck=True)(empty_max_after_index)
    with pytest.raises(IndexError):       # from a[0], before a.max() could raise ValueError
        first_index(np.zeros(0))
    check(first_index, (np.arange(5.0),))


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_parallel_grouped_reductions_within_rounding(threads):
    before = kiln.get_num_threads()
    kiln.set_num_threads(threads)
    try:
        f = kiln.njit(parallel=True)(spread)
        for a in (RNG.normal(size=250_003), RNG.integers(-5, 5, 100_000), np.array([3.0, np.nan] * 60_000)):
            got, want = f(a), spread(a)
            assert got[0] == want[0] or (np.isnan(got[0]) and np.isnan(want[0]))   # min and max exact
            np.testing.assert_allclose(got[1], want[1], rtol=1e-10)
            assert (got[2] == want[2]) or np.isnan(want[2]) or a.dtype.kind == "f"
            assert got[3:] == want[3:]
        g = kiln.njit(parallel=True)(stats)
        x = RNG.random(1_000_000)
        np.testing.assert_allclose(g(x), stats(x), rtol=1e-12)
        with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
            g(np.zeros(0))
    finally:
        kiln.set_num_threads(before)


def test_the_parallel_report_shows_one_pass():
    f = kiln.njit(parallel=True)(stats)
    f(np.ones(5))
    (loop,) = f.parallel_report().loops   # one split loop for the three reductions
    assert loop["kind"] == "whole-array reductions in one pass" and loop["parallel"]
    assert "whole-array reductions in one pass, split from" in f.parallel_report().text(1)
