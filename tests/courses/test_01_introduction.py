"""notebooks/courses/01_introduction.ipynb (seed 000, the introductory course)
run through the real Kiln kernel by nbclient. Checked, lesson by lesson,
on what a student sees: every cell ran and checked its own result; nothing
compiles before the first call; the first call's footer and %timeit's note
say the timing included compilation; signatures compile eagerly and refuse
other types; code Kiln cannot compile is refused at its line; the
annotated source marks the strict float sum unvectorized and the fastmath
one vectorized; parallel_diagnostics explains each prange loop, and the
dependent one is warned about and kept serial; Dask and Pandas cells; the
%compare tables and the kiln.chart rows with their speedups; the footer's
warning about work the optimizer removed; the GPU line of the kernel cell."""
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

TIME = r"[\d.]+ (?:ns|µs|ms|s)"
MATMUL_SIG = "(array(float64, 2d, C), array(float64, 2d, C), array(float64, 2d, C))"


@pytest.fixture(scope="module")
def nb():
    return mn.execute("courses/01_introduction.ipynb")


def text(nb, tag):
    """Everything the cell printed or displayed as text, footer included."""
    return "".join(mn.outputs(nb, tag, "text/plain"))


def compare(nb, tag):
    """{label: row} of the %compare table in the cell."""
    tables = [t for t in mn.outputs(nb, tag, "text/plain") if t.startswith("label ")]
    assert len(tables) == 1, tables
    return mn.table_rows(tables[0])


def test_every_cell_ran_and_the_notebook_says_what_it_teaches(nb):
    assert mn.errors(nb) == []
    course = nb.metadata["kiln_course"]
    assert course["seed"] == "000_d1112fa3793c94c3.txt"
    assert course["gpu"] == "optional: runs on the CUDA simulator without a GPU"
    assert nb.metadata["kernelspec"]["name"] == "kiln"


def test_nothing_compiles_before_the_first_call(nb):
    assert mn.outputs(nb, "call-form", "text/plain") == ["[]"]
    assert mn.outputs(nb, "decorator", "text/plain") == []   # no footer: nothing compiled or ran


def test_pitfall_first_call_footer_and_timeit_note_name_the_compilation(nb):
    line = mn.footer(nb, "pitfall-first-call")
    assert re.match(rf"kiln: compiled matmul_compiled{re.escape(MATMUL_SIG)} in {TIME}, "
                    rf"matrix_multiplication{re.escape(MATMUL_SIG)} in {TIME} · ", line), line
    assert ", mostly compiling (" in line
    printed = text(nb, "pitfall-first-call")
    assert "first call, timed by hand:" in printed
    assert re.search(rf"kiln: the slowest run \({TIME}\) included compiling matrix_multiplication"
                     rf"{re.escape(MATMUL_SIG)} \({TIME}\): .* the best run is compiled code only", printed), printed
    second = mn.footer(nb, "second-call")
    assert re.match(rf"kiln: ran compiled code for {TIME} in 1 call · cell took {TIME}$", second), second


def test_compare_times_the_loops_against_kiln_and_numpy(nb):
    rows = compare(nb, "compare-matmul")
    assert list(rows) == ["python", "kiln", "numpy"]
    assert all(row["result"] == "agrees" for row in rows.values())
    assert mn.speedup(rows["kiln"]["speedup"]) > 10   # compiled loops against the interpreter's


def test_signatures_compile_when_defined_and_refuse_other_types(nb):
    line = mn.footer(nb, "signatures")
    assert re.match(rf"kiln: compiled average_numbers\(int32, int32\) in {TIME}, "
                    rf"average_short\(int32, int32\) in {TIME} · cell took", line), line
    assert "ran compiled code" not in line          # compiled, never called
    assert "[(int32, int32)] [(int32, int32)]" in text(nb, "signatures")
    assert "refused: kiln: cannot pass float as int32" in text(nb, "signature-refuses")
    assert mn.outputs(nb, "array-signature", "text/plain")[0] == \
        "[(array(float64, 2d, A), array(float64, 2d, A), array(float64, 2d, A))]"
    assert re.match(rf"kiln: compiled closest_pair\(array\(float64, 2d, A\)\) in {TIME}",
                    mn.footer(nb, "closest-define"))
    rows = compare(nb, "compare-closest")
    assert rows["kiln"]["result"] == "agrees" and mn.speedup(rows["kiln"]["speedup"]) > 10


