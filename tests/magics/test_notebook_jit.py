"""notebooks/compile_vs_run.ipynb executed through the Kiln kernel: %%jit
listings, the compile-against-run line under each cell, the %timeit note,
the annotated source of the seed's do_sum with fastmath off and on, and the
generated code views."""
import re

import pytest

import magics_notebook as mn

TIME = r"[\d.]+ (?:ns|µs|ms|s)"
FOOTER = re.compile(rf"^kiln: (?:compiled (?P<compiled>.+?) · )?(?:ran compiled code for (?P<ran>{TIME}) in "
                    rf"(?P<calls>[\d,]+) calls? · )?cell took (?P<cell>{TIME})(?P<mostly>, mostly compiling)?")
MATMUL_SIG = "(array(float64, 2d, C), array(float64, 2d, C), array(float64, 2d, C))"


@pytest.fixture(scope="module")
def nb():
    return mn.execute("compile_vs_run.ipynb")


def footer(nb, tag):
    """The parsed footer line of a cell (its last display)."""
    text = mn.outputs(nb, tag, "text/plain")[-1]
    match = FOOTER.match(text)
    assert match, f"no footer under {tag!r}: {text!r}"
    return match, text


def compiled(match):
    """[(function and signature, seconds)] from a footer's compiled part."""
    return [(name, mn.seconds(t)) for name, t in re.findall(rf"(\S+\(.*?\)) in ({TIME})", match["compiled"] or "")]


def test_first_call_footer_shows_the_compile_and_that_it_dominated(nb):
    match, _ = footer(nb, "first-call")
    ((name, compile_s),) = compiled(match)
    assert name == "matrix_multiplication_jit" + MATMUL_SIG
    cell_s, ran_s = mn.seconds(match["cell"]), mn.seconds(match["ran"])
    assert match["calls"] == "1"
    assert 0 < ran_s < cell_s and 0 < compile_s < cell_s
    assert match["mostly"]  # a 40x40 multiply takes microseconds; compiling takes milliseconds
    html = mn.outputs(nb, "first-call", "text/html")[-1]
    assert re.search(rf'<details class="kiln-compile"[^>]* title="parse {TIME}, typing {TIME}, '
                     rf'lowering {TIME}, optimize {TIME}, codegen {TIME}"', html)


def test_second_call_footer_shows_only_the_run(nb):
    match, text = footer(nb, "second-call")
    assert match["compiled"] is None and not match["mostly"]
    assert match["calls"] == "1" and 0 < mn.seconds(match["ran"]) < mn.seconds(match["cell"])


def test_jit_cell_listing_was_updated_with_the_compile_of_the_first_call(nb):
    (listing,) = [t for t in mn.outputs(nb, "jit-cell", "text/plain")]
    first_compile = compiled(footer(nb, "first-call")[0])[0][1]
    assert listing.splitlines()[0] == "%%jit (default options): 1 function"
    line = listing.splitlines()[1]
    assert line.startswith(f"  matrix_multiplication_jit{MATMUL_SIG}: compiled in ")
    assert mn.seconds(line.rsplit("compiled in ", 1)[1]) == pytest.approx(first_compile, rel=0.01)
    assert '<div class="kiln-jit-cell"' in mn.outputs(nb, "jit-cell", "text/html")[0]


def test_eager_jit_cell_compiles_its_signature_once_when_the_cell_runs(nb):
    listing = mn.outputs(nb, "jit-eager", "text/plain")[0]
    assert listing.startswith("%%jit (fastmath=True): 1 function\n  sum_of_roots(array(float64, 1d, A)): compiled in ")
    match, _ = footer(nb, "jit-eager")
    assert [name for name, _ in compiled(match)] == ["sum_of_roots(array(float64, 1d, A))"]
    assert match["ran"] is None  # defined, compiled, never called


def test_timeit_says_its_slowest_run_included_the_compilation(nb):
    out = "".join(mn.outputs(nb, "timeit", "text/plain")[:-1])
    note = re.search(rf"kiln: the slowest run \(({TIME})\) included compiling matrix_multiplication"
                     + re.escape(MATMUL_SIG) + rf" \(({TIME})\)", out)
    assert note, out
    slowest, compile_s = mn.seconds(note.group(1)), mn.seconds(note.group(2))
    assert 0 < compile_s <= slowest
    ((_, footer_compile),) = compiled(footer(nb, "timeit")[0])
    assert footer_compile == pytest.approx(compile_s, rel=0.01)


def annotated(nb, tag):
    text = mn.outputs(nb, tag, "text/plain")[0]
    html = mn.outputs(nb, tag, "text/html")[0]
    lines = {m.group(2).strip(): (m.group(1), m.group(3)) for m in
             re.finditer(r"^(.)\s+\d+  (.+?)(?:  # (.*))?$", text, re.M)}
    return text, html, lines


def test_annotate_do_sum_without_fastmath_marks_the_sum_kept_in_order(nb):
    text, html, lines = annotated(nb, "annotate-slow")
    assert lines["def do_sum(A):"] == ("B", "A: array(float64, 1d, C)")
    assert lines["acc = 0."] == (" ", "acc: float64")
    mark, types = lines["for x in A:"]
    assert mark == "V" and "x: float64" in types
    assert lines["acc += np.sqrt(x)"][0] == "O"
    assert "sum kept in source order: each add waits for the one before" in text
    # the HTML carries the same marks as the text ("the line marked O"), in its own column and the legend
    assert re.search(r'<tr class="kiln-line kiln-ordered" data-line="\d+"[^>]*><td class="kiln-mark"[^>]*>O</td>'
                     r'.*?acc \+= np.sqrt', html)
    assert "<b>O</b> float sum in source order</span>" in html
    assert 'class="kiln-note kiln-note-ordered">sum kept in source order' in html
    assert "kiln-missed" not in html.replace('class="kiln-legend"', "")


