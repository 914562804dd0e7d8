"""notebooks/hello.ipynb run by scripts/run_notebook.py (nbclient through the Kiln kernel):
prints, C output, a result, displays, a plot and an error cell, each checked in the executed
notebook, and the HTML export written next to it."""
import base64
import os
import subprocess
import sys

import nbformat

from conftest import BUILD, ROOT, plain


def test_hello_notebook_runs_with_every_output_in_its_cell():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run_notebook.py"),
                        os.path.join(ROOT, "notebooks", "hello.ipynb"), BUILD],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    nb = nbformat.read(os.path.join(BUILD, "notebooks", "hello.ipynb"), as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code"]

    def streams(cell, name):
        return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == name)

    assert streams(cells[0], "stdout").startswith("Hello from the Kiln kernel, Python 3.")
    assert streams(cells[0], "stderr") == "to stderr\n"
    assert streams(cells[1], "stdout") == "printf from C lands here too\n"
    (result,) = [o for o in cells[2].outputs if o.output_type == "execute_result"]
    assert result.data["text/plain"] == "285" and result.execution_count == cells[2].execution_count
    displays = [o for o in cells[3].outputs if o.output_type == "display_data"]
    assert "<b>bold</b>" in displays[0].data["text/html"]
    assert displays[1].data["text/markdown"] == "*Markdown* too"
    (png,) = [o.data["image/png"] for o in cells[4].outputs if "image/png" in o.get("data", {})]
    assert base64.b64decode(png).startswith(b"\x89PNG")
    assert "Wall time" in streams(cells[5], "stdout")
    (error,) = [o for o in cells[6].outputs if o.output_type == "error"]
    assert error.ename == "ZeroDivisionError"
    assert "1 / 0" in plain("\n".join(error.traceback))
    assert streams(cells[7], "stdout") == "still running after the error; squares = [0, 1, 4, 9]\n"
    with open(os.path.join(BUILD, "notebooks", "hello.html"), encoding="utf-8") as f:
        html = f.read()
    assert "data:image/png;base64," in html and "ZeroDivisionError" in html
