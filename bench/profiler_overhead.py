"""What Kiln's per-call recording costs, against what a call costs.

While a notebook cell runs (kiln.ipython switches it on for the cell, whose
footer shows it), every call of compiled code reads kp_ticks() twice (the
TSC where it is invariant) and adds to its thread's own totals
(profiler/records.c), so that the footer can say how long compiled code ran
and how many calls it took. Outside a cell (scripts, tests, benchmarks) the
dispatcher only loads the switch and branches past it. This prints, in one
run: the recording alone, Kiln's dispatch of trivial functions with
recording off and on (a float argument and a small array, the courses'
usual call), Numba's, and the footer's per-cell bookkeeping.

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


def dispatches(jit, name, recording=None):
    """[(label, ns per call)] for `jit` applied to the trivial functions,
    inside `recording` (a context manager) when given."""
    import contextlib

    import numpy as np

    rows = []
    for fn, arg, what in ((identity, 1.0, "float"), (first, np.ones(100), "float64[:]")):
        compiled = jit(fn)
        compiled(arg)
        with recording or contextlib.nullcontext():
            rows.append((f"{name} dispatch, {what} argument", per_call_ns(compiled, arg)))
    return rows


def main():
    record = min(_kiln.profiler_time_record_call(10_000_000) for _ in range(5))
    print(f"timing + recording one call (2 kp_ticks + per-thread add): {record:6.1f} ns, paid only in a cell")
    rows = [("plain Python call, float argument", per_call_ns(identity, 1.0))]
    try:
        import kiln
        from kiln.magics import records
        off = dispatches(kiln.jit, "kiln.jit, recording off (script)")
        on = dispatches(kiln.jit, "kiln.jit, recording on (notebook cell)", records.recording_calls())
        rows += off + on
    except (ImportError, AttributeError) as exc:
        print(f"kiln.jit not available ({exc}); Kiln's dispatch not measured")
        off = on = []
    try:
        import numba
        rows += dispatches(numba.njit, "numba.njit (no records)")
    except ImportError as exc:
        print(f"numba not importable ({exc})")
    for label, ns in rows:
        print(f"{label:55s} {ns:7.1f} ns per call; recording = {record / ns:6.1%} of it")
    for (label, ns_off), (_, ns_on) in zip(off, on):
        what = label.split("dispatch, ", 1)[1]
        print(f"recording on costs Kiln's dispatch ({what}): {ns_on - ns_off:+6.1f} ns per call "
              f"({ns_on / ns_off - 1:+.0%}); off, the switch is one load and a branch")
    from kiln.magics import records
    per_cell = min(timeit.repeat("with records.recording_calls(): records.since(records.snapshot())",
                                 globals={"records": records}, repeat=5, number=10_000)) / 10_000 * 1e6
    print(f"per-cell bookkeeping of the footer (switch on/off + snapshot + delta): {per_cell:.2f} µs per cell")


if __name__ == "__main__":
    main()
