"""What each kiln.cuda.jit launch leaves behind, on the GPU or the CUDA
simulator: a launch record (the simulator's marked simulated, with the
host's time and no made-up GPU facts) that the cell footer words; and
shared memory that belongs to one launch, so two Python threads running
the same kernel at once do not see each other's tiles."""
import re
import threading

import numpy as np
import pytest
from _kiln import cuda_sim_totals

import seed_kernels as sk
from kiln import cuda
from kiln.cuda.report import format_text, summarize


def test_every_launch_is_recorded_with_its_configuration():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    cuda.take_records()
    sk.add_kernel[(8,), (64, 2)](x, x, out)
    sk.add_kernel[3, 32](cuda.to_device(x), x, out)
    launches = cuda.take_records()["launches"]
    assert [(l["kernel"], l["grid"], l["block"]) for l in launches] == [
        ("add_kernel", (8, 1, 1), (64, 2, 1)), ("add_kernel", (3, 1, 1), (32, 1, 1))]
    for launch in launches:
        if cuda.is_available():
            assert launch["simulated"] is False and launch["registers"] > 0 and launch["kernel_ms"] > 0
        else:
            assert launch["simulated"] is True and launch["host_ms"] > 0
            assert launch["registers"] is None and launch["occupancy"] is None and launch["kernel_ms"] is None


def test_a_launch_that_raises_is_recorded_too():
    x = np.zeros(4, dtype=np.float32)
    cuda.take_records()
    try:
        sk.add_kernel_indices[1, 8](x, x, x[:2])   # threads 2..3 write past out
    except IndexError:
        pass
    assert [l["kernel"] for l in cuda.take_records()["launches"]] == ["add_kernel_indices"]


def test_simulated_launches_are_worded_as_such():
    launch = {"kernel": "k", "grid": (2, 1, 1), "block": (100, 1, 1), "shared_bytes": 0, "registers": None,
              "local_bytes": None, "occupancy": None, "kernel_ms": None, "simulated": True, "host_ms": 1.5}
    transfers = [{"direction": "htod", "bytes": 1 << 20, "seconds": 0.01, "async": False}]
    summary = summarize({"launches": [launch], "transfers": transfers}, multiprocessors=None)
    text = format_text(summary)
    assert text.startswith("k[(2, 1, 1), (100, 1, 1)]: simulated on the CPU in 1.500 ms")
    # A simulated kernel has no GPU time to set copies against; a partial warp is still worth saying.
    assert not any("keep arrays on the GPU" in w for w in summary["warnings"])
    assert any("100 threads" in w for w in summary["warnings"])


def test_a_simulated_launch_counts_its_work_and_says_what_an_h100_would_take():
    if cuda.is_available():
        pytest.skip("a GPU launch is timed by CUDA events, not estimated")
    n, tiles = 1000, 2
    x = np.arange(n, dtype=np.float32)
    a = np.ones((sk.TPB * tiles, sk.TPB * tiles), np.float32)
    cuda.take_records()
    before = cuda_sim_totals()
    sk.add_kernel[4, 64](x, x, np.zeros_like(x))
    sk.fast_matmul[(tiles, tiles), (sk.TPB, sk.TPB)](a, a, np.zeros_like(a))
    add, matmul = cuda.take_records()["launches"]
    # one float32 add, two loads and a store of 4 bytes per element; the arrays are 12,000 bytes on the host
    assert add["work"] == {"flops32": n, "flops64": 0, "global_bytes": 12 * n, "shared_bytes": 0,
                           "host_bytes": 12 * n}
    threads, k = (sk.TPB * tiles) ** 2, sk.TPB * tiles
    # each thread: a float32 multiply and a float64 add per k; two tiles' worth of global loads, one store
    w = matmul["work"]
    assert (w["flops32"], w["flops64"]) == (threads * k, threads * k)
    assert w["global_bytes"] == threads * (2 * tiles * 4 + 4)
    assert w["shared_bytes"] == threads * tiles * (2 * 4 + 2 * sk.TPB * 4)
    after = cuda_sim_totals()
    assert after["launches"] - before["launches"] == 2
    assert after["flops32"] - before["flops32"] == n + threads * k
    line = format_text(summarize({"launches": [add], "transfers": []})).splitlines()[0]
    assert re.fullmatch(r"add_kernel\[\(4, 1, 1\), \(64, 1, 1\)\]: simulated on the CPU in [\d.]+ ms, not GPU "
                        r"time; an H100 would take about 6 µs \(an estimate from the launch, 11\.7 KiB moved "
                        r"and 1,000 float operations\) plus about 2\.4 µs copying NumPy arrays in and back", line), line


def test_two_threads_run_a_shared_memory_kernel_at_once():
    n = sk.TPB * 6
    rng = np.random.default_rng(3)
    pairs = [(rng.standard_normal((n, n)).astype(np.float32), rng.standard_normal((n, n)).astype(np.float32))
             for _ in range(2)]
    sk.fast_matmul[(1, 1), (sk.TPB, sk.TPB)](*pairs[0], np.zeros((n, n), np.float32))   # compile first
    failures = []

    def work(a, b):
        expected = a @ b
        for _ in range(6):
            c = np.zeros((n, n), np.float32)
            sk.fast_matmul[(n // sk.TPB, n // sk.TPB), (sk.TPB, sk.TPB)](a, b, c)
            if not np.allclose(c, expected, rtol=1e-4, atol=1e-3):
                failures.append(np.abs(c - expected).max())

    threads = [threading.Thread(target=work, args=pair) for pair in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_a_loop_of_launches_is_one_footer_line():
    def gpu(ms):
        return {"kernel": "k", "grid": (1, 1, 1), "block": (32, 1, 1), "shared_bytes": 0, "registers": 8,
                "local_bytes": 0, "occupancy": 0.5, "kernel_ms": ms, "simulated": False, "host_ms": None}
    other = dict(gpu(0.25), grid=(2, 1, 1))
    text = format_text(summarize({"launches": [gpu(0.5), gpu(1.0), gpu(None), other], "transfers": []}))
    assert text.splitlines() == [
        "k[(1, 1, 1), (32, 1, 1)]: 3 launches, 1.500 ms in the 2 timed, 8 registers/thread, occupancy 50%",
        "k[(2, 1, 1), (32, 1, 1)]: 0.250 ms, 8 registers/thread, occupancy 50%"]
    x = np.zeros(8, dtype=np.float32)
    cuda.take_records()
    for _ in range(5):
        sk.add_kernel[1, 8](x, x, x)
    (line,) = format_text(summarize(cuda.take_records())).splitlines()[:1]
    assert line.startswith("add_kernel[(1, 1, 1), (8, 1, 1)]: 5 launches, ")
