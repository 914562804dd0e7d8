"""Whole-array reductions under parallel=True, split across the pool, give
the serial result (NumPy's) to the last bit with 1, 2 and 4 threads: a
chunk sums the whole blocks of 8192 that start in it and the blocks' sums
are added in order, also when several reductions of one array share one
pass (np.sum(a) + a.max() + np.mean(a)). Products still reassociate."""
import numpy as np
import pytest

import kiln
from thread_counts import threads  # noqa: F401  (a fixture: pytest finds it by name)


def statistics(a):
    return np.sum(a), a.mean(), np.var(a), a.std(), a.max()


def spread(a):
    return np.var(a), a.std()


def stats(a):
    return np.sum(a) + a.max() + np.mean(a)


def range_sum_prod(a):
    return a.max() - a.min(), a.sum(), np.prod(a), np.all(a), np.any(a)


def same(x, y):
    return x == y or (np.isnan(x) and np.isnan(y))


def test_split_sums_are_the_serial_ones(threads):
    f, alone = kiln.njit(parallel=True)(statistics), kiln.njit(parallel=True)(spread)
    rng = np.random.default_rng(threads)
    for dtype in (np.float64, np.float32):
        for n in (5, 40_000, 100_003, 1_000_003):
            a = (rng.standard_normal(n) * 50).astype(dtype)
            assert f(a) == statistics(a), (dtype, n)
            assert alone(a) == spread(a), (dtype, n)


def test_one_pass_groups_split(threads):
    rng = np.random.default_rng(10 + threads)
    f = kiln.njit(parallel=True)(range_sum_prod)
    for a in (rng.normal(size=250_003), rng.integers(-5, 5, 100_000), np.array([3.0, np.nan] * 60_000)):
        got, want = f(a), range_sum_prod(a)
        assert same(got[0], want[0]) and same(got[1], want[1])   # max - min, and the sum: exact
        assert got[2] == want[2] or a.dtype.kind == "f"          # a float product reassociates
        assert got[3:] == want[3:]
    g = kiln.njit(parallel=True)(stats)
    x = rng.random(1_000_000)
    assert g(x) == stats(x)
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        g(np.zeros(0))


def test_the_parallel_report_shows_one_pass():
    f = kiln.njit(parallel=True)(stats)
    f(np.ones(5))
    (loop,) = f.parallel_report().loops   # one split loop for the three reductions
    assert loop["kind"] == "whole-array reductions in one pass" and loop["parallel"]
    assert "whole-array reductions in one pass, split from" in f.parallel_report().text(1)
