"""The C profiler through its Python face: compile records and cache loads
read back as written, calls counted exactly per compiled function (also
from many threads), long calls timed exactly and short ones sampled without
bias, and bad input refused with a clear error while the records stay
intact."""
import gc
import threading
import time

import numpy as np
import pytest

import _kiln
import kiln
from kiln.magics import records


def recorded(fn):
    """The FunctionCalls of the current recording for dispatcher `fn`."""
    found = [f for f in records.calls() if f.function == fn.py_func.__qualname__]
    assert len(found) == 1, records.calls()
    return found[0]


@kiln.jit
def spin(n):
    """About n float steps that LLVM cannot fold: a call as long as we like."""
    s = 0.0
    for _ in range(n):
        s = s * 0.999 + 1.0
    return s


def test_compile_records_read_back_in_order_from_a_snapshot():
    before = records.snapshot()
    _kiln.profiler_record_compile("f", "(float64,)", "cpu", {"parse": 0.001, "codegen": 0.25})
    _kiln.profiler_record_compile("g", "array(float64, 1d, C)", "cuda", {})
    delta = records.since(before)
    assert [c.title for c in delta.compiles] == ["f(float64,)", "g(array(float64, 1d, C))"]
    assert [c.target for c in delta.compiles] == ["cpu", "cuda"]
    assert list(delta.compiles[0].phases) == list(records.PHASES)
    assert delta.compiles[0].phases["codegen"] == pytest.approx(0.25)
    assert delta.compiles[0].seconds == pytest.approx(0.251)
    assert delta.compiles[1].seconds == 0
    assert delta.loads == [] and records.since(records.snapshot()).compiles == []


def test_a_cache_load_is_read_back_apart_from_the_compiles():
    before = records.snapshot()
    _kiln.profiler_record_cache_load("h", "(int64,)", "cpu", 0.003)
    delta = records.since(before)
    assert delta.compiles == [] and delta.compile_seconds == 0
    (load,) = delta.loads
    assert (load.title, load.from_cache, load.phases) == ("h(int64,)", True, {"cache_load": pytest.approx(0.003)})
    assert load.seconds == pytest.approx(0.003)


@pytest.mark.parametrize("record, args, error, message", [
    ("profiler_record_compile", ("f", "()", "cpu", {"parse": -1.0}), ValueError, "phase parse must be >= 0"),
    ("profiler_record_compile", ("f", "()", "cpu", {"typing": "fast"}), TypeError, "must be real number"),
    ("profiler_record_compile", ("f", "()", "cpu", [0.1]), TypeError, "must be dict"),
    ("profiler_record_compile", ("f", "()", "cpu", {"codegen": float("inf")}), ValueError, "and finite"),
    ("profiler_record_compile", ("f", "()", "cpu", {"codegen": float("nan")}), ValueError, "and finite"),
    ("profiler_record_cache_load", ("f", "()", "cpu", -0.5), ValueError, "seconds must be >= 0"),
    ("profiler_record_cache_load", ("f", "()", "cpu", float("inf")), ValueError, "and finite"),
    ("profiler_record_cache_load", ("f", "()", "cpu"), TypeError, "takes exactly 4 arguments"),
])
def test_bad_compile_records_are_refused_and_nothing_is_recorded(record, args, error, message):
    before = records.snapshot()
    with pytest.raises(error, match=message):
        getattr(_kiln, record)(*args)
    delta = records.since(before)
    assert delta.compiles == [] and delta.loads == []


def test_host_info_is_llvms_view_of_this_machine():
    info = _kiln.host_info()
    assert info["cpu_name"] and info["target_triple"]
    assert info["llvm_version"][0] == 19
    assert all(f[0] in "+-" for f in info["cpu_features"].split(","))


def test_the_dispatcher_counts_calls_only_while_recording_is_on():
    @kiln.jit
    def twice(x):
        return 2 * x

    assert twice(3) == 6  # compiled outside any recording
    for i in range(5):
        twice(i)  # a script pays nothing and is told nothing
    with records.recording_calls():
        assert records.calls() == []  # a new recording starts empty
        with records.recording_calls():  # nested users: the inner one leaving does not stop the outer
            twice(1)
        for i in range(4):
            assert twice(-i) == -2 * i
    twice(2)
    calls = recorded(twice)
    assert (calls.calls, calls.untimed, calls.title) == (5, 0, "test_the_dispatcher_counts_calls_only_while_"
                                                         "recording_is_on.<locals>.twice(int64)")
    assert not calls.estimated  # too few calls to sample


def test_switching_off_recording_that_was_never_on_is_refused():
    with pytest.raises(ValueError, match="was not switched on"):
        _kiln.profiler_record_calls(False)
    with pytest.raises(ValueError, match="profiler_untime_calls.False.: it was not switched on"):
        _kiln.profiler_untime_calls(False)


