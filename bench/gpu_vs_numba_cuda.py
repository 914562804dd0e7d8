"""Kiln's CUDA layer against numba-cuda (and CUDA C where it says so), side
by side in one process on one GPU, with ratios. Run on the GPU machine by
bench/gpu/run.sh. The IR rows are LLVM IR kernels (tests/gpu/ir_kernels.py)
through Kiln's PTX pipeline and launch path; the seed rows are the course's
Python kernels (tests/gpu/seed_kernels.py) through kiln.cuda.jit, against
the same source under numba.cuda.jit (bench/gpu/seed_numba.py), bounds
checks on (Kiln's default) and off.

Measures: launch overhead of an empty kernel taking a device array (also
against CuPy's RawKernel where CuPy is installed); host to
device and back bandwidth (pageable and pinned); the grid-stride add over
2^26 float32 (Kiln IR vs numba-cuda vs nvcc's CUDA C, all timed with CUDA
events, median of 50); first-use time (compile + load + first launch), in
this process and in fresh ones with the driver's PTX cache off;
creating seed 004's 1536 random generator states; seed 004's GPU gufuncs
(l2_norm, matmulcore) against numba.guvectorize(target='cuda'); seed 000's
average_sqrt through kiln.jit(target='cuda') against a kernel by hand.

Writes a JSON of the figures to $OUT/bench_gpu.json when OUT is set."""
import ast
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, os.path.join(HERE, "gpu"))
# KILN_BENCH_SCALE=64 divides the seed kernels' sizes: a dry run of this
# script on the simulator before spending GPU time
SCALE = int(os.environ.get("KILN_BENCH_SCALE", "1"))

import ir_kernels  # noqa: E402
import kiln  # noqa: E402
from kiln import cuda  # noqa: E402
from kiln.cuda import RawKernel, compile_ptx_from_ir  # noqa: E402

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still calls it; NumPy 2.5 dropped it
    np.row_stack = np.vstack
try:
    from numba import cuda as ncuda
except ImportError:  # the table then shows Kiln alone
    ncuda = None

results = {}


def row(what, kiln, peer, unit, peer_name="numba-cuda"):
    results[what] = {"kiln": kiln, peer_name: peer, "unit": unit}
    ratio = f"{peer / kiln:6.2f}x" if peer and kiln else "   -  "
    peer_text = f"{peer:12.3f}" if peer is not None else "           -"
    print(f"{what:<44} {kiln:12.3f} {peer_text} {unit:<6} {ratio} ({peer_name}/kiln)")


def launches_per_us(launch, n=20000, warmup=200):
    for _ in range(warmup if n > warmup else 0):
        launch()
    cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        launch()
    cuda.synchronize()
    return (time.perf_counter() - start) / n * 1e6


def event_median_ms(launch, repeat=50):
    for _ in range(3):
        launch()
    times = []
    for _ in range(repeat):
        start, end = cuda.event(), cuda.event()
        start.record()
        launch()
        end.record()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def bench_launch_overhead():
    empty = RawKernel(compile_ptx_from_ir(ir_kernels.EMPTY, "empty"), "empty")
    d = cuda.device_array(1024, dtype=np.float32)
    launch = empty[1, 1]
    previous = cuda.set_profiling(False)
    kiln_plain = launches_per_us(lambda: launch(d))
    kiln_c = launches_per_us(lambda: empty.function.launch(1, 1, (d,)))
    cuda.set_profiling(True)
    cuda.take_records()
    kiln_timed = launches_per_us(lambda: launch(d), n=50)  # within the first 256: events around each
    kiln_recorded = launches_per_us(lambda: launch(d))  # past them: recorded, not timed
    cuda.take_records()
    cuda.set_profiling(previous)
    peer = None
    if ncuda:
        @ncuda.jit
        def empty_numba(x):
            pass
        nd = ncuda.device_array(1024, dtype=np.float32)
        peer = launches_per_us(lambda: empty_numba[1, 1](nd))
    row("empty launch, device array (records off)", kiln_plain, peer, "us")
    cupy_us = cupy_launch_us()
    if cupy_us is not None:
        row("empty launch, device array (records off)", kiln_plain, cupy_us, "us", "CuPy RawKernel")
    row("empty launch, C path only (records off)", kiln_c, peer, "us")
    row("empty launch, records on (default), long loop", kiln_recorded, peer, "us")
    row("empty launch, recorded and timed by events", kiln_timed, peer, "us")


