"""What only a fresh process shows: SIGINT stops a long prange loop on every
thread as KeyboardInterrupt (one run element by element too) and the process goes on; KILN_NUM_THREADS sets
the pool's size (and a bad value is ignored); a forked child (multiprocessing)
gets a working pool of its own."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))

# A child that warms `spin` up, has SIGINT sent to itself 0.3 s into a long
# call, reports when the KeyboardInterrupt came, then calls `spin` again.
INTERRUPTED = r"""
kiln.set_num_threads(3)
spin(2)
subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
t0 = time.monotonic()
try:
    spin(LONG)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - t0)
print("alive", ALIVE)
"""

SPIN = r"""
import os, subprocess, time
import kiln
from kiln import prange

@kiln.njit(parallel=True)
def spin(n):
    s = 0
    for i in prange(n):
        for j in range(n):
            s += i ^ j
    return s
""" + INTERRUPTED.replace("LONG", "10**6").replace("ALIVE", "spin(3)")

# a prange loop run element by element (parallel_interchange.c)
SPIN_INSIDE_OUT = r"""
import os, subprocess, time
import numpy as np
import kiln
from kiln import prange

@kiln.njit(parallel=True)
def spin(n):
    v = np.linspace(0.0, 1.0, 1000)
    for i in prange(n):
        v = np.cos(v)
    return v
""" + INTERRUPTED.replace("LONG", "10**12").replace("ALIVE", "abs(spin(1)[-1] - np.cos(1.0)) < 1e-15")


def interrupted_after(out):
    (stop,) = [float(line.split()[1]) for line in out.splitlines() if line.startswith("interrupted")]
    return stop


def run(code, tmp_path, **env_extra):
    script = tmp_path / "child.py"   # compiled functions need their source in a file
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]),
               **env_extra)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_sigint_stops_a_parallel_loop(tmp_path):
    out = run(SPIN, tmp_path)
    assert 0.25 < interrupted_after(out) < 5, out    # loose for a busy machine: the point is that it stops
    assert "alive 12" in out


def test_sigint_stops_a_loop_run_element_by_element(tmp_path):
    out = run(SPIN_INSIDE_OUT, tmp_path)
    assert 0.25 < interrupted_after(out) < 5, out
    assert "alive True" in out


def test_kiln_num_threads_sets_the_pool(tmp_path):
    code = "import kiln\nprint(kiln.get_num_threads())\n"
    assert run(code, tmp_path, KILN_NUM_THREADS="3").strip() == "3"
    default = run(code, tmp_path, KILN_NUM_THREADS="").strip()
    assert run(code, tmp_path, KILN_NUM_THREADS="lots").strip() == default
    assert int(default) == len(os.sched_getaffinity(0))


FORK = r"""
import multiprocessing as mp
import numpy as np
import kiln
from kiln import prange

@kiln.njit(parallel=True)
def total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s

def child(k):
    return total(np.arange(100_000.0) * k)

kiln.set_num_threads(3)
print(total(np.arange(100_000.0)))   # the parent's workers exist now
with mp.get_context("fork").Pool(2) as pool:
    print(pool.map(child, [1, 2, 3]))
"""


def test_forked_children_get_their_own_pool(tmp_path):
    out = run(FORK, tmp_path).split("\n")
    s = float(sum(range(100_000)))
    assert float(out[0]) == s
    assert out[1] == str([s, 2 * s, 3 * s])
