"""Seed 000's Dask example as written: a nogil kiln function wrapped in
dask.delayed, ten experiments run by Dask's threaded scheduler (the
functions run on its worker threads at the same time), their mean close to
pi."""
import math
import random

import dask

import kiln as nb


@dask.delayed
@nb.jit(nopython=True, nogil=True)
def approximate_pi(num_samples):
    num_points_circ = 0
    for i in range(num_samples):
        x = random.uniform(-1, 1)
        y = random.uniform(-1, 1)
        if x**2 + y**2 < 1.0:
            num_points_circ += 1
    return 4 * num_points_circ / num_samples


@dask.delayed
def mean(*args):
    return sum(args) / len(args)


def test_seed_pi_with_dask_threads():
    number_samples = 10**5
    parts = [approximate_pi(number_samples) for _ in range(10)]
    values = dask.compute(*parts, scheduler="threads")
    assert len(values) == 10 and all(2.9 < v < 3.4 for v in values)
    assert len(set(values)) > 1          # each thread draws its own numbers
    pi_approx = mean(*parts).compute(scheduler="threads")
    assert abs(pi_approx - math.pi) < 0.02   # 1e6 samples: about 0.0016 standard error
