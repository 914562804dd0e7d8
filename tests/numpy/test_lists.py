"""Lists at the boundary: made in compiled code they come back as Python
lists of Python numbers; passed between kiln functions they are shared;
passed in from Python they are refused with advice to use an array."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.jit
def total(xs):
    t = 0
    for x in xs:
        t += x
    xs.append(t)
    return t


@kiln.jit
def build_and_share(n):
    a = [i for i in range(n)]
    t = total(a)
    return t, a


def test_list_passed_between_kiln_functions_is_shared():
    before = live()
    t, a = build_and_share(5)
    assert t == 10 and a == [0, 1, 2, 3, 4, 10]
    assert all(type(x) is int for x in a)
    del t, a
    assert live() == before


def test_returned_items_are_python_numbers():
    @kiln.jit
    def f(n):
        return [i / 2 for i in range(n)], [i > 1 for i in range(n)]
    floats, bools = f(3)
    assert floats == [0.0, 0.5, 1.0] and all(type(x) is float for x in floats)
    assert bools == [False, False, True] and all(type(x) is bool for x in bools)


def test_python_list_argument_is_refused_with_advice():
    with pytest.raises(TypeError) as info:
        total([1, 2, 3])
    assert "np.array(values)" in str(info.value)


def test_list_of_arrays_is_a_clear_typing_error():
    @kiln.jit
    def f(n):
        return [np.zeros(n)]
    with pytest.raises(kiln.TypingError) as info:
        f(2)
    assert "lists in compiled code hold numbers" in str(info.value)


def test_array_of_an_empty_list_of_tuples_keeps_its_columns():
    # NumPy sees no tuples in [] and gives shape (0,); compiled code knows the
    # items are pairs, so the rows it would have had keep their width
    @kiln.jit
    def rows(n):
        return np.array([(i, i * 0.5) for i in range(n)])
    assert rows(0).shape == (0, 2) and rows(0).dtype == np.float64
    assert rows(2).tolist() == [[0.0, 0.0], [1.0, 0.5]]


def test_lists_of_tuples_refuse_what_python_would_not_order_or_sum():
    @kiln.jit
    def total(n):
        return sum([(i, i) for i in range(n)])
    with pytest.raises(kiln.TypingError, match="sum\\(\\) of a list of tuples"):
        total(3)

    @kiln.jit
    def order(n):
        pairs = [(i, 1j * i) for i in range(n)]
        pairs.sort()
        return pairs
    with pytest.raises(kiln.TypingError, match="complex numbers cannot be ordered"):
        order(3)
