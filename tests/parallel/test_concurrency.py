"""Entry into the thread pool that aborts Numba's workqueue layer (numba
issue 9327) works in Kiln: parallel functions called from several Python
threads at once, parallel functions calling parallel functions, and nogil
functions running truly concurrently (seed 000's pi with threads)."""
import random
import threading

import numpy as np
import pytest

import kiln
from kiln import prange


@kiln.njit(parallel=True, nogil=True)
def weighted_sum(a, w):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * w
    return s


@kiln.njit(parallel=True)
def row_sums(m, out):
    for i in prange(m.shape[0]):
        out[i] = weighted_sum(m[i], 1.0)   # a parallel function inside a parallel loop
    return out


@kiln.njit(nogil=True)
def pi_part(n, seed):
    """Monte Carlo pi as in seed 000's Dask example."""
    random.seed(seed)
    inside = 0
    for _ in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return inside


@pytest.fixture(autouse=True)
def keep_thread_count():
    before = kiln.get_num_threads()
    yield
    kiln.set_num_threads(before)


def run_threads(target, n):
    errors, results = [], [None] * n

    def wrap(k):
        try:
            results[k] = target(k)
        except BaseException as e:   # noqa: BLE001 - reported by the assertion below
            errors.append(e)
    threads = [threading.Thread(target=wrap, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_parallel_function_from_many_python_threads():
    kiln.set_num_threads(4)
    arrays = [np.arange(50_000 + 1000 * k, dtype=np.float64) for k in range(8)]

    def work(k):
        return [weighted_sum(arrays[k], k + 1.0) for _ in range(20)]
    results = run_threads(work, 8)
    for k, got in enumerate(results):
        want = float(arrays[k].sum()) * (k + 1.0)
        assert all(abs(g - want) <= 1e-9 * want for g in got)


def test_parallel_calls_parallel():
    m = np.random.default_rng(8).normal(size=(300, 500))
    for threads in (1, 3):
        kiln.set_num_threads(threads)
        np.testing.assert_allclose(row_sums(m, np.zeros(300)), m.sum(axis=1), rtol=1e-10)


def test_nested_and_concurrent_at_once():
    kiln.set_num_threads(3)
    m = np.random.default_rng(9).normal(size=(64, 2000))
    results = run_threads(lambda k: row_sums(m, np.zeros(64)), 6)
    for r in results:
        np.testing.assert_allclose(r, m.sum(axis=1), rtol=1e-10)


def test_nogil_pi_from_threads_matches_serial_counts():
    n = 200_000
    serial = [pi_part(n, seed) for seed in range(4)]
    threaded = run_threads(lambda k: pi_part(n, k), 4)
    assert threaded == serial
    assert abs(4.0 * sum(serial) / (4 * n) - np.pi) < 0.02
