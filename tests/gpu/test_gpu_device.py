"""On a real GPU: kernels from Kiln's PTX launched through Kiln's driver
layer, checked against NumPy; launch records; device properties; out of
memory; a kernel fault, its error, and a process that keeps running. Skips without a GPU."""
import os
import subprocess
import sys

import numpy as np
import pytest

import _kiln
import ir_kernels
from kiln import cuda
from kiln.cuda import RawKernel, compile_ptx_from_ir

pytestmark = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA GPU in this process")

rng = np.random.default_rng(11)


def kernel(ir, name, link=()):
    return RawKernel(compile_ptx_from_ir(ir, name, link=link), name)


@pytest.fixture(scope="module")
def add():
    return kernel(ir_kernels.ADD, "add")


@pytest.mark.parametrize("n,grid,block", [(100_000, 30, 128), (1, 1, 32), (0, 4, 64), (1 << 20, 264, 256),
                                          (1000, (2, 1, 1), (64, 1, 1))])
def test_grid_stride_add_with_device_arrays(add, n, grid, block):
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = cuda.device_array_like(x)
    out.copy_to_device(np.full(n, np.nan, dtype=np.float32))  # every element must be written
    add[grid, block](cuda.to_device(x), cuda.to_device(y), out, np.int64(n))
    np.testing.assert_array_equal(out.copy_to_host(), x + y)


def test_host_arrays_are_copied_in_and_back_and_recorded(add):
    n = 4096
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    cuda.take_records()
    add[16, 128](x, y, out, n)
    np.testing.assert_array_equal(out, x + y)
    records = cuda.take_records()
    directions = [(t["direction"], t["bytes"]) for t in records["transfers"]]
    assert directions.count(("htod", 4 * n)) == 3 and directions.count(("dtoh", 4 * n)) == 3
    (launch,) = records["launches"]
    assert launch["kernel"] == "add" and launch["grid"] == (16, 1, 1) and launch["block"] == (128, 1, 1)
    assert launch["registers"] > 0 and 0 < launch["occupancy"] <= 1 and launch["kernel_ms"] > 0


def test_libdevice_math_matches_numpy():
    sin_scale = kernel(ir_kernels.SIN, "sin_scale")
    x = rng.uniform(-50, 50, 10_001)
    out = np.empty_like(x)
    sin_scale[40, 256](x, out, x.size, -2.5)
    np.testing.assert_allclose(out, np.sin(x) * -2.5, rtol=1e-14, atol=1e-14)


def test_xoroshiro_on_the_gpu_draws_numbas_numbers():
    uniform = kernel(ir_kernels.UNIFORM, "uniform", link=(_kiln.cuda_xoroshiro_ir(True),))
    n, draws = 24 * 64, 5
    states = cuda.random.create_xoroshiro128p_states(n, seed=1)
    host_states = states.copy_to_host()
    out = cuda.device_array(n, dtype=np.float32)
    uniform[24, 64](states, out, n, draws)
    expected = np.empty(n, dtype=np.float32)
    for i in range(n):
        for _ in range(draws):
            expected[i] = cuda.random.xoroshiro128p_uniform_float32(host_states, i)
    np.testing.assert_array_equal(out.copy_to_host(), expected)
    np.testing.assert_array_equal(states.copy_to_host(), host_states)  # states advanced alike


def test_xoroshiro_normal_on_the_gpu():
    normal = kernel(ir_kernels.NORMAL, "normal", link=(_kiln.cuda_xoroshiro_ir(True),))
    n = 4096
    states = cuda.random.create_xoroshiro128p_states(n, seed=2024)
    host_states = states.copy_to_host()
    out = cuda.device_array(n, dtype=np.float64)
    normal[16, 256](states, out, n)
    expected = [cuda.random.xoroshiro128p_normal_float64(host_states, i) for i in range(n)]
    # libdevice's log/cos/sqrt against the C library's: a few ulps apart
    np.testing.assert_allclose(out.copy_to_host(), expected, rtol=1e-13, atol=1e-13)
    got = out.copy_to_host()
    assert abs(got.mean()) < 0.1 and 0.95 < got.std() < 1.05


