"""What Kiln's per-call recording costs, against what a call costs.

While a notebook cell runs (kiln.ipython switches it on for the cell, whose
footer shows it), every call of compiled code is counted exactly in its
specialization's record (profiler/calls.c). The first calls of a function
in a cell are timed one by one (two TSC reads); once they show it runs
under 1 µs, about one call in 128 is timed and the rest estimated (the
footer then writes "≈"); longer calls are all timed. In a cell, %timeit and
%compare only count their loops' calls. Outside a cell (scripts, tests,
benchmarks) the dispatcher only loads the switch and branches past it.

This prints, in one run: what each candidate part costs in C (clocks,
bookkeeping designs), Kiln's dispatch of short calls (a float argument and
a small array, the courses' usual call) and of a long one (a 5,000-element
loop) with recording off, on (a cell) and counted (%timeit), Numba's
dispatch for scale, the ratios, and the footer's per-cell bookkeeping.

    KILN_BUILD_DIR=build /usr/bin/python3 bench/profiler_overhead.py
"""
import contextlib
import os
import sys
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")), "python"),
                os.path.join(ROOT, "python")]

import numpy as np  # noqa: E402

import _kiln  # noqa: E402


def identity(x):
    return x


def first(a):
    return a[0]


def total(a):
    s = 0.0
    for x in a:
        s += x
    return s


# (function, argument, label, calls per timing): short calls, then a long one
WORKLOADS = ((identity, 1.0, "short: identity(float)", 300_000),
             (first, np.ones(100), "short: first(float64[:])", 300_000),
             (total, np.ones(5_000), "long: total(float64[5000])", 10_000))


def per_call_ns(fn, arg, number):
    """One timing of `number` calls, in ns per call."""
    return timeit.Timer("fn(arg)", globals={"fn": fn, "arg": arg}).timeit(number) / number * 1e9


def dispatches(jit, modes, rounds=25):
    """{(mode, workload label): ns per call} for `jit` of each workload, in
    each of `modes` ({mode: profiler switches, context-manager factories}):
    the best of `rounds`, the modes of one workload timed in turn (a few ms
    each) so that a busy spell of the (shared) machine hits them alike."""
    compiled = []
    for fn, arg, what, number in WORKLOADS:
        compiled.append((jit(fn), arg, what, number))
        compiled[-1][0](arg)
    best = {}
    for _ in range(rounds):
        for fn, arg, what, number in compiled:
            for mode, switches in modes.items():
                with contextlib.ExitStack() as stack:
                    for switch in switches:
                        stack.enter_context(switch())
                    ns = per_call_ns(fn, arg, number)
                best[(mode, what)] = min(best.get((mode, what), ns), ns)
    return best


def print_part_costs():
    costs = {}
    for _ in range(3):
        for part, ns in _kiln.profiler_costs(2_000_000).items():
            costs[part] = min(costs.get(part, ns), ns)
    call = costs.pop("empty call")
    print(f"What each part of recording one call costs, in C, beyond an empty indirect call ({call:.1f} ns):")
    for part, ns in costs.items():
        print(f"  {part:45s} {ns - call:+6.1f} ns")
    print()


def main():
    print_part_costs()
    import kiln
    from kiln.magics import records

    modes = {"off (script, test, bench)": (),
             "recorded (a notebook cell)": (records.recording_calls,),
             "counted (%timeit in a cell)": (records.recording_calls, records.untimed_calls)}
    kiln_ns = dispatches(kiln.jit, modes)
    try:
        import numba
        numba_ns = dispatches(numba.njit, {"numba": ()}, rounds=5)
    except ImportError as exc:
        print(f"numba not importable ({exc})")
        numba_ns = {}

    print("ns per call, Kiln's recording modes side by side (ratio to recording off)")
    header = "".join(f"{mode:>30s}" for mode in modes) + f"{'numba.njit':>14s}"
    print(f"  {'':28s}{header}")
    for _, _, what, _ in WORKLOADS:
        off = kiln_ns[(next(iter(modes)), what)]
        cells = "".join(f"{f'{kiln_ns[(mode, what)]:.1f} ns ({kiln_ns[(mode, what)] / off:.3f}x)':>30s}"
                        for mode in modes)
        numba_cell = f"{numba_ns[('numba', what)]:11.1f} ns" if numba_ns else ""
        print(f"  {what:28s}{cells}{numba_cell}")
    recorded = "recorded (a notebook cell)"
    for _, _, what, _ in WORKLOADS:
        off, on = kiln_ns[("off (script, test, bench)", what)], kiln_ns[(recorded, what)]
        print(f"recording in a cell, {what}: {on - off:+6.1f} ns per call ({on / off - 1:+.1%} of the dispatch)")

    per_cell = min(timeit.repeat("with records.recording_calls(): records.since(records.snapshot())",
                                 globals={"records": records}, repeat=5, number=10_000)) / 10_000 * 1e6
    print(f"per-cell bookkeeping of the footer (switch on/off + snapshot + delta): {per_cell:.2f} µs per cell")


if __name__ == "__main__":
    main()
