"""Differential checking for NumPy in compiled code: each corpus function
runs under CPython + NumPy and under Kiln on the same generated inputs and
must agree (results with their dtypes and shapes, writes into arguments,
exception type and message), and every call must give back every block of
memory it allocated (the runtime's counters balance)."""
import gc
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "jit"))
from jit_diff import run_both, same  # noqa: E402  (the compiler core's comparison rules)

import _kiln  # noqa: E402

CASES = []   # (function, [argument tuples])


def case(*argsets):
    """Registers a corpus function with the argument tuples it runs on."""
    def register(fn):
        CASES.append((fn, list(argsets)))
        return fn
    return register


def live():
    gc.collect()
    s = _kiln.nrt_stats()
    return s["alloc"] - s["free"], s["live_bytes"]


def _tolerance(args):
    """float32 arithmetic is compared at float32's precision."""
    def f32(v):
        return (isinstance(v, np.ndarray) and v.dtype in (np.float32, np.complex64)) or isinstance(v, np.float32)
    return 2e-5 if any(f32(a) for a in args) else 1e-9


def same_values(expected, got, rel):
    """jit_diff.same, looking inside lists and dicts too (NaN equals NaN there
    as well; a dict's keys in the same order)."""
    if isinstance(expected, dict):
        return (isinstance(got, dict) and list(got) == list(expected)
                and all(same_values(expected[k], got[k], rel) for k in expected))
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(
            same_values(e, g, rel) for e, g in zip(expected, got))
    if isinstance(expected, tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and all(
            same_values(e, g, rel) for e, g in zip(expected, got))
    return same(expected, got, rel)


def check(dispatcher, args):
    name = dispatcher.py_func.__qualname__
    before = live()
    with warnings.catch_warnings(), np.errstate(all="ignore"):   # NumPy's division-by-zero warnings
        warnings.simplefilter("ignore")
        expected, got = run_both(dispatcher, args)
    rel = _tolerance(args)
    if expected[0] == "raise":
        assert got[0] == "raise", f"{name}{args!r}: NumPy raised {expected[1].__name__}({expected[2]}), Kiln returned {got[1]!r}"
        assert got[1] is expected[1], f"{name}{args!r}: NumPy raised {expected[1].__name__}, Kiln {got[1].__name__}: {got[2]}"
        assert got[2] == expected[2], f"{name}{args!r}: message {got[2]!r}, NumPy's {expected[2]!r}"
    else:
        assert got[0] == "ok", f"{name}{args!r}: Kiln raised {got[1].__name__}: {got[2]}"
        assert same_values(expected[1], got[1], rel), f"{name}{args!r}: NumPy {expected[1]!r}, Kiln {got[1]!r}"
        for e, g in zip(expected[2], got[2]):
            if isinstance(e, np.ndarray):
                assert same(e, g, rel), f"{name}{args!r}: array argument after the call differs: {e!r} vs {g!r}"
    del expected, got
    assert live() == before, f"{name}{args!r}: compiled code did not give back all its memory"
