"""Runs one program under CPython (reference.py's int-wrapped copy) and
under Kiln on each of its argument sets, and says how they compare:

    pass             every set agrees and every block Kiln allocated is freed
    mismatch         different values (or Kiln returned where CPython raised)
    wrong_exception  both raised, of different types
    kiln_exception   Kiln raised (at run time) where CPython returned
    compile_error    Kiln refused a program CPython runs (kiln.TypingError)
    unsupported      the same, as kiln.UnsupportedError: a construct Kiln says
                     it lacks, counted apart from typing failures
    leak             the runtime's live blocks did not come back to where they
                     were after the call (results dropped first)
    invalid          CPython itself failed in a way the generator should have
                     avoided (TypeError, OverflowError...): a generator bug,
                     not counted against Kiln
(crash and hang are told by the driver, whose worker process died.)"""
import ast
import gc
import re
import warnings

import numpy as np

import _kiln
import kiln

from .compare import same, tolerance
from .reference import augmented, reference_code, wrap64

# what a generated program may raise on purpose: raise statements, empty
# reductions, integer division by zero, a missing key, pop of an empty list
EXPECTED_RAISES = (ZeroDivisionError, ValueError, IndexError, KeyError)


def live():
    gc.collect()
    s = _kiln.nrt_stats()
    return s["alloc"] - s["free"], s["live_bytes"]


def load_reference(source, filename):
    ref = {"__name__": "fuzz_reference", "_wrap64": wrap64, "_augmented": augmented}
    exec(reference_code(source, filename), ref)
    return ref


def load_kiln(source, filename):
    jit = {"__name__": "fuzz_kiln"}
    exec(compile(source, filename, "exec"), jit)
    for name, opts in jit["JIT"].items():
        opts = dict(opts)
        sig = opts.pop("signature", None)
        jit[name] = kiln.njit(sig, **opts)(jit[name]) if sig else kiln.njit(**opts)(jit[name])
    return jit


