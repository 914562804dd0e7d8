"""Corpus: lists of numbers built and used in compiled code, returned as
Python lists."""
import numpy as np

from np_diff import case
from np_inputs import M, V, VI

N = [(0,), (1,), (10,), (37,)]


@case(*N)
def primes_lesson(upper):   # seed 003, verbatim
    all_prime_numbers = []
    for num in range(0, upper):
        prime = True
        for i in range(2, (num // 2) + 1):
            if (num % i) == 0:
                prime = False
                break
        if prime:
            all_prime_numbers.append(num)
    return all_prime_numbers
@case(*N, (3,), (2,))
def compared(n):   # as Python compares lists: the first items that differ, else the lengths
    a = [i for i in range(n)]
    b = [i * 1.0 for i in range(3)]
    c = [i for i in range(n) if i != 1]
    return (a == b, a != b, a < b, a <= c, a > c, a >= [], [] == [], b < [0.0, 1.0, 2.5], [1 + 2j] == [1 + 2j],
            [True, False] < [1, 0, 0])
@case(*N)
def literal_int(n): return [n, n + 1, -n]
@case(*N)
def literal_mixed_numbers(n): return [n, 2.5, -1]
@case(*N)
def comprehension(n): return [i * i for i in range(n)]
@case(*N)
def comprehension_if(n): return [i for i in range(n) if i % 3 != 1]
@case(*N)
def comprehension_range_step(n): return [i / 2 for i in range(n, -1, -3)]
@case(*V, *VI)
def comprehension_array(a): return [x * 2 for x in a]
@case(*N)
def comprehension_of_list(n):
    a = [i for i in range(n)]
    return [x + 1 for x in a if x > 2]
@case(*[(a, a[::-1] * 2) for (a,) in V])
def comprehension_zip(a, b): return [x * y for x, y in zip(a, b[1:])]
@case(*V, *VI)
def comprehension_enumerate(a): return [i * x for i, x in enumerate(a, 3) if x > 0]
@case(*[(a, a[::-1] * 2) for (a,) in V])
def comprehension_nested_targets(a, b): return [i * x - y for i, (x, y) in enumerate(zip(a, b)) if x > y]
@case(*M)
def comprehension_rows(m): return [row.sum() for row in m]
@case((np.arange(8.0).reshape(4, 2),), (np.zeros((0, 2)),), (np.ones((2, 3)),), (np.ones((3, 1)),))
def comprehension_unpacks_rows(m): return [p - q for p, q in m]   # CPython's messages for other lengths
@case(*V)
def comprehension_keeps_its_names(a):   # Python 3: the target is the comprehension's own
    x, i = 0.5, -1
    doubled = [x * 2 for x in a]
    indexed = [i + x for i, x in enumerate(a)]
    return doubled, indexed, x, i
@case(*N)
def comprehension_zip_list_and_range(n):
    halves = [i * 0.5 for i in range(n)]
    return [h + k for h, k in zip(halves, range(n, 0, -1))]
@case(*N)
def append_floats(n):
    out = []
    for i in range(n):
        out.append(i / 3)
    return out
@case(*N)
def extend_and_len(n):
    a = [1, 2]
    a.extend([i for i in range(n)])
    a.extend(a)
    return a, len(a)
@case(*N)
def pop_default(n):
    a = [i for i in range(n)]
    return a.pop(), a
@case(*N)
def pop_index(n):
    a = [i * 2 for i in range(n)]
    x = a.pop(0)
    y = a.pop(-2)
    return x, y, a
@case(*N)
def insert_positions(n):
    a = [i for i in range(n)]
    a.insert(0, -1)
    a.insert(-1, 99)
    a.insert(100, 7)
    a.insert(-100, 8)
    return a
@case(*N)
def index_and_negative(n):
    a = [i + 10 for i in range(n)]
    return a[0], a[-1], a[n // 2]
@case(*N)
def index_out_of_range(n):
    a = [i for i in range(n)]
    return a[n]
@case(*N)
def store_item(n):
    a = [0, 0, 0]
    a[n % 3] = n
    a[-1] += 5
    return a
@case(*N)
def slices(n):
    a = [i for i in range(n)]
    return a[1:], a[:-1], a[::2], a[::-1], a[-3:-1], a[5:2]
@case(*N)
def iterate_sum(n):
    s = 0.0
    for x in [i * 0.5 for i in range(n)]:
        s += x
    return s
@case(*N)
def contains(n):
    a = [i * 3 for i in range(n)]
    return 6 in a, 7 in a, 9 not in a, 2.0 in (1.0, 2.0)
@case(*V, *VI)
def contains_array(a): return 0 in a, 3 in a
@case(*N)
def builtins_on_lists(n):
    a = [(i * 7) % 5 for i in range(1, n + 2)]
    return len(a), sum(a), min(a), max(a), sorted(a)
@case(*N)
def min_of_empty(n):
    a = [i for i in range(n) if i > 100]
    return min(a)
@case(*N)
def sort_reverse_copy(n):
    a = [(i * 37) % 11 for i in range(n)]
    b = a.copy()
    a.sort()
    b.sort(reverse=True)
    b.reverse()
    return a, b
@case(*N)
def index_count_clear(n):
    a = [i % 4 for i in range(n)]
    c = a.count(1)
    i = a.index(2) if n > 2 else -1
    a.clear()
    return c, i, a
@case(*N)
def list_constructor(n):
    a = list(range(n))
    b = list(a)
    c = list((1.5, 2.5))
    d = list()
    d.append(n)
    return a, b, c, d
@case(*V)
def list_of_array(a): return list(a)
@case(*N)
def list_pop_empty(n):
    a = [i for i in range(n)]
    while len(a) > 0:
        a.pop()
    return a.pop()
@case(*N)
def empty_list_returned(n):
    a = []
    return a, len(a)


# ---- lists of tuples ----
SMALL_INTS = [(np.array([3, -1, 7, -1, 0]).astype(dt),) for dt in (np.int8, np.int16, np.uint16, np.uint32, np.uint64)]


@case(*VI, *SMALL_INTS)
def sort_every_int_width(a):   # the sort once left int8/int16/uint16/uint32 lists unsorted
    b = [x for x in a]
    b.sort()
    c = sorted(b)
    c.sort(reverse=True)
    return b, c
@case(*V, *VI)
def pairs_appended_and_sorted(a):
    pairs = []
    for i in range(len(a)):
        pairs.append((a[i], i))
    pairs.sort()
    rev = sorted(pairs)
    rev.sort(reverse=True)
    total = 0.0
    for x, i in pairs:
        total += x * i
    return pairs, rev, total
@case(*V)
def scored_records_with_flags(a):   # a tuple holding a float, an int and a bool, sorted best first
    records = [(x, i, x > 0) for i, x in enumerate(a)]
    records.sort(reverse=True)
    best = records[0] if len(records) > 0 else (0.0, -1, False)
    records.insert(1, (0.5, -7, True))
    records[-1] = (-0.5, 99, False)
    last = records.pop()
    return records, best, last, len(records)
@case(*N)
def nested_tuples(n):
    out = [(i, (i * 0.5, i % 2 == 0)) for i in range(n)]
    out.reverse()
    head = out[:2]
    out.extend(head)
    return out, sorted(out)
@case(*[(a,) for (a,) in V + VI if len(a) > 0])   # tests/numpy/test_lists.py: the empty list
def pairs_to_array(a):   # np.array of a list of tuples: a row per tuple, promoted as NumPy does
    return np.array([(i, x) for i, x in enumerate(a)])
@case(*N)
def pairs_with_bools_to_array(n):
    return np.array([(i % 2 == 0, i) for i in range(n + 1)]), np.array([(i, -i) for i in range(n + 1)], dtype=np.float32)
# lists of arrays: the list holds a reference on each array; returned, they are NumPy arrays in a Python list
@case(*N)
def arrays_built_in_a_loop(n):
    out = []
    for i in range(n % 7):
        out.append(np.arange(i) * 1.5 - i)
    return out
@case(*M)
def rows_doubled(m): return [row * 2 for row in m]
@case(*M, *V)
def rows_as_views(m): return [row for row in m], [m[::2], m[1:]]
@case(*N)
def arrays_changed_in_place(n):
    arrays = [np.zeros(3), np.ones(3), np.full(3, 2.0)]
    arrays.insert(1, np.arange(3.0))
    arrays.append(np.full(3, float(n)))
    last = arrays.pop()
    first = arrays.pop(0)
    arrays[1] = last * 2
    arrays[-1] += 5
    total = 0.0
    for a in arrays:
        total += a.sum()
    tail = arrays[1:]
    tail.extend(arrays)
    kept = arrays.copy()
    arrays.clear()
    return kept, tail, total, len(arrays), first, last
@case(*N)
def array_outlives_its_list(n):
    held = [np.full(2, n * 1.0)]
    x = held[0]
    held.clear()
    held.append(x + 1)
    return x, held
@case((2,), (0,), (-1,), (3,))
def list_of_arrays_index_errors(i):
    arrays = [np.zeros(2), np.ones(2)]
    return arrays[i]
@case(*N)
def pop_from_an_empty_list_of_arrays(n):
    arrays = [np.zeros(n) for _ in range(n % 2)]
    arrays.pop()
    return arrays.pop()
@case(*VI, *M[:3])
def arrays_of_other_dtypes_and_ranks(a):
    same = [a, a * 2]
    flags = [a > 0, a < 0]
    narrow = [(a * 2).astype(np.float32)]
    return same, flags, narrow, [p.sum() for p in same]
# joins of a list of arrays, its length known at run time: NumPy's errors for no array and for parts that differ
@case(*N)
def concatenate_pieces(n):
    pieces = []
    for i in range(n % 6):
        pieces.append(np.arange(i) * 0.5)
    return np.concatenate(pieces), np.hstack(pieces)
@case(*M)
def join_rows(m):
    rows = [row * 2 for row in m]
    return np.vstack(rows), np.stack(rows), np.stack(rows, axis=-1), np.column_stack(rows), np.concatenate(rows)
@case(*M)
def join_matrices(m):
    parts = [m, m * 2, m[::-1]]
    return np.concatenate(parts), np.concatenate(parts, axis=1), np.vstack(parts), np.hstack(parts), np.stack(parts, 1)
@case(*M[:3])
def join_parts_that_differ(m):
    return np.concatenate([m, m[:, 1:]], axis=0)
@case(*M[:3])
def stack_parts_that_differ(m):
    return np.stack([m, m[1:]])
@case(*VI)
def join_int_and_bool_pieces(a):
    return np.concatenate([a, a[::-1], a[:2]]), np.vstack([a > 0, a < 0])
# np.array of a list of arrays: a first axis along the list; arrays of other shapes are NumPy's ValueError
@case(*[(m,) for (m,) in M if len(m) > 0])   # tests/numpy/test_lists.py: the empty list
def array_of_rows(m):
    rows = [x * 2 for x in m]
    return np.array(rows), np.asarray(rows, dtype=np.float32), np.array([m, m])
@case(*VI)
def array_of_vectors(v): return np.array([v, v[::-1], v * 3]), np.array([v > 0])
@case(*M[:3])
def array_of_ragged_rows(m):
    return np.array([m, m, m[:, 1:]])
@case(*M[:3])
def array_of_rows_ragged_first(m):
    return np.array([m, m[1:], m[:, 1:]])
# np.array of nested lists: a dimension per level, the numbers promoted or cast to dtype; lists of one
# depth that differ in length are NumPy's ValueError, naming the shape up to there. (An empty outer
# list gives zeros for every dimension its type has, (0, 0) here, where NumPy's has one: (0,).)
@case(*[(n,) for n in (1, 2, 3, 5)])
def array_of_nested_lists(n):
    rows = [[float(i * j) - n for j in range(3)] for i in range(n)]
    return np.array(rows), np.array([[1, 2, n], [n, 0, -7]]), np.asarray([[True, n > 2]], dtype=np.int8), \
        np.array([[[n, 1], [2, 3]], [[4, 5], [6, 7]]], dtype=np.float32), np.array([[1 + 2j, n], [0, 1j]])
@case(*[(n,) for n in (0, 1, 2, 3)])
def array_of_ragged_nested_lists(n):
    return np.array([[float(j) for j in range(i % 2 + n)] for i in range(3)])
@case(*[(n,) for n in (1, 2)])
def array_of_ragged_deep_lists(n):
    return np.array([[[i, i + 1] for i in range(2)], [[5, 6], [7] * n]])
# Python's builtins over a 1-d array: sum in order from 0, min and max keeping the first of equal items
# (a NaN only from the front, unlike np.max), sorted giving a list; ValueError for min/max of nothing
@case(*V, *VI, (np.array([np.nan, 2.0, 1.0]),), (np.array([2.0, np.nan, 1.0]),), (np.array([True, False]),), (M[0][0][:, 1],))
def builtins_over_an_array(a): return sum(a), min(a) if len(a) else 0, max(a) if len(a) else 0
@case(*[(a,) for (a,) in V + VI if not np.isnan(a).any()])
def sorted_array(a): return sorted(a), sorted(a, reverse=True), sorted(a[::-1]), sorted(list(a), reverse=True)
@case((np.zeros(0),), (np.zeros(0, dtype=np.int32),))
def min_of_an_empty_array(a): return min(a)
# + and * of lists, += and *= in place (the list itself, as Python's)
@case(*N, (-2,))
def list_operators(n):
    zeros = [0] * n
    pairs = 2 * [(n, 0.5)]
    joined = [1, 2] + [n] + []
    mixed = [1, 2] + [0.5 * n]
    grown = [n]
    alias = grown
    grown += [1, 2]
    grown += grown
    tripled = [1.5, n]
    tripled *= 3
    gone = [n]
    gone *= n - 20
    rows = [np.zeros(2)] * 2
    rows[0][1] = n   # one array twice: the change shows through both
    return zeros, pairs, joined, mixed, alias, tripled, gone, rows
# generator expressions (made as the list of their comprehension), any and all over lists and 1-d arrays,
# abs of an array (NumPy's, elementwise)
@case(*V, *VI[:1], *VI[-1:])   # small ints: NumPy scalars wrap at their width in x * x, where compiled code promotes
def generators_and_truth(a):
    return (sum(x * x for x in a), any(x > 2 for x in a), all(x != 0 for x in a), sum(x for x in a if x < 5),
            any(a), all(a), any([]), all([]), any(a > 100), abs(a), abs(a[::-1] - 1))


@case((np.array([[0, 1], [1, 2], [2, 3], [0, 4]]), 6, 0), (np.array([[0, 1], [1, 2], [2, 0]]), 3, 2),
      (np.zeros((0, 2), dtype=np.int64), 2, 1))
def adjacency_lists_and_breadth_first_search(edges, n, start):   # lists of lists, typed by the first appends
    adj = [[] for _ in range(n)]
    for k in range(edges.shape[0]):
        u, v = edges[k, 0], edges[k, 1]
        adj[u].append(v)
        adj[v].append(u)
    dist = [-1] * n
    dist[start] = 0
    queue = [start]
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist, adj


@case(*N)
def nested_lists_shared_and_copied(n):
    rows = [[1, 2], [3]]
    rows[1].append(n)
    rows.append([5, 6, 7])
    first = rows[0]
    first.append(99)                  # the same list as rows[0], as in Python
    joined = rows + [[8]]
    shared = [[0] * 2] * 2
    shared[0][0] = n                  # one inner list, twice
    total = 0
    for row in rows:
        for x in row:
            total += x
    last = rows.pop()
    rows[0] = [n, n]                  # the old inner list's reference goes
    return rows, len(joined), total, joined, shared, last, [len(r) for r in rows]
# pop's index is evaluated before pop looks at the list: its error comes first, as in CPython
@case((0, 0), (0, 1), (3, 0), (3, 5), (2, -3))
def pop_index_first(n, k):
    xs = [0.5 * i for i in range(n)]
    return xs.pop(10 // k - 11), xs
