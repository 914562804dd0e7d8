"""SIGINT (the kernel's interrupt, Ctrl-C) stops a long kiln.guvectorize or
kiln.vectorize call as KeyboardInterrupt and the process goes on. A
kernel's counted loops do not poll (it made 8-element rows a third
slower); the ufunc's own loop polls between chunks of rows and elements,
and a while loop in a kernel still polls itself."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))

CHILD = r"""
import math, os, subprocess, time
import numpy as np
import kiln

@kiln.guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def slow_rows(v, out):
    acc = 0.0
    for k in range(20000):
        for x in v:
            acc += math.sqrt(x * x + k)
    out[0] = acc

@kiln.guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def forever(v, out):
    x = 0.0
    while v[0] >= 0:
        x += 1.0
    out[0] = x

@kiln.vectorize(['float64(float64)'])
def slow_element(x):
    acc = 0.0
    for k in range(2000):
        acc += math.sqrt(x + k)
    return acc

# (kernel, a small first call that compiles it before the clock starts, the long call)
calls = ((slow_rows, np.ones((1, 50)), np.ones((20000, 50))), (forever, -np.ones((1, 4)), np.ones((3, 4))),
         (slow_element, np.ones(1), np.ones(10**7)))
for f, first, arg in calls:
    f(first)
    subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    t0 = time.monotonic()
    try:
        f(arg)
        print("finished", f.__name__)
    except KeyboardInterrupt:
        print("interrupted", f.__name__, time.monotonic() - t0)
print("alive", slow_rows(np.zeros((2, 3)))[0] > 0)
"""


def test_sigint_stops_ufunc_calls(tmp_path):
    script = tmp_path / "child.py"   # compiled functions need their source in a file
    script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]))
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    stops = {line.split()[1]: float(line.split()[2]) for line in out.stdout.splitlines() if line.startswith("interrupted")}
    assert set(stops) == {"slow_rows", "forever", "slow_element"}, out.stdout
    for name, t in stops.items():
        assert 0.25 < t < 3, (name, t, out.stdout)   # loose for a busy machine: the point is that it stops
    assert "alive True" in out.stdout
