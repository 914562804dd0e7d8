"""kiln.vectorize against NumPy's own ufunc behaviour: results equal the
Python kernel applied elementwise (or NumPy's equivalent ufunc), with
broadcasting, out=, reduce, accumulate, dtype resolution, non-contiguous
views, empty arrays, the parallel target with 1, 2 and many threads, and
kernel exceptions reaching Python."""
import math

import numpy as np
import pytest

import kiln


# Contiguous loops call glibc's SIMD sin and cos (within 4 ulp, as NumPy's
# own are), so a sum that cancels differs from CPython's in the last bits.
QUAD_TOL = {"rtol": 1e-13, "atol": 1e-14}


def quad(x, y):
    """The seed's f(x, y) shape: transcendental work per element."""
    return math.sin(x) * math.cos(y) + x / (y * y + 1.0)


def py_elementwise(fn, *arrays, dtype):
    b = np.broadcast_arrays(*arrays)
    out = np.empty(b[0].shape, dtype=dtype)
    for idx in np.ndindex(out.shape):
        out[idx] = fn(*(a[idx].item() for a in b))
    return out


@pytest.fixture(params=["cpu", "parallel"])
def target(request):
    return request.param


def test_signatures_make_a_real_numpy_ufunc(target):
    f = kiln.vectorize(["float64(float64, float64)", "float32(float32, float32)"], target=target)(quad)
    assert isinstance(f, np.ufunc)
    assert f.types == ["dd->d", "ff->f"]
    assert (f.nin, f.nout, f.__name__) == (2, 1, "quad")
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=3000) * 5, rng.normal(size=3000) * 5
    np.testing.assert_allclose(f(x, y), py_elementwise(quad, x, y, dtype=np.float64), **QUAD_TOL)
    r32 = f(x.astype(np.float32), y.astype(np.float32))
    assert r32.dtype == np.float32
    np.testing.assert_allclose(r32, py_elementwise(quad, x.astype(np.float32), y.astype(np.float32),
                                                   dtype=np.float32), rtol=2e-4, atol=1e-5)
    # NumPy's type resolution: int inputs are cast safely to the float64 loop
    assert f(np.arange(3), np.arange(3)).dtype == np.float64


def test_broadcasting_views_and_out(target):
    f = kiln.vectorize(["float64(float64, float64)"], target=target)(quad)
    grid = np.linspace(-4, 4, 60)
    xx, yy = np.meshgrid(grid, grid)
    np.testing.assert_allclose(f(grid[:, None], grid[None, :]), py_elementwise(quad, xx.T, yy.T, dtype=float))
    view = xx[::3, ::-2]   # non-contiguous, negative strides
    np.testing.assert_allclose(f(view, 0.5), py_elementwise(quad, view, np.float64(0.5), dtype=float))
    out = np.zeros_like(xx)
    got = f(xx, yy, out=out)
    assert got is out
    np.testing.assert_allclose(out, py_elementwise(quad, xx, yy, dtype=float))
    assert f(np.empty(0), np.empty(0)).shape == (0,)


def test_reduce_accumulate_and_identity(target):
    add = kiln.vectorize(["int64(int64, int64)", "float64(float64, float64)"], identity=0,
                         target=target)(lambda_add)
    a = np.arange(-50000, 70001, dtype=np.int64)
    assert add.reduce(a) == a.sum()
    np.testing.assert_array_equal(add.accumulate(a[:1000]), np.cumsum(a[:1000]))
    m = a[:120].reshape(10, 12)
    np.testing.assert_array_equal(add.reduce(m, axis=0), m.sum(axis=0))
    np.testing.assert_array_equal(add.reduce(m, axis=1), m.sum(axis=1))
    assert add.reduce(np.empty(0, dtype=np.int64)) == 0    # the identity
    big = np.array([2**62, 2**62, 2**62], dtype=np.int64)  # int64 wraps like NumPy's add
    assert add.reduce(big) == np.add.reduce(big)
    np.testing.assert_array_equal(add.outer(np.arange(3), np.arange(4)), np.add.outer(np.arange(3), np.arange(4)))


def lambda_add(a, b):
    return a + b


def maximum(a, b):
    return a if a > b else b