def cupy_launch_us():
    """The same empty launch through CuPy's RawKernel (CUDA C by NVRTC)."""
    try:
        import cupy
    except ImportError:
        return None
    empty = cupy.RawKernel('extern "C" __global__ void empty(float *x) {}', "empty")
    x = cupy.zeros(1024, dtype=cupy.float32)
    return launches_per_us(lambda: empty((1,), (1,), (x,)))


def bench_transfers():
    """Copies of 256 MiB each way, Kiln and numba-cuda alternating (three
    copies each, five rounds, best round): pageable copies depend on the
    state of the host pages, which the first tool to copy would otherwise
    pay for alone."""
    n = 64 << 20  # 256 MiB of float32
    for label, host in (("pageable", np.ones(n, dtype=np.float32)),
                        ("pinned", cuda.pinned_array(n, dtype=np.float32))):
        host[:] = 1
        d = cuda.device_array(n, dtype=np.float32)
        copies = {"kiln": (lambda: d.copy_to_device(host), lambda: d.copy_to_host(host))}
        if ncuda:
            nd = ncuda.device_array(n, dtype=np.float32)
            copies["numba"] = (lambda: nd.copy_to_device(host), lambda: nd.copy_to_host(host))
        best = {tool: [0.0, 0.0] for tool in copies}
        for _ in range(5):
            for tool, fns in copies.items():
                for k, fn in enumerate(fns):
                    fn()
                    start = time.perf_counter()
                    for _ in range(3):
                        fn()
                    best[tool][k] = max(best[tool][k], 3 * host.nbytes / (time.perf_counter() - start) / 1e9)
        peer = best.get("numba", [None, None])
        row(f"host->device 256 MiB {label}", best["kiln"][0], peer[0], "GB/s")
        row(f"device->host 256 MiB {label}", best["kiln"][1], peer[1], "GB/s")
        print("   (GB/s: higher is better, so the ratio below 1 favours Kiln)")


CUDA_C_ADD = r"""
extern "C" __global__ void add_c(const float *x, const float *y, float *out, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        out[i] = x[i] + y[i];
}
"""


def cuda_c_kernel():
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "add.cu")
        with open(src, "w") as f:
            f.write(CUDA_C_ADD)
        major, minor = cuda.gpus[0].compute_capability
        subprocess.run([nvcc, "-ptx", "-O3", f"-arch=sm_{major}{minor}", "-o", os.path.join(tmp, "add.ptx"), src],
                       check=True)
        with open(os.path.join(tmp, "add.ptx")) as f:
            return RawKernel(f.read(), "add_c")


