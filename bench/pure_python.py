#!/usr/bin/env python3
"""Plain Python (no Kiln code) in Kiln's kernel, in ipykernel and in /usr/bin/python3, side by side.

A course's lesson is a ratio against the Python loop, so the loop must run in the kernel as fast
as it does anywhere else. Each workload below is a classic pure-Python shape (integer loops,
float arithmetic, recursion, dicts and strings, method calls on objects, sorting tuples); each is
timed inside the process that runs it (best of several calls), the three places taking turns for
several rounds, and the best of the rounds kept. Ratios are Kiln / ipykernel and
Kiln / /usr/bin/python3, with their geometric means. Usage:
    KILN_BUILD_DIR=build /usr/bin/python3 bench/pure_python.py [--rounds 4]"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap

from kernel_latency import BUILD, Kernel

WORKLOADS = {
    "integer loops": """
        def integer_loops():
            s = 0
            for i in range(3000):
                for j in range(100):
                    s += (i ^ j) & 7
            return s
    """,
    "float arithmetic": """
        def float_arithmetic():
            x, y, acc = 0.1, 0.2, 0.0
            for i in range(300000):
                x = 3.7 * x * (1.0 - x)
                y = (y * 1.0001 + x) % 1.0
                acc += x * y - 0.5
            return acc
    """,
    "recursion": """
        def recursion():
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)
            return fib(23)
    """,
    "dicts and strings": """
        def dicts_and_strings():
            counts = {}
            for i in range(60000):
                word = "w" + str(i % 997)
                counts[word] = counts.get(word, 0) + 1
            return ",".join(f"{k}={v}" for k, v in sorted(counts.items()))
    """,
    "object calls": """
        def object_calls():
            class Vec:
                __slots__ = ("x", "y")
                def __init__(self, x, y):
                    self.x, self.y = x, y
                def add(self, other):
                    return Vec(self.x + other.x, self.y + other.y)
                def norm2(self):
                    return self.x * self.x + self.y * self.y
            v, step = Vec(0.0, 0.0), Vec(0.5, -0.25)
            total = 0.0
            for _ in range(60000):
                v = v.add(step)
                total += v.norm2()
            return total
    """,
    "sorting tuples": """
        def sorting_tuples():
            rows = [((i * 7919) % 1009, -i, str(i)) for i in range(40000)]
            rows.sort()
            return rows[0], sorted(rows, key=lambda r: r[2])[0]
    """,
}
CALLS = 5  # calls of each workload per round; the best is its time


def program():
    """The code every place runs: the workloads, then one line of JSON with each one's best time."""
    defs = "\n".join(textwrap.dedent(code) for code in WORKLOADS.values())
    functions = {name: code.split("def ", 1)[1].split("(", 1)[0] for name, code in WORKLOADS.items()}
    timing = textwrap.dedent(f"""
        import json as _json, time as _time
        def _best(fn):
            best = float("inf")
            for _ in range({CALLS}):
                t0 = _time.perf_counter()
                fn()
                best = min(best, _time.perf_counter() - t0)
            return best
        print(_json.dumps({{name: _best(globals()[fn]) for name, fn in {functions!r}.items()}}))
    """)
    return defs + timing


def run_in_kernel(kernel, code):
    text = []

    def on_iopub(msg):
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            text.append(msg["content"]["text"])
    _, reply = kernel.execute(code, on_iopub)
    if reply["status"] != "ok":
        raise RuntimeError(f"{reply.get('ename')}: {reply.get('evalue')}")
    return json.loads("".join(text).strip().splitlines()[-1])


def run_in_python(code):
    r = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    code = program()
    best = {"kiln": {}, "ipykernel": {}, "python3": {}}
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as prefix:
        subprocess.run([os.path.join(BUILD, "kiln-kernel"), "install", "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
        os.environ["IPYTHONDIR"] = os.path.join(prefix, "ipython")
        kernels = {"kiln": Kernel("kiln"), "ipykernel": Kernel("python3")}
        try:
            for _ in range(args.rounds):
                times = {place: run_in_kernel(k, code) for place, k in kernels.items()}
                times["python3"] = run_in_python(code)
                for place, row in times.items():
                    for name, s in row.items():
                        best[place][name] = min(s, best[place].get(name, s))
        finally:
            for k in kernels.values():
                k.close()
    kiln, ipk, py = best["kiln"], best["ipykernel"], best["python3"]
    print(f"best of {CALLS} calls, best of {args.rounds} rounds taking turns; ms")
    print(f"{'workload':20s} {'kiln':>9s} {'ipykernel':>9s} {'python3':>9s} {'kiln/ipyk':>10s} {'kiln/py3':>9s}")
    for name in WORKLOADS:
        print(f"{name:20s} {1e3 * kiln[name]:9.2f} {1e3 * ipk[name]:9.2f} {1e3 * py[name]:9.2f} "
              f"{kiln[name] / ipk[name]:10.3f} {kiln[name] / py[name]:9.3f}")
    print(f"{'geometric mean':20s} {'':9s} {'':9s} {'':9s} {geomean([kiln[n] / ipk[n] for n in WORKLOADS]):10.3f} "
          f"{geomean([kiln[n] / py[n] for n in WORKLOADS]):9.3f}   (goal: kiln/ipyk <= 1.03)")
    print(f"(CPU cores: {os.cpu_count()}; python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
