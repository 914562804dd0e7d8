"""Differential checking: a function run by CPython and by Kiln on the same
inputs must give the same result (or raise the same exception).

Integers in compiled code wrap at 64 bits, so CPython's integer results are
wrapped the same way before comparing; arrays passed in are copied for each
side so that writes are compared too."""
import math

import numpy as np

CASES = []   # (module name, function, [argument tuples])


def case(*argsets):
    """Registers a corpus function with the argument tuples it runs on."""
    def register(fn):
        CASES.append((fn.__module__, fn, list(argsets)))
        return fn
    return register


def cases(*argsets_lists):
    """Like case, with the cartesian-free concatenation of several lists."""
    return case(*[a for lst in argsets_lists for a in lst])


def wrap64(x):
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def _copy(v):
    if isinstance(v, np.ndarray):
        # keep the layout (views stay non-contiguous): copy the base and view it the same way
        if v.base is not None and isinstance(v.base, np.ndarray) and not v.flags.c_contiguous:
            base = v.base.copy()
            offset = v.__array_interface__["data"][0] - v.base.__array_interface__["data"][0]
            return np.lib.stride_tricks.as_strided(base.reshape(-1)[offset // v.itemsize:],
                                                   v.shape, v.strides) if offset % v.itemsize == 0 else v.copy()
        return v.copy()
    if isinstance(v, tuple):
        return tuple(_copy(x) for x in v)
    return v


def same(expected, got, rel=1e-9):
    """Whether Kiln's result equals CPython's (floats to `rel`, NaN == NaN)."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(got, (bool, np.bool_)) and bool(got) == bool(expected)
    if isinstance(expected, (int, np.integer)) and not isinstance(expected, bool):
        if isinstance(got, float):
            # a variable that also holds floats is a float in compiled code (as in Numba)
            return math.isclose(got, float(expected), rel_tol=rel)
        # Python ints wrap at 64 bits in compiled code; NumPy's uint64 does not need to
        want = int(expected) if isinstance(expected, np.unsignedinteger) else wrap64(int(expected))
        return isinstance(got, (int, np.integer)) and int(got) == want
    if isinstance(expected, (float, np.floating)):
        if not isinstance(got, (float, np.floating)):
            return False
        if math.isnan(expected):
            return math.isnan(got)
        if math.isinf(expected):
            return got == expected
        return math.isclose(got, expected, rel_tol=rel, abs_tol=1e-300)
    if isinstance(expected, (complex, np.complexfloating)):   # complex64 is not a Python complex
        return (isinstance(got, (complex, np.complexfloating)) and same(expected.real, got.real, rel)
                and same(expected.imag, got.imag, rel))
    if expected is None:
        return got is None
    if isinstance(expected, tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and all(
            same(e, g, rel) for e, g in zip(expected, got))
    if isinstance(expected, np.ndarray):
        return (isinstance(got, np.ndarray) and got.shape == expected.shape and got.dtype == expected.dtype
                and np.allclose(got, expected, rtol=rel, equal_nan=True))
    return expected == got


def run_both(dispatcher, args):
    """(expected, got): each a ('ok', result, args after) or ('raise', type, message)."""
    def run(fn):
        mine = tuple(_copy(a) for a in args)
        try:
            return ("ok", fn(*mine), mine)
        except Exception as exc:  # the exception itself is what is compared
            return ("raise", type(exc), str(exc))
    return run(dispatcher.py_func), run(dispatcher)


def check(dispatcher, args, rel=1e-9):
    expected, got = run_both(dispatcher, args)
    name = dispatcher.py_func.__qualname__
    if expected[0] == "raise":
        assert got[0] == "raise", f"{name}{args!r}: CPython raised {expected[1].__name__}({expected[2]}), Kiln returned {got[1]!r}"
        assert got[1] is expected[1], f"{name}{args!r}: CPython raised {expected[1].__name__}, Kiln {got[1].__name__}: {got[2]}"
        assert got[2] == expected[2], f"{name}{args!r}: message {got[2]!r}, CPython's {expected[2]!r}"
        return
    assert got[0] == "ok", f"{name}{args!r}: Kiln raised {got[1].__name__}: {got[2]}"
    assert same(expected[1], got[1], rel), f"{name}{args!r}: CPython {expected[1]!r}, Kiln {got[1]!r}"
    for e, g in zip(expected[2], got[2]):
        if isinstance(e, np.ndarray):
            assert same(e, g, rel), f"{name}{args!r}: array argument after the call differs"
