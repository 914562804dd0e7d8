"""Kiln against Numba for issue 7, side by side in one run: prange loops,
whole-array reductions, reductions of array expressions, argmax and array
reductions (speedup of parallel=True over the same code serial, per
tool), vectorize
ufuncs (cpu and parallel targets), and the first call of a cache=True
function in a fresh process whose cache is warm.

Usage: KILN_BUILD_DIR=build /usr/bin/python3 bench/jit_parallel_vs_numba.py [--quick]
Timing helpers (steady, first_call, ms) are bench/jit_vs_numba.py's: steady
times alternate Kiln and Numba in one process (both see the same machine
load), best of several calls; first calls run in fresh processes."""
import os
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jit_vs_numba import QUICK, first_call, ms, steady  # noqa: E402

HEADER = "import math\nimport numpy as np\nimport {tool} as nb\nfrom {tool} import prange\n"

# Seconds between timed calls: each call starts with the other tool's
# worker threads asleep (Numba's OpenMP workers spin for about 3 ms of CPU
# after a parallel call, Kiln's watch for the next run for under 0.25 ms),
# so that neither measures the other's spinning on the same cores.
SETTLE = 0.02

# name -> code with {par} (True/False) and {rng} (prange/range); make() -> (fn, args)
PRANGE = {
    "matmul N=200 prange": """
        @nb.njit(parallel={par})
        def matmul(A, B, C):
            n = A.shape[0]
            for i in {rng}(n):
                for j in range(n):
                    tmp = 0.0
                    for k in range(n):
                        tmp += A[i, k] * B[k, j]
                    C[i, j] = tmp
        def make():
            rng = np.random.default_rng(0)
            return matmul, (rng.random((200, 200)), rng.random((200, 200)), np.zeros((200, 200)))
    """,
    "evaluate_functions n=100 (seed 000)": """
        @nb.njit(parallel={par})
        def evaluate_functions(n):
            vector1 = np.linspace(-1500.00, 1500.0, n)
            iterations = 10000
            for i in {rng}(iterations):
                vector2 = np.sin(vector1)
                vector1 = np.arcsin(vector2)
                vector2 = np.cos(vector1)
                vector1 = np.arccos(vector2)
                vector2 = np.tan(vector1)
                vector1 = np.arctan(vector2)
            return vector1
        def make():
            return evaluate_functions, (100,)
    """,
    "sum of sqrt 1e7 prange reduction": """
        @nb.njit(parallel={par})
        def sum_sqrt(a):
            s = 0.0
            for i in {rng}(a.shape[0]):
                s += math.sqrt(a[i])
            return s
        def make():
            return sum_sqrt, (np.random.default_rng(0).random(10**7),)
    """,
    # no loop: parallel=True alone splits the whole-array reductions ({rng} unused)
    "np.sum + max + mean of 1e7, parallel=True": """
        @nb.njit(parallel={par})
        def stats(a):
            return np.sum(a) + a.max() + np.mean(a)
        def make():
            return stats, (np.random.default_rng(0).random(10**7),)
    """,
    # the reduction of an array expression: split without making x * y
    "np.sum(x * y) of 1e7, parallel=True": """
        @nb.njit(parallel={par})
        def dot(x, y):
            return np.sum(x * y)
        def make():
            rng = np.random.default_rng(0)
            return dot, (rng.random(10**7), rng.random(10**7))
    """,
    "np.argmax of 1e7, parallel=True": """
        @nb.njit(parallel={par})
        def where_max(a):
            return np.argmax(a)
        def make():
            return where_max, (np.random.default_rng(0).random(10**7),)
    """,
    "column sums 20000x500, acc += a[i]": """
        @nb.njit(parallel={par})
        def column_sums(a):
            acc = np.zeros(a.shape[1])
            for i in {rng}(a.shape[0]):
                acc += a[i]
            return acc
        def make():
            return column_sums, (np.random.default_rng(0).random((20000, 500)),)
    """,
}

# seed 004's norm per row, for both gufunc targets (TARGET: the decorator's extra argument)
L2_NORM = """
        @nb.guvectorize(['(float32[:], float32[:])'], '(i)->()'TARGET)
        def l2_norm(vec, out):
            acc = 0.0
            for value in vec:
                acc += value**2
            out[0] = math.sqrt(acc)
        def make():
            return l2_norm, (np.random.default_rng(0).random((10**6, 8), dtype=np.float32),)
    """

# seed 002's f(x, y) over a meshgrid (OPTIONS: the decorator's arguments; VIEW: the part of
# the grid it is given)
F_XY = """
        @nb.vectorizeOPTIONS
        def f_vec(x, y):
            return np.cos(x**2 + y**2) / (1 + x**2 + y**2)
        def run(x, y):
            return np.max(f_vec(x, y))
        def make():
            grid = np.linspace(-3, 3, 5000)
            x, y = np.meshgrid(grid, grid)
            return run, (xVIEW, yVIEW)
    """

# seed 001's maximum of two arrays (VIEW: the part of them it is given)
MAXIMUM = """
        @nb.vectorize(['float32(float32,float32)'])
        def maximum_4(a, b):
            return max(a, b)
        def make():
            rng = np.random.default_rng(0)
            a = rng.random((256, 256, 256), dtype=np.float32)
            b = rng.random((256, 256, 256), dtype=np.float32)
            return maximum_4, (aVIEW, bVIEW)
    """

