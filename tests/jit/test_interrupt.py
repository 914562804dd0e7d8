"""An infinite loop in compiled code stops on SIGINT (what the kernel sends
for an interrupt, and Ctrl-C in a terminal) as KeyboardInterrupt, within a
second, and the process keeps running. Run in a child process that another
process signals, as the kernel is signalled."""
import os
import subprocess
import sys

CHILD = r"""
import os, subprocess, sys, time
import kiln

@kiln.jit
def spin(n):
    x = 0
    while n > 0:
        x += 1
    return x

@kiln.jit
def count(n):
    s = 0
    for i in range(n):
        for j in range(n):
            s += i ^ j
    return s

for f, arg in ((spin, 1), (count, 10**9)):
    f(0)
    subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    t0 = time.monotonic()
    try:
        f(arg)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.monotonic() - t0)
print("alive", count(3))
"""


def test_sigint_stops_compiled_loops(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("KILN_BUILD_DIR", os.path.join(root, "build"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(build, "python"), os.path.join(root, "python")]))
    script = tmp_path / "spin.py"   # compiled functions need their source in a file
    script.write_text(CHILD)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
    lines = out.stdout.split("\n")
    assert out.returncode == 0, out.stderr
    stops = [float(line.split()[1]) for line in lines if line.startswith("interrupted")]
    assert len(stops) == 2, out.stdout
    assert all(0.25 < s < 5 for s in stops), stops  # bound loose for a busy machine: the point is it stops
    assert "alive 12" in out.stdout
