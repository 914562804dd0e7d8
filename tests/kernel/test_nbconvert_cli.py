"""`jupyter nbconvert --execute` from the command line, through the Kiln kernel (the
kernelspec this test session installed), writes the executed notebook as HTML with
Kiln's results and its cell footer."""
import subprocess

import nbformat

from conftest import needs_kiln


@needs_kiln
def test_nbconvert_executes_a_notebook_through_the_kiln_kernel(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import kiln\n\n@kiln.njit\ndef triangle(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n\n"
        "triangle(1000)")]
    nbformat.write(nb, tmp_path / "course.ipynb")
    done = subprocess.run(["jupyter", "nbconvert", "--to", "html", "--execute",
                           "--ExecutePreprocessor.kernel_name=kiln", "course.ipynb"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tmp_path / "course.html").read_text()
    assert "499500" in html                              # the cell's result
    assert 'class="kiln-compile"' in html and "compiled code for" in html   # Kiln's footer