def bench_add():
    n = 1 << 26
    sms = cuda.gpus[0].MULTIPROCESSOR_COUNT
    grid, block = sms * 16, 256
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    dx, dy, dout = cuda.to_device(x), cuda.to_device(y), cuda.device_array(n, dtype=np.float32)
    add = RawKernel(compile_ptx_from_ir(ir_kernels.ADD, "add"), "add")
    launch = add[grid, block]
    kiln_ms = event_median_ms(lambda: launch(dx, dy, dout, n))
    assert np.array_equal(dout.copy_to_host(), x + y)
    gbs = 3 * 4 * n / (kiln_ms * 1e-3) / 1e9
    print(f"   Kiln add: {kiln_ms:.4f} ms = {gbs:.0f} GB/s (bytes read + written), grid {grid} x {block}")
    c = cuda_c_kernel()
    if c:
        c_launch = c[grid, block]
        c_ms = event_median_ms(lambda: c_launch(dx, dy, dout, n))
        assert np.array_equal(dout.copy_to_host(), x + y)
        row("add 2^26 float32, kernel time", kiln_ms, c_ms, "ms", "CUDA C (nvcc)")
    if ncuda:
        @ncuda.jit
        def add_numba(x, y, out):
            start = ncuda.grid(1)
            stride = ncuda.gridsize(1)
            for i in range(start, x.shape[0], stride):
                out[i] = x[i] + y[i]
        nx, ny, nout = ncuda.to_device(x), ncuda.to_device(y), ncuda.device_array(n, dtype=np.float32)
        numba_ms = event_median_ms(lambda: add_numba[grid, block](nx, ny, nout))
        assert np.array_equal(nout.copy_to_host(), x + y)
        row("add 2^26 float32, kernel time", kiln_ms, numba_ms, "ms")


def bench_first_use():
    x = cuda.device_array(1024, dtype=np.float32)
    ir = ir_kernels.ADD.replace("@add(", "@add_first(")
    start = time.perf_counter()
    ptx = compile_ptx_from_ir(ir, "add_first")
    compiled = time.perf_counter()
    k = RawKernel(ptx, "add_first")
    k[4, 256](x, x, x, 1024)
    cuda.synchronize()
    kiln_s = time.perf_counter() - start
    print(f"   Kiln first use: IR->PTX {1e3 * (compiled - start):.1f} ms, load "
          f"{1e3 * k.module.load_seconds:.1f} ms")
    for what, ir in (("first, reads libdevice's call graph", ir_kernels.SIN),
                     ("another, exp", ir_kernels.SIN.replace("__nv_sin", "__nv_exp"))):
        sin_start = time.perf_counter()
        compile_ptx_from_ir(ir, "sin_scale")
        print(f"   Kiln IR->PTX of a math kernel ({what}): {1e3 * (time.perf_counter() - sin_start):.1f} ms")
    peer = None
    if ncuda:
        @ncuda.jit
        def add_first(x, y, out):
            i = ncuda.grid(1)
            if i < x.shape[0]:
                out[i] = x[i] + y[i]
        nx = ncuda.device_array(1024, dtype=np.float32)
        start = time.perf_counter()
        add_first[4, 256](nx, nx, nx)
        ncuda.synchronize()
        peer = time.perf_counter() - start
    row("first use of a small kernel (compile+load+run)", kiln_s * 1e3, peer * 1e3 if peer else None, "ms")


def seed_source(name):
    """The source of a seed kernel in tests/gpu/seed_kernels.py, its
    @cuda.jit line included, read without importing the module."""
    path = os.path.join(HERE, "..", "tests", "gpu", "seed_kernels.py")
    with open(path) as f:
        text = f.read()
    fn = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == name)
    lines = text.splitlines()
    return "\n".join(lines[fn.decorator_list[0].lineno - 1:fn.end_lineno]) + "\n"


# A course's first GPU cell in a fresh process: the context made by a
# to_device, then the first launch of seed 004's add (compile, load, run).
# Printed: the first launch's time, then import + context. The tool's module
# is substituted for TOOL, the kernel's source for KERNEL.
FRESH_FIRST_CALL = """
import time
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
start = time.perf_counter()
from TOOL import cuda
d = cuda.to_device(np.ones(1 << 20, np.float32))
cuda.synchronize()
ready = time.perf_counter()

KERNEL
t = time.perf_counter()
add_kernel[4, 256](d, d, d)
cuda.synchronize()
print("FIRST", time.perf_counter() - t, ready - start)
"""


