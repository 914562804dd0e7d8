"""Shared test set-up: the kiln package from python/ and the extension from
the build folder (KILN_BUILD_DIR, default build/) come first on sys.path.
KILN_BUILD_DIR is exported as an absolute path, so that kernels and child
processes the tests start find the same build whatever their working folder."""
import gc
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
os.environ["KILN_BUILD_DIR"] = BUILD
for path in (os.path.join(BUILD, "python"), os.path.join(ROOT, "python")):
    if path not in sys.path:
        sys.path.insert(0, path)


@pytest.fixture(autouse=True)
def collect_only_what_the_test_makes(request):
    """The NumPy tests count the runtime's live blocks around each call,
    after a garbage collection (tests/numpy/np_diff.py's live). A full
    collection walks every object of the pytest process, hundreds of
    thousands late in the suite: two per call made those walks most of the
    suite's time (negate's 19 calls took 0.8 s alone, 8.7 s late in the
    suite). There, a test freezes what exists before it, so that its
    collections walk only the objects it made; what it leaves behind goes
    back to the collector after it."""
    if request.node.path.parent.name != "numpy":
        yield
        return
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture
def run_streaming_child(tmp_path):
    """Runs `script` in a child Python with KILN_STREAM_MIN_BYTES=0 (every
    large-array path of jit/lower/stream_stores.h taken at every size), with
    `module_text` importable as `module_name`; returns the JSON object the
    child prints last."""
    def run(module_name, module_text, script):
        (tmp_path / f"{module_name}.py").write_text(module_text)
        env = dict(os.environ, KILN_STREAM_MIN_BYTES="0",
                   PYTHONPATH=os.pathsep.join([str(tmp_path)] + [p for p in sys.path if p]))
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])
    return run
