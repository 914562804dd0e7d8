"""A fault in compiled code (an index far out of bounds, runaway recursion)
raises an exception in the calling thread and the process goes on; a fault
anywhere else still ends the process as it did without Kiln."""
import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import _kiln
import kiln

FAR = 10**10   # 80 GB past an array of doubles: unmapped memory


@kiln.jit
def peek(a, i):
    return a[i]


@kiln.jit
def poke(a, i, value):
    a[i] = value


@kiln.jit
def depth(n):
    if n <= 0:
        return 0
    return 1 + depth(n - 1)


@kiln.jit
def runaway(n):
    if n < 0:   # never: the type of the result comes from here
        return 0
    return 1 + runaway(n + 1)


@kiln.jit(parallel=True)
def total_reaching(a, far):
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        s += a[i + far * (i == a.shape[0] - 1)]   # only the last iteration reaches out
    return s


@kiln.jit(nogil=True)
def peek_nogil(a, i):
    return a[i]


def test_a_read_far_out_of_bounds_raises_memory_fault_and_names_the_cure():
    a = np.arange(10.0)
    with pytest.raises(kiln.MemoryFault) as info:
        peek(a, FAR)
    assert isinstance(info.value, RuntimeError)
    assert "index out of bounds" in str(info.value) and "boundscheck=True" in str(info.value)
    assert peek(a, 3) == 3.0 and peek(a, -1) == 9.0


def test_a_write_far_out_of_bounds_raises_memory_fault_and_leaves_the_array():
    a = np.arange(10.0)
    with pytest.raises(kiln.MemoryFault):
        poke(a, -FAR, 1.0)
    assert np.array_equal(a, np.arange(10.0))
    poke(a, 2, -1.0)
    assert a[2] == -1.0


@kiln.jit
def allocate_then_fault(n, i):
    a = np.ones(n)
    parts = [np.zeros(3), a]
    counts = {1: np.ones(2)}
    b = a * 2
    return b[i] + parts[0][0] + counts[1][0]


@kiln.jit
def allocate_then_recurse(n):
    a = np.ones(n)
    return a[0] + runaway(0)   # its frames allocate nothing: the overflow comes in compiled code


def live_blocks():
    gc.collect()
    s = _kiln.nrt_stats()
    return s["alloc"] - s["free"], s["live_bytes"]


def test_what_a_faulting_call_allocated_is_freed():
    allocate_then_fault(10, 1)
    before = live_blocks()
    for _ in range(3):
        with pytest.raises(kiln.MemoryFault):
            allocate_then_fault(10**6, FAR)   # 8 MB arrays, a list holding one, a dict of arrays
    with pytest.raises(RecursionError):
        allocate_then_recurse(100)
    assert live_blocks() == before
    assert allocate_then_fault(10, 1) == 3.0   # and the runtime goes on
    assert live_blocks() == before


@kiln.njit
def allocate_at_every_level(n):
    if n == 0:
        return 0.0
    a = np.ones(3)
    items = [a[0]]
    return items[0] + allocate_at_every_level(n - 1)


def test_runaway_recursion_that_allocates_raises_recursion_error_and_frees_its_arrays():
    # Overflowing inside malloc would leave malloc's lock held and the next
    # allocation waiting forever: the runtime refuses an allocation when the
    # stack is nearly full instead. In a child process, so that a hang fails
    # the test rather than the suite.
    code = """
import gc, _kiln, numpy as np
from test_faults import allocate_at_every_level, live_blocks
before = live_blocks()
for _ in range(3):
    try:
        allocate_at_every_level(10**7)
    except RecursionError as e:
        assert "compiled code" in str(e), e
    else:
        raise SystemExit("no RecursionError")
assert live_blocks() == before, (live_blocks(), before)
assert allocate_at_every_level(100) == 100.0 and np.ones(4).sum() == 4.0
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.abspath(__file__))] + sys.path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_boundscheck_names_the_index_instead():
    checked = kiln.jit(boundscheck=True)(peek.py_func)
    with pytest.raises(IndexError):
        checked(np.arange(10.0), FAR)


def test_runaway_recursion_raises_recursion_error_and_recursion_still_works():
    with pytest.raises(RecursionError, match="compiled code"):
        runaway(0)
    assert depth(1000) == 1000
    with pytest.raises(RecursionError):   # the stack recovers for the next overflow too
        runaway(0)


def test_a_fault_on_a_worker_thread_stops_the_parallel_loop_and_the_pool_goes_on():
    before = kiln.get_num_threads()
    kiln.set_num_threads(2)
    try:
        a = np.ones(100_000)
        with pytest.raises(kiln.MemoryFault):
            total_reaching(a, FAR)
        assert total_reaching(a, 0) == 100_000.0
        assert total_reaching(a, 0) == 100_000.0
    finally:
        kiln.set_num_threads(before)


def test_a_fault_without_the_gil_in_another_thread_raises_there():
    caught = []

    def call():
        try:
            peek_nogil(np.zeros(4), FAR)
        except kiln.MemoryFault as e:
            caught.append(e)

    threads = [threading.Thread(target=call) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(caught) == 3
    assert peek_nogil(np.arange(4.0), 2) == 2.0


WITH_KILN = """
import kiln
@kiln.jit
def peek(a, i):
    return a[i]
import numpy as np
try:
    peek(np.zeros(3), 10**10)
except kiln.MemoryFault:
    print("caught", flush=True)
"""
OUTSIDE = """
import ctypes
{before}
{kiln}
ctypes.string_at(0)   # a fault in no compiled code
print("survived", flush=True)
"""


@pytest.mark.parametrize("before", ["", "import faulthandler; faulthandler.enable()"],
                         ids=["default", "faulthandler"])
def test_a_fault_outside_compiled_code_ends_the_process_as_without_kiln(before, tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("KILN_BUILD_DIR", os.path.join(root, "build"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(build, "python"), os.path.join(root, "python")]))
    ends = []
    for kiln_part in ("", WITH_KILN):
        script = tmp_path / "outside.py"   # compiled functions need their source in a file
        script.write_text(OUTSIDE.format(before=before, kiln=kiln_part))
        r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
        ends.append((r.returncode, "Fatal Python error: Segmentation fault" in r.stderr))
        assert r.stdout == ("caught\n" if kiln_part else "")
    assert ends[1] == ends[0]
    assert ends[0][0] != 0 and ends[0][1] == bool(before)


@kiln.guvectorize(["void(float64[:], int64, float64[:])"], "(n),()->()")
def pick(a, i, out):
    out[0] = a[i]


def test_a_fault_in_a_ufunc_kernel_raises_through_numpy():
    a = np.arange(5.0)
    with pytest.raises(kiln.MemoryFault):
        pick(a, FAR)
    assert np.array_equal(pick(np.stack([a, -a]), 2), [2.0, -2.0])


def test_a_forked_child_is_guarded_too():
    assert peek(np.arange(3.0), 1) == 1.0   # the parent's thread holds its record before the fork
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: report what the fault raised, then leave at once
        try:
            peek(np.zeros(3), FAR)
            os.write(write_end, b"no error")
        except kiln.MemoryFault:
            os.write(write_end, b"MemoryFault")
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as r:
        reported = r.read()
    _, status = os.waitpid(pid, 0)
    assert reported == b"MemoryFault" and os.WIFEXITED(status)
