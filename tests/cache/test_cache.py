"""cache=True across processes: a second process links the stored code
instead of compiling; changing the function, a kiln function it calls or a
global it reads recompiles; a truncated or corrupted file is replaced and
never run; concurrent writers leave a valid entry; notebook cells cache
too. Each scenario runs real Python processes against a private
KILN_CACHE_DIR."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))

PROGRAM = """
import json, sys
import numpy as np
import kiln

SCALE = {scale}

@kiln.njit(cache=True)
def helper(x):
    return x * SCALE{helper_extra}

@kiln.njit(cache=True, parallel=True)
def total(a, d):
    s = 0
    for i in kiln.prange(a.shape[0]):
        s += helper(a[i]) // d{total_extra}
    return s

a = np.arange(-50, 1000)
result = total(a, 3)
try:
    total(a, 0)
    raised = None
except ZeroDivisionError as e:
    raised = str(e)
(stats,) = total.stats.values()
print(json.dumps({{"result": int(result), "cached": "cache_load" in stats, "raised": raised,
                  "parallel": total.parallel_report().loops[0]["parallel"]}}))
"""


def expected(scale, helper_extra="", total_extra=""):
    h = eval("lambda x: x * SCALE" + helper_extra, {"SCALE": scale})
    t = eval("lambda v: v" + total_extra)
    return sum(t(h(x) // 3) for x in range(-50, 1000))


def env_for(cache_dir):
    env = dict(os.environ)
    env["KILN_CACHE_DIR"] = str(cache_dir)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(BUILD, "python"), os.path.join(ROOT, "python")])
    return env


def run(path, cache_dir):
    out = subprocess.run([sys.executable, str(path)], env=env_for(cache_dir), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "prog.py"

    def write(scale=3, helper_extra="", total_extra=""):
        path.write_text(textwrap.dedent(PROGRAM.format(scale=scale, helper_extra=helper_extra,
                                                       total_extra=total_extra)))
        return path
    return write


def entries(cache_dir):
    return sorted(p for p in os.listdir(cache_dir) if p.endswith(".kc") and not p.startswith(".tmp"))


def test_second_process_loads_instead_of_compiling(program, tmp_path):
    cache = tmp_path / "cache"
    path = program()
    first, second = run(path, cache), run(path, cache)
    assert not first["cached"] and second["cached"]
    for r in (first, second):
        assert r["result"] == expected(3)
        assert r["raised"] == "integer division or modulo by zero"   # exceptions work from cached code
        assert r["parallel"]                                         # and the diagnostics survive
    assert [e.split("-")[0] for e in entries(cache)] == ["total"]


@pytest.mark.parametrize("change", [
    {"total_extra": " + 1"},          # the function itself
    {"helper_extra": " + 7"},         # a kiln function it calls (numba issue 1833)
    {"scale": 5},                     # a global constant
])
def test_changes_recompile_and_replace_the_entry(program, tmp_path, change):
    cache = tmp_path / "cache"
    run(program(), cache)
    assert run(program(), cache)["cached"]
    path = program(**change)
    changed = run(path, cache)
    assert not changed["cached"]
    assert changed["result"] == expected(change.get("scale", 3), change.get("helper_extra", ""),
                                         change.get("total_extra", ""))
    assert run(path, cache)["cached"]
    assert len(entries(cache)) == 1      # the stale entry was replaced, not kept beside


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_damaged_entries_are_detected_and_replaced(program, tmp_path, damage):
    cache = tmp_path / "cache"
    path = program()
    run(path, cache)
    (name,) = entries(cache)
    f = cache / name
    data = f.read_bytes()
    if damage == "truncate":
        f.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        i = len(data) // 2   # inside the machine code
        f.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:])
    elif damage == "empty":
        f.write_bytes(b"")
    else:
        f.write_bytes(os.urandom(len(data)))
    again = run(path, cache)
    assert not again["cached"] and again["result"] == expected(3)
    assert run(path, cache)["cached"]


def test_concurrent_writers_leave_a_valid_entry(program, tmp_path):
    cache = tmp_path / "cache"
    path = program()
    procs = [subprocess.Popen([sys.executable, str(path)], env=env_for(cache), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["result"] == expected(3)
    assert len(entries(cache)) == 1
    assert not [p for p in os.listdir(cache) if p.startswith(".tmp")]
    assert run(path, cache)["cached"]


CELL = '''
from IPython.core.interactiveshell import InteractiveShell
import json
shell = InteractiveShell.instance()
shell.run_cell("""
import kiln
@kiln.njit(cache=True)
def cube(x):
    return x * x * x
