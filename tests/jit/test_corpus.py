"""The differential corpus: every function, run by CPython and by Kiln on
its inputs, must agree (results, writes to arrays, exceptions)."""
import pytest

import kiln
import corpus_arrays  # noqa: F401  (each registers its functions)
import corpus_calls  # noqa: F401
import corpus_cond_sums  # noqa: F401
import corpus_control  # noqa: F401
import corpus_decided  # noqa: F401
import corpus_function_values  # noqa: F401
import corpus_scalars  # noqa: F401
import corpus_strings  # noqa: F401
import corpus_varargs  # noqa: F401
from jit_diff import CASES, check

_jitted = {}


def _dispatcher(fn):
    if fn not in _jitted:
        _jitted[fn] = kiln.jit(fn)
    return _jitted[fn]


@pytest.mark.parametrize("module,fn,argsets", CASES, ids=[f"{m}.{f.__name__}" for m, f, _ in CASES])
def test_kiln_agrees_with_cpython(module, fn, argsets):
    d = _dispatcher(fn)
    for args in argsets:
        check(d, args)


def test_corpus_is_large_enough():
    assert len(CASES) >= 150
