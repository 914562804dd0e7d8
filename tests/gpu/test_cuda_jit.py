"""kiln.cuda.jit: every seed kernel runs (on the GPU when this process has
one, else on the CUDA simulator) and agrees with NumPy; its PTX from LLVM
NVPTX is accepted by ptxas for sm_90; bad indices are IndexErrors naming
the kernel, and the next launch works."""
import math
import warnings

import numpy as np
import pytest

import kiln
import seed_kernels as sk
from kiln import cuda
from test_gpu_ptx import PTXAS, needs_ptxas
import subprocess

RNG = np.random.default_rng(7)


def run_ptxas(ptx, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ---- the seed kernels against NumPy --------------------------------------

@pytest.mark.parametrize("n", [0, 1, 1000, 100_003])
@pytest.mark.parametrize("kernel", [sk.add_kernel, sk.add_kernel_indices])
def test_add_grid_stride(kernel, n):
    x = RNG.standard_normal(n).astype(np.float32)
    y = -2 * x
    out = np.full_like(x, np.nan)
    kernel[30, 128](x, y, out)
    np.testing.assert_array_equal(out, x + y)


def test_add_device_arrays_and_views():
    x = RNG.standard_normal(4001)
    dx, dy = cuda.to_device(x), cuda.to_device(x[::-1].copy())
    dout = cuda.device_array_like(x)
    sk.add_kernel[4, 64](dx, dy, dout)
    np.testing.assert_array_equal(dout.copy_to_host(), x + x[::-1])
    x = x[:4000]
    out = np.zeros(2000)
    sk.add_kernel[4, 64](x[::2], x[1::2], out)   # strided views pass as they are
    np.testing.assert_array_equal(out, x[::2] + x[1::2])


def test_add_integers_wrap():
    x = np.array([2**62, -5, 7], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    sk.add_kernel[1, 32](x, x, out)
    np.testing.assert_array_equal(out, x + x)   # NumPy wraps too


def test_maximum_3d():
    a = RNG.standard_normal((16, 8, 24)).astype(np.float32)
    b = RNG.standard_normal((16, 8, 24)).astype(np.float32)
    c = np.zeros_like(a)
    sk.maximum_6[(2, 1, 3), (8, 8, 8)](a, b, c)
    np.testing.assert_array_equal(c, np.maximum(a, b))


def test_average_sqrt():
    x = RNG.random(50_000)
    partial = np.zeros(30 * 128)
    sk.average_sqrt_kernel[30, 128](x, partial)
    assert math.isclose(partial.sum(), np.sqrt(x).mean(), rel_tol=1e-12)


@pytest.mark.parametrize("kernel", [sk.matmul, sk.fast_matmul])
def test_matmul(kernel):
    n = 4 * sk.TPB
    A = RNG.standard_normal((n, n)).astype(np.float32)
    B = RNG.standard_normal((n, n)).astype(np.float32)
    C = np.zeros((n, n), dtype=np.float32)
    kernel[(4, 4), (sk.TPB, sk.TPB)](cuda.to_device(A), cuda.to_device(B), C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-4)


def test_mandelbrot_device_function_with_argtypes():
    image = np.zeros((48, 64), dtype=np.uint8)
    d_image = cuda.to_device(image)
    lo = np.array([-2.0, 1.0, -1.0, 1.0]).astype("float32")
    sk.create_fractal_kernel[(4, 2), (8, 8)](lo[0], lo[1], lo[2], lo[3], d_image, 20)
    d_image.to_host()
    sx, sy = (lo[1] - lo[0]) / np.float32(64), (lo[3] - lo[2]) / np.float32(48)
    ref = np.array([[sk.mandel(lo[0] + x * sx, lo[2] + y * sy, 20) for x in range(64)] for y in range(48)])
    # kernels contract a * b + c into fma as CUDA C does: a pixel on the
    # set's edge may escape at another iteration than in CPython
    assert np.mean(image != ref) <= 0.005
    assert sk.mandel_gpu(np.float32(0.0), np.float32(0.0), 20) == 20   # a device function runs on the host too


@pytest.mark.parametrize("num", [-7, 0, 1, 2, 11, 12, 7919, 7921])
def test_primes_scalar_argument(num):
    result = np.zeros(1, np.int32)
    sk.check_prime_gpu_kernel[1, 1](num, result)
    expected = num
    for i in range(2, num // 2 + 1):
        if num % i == 0:
            expected = 0
            break
    assert result[0] == expected


def test_histogram_atomics():
    x = RNG.standard_normal(20_000).astype(np.float32)
    h = np.zeros(12, dtype=np.int32)
    sk.histogram[16, 64](x, np.float32(-3), np.float32(3), h)
    width = (np.float32(3) - np.float32(-3)) / np.float32(12)
    bins = ((x - np.float32(-3)) / width).astype(np.int32)
    np.testing.assert_array_equal(h, np.bincount(bins[(bins >= 0) & (bins < 12)], minlength=12))


def test_atomic_counter():
    counter = np.zeros(1, dtype=np.int64)
    sk.thread_counter_safe[7, 96](counter)
    assert counter[0] == 7 * 96


def test_xoroshiro_pi_matches_the_host_generator():
    states = cuda.random.create_xoroshiro128p_states(2 * 32, seed=1)
    host_states = states.copy_to_host()
    out = np.zeros(64, dtype=np.float32)
    sk.compute_pi[2, 32](states, 50, out)
    # the same draws made by kiln.cuda.random's host functions
    expected = []
    for t in range(64):
        inside = 0
        for _ in range(50):
            x = cuda.random.xoroshiro128p_uniform_float32(host_states, t)
            y = cuda.random.xoroshiro128p_uniform_float32(host_states, t)
            inside += x ** 2 + y ** 2 <= 1.0
        expected.append(np.float32(4.0 * inside / 50))
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert abs(out.mean() - math.pi) < 0.2


@cuda.jit
def _draws(states, out32, out64):
    t = cuda.grid(1)
    for k in range(out32.shape[1]):
        out32[t, k] = cuda.random.xoroshiro128p_uniform_float32(states, t)
        out64[t, k] = cuda.random.xoroshiro128p_uniform_float64(states, t)


def test_xoroshiro_draws_are_the_host_generators_bit_for_bit():
    # the float32 draw is made without float64 arithmetic on the device: still Numba's number,
    # the float64 draw rounded to float32
    states = cuda.random.create_xoroshiro128p_states(64, seed=12345)
    host_states = states.copy_to_host()
    out32, out64 = np.zeros((64, 40), dtype=np.float32), np.zeros((64, 40))
    _draws[2, 32](states, out32, out64)
    want32, want64 = np.zeros_like(out32), np.zeros_like(out64)
    for t in range(64):
        for k in range(40):
            want32[t, k] = cuda.random.xoroshiro128p_uniform_float32(host_states, t)
            want64[t, k] = cuda.random.xoroshiro128p_uniform_float64(host_states, t)
    np.testing.assert_array_equal(out32, want32)
    np.testing.assert_array_equal(out64, want64)


def test_polar_distance_tuple_device_function():
    n = 1000
    r1, t1, r2, t2 = (RNG.uniform(-3, 3, n).astype(np.float32) for _ in range(4))
    out = np.zeros(n, dtype=np.float32)
    sk.polar_distance_kernel[4, 256](r1, t1, r2, t2, out)
    ref = np.hypot(r1 * np.cos(t1) - r2 * np.cos(t2), r1 * np.sin(t1) - r2 * np.sin(t2))
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)


# ---- more of the CUDA language -------------------------------------------

@cuda.jit
def atomics_all(a, vals):
    i = cuda.grid(1)
    if i < vals.shape[0]:
        cuda.atomic.max(a, 0, vals[i])
        cuda.atomic.min(a, 1, vals[i])
        cuda.atomic.sub(a, 2, vals[i])
        cuda.atomic.cas(a, 3, i, i + 1)   # only thread 0 sees 0 there


def test_atomics_max_min_sub_cas():
    vals = RNG.integers(-1000, 1000, 300)
    a = np.array([-10**9, 10**9, 0, 0], dtype=np.int64)
    atomics_all[3, 128](a, vals)
    assert list(a[:3]) == [vals.max(), vals.min(), -vals.sum()]
    assert a[3] >= 1


@cuda.jit
def block_reverse(x, out):
    tile = cuda.shared.array(64, np.float64)
    scratch = cuda.local.array((2, 3), dtype=kiln.int64)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    tile[t] = x[base + t]
    scratch[1, 2] = t
    cuda.syncthreads()
    out[base + t] = tile[cuda.blockDim.x - 1 - t] + (scratch[1, 2] - t)


def test_shared_and_local_arrays():
    x = RNG.standard_normal(64 * 5)
    out = np.zeros_like(x)
    block_reverse[5, 64](x, out)
    np.testing.assert_array_equal(out, x.reshape(5, 64)[:, ::-1].ravel())


@cuda.jit
def dynamic_reverse(x, out):
    tile = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    tile[t] = x[t]
    cuda.syncthreads()
    out[t] = tile[cuda.blockDim.x - 1 - t]


def test_dynamic_shared_memory_and_stream():
    x = np.arange(32, dtype=np.float32)
    out = np.zeros_like(x)
    stream = cuda.stream()
    dynamic_reverse[1, 32, stream, 32 * 4](x, out)
    stream.synchronize()
    np.testing.assert_array_equal(out, x[::-1])


@cuda.jit("void(float32[:], float32)")
def scale_declared(x, factor):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= factor


def test_string_signature_converts_arguments():
    x = np.arange(10, dtype=np.float32)
    scale_declared[1, 32](x, 2)          # an int where float32 is declared
    np.testing.assert_array_equal(x, np.arange(10, dtype=np.float32) * 2)
    with pytest.raises(TypeError, match="no signature"):
        scale_declared[1, 32](np.arange(3.0), 2.0)


# ---- errors ----------------------------------------------------------------

@cuda.jit
def off_by_one(x):
    i = cuda.grid(1)
    x[i + 1] = 1.0


@cuda.jit(boundscheck=False)
def unchecked(x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] = i


def test_out_of_bounds_is_an_index_error_and_the_next_launch_works():
    x = np.zeros(64)
    with pytest.raises(IndexError, match=r"index out of bounds \(kernel 'off_by_one' raised in block \(\d+, 0, 0\), thread \(\d+, 0, 0\)\)"):
        off_by_one[2, 32](x)
        cuda.synchronize()
    d = cuda.to_device(x)
    with pytest.raises(IndexError, match="kernel 'off_by_one'"):   # device arrays: found at the copy back
        off_by_one[2, 32](d)
        d.copy_to_host()
    y = np.zeros(64)
    unchecked[2, 32](y)
    np.testing.assert_array_equal(y, np.arange(64.0))


def test_boundscheck_false_has_no_checks():
    unchecked[1, 1](np.zeros(1))
    assert "index out of bounds" not in str(getattr(unchecked._compiled[unchecked.signatures[0]], "sites") or "")
    assert off_by_one.inspect_ptx().count("setp") > unchecked.inspect_ptx().count("setp")


def test_grid_stride_loops_step_without_a_trip_count():
    """A range whose step is a variable (the grid-stride loop) steps its
    index on the GPU targets: no division for a trip count (the driver's
    PTX JIT was slower on it), and one load per operand (unrolled by LLVM it
    ran 20% slower on the H100, bench/gpu/RESULTS.md). A loop with a
    literal step (matmul's k) is still counted and unrolls."""
    add = cuda.jit(boundscheck=False)(sk.add_kernel.py_func)
    v = np.arange(40, dtype=np.float32)
    out = np.zeros_like(v)
    add[2, 8](v, v, out)
    np.testing.assert_array_equal(out, 2 * v)
    assert add.inspect_ptx().count("ld.global.f32") == 2
    assert "div." not in add.inspect_ptx()
    matmul = cuda.jit(boundscheck=False)(sk.matmul.py_func)
    a = np.ones((8, 8), np.float32)
    c = np.zeros_like(a)
    matmul[(1, 1), (8, 8)](a, a, c)
    np.testing.assert_array_equal(c, a @ a)
    assert matmul.inspect_ptx().count("ld.global.f32") > 2


def test_naive_matmul_has_a_copy_of_its_loop_without_checks():
    """The k loop's range proves B[k, col] and A[row, k] in bounds when
    A.shape[1] <= B.shape[0] and row, col are inside: jit/lower/lower_range_checks.c
    emits the loop twice, and the copy without checks unrolls as the
    unchecked kernel does (8 loads), while the other keeps them."""
    a = np.ones((8, 8), np.float32)
    sk.matmul[(1, 1), (8, 8)](a, a, np.zeros_like(a))
    ptx = sk.matmul.inspect_ptx()
    assert ptx.count("ld.global.f32") >= 8 and "atom.global.cas" in ptx


def test_loops_with_a_barrier_are_not_copied():
    """The copy a loop runs in is chosen per thread (row and col differ
    between threads); with cuda.syncthreads() in the loop, threads of one
    block could wait at different barriers, so such a loop stays one."""
    SEED_LAUNCHES["fast_matmul"]()
    assert sk.fast_matmul.inspect_ptx().count("bar.sync") == 2


@cuda.jit
def gather_guarded(out, a, n):
    for k in range(n):
        if k < a.shape[0]:
            out[k] = a[k]
        else:
            out[k] = -1.0


@cuda.jit
def row_sum(out, m, row):
    s = 0.0
    for k in range(m.shape[1]):
        s += m[row, k]
    out[0] = s


@cuda.jit
def copy_first(out, a, n):
    for k in range(n):
        out[k] = a[k]


def test_checks_a_loop_proves_still_hold_where_it_does_not():
    """Each loop runs in its copy without checks where its range and
    indices prove them, else in the checked copy: the results are Python's
    either way, and an access that is out of bounds still raises."""
    a = np.arange(5.0)
    out = np.zeros(8)
    gather_guarded[1, 1](out, a, 8)        # runs past a: the guard keeps it in bounds
    np.testing.assert_array_equal(out, [0, 1, 2, 3, 4, -1, -1, -1])
    gather_guarded[1, 1](out, a, 5)
    np.testing.assert_array_equal(out[:5], a)
    m = np.arange(12.0).reshape(3, 4)
    got = np.zeros(1)
    for row in (0, 2, -1, -3):             # negative rows count from the end, in the checked copy
        row_sum[1, 1](got, m, row)
        assert got[0] == m[row].sum()
    with pytest.raises(IndexError, match="kernel 'row_sum'"):
        row_sum[1, 1](got, m, 3)
        cuda.synchronize()
    dst = np.zeros(6)
    copy_first[1, 1](dst, a, 5)
    np.testing.assert_array_equal(dst[:5], a)
    with pytest.raises(IndexError, match="kernel 'copy_first'"):
        copy_first[1, 1](dst, a, 6)
        cuda.synchronize()


@cuda.jit
def stepped_range(out, start, stop, step):
    n = 0
    for i in range(start, stop, step):
        if n + 1 < out.shape[0]:
            out[n + 1] = i
        i = 0   # rebinding the loop variable does not change the iteration
        n += 1
    out[0] = n


@cuda.jit
def stepped_break_else(out, stop, step):
    out[0] = -1
    for i in range(0, stop, step):
        if i % 2 == 1:
            continue
        if i == 6:
            out[0] = i
            break
    else:
        out[0] = 99


BIG = 2 ** 63 - 1


@pytest.mark.parametrize("start, stop, step", [
    (0, 10, 3), (10, 0, -3), (5, 5, 2), (5, 0, 2), (0, 5, -1), (-7, 20, 4), (3, 4, 7),
    (BIG - 10, BIG, 4), (-BIG + 5, -BIG - 1, -3), (0, BIG, 2 ** 62), (-BIG - 1, BIG, BIG)])
def test_stepped_range_matches_python(start, stop, step):
    out = np.zeros(16, np.int64)
    stepped_range[1, 1](out, start, stop, step)
    expected = list(range(start, stop, step))
    assert out[0] == len(expected)
    np.testing.assert_array_equal(out[1:1 + len(expected)], expected[:15])


@pytest.mark.parametrize("stop, step, expected", [(10, 3, 6), (10, 2, 6), (5, 1, 99), (10, 4, 99)])
def test_stepped_range_break_continue_else(stop, step, expected):
    out = np.zeros(1, np.int64)
    stepped_break_else[1, 1](out, stop, step)
    assert out[0] == expected


@needs_ptxas
def test_stepped_range_ptx_assembles(tmp_path):
    stepped_range[1, 1](np.zeros(4, np.int64), 0, 10, 3)
    stepped_break_else[1, 1](np.zeros(1, np.int64), 10, 3)
    run_ptxas(stepped_range.inspect_ptx(), tmp_path)
    run_ptxas(stepped_break_else.inspect_ptx(), tmp_path)


def test_stepped_range_step_zero_is_a_value_error():
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        stepped_range[1, 1](np.zeros(4, np.int64), 0, 10, 0)
        cuda.synchronize()


@cuda.jit
def returns_value(x):
    return x[0]


def test_a_kernel_returns_nothing():
    with pytest.raises(kiln.TypingError, match="a kernel returns nothing"):
        returns_value[1, 1](np.zeros(1))


@cuda.jit
def shared_with_variable_shape(x, n):
    s = cuda.shared.array(n, np.float32)
    s[0] = x[0]


def test_shared_array_needs_constant_shape():
    with pytest.raises(kiln.TypingError, match="constant shape"):
        shared_with_variable_shape[1, 1](np.zeros(1, np.float32), 4)


def test_intrinsics_outside_kernels():
    with pytest.raises(RuntimeError, match="only be used inside"):
        cuda.grid(1)

    @kiln.jit
    def host(x):
        return cuda.threadIdx.x + x

    with pytest.raises(kiln.TypingError, match="kiln.cuda.jit"):
        host(1)


@cuda.jit("int64(int64)", device=True)
def plus_thread(x):
    return x + cuda.threadIdx.x


@cuda.jit
def call_plus_thread(out):
    out[cuda.threadIdx.x] = plus_thread(10)


def test_declared_gpu_only_device_function_from_python_is_a_clear_error():
    with pytest.raises(TypeError, match="only compiles for the GPU.*call it from a kernel") as info:
        plus_thread(3)
    assert "cuda.threadIdx.x" in str(info.value) and "line" in str(info.value)
    out = np.zeros(4, dtype=np.int64)
    call_plus_thread[1, 4](out)   # kernels still call it
    np.testing.assert_array_equal(out, [10, 11, 12, 13])


def test_launch_configuration_errors():
    with pytest.raises(TypeError, match="launch configuration"):
        sk.add_kernel(np.zeros(1), np.zeros(1), np.zeros(1))
    with pytest.raises(ValueError, match="griddim"):
        sk.add_kernel["a", 1](np.zeros(1), np.zeros(1), np.zeros(1))
    with pytest.raises(TypeError, match="cannot take a str"):
        sk.add_kernel[1, 1]("x", np.zeros(1), np.zeros(1))


def test_unknown_option():
    with pytest.raises(TypeError, match="unknown option"):
        cuda.jit(speed=11)


# ---- PTX -------------------------------------------------------------------

SEED_LAUNCHES = {
    "add_kernel": lambda: sk.add_kernel[1, 32](np.zeros(4, np.float32), np.zeros(4, np.float32),
                                             np.zeros(4, np.float32)),
    "maximum_6": lambda: test_maximum_3d(),
    "average_sqrt_kernel": lambda: test_average_sqrt(),
    "matmul": lambda: test_matmul(sk.matmul),
    "fast_matmul": lambda: test_matmul(sk.fast_matmul),
    "create_fractal_kernel": lambda: None,   # compiled at import, from argtypes
    "check_prime_gpu_kernel": lambda: test_primes_scalar_argument(11),
    "histogram": lambda: test_histogram_atomics(),
    "compute_pi": lambda: test_xoroshiro_pi_matches_the_host_generator(),
    "polar_distance_kernel": lambda: test_polar_distance_tuple_device_function(),
}


@needs_ptxas
@pytest.mark.parametrize("name", sorted(SEED_LAUNCHES))
def test_seed_kernel_ptx_assembles(name, tmp_path):
    SEED_LAUNCHES[name]()
    ptx = getattr(sk, name).inspect_ptx()
    assert f".entry {name}(" in ptx
    run_ptxas(ptx, tmp_path)


# ---- GPU ufuncs (kiln.vectorize(target='cuda')) ------------------------------

def test_gaussian_pdf_ufunc_host_and_device():
    x = RNG.uniform(-3, 3, 100_001).astype(np.float32)
    expected = np.exp(-0.5 * x.astype(np.float64) ** 2) / math.sqrt(2 * math.pi)
    got = sk.gaussian_pdf(x, np.float32(0.0), np.float32(1.0))
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
    d_out = cuda.device_array_like(x)
    same = sk.gaussian_pdf(cuda.to_device(x), np.float32(0.0), np.float32(1.0), out=d_out)
    assert same is d_out
    np.testing.assert_array_equal(d_out.copy_to_host(), got)
    assert sk.gaussian_pdf(np.zeros(0, np.float32), np.float32(0), np.float32(1)).shape == (0,)


def test_polar_distance_ufunc_broadcasts():
    rho1 = RNG.uniform(0, 2, (3, 50)).astype(np.float32)
    theta1 = RNG.uniform(-3, 3, 50).astype(np.float32)     # broadcast along the rows
    got = sk.polar_distance(rho1, theta1, np.float32(1.0), np.float32(0.5))
    ref = np.hypot(rho1 * np.cos(theta1) - np.cos(0.5), rho1 * np.sin(theta1) - np.sin(0.5))
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


def test_prime_ufunc():
    nums = np.arange(-5, 200, dtype=np.int32)
    expected = [n if all(n % i for i in range(2, n // 2 + 1)) else 0 for n in nums]
    np.testing.assert_array_equal(sk.check_prime_gpu(nums), expected)
    with pytest.raises(TypeError, match="no GPU loop"):
        sk.check_prime_gpu(np.arange(3.0))


# ---- introspection ----------------------------------------------------------

def test_registers_and_occupancy_come_from_the_driver():
    sk.add_kernel[1, 32](np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32))
    if not cuda.is_available():
        with pytest.raises(cuda.CudaSupportError, match="simulator"):
            sk.add_kernel.registers
        return
    assert 0 < sk.add_kernel.registers <= 255
    assert sk.add_kernel.local_bytes == 0
    assert sk.fast_matmul.shared_bytes == 2 * sk.TPB * sk.TPB * 4
    occupancy = sk.add_kernel.occupancy(256)
    assert occupancy["blocks_per_multiprocessor"] >= 1 and 0 < occupancy["occupancy"] <= 1.0


@needs_ptxas
def test_gpu_ufunc_kernels_ptx_assembles(tmp_path):
    test_gaussian_pdf_ufunc_host_and_device()
    test_polar_distance_ufunc_broadcasts()
    kernels = list(sk.gaussian_pdf._kernels.values()) + list(sk.polar_distance._kernels.values())
    assert kernels
    for k in kernels:
        run_ptxas(k.inspect_ptx(), tmp_path)


@cuda.jit
def powers(x, n, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] ** n + x[i] ** 2


def test_integer_powers_on_both_targets(tmp_path):
    x = np.arange(-20, 20, dtype=np.int64)
    out = np.zeros_like(x)
    powers[1, 64](x, 3, out)
    np.testing.assert_array_equal(out, x ** 3 + x ** 2)
    if PTXAS:
        run_ptxas(powers.inspect_ptx(), tmp_path)   # the host runtime's ipow, given to the GPU as IR


@kiln.njit
def _grid_on_the_host(n):
    return cuda.grid(1) + n


def test_an_intrinsic_in_host_code_says_where_it_works():
    with pytest.raises(kiln.TypingError) as info:
        _grid_on_the_host(1)
    msg = str(info.value)
    assert "cuda.grid works only in kiln.cuda.jit kernels and device functions" in msg
    assert "return cuda.grid(1) + n" in msg and "Decorate the function with @kiln.cuda.jit." in msg


# ---- work whose result is never used --------------------------------------

@cuda.jit
def _spins(n):
    s = 0.0
    for k in range(n):   # nothing of s leaves the kernel
        s += k * 0.5


@cuda.jit
def _spins_and_writes(n, out):
    s = 0.0
    for k in range(n):
        s += k * 0.5
    out[cuda.grid(1)] = s


def test_a_kernel_whose_loop_writes_nothing_is_named_when_it_compiles():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _spins[1, 4](1000)
        out = np.zeros(4)
        _spins_and_writes[1, 4](1000, out)
    told = [w for w in caught if issubclass(w.category, kiln.UnusedWorkWarning)]
    assert [(w.lineno, str(w.message).split(",")[0]) for w in told] == [
        (_spins.py_func.__code__.co_firstlineno + 3, "_spins returns None and this loop writes nothing a caller sees")]
    np.testing.assert_array_equal(out, sum(k * 0.5 for k in range(1000)))
