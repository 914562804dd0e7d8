"""np.random in compiled code: seeded streams repeat, values lie where
NumPy's would, shapes and dtypes are NumPy's, and the distributions are
right (checked on seeded samples large enough that the bounds are wide)."""
import math

import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.jit
def draws(seed, n):
    np.random.seed(seed)
    return np.random.rand(n), np.random.randn(n), np.random.randint(-3, 4, n)


@kiln.jit
def more(seed, n):
    np.random.seed(seed)
    u = np.random.uniform(2.0, 5.0, (n, 2))
    g = np.random.normal(10.0, 0.5, n)
    c = np.random.choice(np.arange(5) * 10, n)
    return u, g, c


def test_seed_repeats_and_differs():
    a = draws(1, 50)
    b = draws(1, 50)
    c = draws(2, 50)
    for x, y in zip(a, b):
        assert np.array_equal(x, y)
    assert not np.array_equal(a[0], c[0])


def test_shapes_dtypes_and_ranges():
    before = live()
    r, g, i = draws(3, 1000)
    assert r.shape == (1000,) and r.dtype == np.float64 and r.min() >= 0 and r.max() < 1
    assert g.dtype == np.float64
    assert i.dtype == np.int64 and i.min() == -3 and i.max() == 3
    u, n, c = more(3, 1000)
    assert u.shape == (1000, 2) and u.min() >= 2 and u.max() < 5
    assert set(np.unique(c)) == {0, 10, 20, 30, 40}
    del r, g, i, u, n, c
    assert live() == before


def test_distributions():
    r, g, _ = draws(7, 200_000)
    assert abs(r.mean() - 0.5) < 0.01 and abs(r.std() - (1 / 12) ** 0.5) < 0.01
    assert abs(g.mean()) < 0.01 and abs(g.std() - 1) < 0.01
    _, n, _ = more(7, 200_000)
    assert abs(n.mean() - 10) < 0.01 and abs(n.std() - 0.5) < 0.01


def test_scalars_and_shuffle():
    @kiln.jit
    def f(seed):
        np.random.seed(seed)
        a = np.arange(20)
        np.random.shuffle(a)
        return np.random.random(), np.random.randint(5), np.random.randn(), a
    x, k, z, a = f(5)
    assert 0 <= x < 1 and 0 <= k < 5 and isinstance(z, float)
    assert sorted(a.tolist()) == list(range(20)) and a.tolist() != list(range(20))
    assert f(5)[3].tolist() == a.tolist()


@kiln.jit
def empty_randint(n):
    return np.random.randint(5, 5, n)


@kiln.jit
def negative_scale(n):
    return np.random.normal(0.0, -1.0, n)


@pytest.mark.parametrize("fn,message", [(empty_randint, "low >= high"), (negative_scale, "scale < 0")])
def test_bad_parameters_raise_valueerror(fn, message):
    before = live()
    with pytest.raises(ValueError, match=message):
        fn(3)
    assert live() == before


# ---- the other distributions: exponential, lognormal, poisson, binomial, geometric, permutation ----

@kiln.jit
def continuous(seed, n):
    np.random.seed(seed)
    return np.random.exponential(2.0, n), np.random.standard_exponential(n), np.random.lognormal(0.5, 0.25, n)


@kiln.jit
def counts(seed, n):
    np.random.seed(seed)
    return (np.random.poisson(3.5, n), np.random.poisson(40.0, n), np.random.binomial(20, 0.3, n),
            np.random.binomial(1000, 0.7, n), np.random.geometric(0.2, n))


def test_other_distributions_have_numpys_moments():
    before = live()
    e, s, ln = continuous(11, 400_000)
    assert e.dtype == np.float64 and e.min() >= 0 and abs(e.mean() - 2) < 0.02 and abs(e.var() - 4) < 0.1
    assert s.min() >= 0 and abs(s.mean() - 1) < 0.01 and abs(s.var() - 1) < 0.03
    mean, var = np.exp(0.5 + 0.25 ** 2 / 2), (np.exp(0.25 ** 2) - 1) * np.exp(1 + 0.25 ** 2)
    assert ln.min() > 0 and abs(ln.mean() - mean) < 0.005 and abs(ln.var() - var) < 0.005
    p_small, p_large, b_small, b_large, g = counts(11, 400_000)
    for x, mean, var in ((p_small, 3.5, 3.5), (p_large, 40, 40), (b_small, 6, 4.2), (b_large, 700, 210),
                         (g, 5, 20)):
        assert x.dtype == np.int64
        assert abs(x.mean() - mean) < 0.01 * mean and abs(x.var() - var) < 0.03 * var, (mean, x.mean(), x.var())
    assert b_small.min() >= 0 and b_small.max() <= 20 and b_large.max() <= 1000 and g.min() >= 1
    del e, s, ln, p_small, p_large, b_small, b_large, g, x
    assert live() == before


