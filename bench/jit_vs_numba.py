"""Kiln against Numba on the seeds' CPU workloads, side by side in one run.

For each workload it prints the steady run time (best of several calls, Kiln
and Numba taking turns in one process),
the first-call time in a fresh process (import of the code, compile, first
run), the compile time (first call minus steady run) and the ratios
Kiln/Numba; then the dispatch overhead per call of an identity function,
`import kiln` against `import numba` (on top of NumPy), and what polling for
Ctrl-C costs Kiln's loops (the same code compiled without the polls).

Usage: KILN_BUILD_DIR=build /usr/bin/python3 bench/jit_vs_numba.py [--quick]
Each workload is written to its own module in a temporary folder (compiled
functions need their source in a file), once with `import kiln as nb` and
once with `import numba as nb`."""
import compileall
import math
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
PATHS = [os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]
QUICK = "--quick" in sys.argv

# Each workload: its code (using `nb`, which is kiln or numba) and `make()`,
# which returns (function, arguments). Sizes are the issue's.
WORKLOADS = {
    "quadratic map 1e7": """
        @nb.jit
        def qm(x, x0, n):
            # the output array is passed in: arrays made in compiled code come later in Kiln
            x[0] = x0
            for t in range(n):
                x[t+1] = 4 * x[t] * (1 - x[t])
        def make():
            n = 10**7
            return qm, (np.empty(n + 1), 0.1, n)
    """,
    "matmul triple loop N=200": """
        @nb.jit
        def matrix_multiplication(A, B, C):
            n = len(A[0])
            for i in range(n):
                for j in range(n):
                    tmp = 0.
                    for k in range(n):
                        tmp += A[i, k]*B[k, j]
                    C[i, j] = tmp
        def make():
            rng = np.random.default_rng(0)
            return matrix_multiplication, (rng.random((200, 200)), rng.random((200, 200)), np.zeros((200, 200)))
    """,
    "maximum loops 256^3 float32": """
        @nb.jit(nopython=True)
        def maximum_3(a, b, c):
            for i in range(a.shape[0]):
                for j in range(a.shape[1]):
                    for k in range(a.shape[2]):
                        c[i,j,k] = max(a[i,j,k], b[i,j,k])
            return c
        def make():
            rng = np.random.default_rng(0)
            a = rng.random((256, 256, 256), dtype=np.float32)
            b = rng.random((256, 256, 256), dtype=np.float32)
            return maximum_3, (a, b, np.zeros_like(a))
    """,
    "mandelbrot 1024x1536": """
        def mandel(x, y, max_iters):
            c = complex(x, y)
            z = 0.0j
            for i in range(max_iters):
                z = z*z + c
                if z.real*z.real + z.imag*z.imag >= 4:
                    return i
            return max_iters
        mandel_numba = nb.jit(nb.uint32(nb.float32, nb.float32, nb.uint32))(mandel)
        @nb.jit
        def create_fractal(xmin, xmax, ymin, ymax, image, iters):
            height, width = image.shape
            pixel_size_x = (xmax - xmin)/width
            pixel_size_y = (ymax - ymin)/height
            for x in range(width):
                real = xmin + x*pixel_size_x
                for y in range(height):
                    imag = ymin + y*pixel_size_y
                    color = mandel_numba(real, imag, iters)
                    image[y, x] = color
        def make():
            xmin, xmax, ymin, ymax = np.array([-2.0, 1.0, -1.0, 1.0]).astype('float32')
            return create_fractal, (xmin, xmax, ymin, ymax, np.zeros((1024, 1536), dtype=np.uint8), 50)
    """,
    "closest pair 8100 points": """
        @nb.jit('Tuple((float64[:], float64[:], float64))(float64[:,:])', nopython=True)
        def closest(points):
            min_distance2 = 999999.
            mdp1, mdp2 = None, None
            for i in range(len(points)):
                for j in range(i+1, len(points)):
                    distance2 = (points[i][0]-points[j][0])**2 + \\
                                (points[i][1]-points[j][1])**2
                    if distance2 < min_distance2:
                       min_distance2 = distance2
                       mdp1, mdp2 = points[i], points[j]
            return mdp1, mdp2, math.sqrt(min_distance2)
        def make():
            return closest, (np.random.default_rng(0).random((8100, 2)),)
    """,
    "monte-carlo pi 1e7": """
        @nb.jit(nopython=True, nogil=True)
        def approximate_pi(num_samples):
            num_points_circ = 0
            for i in range(num_samples):
                x = random.uniform(-1, 1)
                y = random.uniform(-1, 1)
                if x**2 + y**2 < 1.0:
                    num_points_circ += 1
            return 4 * num_points_circ / num_samples
        def make():
            return approximate_pi, (10**7,)
    """,
    "sum of sqrt 1e7, fastmath off": """
        @nb.njit(fastmath=False)
        def do_sum(A):
            acc = 0.
            for x in A:
                acc += np.sqrt(x)
            return acc
        def make():
            return do_sum, (np.random.default_rng(0).random(10**7),)
    """,
    "sum of sqrt 1e7, fastmath on": """
        @nb.njit(fastmath=True)
        def do_sum_fast(A):
            acc = 0.
            for x in A:
                acc += np.sqrt(x)
            return acc
        def make():
            return do_sum_fast, (np.random.default_rng(0).random(10**7),)
    """,
    "hypot (jit calling jit)": """
        @nb.jit
        def square(x):
            return x ** 2
        @nb.jit
        def hypot(x, y):
            return math.sqrt(square(x) + square(y))
        def make():
            return hypot, (3.0, 4.0)
    """,
    "average_numbers with signature": """
        def average_numbers(x, y):
            return (x + y)/2.0
        numba_average_numbers = nb.jit(nb.float64(nb.int32, nb.int32))(average_numbers)
        def make():
            return numba_average_numbers, (3, 4)
    """,
}

