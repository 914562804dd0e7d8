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
