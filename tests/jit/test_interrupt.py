"""An infinite loop in compiled code stops on SIGINT (what the kernel sends
for an interrupt, and Ctrl-C in a terminal) as KeyboardInterrupt, and the
process keeps running. The child process runs the loops; this process
signals it, as the kernel is signalled, and times how long it takes to stop."""
import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import sys
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

@kiln.jit
def spin_in_try(n):
    # a bare except in compiled code does not catch KeyboardInterrupt
    x = 0
    try:
        while n > 0:
            x += 1
    except:
        x = -1
    return x

for f, arg in ((spin, 1), (count, 10**9), (spin_in_try, 1)):
    f(0)   # compiled before the clock starts
    print("ready", flush=True)
    try:
        f(arg)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
print("alive", count(3), flush=True)
"""


def test_sigint_stops_compiled_loops(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("KILN_BUILD_DIR", os.path.join(root, "build"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(build, "python"), os.path.join(root, "python")]))
    script = tmp_path / "spin.py"   # compiled functions need their source in a file
    script.write_text(CHILD)
    child = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        stops = []
        for _ in range(3):
            assert child.stdout.readline().strip() == "ready"
            time.sleep(0.3)   # well inside the compiled loop by now
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            line = child.stdout.readline().strip()
            stops.append(time.monotonic() - sent)
            assert line == "interrupted"
        assert child.stdout.readline().strip() == "alive 12"
        assert child.wait(timeout=60) == 0
        # the issue asks for "within a second"; the bound is loose for a busy
        # machine: what is checked is that a loop with no end stops at all
        assert all(s < 5 for s in stops), stops
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