def _pmf_matches(sample, pmf, kmax):
    """Each count's frequency within five standard errors of its probability."""
    n = len(sample)
    freq = np.bincount(sample, minlength=kmax + 1)
    for k in range(kmax + 1):
        p = pmf(k)
        assert abs(freq[k] / n - p) < 5 * math.sqrt(p * (1 - p) / n) + 1e-6, (k, freq[k] / n, p)


def test_count_distributions_match_their_probabilities():
    # both of each sampler's methods: poisson multiplies below lam 10 and
    # rejects (PTRS) above; binomial inverts below n*p 10 and rejects (BTRS) above
    p_small, p_large, b_small, b_large, _ = counts(12, 400_000)
    _pmf_matches(p_small, lambda k: math.exp(-3.5) * 3.5 ** k / math.factorial(k), 15)
    _pmf_matches(p_large, lambda k: math.exp(k * math.log(40) - 40 - math.lgamma(k + 1)), 80)
    _pmf_matches(b_small, lambda k: math.comb(20, k) * 0.3 ** k * 0.7 ** (20 - k), 20)
    _pmf_matches(b_large - 600, lambda k: math.comb(1000, k + 600) * 0.7 ** (k + 600) * 0.3 ** (400 - k), 200)


def test_scalar_draws_defaults_and_edges():
    @kiln.jit
    def f(seed):
        np.random.seed(seed)
        return (np.random.poisson(), np.random.exponential(), np.random.binomial(5, 1.0), np.random.binomial(5, 0.0),
                np.random.binomial(0, 0.5), np.random.geometric(1.0), np.random.poisson(0.0))
    p, e, b1, b0, bn, g1, p0 = f(3)
    assert isinstance(p, int) and isinstance(e, float) and e >= 0
    assert (b1, b0, bn, g1, p0) == (5, 0, 0, 1, 0)


def test_permutation():
    @kiln.jit
    def f(seed, n, a):
        np.random.seed(seed)
        return np.random.permutation(n), np.random.permutation(a)
    a = np.arange(10) * 1.5
    p, q = f(4, 30, a[::2])
    assert p.dtype == np.int64 and sorted(p.tolist()) == list(range(30)) and p.tolist() != list(range(30))
    assert q.dtype == np.float64 and sorted(q.tolist()) == a[::2].tolist()
    assert a.tolist() == (np.arange(10) * 1.5).tolist()   # a copy was shuffled
    assert f(4, 30, a)[0].tolist() == p.tolist()
    assert f(4, -3, a)[0].shape == (0,)   # NumPy's np.random.permutation(-3) is empty too


@kiln.jit
def bad_draw(k, x):
    if k == 0:
        return float(np.random.exponential(x))
    if k == 1:
        return np.random.lognormal(0.0, x)
    if k == 2:
        return float(np.random.poisson(x))
    if k == 3:
        return float(np.random.binomial(int(x), 0.5))
    if k == 4:
        return float(np.random.binomial(3, x))
    return float(np.random.geometric(x))


@pytest.mark.parametrize("k,x", [(0, -1.0), (1, -0.5), (2, -1.0), (2, float("nan")), (2, 1e19), (3, -2.0),
                                 (4, 1.5), (4, float("nan")), (5, 0.0), (5, 1.5)])
def test_bad_distribution_parameters_raise_numpys_errors(k, x):
    numpy_call = [lambda: np.random.exponential(x), lambda: np.random.lognormal(0.0, x), lambda: np.random.poisson(x),
                  lambda: np.random.binomial(int(x), 0.5), lambda: np.random.binomial(3, x),
                  lambda: np.random.geometric(x)][k]
    with pytest.raises(ValueError) as numpy_error:
        numpy_call()
    before = live()
    with pytest.raises(ValueError) as kiln_error:
        bad_draw(k, x)
    assert str(kiln_error.value) == str(numpy_error.value)
    assert live() == before


@kiln.jit
def choose_distinct(a, k, replace):
    return np.random.choice(a, k, replace)   # replace given by position


@kiln.jit
def choose_distinct_range(n, shape):
    return np.random.choice(n, size=shape, replace=False)


def test_choice_without_replacement_takes_distinct_items():
    before = live()
    pool = np.arange(10.0) * 3
    for seed in range(20):
        np.random.seed(seed)
        whole = choose_distinct(pool, 10, False)
        assert whole.dtype == np.float64 and sorted(whole) == list(pool)
        grid = choose_distinct_range(7, (2, 3))
        assert grid.shape == (2, 3) and grid.dtype == np.int64 and len(set(grid.ravel())) == 6
        assert grid.min() >= 0 and grid.max() < 7
    drawn = choose_distinct(pool, 30, True)   # with replacement, more than the pool holds
    assert drawn.shape == (30,) and set(drawn) <= set(pool)
    del whole, grid, drawn
    assert live() == before


def test_choice_without_replacement_refuses_a_larger_sample():
    before = live()
    with pytest.raises(ValueError, match="Cannot take a larger sample than population when 'replace=False'"):
        choose_distinct(np.arange(3.0), 4, False)
    with pytest.raises(ValueError, match="Cannot take a larger sample"):
        choose_distinct_range(2, (3,))
    assert live() == before
