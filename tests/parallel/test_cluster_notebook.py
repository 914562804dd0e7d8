"""Issue 33 in a real notebook: the Kiln kernel drives a dask.distributed
LocalCluster of two worker processes. Seed 000's pi estimate (its cell as
written: %%time, @dask.delayed over a jit function) runs there; a seeded pi,
and dask.array map_blocks of a kiln ufunc and of a kiln function, give the
results computed in the kernel; each worker compiles each function once
(its profiler's records, asked through client.run), and the cell footer
says what the workers compiled (kiln.worker_records). multiprocessing and
concurrent.futures process pools started from the notebook run its
functions too."""
import ast
import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "magics"))
import magics_notebook as mn  # noqa: E402  (shared kernelspec installer)

SETUP = """\
import random
import numpy as np
import dask, dask.array as da
from dask.distributed import Client, LocalCluster
import kiln
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
client = Client(cluster)
"""

SEED_PI = """\
%%time

@dask.delayed
@kiln.jit(nopython=True, nogil=True)
def approximate_pi(num_samples):
    num_points_circ = 0

    for i in range(num_samples):
        # Select an arbitrary point in [-1,1]x[-1,1]
        x = random.uniform(-1, 1)
        y = random.uniform(-1, 1)

        # Check if the point is inside the circle
        if x**2 + y**2 < 1.0:
            num_points_circ += 1

    return 4 * num_points_circ / num_samples

@dask.delayed
def mean(*args):
    return sum(args) / len(args)

number_samples = 10**5
number_experiments = 10

pi_approx = mean(*[approximate_pi(number_samples) for i in range(number_experiments)])

print("Approximation of Pi: {}".format(pi_approx.compute()))
"""

SEEDED = """\
@kiln.njit(nogil=True)
def pi_hits(n, seed):
    np.random.seed(seed)
    hits = 0
    for _ in range(n):
        x, y = np.random.random(), np.random.random()
        if x * x + y * y <= 1.0:
            hits += 1
    return hits

@kiln.vectorize(["float64(float64)"])
def damp(x):
    return x / (1.0 + abs(x))

@kiln.njit
def smooth(block):
    out = np.empty_like(block)
    for i in range(block.shape[0]):
        out[i] = 0.5 * block[i] + 1.0
    return out

x = da.from_array(np.linspace(-5, 5, 4000), chunks=500)
on_cluster = (client.gather(client.map(pi_hits, [20000] * 8, range(8))),
              x.map_blocks(damp).compute(), x.map_blocks(smooth).compute())
here = ([pi_hits(20000, s) for s in range(8)], damp(np.linspace(-5, 5, 4000)), smooth(np.linspace(-5, 5, 4000)))
print(on_cluster[0] == here[0], np.array_equal(on_cluster[1], here[1]), np.array_equal(on_cluster[2], here[2]))
"""

POOLS = """\
import concurrent.futures, multiprocessing
rows = [np.arange(float(n % 7)) for n in range(16)]
ctx = multiprocessing.get_context("spawn")
with ctx.Pool(2) as pool:
    pooled = pool.map(smooth, rows)
with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
    futured = list(ex.map(pi_hits, [5000] * 4, range(4)))
print(all(np.array_equal(p, smooth(r)) for p, r in zip(pooled, rows)), futured == [pi_hits(5000, s) for s in range(4)])
"""

PER_WORKER = """\
def compiled_here():
    import _kiln
    return sorted(r["function"] for r in _kiln.profiler_compiles())
print(sorted(client.run(compiled_here).values()))
client.close(); cluster.close()
"""


def plain(cell):
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs)


@pytest.fixture(scope="module")
def notebook():
    return mn.execute_cells(mn.new_notebook(SETUP, SEED_PI, SEEDED, PER_WORKER, POOLS))


def test_no_cell_fails(notebook):
    assert mn.errors(notebook) == []


def test_seed_pi_runs_on_the_cluster_and_the_footer_tells_the_workers_compiles(notebook):
    out = plain(notebook.cells[1])
    pi = float(re.search(r"Approximation of Pi: ([0-9.]+)", out).group(1))
    assert abs(pi - 3.14159) < 0.05
    # compiled in the workers only: the footer begins with them (a compile here would come first)
    assert re.search(r"kiln: [12] worker process(es)? compiled approximate_pi\(int64\) in ", out), out


def test_results_on_the_cluster_equal_those_computed_here(notebook):
    assert plain(notebook.cells[2]).splitlines()[0] == "True True True"
    footer = plain(notebook.cells[2])
    assert re.search(r"worker process(es)? compiled [^;]*pi_hits\(int64, int64\) in ", footer), footer


def test_process_pools_started_from_the_notebook_run_its_functions(notebook):
    out = plain(notebook.cells[4])
    assert out.splitlines()[0] == "True True"
    assert re.search(r"worker process(es)? compiled [^;]*smooth\(array\(float64, 1d, C\)\) in ", out), out


def test_each_worker_compiles_each_function_once(notebook):
    workers = ast.literal_eval(plain(notebook.cells[3]).splitlines()[0])
    assert len(workers) == 2
    for compiled in workers:
        assert len(compiled) == len(set(compiled)), workers
        assert set(compiled) <= {"approximate_pi", "pi_hits", "damp", "smooth"}
    assert {name for compiled in workers for name in compiled} == {"approximate_pi", "pi_hits", "damp", "smooth"}
