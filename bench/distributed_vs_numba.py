"""Kiln against Numba on one dask.distributed cluster (issue 33): seed 000's
pi estimate as written (@dask.delayed over a nopython, nogil jit function,
ten experiments, their mean) on a LocalCluster of two worker processes, and
what it costs to ship a function to a worker.

Rows, each Kiln / Numba in one run on the same cluster, alternating:
- first compute: a function the workers have not seen (a fresh one each
  round): pickling it by value, shipping, compiling in each worker, running;
- steady compute: the same graph again, compiled everywhere (best of rounds);
- pickle: bytes and time of pickle.dumps of the function (by value: it was
  made in __main__, as in a notebook);
- round trip: client.submit(f, 0).result() of a compiled function that
  returns at once, against the same for a plain Python function.

Usage: KILN_BUILD_DIR=build /usr/bin/python3 bench/distributed_vs_numba.py [--quick]"""
import os
import pickle
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path[:0] = [os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]

import dask  # noqa: E402
import numba  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

import kiln  # noqa: E402

QUICK = "--quick" in sys.argv
ROUNDS = 2 if QUICK else 6
SAMPLES = 10**5 if QUICK else 10**6
EXPERIMENTS = 10
TRIPS = 20 if QUICK else 200


def approximate_pi(num_samples):
    num_points_circ = 0
    for i in range(num_samples):
        x = random.uniform(-1, 1)
        y = random.uniform(-1, 1)
        if x**2 + y**2 < 1.0:
            num_points_circ += 1
    return 4 * num_points_circ / num_samples


def nothing(x):
    return x


@dask.delayed
def mean(*args):
    return sum(args) / len(args)


def fresh(tool, py_func):
    """A jit function the workers have not seen: a new function object each
    time (both tools key what a worker keeps by the object pickled)."""
    copy = type(py_func)(py_func.__code__, py_func.__globals__, py_func.__name__)
    return tool.jit(nopython=True, nogil=True)(copy)


def compute_pi(f):
    start = time.perf_counter()
    value = mean(*[dask.delayed(f)(SAMPLES) for _ in range(EXPERIMENTS)]).compute()
    return time.perf_counter() - start, value


def round_trip(client, f):
    client.submit(f, 0, pure=False).result()
    best = float("inf")
    for _ in range(TRIPS):
        start = time.perf_counter()
        client.submit(f, 0, pure=False).result()
        best = min(best, time.perf_counter() - start)
    return best


def ms(seconds):
    return f"{seconds * 1e3:.3g} ms"


def main():
    tools = {"kiln": kiln, "numba": numba}
    first = {t: [] for t in tools}
    steady = {t: [] for t in tools}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for _ in range(ROUNDS):
            for name, tool in tools.items():
                f = fresh(tool, approximate_pi)
                seconds, value = compute_pi(f)
                assert abs(value - 3.14159) < 0.05, (name, value)
                first[name].append(seconds)
                steady[name].append(min(compute_pi(f)[0] for _ in range(3)))
        pickled = {}
        for name, tool in tools.items():
            f = fresh(tool, approximate_pi)
            f(10)   # compiled here too, as a notebook's function would be when it is sent
            start = time.perf_counter()
            data = pickle.dumps(f)
            pickled[name] = (len(data), time.perf_counter() - start)
        trips = {"python": [], "kiln": [], "numba": []}
        compiled = {name: fresh(tool, nothing) for name, tool in tools.items()}
        for _ in range(3):
            trips["python"].append(round_trip(client, nothing))
            for name, f in compiled.items():
                trips[name].append(round_trip(client, f))

    print(f"seed 000's pi on a LocalCluster of 2 worker processes: {EXPERIMENTS} experiments of {SAMPLES:,} samples, "
          f"{ROUNDS} rounds (Kiln / Numba)")
    print(f"{'row':<36} {'kiln':>12} {'numba':>12} {'ratio':>7}")
    for label, per_tool in (("first compute (ship + compile), best", first), ("steady compute, best", steady)):
        k, n = min(per_tool["kiln"]), min(per_tool["numba"])
        print(f"{label:<36} {ms(k):>12} {ms(n):>12} {k / n:>7.2f}")
    k, n = sorted(first["kiln"])[ROUNDS // 2], sorted(first["numba"])[ROUNDS // 2]
    print(f"{'first compute, median':<36} {ms(k):>12} {ms(n):>12} {k / n:>7.2f}")
    k, n = pickled["kiln"], pickled["numba"]
    print(f"{'pickle.dumps of the function':<36} {ms(k[1]):>12} {ms(n[1]):>12} {k[1] / n[1]:>7.2f}")
    print(f"{'pickled size, bytes':<36} {k[0]:>12,} {n[0]:>12,} {k[0] / n[0]:>7.2f}")
    python = min(trips["python"])
    k, n = min(trips["kiln"]), min(trips["numba"])
    print(f"{'submit + result round trip, best':<36} {ms(k):>12} {ms(n):>12} {k / n:>7.2f}"
          f"   (a plain Python function: {ms(python)})")


if __name__ == "__main__":
    main()
