"""Ownership of what compiled code allocates (jit/lower/lower_nrt.h's rules):
arrays, lists, dicts and sets keep a correct count through swaps, tuple
packing and unpacking, rebinding in loops and branches, early returns,
break, continue and exceptions. Each function is compared with CPython, and
after each call the runtime's live blocks are back where they were: a
count too low frees a block still in use (the heap corrupts, the process
aborts), one too high leaks it."""
import gc

import numpy as np
import pytest

import _kiln
import kiln


def live():
    gc.collect()
    s = _kiln.nrt_stats()
    return s["alloc"] - s["free"], s["live_bytes"]


def relax(n, sweeps):   # double buffering, as stencil courses write it
    u = np.zeros((n, n))
    u[0, :] = 1.0
    v = u.copy()
    for s in range(sweeps):
        v[1:-1, 1:-1] = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]) / 4
        u, v = v, u
    return u


def relax_loops(n, sweeps):
    u = np.zeros((n, n))
    u[0, :] = 1.0
    v = u.copy()
    for s in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                v[i, j] = (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1]) / 4
        u, v = v, u
    return u


def life(board, steps):   # boolean boards, swapped each generation
    cur = board.copy()
    nxt = np.zeros_like(cur)
    n, m = cur.shape
    for _ in range(steps):
        for i in range(n):
            for j in range(m):
                k = 0
                for di in range(-1, 2):
                    for dj in range(-1, 2):
                        if (di or dj) and cur[(i + di) % n, (j + dj) % m]:
                            k += 1
                nxt[i, j] = k == 3 or (cur[i, j] and k == 2)
        cur, nxt = nxt, cur
    return cur


def rotate_three(n, k):
    a, b, c = np.zeros(n), np.ones(n), np.full(n, 2.0)
    for _ in range(k):
        a, b, c = b, c, a
    return a + 10 * b + 100 * c


def through_a_tuple(n, k):
    u, v = np.arange(n) * 1.0, np.arange(n) * -1.0
    for _ in range(k):
        pair = (v, u)
        u, v = pair
    return u - v


def rebinding_an_argument(a, k):
    for _ in range(k):
        a = a * 2 + 1
        if a[0] > 50:
            a = a[::-1].copy()
    return a


def swap_then_leave(n, k, stop):
    u, v = np.zeros(n), np.ones(n)
    for i in range(k):
        u, v = v, u
        if i == stop:
            return v
        if i % 3 == 0:
            continue
        u = u + 1.0
    return u


def swap_then_break(n, k, stop):
    u, v = np.zeros(n), np.ones(n)
    for i in range(k):
        u, v = v, u + i
        if i == stop:
            break
    return u, v


def swap_then_raise(n, k, bad):
    u, v = np.zeros(n), np.ones(n)
    for i in range(k):
        u, v = v * 2, u
        if i == bad:
            raise ValueError("bad step")
    return u


def swap_lists(k):
    xs, ys = [1, 2], [3]
    for i in range(k):
        xs, ys = ys, xs
        xs.append(i)
    return xs, ys


def swap_lists_of_arrays(k):
    xs, ys = [np.zeros(2)], [np.ones(2)]
    for i in range(k):
        xs, ys = ys, xs
        xs.append(np.full(2, float(i)))
    return len(xs), len(ys), xs[-1][0]


def swap_dicts_and_sets(k):
    d1, d2 = {1: 1.0}, {2: 2.0}
    s1, s2 = {1}, {2, 3}
    for i in range(k):
        d1, d2 = d2, d1
        s1, s2 = s2, s1
        d1[i + 10] = float(i)
        s1.add(i + 10)
    return len(d1), len(d2), len(s1), len(s2)


def swap_in_branches(n, k):
    u, v = np.zeros(n), np.ones(n)
    w = u
    for i in range(k):
        if i % 2:
            u, v = v, u
        else:
            v, w = w, v
    return u + v + w


def returned_pair_after_swaps(n, k):
    u, v = np.arange(n) * 1.0, np.zeros(n)
    for _ in range(k):
        u, v = v, u
    return u, v


BOARD = np.zeros((6, 6), dtype=np.bool_)
BOARD[1, 2] = BOARD[2, 3] = BOARD[3, 1] = BOARD[3, 2] = BOARD[3, 3] = True   # a glider

CASES = [
    (relax, [(20, 3), (5, 0), (8, 7), (3, 2)]),
    (relax_loops, [(10, 3), (4, 1), (6, 0)]),
    (life, [(BOARD, 4), (BOARD, 1), (BOARD, 0)]),
    (rotate_three, [(4, 0), (4, 1), (4, 5), (0, 3)]),
    (through_a_tuple, [(3, 0), (3, 3), (5, 4)]),
    (rebinding_an_argument, [(np.arange(4.0), 5), (np.arange(3.0)[::-1], 0), (np.ones(1), 3)]),
    (swap_then_leave, [(3, 10, 4), (3, 10, 20), (2, 0, 0)]),
    (swap_then_break, [(3, 10, 4), (3, 10, 20)]),
    (swap_then_raise, [(3, 5, 2), (3, 5, 9)]),
    (swap_lists, [(0,), (1,), (5,)]),
    (swap_lists_of_arrays, [(0,), (3,), (6,)]),
    (swap_dicts_and_sets, [(0,), (1,), (4,)]),
    (swap_in_branches, [(3, 0), (3, 1), (3, 6)]),
    (returned_pair_after_swaps, [(4, 0), (4, 1), (4, 3)]),
]


def outcome(fn, args):
    try:
        return "ok", fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except Exception as e:   # the same exception, type and text, from both
        return "raise", (type(e), str(e))


def same(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("fn, argsets", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_ownership_matches_python_and_frees_everything(fn, argsets):
    compiled = kiln.njit(fn)
    for args in argsets:
        expected = outcome(fn, args)
        before = live()
        got = outcome(compiled, args)
        assert got[0] == expected[0] and same(expected[1], got[1]), f"{fn.__name__}{args}: {expected} vs {got}"
        del got
        assert live() == before, f"{fn.__name__}{args}: blocks not given back"
