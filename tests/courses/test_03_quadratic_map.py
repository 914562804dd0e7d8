"""notebooks/courses/03_quadratic_map.ipynb (seed 002, the quadratic map) through the real Kiln
kernel: every cell runs and checks its own result; the first call's footer shows the compile against
the run (the pitfall) and later calls show the run alone; %timeit notes the compile of a new function;
kiln.chart draws the saved %timeit -o results; a new argument type compiles a second signature;
annotate gives each line's types and the loop that could not vectorize; a compiled helper is compiled
into its caller; %%compare -c Z checks the NumPy expression against the kiln.vectorize ufuncs."""
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed (the GPU machine has none)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

TIME = r"[\d.]+ (?:ns|µs|ms|s)"
FOOTER = re.compile(rf"^kiln: (?:compiled (?P<compiled>.+?) · )?(?:ran compiled code for (?P<ran>{TIME}) in "
                    rf"(?P<calls>[\d,]+) calls? · )?cell took (?P<cell>{TIME})(?P<mostly>, mostly compiling)?")


@pytest.fixture(scope="module")
def nb():
    return mn.execute("courses/03_quadratic_map.ipynb")


def footer(nb, tag):
    """The footer line under a cell (its last text/plain output), parsed."""
    text = mn.outputs(nb, tag, "text/plain")[-1]
    match = FOOTER.match(text)
    assert match, f"no footer under {tag!r}: {text!r}"
    return match


def compiled(match):
    """[(function(signature), seconds)] of a footer's compiled part."""
    return [(name, mn.seconds(t)) for name, t in re.findall(rf"(\S+\(.*?\)) in ({TIME})", match["compiled"] or "")]


def chart_rows(nb, tag):
    """{label: (best, slowest run, speedup)} of a kiln.chart table."""
    (plain,) = [t for t in mn.outputs(nb, tag, "text/plain") if t.startswith("label")]
    rows = {}
    for line in plain.splitlines()[2:]:
        if not line.strip():
            break
        label, best, slowest, speedup = re.split(r"\s{2,}", line.strip())
        rows[label] = (mn.seconds(best), mn.seconds(slowest), mn.speedup(speedup))
    return rows


def test_every_cell_ran_and_checked_its_result(nb):
    assert mn.errors(nb) == []
    assert nb.metadata.kiln_course.seed == "002_7a6ee8afc5a6baf5.txt"
    assert "image/png" in mn.cell(nb, "python-loop").outputs[0].data   # the trajectory's plot


def test_the_call_form_compiles_nothing_until_called(nb):
    assert mn.outputs(nb, "call-form", "text/plain") == ["[]"]   # no signatures, and no footer


def test_pitfall_first_call_footer_shows_compile_against_run(nb):
    first = footer(nb, "pitfall-first-call")
    ((name, compile_s),) = compiled(first)
    assert name == "qm(float64, int64)"
    assert first["calls"] == "1" and 0 < compile_s < mn.seconds(first["cell"])
    assert mn.seconds(first["ran"]) > 0   # the run, apart from the compile
    html = mn.outputs(nb, "pitfall-first-call", "text/html")[-1]
    assert re.search(rf'<details class="kiln-compile"[^>]* title="parse {TIME}, typing {TIME}, '
                     rf'lowering {TIME}, optimize {TIME}, codegen {TIME}"', html)
    later = footer(nb, "later-call")
    assert later["compiled"] is None and not later["mostly"] and later["calls"] == "1"


def test_timeit_says_its_slowest_run_included_the_compile(nb):
    printed = "".join(mn.outputs(nb, "timeit-first", "text/plain")[:-1])
    note = re.search(rf"kiln: the slowest run \(({TIME})\) included compiling qm\(float64, int64\) \(({TIME})\)",
                     printed)
    assert note, printed
    slowest, compile_s = mn.seconds(note[1]), mn.seconds(note[2])
    assert 0 < compile_s <= slowest
    ((name, footer_compile),) = compiled(footer(nb, "timeit-first"))
    assert name == "qm(float64, int64)" and footer_compile == pytest.approx(compile_s, rel=0.01)
    # later runs compile nothing, so there is no note
    assert "included compiling" not in "".join(mn.outputs(nb, "timeit-later", "text/plain"))


