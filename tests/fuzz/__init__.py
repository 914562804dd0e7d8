"""Kiln's program generator (issue 30): random well-typed functions over the
subset Kiln compiles, run by CPython and by Kiln and compared, with the
runtime's live blocks counted; failures shrunk to reproducers in found/.

    python3 -m tests.fuzz --programs N --seed S

The files, in the order a program goes through them: gen_types (types and
scopes), gen_expr (scalar and array expressions), gen_stmt (one method per
feature: scalars, swaps, tuples, array creation / expressions / views /
writes / reductions / NumPy functions, if-elif-else, for / while loops with
break and continue, early returns, raise, lists, dicts, sets, lists and
dicts of arrays, inner defs, helper calls by position and keyword,
prange), gen_inputs (edge-case arguments in every layout), gen_program (the
module: helpers, the entry, Optional arguments, JIT options, ARGS);
reference (CPython's side, ints wrapped to 64 bits), harness and compare
(run both, classify), worker and driver (processes that may crash),
shrink, campaign; test_campaign (a short CI campaign) and test_found (the
kept reproducers, open bugs in KNOWN_OPEN).

Importing the package puts python/ and $KILN_BUILD_DIR/python (default
build/) first on sys.path, as tests/conftest.py does, so that the worker
processes find the same kiln."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
os.environ["KILN_BUILD_DIR"] = BUILD
for _path in (os.path.join(BUILD, "python"), os.path.join(ROOT, "python")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
