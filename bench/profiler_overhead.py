"""What Kiln's per-call recording costs, against what a call costs.

While a notebook cell runs (kiln.ipython switches it on for the cell, whose
footer shows it), every call of compiled code reads kp_ticks() twice (the
TSC where it is invariant) and adds to its thread's own totals
(profiler/records.c), so that the footer can say how long compiled code ran
and how many calls it took. In a cell, %timeit and %compare only count their
loops' calls (they time them themselves). Outside a cell (scripts, tests,
benchmarks) the dispatcher only loads the switch and branches past it. This
prints, in one run: the recording alone, Kiln's dispatch of trivial
functions (a float argument and a small array, the courses' usual call)
with recording off, timed and counted, Numba's, and the footer's per-cell
bookkeeping.

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


def dispatches(jit, name, *switches):
    """[(label, ns per call)] for `jit` applied to the trivial functions,
    inside the profiler `switches` (context managers) given."""
    import contextlib

    import numpy as np

    rows = []
    for fn, arg, what in ((identity, 1.0, "float"), (first, np.ones(100), "float64[:]")):
        compiled = jit(fn)
        compiled(arg)
        with contextlib.ExitStack() as stack:
            for switch in switches:
                stack.enter_context(switch)
            rows.append((f"{name}, {what}", per_call_ns(compiled, arg)))
    return rows


def best_rows(measure, rounds=3):
    """measure() -> [(label, ns)], taken `rounds` times, interleaved with the
    other measurements; the best per label (the machine is shared)."""
    best = {}
    for _ in range(rounds):
        for label, ns in measure():
            best[label] = min(best.get(label, ns), ns)
    return list(best.items())


def main():
    record = min(_kiln.profiler_time_record_call(10_000_000) for _ in range(5))
    print(f"timing + recording one call (2 kp_ticks + per-thread add): {record:5.1f} ns, paid only in a cell\n")
    rows = [("plain Python call, float", per_call_ns(identity, 1.0))]
    modes = []
    try:
        import kiln
        from kiln.magics import records
        measured = best_rows(lambda: (
            dispatches(kiln.jit, "kiln, off (script, test, bench)")
            + dispatches(kiln.jit, "kiln, timed (notebook cell)", records.recording_calls())
            + dispatches(kiln.jit, "kiln, counted (%timeit in a cell)", records.recording_calls(),
                         records.untimed_calls())))
        modes = [measured[0:2], measured[2:4], measured[4:6]]
        rows += measured
    except (ImportError, AttributeError) as exc:
        print(f"kiln.jit not available ({exc}); Kiln's dispatch not measured")
    try:
        import numba
        rows += best_rows(lambda: dispatches(numba.njit, "numba.njit (no records)"))
    except ImportError as exc:
        print(f"numba not importable ({exc})")
    print("ns per call of a trivial function")
    for label, ns in rows:
        print(f"  {label:48s} {ns:6.1f}")
    if modes:
        off = modes[0]
        for mode, name in zip(modes[1:], ("timed (a notebook cell)", "counted (%timeit/%compare in a cell)")):
            for (label, ns_off), (_, ns_on) in zip(off, mode):
                what = label.rsplit(", ", 1)[1]
                print(f"recording {name}, {what}: {ns_on - ns_off:+5.1f} ns per call "
                      f"({ns_on / ns_off - 1:+.0%} of Kiln's dispatch with recording off)")
        print("recording off (the switch: one load and a branch) is Kiln's plain dispatch above")
    from kiln.magics import records
    per_cell = min(timeit.repeat("with records.recording_calls(): records.since(records.snapshot())",
                                 globals={"records": records}, repeat=5, number=10_000)) / 10_000 * 1e6
    print(f"per-cell bookkeeping of the footer (switch on/off + snapshot + delta): {per_cell:.2f} µs per cell")


if __name__ == "__main__":
    main()
