"""Sets at the boundary: made in compiled code they come back as Python sets
of Python numbers; passed between kiln functions they are shared, and an
empty set() filled by the callee takes the callee's item type; a Python
set passed in is refused with advice; what sets cannot hold or do is a
TypingError that says so (the corpus, corpus_sets.py, checks what they do
against CPython)."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.jit
def collect(seen, keys):
    for k in keys:
        seen.add(k)
    return len(seen)


@kiln.jit
def shared(a):
    seen = set()
    n = collect(seen, a)
    n += collect(seen, a[::2] + 100)
    return n, seen


def test_a_set_passed_between_kiln_functions_is_shared():
    before = live()
    n, seen = shared(np.array([3, 1, 3, 2]))
    assert seen == {1, 2, 3, 103} and n == 7
    assert all(type(x) is int for x in seen)
    del seen
    assert live() == before


def test_the_return_type_names_the_set():
    @kiln.jit
    def evens(n):
        return {i for i in range(0, n, 2)}, [1.5], {1: 2}
    assert evens(5) == ({0, 2, 4}, [1.5], {1: 2})
    sig = evens.nopython_signatures[0]
    assert str(sig.return_type) == "Tuple(set(int64), list(float64), dict(int64, int64))"


def test_a_python_set_argument_is_refused_with_advice():
    with pytest.raises(TypeError, match="argument 'seen' is a set") as info:
        collect({1, 2}, np.arange(3))
    assert "np.array(sorted(s))" in str(info.value)


def array_items(n): return {np.zeros(n)}
def float_tuple_items(n): return {(0.5, n)}
def or_with_a_list(n): return {n} | [1]
def compared_with_a_list(n): return {n} == [n]
def popped_before_adding(n):
    s = set()
    return s.pop()
def unknown_method(n): return {n}.frobnicate()


@pytest.mark.parametrize("fn, message", [
    (array_items, "a set in compiled code cannot hold array(float64, 1d, C) items"),
    (float_tuple_items, "a set in compiled code cannot hold Tuple(float64, int64) items"),
    (or_with_a_list, "unsupported operand types for this operator: set(int64) and list(int64)"),
    (compared_with_a_list, "a set compares with a set only, not with list(int64)"),
    (popped_before_adding, "the item type of this set is not known yet"),
    (unknown_method, "set has no method 'frobnicate' in compiled code"),
    (unknown_method, "set has the methods add, clear, copy, difference, discard,"),
])
def test_what_sets_cannot_do_is_refused_with_its_reason(fn, message):
    with pytest.raises((kiln.TypingError, kiln.UnsupportedError)) as info:
        kiln.jit(fn)(2)
    assert message in str(info.value)


def test_a_drained_set_gives_its_memory_back():
    @kiln.jit
    def churn(n):
        s = set()
        total = 0
        for i in range(n):   # grows, drains, grows again: tombstones must not fill the table
            s.add(i % 97)
            s.add(i % 89 + 1000)
            if len(s) > 50:
                while s:
                    total += s.pop()
        return total, len(s)
    before = live()
    expected_total, left = 0, set()
    for i in range(100_000):
        left.add(i % 97)
        left.add(i % 89 + 1000)
        if len(left) > 50:
            expected_total += sum(left)
            left.clear()
    assert churn(100_000) == (expected_total, len(left))
    assert live() == before


def table_churn(ops, vals):
    """Random adds, removals and pops on a set and a dict, against CPython:
    the dict's order (insertion order in both), popitem's LIFO and the
    set's items, through many rebuilds, tombstones and emptyings."""
    s = set()
    d = {}
    log = []
    for op, v in zip(ops, vals):
        if op == 0:
            s.add(v)
        elif op == 1:
            s.discard(v)
        elif op == 2:
            log.append(1 if v in s else 0)
        elif op == 3:
            d[v] = d.get(v, 0) + 1
        elif op == 4:
            log.append(d.pop(v, -1))
        elif op == 5:
            if d:
                k, c = d.popitem()
                log.append(k * 1000 + c)
        elif op == 6:
            s ^= {v, v + 1}
        elif op == 7:
            s -= {v}
        elif op == 8 and len(s) > 40:
            s.clear()
        elif op == 9 and len(d) > 40:
            while d:
                d.popitem()
    return s, d, list(d), log


@pytest.mark.parametrize("seed", range(6))
def test_tables_agree_with_cpython_through_random_churn(seed):
    rng = np.random.default_rng(seed)
    ops = rng.integers(0, 10, 20_000)
    vals = rng.integers(-30 - 40 * seed, 30 + 40 * seed, 20_000)
    expected = table_churn(ops, vals.tolist())
    before = live()
    got = kiln.jit(table_churn)(ops, vals)
    assert got == expected
    del got
    assert live() == before
