"""Kiln functions, ufuncs, gufuncs and cfuncs pickled into other processes
(python/kiln/pickling.py): by value from a script's __main__, into a fresh
process that has neither the script nor its functions (their source travels
with them); by reference from an importable module; and through
multiprocessing's and concurrent.futures' process pools and a Dask cluster
of worker processes, which pickle the functions they run, each worker
compiling a function once (the profiler's compile records of the worker say
so)."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kiln


def env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def run(path, stdin=None):
    done = subprocess.run([sys.executable, str(path)], env=env(), cwd=path.parent, input=stdin,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return done.stdout


SENDER = """
import pickle, sys
import numpy as np
import kiln

SCALE = 3.0

@kiln.njit
def helper(x):
    return x * SCALE

@kiln.njit(fastmath=True)
def total(a):
    s = 0.0
    for v in a:
        s += helper(v)
    return s

@kiln.njit
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

@kiln.njit("float64(float64)")
def half(x):
    return x / 2

assert total(np.arange(4.0)) == 18.0   # compiled here too: what travels is the function, not machine code
sys.stdout.buffer.write(pickle.dumps((total, fact, half)))
"""

RECEIVER = """
import pickle, sys
import numpy as np
total, fact, half = pickle.loads(sys.stdin.buffer.read())
print(total(np.arange(4.0)), fact(10), half(3.0), half(3), total._kiln_options["fastmath_flags"])
try:
    half(np.zeros(2))
except TypeError as e:
    print("refused:", "no matching definition" in str(e))
"""


def test_functions_of_main_travel_by_value_to_a_process_without_their_source(tmp_path):
    sender = tmp_path / "sender.py"
    sender.write_text(SENDER)
    payload = run(sender)
    sender.unlink()   # the receiver has only the pickle
    (tmp_path / "elsewhere").mkdir()
    receiver = tmp_path / "elsewhere" / "receiver.py"
    receiver.write_text(RECEIVER)
    out = run(receiver, stdin=payload).decode().split("\n")
    assert out[0] == "18.0 3628800 1.5 1.5 127"   # helper and SCALE came along; fastmath kept
    assert out[1] == "refused: True"              # the declared signature came along


CACHED_SENDER = """
import pickle, sys
import kiln

@kiln.njit(cache=True)
def poly(x):
    return 3.0 * x * x + 2.0 * x + 1.0

sys.stdout.buffer.write(pickle.dumps(poly))
"""

CACHED_RECEIVER = """
import pickle, sys
import _kiln
poly = pickle.loads(sys.stdin.buffer.read())
value = poly(2.0)
print(value, [r["from_cache"] for r in _kiln.profiler_compiles() if r["function"] == "poly"])
"""


def test_a_cache_true_function_sent_by_value_loads_from_a_shared_cache(tmp_path, monkeypatch):
    """The first process it reaches compiles it and stores the machine code;
    the next, sharing the cache directory, links that instead of compiling."""
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "shared-cache"))
    sender = tmp_path / "sender.py"
    sender.write_text(CACHED_SENDER)
    payload = run(sender)
    receiver = tmp_path / "receiver.py"
    receiver.write_text(CACHED_RECEIVER)
    first = run(receiver, stdin=payload).decode().strip()
    second = run(receiver, stdin=payload).decode().strip()
    assert first == "17.0 [False]" and second == "17.0 [True]", (first, second)


def test_a_function_of_an_importable_module_travels_by_reference(tmp_path, monkeypatch):
    (tmp_path / "shapes_for_pickle.py").write_text(textwrap.dedent("""
        import kiln

        @kiln.njit
        def area(w, h):
            return w * h

        @kiln.vectorize(["float64(float64)"])
        def twice(x):
            return 2 * x

        @kiln.vectorize
        def thrice(x):
            return 3 * x
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import shapes_for_pickle
    data = pickle.dumps(shapes_for_pickle.area)
    assert b"shapes_for_pickle" in data and b"return w * h" not in data
    assert pickle.loads(data) is shapes_for_pickle.area
    assert pickle.loads(data)(3, 4) == 12
    for made in (shapes_for_pickle.twice, shapes_for_pickle.thrice):
        data = pickle.dumps(made)
        assert b"shapes_for_pickle" in data and b"return" not in data and pickle.loads(data) is made


POOLS = """
import concurrent.futures, multiprocessing
import numpy as np
import _kiln
import kiln

@kiln.njit
def norm2(a):
    s = 0.0
    for v in a:
        s += v * v
    return s

def compiled_here(_):   # every compile of this process, as the profiler records it
    return [r["function"] for r in _kiln.profiler_compiles()]

if __name__ == "__main__":
    rows = [np.arange(float(n % 6)) for n in range(24)]
    ctx = multiprocessing.get_context("spawn")   # a fresh interpreter per worker: nothing inherited
    with ctx.Pool(2) as pool:
        print(pool.map(norm2, rows, chunksize=1))   # the function pickled with each task
        print(pool.map(compiled_here, range(8), chunksize=1))
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        print(list(ex.map(norm2, rows)))
    print([norm2(r) for r in rows])
    from kiln import worker_records   # what the workers told this process they compiled
    print(sorted({(r["function"], r["pid"]) for r in worker_records.collect()}))
"""


