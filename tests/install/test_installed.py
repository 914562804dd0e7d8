"""Kiln installed the standard way (pyproject.toml; scripts/setup.sh installs it):
Debian's /usr/bin/python3 imports it with no PYTHONPATH, an ordinary ipykernel
loads its IPython extension, `jupyter nbconvert --execute` runs a notebook
through the system-wide kernelspec, and `pip install .` into a venv builds it
from the source alone. Each runs in an environment stripped of what the test
session sets up (PYTHONPATH, the session's own kernelspec), as a user's shell is."""
import json
import os
import re
import subprocess

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SESSION_ONLY = ("PYTHONPATH", "JUPYTER_PATH", "IPYTHONDIR", "KILN_BUILD_DIR")

SUM_SCRIPT = """\
import json, sys
import numpy as np
import _kiln, kiln

@kiln.njit
def total(a):
    s = 0.0
    for x in a:
        s += x
    return s

print(json.dumps({"kiln": kiln.__file__, "ext": _kiln.__file__, "version": kiln.__version__,
                  "total": total(np.arange(10.0)), "compiled": len(total.signatures)}))
"""


def tree_version():
    text = open(os.path.join(ROOT, "python", "kiln", "__init__.py")).read()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def user_env():
    return {k: v for k, v in os.environ.items() if k not in SESSION_ONLY}


def run_script(python, tmp_path):
    (tmp_path / "total.py").write_text(SUM_SCRIPT)
    done = subprocess.run([python, "total.py"], cwd=tmp_path, env=user_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def outside_tree(path):
    return not os.path.realpath(path).startswith(os.path.realpath(ROOT) + os.sep)


def test_debian_python_imports_the_installed_package(tmp_path):
    got = run_script("/usr/bin/python3", tmp_path)
    assert outside_tree(got["kiln"]) and outside_tree(got["ext"]), got
    assert got["version"] == tree_version()
    assert got["total"] == 45.0 and got["compiled"] == 1
    version = subprocess.run(["/usr/bin/python3", "-m", "kiln", "--version"], cwd=tmp_path, env=user_env(),
                             capture_output=True, text=True, timeout=120)
    assert version.returncode == 0 and version.stdout == f"kiln {tree_version()}\n", version


def cell_text(cell):
    parts = []
    for out in cell.outputs:
        parts.append(out.get("text", "") or out.get("data", {}).get("text/plain", ""))
    return "".join(parts)


def test_load_ext_in_an_ordinary_ipykernel(tmp_path, monkeypatch):
    for name in SESSION_ONLY:
        monkeypatch.delenv(name, raising=False)
    nb = new_notebook(cells=[
        new_code_cell("%load_ext kiln.ipython\nimport kiln, numpy as np"),
        new_code_cell("@kiln.njit\ndef twice(x):\n    return 2 * x\ntwice(21)"),
        new_code_cell("%compare -r 2 py: twice.py_func(4); kiln: twice(4)"),
        new_code_cell("%kiln_annotate twice"),
        new_code_cell("%kiln_sysinfo"),
        new_code_cell("%%jit\ndef thrice(x):\n    return 3 * x"),
        new_code_cell("thrice(5)"),
    ])
    NotebookClient(nb, kernel_name="python3", timeout=180,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [out for cell in nb.cells for out in cell.outputs if out.output_type == "error"]
    assert errors == []
    result, footer = nb.cells[1].outputs
    assert result.data["text/plain"] == "42"
    assert footer.data["text/plain"].startswith("kiln: compiled twice(int64) in ")
    assert "agrees" in cell_text(nb.cells[2])
    assert "int64" in cell_text(nb.cells[3])                      # the annotated types
    sysinfo = cell_text(nb.cells[4])
    package = re.search(r"kiln package\s*:\s*(\S+)", sysinfo, re.I).group(1)
    assert outside_tree(package), sysinfo                          # the installed copy, not the tree
    assert "15" in cell_text(nb.cells[6])


def test_nbconvert_runs_a_notebook_through_the_system_kernelspec(tmp_path):
    nb = new_notebook(cells=[new_code_cell(
        "import kiln\n\n@kiln.njit\ndef triangle(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n\n"
        "triangle(1000)")])
    nbformat.write(nb, tmp_path / "course.ipynb")
    done = subprocess.run(["jupyter", "nbconvert", "--to", "html", "--execute",
                           "--ExecutePreprocessor.kernel_name=kiln", "course.ipynb"],
                          cwd=tmp_path, env=user_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tmp_path / "course.html").read_text()
    assert "499500" in html and 'class="kiln-compile"' in html


def test_pip_install_into_a_venv_builds_from_the_source_alone(tmp_path):
    """The build a newcomer runs: the tracked files only (no build folder to reuse),
    setuptools from Debian (--no-build-isolation: nothing is downloaded)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout
    src = tmp_path / "src"
    src.mkdir()
    subprocess.run(["tar", "--null", "-T", "-", "-cf", str(tmp_path / "src.tar")], cwd=ROOT, input=files, check=True)
    subprocess.run(["tar", "-xf", str(tmp_path / "src.tar")], cwd=src, check=True)
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in user_env().items() if k != "KILN_CMAKE_BUILD_DIR"}
    done = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "."], cwd=src,
                          env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    got = run_script(python, tmp_path)
    assert got["kiln"].startswith(str(venv)) and got["ext"].startswith(str(venv)), got
    assert got["total"] == 45.0 and got["version"] == tree_version()