def test_chart_of_saved_timeit_results(nb):
    rows = chart_rows(nb, "chart-qm")
    assert list(rows) == ["t_python", "t_first_runs", "t_compiled"]
    assert rows["t_python"][2] == 1
    assert rows["t_compiled"][2] > 1 and rows["t_first_runs"][2] > 1   # a 100x gap on this machine
    # the slowest run of the new function is the one %timeit said included the compile
    note = re.search(rf"the slowest run \(({TIME})\)", "".join(mn.outputs(nb, "timeit-first", "text/plain")))
    assert rows["t_first_runs"][1] == pytest.approx(mn.seconds(note[1]), rel=0.02)
    html = [h for h in mn.outputs(nb, "chart-qm", "text/html") if "kiln-timing-chart" in h][0]
    for label in rows:
        assert f'<tr class="kiln-chart-row" data-label="{label}"' in html
    assert "<svg" in html and "log scale" in html


def test_decorator_form_compiles_on_its_first_call(nb):
    assert [name for name, _ in compiled(footer(nb, "decorator"))] == ["qm_jit(float64, int64)"]


def test_a_new_argument_type_compiles_a_second_signature(nb):
    result, line = mn.outputs(nb, "signatures", "text/plain")
    assert result == "[(float64, int64), (int64, int64)]"
    match = FOOTER.match(line)
    assert match and [name for name, _ in compiled(match)] == ["qm(int64, int64)"]   # the float one was there
    assert match["calls"] == "2"


def test_annotate_shows_types_per_line_and_the_loop_that_did_not_vectorize(nb):
    (text,) = mn.outputs(nb, "annotate", "text/plain")
    listings = re.split(r"^--- (.+) ---$", text, flags=re.M)[1:]
    assert listings[0::2] == ["qm(float64, int64)", "qm(int64, int64)"]
    for signature, body in zip(listings[0::2], listings[1::2]):
        lines = {m[2].strip(): (m[1], m[3]) for m in re.finditer(r"^(.)\s+\d+  (.+?)(?:  # (.*))?$", body, re.M)}
        x0 = "float64" if signature.startswith("qm(float64") else "int64"
        assert lines["def qm(x0, n):"] == ("B", f"x0: {x0}, n: int64")
        assert lines["x = np.empty(n + 1)"][1].startswith("x: array(float64, 1d, C)")
        assert lines["for t in range(n):"][0] == "M"
        assert lines["x[t + 1] = 4 * x[t] * (1 - x[t])"][0] == "M"
        assert "loop not vectorized:" in body
    html = mn.outputs(nb, "annotate", "text/html")[0]
    assert 'class="kiln-types"' in html and "x0: float64, n: int64" in re.sub(r"<[^>]+>", "", html)


def test_a_compiled_helper_is_compiled_into_its_caller(nb):
    assert [name for name, _ in compiled(footer(nb, "nopython"))] == ["qm_steps(float64, int64)"]


def test_vectorize_compiles_one_loop_per_ufunc(nb):
    # f_vec on its first use, f_par at once from its signature
    assert re.search(rf"f\(float64, float64\) 2 times, {TIME} in all", footer(nb, "vectorize")["compiled"])


def test_compare_checks_the_ufuncs_against_the_numpy_expression(nb):
    plain = mn.outputs(nb, "compare-vectorize", "text/plain")[0]
    rows = mn.table_rows(plain)
    assert list(rows) == ["numpy expression", "kiln vectorize", "kiln parallel"]
    reference = mn.seconds(rows["numpy expression"]["best"])
    for row in rows.values():
        assert row["result"] == "agrees"   # -c Z: the array each version left in Z
        assert row["compile"] == "—"       # both ufuncs compiled in the cell before
        speedup = mn.speedup(row["speedup"])
        assert speedup == pytest.approx(reference / mn.seconds(row["best"]), rel=0.02)
    html = mn.outputs(nb, "compare-vectorize", "text/html")[0]
    assert '<tr class="kiln-compare-row" data-label="kiln parallel"' in html


def test_chart_of_the_vectorize_versions(nb):
    rows = chart_rows(nb, "chart-vectorize")
    assert list(rows) == ["t_numpy", "t_vectorize", "t_parallel"]
    assert all(0 < best <= slowest for best, slowest, _ in rows.values())