def fresh_first_call_ms(tool, runs=3):
    """Median first launch and import + context time (ms) over fresh
    processes, with the driver's PTX cache off (CUDA_CACHE_DISABLE): what
    the very first run of a notebook costs."""
    firsts, readies = [], []
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "first_call.py")   # a file: kiln.cuda.jit reads the kernel's source
        with open(script, "w") as f:
            f.write(FRESH_FIRST_CALL.replace("TOOL", tool).replace("KERNEL", seed_source("add_kernel")))
        for _ in range(runs):
            done = subprocess.run([sys.executable, script], capture_output=True, text=True,
                                  env=dict(os.environ, CUDA_CACHE_DISABLE="1"))
            line = [x for x in done.stdout.splitlines() if x.startswith("FIRST")]
            if not line:
                print(f"   {tool}: the fresh-process run failed: {done.stderr[-300:]}")
                return None, None
            first, ready = map(float, line[0].split()[1:])
            firsts.append(first * 1e3)
            readies.append(ready * 1e3)
    return statistics.median(firsts), statistics.median(readies)


def bench_fresh_first_call():
    kiln_first, kiln_ready = fresh_first_call_ms("kiln")
    peer_first = peer_ready = None
    if ncuda:
        peer_first, peer_ready = fresh_first_call_ms("numba")
    if kiln_first is None:
        return
    row("fresh process: first launch of seed 004's add", kiln_first, peer_first, "ms")
    row("fresh process: import + context", kiln_ready, peer_ready, "ms")


def bench_random_states():
    """Seed 004's 24 x 64 generator states: Numba compiles and runs a
    host-side loop for them, Kiln jumps ahead in C."""
    n = 24 * 64
    start = time.perf_counter()
    cuda.random.create_xoroshiro128p_states(n, seed=1)
    kiln_ms = (time.perf_counter() - start) * 1e3
    peer = None
    if ncuda:
        from numba.cuda.random import create_xoroshiro128p_states
        start = time.perf_counter()
        create_xoroshiro128p_states(n, seed=1)
        peer = (time.perf_counter() - start) * 1e3
    row("create 1536 xoroshiro128p states (first call)", kiln_ms, peer, "ms")


def average_sqrt(Mat):
    avg = 0.
    for x in Mat:
        avg += math.sqrt(x)
    return avg / len(Mat)


