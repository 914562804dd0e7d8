"""Corpus: sets built and used in compiled code, returned as Python sets:
items of ints, floats, bools and tuples of ints, of every dtype an array
gives; displays, set(iterable) and comprehensions; the methods, operators
and comparisons, in place too, also on the set itself; `in` with items of
another type; truth and draining with pop(); Python's KeyErrors. A set's
items come in insertion order in compiled code and in hash order in
Python, so what depends on that order is checked where the two agree
(small ints added in increasing order) or sorted."""
import numpy as np

from np_diff import case
from np_inputs import VI, floats

N = [(0,), (1,), (7,), (40,)]


@case(*VI, (np.array([3, -1, 3, 3, -2, 0]),))
def distinct_items(a):
    seen = set()
    repeats = 0
    for x in a:
        if x in seen:
            repeats += 1
        seen.add(x)
    return seen, repeats, len(seen), set(a) == seen
@case((floats(9),), (floats(6, np.float32),), (np.array([0.0, -0.0, 1.5, 1.5]),))
def float_items(a):   # -0.0 and 0.0 are one item
    s = set(a)
    s.add(-0.0)
    return s, 0.0 in s, len(s)
@case(*N)
def displays_and_comprehensions(n):
    odd = {i for i in range(n) if i % 2}
    mixed = {1, 2.5, n}   # ints and floats: floats, equal to Python's items
    pairs = {(i % 3, i % 2) for i in range(n)}
    return odd, mixed, pairs, set(range(n, 0, -3)), set([n, n, 1]), set((1, 2, 1)), set({n: 1, 5: 2}), set()
@case(*N)
def methods(n):
    s = set(range(n))
    s.discard(3)
    s.discard(-100)
    t = s.copy()
    t.add(1000)
    s.update([100, 101], np.arange(3), {7, 8})
    u = s.union([1.5], range(2))
    both = s.intersection(range(5), [0, 1, 2, 3, 4, 100])
    only = s.difference([0, 100], {7})
    sym = s.symmetric_difference(range(n + 3))
    return (s, t, u, both, only, sym, s.issubset(range(200)), s.issuperset([0]), t.isdisjoint(np.array([-1, 1000])),
            s.isdisjoint([]))
@case(*N)
def operators(n):
    a = set(range(n))
    b = {i for i in range(0, 2 * n, 2)}
    return a | b, a & b, a - b, a ^ b, b - a, a | set(), set() & a
@case(*N)
def in_place(n):
    a = set(range(n))
    b = {i for i in range(0, 2 * n, 2)}
    c, d, e, f = a.copy(), a.copy(), a.copy(), a.copy()
    c |= b
    d &= b
    e -= b
    f ^= b
    g, h, k = a.copy(), a.copy(), a.copy()
    g &= g
    h -= h
    k ^= k
    return c, d, e, f, g, h, k, a
@case(*N)
def comparisons(n):
    a = set(range(n))
    b = set(range(n + 1))
    return (a == b, a != b, a <= b, a < b, a >= b, a > b, b > a, a == set(range(n)), a < a, a <= a,
            set() == set(), set() <= a)
@case((2,), (2.0,), (1.5,), (300,), (-1,), (2**53 + 1,))
def lookups_of_another_type(x):   # 1.5 is no int item, 300 no int8 one
    ints = {1, 2, 3}
    small = set(np.array([44, 2], np.int8))
    big = {float(2**53), 2.0}
    return x in ints, x in small, x not in big, x in {2.0}
@case(*N)
def truth_and_draining(n):
    s = set(range(n))
    order = []
    while s:   # small ints added in order: pop() gives them in order, as Python's does
        order.append(s.pop())
    empty = not s
    lst = [1]
    d = {1: 2}
    return order, empty, bool(lst), not d, bool(set()), len(order)
@case(*N)
def loops_and_builtins(n):
    s = {i * 7 % 10 for i in range(n)}
    total = 0
    for x in s:
        total += x
    f = {0.5 * i - 3 for i in range(n)}
    return (total, sorted(s), sorted(s, reverse=True), sum(s), len(s), max(s) if s else -1, min(f) if f else 0.0,
            sum(f), any(s), all(s), sorted(list(s)), sorted({(i % 2, -i) for i in range(n)}))
@case((0,), (3,))
def max_of_an_empty_set(n):
    return max(set(range(n)) - set(range(5)))
@case((1,), (5,))
def remove_a_missing_item(x):
    s = {1, 2}
    s.remove(x)
    return s
@case(((1, 2),), ((4, 3),))
def remove_a_missing_tuple(t):
    s = {(1, 2)}
    s.remove(t)
    return s
@case((0,), (2,))
def pop_from_an_empty_set(n):
    s = set(range(n))
    s.pop()
    s.pop()
    return s.pop()
@case(*N)
def a_set_per_group(n):   # the idiom: distinct values of one array per label of another
    labels = np.arange(n) % 3
    values = np.arange(n) * 5 % 7
    by_label = {}
    for lab, v in zip(labels, values):
        by_label[lab] = by_label.get(lab, 0) + 1
    distinct = set()
    for v in values:
        distinct.add(v)
    return by_label, distinct, len(distinct)
