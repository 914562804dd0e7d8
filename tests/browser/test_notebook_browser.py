"""The executed course notebook, exported to HTML by nbconvert and opened in
headless Chromium: Kiln's tables, SVG charts and views must be visible and
laid out (non-zero size, their text present), with no script and no network.
A screenshot lands in <build>/browser/ for a person to look at."""
import os
import sys

import nbformat
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_view import look, mn  # noqa: E402  (headless Chromium, the shared notebook runner)


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    return look(mn.execute("compile_vs_run.ipynb"), "compile_vs_run", tmp_path_factory.mktemp("browser"))


# A cell that loads its function from the disk cache and calls it many times
# with short calls: the footer forms the course notebook does not show.
FOOTER_CELLS = ("%%jit --cache\ndef halve(x):\n    return x / 2",
                "total = 0.0\nfor i in range(50_000):\n    total += halve(float(i))\ntotal")


@pytest.fixture(scope="module")
def footers_seen(tmp_path_factory):
    work = tmp_path_factory.mktemp("browser-footers")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("KILN_CACHE_DIR", str(work / "cache"))  # the kernels inherit it
        mn.execute_cells(mn.new_notebook(*FOOTER_CELLS))  # compiles into the cache
        nb = mn.execute_cells(mn.new_notebook(*FOOTER_CELLS))
    return look(nb, "footers", work)


COMPARE_CELLS = 5  # %compare outputs in compile_vs_run.ipynb


def test_compare_tables_are_laid_out_with_their_rows(seen):
    tables = seen["tables"]
    assert len(tables) == COMPARE_CELLS
    for table in tables:
        assert table["visible"] and table["width"] > 200
        assert all(row["visible"] for row in table["rows"])
    assert "python loops" in tables[1]["text"] and "numpy dot" in tables[1]["text"]
    assert "DIFFERS" in tables[3]["text"]


def test_svg_charts_show_one_visible_bar_per_row(seen):
    charts = seen["charts"]
    assert len(charts) == COMPARE_CELLS
    for chart, table in zip(charts, seen["tables"]):
        assert chart["visible"] and chart["height"] > 40
        assert len(chart["bars"]) == len(table["rows"]) - 1  # less the header row
        assert all(bar["visible"] for bar in chart["bars"])
        assert "log scale" in chart["text"]


def test_kiln_chart_of_saved_timeit_results_shows_its_table_and_bars(seen):
    (view,) = seen["timingCharts"]
    assert view["visible"] and view["width"] > 400
    assert [row["text"].split("\t")[0] for row in view["rows"][1:]] == ["t_loops", "t_kiln", "numpy"]
    assert [bar["label"] for bar in view["bars"]] == ["t_loops", "t_kiln", "numpy"]
    assert all(bar["visible"] for bar in view["bars"])
    assert "speedup over t_loops" in view["text"] and "slowest run" in view["text"]


def test_sysinfo_table_is_visible(seen):
    (info,) = seen["sysinfo"]
    assert info["visible"] and "CPU name (LLVM)" in info["text"]


def test_annotated_source_shows_types_and_vectorization_marks(seen):
    slow, fast, _ = seen["annotations"]
    for view in (slow, fast):
        assert view["visible"] and view["width"] > 300
        assert all(row["visible"] for row in view["rows"])
        assert "A: array(float64, 1d, C)" in view["text"] and "acc: float64" in view["text"]
    loop = [r for r in slow["rows"] if "for x in A:" in r["text"]][0]
    assert "kiln-vectorized" in loop["kind"] and "loop vectorized: width" in loop["text"]
    total = [r for r in slow["rows"] if "acc += np.sqrt(x)" in r["text"]][0]
    assert "kiln-ordered" in total["kind"] and "sum kept in source order" in total["text"]
    loop = [r for r in fast["rows"] if "for x in A:" in r["text"]][0]
    assert "kiln-vectorized" in loop["kind"] and "loop vectorized: width" in loop["text"]


def test_annotate_views_fit_their_cell(seen):
    assert all(view["visible"] and not view["overflows"] for view in seen["annotations"])


def test_a_loop_optimized_away_is_marked_in_annotate_and_under_its_cell(seen):
    view = seen["annotations"][2]
    assert view["visible"] and all(row["visible"] for row in view["rows"])
    loop = [r for r in view["rows"] if "for x in Mat:" in r["text"]][0]
    assert "kiln-unused" in loop["kind"] and "loop removed by the optimizer" in loop["text"]
    (footer,) = [f for f in seen["footers"] if "loop optimized away" in f["text"]]
    assert footer["visible"] and "warning: average_sqrt, line 6: loop optimized away" in footer["text"]