def test_shared_memory_histogram_with_atomics():
    histogram = kernel(ir_kernels.HISTOGRAM, "histogram")
    values = rng.integers(-3, 19, 100_000).astype(np.int32)  # some outside the 16 bins
    out = cuda.to_device(np.zeros(16, dtype=np.int32))
    histogram[30, 128](cuda.to_device(values), values.size, out)
    expected = np.bincount(values[(values >= 0) & (values < 16)], minlength=16)
    np.testing.assert_array_equal(out.copy_to_host(), expected)
    assert histogram.shared_bytes == 64


def test_dynamic_shared_memory_from_the_launch():
    reverse = kernel(ir_kernels.REVERSE_DYNAMIC, "reverse_blocks")
    block, blocks = 128, 6
    x = rng.standard_normal(block * blocks).astype(np.float32)
    out = cuda.device_array_like(x)
    reverse[blocks, block, 0, block * 4](cuda.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), x.reshape(blocks, block)[:, ::-1].ravel())
    assert reverse.occupancy(block, block * 4)["occupancy"] > 0


def test_kernel_attributes_and_occupancy(add):
    assert 0 < add.registers <= 255 and add.local_bytes == 0
    occ = add.occupancy(256)
    assert occ["blocks_per_multiprocessor"] >= 1 and 0 < occ["occupancy"] <= 1
    assert "add" in add.inspect_ptx()


def test_stream_launch_and_event_timing(add):
    n = 1 << 22
    s = cuda.stream()
    x = cuda.to_device(np.ones(n, dtype=np.float32), stream=s)
    out = cuda.device_array(n, dtype=np.float32, stream=s)
    start, end = cuda.event(), cuda.event()
    start.record(stream=s)
    add[264, 256, s](x, x, out, n)
    end.record(stream=s)
    end.synchronize()
    assert start.elapsed_time(end) > 0
    host = cuda.pinned_array(n, dtype=np.float32)
    out.copy_to_host(host, stream=s)
    s.synchronize()
    assert (host == 2).all()


def test_bad_launch_configurations_are_clear_errors(add):
    x = cuda.device_array(10, dtype=np.float32)
    with pytest.raises(ValueError, match="at most 1024 per block"):
        add[1, (32, 32, 2)](x, x, x, 10)
    with pytest.raises(ValueError, match="grid"):
        add[0, 32](x, x, x, 10)
    with pytest.raises(ValueError, match="copy it to the GPU first"):
        add.function.launch(1, 32, (np.zeros(4), x, x, 4))
    add[1, 32](x, x, x, 10)  # still works


def test_device_properties():
    (gpu, *_) = cuda.gpus
    assert gpu.name and gpu.compute_capability >= (7, 0) and gpu.MULTIPROCESSOR_COUNT > 0
    free, total = cuda.memory_info()
    assert 0 < free <= total
    assert cuda.detect() is True


def test_out_of_memory_names_the_size_and_loses_nothing():
    keep = cuda.to_device(np.arange(10))
    with pytest.raises(cuda.CudaMemoryError, match=r"asked for 1024\.00 GiB \(1099511627776 bytes\)"):
        cuda.device_array(1 << 37, dtype=np.float64)
    with pytest.raises(MemoryError):
        cuda.device_array(1 << 37, dtype=np.float64)
    np.testing.assert_array_equal(keep.copy_to_host(), np.arange(10))


FAULT_SCRIPT = r"""
import numpy as np
import _kiln, ir_kernels
from kiln import cuda
from kiln.cuda import RawKernel, compile_ptx_from_ir
wild = RawKernel(compile_ptx_from_ir(ir_kernels.FAULT, "wild_store"), "wild_store")
add = RawKernel(compile_ptx_from_ir(ir_kernels.ADD, "add"), "add")
old = cuda.to_device(np.arange(8, dtype=np.float32))
generation = _kiln.cuda_context_generation()
wild[1, 1](1 << 47)
try:
    cuda.synchronize()
    print("no fault")
except cuda.CudaFaultError as e:
    print("FAULT", e)
print("generation bumped", _kiln.cuda_context_generation() == generation + 1)
print("old valid", old.is_valid)
try:
    old.copy_to_host()
except cuda.CudaError as e:
    print("OLD", e)
try:
    add[1, 32](old, old, old, 8)
    print("STALE launched")
except cuda.CudaError as e:
    print("STALE", e)
x = np.arange(1000, dtype=np.float32)
out = np.zeros_like(x)
try:
    add[4, 128](x, x, out, x.size)  # reloads the module if the driver gave a new context
    print("NEXT ran", bool((out == 2 * x).all()))
except cuda.CudaFaultError as e:
    print("NEXT refused", e)
print("cpu still works", int(np.arange(1000).sum()) == 499500)
"""


