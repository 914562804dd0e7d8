"""np.partition and np.argpartition in compiled code. NumPy promises only
that the element at each kth is the one sorting would put there, with
nothing larger before it and nothing smaller after; the order within each
side is left unspecified (and NumPy's own depends on its introselect).
Kiln sorts, which keeps that promise, so these tests check the promise,
against NumPy's own element at kth, rather than NumPy's arrangement; and
NumPy's ValueError, word for word, for a kth out of range."""
import numpy as np
import pytest

import kiln
from np_diff import live

RNG = np.random.default_rng(7)
ARRAYS = [np.array([5, -1, 4, 2, 3, 2]), RNG.normal(size=(3, 7)), RNG.integers(-50, 50, 40).astype(np.int8),
          np.array([3.0, np.nan, -1.0, 2.0, np.nan, 0.5]), RNG.random((4, 9))[:, ::-2], np.zeros(0),
          np.zeros((0, 3)), np.array([True, False, True])]
KTHS = [0, 2, -1, (0, 2), np.array([1, -2])]


@kiln.njit
def partitions(a, kth):
    return np.partition(a, kth), np.argpartition(a, kth)


def kept_promise(a, kth, part, idx):
    """NumPy's promise for part (and idx, positions in a that give it)."""
    assert part.shape == a.shape and part.dtype == a.dtype and idx.dtype == np.int64
    assert np.array_equal(np.take_along_axis(a, idx, -1), part, equal_nan=True)
    assert np.array_equal(np.sort(part, -1), np.sort(a, -1), equal_nan=True)   # the same elements
    if a.size == 0:
        return
    numpy_part = np.partition(a, kth)
    n = a.shape[-1]
    for k in np.atleast_1d(kth):
        k = k % n
        assert np.array_equal(part[..., k], numpy_part[..., k], equal_nan=True)
        pivot = part[..., k:k + 1].astype(float)
        before, after = part[..., :k].astype(float), part[..., k + 1:].astype(float)
        assert not np.any(before > pivot) and not np.any(after < pivot)


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
@pytest.mark.parametrize("kth", KTHS, ids=repr)
def test_partition_keeps_numpys_promise(a, kth):
    before = live()
    part, idx = partitions(a, kth)
    kept_promise(a, kth, part, idx)
    del part, idx
    assert live() == before


@pytest.mark.parametrize("a, kth", [(np.arange(5), 5), (np.arange(5), -6), (np.arange(5), (1, 7)),
                                    (np.ones((2, 3)), np.array([0, 3]))])
def test_kth_out_of_range_is_numpys_value_error(a, kth):
    with pytest.raises(ValueError) as numpy_error:
        np.partition(a, kth)
    before = live()
    with pytest.raises(ValueError) as kiln_error:
        partitions(a, kth)
    assert str(kiln_error.value) == str(numpy_error.value)
    assert live() == before


def test_what_partition_cannot_take_is_refused():
    @kiln.njit
    def along_first_axis(a):
        return np.partition(a, 1, axis=0)

    @kiln.njit
    def by_float(a):
        return np.partition(a, 1.5)
    with pytest.raises(kiln.TypingError, match="np.partition sorts along the last axis only"):
        along_first_axis(np.ones((3, 3)))
    with pytest.raises(kiln.TypingError, match="np.partition takes a real array and kth, an int or ints, here"):
        by_float(np.ones(3))