def test_annotate_do_sum_with_fastmath_shows_the_vectorized_loop(nb):
    text, html, lines = annotated(nb, "annotate-fast")
    assert lines["def do_sum_fast(A):"] == ("B", "A: array(float64, 1d, C)")
    assert lines["for x in A:"][0] == "V"
    assert lines["acc += np.sqrt(x)"] == (" ", "acc: float64, x: float64")
    width = re.search(r"loop vectorized: width (\d+), interleave (\d+)", text)
    assert width and int(width.group(1)) >= 2
    assert re.search(r'<tr class="kiln-line kiln-vectorized" data-line="\d+"[^>]*>.*?for x in A:', html)
    assert not {"M", "O"} & {mark for mark, _ in lines.values()}
    assert "loop not vectorized:" not in text and "sum kept in source order" not in text


def test_llvm_and_asm_views_are_highlighted_code_of_the_compiled_signature(nb):
    llvm_text = mn.outputs(nb, "llvm", "text/plain")[0]
    assert llvm_text.startswith("--- do_sum_fast(array(float64, 1d, C)): LLVM IR ---")
    assert "define " in llvm_text and "@llvm.sqrt" in llvm_text
    llvm_html = mn.outputs(nb, "llvm", "text/html")[0]
    assert '<pre style="max-height:480px' in llvm_html and '<span style="color:' in llvm_html
    asm_text = mn.outputs(nb, "asm", "text/plain")[0]
    assert "sqrtpd" in asm_text  # packed (vector) square roots: the vectorized loop
    assert '<span style="color:' in mn.outputs(nb, "asm", "text/html")[0]


def test_parallel_jit_cell_shows_each_loops_verdict_once_compiled(nb):
    printed = "".join(mn.outputs(nb, "parallel-call", "text/plain"))
    # row sums agree with NumPy; the serial running total is right; so is the loop run element by element
    assert "True 10.0 True" in printed
    (listing,) = mn.outputs(nb, "jit-parallel", "text/plain")
    assert listing.startswith("%%jit (parallel=True): 3 functions")
    row_sums = listing[listing.index("Parallel diagnostics for row_sums"):listing.index("Parallel diagnostics for running_total")]
    running = listing[listing.index("Parallel diagnostics for running_total"):
                      listing.index("Parallel diagnostics for evaluate_functions")]
    inside_out = listing[listing.index("Parallel diagnostics for evaluate_functions"):]
    assert re.search(r"loop #1 \(row_sums, line \d+, for i in prange\): PARALLEL", row_sums)
    assert re.search(r"loop #1 \(running_total, line \d+, for i in prange\): SERIAL", running)
    assert "why (line" in running and "why" not in row_sums
    assert re.search(r"loop #1 \(evaluate_functions, line \d+, for i in prange\): SERIAL", inside_out)
    assert re.search(r"loop #2 \(evaluate_functions, line \d+, elements through the iterations, .*\): PARALLEL",
                     inside_out)
    (html,) = mn.outputs(nb, "jit-parallel", "text/html")
    assert html.count("<table class='kiln-par'>") == 3
    assert "<tr class='par'>" in html and "<tr class='why'>" in html


def test_work_thrown_away_is_named_when_it_compiles_under_the_cell_and_in_annotate(nb):
    out = mn.outputs(nb, "unused-timeit", "text/plain")
    # said once, in the footer: no UnusedWorkWarning block on stderr above it
    assert not [o for o in mn.cell(nb, "unused-timeit").outputs if o.output_type == "stream" and o.name == "stderr"]
    assert not any("UnusedWorkWarning" in o for o in out)
    footer_text = out[-1]
    assert footer_text.startswith("kiln: compiled average_sqrt(")
    assert footer_text.endswith("\n  warning: average_sqrt, line 6: loop optimized away, so timing average_sqrt "
                                "measures nothing (it returns None and the loop writes nothing a caller sees)")
    assert '<div class="kiln-unused"' in mn.outputs(nb, "unused-timeit", "text/html")[-1]
    text, html, lines = annotated(nb, "unused-annotate")
    assert lines["for x in Mat:"][0] == "U"
    assert "^ loop not vectorized" not in text   # what the vectorizer said before the loop went is moot
    assert "^ loop removed by the optimizer: nothing it computes is used" in text
    assert re.search(r'<tr class="kiln-line kiln-unused" data-line="6"[^>]*>.*?for x in Mat:', html)


def test_chart_draws_the_saved_timeit_results_with_their_speedups(nb):
    text = mn.outputs(nb, "chart", "text/plain")[0]
    lines = text.splitlines()
    assert lines[0].split() == ["label", "best", "slowest", "run", "speedup", "over", "t_loops"]
    rows = {line.split()[0]: line for line in lines[2:5]}
    assert set(rows) == {"t_loops", "t_kiln", "numpy"}
    assert rows["t_loops"].endswith(" 1×")
    speedup = mn.speedup(rows["t_kiln"].split()[-1])
    assert speedup > 10, text   # compiled loops against Python's, on any machine
    assert "best per call, log scale" in text
    html = mn.outputs(nb, "chart", "text/html")[0]
    assert html.count('class="kiln-bar"') == 3 and 'data-label="t_kiln"' in html and "slowest run" in html
