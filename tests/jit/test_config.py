"""kiln.config: the settings code written for numba.config reads, from KILN_
environment variables set before `import kiln` (each case a fresh process)."""
import json
import os
import subprocess
import sys

SCRIPT = """
import json, numpy as np
import kiln

@kiln.njit(parallel=True)
def total(a):
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        s += a[i]
    return s

@kiln.njit
def at(a, i):
    return a[i]

out = {"disable_jit": kiln.config.DISABLE_JIT, "threads": kiln.config.NUMBA_NUM_THREADS,
       "default_threads": kiln.config.NUMBA_DEFAULT_NUM_THREADS, "boundscheck": kiln.config.BOUNDSCHECK,
       "cache_dir": kiln.config.CACHE_DIR, "plain_python": type(total).__name__ == "function",
       "total": total(np.arange(10.0)), "checked": at._kiln_options["boundscheck"] if isinstance(at, kiln.Dispatcher) else None}
if out["plain_python"] or out["checked"]:   # unchecked compiled code would read past the array
    try:
        at(np.arange(3.0), 5)
        out["out_of_range"] = "no error"
    except IndexError:
        out["out_of_range"] = "IndexError"
print(json.dumps(out))
"""


def run(tmp_path, **env):
    script = tmp_path / "uses_config.py"
    script.write_text(SCRIPT)
    full = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    for k in ("KILN_DISABLE_JIT", "KILN_BOUNDSCHECK", "KILN_NUM_THREADS", "KILN_CACHE_DIR"):
        full.pop(k, None)
    full.update(env)
    done = subprocess.run([sys.executable, str(script)], env=full, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_defaults_say_what_kiln_does(tmp_path):
    got = run(tmp_path)
    assert got["disable_jit"] == 0 and got["boundscheck"] is None and got["cache_dir"] == ""
    assert got["threads"] == got["default_threads"] == len(os.sched_getaffinity(0))
    assert got["plain_python"] is False and got["total"] == 45.0 and got["checked"] is False


def test_disable_jit_gives_back_the_python_function(tmp_path):
    got = run(tmp_path, KILN_DISABLE_JIT="1")
    assert got["disable_jit"] == 1 and got["plain_python"] is True and got["total"] == 45.0
    assert got["out_of_range"] == "IndexError"   # Python's own indexing


def test_boundscheck_forced_on_for_every_function(tmp_path):
    got = run(tmp_path, KILN_BOUNDSCHECK="1", KILN_NUM_THREADS="1", KILN_CACHE_DIR=str(tmp_path / "cache"))
    assert got["boundscheck"] == 1 and got["checked"] is True and got["out_of_range"] == "IndexError"
    assert got["threads"] == 1 and got["cache_dir"] == str(tmp_path / "cache")


def test_a_bad_value_is_refused_at_import(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("import kiln\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), KILN_DISABLE_JIT="yes")
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "KILN_DISABLE_JIT must be 0 or 1, not 'yes'" in done.stderr