r = cube(7)
""", store_history=True)
(stats,) = shell.user_ns["cube"].stats.values()
print(json.dumps({"result": shell.user_ns["r"], "cached": "cache_load" in stats}))
'''


def test_notebook_cells_cache_too(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "cell.py"
    path.write_text(CELL)
    first, second = run(path, cache), run(path, cache)
    assert first == {"result": 343, "cached": False}
    assert second == {"result": 343, "cached": True}


OWN_EXCEPTION = """
import json
import kiln

class Negative(Exception):
    pass

@kiln.njit(cache=True)
def checked(x):
    if x < 0:
        raise Negative("negative input")
    return x * 2

try:
    checked(-1)
    message = None
except Negative as e:
    message = str(e)
(stats,) = checked.stats.values()
print(json.dumps({"result": checked(21), "message": message, "cached": "cache_load" in stats}))
"""


def test_code_pointing_at_a_python_object_is_not_cached(tmp_path):
    """A user's exception class lives at an address only this process knows."""
    cache = tmp_path / "cache"
    path = tmp_path / "own.py"
    path.write_text(OWN_EXCEPTION)
    for _ in range(2):
        out = subprocess.run([sys.executable, str(path)], env=env_for(cache), capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {"result": 42, "message": "negative input", "cached": False}
        assert "CacheWarning: kiln: cannot cache checked: its machine code refers to a Python object" in out.stderr
    assert not os.path.exists(cache) or entries(cache) == []


UFUNCS = """
import json
import numpy as np
import kiln
from kiln import cache

@kiln.vectorize(["float64(float64, float64)", "int64(int64, int64)"], cache=True)
def hyp(x, y):
    return x * x + y * y

@kiln.guvectorize(["void(float64[:], float64[:])"], "(n)->()", cache=True)
def total(x, res):
    s = 0.0
    for v in x:
        s += v
    res[0] = s

@kiln.njit(cache=True)
def hyp_plain(x, y):          # the same source as a plain function: its own entry
    return x * x + y * y

a = np.arange(6.0).reshape(2, 3)
print(json.dumps({"hyp": hyp(a, 2.0).tolist(), "ints": hyp(np.arange(3), 1).tolist(),
                  "total": total(a).tolist(), "plain": hyp_plain(3.0, 4.0),
                  "loaded": sorted("cache_load" in s.stats for s in cache._loaded.values())}))
"""


def test_ufunc_kernels_cache_apart_from_plain_functions(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "ufuncs.py"
    path.write_text(UFUNCS)
    first, second = run(path, cache), run(path, cache)
    want = {"hyp": [[4.0, 5.0, 8.0], [13.0, 20.0, 29.0]], "ints": [1, 2, 5], "total": [3.0, 12.0], "plain": 25.0}
    for r in (first, second):
        assert {k: r[k] for k in want} == want
    assert first["loaded"] == [False] * 4 and second["loaded"] == [True] * 4
    assert len(entries(cache)) == 4


def test_sysinfo_shows_where_the_cache_is(tmp_path, monkeypatch):
    from kiln import sysinfo
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "here"))
    rows = dict(dict(sysinfo.report())["Kiln"])
    assert rows["Cache location (cache=True)"] == f"{tmp_path / 'here'} (not created yet)"
    import kiln
    assert rows["Threads for parallel=True"] == str(kiln.get_num_threads())


THREADS = """
import json, threading
import numpy as np
import kiln

@kiln.njit(cache=True, nogil=True)
def poly(x):
    return 3 * x * x - 2 * x + 1

results, errors = [None] * 8, []
barrier = threading.Barrier(8)

def work(k):
    barrier.wait()   # all first calls at once: one compile or load, no duplicate symbols
    try:
        results[k] = poly(k)
    except Exception as e:
        errors.append(repr(e))

threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"results": results, "errors": errors}))
"""


