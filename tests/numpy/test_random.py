"""np.random in compiled code: seeded streams repeat, values lie where
NumPy's would, shapes and dtypes are NumPy's, and the distributions are
right (checked on seeded samples large enough that the bounds are wide)."""
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
