"""Shared test set-up: the kiln package from python/ and the extension from
the build folder (KILN_BUILD_DIR, default build/) come first on sys.path.
KILN_BUILD_DIR is exported as an absolute path, so that kernels and child
processes the tests start find the same build whatever their working folder."""
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


@pytest.fixture
def run_streaming_child(tmp_path):
    """Runs `script` in a child Python with KILN_STREAM_MIN_BYTES=0 (every
    large-array path of jit/stream_stores.h taken at every size), with
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
