"""Corpus of generators: plain Python generator functions and the functions
that loop over them. test_generators.py runs each loop function by CPython
as written here, and by Kiln in a copy of this module where every
generator is a kiln generator (kiln.njit of it), so the reference is
CPython's own lazy generators. The cases cover break with loop else,
continue, the generator's return from inside its loops, generators
looping over generators, a generator run twice nested, defaults and
keywords, several yields, a consumer writing the array the generator is
reading (the interleaving a lazy generator gives), list(), sum() and list
comprehensions over a generator, int overflow, and arrays empty, negative
and non-contiguous."""
import math

import numpy as np

CASES = []   # (function, [argument tuples])


def case(*argsets):
    def register(fn):
        CASES.append((fn, list(argsets)))
        return fn
    return register


A = np.array([3.0, -1.5, 0.0, 7.25, -2.0, 4.0])
ARRAYS = [(A,), (A[::2],), (A[::-1],), (np.zeros(0),), (-A,)]


def squares_of_non_multiples(n, k=3):
    for i in range(n):
        if i % k == 0:
            continue
        yield i * i


@case((0,), (1,), (10,), (-5,), (1000,))
def sum_squares(n):
    s = 0
    for v in squares_of_non_multiples(n):
        s += v
    return s


@case((10, 2), (7, 5), (0, 1))
def sum_squares_keyword(n, k):
    s = 0
    for v in squares_of_non_multiples(n, k=k):
        s += v
    return s


@case((10, 20), (10, 1000), (0, 0), (30, -1))
def first_square_over(n, limit):
    for v in squares_of_non_multiples(n):
        if v > limit:
            break
    else:
        return -1
    return v


@case((10,), (25,))
def even_squares(n):
    s = 0
    count = 0
    for v in squares_of_non_multiples(n):
        if v % 2:
            continue
        s += v
        count += 1
    return s, count


@case((10, 30), (10, 1000), (0, 5), (-3, 1))
def odd_squares_until(n, limit):
    s = 0
    for v in squares_of_non_multiples(n):
        if v % 2 == 0:
            continue
        if v > limit:
            break
        s += v
    else:
        s = -s
    return s


def values_until(a, stop):
    for x in a:
        if x == stop:
            return
        yield x


@case(*[(a, 7.25) for (a,) in ARRAYS], *[(a, 99.0) for (a,) in ARRAYS])
def sum_until(a, stop):
    s = 0.0
    for x in values_until(a, stop):
        s += x
    else:
        s += 1000.0   # the generator ended, by its return or its loop
    return s


@case(*ARRAYS)
def nested_runs(a):
    out = 0.0
    for x in values_until(a, 0.0):
        for y in values_until(a, 7.25):
            out += x * y
    return out


def lower_pairs(n):
    for i in range(n):
        for j in range(i):
            yield i, j


@case((6, 100), (6, 6), (0, 1), (40, 500))
def pair_differences(n, stop_at):
    c = 0
    for i, j in lower_pairs(n):
        if i * j > stop_at:
            break
        c += i - j
    return c


def first_pair_summing_to(n, total):
    for i, j in lower_pairs(n):
        if i + j == total:
            yield i, j
            return


@case((10, 7), (10, 100), (3, 1))
def found_pair(n, total):
    for pair in first_pair_summing_to(n, total):
        return pair
    return (-1, -1)


def fibonacci(count):
    a, b = 0, 1
    while count > 0:
        yield a
        a, b = b, a + b
        count -= 1


@case((0,), (1,), (20,), (100,), (200,))
def fibonacci_sum(count):
    s = 0
    for f in fibonacci(count):
        s += f
    return s


def ends_and_middle(a):
    if a.shape[0] == 0:
        return
    yield a[0]
    yield a[a.shape[0] // 2]
    yield a[-1]


@case(*ARRAYS)
def ends_and_middle_product(a):
    p = 1.0
    for v in ends_and_middle(a):
        p *= v
    return p


def cells(a):
    for i in range(a.shape[0]):
        yield i, a[i]


@case(*ARRAYS)
def running_totals(a):
    # each item reads a[i] after the loop body wrote it: a lazy generator
    # sees every write, a list made first would not
    for i, v in cells(a):
        if i + 1 < a.shape[0]:
            a[i + 1] += v
    return a.sum()


def chunks(n, size):
    start = 0
    while True:
        if start >= n:
            return
        yield start, min(start + size, n)
        start += size


def chunk_sums(a, size):
    for lo, hi in chunks(a.shape[0], size):
        s = 0.0
        for k in range(lo, hi):
            s += a[k]
        yield s


@case(*[(a, 2) for (a,) in ARRAYS], (A, 4), (A, 100))
def largest_chunk_sum(a, size):
    best = -math.inf
    for s in chunk_sums(a, size):
        best = max(best, s)
    return best


def mixed(n):
    for i in range(n):
        if i % 2:
            yield i
        else:
            yield i / 4


@case((0,), (7,))
def mixed_total(n):
    t = 0.0
    for v in mixed(n):
        t += v
    return t


@case((12, 3.0), (12, 50.0), (0, 1.0))
def with_inner_generator(n, threshold):
    def above(m):
        for i in range(m):
            if i * 1.5 > threshold:
                yield i
    s = 0
    for v in above(n):
        s += v
    threshold = 100.0   # a closure reads the value at the time of each read, as the inlined body does
    for v in above(n):
        s += 10 * v
    return s


@case((5,), (0,))
def index_of_last(n):
    last = -1
    for i, v in enumerate_squares(n):
        last = i
    return last


def enumerate_squares(n):
    k = 0
    for v in squares_of_non_multiples(n):
        yield k, v
        k += 1


@case((0,), (6,), (-2,))
def collected(n):
    # a generator's items assigned as Python would gather them: list(),
    # sum() with and without a start, list comprehensions with a condition
    # and a tuple target; the comprehension's name stays its own
    v = 100
    items = list(squares_of_non_multiples(n))
    total = sum(squares_of_non_multiples(n))
    shifted = sum(squares_of_non_multiples(n), 0.5)
    halves = [v / 2 for v in squares_of_non_multiples(n) if v % 2 == 0]
    gaps = [i - j for i, j in lower_pairs(n)]
    return len(items), (items[-1] if items else -1), total, shifted, len(halves), sum(halves), sum(gaps), v


@case((0,), (6,), (-2,), (25,))
def consumed_inside_statements(n):
    # consumers inside a statement run first, on lines of their own, when
    # nothing before them has an effect: the order is Python's
    mean = sum(squares_of_non_multiples(n)) / max(n, 1)
    total = 1
    total += sum(squares_of_non_multiples(n), 2)
    count = len(list(squares_of_non_multiples(n))) + len([v for v in squares_of_non_multiples(n) if v % 2 == 0])
    if sum(squares_of_non_multiples(n)) > 10:
        total += 1
    last = 0
    for v in sorted(squares_of_non_multiples(n)):
        last = v
    reversed_first = [v * 2 for v in squares_of_non_multiples(n)][::-1]
    return mean, total, count, last, reversed_first[0] if reversed_first else -1


@case((2,), (7,), (40,))
def extremes_of_a_generator(n):
    return max(squares_of_non_multiples(n)) - min(squares_of_non_multiples(n)), sorted(squares_of_non_multiples(n))[0]
