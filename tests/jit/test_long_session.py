"""A long session makes many types (every function is a type of its own, and
each re-run of a cell makes new functions): after thousands of them, Kiln
still knows a type it has seen for the same type, so values built on two
lines of one function still have one type (found by the program generator,
whose workers compile hundreds of programs each: `l = [a.copy()]` then
`l.append(a.copy())` was refused as two kinds of list of the same name)."""
import numpy as np

import kiln


def list_of_copies(a, n):
    out = [a.copy()]
    for _ in range(n):
        out.append(a.copy())
    total = 0.0
    for x in out:
        total += x.sum()
    return len(out), total


def test_a_function_compiles_after_thousands_of_types_were_made():
    for n in range(1, 3001):   # as many distinct types as a long session makes
        assert str(kiln.typeof((1.0,) * n)) == f"UniTuple(float64 x {n})"
    a = np.arange(6.0)
    assert kiln.njit(list_of_copies)(a, 3) == list_of_copies(a, 3) == (4, 60.0)
