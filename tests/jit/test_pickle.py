"""Kiln functions pickled into other processes (python/kiln/pickling.py): by
value from a script's __main__, into a fresh process that has neither the
script nor its functions (their source travels with them); by reference
from an importable module; and through multiprocessing's and
concurrent.futures' process pools, which pickle the functions they run."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kiln


def env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def run(path, stdin=None):
    done = subprocess.run([sys.executable, str(path)], env=env(), cwd=path.parent, input=stdin,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return done.stdout


SENDER = """
import pickle, sys
import numpy as np
import kiln

SCALE = 3.0

@kiln.njit
def helper(x):
    return x * SCALE

@kiln.njit(fastmath=True)
def total(a):
    s = 0.0
    for v in a:
        s += helper(v)
    return s

@kiln.njit
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

@kiln.njit("float64(float64)")
def half(x):
    return x / 2

assert total(np.arange(4.0)) == 18.0   # compiled here too: what travels is the function, not machine code
sys.stdout.buffer.write(pickle.dumps((total, fact, half)))
"""

RECEIVER = """
import pickle, sys
import numpy as np
total, fact, half = pickle.loads(sys.stdin.buffer.read())
print(total(np.arange(4.0)), fact(10), half(3.0), half(3), total._kiln_options["fastmath_flags"])
try:
    half(np.zeros(2))
except TypeError as e:
    print("refused:", "no matching definition" in str(e))
"""


def test_functions_of_main_travel_by_value_to_a_process_without_their_source(tmp_path):
    sender = tmp_path / "sender.py"
    sender.write_text(SENDER)
    payload = run(sender)
    sender.unlink()   # the receiver has only the pickle
    (tmp_path / "elsewhere").mkdir()
    receiver = tmp_path / "elsewhere" / "receiver.py"
    receiver.write_text(RECEIVER)
    out = run(receiver, stdin=payload).decode().split("\n")
    assert out[0] == "18.0 3628800 1.5 1.5 127"   # helper and SCALE came along; fastmath kept
    assert out[1] == "refused: True"              # the declared signature came along


def test_a_function_of_an_importable_module_travels_by_reference(tmp_path, monkeypatch):
    (tmp_path / "shapes_for_pickle.py").write_text(textwrap.dedent("""
        import kiln

        @kiln.njit
        def area(w, h):
            return w * h
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import shapes_for_pickle
    data = pickle.dumps(shapes_for_pickle.area)
    assert b"shapes_for_pickle" in data and b"return w * h" not in data
    assert pickle.loads(data) is shapes_for_pickle.area
    assert pickle.loads(data)(3, 4) == 12


POOLS = """
import concurrent.futures, multiprocessing
import numpy as np
import kiln

@kiln.njit
def norm2(a):
    s = 0.0
    for v in a:
        s += v * v
    return s

if __name__ == "__main__":
    rows = [np.arange(float(n)) for n in range(6)]
    ctx = multiprocessing.get_context("spawn")   # a fresh interpreter per worker: nothing inherited
    with ctx.Pool(2) as pool:
        print(pool.map(norm2, rows))
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        print(list(ex.map(norm2, rows)))
    print([norm2(r) for r in rows])
"""


def test_process_pools_run_kiln_functions(tmp_path):
    script = tmp_path / "pools.py"
    script.write_text(POOLS)
    pool, futures, here = run(script).decode().strip().split("\n")
    assert pool == futures == here == str([float(sum(i * i for i in range(n))) for n in range(6)])


@kiln.njit
def _inner_maker(k):
    return k + 1


def test_a_function_made_in_a_function_travels_by_value():
    def make():
        @kiln.njit
        def plus(x):
            return _inner_maker(x) * 2
        return plus
    f = pickle.loads(pickle.dumps(make()))
    assert f(3) == 8 and isinstance(f, kiln.Dispatcher)