UFUNCS = {
    "f(x, y) 5000x5000 meshgrid, vectorize cpu (seed 002)": F_XY.replace("OPTIONS", "").replace("VIEW", ""),
    "f(x, y) 5000x5000 meshgrid, vectorize parallel":
        F_XY.replace("OPTIONS", "(['float64(float64, float64)'], target='parallel')").replace("VIEW", ""),
    # a 1-d view reaches the loop strided (NumPy buffers n-d ones): Kiln runs a kernel with
    # math calls through contiguous blocks, a cheap one element by element (the row below seed 001's)
    "f(x, y) on every other element of the meshgrid, vectorize cpu":
        F_XY.replace("OPTIONS", "(['float64(float64, float64)'])").replace("VIEW", ".ravel()[::2]"),
    # seed 004's gufuncs on the CPU: a norm per row, a small matrix product per stack entry
    "l2_norm (i)->() of 1e6 x 8 float32, guvectorize cpu (seed 004)": L2_NORM.replace("TARGET", ""),
    "l2_norm (i)->() of 1e6 x 8 float32, guvectorize parallel": L2_NORM.replace("TARGET", ", target='parallel'"),
    "matmulcore (m,n),(n,p)->(m,p) of 20000 4x4 float32, guvectorize cpu": """
        @nb.guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])'], '(m,n),(n,p)->(m,p)')
        def matmulcore(A, B, C):
            m, n = A.shape
            n, p = B.shape
            for i in range(m):
                for j in range(p):
                    C[i, j] = 0
                    for k in range(n):
                        C[i, j] += A[i, k] * B[k, j]
        def make():
            rng = np.random.default_rng(0)
            return matmulcore, (rng.random((20000, 4, 4), dtype=np.float32), rng.random((20000, 4, 4), dtype=np.float32))
    """,
    "maximum of two float32 256^3 (seed 001)": MAXIMUM.replace("VIEW", ""),
    "maximum of every other float32 of two 256^3 arrays, vectorize": MAXIMUM.replace("VIEW", ".ravel()[::2]"),
}

CACHED = """
@nb.njit(cache=True)
def closest(points):
    best = 1e300
    n = points.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            d = math.sqrt(dx * dx + dy * dy)
            if d < best:
                best = d
    return best
def make():
    return closest, (np.random.default_rng(0).random((50, 2)),)
"""


def write(folder, name, tool, code):
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write(HEADER.format(tool=tool) + textwrap.dedent(code))
    return name


def main():
    repeats, runs = (3, 1) if QUICK else (7, 3)
    import numba
    threads = os.cpu_count()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["KILN_CACHE_DIR"] = os.path.join(folder, "kiln-cache")
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(folder, "numba-cache")
        print(f"Kiln vs Numba {numba.__version__} on {threads} CPU(s), best of {repeats} steady calls\n")
        print("prange: parallel=True against the same loop serial (speedup = serial / parallel)")
        print(f"{'workload':42} {'kiln ser ms':>11} {'kiln par ms':>11} {'speedup':>7}   "
              f"{'numba ser ms':>12} {'numba par ms':>12} {'speedup':>7}")
        for i, (name, code) in enumerate(PRANGE.items()):
            t = {}
            for par in (False, True):
                variant = code.replace("{par}", str(par)).replace("{rng}", "prange" if par else "range")
                mods = [write(folder, f"p{i}_{tool}_{par}", tool, variant) for tool in ("kiln", "numba")]
                t["kiln", par], t["numba", par] = steady(folder, *mods, repeats, SETTLE)
            ks, kp, ns, np_ = t["kiln", False], t["kiln", True], t["numba", False], t["numba", True]
            print(f"{name:42} {ms(ks):>11} {ms(kp):>11} {ks / kp:7.2f}   {ms(ns):>12} {ms(np_):>12} {ns / np_:7.2f}")
        print("  (evaluate_functions: Kiln finds vector1 carried between iterations, keeps them in order and"
              " splits the elements across threads instead;\n   Numba runs the iterations in parallel and returns"
              " other numbers)")

        print("\nvectorize and guvectorize ufuncs (ratio = kiln / numba; goal <= 1)")
        for i, (name, code) in enumerate(UFUNCS.items()):
            k, n = steady(folder, write(folder, f"u{i}_kiln", "kiln", code),
                          write(folder, f"u{i}_numba", "numba", code), repeats, SETTLE)
            print(f"  {name:68} kiln {ms(k)} numba {ms(n)}   ratio {k / n:5.2f}")

        print("\ncache=True: import + first call in a fresh process with a warm cache (ratio = kiln / numba)")
        k_mod, n_mod = write(folder, "c_kiln", "kiln", CACHED), write(folder, "c_numba", "numba", CACHED)
        cold = {tool: first_call(folder, tool, mod, 1) for tool, mod in (("kiln", k_mod), ("numba", n_mod))}
        warm = {tool: first_call(folder, tool, mod, max(runs, 3)) for tool, mod in (("kiln", k_mod), ("numba", n_mod))}
        print(f"  cold (compile + store)   kiln {ms(cold['kiln'])} numba {ms(cold['numba'])}")
        print(f"  warm (load from disk)    kiln {ms(warm['kiln'])} numba {ms(warm['numba'])}   "
              f"ratio {warm['kiln'] / warm['numba']:5.2f}")


if __name__ == "__main__":
    main()