# Workloads whose loops poll for Ctrl-C (the polling cost is measured on them).
LOOPS = ["quadratic map 1e7", "matmul triple loop N=200", "maximum loops 256^3 float32",
         "mandelbrot 1024x1536", "closest pair 8100 points", "monte-carlo pi 1e7",
         "sum of sqrt 1e7, fastmath on"]

HEADER = "import math, random\nimport numpy as np\nimport {tool} as nb\n"


def write_modules(folder):
    """{(tool, workload): module name}; `kiln_nopoll` is Kiln without polls."""
    names = {}
    for i, (name, code) in enumerate(WORKLOADS.items()):
        body = textwrap.dedent(code)
        for tool in ("kiln", "numba", "kiln_nopoll"):
            mod = f"w{i}_{tool}"
            src = HEADER.format(tool="kiln" if tool.startswith("kiln") else "numba") + body
            if tool == "kiln_nopoll":
                src = src.replace("@nb.jit\n", "@nb.jit(_no_interrupt_poll=True)\n")
                src = src.replace("nopython=True", "nopython=True, _no_interrupt_poll=True")
                src = src.replace("fastmath=True)", "fastmath=True, _no_interrupt_poll=True)")
            with open(os.path.join(folder, mod + ".py"), "w") as f:
                f.write(src)
            names[(tool, name)] = mod
    return names


def env_for(folder):
    return dict(os.environ, PYTHONPATH=os.pathsep.join(PATHS + [folder]))


FIRST_CALL = """
import time, numpy, {tool}
t0 = time.perf_counter()
import {mod} as w
t1 = time.perf_counter()
fn, args = w.make()   # the input data is not the compiler's time
t2 = time.perf_counter()
fn(*args)
print((t1 - t0) + (time.perf_counter() - t2))
"""


def first_call(folder, tool, mod, runs, warm_up=True):
    """Best of `runs` fresh processes: import of the code (signatures compile
    there) + first call (compile + run), without making the input data.
    Kiln starts LLVM on a thread at `import kiln`; that thread has the time
    make() takes to finish, so warm_up=False measures without it too."""
    out = []
    env = env_for(folder)
    if not warm_up:
        env["KILN_NO_WARM_UP"] = "1"
    for _ in range(runs):
        code = FIRST_CALL.format(tool="kiln" if tool.startswith("kiln") else "numba", mod=mod)
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{mod}: {r.stderr[-2000:]}")
        out.append(float(r.stdout.strip().splitlines()[-1]))
    return min(out)


