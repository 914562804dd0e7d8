"""Loop patterns beyond the seeds' workloads (jit_vs_numba.py): loops over
np.ndindex and np.ndenumerate, float running min/max under fastmath, a
sum under a condition, and a loop over a generator.
Kiln against Numba side by side: best steady call of each, the two taking
turns in one process, and the ratio Kiln/Numba.

Usage: KILN_BUILD_DIR=build /usr/bin/python3 bench/loops_vs_numba.py"""
import os
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jit_vs_numba import alternate, ms  # noqa: E402

WORKLOADS = {
    "sum of a[idx] over np.ndindex(a.shape), 1000x1000": """
        @nb.njit
        def by_index(a):
            s = 0.0
            for idx in np.ndindex(a.shape):
                s += a[idx]
            return s
        def make():
            return by_index, (np.random.default_rng(0).random((1000, 1000)),)
    """,
    "weighted sum over np.ndenumerate(a), 1000x1000": """
        @nb.njit
        def weighted(a):
            s = 0.0
            for idx, v in np.ndenumerate(a):
                s += v * idx[1]
            return s
        def make():
            return weighted, (np.random.default_rng(0).random((1000, 1000)),)
    """,
    "np.ndenumerate of a strided 3-d view into an array": """
        @nb.njit
        def scatter(a):
            out = np.zeros(a.shape)
            for idx, v in np.ndenumerate(a):
                out[idx] = v * idx[0] - idx[2]
            return out
        def make():
            return scatter, (np.random.default_rng(0).random((80, 100, 120))[::2, :, ::-1],)
    """,
    "running max(m, a[i]) of 1e6 float64, fastmath": """
        @nb.njit(fastmath=True)
        def running_max(a):
            m = -np.inf
            for i in range(a.shape[0]):
                m = max(m, a[i])
            return m
        def make():
            return running_max, (np.random.default_rng(0).random(1_000_000),)
    """,
    "running min by `if x < m` of 1e6 float32, fastmath": """
        @nb.njit(fastmath=True)
        def running_min(a):
            m = a[0]
            for x in a:
                if x < m:
                    m = x
            return m
        def make():
            return running_min, (np.random.default_rng(0).random(1_000_000, dtype=np.float32),)
    """,
    "`if x > 0: s += x * x` over 1e6 float64": """
        @nb.njit
        def positive_squares(a):
            s = 0.0
            for x in a:
                if x > 0:
                    s += x * x
            return s
        def make():
            return positive_squares, (np.random.default_rng(0).standard_normal(1_000_000),)
    """,
    "the same sum through a generator, `for v in gen(a)`": """
        @nb.njit
        def positive_squared(a):
            for x in a:
                if x > 0:
                    yield x * x
        @nb.njit
        def total(a):
            s = 0.0
            for v in positive_squared(a):
                s += v
            return s
        def make():
            return total, (np.random.default_rng(0).standard_normal(1_000_000),)
    """,
}


def main():
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'workload':52} {'kiln ms':>9} {'numba ms':>9} {'ratio':>6}")
        for i, (name, code) in enumerate(WORKLOADS.items()):
            mods = []
            for tool in ("kiln", "numba"):
                mods.append(f"loop{i}_{tool}")
                with open(os.path.join(folder, mods[-1] + ".py"), "w") as f:
                    f.write(f"import numpy as np\nimport {tool} as nb\n" + textwrap.dedent(code))
            k, n = alternate(folder, *mods, repeats=15)
            print(f"{name:52} {ms(k)} {ms(n)} {k / n:6.2f}")


if __name__ == "__main__":
    main()