def test_fault_names_the_kernel_and_the_process_survives():
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here] + sys.path))
    done = subprocess.run([sys.executable, "-c", FAULT_SCRIPT], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    fault = next(line for line in lines if line.startswith("FAULT"))
    assert "kernel 'wild_store' faulted" in fault and "CUDA_ERROR_ILLEGAL_ADDRESS" in fault
    assert "generation bumped True" in lines
    assert "old valid False" in lines
    assert any(line.startswith("OLD") and "no longer valid" in line for line in lines)
    (stale,) = [line for line in lines if line.startswith("STALE")]
    assert "no longer valid" in stale or "restart the kernel" in stale
    # Either the driver gave Kiln a fresh context and the next launch is
    # right, or (CUDA drivers so far) the GPU is refused with what to do.
    (after,) = [line for line in lines if line.startswith("NEXT")]
    assert after == "NEXT ran True" or ("restart the kernel" in after and "'wild_store'" in after)
    assert lines[-1] == "cpu still works True"


def test_real_launch_summary_warns_like_a_teacher(add):
    from kiln.cuda.report import format_text, summarize
    n = 1 << 20
    x = np.ones(n, dtype=np.float32)
    out = np.empty_like(x)
    cuda.take_records()
    add[4, 100](x, x, out, n)  # host arrays, a tiny grid, a partial warp
    assert (out == 2).all()
    summary = summarize(cuda.take_records(), multiprocessors=cuda.gpus[0].MULTIPROCESSOR_COUNT,
                        ptx_by_kernel={"add": add.inspect_ptx()})
    text = format_text(summary)
    assert text.startswith("add[(4, 1, 1), (100, 1, 1)]: ") and "12.0 MiB to the GPU, 12.0 MiB back" in text
    assert len(summary["warnings"]) == 2 + (summary["transfer_ms"] > summary["kernel_ms"]), summary["warnings"]
    assert any("multiprocessors" in w for w in summary["warnings"])
    assert any("warps" in w for w in summary["warnings"]) and not any("float64" in w for w in summary["warnings"])


def test_launch_records_time_the_first_256_and_count_the_rest(add):
    x = cuda.device_array(256, dtype=np.float32)
    x.copy_to_device(np.zeros(256, dtype=np.float32))
    cuda.take_records()
    for _ in range(1100):
        add[1, 32](x, x, x, 256)
    records = cuda.take_records()
    launches = records["launches"]
    assert len(launches) == 1024 and records["launches_dropped"] == 1100 - 1024
    assert all(r["kernel_ms"] is not None and r["kernel_ms"] > 0 for r in launches[:256])
    assert all(r["kernel_ms"] is None for r in launches[256:])


def test_cell_summary_finds_the_kernels_ptx(add):
    from kiln.cuda.report import cell_summary
    sin_scale = kernel(ir_kernels.SIN, "sin_scale")
    x = cuda.to_device(np.linspace(0, 1, 1 << 16))
    cuda.take_records()
    sin_scale[264, 256](x, x, x.size, 2.0)
    summary = cell_summary()
    assert [launch["kernel"] for launch in summary["launches"]] == ["sin_scale"]
    assert any(w.startswith("sin_scale:") and "float64" in w for w in summary["warnings"])


def test_numba_context_and_device_queries():
    info = cuda.current_context().get_memory_info()
    assert 0 < info.free <= info.total and info == cuda.memory_info()
    assert cuda.select_device(0).name == cuda.gpus[0].name
    with pytest.raises(cuda.CudaSupportError, match="GPU 0 only"):
        cuda.select_device(1)