def best_ms(call, repeat=10):
    """The best of `repeat` timed calls, waiting for the GPU each time."""
    call()
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def bench_seed_kernels():
    import seed_kernels as sk
    from kiln import cuda as kcuda
    import seed_numba as sn
    nseeds = sn.make(ncuda) if ncuda else None
    sms = cuda.gpus[0].MULTIPROCESSOR_COUNT if cuda.is_available() else 4
    rng = np.random.default_rng(0)

    # launch overhead and first call of a Python kernel
    @kcuda.jit
    def empty_jit(x):
        pass
    d = cuda.device_array(1024, dtype=np.float32)
    start = time.perf_counter()
    empty_jit[1, 1](d)
    cuda.synchronize()
    first = (time.perf_counter() - start) * 1e3
    previous = cuda.set_profiling(False)
    launch = empty_jit[1, 1]
    kiln_us = launches_per_us(lambda: launch(d))
    cuda.set_profiling(previous)
    peer_us = peer_first = None
    if nseeds:
        nd = ncuda.device_array(1024, dtype=np.float32)
        start = time.perf_counter()
        nseeds.empty[1, 1](nd)
        ncuda.synchronize()
        peer_first = (time.perf_counter() - start) * 1e3
        peer_us = launches_per_us(lambda: nseeds.empty[1, 1](nd))
    row("jit: first launch of an empty kernel", first, peer_first, "ms")
    row("jit: empty launch, device array (records off)", kiln_us, peer_us, "us")

    def compare(what, kiln_kernel, numba_kernel, config, host_args, check, unchecked=None):
        dev = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in host_args]
        kiln_ms = event_median_ms(lambda: kiln_kernel[config](*dev), repeat=20)
        check([a.copy_to_host() if hasattr(a, "copy_to_host") else a for a in dev])
        peer = None
        if numba_kernel is not None:
            ndev = [ncuda.to_device(a) if isinstance(a, np.ndarray) else a for a in host_args]
            peer = event_median_ms(lambda: numba_kernel[config](*ndev), repeat=20)
            check([a.copy_to_host() if hasattr(a, "copy_to_host") else a for a in ndev])
        row(what, kiln_ms, peer, "ms")
        if unchecked is not None:
            off = event_median_ms(lambda: unchecked[config](*dev), repeat=20)
            print(f"   boundscheck=False: {off:.4f} ms; the checks cost {100 * (kiln_ms / off - 1):+.1f}%")
        return kiln_ms

    n = (1 << 26) // SCALE
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    grid = (sms * 16, 256)
    add_off = kcuda.jit(boundscheck=False)(sk.add_kernel.py_func)

    def check_add(a):
        assert np.array_equal(a[2], x + y)
    kiln_add = compare("jit: add 2^26 float32 (seed 004)", sk.add_kernel, nseeds and nseeds.add_kernel, grid,
                       [x, y, np.zeros(n, np.float32)], check_add, add_off)
    c = cuda_c_kernel() if cuda.is_available() else None
    if c:
        dx, dy, dout = cuda.to_device(x), cuda.to_device(y), cuda.device_array(n, dtype=np.float32)
        c_ms = event_median_ms(lambda: c[grid](dx, dy, dout, n))
        row("jit: add 2^26 float32 vs CUDA C", kiln_add, c_ms, "ms", "CUDA C (nvcc)")

    m = 2048 // int(SCALE ** 0.5)
    A = rng.standard_normal((m, m)).astype(np.float32)
    B = rng.standard_normal((m, m)).astype(np.float32)
    ref = A.astype(np.float64) @ B.astype(np.float64)

    def check_mm(a):
        assert np.allclose(a[2], ref, rtol=1e-3, atol=1e-2)
    mm_config = ((m // sk.TPB, m // sk.TPB), (sk.TPB, sk.TPB))
    compare("jit: naive matmul 2048 float32 (seed 000)", sk.matmul, nseeds and nseeds.matmul, mm_config,
            [A, B, np.zeros((m, m), np.float32)], check_mm, kcuda.jit(boundscheck=False)(sk.matmul.py_func))
    compare("jit: shared-memory matmul 2048 float32 (seed 000)", sk.fast_matmul, nseeds and nseeds.fast_matmul,
            mm_config, [A, B, np.zeros((m, m), np.float32)], check_mm,
            kcuda.jit(boundscheck=False)(sk.fast_matmul.py_func))

    image = np.zeros((8192 // SCALE, 12288 // SCALE), dtype=np.uint8)
    lo = [np.float32(v) for v in (-2.0, 1.0, -1.0, 1.0)]
    kiln_image = []

    def check_mandel(a):   # Kiln's and numba-cuda's images agree (float32 both)
        kiln_image.append(a[4])
        assert np.array_equal(kiln_image[0], a[4]) or np.mean(kiln_image[0] != a[4]) < 1e-4
    compare("jit: Mandelbrot 8192x12288x200 (seed 000)", sk.create_fractal_kernel,
            nseeds and nseeds.create_fractal_kernel, ((32, 16), (32, 8)), lo + [image, 200], check_mandel)

    g = rng.uniform(-3, 3, 10_000_000 // SCALE).astype(np.float32)
    dg, dout = cuda.to_device(g), cuda.device_array(g.size, dtype=np.float32)
    zero, one = np.float32(0.0), np.float32(1.0)
    kiln_ms = event_median_ms(lambda: sk.gaussian_pdf(dg, zero, one, out=dout), repeat=20)
    assert np.allclose(dout.copy_to_host(), np.exp(-0.5 * g.astype(np.float64) ** 2) / np.sqrt(2 * np.pi),
                       rtol=1e-5, atol=1e-7)
    peer = None
    if nseeds and nseeds.gaussian_pdf:
        ng, nout = ncuda.to_device(g), ncuda.device_array(g.size, dtype=np.float32)
        peer = event_median_ms(lambda: nseeds.gaussian_pdf(ng, zero, one, out=nout), repeat=20)
    row("jit: gaussian_pdf 1e7 float32, device arrays", kiln_ms, peer, "ms")

    # kiln.jit(target='cuda') (seed 000's average_sqrt) against the same sum written as a kernel by hand;
    # both given the host array, so each call copies it in (numba-cuda has no jit(target='cuda'))
    mat = rng.random(10_000_000 // SCALE)
    offloaded = kiln.jit(target="cuda")(average_sqrt)

    @kcuda.jit
    def average_sqrt_kernel(total, x):
        acc = 0.0
        for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
            acc += math.sqrt(x[i])
        cuda.atomic.add(total, 0, acc)

    def by_hand():
        total = np.zeros(1)
        average_sqrt_kernel[sms * 32, 256](total, mat)
        return total[0] / len(mat)
    expect = np.sqrt(mat).mean()
    assert abs(offloaded(mat) - expect) < 1e-9 and abs(by_hand() - expect) < 1e-9
    row("jit(target='cuda'): average_sqrt 1e7, host array", best_ms(lambda: offloaded(mat)),
        best_ms(by_hand), "ms", "kiln.cuda.jit kernel by hand")

    # GPU gufuncs (seed 004): norms of 4e6 2-D points; 1e5 products of 4x4 matrices
    points = rng.standard_normal((4_000_000 // SCALE, 2)).astype(np.float32)
    mats = rng.standard_normal((100_000 // SCALE, 4, 4)).astype(np.float32)
    for what, kiln_gu, peer_gu, args, expect in (
            ("gufunc: l2_norm of 4e6 points, device arrays", sk.l2_norm, nseeds and nseeds.l2_norm, (points,),
             np.linalg.norm(points, axis=1)),
            ("gufunc: matmulcore 1e5 4x4, device arrays", sk.matmulcore, nseeds and nseeds.matmulcore,
             (mats, mats), mats @ mats)):
        dev = [cuda.to_device(a) for a in args]
        dout = cuda.device_array(expect.shape, dtype=np.float32)
        kiln_ms = event_median_ms(lambda: kiln_gu(*dev, out=dout), repeat=20)
        assert np.allclose(dout.copy_to_host(), expect, rtol=1e-4, atol=1e-5)
        peer = None
        if peer_gu:
            ndev = [ncuda.to_device(a) for a in args]
            nout = ncuda.device_array(expect.shape, dtype=np.float32)
            peer = event_median_ms(lambda: peer_gu(*ndev, out=nout), repeat=20)
            assert np.allclose(nout.copy_to_host(), expect, rtol=1e-4, atol=1e-5)
        row(what, kiln_ms, peer, "ms")


def main():
    if not cuda.is_available():
        if SCALE > 1:   # the dry run: every seed row, simulator against Numba's simulator
            bench_seed_kernels()
            return
        print(f"no GPU ({cuda.simulator_reason()}): nothing to measure")
        return
    gpu = cuda.gpus[0]
    print(f"GPU: {gpu.name}, sm_{gpu.compute_capability[0]}{gpu.compute_capability[1]}, "
          f"{gpu.MULTIPROCESSOR_COUNT} SMs; numba-cuda: {'yes' if ncuda else 'not installed'}")
    print(f"{'what':<44} {'kiln':>12} {'peer':>12} unit   ratio")
    bench_first_use()  # first: nothing compiled or loaded yet
    bench_fresh_first_call()
    bench_random_states()
    bench_launch_overhead()
    bench_add()
    bench_seed_kernels()
    bench_transfers()
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "bench_gpu.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
