"""Issue 7 in a real notebook, run by nbclient through the real Kiln kernel:
a prange loop's parallel view as the cell's HTML output, the seed's
serial-by-necessity loop with its warning, seed 002's vectorize, and
cache=True for a function defined in a cell: a second kernel session loads
it instead of compiling."""
import os
import re
import sys

import nbformat
import pytest
from nbclient import NotebookClient

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "magics"))
import magics_notebook as mn  # noqa: E402  (shared kernelspec installer)

CELLS = [
    ("setup", "import numpy as np\nimport kiln\nfrom kiln import prange, vectorize"),
    ("prange", """
@kiln.njit(parallel=True)
def row_sums(m, out):
    for i in prange(m.shape[0]):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s
    return out

m = np.arange(12.0).reshape(3, 4)
print(row_sums(m, np.zeros(3)).tolist())
row_sums.parallel_report()
"""),
    ("unsafe", """
@kiln.njit(parallel=True)
def evaluate_functions(n):
    vector1 = np.linspace(-1500.00, 1500.0, n)
    for i in prange(20):
        vector2 = np.sin(vector1)
        vector1 = np.arcsin(vector2)
    return vector1

r = evaluate_functions(10)
"""),
    ("vectorize", """
@vectorize('float64(float64, float64)', target='parallel')
def f_vec(x, y):
    return np.cos(x**2 + y**2) / (1 + x**2 + y**2)

grid = np.linspace(-3, 3, 500)
x, y = np.meshgrid(grid, grid)
print(round(float(np.max(f_vec(x, y))), 12), round(float(np.max(np.cos(x**2 + y**2) / (1 + x**2 + y**2))), 12))
"""),
    ("cache", """
@kiln.njit(cache=True)
def cube_sum(n):
    s = 0
    for i in range(n):
        s += i * i * i
    return s

print(cube_sum(100), "cache_load" in list(cube_sum.stats.values())[0])
"""),
]


def run_notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    for tag, src in CELLS:
        nb.cells.append(nbformat.v4.new_code_cell(src.strip(), metadata={"tags": [tag]}))
    NotebookClient(nb, kernel_name="kiln", timeout=300,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    mn.install_kernelspec()
    cache = tmp_path_factory.mktemp("kiln-cache")
    old = os.environ.get("KILN_CACHE_DIR")
    os.environ["KILN_CACHE_DIR"] = str(cache)   # the kernels inherit it
    try:
        return [run_notebook(tmp_path_factory.mktemp("run")) for _ in range(2)]
    finally:
        if old is None:
            del os.environ["KILN_CACHE_DIR"]
        else:
            os.environ["KILN_CACHE_DIR"] = old


def stdout(nb, tag):
    return "".join(o.text for o in mn.cell(nb, tag).outputs if o.output_type == "stream" and o.name == "stdout")


def result(nb, tag):
    """The cell's value as the notebook shows it (Kiln's footer comes as display data)."""
    (r,) = [o for o in mn.cell(nb, tag).outputs if o.output_type == "execute_result"]
    return r.data


def test_prange_cell_shows_its_parallel_view(sessions):
    nb = sessions[0]
    assert stdout(nb, "prange") == "[6.0, 22.0, 38.0]\n"
    shown = result(nb, "prange")
    page = shown["text/html"]
    assert "<table" in page and "class='par'" in page and "for i in prange(m.shape[0]):" in page
    assert "1 loop(s) found, 1 running in parallel" in shown["text/plain"]


def test_unsafe_loop_warns_once_in_the_cells_footer(sessions):
    outputs = mn.cell(sessions[0], "unsafe").outputs
    # a warning line of the footer, not a block of stderr headed by the cell's generated file name
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    footer = mn.outputs(sessions[0], "unsafe", "text/plain")[-1]
    (line,) = [l for l in footer.splitlines() if l.startswith("  warning: ")]
    assert re.fullmatch(r"  warning: the prange loop of evaluate_functions at line \d+ runs serially: `vector1` is "
                        r"assigned in one iteration .*", line), footer
    html = mn.outputs(sessions[0], "unsafe", "text/html")[-1]
    assert html.count('<div class="kiln-warning"') == 1 and "`vector1` is assigned in one iteration" in html


def test_seed_vectorize_in_a_cell(sessions):
    got, want = stdout(sessions[0], "vectorize").split()
    assert abs(float(got) - float(want)) < 1e-12


def test_cell_function_cache_hits_in_a_second_session(sessions):
    assert stdout(sessions[0], "cache").split() == ["24502500", "False"]
    assert stdout(sessions[1], "cache").split() == ["24502500", "True"]