ALTERNATE = """
import time, numpy, kiln
import {mod_a} as a, {mod_b} as b
fa, args_a = a.make()
fb, args_b = b.make()
fa(*args_a)
fb(*args_b)
best = [float("inf"), float("inf")]
for _ in range({repeats}):   # alternate, so both see the same machine
    for k, (fn, args) in enumerate(((fa, args_a), (fb, args_b))):
        time.sleep({settle})
        t0 = time.perf_counter()
        fn(*args)
        best[k] = min(best[k], time.perf_counter() - t0)
print(best[0], best[1])
"""


def alternate(folder, mod_a, mod_b, repeats, settle=0.0):
    """Best call time after the first of module mod_a's workload and of
    mod_b's, the two taking turns in one process so that both see the same
    load on the machine. settle: seconds to sleep before each timed call,
    so that one tool's idle worker threads have stopped spinning when the
    other's call starts (Numba's OpenMP workers spin about 3 ms of CPU
    after each parallel call; on 2 cores that is half the machine)."""
    code = ALTERNATE.format(mod_a=mod_a, mod_b=mod_b, repeats=repeats, settle=settle)
    r = subprocess.run([sys.executable, "-c", code], env=env_for(folder), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{mod_a}: {r.stderr[-2000:]}")
    a, b = r.stdout.split()
    return float(a), float(b)


def steady(folder, kiln_mod, numba_mod, repeats, settle=0.0):
    """(kiln, numba): best steady call times."""
    return alternate(folder, kiln_mod, numba_mod, repeats, settle)


def polling(folder, with_poll, without, repeats):
    """(with interrupt polls, without): best steady call times."""
    return alternate(folder, with_poll, without, repeats)


# Both tools in one process, taking turns in short rounds: this machine's
# speed drifts by half over tens of milliseconds (a plain Python call read
# 36-60 ns within one process), so a tool timed in a process of its own, or
# in one long stretch, can land in a slow spell the other missed.
DISPATCH = """
import timeit, numpy as np, kiln, numba
def make(tool):
    @tool.njit
    def ident(x):
        return x
    return ident
idents = {"kiln": make(kiln), "numba": make(numba)}
for label, value in (("int", 1), ("float", 1.0), ("1-D array", np.zeros(10)), ("2-D array", np.zeros((3, 3)))):
    best = {}
    for ident in idents.values():
        ident(value)
    for _ in range(15):
        for tool, ident in idents.items():
            n = 20000
            t = timeit.timeit("ident(value)", globals={"ident": ident, "value": value}, number=n) / n
            best[tool] = min(t, best.get(tool, t))
    for tool in idents:
        print(tool, label, best[tool] * 1e9)
"""


def best_dispatch(folder, runs):
    """({label: ns} for Kiln, the same for Numba): the best of `runs`
    processes, each timing both tools in turns."""
    path = os.path.join(folder, "dispatch.py")
    with open(path, "w") as f:
        f.write(DISPATCH)
    best = {"kiln": {}, "numba": {}}
    for _ in range(runs):
        r = subprocess.run([sys.executable, path], env=env_for(folder), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr[-2000:])
        for line in r.stdout.strip().splitlines():
            tool, rest = line.split(" ", 1)
            label, ns = rest.rsplit(" ", 1)
            best[tool][label] = min(float(ns), best[tool].get(label, float(ns)))
    return best["kiln"], best["numba"]


def import_time(folder, tool, runs):
    code = f"import time, numpy\nt0 = time.perf_counter()\nimport {tool}\nprint(time.perf_counter() - t0)"
    times = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", code], env=env_for(folder), capture_output=True, text=True)
        times.append(float(r.stdout.strip()))
    return statistics.median(times)


def vectorized(folder, mod):
    """Whether Kiln still reports a vectorized loop for a workload."""
    code = (f"import {mod} as w\nfn, args = w.make()\nfn(*args)\n"
            "print(any(r['kind'] == 'vectorized' for r in fn.inspect_remarks()))")
    r = subprocess.run([sys.executable, "-c", code], env=env_for(folder), capture_output=True, text=True)
    return r.stdout.strip() == "True"


def ms(x):
    return f"{x * 1e3:9.2f}"


def main():
    repeats, runs = (3, 1) if QUICK else (7, 3)
    # Numba comes byte-compiled, as Debian installs it; so does Kiln's
    # package here, or each fresh process would compile every source newer
    # than its .pyc when PYTHONDONTWRITEBYTECODE keeps Python from writing one
    compileall.compile_dir(os.path.join(ROOT, "python", "kiln"), quiet=1)
    with tempfile.TemporaryDirectory() as folder:
        names = write_modules(folder)
        print(f"Kiln vs Numba (numba {__import__('numba').__version__}), "
              f"best of {repeats} steady calls, best of {runs} fresh processes for the first call\n")
        head = (f"{'workload':34} {'steady ms':>9} {'':>9} {'ratio':>6}   {'first call ms':>13} {'':>9} "
                f"{'ratio':>6}   {'compile ms':>10} {'':>9} {'ratio':>6}")
        print(head)
        print(f"{'':34} {'kiln':>9} {'numba':>9} {'':6}   {'kiln':>13} {'numba':>9} {'':6}   "
              f"{'kiln':>10} {'numba':>9}")
        steady_ratios, first_ratios, cold_ratios, compile_ratios, results = [], [], [], [], {}
        for name in WORKLOADS:
            row = {}
            best = dict(zip(("kiln", "numba"), steady(folder, names[("kiln", name)], names[("numba", name)], repeats)))
            for tool in ("kiln", "numba"):
                fc = first_call(folder, tool, names[(tool, name)], runs)
                row[tool] = (best[tool], fc, max(fc - best[tool], 0.0))
            results[name] = row
            (ks, kf, kc), (ns, nf, nc) = row["kiln"], row["numba"]
            cold_ratios.append(first_call(folder, "kiln", names[("kiln", name)], runs, warm_up=False) / nf)
            steady_ratios.append(ks / ns)
            first_ratios.append(kf / nf)
            compile_ratios.append(max(kc, 1e-6) / max(nc, 1e-6))
            print(f"{name:34} {ms(ks)} {ms(ns)} {ks / ns:6.2f}   {ms(kf):>13} {ms(nf)} {kf / nf:6.2f}   "
                  f"{ms(kc):>10} {ms(nc)} {kc / max(nc, 1e-9):6.2f}")
        geo = math.exp(sum(map(math.log, steady_ratios)) / len(steady_ratios))
        geo_first = math.exp(sum(map(math.log, first_ratios)) / len(first_ratios))
        geo_compile = math.exp(sum(map(math.log, compile_ratios)) / len(compile_ratios))
        geo_cold = math.exp(sum(map(math.log, cold_ratios)) / len(cold_ratios))
        print(f"\ngeometric mean Kiln/Numba: steady {geo:.2f} (goal <= 1.0), first call {geo_first:.3f} "
              f"(goal <= 0.1; it includes one run), compile alone {geo_compile:.3f}")
        print(f"first call with LLVM started by the first compile instead of at import "
              f"(KILN_NO_WARM_UP=1): {geo_cold:.3f}")

        print(f"\ndispatch overhead, ns per call of an identity function, best of {runs} fresh processes, "
              "each taking both tools in turns (Kiln's profiler times calls only in notebook cells: "
              "bench/profiler_overhead.py)")
        kd, nd = best_dispatch(folder, runs)
        for label in kd:
            print(f"  {label:10} kiln {kd[label]:7.0f}   numba {nd[label]:7.0f}   ratio {kd[label] / nd[label]:5.2f}"
                  "   (goal <= 0.5)")

        ki, ni = import_time(folder, "kiln", 5), import_time(folder, "numba", 5)
        print(f"\nimport on top of NumPy (median of 5 fresh processes): kiln {ki * 1e3:.1f} ms, "
              f"numba {ni * 1e3:.1f} ms (goal: kiln < 30 ms)")

        print("\nwhat polling for Ctrl-C costs (Kiln with polls / Kiln without), best steady times "
              "taken alternately in one process")
        costs = []
        for name in LOOPS:
            with_poll, without = polling(folder, names[("kiln", name)], names[("kiln_nopoll", name)], repeats)
            costs.append(with_poll / without)
            print(f"  {name:34} {ms(with_poll)} {ms(without)}   {with_poll / without:5.3f}")
        print(f"  geometric mean {math.exp(sum(map(math.log, costs)) / len(costs)):.3f} (goal <= 1.03)")
        for name in ("maximum loops 256^3 float32", "sum of sqrt 1e7, fastmath on"):
            print(f"  {name}: vectorized with polling: {vectorized(folder, names[('kiln', name)])}")


if __name__ == "__main__":
    main()
