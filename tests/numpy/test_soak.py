"""Soak: a million calls of compiled functions that allocate (temporaries,
locals, a returned array, a list) leave the process's memory flat and the
runtime's counters balanced."""
import gc

import numpy as np
import psutil

import kiln
from np_diff import live


@kiln.jit
def churn(n):
    a = np.ones(n)
    b = a * 2.0 + 1.0           # a temporary-free expression into a new array
    c = b[1:] - a[:-1]
    xs = [i for i in range(3)]
    xs.append(n)
    return c.sum() + len(xs)


@kiln.jit
def returns_array(n):
    return np.zeros(n)


def test_a_million_calls_keep_memory_flat():
    proc = psutil.Process()
    for _ in range(100_000):     # warm up: caches, the allocator's pools
        churn(16)
        returns_array(4)
    gc.collect()
    before_rss = proc.memory_info().rss
    before = live()
    for _ in range(1_000_000):
        churn(16)
        returns_array(4)
    gc.collect()
    grown = proc.memory_info().rss - before_rss
    assert live() == before
    assert grown < 8 * 1024 * 1024, f"the process grew by {grown / 1e6:.1f} MB over a million calls"