def test_process_pools_run_kiln_functions_compiling_them_once_a_worker(tmp_path):
    script = tmp_path / "pools.py"
    script.write_text(POOLS)
    pool, compiles, futures, here, told = run(script).decode().strip().split("\n")
    assert pool == futures == here == str([float(sum(i * i for i in range(n % 6))) for n in range(24)])
    compiles = eval(compiles)
    assert all(c in ([], ["norm2"]) for c in compiles) and ["norm2"] in compiles
    told = eval(told)   # each worker of both pools that compiled, once: at least one per pool
    assert 2 <= len(told) <= 4 and {name for name, _ in told} == {"norm2"}


@kiln.njit
def _inner_maker(k):
    return k + 1


def test_a_function_made_in_a_function_travels_by_value():
    def make():
        @kiln.njit
        def plus(x):
            return _inner_maker(x) * 2
        return plus
    made = make()
    f = pickle.loads(pickle.dumps(made))
    assert f is made and f(3) == 8   # unpickled where it was made: itself



CLUSTER = """
import numpy as np
import dask.array as da
from dask.distributed import Client, LocalCluster
import kiln

@kiln.njit
def pi_hits(n, seed):
    np.random.seed(seed)
    hits = 0
    for _ in range(n):
        x, y = np.random.random(), np.random.random()
        if x * x + y * y <= 1.0:
            hits += 1
    return hits

@kiln.njit
def smooth(block):
    out = np.empty_like(block)
    for i in range(block.shape[0]):
        out[i] = 0.5 * block[i] + 1.0
    return out

def compiled_here():   # every compile of this process, as the profiler records it
    import _kiln
    return sorted(r["function"] for r in _kiln.profiler_compiles())

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        hits = client.gather(client.map(pi_hits, [20000] * 12, range(12)))
        x = da.from_array(np.arange(2000.0), chunks=100)
        blocks = x.map_blocks(smooth).compute()
        per_worker = client.run(compiled_here)
    print(hits == [pi_hits(20000, s) for s in range(12)], np.array_equal(blocks, smooth(np.arange(2000.0))))
    print(4.0 * sum(hits) / (20000 * 12))
    print(sorted(per_worker.values()))
"""


def test_a_dask_cluster_of_worker_processes_runs_kiln_functions_compiling_each_once(tmp_path):
    script = tmp_path / "cluster.py"
    script.write_text(CLUSTER)
    same, pi, per_worker = run(script).decode().strip().split("\n")[-3:]
    assert same == "True True"
    assert abs(float(pi) - 3.14159) < 0.05
    workers = eval(per_worker)
    assert len(workers) == 2
    for compiled in workers:   # whatever tasks a worker ran, it compiled each function once
        assert len(compiled) == len(set(compiled)) and set(compiled) <= {"pi_hits", "smooth"}
    assert {name for compiled in workers for name in compiled} == {"pi_hits", "smooth"}


UFUNC_SENDER = """
import pickle, sys
import numpy as np
import kiln

OFFSET = 0.5

@kiln.vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def shifted_sum(x, y):
    return x + y + OFFSET

@kiln.vectorize
def square(x):
    return x * x

@kiln.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def l2(row, out):
    s = 0.0
    for v in row:
        s += v * v
    out[0] = np.sqrt(s)

@kiln.cfunc("float64(float64)")
def halve(x):
    return x / 2

sys.stdout.buffer.write(pickle.dumps((shifted_sum, square, l2, halve)))
"""

UFUNC_RECEIVER = """
import pickle, sys
import numpy as np
shifted_sum, square, l2, halve = pickle.loads(sys.stdin.buffer.read())
print(type(shifted_sum).__name__, shifted_sum(np.arange(3.0), 1.0).tolist(), shifted_sum.types)
print(square(np.arange(4)).tolist(), l2(np.array([[3.0, 4.0], [6.0, 8.0]])).tolist(), halve(5.0), halve.ctypes(7.0))
"""


def test_ufuncs_gufuncs_and_cfuncs_of_main_travel_by_value(tmp_path):
    sender = tmp_path / "sender.py"
    sender.write_text(UFUNC_SENDER)
    payload = run(sender)
    sender.unlink()
    receiver = tmp_path / "receiver.py"
    receiver.write_text(UFUNC_RECEIVER)
    first, second = run(receiver, stdin=payload).decode().strip().split("\n")
    assert first == "ufunc [1.5, 2.5, 3.5] ['dd->d', 'll->l']"   # a NumPy ufunc, its loops made again
    assert second == "[0, 1, 4, 9] [5.0, 10.0] 2.5 3.5"


def test_numpys_own_ufuncs_still_pickle_by_name():
    assert pickle.loads(pickle.dumps(np.add)) is np.add
