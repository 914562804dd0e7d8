"""Kernel arguments beyond arrays and plain numbers: tuples (nested, mixed)
and complex numbers, on the GPU or the simulator, against the same Python
code run by CPython; their PTX assembles; what kernels cannot take is a
clear error."""
import numpy as np
import pytest

import kiln
from kiln import cuda
from test_cuda_jit import run_ptxas
from test_gpu_ptx import needs_ptxas


def scaled_sum(params, x, i):
    affine, power = params
    scale, shift = affine
    return scale * x[i] ** power + shift


@cuda.jit
def apply_params(params, x, out):
    i = cuda.grid(1)
    if i < x.size:
        affine, power = params
        scale, shift = affine
        out[i] = scale * x[i] ** power + shift


@pytest.mark.parametrize("params", [((2.0, -1.0), 2), ((-3, 5), 3), ((0.5, 1e3), 0), ((True, -7), 1)])
def test_nested_tuple_argument(params):
    x = np.linspace(-3, 3, 101)
    out = np.zeros_like(x)
    apply_params[4, 32](params, x, out)
    np.testing.assert_allclose(out, [scaled_sum(params, x, i) for i in range(x.size)], rtol=1e-12)


@cuda.jit
def first_and_sum(t, out):
    out[0] = t[0]
    out[1] = t[0] + t[1] + t[2]


def test_tuples_of_different_types_are_different_signatures():
    out = np.zeros(2, dtype=np.int64)
    first_and_sum[1, 1]((1, 2, 3), out)
    np.testing.assert_array_equal(out, [1, 6])
    first_and_sum[1, 1]((-(2**62), 2**62, 5), out)   # int64 arithmetic as Python's within range
    np.testing.assert_array_equal(out, [-(2**62), 5])
    outf = np.zeros(2)
    first_and_sum[1, 1]((1.5, 2, 0.25), outf)
    np.testing.assert_array_equal(outf, [1.5, 3.75])
    assert len(first_and_sum.signatures) == 2


@cuda.jit
def rotate(z, x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * z


@pytest.mark.parametrize("z", [1j, complex(-2.5, 0.5), np.complex64(3 - 4j), np.complex128(-1e-3 + 2e3j)])
def test_complex_argument(z):
    x = np.array([-2.0, 0.0, 1.0, 3.5], dtype=np.complex128)
    out = np.zeros_like(x)
    rotate[1, 32](z, x, out)
    expected = [complex(v) * complex(z) for v in x]
    if isinstance(z, np.complex64):   # the product is complex128, z itself rounded to complex64
        expected = [complex(v) * complex(np.complex64(z)) for v in x]
    np.testing.assert_allclose(out, expected, rtol=1e-6 if isinstance(z, np.complex64) else 1e-15)


@cuda.jit
def mandel_point(c_and_iters, out):
    c, iters = c_and_iters
    z = 0j
    n = 0
    while n < iters and abs(z) <= 2:
        z = z * z + c
        n += 1
    out[0] = n


def python_mandel_point(c, iters):
    z, n = 0j, 0
    while n < iters and abs(z) <= 2:
        z = z * z + c
        n += 1
    return n


@pytest.mark.parametrize("c", [0j, -1 + 0j, 0.3 + 0.5j, -0.75 + 0.1j, 2 + 2j])
def test_complex_inside_a_tuple(c):
    out = np.zeros(1, dtype=np.int64)
    mandel_point[1, 1]((c, 200), out)
    assert out[0] == python_mandel_point(c, 200)


def test_a_tuple_holding_an_array_is_a_clear_error():
    @cuda.jit
    def takes_pair(pair, out):
        out[0] = pair[0][0]

    x = np.ones(3)
    with pytest.raises(kiln.TypingError, match="kernel argument 1 is a tuple holding a array"):
        takes_pair[1, 1]((x, 1), x)


def test_a_kiln_function_is_not_a_kernel_argument():
    @kiln.njit
    def square(x):
        return x * x

    @cuda.jit
    def apply(f, out):   # refused before it compiles
        out[0] = 2.0

    out = np.ones(1)
    for arg in (square, (square, 2)):
        with pytest.raises(TypeError, match="a kernel cannot take a (Dispatcher|tuple)"):
            apply[1, 1](arg, out)


@needs_ptxas
def test_tuple_and_complex_kernels_assemble(tmp_path):
    # apply_params raises a float to a variable power: llvm.pow, which NVPTX
    # cannot select (LLVM would stop the process), becomes libdevice's pow
    x = np.zeros(4)
    apply_params[1, 4](((1.0, 2.0), 2), x, x.copy())
    run_ptxas(apply_params.inspect_ptx(), tmp_path)
    mandel_point[1, 1]((0.5j, 10), np.zeros(1, dtype=np.int64))
    run_ptxas(mandel_point.inspect_ptx(), tmp_path)


@cuda.jit
def sum_of_ten(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, out):
    i, j, k = cuda.grid(3)
    if i < out.shape[0] and j < out.shape[1] and k < out.shape[2]:
        out[i, j, k] = (a0[i, j, k] + a1[i, j, k] + a2[i, j, k] + a3[i, j, k] + a4[i, j, k] + a5[i, j, k]
                        + a6[i, j, k] + a7[i, j, k] + a8[i, j, k] + a9[i, j, k])


def test_ten_3d_arrays_are_more_than_64_parameters():
    # 1 + 11 * 7 parameters once flattened: beyond the 64 that GPU launches once took
    arrays = [np.full((3, 4, 5), float(n)) for n in range(10)]
    views = [a[:, ::-1, :] if n % 2 else a for n, a in enumerate(arrays)]   # strided views too
    out = np.zeros((3, 4, 5))
    sum_of_ten[(1, 1, 1), (4, 4, 8)](*views, out)
    np.testing.assert_array_equal(out, sum(arrays))


@cuda.jit("void(complex64, UniTuple(float64, 2), complex64[:])")
def declared_complex_and_tuple(z, pair, out):
    out[0] = z * pair[0] - pair[1]


def test_declared_signature_converts_complex_and_tuple_items():
    out = np.zeros(1, dtype=np.complex64)
    declared_complex_and_tuple[1, 1](1 + 2j, (3, -1), out)   # ints in the tuple become float64
    assert out[0] == np.complex64((1 + 2j) * 3.0 + 1)
    with pytest.raises(TypeError, match="no signature accepts"):
        declared_complex_and_tuple[1, 1](1 + 2j, (3, -1, 0), out)
