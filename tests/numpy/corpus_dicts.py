"""Corpus: dicts built and used in compiled code, returned as Python dicts:
keys of ints, floats, bools and tuples of ints; values of numbers and tuples
of numbers; insertion order through stores, removals and re-insertions;
Python's KeyError, with the key as its argument."""
import numpy as np

from np_diff import case
from np_inputs import VI

N = [(0,), (1,), (7,), (40,)]


@case(*VI, (np.array([3, 1, 3, 3, -2]),))
def counting(a):   # the counting idiom, on an empty dict typed by get's default
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return d
@case(*N)
def literal_and_methods(n):
    d = {1: 2.5, 3: -1.0}
    d[n] = 7.0
    s = 0.0
    for k in d:
        s += k * d[k]
    t = 0.0
    for k, v in d.items():
        t += v
    return (d.copy(), s, t, [k for k in d.keys()], list(d.values()), len(d), n in d, 99 not in d, d.pop(1),
            d.pop(42, -3.0), d.get(5), d.get(3, 0.0), d.setdefault(8, 0.5), d.setdefault(3, 9.0), d)
@case(*N)
def tuple_keys(n):
    grid = {}
    for i in range(n % 9):
        for j in range(i):
            grid[(i, j)] = i * j
            grid[i, -j] = -i
    return grid.get((n - 1, 0), -1), len(grid), grid
@case((0.0,), (-0.0,), (1.5,), (2,), (np.float32(0.25),))
def float_keys(x):   # -0.0 and 0.0 are one key; an int key finds its float
    d = {0.0: 1, 1.5: 2, 2.0: 3}
    d[x] = 10
    return d, d[0.0], d.get(2, -1), x in d
@case(*N)
def order_after_removals(n):
    d = dict()
    for i in range(12):
        d[i * 3 % 7] = i
    for i in range(0, 12, 2):
        d.pop(i % 7, 0)
    d[n % 7] = -1
    d.update({100: 5, 1: 6})
    other = {}
    other.update(d)
    other.clear()
    return d, list(d), other, len(other)
@case((np.array([1.0, 2.0, 1.0]), np.array([True, False, True])))
def bool_keys_and_tuple_values(a, flags):
    by_flag = {}
    for x, f in zip(a, flags):
        by_flag[f] = (x, by_flag.get(f, (0.0, 0))[1] + 1)
    return by_flag
@case((5,), (3,))
def missing_key(n):
    d = {1: 1.0, 3: 3.0}
    return d[n]
@case(((1, 2),), ((4, 3),))
def missing_tuple_key(t):
    d = {(1, 2): 1}
    return d[t]
@case((1,), (2,))
def pop_of_a_missing_key(n):
    d = {1: 1}
    return d.pop(n)
@case(*N)
def comprehensions_and_pairs(n):
    squares = {i: i * i for i in range(n) if i % 3 != 1}
    named = dict(zip(range(n), [0.5 * i for i in range(n)]))
    indexed = dict(enumerate(range(n, 0, -1)))
    again = dict(squares)
    again[-1] = 0
    return squares, named, indexed, again, len(squares)
@case(*N)
def deleting(n):
    d = {i: -i for i in range(n + 2)}
    del d[1]
    items = [10, 20, 30]
    del items[-1]
    if n in d:
        del d[n]
    return d, items
@case((0,), (3,))
def delete_a_missing_key(n):
    d = {1: 1}
    del d[n]
    return d
@case((2,), (2.0,), (1.5,), (300,), (2**53 + 1,))
def lookups_of_another_type(x):   # 1.5 is no int key, 300 no int8 one: they are not there
    d = {1: 10, 2: 20}
    small = {np.int8(44): 1}
    big = {float(2**53): 1}
    return x in d, d.get(x, -1), d.pop(x, -2), x in small, x in big, d
@case((2.5,), (1.0,))
def missing_key_of_another_type(x):
    d = {1: 10}
    return d[x]
@case(*N)
def popitem_takes_the_last_stored(n):
    d = {i: i * i for i in range(n)}
    d[-5] = 1
    last = d.popitem()
    d.pop(0, 0)
    order = []
    while d:
        order.append(d.popitem())
    return last, order
@case((0,),)
def popitem_of_an_empty_dict(n):
    d = {n: 1}
    d.popitem()
    return d.popitem()
@case(*N)
def builtins_over_the_keys(n):
    d = {(i * 7) % 11 - 5: i for i in range(n)}
    e = {}
    for i in range(n):
        e[0.5 * i] = i
    return (sorted(d), sorted(d, reverse=True), sum(d), min(d) if d else 99, max(e) if e else -1.0, any(d), all(d),
            any({}), all({}), sorted(d.keys()), list(d), sum(d.values()), max(e.values()) if e else 0,
            sorted(d.items()), sorted(e.items(), reverse=True))


@case(*VI, (np.array([3, 1, 3, 3, -2]),), (np.arange(12)[::-3],))
def arrays_grouped_by_key(a):   # a dict of arrays: each key's running sum of rows
    d = {}
    for i in range(a.shape[0]):
        k = a[i] % 3
        row = np.array([a[i], 2 * a[i]]) * 1.5
        if k in d:
            d[k] = d[k] + row
        else:
            d[k] = row
    return d


@case(*N)
def array_values_through_every_method(n):
    d = {}
    for i in range(n):
        d[i] = np.full(3, float(i))
    first = d.pop(0, np.zeros(3))
    missing = d.pop(-5, np.ones(3))
    if n > 2:
        del d[1]
        d[2] = d[2] * 10          # the old value's reference goes as the new one comes
        d[2][1] = -1.0            # a value is the dict's own array, written in place
    kept = d.setdefault(100, np.arange(3.0))
    again = d.setdefault(100, np.zeros(3))
    copied = d.copy()             # shallow, as Python's: the same arrays
    last = d.popitem()
    total = 0.0
    for k, v in copied.items():
        total += k * v.sum()
    got = d.get(2)
    return d, copied, first, missing, kept, again, last, total, got is None, len(d)


@case(*N)
def a_dict_of_2d_arrays_cleared_and_refilled(n):
    d = {(0, 0): np.zeros((2, 2))}
    for i in range(n):
        d[(i, i + 1)] = np.eye(2) * i
    d.clear()
    d[(n, n)] = np.ones((2, 3))[:, :2].copy()
    return d, len(d)


@case(*N)
def a_comprehension_of_arrays(n):   # the items go straight into the dict: no list of (k, v) in between
    squares = {i: np.arange(3.0) * i for i in range(n) if i % 3 != 1}
    rows = {k: v.sum() for k, v in squares.items()}
    return squares, rows, {(i, -i): i * 0.5 for i in range(n)}
