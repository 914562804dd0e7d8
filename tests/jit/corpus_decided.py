"""Corpus, part 9: what the arguments' types decide before typing
(jit/infer/decided.c), as Numba's branch pruning and isinstance: a
parameter that may be None (its default), tested with `is None`, and
functions that dispatch on isinstance; each called with each kind of
argument it takes."""
import numpy as np

from jit_diff import case

V = np.arange(5.0) - 2.5


@case((2.0,), (2.0, 3.0), (-1, None), (7, 2))
def scale_or_not(x, scale=None):
    if scale is None:
        return x
    return x * scale


@case((V,), (V, np.zeros(5)), (V[::2], None), (np.zeros(0), np.zeros(0)))
def fill_out(a, out=None):
    if out is None:
        out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * 2
    return out


@case((1.5, None), (1.5, 4), (0.0, -2))
def guarded_by_and(x, limit=None):
    if limit is not None and x > limit:   # decided False for None: x > limit is never typed
        return limit
    elif not (limit is None):
        return -limit
    return 0


@case((3,), (2.5,), (True,), (V,), ((1, 2.0),), (np.float32(1.5),), (np.int8(-3),), (1 + 2j,))
def kind_of(x):
    if isinstance(x, bool):
        return 1
    elif isinstance(x, int):
        return 2
    elif isinstance(x, (float, complex)):
        return 3
    elif isinstance(x, np.ndarray):
        return 4
    elif isinstance(x, tuple):
        return 5
    elif isinstance(x, np.floating):
        return 6
    return 7


@case((V,), (2.0,), (np.arange(3),))
def total(x):
    if isinstance(x, np.ndarray):
        s = 0.0
        for v in x:
            s += v
        return s
    return x + 0.0


@case((3,), (3, 1.5), (0, 2.0))
def made_in_a_loop(n, acc=None):   # in a loop the test comes back after the branch assigned: not decided
    for i in range(n):
        if acc is None:
            acc = 0.0
        acc += i
    return acc if acc is not None else -1.0


@case((V, None), (V, 2), (np.zeros(0), None))
def kept_branch_rebinds(a, k=None):
    if k is None:
        k = 1   # only this if's branch assigns k, in no loop: decided
    return a * k
