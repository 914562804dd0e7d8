"""Sorting arguments Kiln does not compile (another axis, an unknown kind,
order=) are refused at compile time with a message that names them and a
hint; the stable kinds and the last axis are in the corpus
(corpus_np_index.py)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def by_columns(a):
    return np.argsort(a, axis=0)


@kiln.njit
def fancy(a):
    return np.sort(a, kind="fancy")


@kiln.njit
def with_order(a):
    return a.argsort(order="x")


def test_other_axes_kinds_and_order_are_refused_with_a_hint():
    a = np.arange(6.0).reshape(2, 3)
    with pytest.raises(kiln.TypingError, match=r"np.argsort sorts along the last axis only \(axis=-1\)") as e:
        by_columns(a)
    assert "Sort along the last axis" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.sort takes kind='quicksort', 'mergesort', 'heapsort' or 'stable'"):
        fancy(a)
    with pytest.raises(kiln.TypingError, match=r"argsort\(\) takes the array, axis and kind here"):
        with_order(a)
