"""A kiln.vectorize ufunc whose kernel calls math functions (glibc's vector
versions on the loop's contiguous path only) copies strided operands
through contiguous blocks (jit/dispatch/ufunc.c), so that its loop runs vectorized.
Results equal NumPy's for views of every layout, every element size, sizes
around the block edges, broadcast scalars, strided outputs and an output
that is exactly an input; the calls whose output overlaps an input
otherwise (accumulate, reduce) still see each element's result before the
next; and a kernel's exception still reaches Python."""
import math

import numpy as np
import pytest

import kiln

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint64"]
FLOATS = ["float32", "float64"]


def first(a, b):
    """a, always (a cosine is at most 1), with a call to cos on b's lanes."""
    return a if math.cos(b) <= 1.0 else b


def mul_add_cos(a, b):
    return a * b + math.cos(a.real)


def cos_positive(a):
    return math.cos(a) > 0


def larger_cos(a, b):
    return a if math.cos(a) > math.cos(b) else b


def wave(x, y):
    return math.cos(x * x + y * y) / (1.0 + x * x + y * y)


def floor_div_cos(a, b):
    return a // b + int(math.cos(a) > 2.0)


@pytest.fixture(params=["cpu", "parallel"])
def target(request):
    return request.param


def sample(dtype, n, rng):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(n) * 50).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)


# a block holds 32768 bytes of the strided operands: 2048 elements of two
# float64 inputs, 16384 of one int8 input and its int8 output
SIZES = [0, 1, 63, 64, 65, 2047, 2048, 2049, 5000, 16385]


@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_strided_inputs_and_outputs_give_numpys_results(dtype, target):
    f = kiln.vectorize([f"{dtype}({dtype}, {dtype})"], target=target)(first)
    rng = np.random.default_rng(7)
    for n in SIZES:
        a, b = sample(dtype, 3 * n, rng), sample(dtype, 3 * n, rng)
        cases = [(a[::3], b[::2][:n]),          # both strided
                 (a[::2][:n], b[::-3]),          # every other element, and reversed
                 (a[::-3], b[:n]),               # reversed and contiguous
                 (a[:n], b[1::3]),               # contiguous and strided
                 (b[0] if n else b[:0], a[::3])]     # a broadcast scalar: step 0
        for x, y in cases:
            np.testing.assert_array_equal(f(x, y), np.broadcast_to(x, y.shape), err_msg=f"n={n}")
        out = np.zeros(2 * n, dtype)
        f(a[::3], b[:n], out=out[::-2])
        np.testing.assert_array_equal(out[::-2], a[::3])
        assert not out[-2::-2].any()              # the elements between stay untouched


def test_every_element_size(target):
    rng = np.random.default_rng(3)
    c = (rng.standard_normal(6000) + 1j * rng.standard_normal(6000))
    f = kiln.vectorize(["complex128(complex128, complex128)", "float32(float32, float32)"],
                       target=target)(mul_add_cos)
    np.testing.assert_allclose(f(c[::2], c[::-2]), c[::2] * c[::-2] + np.cos(c[::2].real),
                               rtol=1e-13, atol=1e-14)   # contracted to fused multiply-adds or not
    x = c.real.astype(np.float32)
    np.testing.assert_allclose(f(x[::3], x[1::3]), x[::3] * x[1::3] + np.cos(x[::3]), rtol=1e-6, atol=1e-6)
    p = kiln.vectorize(["boolean(float64)"], target=target)(cos_positive)
    r = np.ones(18000, dtype=bool)
    p(c.real[::-1], out=r[::-3])
    np.testing.assert_array_equal(r[::-3], np.cos(c.real[::-1]) > 0)
    untouched = np.ones(18000, dtype=bool)
    untouched[::-3] = False
    assert r[untouched].all()


def test_compute_bound_kernel_on_views(target):
    f = kiln.vectorize(["float64(float64, float64)"], target=target)(wave)
    grid = np.linspace(-3, 3, 301)
    x, y = (g.ravel() for g in np.meshgrid(grid, grid))
    # 1-d views reach the loop strided; NumPy buffers 2-d ones itself
    for u, v in [(x[::3], y[::3]), (x[::-2], y[: len(x) // 2 + 1]), (x[1::2], 0.25), (x[::2, None], y[:3])]:
        np.testing.assert_allclose(f(u, v), np.cos(u * u + v * v) / (1 + u * u + v * v),
                                   rtol=1e-13, atol=1e-15)


def test_output_that_is_exactly_an_input(target):
    f = kiln.vectorize(["float64(float64, float64)"], target=target)(larger_cos)
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal(20000), rng.standard_normal(10000)
    expected = np.where(np.cos(a[::2]) > np.cos(b), a[::2], b)
    f(a[::2], b, out=a[::2])
    np.testing.assert_array_equal(a[::2], expected)


def test_overlapping_calls_see_each_elements_result(target):
    f = kiln.vectorize(["int64(int64, int64)", "float64(float64, float64)"], target=target)(larger_cos)
    rng = np.random.default_rng(11)

    def accumulated(x):   # what each element of an accumulate sees: the result before it
        out = x.copy()
        for i in range(1, len(out)):
            out[i] = out[i - 1] if np.cos(out[i - 1]) > np.cos(x[i]) else x[i]
        return out

    a = rng.integers(-1000, 1000, size=3000)
    np.testing.assert_array_equal(f.accumulate(a[::3]), accumulated(a[::3]))
    m = rng.standard_normal((300, 40))
    np.testing.assert_array_equal(f.accumulate(m[:, ::2], axis=1)[7], accumulated(m[7, ::2]))
    np.testing.assert_array_equal(f.reduce(m.T[::2], axis=1)[5], accumulated(m.T[10])[-1])
    shifted = m.ravel().copy()
    expected = f(shifted[2::2].copy(), shifted[:-2:2].copy())
    f(shifted[2::2], shifted[:-2:2], out=shifted[:-2:2])  # NumPy copies what overlaps
    np.testing.assert_array_equal(shifted[:-2:2], expected)


def test_a_kernels_exception_in_a_block_reaches_python(target):
    f = kiln.vectorize(["int64(int64, int64)"], target=target)(floor_div_cos)
    a = np.arange(1, 40001, dtype=np.int64)
    b = np.full(40000, 3, dtype=np.int64)
    b[-6] = 0   # an element b[::2] holds
    with pytest.raises(ZeroDivisionError):
        f(a[::2], b[::2])
    b[-6] = 3
    np.testing.assert_array_equal(f(a[::2], b[::2]), a[::2] // 3)
