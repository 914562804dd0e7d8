"""The C profiler through its Python face: compile records read back as
written, call totals summed over threads, and bad input refused with a clear
error while the records stay intact."""
import threading

import pytest

import _kiln
from kiln.magics import records


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
    assert delta.calls == 0 and not records.since(records.snapshot())


def test_calls_from_many_threads_all_count():
    before = records.snapshot()

    def work():
        for _ in range(20_000):
            _kiln.profiler_record_call(1_000)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    delta = records.since(before)
    assert delta.calls == 80_000
    assert delta.call_seconds == pytest.approx(80_000 * 1e-6)


def test_timing_a_call_adds_one_call_per_iteration():
    before = records.snapshot()
    assert _kiln.profiler_time_record_call(1000) > 0
    assert records.since(before).calls == 1000


@pytest.mark.parametrize("args, error, message", [
    (("f", "()", "cpu", {"parse": -1.0}), ValueError, "phase parse must be >= 0"),
    (("f", "()", "cpu", {"typing": "fast"}), TypeError, "must be real number"),
    (("f", "()", "cpu", [0.1]), TypeError, "must be dict"),
])
def test_bad_compile_records_are_refused_and_nothing_is_recorded(args, error, message):
    before = records.snapshot()
    with pytest.raises(error, match=message):
        _kiln.profiler_record_compile(*args)
    assert records.since(before).compiles == []


def test_bad_call_records_are_refused():
    with pytest.raises(OverflowError):
        _kiln.profiler_record_call(-5)
    with pytest.raises(ValueError, match="n must be > 0"):
        _kiln.profiler_time_record_call(0)


def test_host_info_is_llvms_view_of_this_machine():
    info = _kiln.host_info()
    assert info["cpu_name"] and info["target_triple"]
    assert info["llvm_version"][0] == 19
    assert all(f[0] in "+-" for f in info["cpu_features"].split(","))


def test_concurrent_records_without_the_gil_are_all_counted():
    # ctypes releases the GIL around each foreign call, so these threads
    # really call kp_record_call at the same time, as nogil code would.
    import ctypes
    lib = ctypes.CDLL(_kiln.__file__)
    lib.kp_record_call.argtypes = [ctypes.c_uint64]
    lib.kp_record_call_ticks.argtypes = [ctypes.c_uint64]
    before = records.snapshot()

    def work(record):
        for _ in range(50_000):
            record(1_000)

    threads = [threading.Thread(target=work, args=(f,)) for f in (lib.kp_record_call, lib.kp_record_call_ticks) * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    delta = records.since(before)
    assert delta.calls == 300_000
    # 150,000 calls of 1,000 ns, plus 150,000 of 1,000 ticks: more than nothing,
    # less than 1,000 ns each (the TSC ticks at GHz rates; kp_now_ns at 1 per ns).
    ns_part = 150_000 * 1e-6
    assert ns_part < delta.call_seconds <= 2 * ns_part + 1e-9


def test_the_dispatcher_counts_calls_only_while_recording_is_on():
    import kiln

    @kiln.jit
    def twice(x):
        return 2 * x

    assert twice(3) == 6  # compiled outside any recording
    before = records.snapshot()
    for i in range(5):
        twice(i)
    assert records.since(before).calls == 0  # a script pays nothing and is told nothing
    with records.recording_calls():
        with records.recording_calls():  # nested users: the inner one leaving does not stop the outer
            twice(1)
        for i in range(4):
            assert twice(-i) == -2 * i
        delta = records.since(before)
    assert delta.calls == 5 and delta.call_seconds > 0
    twice(2)
    assert records.since(before).calls == 5


def test_switching_off_recording_that_was_never_on_is_refused():
    with pytest.raises(ValueError, match="was not switched on"):
        _kiln.profiler_record_calls(False)
    before = records.snapshot()
    _kiln.profiler_record_call(1_000)  # explicit records still count, switch or not
    assert records.since(before).calls == 1


def test_calls_in_loops_that_time_themselves_are_counted_untimed():
    import kiln

    @kiln.jit
    def halve(x):
        return x / 2

    halve(1.0)
    before = records.snapshot()
    with records.untimed_calls():  # recording is off: nothing to count
        halve(1.0)
    assert not records.since(before)
    with records.recording_calls():
        halve(2.0)
        with records.untimed_calls():
            with records.untimed_calls():
                assert halve(3.0) == 1.5
            halve(4.0)
        halve(5.0)
    delta = records.since(before)
    assert (delta.calls, delta.untimed_calls) == (2, 2)
    with pytest.raises(ValueError, match="profiler_untime_calls.False.: it was not switched on"):
        _kiln.profiler_untime_calls(False)