def outcome(fn, args, kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except Exception as exc:   # the exception is what is compared
        return "raise", exc


def _name(exc):
    return type(exc).__name__


def signature(exc):
    """The reason of a Kiln exception (the line before its hint), without
    numbers, for telling one bug from another."""
    lines = [ln for ln in str(exc).strip().splitlines() if not ln.startswith("Hint:")]
    last = lines[-1] if lines else ""
    last = re.sub(r"(optional\()?array\([^)]*\)\)?", lambda m: "optional(array)" if m.group(1) else "array", last)
    last = re.sub(r"\b(arg|[a-z])[0-9]+\b", "V", last)
    return f"{_name(exc)}: {re.sub(r'[0-9]+', 'N', last)[:200]}"


def _refused(exc):
    kind = "unsupported" if isinstance(exc, kiln.UnsupportedError) else "compile_error"
    return {"kind": kind, "detail": str(exc), "sig": signature(exc), "set": None}


def run_program(source, filename):
    """{'kind', 'detail', 'set', 'sig'} for the program in source (written
    to filename, where Kiln reads it back)."""
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("ignore")
        warnings.simplefilter("always", kiln.UnusedWorkWarning)
        res = _run_program(source, filename)
    if res["kind"] == "pass":
        for line in sorted({w.lineno for w in told if issubclass(w.category, kiln.UnusedWorkWarning)}):
            res = _check_unused_claim(source, filename, line) or res
    return res


def _without_loop(source, line):
    """source with the loop statement on `line` of the entry replaced by pass."""
    class Drop(ast.NodeTransformer):
        def generic_visit(self, node):
            super().generic_visit(node)
            if isinstance(node, (ast.For, ast.While)) and node.lineno == line:
                return ast.copy_location(ast.Pass(), node)
            return node
    return ast.unparse(Drop().visit(ast.parse(source)))


def _check_unused_claim(source, filename, line):
    """Kiln said the entry's loop on `line` computes nothing used: CPython
    must then get the same results and arguments without it (a name the
    loop alone binds makes the check moot: CPython then fails to run)."""
    with np.errstate(all="ignore"):
        ref, cut = load_reference(source, filename), load_reference(_without_loop(source, line), filename)
        for k in range(len(ref["ARGS"]())):
            (args, kwargs), (cargs, ckwargs) = ref["ARGS"]()[k], cut["ARGS"]()[k]
            expected, got = outcome(ref[ref["ENTRY"]], args, kwargs), outcome(cut[cut["ENTRY"]], cargs, ckwargs)
            if got[0] == "raise" and isinstance(got[1], NameError):   # UnboundLocalError too
                return None
            res = _compare(expected, got, args, cargs, 0.0)
            if res is not None:
                res.update(kind="mismatch", set=k, sig="unused loop",
                           detail=f"Kiln said the loop at line {line} computes nothing used, but CPython differs "
                                  f"without it (shown as Kiln's): {res['detail']}")
                return res
    return None


def _run_program(source, filename):
    rel = tolerance(source)
    with np.errstate(all="ignore"):
        try:
            ref = load_reference(source, filename)
            n_sets = len(ref["ARGS"]())
        except Exception as exc:   # the module itself did not run: a generator bug
            return {"kind": "invalid", "detail": f"load: {_name(exc)}: {exc}", "set": None, "sig": "load"}
        try:
            jit = load_kiln(source, filename)
        except Exception as exc:   # a function with a signature compiles when decorated
            bad = _reference_invalid(ref, n_sets)
            if bad or isinstance(exc, kiln.TypingError):
                return bad or _refused(exc)
            return {"kind": "kiln_exception", "detail": f"compiling: {_name(exc)}: {exc}", "sig": signature(exc),
                    "set": None}
        for k in range(n_sets):
            res = _run_set(ref, jit, k, rel)
            if res is not None:
                res["set"] = k
                return res
    return {"kind": "pass", "detail": "", "set": None, "sig": ""}


def _reference_invalid(ref, n_sets):
    """Whether CPython fails a set where a program must not (so a program
    Kiln refused to compile is still one CPython runs)."""
    for k in range(n_sets):
        args, kwargs = ref["ARGS"]()[k]
        got = outcome(ref[ref["ENTRY"]], args, kwargs)
        if got[0] == "raise" and not isinstance(got[1], EXPECTED_RAISES):
            return {"kind": "invalid", "detail": f"CPython raised {_name(got[1])}: {got[1]}",
                    "sig": f"invalid {_name(got[1])}", "set": k}
    return None


def _run_set(ref, jit, k, rel):
    entry = ref["ENTRY"]
    args, kwargs = ref["ARGS"]()[k]
    expected = outcome(ref[entry], args, kwargs)
    if expected[0] == "raise" and not isinstance(expected[1], EXPECTED_RAISES):
        return {"kind": "invalid", "detail": f"CPython raised {_name(expected[1])}: {expected[1]}",
                "sig": f"invalid {_name(expected[1])}"}
    jargs, jkwargs = jit["ARGS"]()[k]
    before = live()
    got = outcome(jit[entry], jargs, jkwargs)
    res = _compare(expected, got, args, jargs, rel)
    del got
    if res is None and live() != before:
        res = {"kind": "leak", "detail": f"live blocks {before} before the call, {live()} after", "sig": "leak"}
    return res


def _compare(expected, got, args, jargs, rel):
    if got[0] == "raise":
        exc = got[1]
        if isinstance(exc, kiln.TypingError):
            return _refused(exc)
        if expected[0] == "ok":
            return {"kind": "kiln_exception", "detail": f"CPython returned {expected[1]!r}; Kiln raised {_name(exc)}: {exc}",
                    "sig": signature(exc)}
        if type(exc) is not type(expected[1]):
            return {"kind": "wrong_exception",
                    "detail": f"CPython raised {_name(expected[1])}: {expected[1]}; Kiln {_name(exc)}: {exc}",
                    "sig": f"{_name(expected[1])} -> {signature(exc)}"}
        return None
    if expected[0] == "raise":
        return {"kind": "mismatch", "detail": f"CPython raised {_name(expected[1])}: {expected[1]}; Kiln returned {got[1]!r}",
                "sig": f"no {_name(expected[1])}"}
    if not same(expected[1], got[1], rel):
        return {"kind": "mismatch", "detail": f"CPython {expected[1]!r}\nKiln    {got[1]!r}", "sig": "value"}
    for i, (a, b) in enumerate(zip(list(args), list(jargs))):
        if isinstance(a, np.ndarray) and not same(a, b, rel):
            return {"kind": "mismatch", "detail": f"argument {i} after the call: CPython {a!r}\nKiln {b!r}",
                    "sig": "argument"}
    return None
