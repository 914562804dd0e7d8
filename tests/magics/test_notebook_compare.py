"""notebooks/compile_vs_run.ipynb executed through the Kiln kernel: the
%compare tables and charts, -o numbers, the disagreement flag, and
%kiln_sysinfo, as the executed notebook holds them."""
import re

import pytest

import magics_notebook as mn

seconds = mn.seconds
table_rows = mn.table_rows


@pytest.fixture(scope="module")
def nb():
    return mn.execute("compile_vs_run.ipynb")


def test_notebook_runs_without_errors(nb):
    assert mn.errors(nb) == []


@pytest.mark.parametrize("tag, labels", [
    ("compare", ["loops", "kiln", "numpy"]),
    ("compare-cell", ["python loops", "numpy dot", "matmul"]),
    ("compare-fastmath", ["strict", "fastmath"]),
])
def test_compare_table_rows_are_consistent(nb, tag, labels):
    plain = mn.outputs(nb, tag, "text/plain")[0]
    rows = table_rows(plain)
    assert list(rows) == labels
    reference = seconds(rows[labels[0]]["best"])
    for label, row in rows.items():
        best, median = seconds(row["best"]), seconds(row["median"])
        assert 0 < best <= median
        assert seconds(row["first call"]) > 0
        assert row["result"] == "agrees"
        speedup = mn.speedup(row["speedup"])
        assert speedup == pytest.approx(reference / best, rel=0.02)


def test_compare_first_call_of_a_new_kiln_function_holds_its_compilation(nb):
    rows = table_rows(mn.outputs(nb, "compare", "text/plain")[0])
    assert rows["loops"]["compile"] == rows["numpy"]["compile"] == "—"
    compiled = seconds(rows["kiln"]["compile"])
    assert 0 < compiled <= seconds(rows["kiln"]["first call"])
    # Already compiled in the -o cell: its first call compiles nothing.
    assert table_rows(mn.outputs(nb, "compare-o", "text/plain")[0])["kiln"]["compile"] == "—"


def test_compare_html_has_table_and_log_chart_with_one_bar_per_row(nb):
    (html,) = mn.outputs(nb, "compare-cell", "text/html")
    for label in ("python loops", "numpy dot", "matmul"):
        assert f'<tr class="kiln-compare-row" data-label="{label}"' in html
    assert "<svg" in html and "log scale" in html
    bars = re.findall(r'<rect class="kiln-bar" data-label="([^"]+)" data-seconds="([^"]+)"[^>]*width="([\d.]+)"', html)
    assert [b[0] for b in bars] == ["python loops", "numpy dot", "matmul"]
    # A longer time is a longer bar, and on a log scale a 500x ratio is
    # nowhere near 500x the length.
    by_time = sorted(bars, key=lambda b: float(b[1]))
    widths = [float(b[2]) for b in by_time]
    assert widths == sorted(widths) and widths[0] > 0
    assert widths[-1] / widths[0] < float(by_time[-1][1]) / float(by_time[0][1]) / 10
    ghosts = re.findall(r'<rect class="kiln-bar-ghost" data-label="([^"]+)"', html)
    assert ghosts == ["python loops", "numpy dot", "matmul"]  # the first calls


def test_compare_o_returns_the_numbers(nb):
    plain, printed = mn.outputs(nb, "compare-o", "text/plain")[:2]
    rows = table_rows(plain)
    ratio = float(re.search(r"kiln is (\d+) times faster", printed).group(1))
    assert ratio == pytest.approx(seconds(rows["loops"]["best"]) / seconds(rows["kiln"]["best"]), rel=0.02, abs=1)


def test_compare_flags_a_result_that_differs(nb):
    (plain,) = mn.outputs(nb, "compare-differs", "text/plain")  # and no footer: nothing compiled ran
    rows = table_rows(plain)
    assert rows["loops"]["result"] == "agrees"
    assert rows["elementwise (wrong)"]["result"] == "DIFFERS"
    assert "WARNING: results differ from loops's: elementwise (wrong)" in plain
    (html,) = mn.outputs(nb, "compare-differs", "text/html")
    assert 'class="kiln-differs"' in html


def test_sysinfo_reports_cpu_llvm_python_numpy(nb):
    (plain,) = mn.outputs(nb, "sysinfo", "text/plain")
    import numpy
    import platform
    import _kiln
    host = _kiln.host_info()
    assert mn.report_field(plain, "CPU name (LLVM)") == host["cpu_name"]
    assert mn.report_field(plain, "LLVM") == "%d.%d.%d" % tuple(host["llvm_version"])
    assert f"CPython {platform.python_version()}" in plain
    assert mn.report_field(plain, "NumPy") == numpy.__version__
    flat = " ".join(plain.split())  # long values wrap in the text view
    assert re.search(r"CUDA : no usable GPU \(.+\); kernels run on Kiln's simulator|CUDA driver : \d+\.\d+", flat)
    (html,) = mn.outputs(nb, "sysinfo", "text/html")
    assert "<table" in html and host["cpu_name"] in html