def fastest_call(fn, *args):
    """The shortest of 20 single calls, timed from Python: a lower bound of
    any one call that a busy machine can only make longer."""
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def test_long_calls_are_all_timed_and_the_total_is_exact():
    spin(1)
    with records.recording_calls():
        start = time.perf_counter()
        for _ in range(200):
            spin(3000)  # several µs each: the clock is negligible, every call is timed
        wall = time.perf_counter() - start
    calls = recorded(spin)
    assert calls.calls == 200 and not calls.estimated
    # the compiled code's own time: all 200 calls in it, never more than the loop took
    assert 200 * fastest_call(spin, 3000) / 2 < calls.seconds <= wall


def test_short_calls_are_counted_exactly_and_their_time_estimated():
    spin(1)
    with records.recording_calls():
        start = time.perf_counter()
        for _ in range(100_000):
            spin(30)  # tens of ns: under the clock's own cost, which is taken off
        wall = time.perf_counter() - start
    calls = recorded(spin)
    assert calls.calls == 100_000 and calls.estimated
    assert 0 < calls.seconds < wall


def median_estimate(fn, *patterns, calls=40_000):
    """The median over three recordings of `calls` calls of fn, its
    arguments taken in turn from `patterns`, of their estimated seconds: a
    busy machine may stretch one recording."""
    seconds = []
    for _ in range(3):
        with records.recording_calls():
            for _ in range(calls // len(patterns)):
                for arg in patterns:
                    fn(arg)
        found = recorded(fn)
        assert found.calls == calls
        seconds.append(found.seconds)
    return sorted(seconds)[1]


def test_sampling_is_not_fooled_by_calls_that_alternate_short_and_long():
    # One call in about 128 is timed, at random gaps: a fixed gap (even)
    # would time only the short calls of this period-2 pattern, or only the
    # long ones, and be off by a factor of two or more.
    spin(1)
    short, long_ = median_estimate(spin, 0), median_estimate(spin, 300)
    alternating = median_estimate(spin, 0, 300)
    assert long_ > 3 * short  # the two kinds of call really differ
    assert alternating == pytest.approx((short + long_) / 2, rel=0.3)


def test_a_short_call_is_timed_to_its_end():
    # Twice the steps of a float chain, twice the time: a clock read that ran
    # ahead of the call's last instructions (an unfenced TSC read) would
    # miss a fixed tail of each call and make the shorter one read as nothing.
    spin(1)
    assert median_estimate(spin, 200) / median_estimate(spin, 100) == pytest.approx(2, rel=0.25)


def test_calls_from_many_threads_are_all_counted():
    @kiln.jit(nogil=True)
    def work(n):
        s = 0.0
        for _ in range(n):
            s = s * 0.999 + 1.0  # (an integer sum would fold into a formula and take no time)
        return s

    work(1)

    def caller():
        for _ in range(5_000):
            work(100)

    with records.recording_calls():
        threads = [threading.Thread(target=caller) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    calls = recorded(work)
    assert calls.calls == 20_000 and calls.seconds > 0


def test_calls_in_loops_that_time_themselves_are_counted_untimed():
    @kiln.jit
    def halve(x):
        return x / 2

    halve(1.0)
    with records.untimed_calls():  # recording is off: nothing to count
        halve(1.0)
    with records.recording_calls():
        halve(2.0)
        with records.untimed_calls():
            with records.untimed_calls():
                assert halve(3.0) == 1.5
            halve(4.0)
        halve(5.0)
    calls = recorded(halve)
    assert (calls.calls, calls.untimed) == (2, 2)
    delta = records.since(records.snapshot())
    assert (delta.calls, delta.untimed_calls) == (2, 2)


def test_a_function_freed_while_recording_stays_in_the_report():
    with records.recording_calls():
        @kiln.jit
        def gone(x):
            return x - 1

        assert gone(np.int64(3)) == 2
        assert gone(7) == 6
        name = gone.py_func.__qualname__
        del gone
        gc.collect()
        (calls,) = [f for f in records.calls() if f.function == name]
        assert calls.calls == 2
    with records.recording_calls():  # the next recording lets it go
        assert not [f for f in records.calls() if f.function == name]


def test_the_cost_of_each_part_is_measured_and_bad_counts_refused():
    costs = _kiln.profiler_costs(1000)
    assert {"empty call", "2 x clock_gettime(MONOTONIC)", "record: short calls (sampled)",
            "record: long calls (every call timed)"} <= set(costs)
    assert all(ns > 0 for ns in costs.values())
    with pytest.raises(ValueError, match="n must be > 0"):
        _kiln.profiler_costs(0)