def test_seed_max_of_two_float32_arrays(target):
    vmax = kiln.vectorize(["float32(float32, float32)"], target=target)(maximum)
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=100_003).astype(np.float32), rng.normal(size=100_003).astype(np.float32)
    np.testing.assert_array_equal(vmax(a, b), np.maximum(a, b))
    assert np.max(vmax(a, b)) == np.max(np.maximum(a, b))


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_parallel_target_with_thread_counts(threads):
    before = kiln.get_num_threads()
    kiln.set_num_threads(threads)
    try:
        f = kiln.vectorize(["float64(float64, float64)"], target="parallel")(quad)
        x = np.linspace(-10, 10, 200_001)
        np.testing.assert_allclose(f(x, x[::-1]), py_elementwise(quad, x, x[::-1], dtype=float), **QUAD_TOL)
    finally:
        kiln.set_num_threads(before)


def floordiv(a, b):
    return a // b


def test_kernel_exception_reaches_python_and_ufunc_still_works(target):
    f = kiln.vectorize(["int64(int64, int64)"], target=target)(floordiv)
    b = np.ones(10000, dtype=np.int64)
    b[7777] = 0
    with pytest.raises(ZeroDivisionError):
        f(np.arange(10000), b)
    a = np.arange(-7, 8)
    np.testing.assert_array_equal(f(a, 3), a // 3)   # Python's floor semantics, like NumPy's


def test_without_signatures_compiles_per_dtype(target):
    f = kiln.vectorize(target=target)(maximum)
    assert isinstance(f, kiln.DUFunc)
    assert f.types == []
    i = f(np.array([1, 7, -3]), np.array([4, 2, -9]))
    np.testing.assert_array_equal(i, [4, 7, -3])
    assert i.dtype == np.int64
    g = f(np.float32([1.5, -2]), np.float32([0.5, 3]))
    assert g.dtype == np.float32
    assert f.types == ["ll->l", "ff->f"]
    f(np.float32([1.0]), np.float32([2.0]))
    assert len(f.types) == 2   # no recompile for a dtype seen before
    assert f.reduce(np.array([3.0, 9.0, -1.0])) == 9.0
    assert isinstance(f.ufunc, np.ufunc)


def test_bare_decorator_and_bool_kernel():
    @kiln.vectorize
    def both(a, b):
        return a and b
    x = np.array([True, False, True, False])
    y = np.array([True, True, False, False])
    np.testing.assert_array_equal(both(x, y), x & y)


def test_bad_uses_are_clear_errors():
    with pytest.raises(TypeError, match="needs signatures"):   # GPU ufuncs: tests/gpu/test_cuda_jit.py
        kiln.vectorize(target="cuda")
    with pytest.raises(ValueError, match="target"):
        kiln.vectorize(["float64(float64)"], target="gpu")
    with pytest.raises(ValueError, match="identity"):
        kiln.vectorize(["float64(float64)"], identity=5)

    def returns_tuple(x):
        return (x, x)
    with pytest.raises(kiln.TypingError, match="vectorize kernel returns"):
        kiln.vectorize([(kiln.float64,)])(returns_tuple)   # return type left to inference


def add(a, b):   # a kernel that subtracts, under NumPy's name for adding
    return a - b


def test_a_ufunc_named_like_numpys_is_not_taken_for_numpys_in_compiled_code():
    vadd = kiln.vectorize(["float64(float64, float64)"])(add)
    assert vadd.__name__ == "add" and vadd(3.0, 1.0) == 2.0

    @kiln.njit
    def use(x):
        return vadd(x, 1.0)
    assert use(3.0) == 2.0   # its own kernel, called directly (as Numba calls it), not np.add

    @kiln.njit
    def numpys(x):
        return np.add(x, 1.0)
    assert numpys(3.0) == 4.0


@kiln.vectorize
def floor_at(x, lo):
    return x if x > lo else lo


@kiln.vectorize(["float64(float64)", "int64(int64)"])
def squared(x):
    return x * x


@kiln.vectorize
def reciprocal(x):
    return 1.0 / x


@kiln.njit
def kernels_called_from_compiled_code(a, lo):
    s = 0.0
    for v in a:
        s += floor_at(v, lo) + squared(v)
    return s, squared(a), reciprocal(0.0)


@pytest.mark.parametrize("a, lo", [(np.arange(4.0), 0.5), (np.array([-2.0, 7.5]), -1.0), (np.zeros(0), 0.0)])
def test_a_vectorize_ufunc_called_from_compiled_code_is_a_direct_call_of_its_kernel(a, lo):
    s, sq, inf = kernels_called_from_compiled_code(a, lo)
    assert s == sum(floor_at(v, lo) + squared(v) for v in a) and np.array_equal(sq, squared(a))
    assert inf == np.inf   # the kernel keeps NumPy's error model, as the ufunc's: 1.0 / 0.0 is inf
