"""Races as a GPU shows them: the simulator interleaves a block's threads
at each store to memory its kernel also reads (gpu/sim_races.c), so an
unsynchronised read-modify-write loses updates, seed 004's lesson, and
cuda.atomic.add fixes it; kernels without races still agree with NumPy.
On a GPU the same assertions hold."""
import numpy as np
import pytest

import seed_kernels as sk
from kiln import cuda


def test_seed_004_race_loses_updates_and_the_atomic_version_does_not():
    racy = np.zeros(1, np.int32)
    sk.thread_counter_race_condition[64, 64](racy)
    safe = np.zeros(1, np.int32)
    sk.thread_counter_safe[64, 64](safe)
    assert safe[0] == 64 * 64
    assert 1 <= racy[0] < 64 * 64 // 4, racy[0]   # most of the 4,096 increments lost


@cuda.jit
def histogram_racy(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[x[i]] += 1


@cuda.jit
def histogram_atomic(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(out, x[i], 1)


def test_a_histogram_without_atomics_miscounts_and_with_them_counts_right():
    x = np.random.default_rng(4).integers(0, 8, 10_000)
    expected = np.bincount(x, minlength=8)
    racy = np.zeros(8, np.int64)
    histogram_racy[40, 256](x, racy)
    atomic = np.zeros(8, np.int64)
    histogram_atomic[40, 256](x, atomic)
    np.testing.assert_array_equal(atomic, expected)
    assert racy.sum() < expected.sum() // 4, racy


@cuda.jit
def add_one_in_place(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1.0


@cuda.jit
def block_sums(x, out):
    """A tree reduction in shared memory: reads and writes of one array,
    ordered by cuda.syncthreads(), so no update may be lost."""
    s = cuda.shared.array(256, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.shape[0] else 0.0
    cuda.syncthreads()
    stride = 128
    while stride > 0:
        if t < stride:
            s[t] += s[t + stride]
        cuda.syncthreads()
        stride //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


def test_kernels_without_a_race_keep_their_results_when_threads_interleave():
    a = np.arange(1000.0)
    add_one_in_place[4, 256](a)
    np.testing.assert_array_equal(a, np.arange(1000.0) + 1)
    x = np.random.default_rng(5).standard_normal(1000)
    out = np.zeros(4)
    block_sums[4, 256](x, out)
    np.testing.assert_allclose(out, [x[k * 256:(k + 1) * 256].sum() for k in range(4)], rtol=1e-12)


def test_seed_000_shared_memory_matmul_still_agrees_with_numpy():
    n = 64
    rng = np.random.default_rng(6)
    a = rng.random((n, n)).astype(np.float32)
    b = rng.random((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    sk.fast_matmul[(n // sk.TPB, n // sk.TPB), (sk.TPB, sk.TPB)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4)


@cuda.jit
def barrier_in_a_branch(a):
    t = cuda.threadIdx.x
    if t < 16:
        cuda.syncthreads()
        a[t] = 1.0
    else:
        cuda.syncthreads()
        a[t] = 2.0


@cuda.jit
def some_threads_return_first(a):
    t = cuda.threadIdx.x
    if t >= 20:
        return
    s = cuda.shared.array(32, np.float64)
    s[t] = t
    cuda.syncthreads()
    a[t] = s[19 - t]


def test_threads_at_different_barriers_are_reported_with_their_lines():
    if cuda.is_available():
        pytest.skip("a GPU leaves it undefined (it may hang): only the simulator can report it")
    with pytest.raises(cuda.CudaError) as e:
        barrier_in_a_branch[1, 32](np.zeros(32))
    first = barrier_in_a_branch.py_func.__code__.co_firstlineno
    assert str(e.value) == (
        f"kernel 'barrier_in_a_branch': in block (0, 0, 0), threads wait at different cuda.syncthreads() "
        f"calls: thread (0, 0, 0) at line {first + 4}, thread (16, 0, 0) at line {first + 7}. Every thread of "
        f"a block must reach the same barrier; a GPU may hang or go on with wrong data. Move the barrier "
        f"out of the branch or loop that only some threads take")


def test_threads_that_returned_do_not_hold_a_barrier_up():
    a = np.zeros(32)
    some_threads_return_first[1, 32](a)
    np.testing.assert_array_equal(a[:20], np.arange(19.0, -1.0, -1.0))
