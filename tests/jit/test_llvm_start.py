"""LLVM's one-time set-up runs on a thread started by `import kiln`
(jit/engine/engine.c); a compile optimizes and emits its machine code while that
thread may still be at work. What a user could do around it must still
work: compile right after the import (eagerly, at decoration, too, and with
cache=True), fork right after it (multiprocessing's default on Linux) and
compile in both processes, or turn the thread off. Each case runs in a
fresh process, since the set-up happens once per process."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRELUDE = r"""
import os, sys
import kiln

@kiln.jit
def poly(x, n):
    s = 0.0
    for i in range(n):
        s = s * x + i
    return s

def expected(x, n):
    s = 0.0
    for i in range(n):
        s = s * x + i
    return s
"""

COMPILE_AT_ONCE = PRELUDE + r"""
assert poly(0.5, 10) == expected(0.5, 10)
print("ok")
"""

FORK_AT_ONCE = PRELUDE + r"""
pid = os.fork()
if pid == 0:
    ok = poly(-1.5, 7) == expected(-1.5, 7)
    os._exit(0 if ok else 3)
ok = poly(2.0, 5) == expected(2.0, 5)
_, status = os.waitpid(pid, 0)
print("ok" if ok and os.WEXITSTATUS(status) == 0 else f"failed {status}")
"""


# Functions without loops: their objects come from the code generator for
# unoptimized code, a target machine of their own that the thread warms first.
STRAIGHT_AT_ONCE = r"""
import math
import kiln

@kiln.jit
def square(x):
    return x ** 2

@kiln.jit
def hypot(x, y):
    return math.sqrt(square(x) + square(y))

for x, y in [(3.0, 4.0), (-3.0, 4.0), (0.0, -0.0), (1e150, -1e150), (float("inf"), 1.0), (float("nan"), 1.0)]:
    got, want = hypot(x, y), math.sqrt(x * x + y * y)
    assert got == want or (math.isnan(got) and math.isnan(want)), (x, y, got, want)
assert "sqrt" in hypot.inspect_asm(hypot.signatures[0])   # the code that runs
print("ok")
"""


SEVERAL_AT_ONCE = r"""
import os, sys
import numpy as np
import kiln

@kiln.jit("float64(float64[:])")            # compiled here, at decoration
def norm(a):
    s = 0.0
    for x in a:
        s += np.sqrt(x * x)
    return s

@kiln.jit(cache=True)
def scale(a, k):
    return a * k

@kiln.jit(cache=True)
def half_sum(x, y):   # no loop: the other machine's object, cached
    return (x + y) / 2.0

@kiln.jit(fastmath=True)
def total(a):
    s = 0.0
    for x in a:
        s += x
    return s

a = np.arange(-50.0, 50.0)
assert norm(a) == sum(abs(float(x)) for x in a)
assert np.array_equal(scale(a, 3.0), a * 3.0)
assert total(a) == -50.0
assert half_sum(3, 4) == 3.5 and half_sum(-7, 2) == -2.5
print("ok")
"""


def _run(tmp_path, code, env_extra=None):
    script = tmp_path / "script.py"   # compiled functions need their source in a file
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **(env_extra or {}))
    return subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


@pytest.mark.parametrize("code", [COMPILE_AT_ONCE, FORK_AT_ONCE, STRAIGHT_AT_ONCE],
                         ids=["compile", "fork", "straight"])
@pytest.mark.parametrize("env", [{}, {"KILN_NO_WARM_UP": "1"}], ids=["warm-up", "no-warm-up"])
def test_compiles_whenever_llvm_starts(tmp_path, code, env):
    r = _run(tmp_path, code, env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "ok"


def test_several_compiles_at_once_while_the_thread_runs(tmp_path):
    # the compiles race the warm-up thread differently in each process
    for i in range(8):
        r = _run(tmp_path, SEVERAL_AT_ONCE, {"KILN_CACHE_DIR": str(tmp_path / f"cache{i % 2}")})
        assert r.returncode == 0, r.stderr[-2000:]
        assert r.stdout.strip() == "ok"