def test_code_kiln_cannot_compile_is_refused_at_its_line(nb):
    printed = text(nb, "nopython-error")
    assert re.search(r"in function 'mixed_list' \(.*, line 3, col \d+\):\n\s+items = \[n, \"n\"\]\n\s+\^", printed)
    assert "Hint:" in printed


def test_cache_footer_says_compiled_or_loaded_from_the_disk_cache(nb):
    # compiled the first time this notebook ever ran here; loaded from ~/.cache/kiln afterwards
    sig = re.escape("clip_in_place(array(float64, 1d, C), float64, float64)")
    assert re.match(rf"kiln: (compiled {sig} in|loaded {sig} from cache in) {TIME} · ", mn.footer(nb, "cache"))


def marks(view):
    """{source line: (mark, the note under it or "")} of one annotate view."""
    rows = view.splitlines()
    found = {}
    for row, below in zip(rows, rows[1:] + [""]):
        m = re.match(r"^(.)\s+\d+  (.+?)(?:  # .*)?$", row)
        if m:
            found[m.group(2).strip()] = (m.group(1), below.strip() if below.lstrip().startswith("^") else "")
    return found


def test_pitfall_fastmath_annotate_shows_which_sum_vectorized(nb):
    views = mn.outputs(nb, "pitfall-fastmath", "text/plain")
    assert len(views) == 2   # %kiln_annotate's display, then kiln.annotate's result
    assert views[0].splitlines()[1] == "--- sum_of_squares(array(float64, 1d, C)) ---"
    assert views[1].splitlines()[1] == "--- sum_of_squares_fast(array(float64, 1d, C)) ---"
    strict, fast = marks(views[0]), marks(views[1])
    assert strict["for x in values:"][0] == "M"
    assert "its float sum must add in source order (no fastmath)" in strict["total += x * x"][1]
    assert fast["for x in values:"][0] == "V" and "loop vectorized: width" in fast["for x in values:"][1]
    assert "M" not in {mark for mark, _ in fast.values()}
    rows = compare(nb, "compare-fastmath")
    # both agree; how much faster fastmath runs depends on the machine's load, which a test cannot judge
    assert rows["strict"]["result"] == rows["fastmath"]["result"] == "agrees"


def test_parallel_diagnostics_level_4_explains_each_prange_loop(nb):
    report = text(nb, "parallel-diagnostics")
    assert "3 loop(s) found, 1 running in parallel" in report
    assert re.search(r"loop #1 \(matmul_parallel, line 4, for i in prange\): PARALLEL", report)
    for line in (5, 7):
        assert f"nested prange at line {line}: runs serially inside this loop" in report
    assert report.count("only the outermost prange runs in parallel") == 2
    assert "reduction: total (+=) at line 8" in report


def test_pitfall_prange_dependent_is_warned_and_kept_serial(nb):
    printed = text(nb, "pitfall-prange-dependent")
    # the ParallelSafetyWarning, a warning line of the footer, not a stderr block
    assert not [o for o in mn.cell(nb, "pitfall-prange-dependent").outputs if o.get("name") == "stderr"]
    assert re.search(r"\n  warning: the prange loop of running_total at line 5 runs serially: "
                     r"array `out` is written at line 6 and read at line 6", mn.footer(nb, "pitfall-prange-dependent"))
    assert re.search(r"loop #1 \(running_total, line 5, for i in prange\): SERIAL\n\s+why \(line 6\): .*"
                     r"iterations depend on each other", printed), printed
    right = text(nb, "prange-right-way")
    assert re.search(r"loop #1 \(running_totals_by_row, line 4, for r in prange\): PARALLEL", right)
    assert "warning:" not in mn.footer(nb, "prange-right-way")


