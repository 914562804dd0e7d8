"""Dicts at the boundary: made in compiled code they come back as Python
dicts of Python numbers (or of NumPy arrays sharing the dict's); passed between kiln functions they are shared; a
Python dict passed in is refused with advice; what dicts cannot hold or do
is a TypingError that says so (the corpus, corpus_dicts.py, checks what
they do against CPython)."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.jit
def tally(counts, keys):
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    return len(counts)


@kiln.jit
def shared(a):
    counts = {}
    n = tally(counts, a)
    n += tally(counts, a[::2])
    return n, counts


def test_a_dict_passed_between_kiln_functions_is_shared():
    before = live()
    n, counts = shared(np.array([3, 1, 3, 2]))
    assert counts == {3: 4, 1: 1, 2: 1} and n == 6
    assert list(counts) == [3, 1, 2] and all(type(k) is int and type(v) is int for k, v in counts.items())
    del counts
    assert live() == before


def test_a_python_dict_argument_is_refused_with_advice():
    with pytest.raises(TypeError, match="argument 'counts' is a dict") as info:
        tally({1: 2}, np.arange(3))
    assert "build it in the compiled function" in str(info.value)


def tuple_of_array_values(n): return {1: (n, np.zeros(n))}
def strided_after_contiguous(n):
    d = {0: np.zeros(n)}
    d[1] = np.arange(2.0 * n)[::2]
    return d
def printed_arrays(n):
    print({0: np.zeros(n)})
def float_tuple_keys(n): return {(0.5, n): 1}
def read_before_store(n):
    d = {}
    return d[n]
def unpacked(n):
    d = {1: 2}
    return {**d}
def mixed_values(n): return {1: 2.0, 2: (1, 2)}
def unknown_method(n): return {n: 1}.has_key(n)
def get_by_keyword(n): return {n: 1}.get(n, default=0)
def get_of_three(n): return {n: 1}.get(n, 0, 1)


@pytest.mark.parametrize("fn, message", [
    (tuple_of_array_values, "a dict in compiled code cannot hold Tuple(int64, array(float64, 1d, C)) values"),
    (strided_after_contiguous, "cannot store int64: array(float64, 1d, A) in a dict(int64, array(float64, 1d, C))"),
    (printed_arrays, "print() in compiled code cannot print dict(int64, array(float64, 1d, C))"),
    (float_tuple_keys, "a dict in compiled code cannot have Tuple(float64, int64) keys"),
    (read_before_store, "the types of this dict are not known yet"),
    (unpacked, "** in a dict display is not supported in compiled code"),
    (mixed_values, "a dict holds one type of key and one of value"),
    (unknown_method, "dict has no method 'has_key' in compiled code"),
    (unknown_method, "dict has the methods clear, copy, get, items, keys, pop, popitem, setdefault, update and values."),
    (get_by_keyword, "dict.get takes no keyword argument 'default' in compiled code"),
    (get_of_three, "dict has no method 'get' with these arguments in compiled code"),
])
def test_what_dicts_cannot_do_is_refused_with_its_reason(fn, message):
    with pytest.raises((kiln.TypingError, kiln.UnsupportedError)) as info:
        kiln.jit(fn)(2)
    assert message in str(info.value)


def test_a_returned_dict_of_arrays_shares_their_memory_and_keeps_it_alive():
    @kiln.njit
    def rows(a):
        d = {}
        for i in range(a.shape[0]):
            d[i] = a[i] * 2.0
        view = d[0]
        return d, view

    before = live()
    d, view = rows(np.arange(6.0).reshape(3, 2))
    assert list(d) == [0, 1, 2] and [v.tolist() for v in d.values()] == [[0, 2], [4, 6], [8, 10]]
    view[0] = -1.0   # the same memory as the dict's first array, as in Python
    assert d[0][0] == -1.0
    del d
    assert view.tolist() == [-1.0, 2.0]   # kept alive by the array that remains
    del view
    assert live() == before
