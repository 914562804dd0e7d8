"""kiln.guvectorize(..., target='cuda'): seed 004's l2_norm and matmulcore
with only the import changed, loop dimensions broadcast, a scalar input,
device arrays in and out, out= and streams, on the GPU or the simulator,
against NumPy; the generated kernel's PTX through ptxas; bad calls refused
with what to do."""
import numpy as np
import pytest

from kiln import cuda, guvectorize
from seed_kernels import l2_norm, matmulcore
from test_cuda_jit import run_ptxas
from test_gpu_ptx import needs_ptxas


@guvectorize(['void(float64[:], float64, float64[:])', 'void(int64[:], int64, int64[:])'], '(n),()->(n)',
             target='cuda')
def scale(vec, factor, out):
    for i in range(vec.shape[0]):
        out[i] = vec[i] * factor


@guvectorize(['void(float32[:], float32[:], float32[:])'], '(n),()->(n)', target='cuda')
def shift(vec, by, out):   # a '()' input declared as an array, as numba's examples write it
    for i in range(vec.shape[0]):
        out[i] = vec[i] + by[0]


RNG = np.random.default_rng(11)


def test_seed_004_l2_norm_of_float64_points_as_the_seed_passes_them():
    angles = RNG.uniform(-np.pi, np.pi, 10)
    coords = np.stack([np.cos(angles), np.sin(angles)], axis=1)   # float64, cast to the float32 loop
    got = l2_norm(coords)
    assert got.dtype == np.float32 and got.shape == (10,)
    np.testing.assert_allclose(got, np.linalg.norm(coords, axis=1), rtol=1e-6)


def test_matmulcore_broadcasts_its_loop_dimensions():
    a = RNG.standard_normal((3, 1, 2, 4)).astype(np.float32)
    b = RNG.standard_normal((5, 4, 3)).astype(np.float32)
    got = matmulcore(a, b)
    assert got.shape == (3, 5, 2, 3)
    np.testing.assert_allclose(got, a @ b, rtol=1e-5, atol=1e-6)


def test_a_scalar_input_and_the_loop_picked_by_dtype():
    vec = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(scale(vec, np.array([1.0, -2.0, 0.5])), vec * [[1.0], [-2.0], [0.5]])
    ints = scale(np.arange(4), 3)
    assert ints.dtype == np.int64
    np.testing.assert_array_equal(ints, np.arange(4) * 3)


def test_device_arrays_in_give_device_arrays_out_and_out_takes_one_on_a_stream():
    a = RNG.standard_normal((6, 3, 3)).astype(np.float32)
    da = cuda.to_device(a)
    got = matmulcore(da, da)
    assert isinstance(got, cuda.DeviceNDArray)
    np.testing.assert_allclose(got.copy_to_host(), a @ a, rtol=1e-5, atol=1e-6)
    stream = cuda.stream()
    out = cuda.device_array((6, 3, 3), np.float32, stream=stream)
    assert matmulcore(da, da, out=out, stream=stream) is out
    stream.synchronize()
    np.testing.assert_allclose(out.copy_to_host(), a @ a, rtol=1e-5, atol=1e-6)
    host_out = np.zeros((6, 3, 3), np.float32)
    assert matmulcore(a, a, out=host_out) is host_out
    np.testing.assert_allclose(host_out, a @ a, rtol=1e-5, atol=1e-6)


def test_a_scalar_core_input_declared_as_an_array_and_outputs_by_position():
    vec = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.zeros_like(vec)
    assert shift(vec, np.array([10, 20], np.float32), out) is out
    np.testing.assert_array_equal(out, vec + [[10], [20]])


def test_a_host_out_is_filled_even_when_the_inputs_are_on_the_device():
    a = RNG.standard_normal((4, 2, 2)).astype(np.float32)
    host_out = np.zeros((4, 2, 2), np.float32)
    assert matmulcore(cuda.to_device(a), a, out=host_out) is host_out
    np.testing.assert_allclose(host_out, a @ a, rtol=1e-5, atol=1e-6)


def test_an_empty_loop_launches_nothing_and_returns_empty():
    assert l2_norm(np.zeros((0, 3), np.float32)).shape == (0,)


@needs_ptxas
def test_the_generated_kernel_makes_ptx_that_ptxas_accepts(tmp_path):
    l2_norm(np.ones((4, 2), np.float32))
    (kernel,) = l2_norm._kernels.values()
    run_ptxas(kernel.inspect_ptx(), tmp_path)


@pytest.mark.parametrize("call,error,message", [
    (lambda: matmulcore(np.ones((2, 3), np.float32), np.ones((4, 2), np.float32)), ValueError,
     r"core dimensions of '\(m,n\),\(n,p\)->\(m,p\)' disagree: 3 and 4"),
    (lambda: l2_norm(np.ones(3, np.complex128)), TypeError, r"no GPU loop for input types \(complex128\)"),
    (lambda: l2_norm(np.ones((2, 3)), np.ones(2), np.ones(2)), TypeError,
     r"takes 1 input\(s\) and 1 output\(s\), got 3 arrays"),
])
def test_bad_calls_say_what_is_wrong(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_gpu_gufunc_needs_its_signatures():
    with pytest.raises(TypeError, match="needs signatures and a layout"):
        guvectorize('(n)->()', target='cuda')