def test_footers_and_jit_listings_are_visible(seen):
    assert len(seen["footers"]) >= 6
    assert all(f["visible"] and f["text"].startswith("kiln") for f in seen["footers"])
    assert any("mostly compiling" in f["text"] for f in seen["footers"])
    assert len(seen["jitcells"]) == 3
    assert all(j["visible"] and "compiled in" in j["text"] for j in seen["jitcells"])


def test_parallel_views_mark_the_parallel_and_the_serial_loop(seen):
    row_sums, running_total, inside_out = seen["parallel"]
    for view in (row_sums, running_total, inside_out):
        # the reasons wrap in their column: none runs past the right edge
        assert view["visible"] and view["width"] > 300 and not view["overflows"]
    assert "row_sums" in row_sums["text"] and "running_total" in running_total["text"]
    assert any(r["kind"] == "par" and r["visible"] and "prange" in r["text"] for r in row_sums["rows"])
    assert any(r["kind"] == "why" and r["visible"] for r in running_total["rows"])
    assert "elements through the iterations split across threads" in inside_out["text"]


def test_generated_code_views_are_visible(seen):
    llvm, asm = seen["code"]
    assert llvm["visible"] and "define" in llvm["text"]
    assert asm["visible"] and "sqrtpd" in asm["text"]


def test_estimated_run_time_and_cache_load_are_visible_in_the_footer(footers_seen):
    (footer,) = footers_seen["footers"]
    assert footer["visible"] and footer["text"].startswith("kiln")
    (load,) = footers_seen["cacheLoads"]
    assert load["visible"] and load["text"].startswith("loaded halve(float64) from cache in ")
    (estimate,) = footers_seen["estimates"]
    assert estimate["visible"] and estimate["text"].startswith("ran compiled code for ≈")
    assert estimate["text"].endswith(" in 50,000 calls")
    assert estimate["title"].startswith("halve(float64): 50,000 in ≈")


# Work that runs long enough for a line under its cell (the threshold set to 0 here): a compile
# and a launch on the CUDA simulator.
PROGRESS_CELLS = (
    "import math, numpy as np, kiln, kiln.magics.progress as progress\nfrom kiln import cuda\n"
    "progress.PROGRESS_AFTER = 0.0",
    "@kiln.njit\ndef smooth(a, b):\n    s = 0.0\n    for i in range(a.shape[0]):\n"
    "        s += np.sin(a[i]) * np.exp(-a[i])\n    for i in range(b.shape[0]):\n"
    "        b[i] = np.sqrt(abs(b[i])) + a[i % a.shape[0]]\n"
    "    return s + np.sum(b * 2.0) + np.max(a)\nsmooth(np.ones(8), np.ones(5))",
    "@cuda.jit\ndef waves(out):\n    i = cuda.grid(1)\n    if i < out.size:\n        s = 0.0\n"
    "        for k in range(2000):\n            s += math.sin(i + k * 0.5)\n        out[i] = s\n"
    "waves[16, 128](np.zeros(16 * 128))",
)


def shown_while_running(sources):
    """For each cell, the last progress line it showed before the line was emptied, as a
    display_data output: the notebook a frontend shows while the work runs."""
    from jupyter_client.manager import start_new_kernel
    mn.install_kernelspec()
    km, kc = start_new_kernel(kernel_name="kiln")
    nb = mn.new_notebook(*sources)
    try:
        for c in nb.cells:
            lines = {}
            def keep(msg):
                content = msg["content"]
                if (msg["msg_type"] in ("display_data", "update_display_data")
                        and content["transient"].get("display_id") and content["data"].get("text/plain")):
                    lines[content["transient"]["display_id"]] = content["data"]
            reply = kc.execute_interactive(c.source, output_hook=keep, timeout=120)
            assert reply["content"]["status"] == "ok", reply["content"]
            c.outputs = [nbformat.v4.new_output("display_data", data=data) for data in lines.values()]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return nb


def test_progress_lines_show_their_words_and_bar_within_the_cell(tmp_path):
    seen = look(shown_while_running(PROGRESS_CELLS), "progress_lines", tmp_path)
    texts = [view["text"].strip() for view in seen["progress"]]
    assert any(t.startswith("compiling smooth: ") for t in texts), texts
    assert any(t.startswith("simulating waves[16, 128]: block ") for t in texts), texts
    for view in seen["progress"]:
        assert view["visible"] and not view["overflows"], view
        assert view["bar"] and view["bar"]["visible"] and view["bar"]["width"] >= 100, view