def test_threads_calling_a_cached_function_first_at_once(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "threads.py"
    path.write_text(THREADS)
    want = [3 * k * k - 2 * k + 1 for k in range(8)]
    for _ in range(2):   # compile, then load
        assert run(path, cache) == {"results": want, "errors": []}


UNSAFE = '''
import json, warnings
import numpy as np
import kiln

@kiln.njit(cache=True, parallel=True)
def smear(a):
    for i in kiln.prange(1, a.shape[0]):
        a[i] = a[i - 1] + 1.0
    return a

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = smear(np.zeros(50))
(stats,) = smear.stats.values()
print(json.dumps({"result": out.tolist(), "cached": "cache_load" in stats,
                  "warnings": [[w.category.__name__, str(w.message), w.filename, w.lineno] for w in caught],
                  "report": smear.parallel_report().text(4)}))
'''


def test_a_cache_hit_warns_and_reports_as_the_compile_did(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "unsafe.py"
    path.write_text(UNSAFE)
    first, second = run(path, cache), run(path, cache)
    assert not first["cached"] and second["cached"]
    assert first["result"] == second["result"] == [float(i) for i in range(50)]   # serial: no race
    (warning,) = first["warnings"]
    assert warning[0] == "ParallelSafetyWarning" and "runs serially" in warning[1]
    assert warning[2] == str(path) and warning[3] == 8   # the prange line
    assert second["warnings"] == first["warnings"]
    assert second["report"] == first["report"] and "SERIAL" in first["report"]


TABLE_PROGRAM = """
import json
import numpy as np
import kiln

TABLE = np.array({values}, dtype=np.float32)

@kiln.njit(cache=True)
def lookup(i):
    return TABLE[i % TABLE.shape[0]] * 2

result = [float(lookup(i)) for i in range(5)]
(stats,) = lookup.stats.values()
print(json.dumps({{"result": result, "cached": "cache_load" in stats}}))
"""


def test_a_global_array_is_frozen_into_the_cached_code_and_its_values_key_it(tmp_path):
    cache, path = tmp_path / "cache", tmp_path / "table.py"
    for values in ([1.5, -2.0, 4.0], [1.5, -2.0, 4.25]):
        path.write_text(TABLE_PROGRAM.format(values=values))
        first, second = run(path, cache), run(path, cache)
        assert not first["cached"] and second["cached"]   # the bytes are in the object file, not an address
        want = [2 * values[i % 3] for i in range(5)]
        assert first["result"] == want and second["result"] == want


FUNCTION_ARGUMENT_PROGRAM = """
import json
import kiln

@kiln.njit
def integrand(x):
    return {body}

@kiln.njit(cache=True)
def midpoint(f, a, b, n):
    h = (b - a) / n
    s = 0.0
    for i in range(n):
        s += f(a + (i + 0.5) * h)
    return s * h

result = midpoint(integrand, 0.0, 2.0, 4)
(stats,) = midpoint.stats.values()
print(json.dumps({{"result": result, "cached": "cache_load" in stats}}))
"""


def test_a_kiln_function_passed_as_an_argument_keys_the_entry_by_its_source(tmp_path):
    cache, path = tmp_path / "cache", tmp_path / "integrate.py"
    for body, f in (("x * x", lambda x: x * x), ("x * x * x", lambda x: x * x * x)):
        path.write_text(FUNCTION_ARGUMENT_PROGRAM.format(body=body))
        first, second = run(path, cache), run(path, cache)
        assert not first["cached"] and second["cached"]   # an edit of the function passed in recompiles
        want = sum(f((i + 0.5) * 0.5) for i in range(4)) * 0.5
        assert first["result"] == pytest.approx(want) and second["result"] == pytest.approx(want)
    assert len(entries(cache)) == 1   # the edited function replaced the entry in its slot


STRING_ARGUMENT_PROGRAM = """
import json
import kiln

@kiln.njit(cache=True)
def scale(x, how):
    if how == "double":
        return f"{2 * x}"
    return how + "?"

result = [scale(3, "double"), scale(3, "other")]
(stats,) = scale.stats.values()
print(json.dumps({"result": result, "cached": "cache_load" in stats}))
"""


def test_a_string_argument_caches_and_a_returned_string_comes_back(tmp_path):
    cache, path = tmp_path / "cache", tmp_path / "strings.py"
    path.write_text(STRING_ARGUMENT_PROGRAM)
    first, second = run(path, cache), run(path, cache)
    assert not first["cached"] and second["cached"]
    assert first["result"] == second["result"] == ["6", "other?"]


GENERATOR_PROGRAM = """
import json
import kiln

STEP = {step}

@kiln.njit
def multiples(n):
    for i in range(n):
        yield {body}

@kiln.njit(cache=True)
def total(n):
    s = 0
    for v in multiples(n):
        s += v
    return s

result = total(10)
(stats,) = total.stats.values()
print(json.dumps({{"result": result, "cached": "cache_load" in stats}}))
"""


def test_a_loop_over_a_generator_keys_the_entry_by_the_generator(tmp_path):
    # the generator's body is compiled into the loop's function, so an edit
    # of it, or of a global it reads, must recompile that function
    cache, path = tmp_path / "cache", tmp_path / "generators.py"
    for step, body, want in ((2, "i * STEP", 90), (2, "i * STEP + 1", 100), (3, "i * STEP + 1", 145)):
        path.write_text(GENERATOR_PROGRAM.format(step=step, body=body))
        first, second = run(path, cache), run(path, cache)
        assert not first["cached"] and second["cached"]
        assert first["result"] == second["result"] == want
