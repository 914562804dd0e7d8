"""What Kiln's per-call recording costs, against what a call costs.

Every call of compiled code reads kp_ticks() twice (the TSC where it is
invariant) and adds to its thread's own totals (profiler/records.c), so that
the notebook can say how long compiled code ran. This prints that cost next
to whole dispatches of trivial functions, Kiln's and Numba's, in one run,
with a float argument and with a small array (the courses' usual call),
and the footer's per-cell bookkeeping.

    KILN_BUILD_DIR=build /usr/bin/python3 bench/profiler_overhead.py
"""
import os
import sys
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")), "python"),
                os.path.join(ROOT, "python")]

import _kiln  # noqa: E402


def per_call_ns(fn, arg):
    """Best of 5 runs of 300,000 calls, in ns per call."""
    timer = timeit.Timer("fn(arg)", globals={"fn": fn, "arg": arg})
    return min(timer.repeat(repeat=5, number=300_000)) / 300_000 * 1e9


def identity(x):
    return x


def first(a):
    return a[0]


def dispatches(jit, name):
    """[(label, ns per call)] for `jit` applied to the trivial functions."""
    import numpy as np

    rows = []
    for fn, arg, what in ((identity, 1.0, "float"), (first, np.ones(100), "float64[:]")):
        compiled = jit(fn)
        compiled(arg)
        rows.append((f"{name} dispatch, {what} argument", per_call_ns(compiled, arg)))
    return rows


def main():
    record = min(_kiln.profiler_time_record_call(10_000_000) for _ in range(5))
    print(f"timing + recording one call (2 kp_ticks + per-thread add): {record:6.1f} ns")
    rows = [("plain Python call, float argument", per_call_ns(identity, 1.0))]
    try:
        import kiln
        rows += dispatches(kiln.jit, "kiln.jit (records)")
    except (ImportError, AttributeError) as exc:
        print(f"kiln.jit not available ({exc}); Kiln's dispatch not measured")
    try:
        import numba
        rows += dispatches(numba.njit, "numba.njit (no records)")
    except ImportError as exc:
        print(f"numba not importable ({exc})")
    for label, ns in rows:
        print(f"{label:52s} {ns:7.1f} ns per call; recording = {record / ns:6.1%} of it")
    from kiln.magics import records
    per_cell = min(timeit.repeat("records.since(records.snapshot())", globals={"records": records},
                                 repeat=5, number=10_000)) / 10_000 * 1e6
    print(f"per-cell bookkeeping of the footer (snapshot + delta): {per_cell:.2f} µs per cell")


if __name__ == "__main__":
    main()