def test_nogil_function_runs_on_dask_threads(nb):
    printed = text(nb, "dask-pi")
    assert re.search(r"pi is about 3\.1\d{3}", printed), printed
    # Dask's threads race to the first call: one compiles, the others wait and use it
    assert re.match(rf"kiln: compiled approximate_pi\(int64\) in {TIME} · "
                    rf"ran compiled code for {TIME} in 10 calls", mn.footer(nb, "dask-pi")), mn.footer(nb, "dask-pi")


def test_pandas_columns_and_the_chart_of_saved_timings(nb):
    assert "pass its NumPy array: a.to_numpy()" in text(nb, "pandas-series")
    chart = mn.outputs(nb, "chart", "text/plain")[0]
    lines = chart.splitlines()
    assert lines[0].split() == ["label", "best", "slowest", "run", "speedup", "over", "t_apply"]
    rows = {line.split()[0]: line.split() for line in lines[2:5]}
    assert list(rows) == ["t_apply", "t_pandas", "t_kiln"]
    assert mn.speedup(rows["t_kiln"][-1]) > 10   # a compiled loop against a Python call per row
    assert mn.outputs(nb, "chart", "text/html")[0].count('class="kiln-bar"') == 3


def test_mandelbrot_loops_kiln_and_parallel_in_one_compare(nb):
    rows = compare(nb, "mandelbrot-compare")
    assert list(rows) == ["python", "kiln", "kiln parallel"]
    assert all(row["result"] == "agrees" for row in rows.values())   # -c image: the same picture
    assert rows["python"]["compile"] == "—"
    for label in ("kiln", "kiln parallel"):
        assert re.fullmatch(TIME, rows[label]["compile"])           # their first call compiled
        assert mn.speedup(rows[label]["speedup"]) > 10
    assert mn.outputs(nb, "mandelbrot-plot", "image/png")
    assert re.search(r"\d+\.\d% of the spot-checked pixels agree", text(nb, "mandelbrot-plot"))


def test_pitfall_unused_work_is_named_in_the_warning_and_the_footer(nb):
    assert mn.footer(nb, "pitfall-unused-work").endswith(
        "\n  warning: average_sqrt, line 4: loop optimized away, so timing average_sqrt measures nothing "
        "(it returns None and the loop writes nothing a caller sees)")
    fixed = text(nb, "unused-work-fixed")
    assert "UnusedWorkWarning" not in fixed and "warning:" not in mn.footer(nb, "unused-work-fixed")


def test_gpu_cell_footer_shows_the_launch(nb):
    printed = text(nb, "gpu-matmul")
    assert re.search(r"ran on the (GPU|CUDA simulator)", printed)
    gpu = mn.gpu_lines(nb, "gpu-matmul")
    assert gpu and gpu[0].startswith("matmul_gpu[(2, 2, 1), (16, 16, 1)]: "), gpu
    simulated = re.search(r"simulated on the CPU in [\d.]+ ms, not GPU time; an H100 would take about "
                          rf"{TIME} \(an estimate from the launch", gpu[0])
    on_gpu = re.search(r": [\d.]+ ms, \d+ registers/thread, occupancy \d+%", gpu[0])
    assert simulated or on_gpu, gpu[0]
    # the two warnings the markdown explains: the small grid, and float64 from `total = 0.0`
    warnings = [line for line in gpu if line.startswith("warning: ")]
    assert len(warnings) == 2 and "a grid of 4 blocks keeps at most 4 of" in warnings[0], warnings
    assert re.match(r"warning: matmul_gpu: [\d,]+ float64 operations", warnings[1]), warnings
