"""notebooks/courses/02_arrays_and_vectorize.ipynb (seed 001) through the real Kiln kernel (nbclient).

What a student sees, lesson by lesson: every cell ran (each checks its result against NumPy); no footer
under pure Python; the footer of the njit version's first call separates compiling from running, the second
call only runs; %kiln_annotate shows the 3-D float32 types and the vectorized inner loop; %timeit's note
names the compile the seed mistook for caching; kiln.vectorize compiles at definition; %compare -c finds
the four CPU versions agreeing and the compiled ones far ahead of the loops; the GPU ufunc's and the 3-D
kernel's footer lines (launch shape, simulated time with the H100 estimate, copies each way); %compare's
row marked simulated; the float64 pitfall in the PTX and its float32 fix; the host-copies warning under
a loop of launches with NumPy arrays, gone with device arrays.
"""
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed (the GPU machine has none)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

NAME = "courses/02_arrays_and_vectorize.ipynb"
ARRAY3 = r"array\(float32, 3d, C\)"
# the footer's launch line, on the simulator (the estimate) or on a GPU (measured)
SIMULATED = (r"simulated on the CPU in [\d.]+ ms( in all)?, not GPU time; an H100 would take about [\d.]+ (µs|ms) "
             r"\(an estimate from the launch(es)?, [\d.]+ \S+ moved and [\d,]+ float operations\)")
ON_GPU = r"[\d.]+ ms( in all)?, \d+ registers/thread, occupancy \d+%"


@pytest.fixture(scope="module")
def nb():
    return mn.execute(NAME)


@pytest.fixture(scope="module")
def simulator(nb):
    return "CUDA GPU on this machine: False" in mn.outputs(nb, "setup", "text/plain")[0]


def stream(nb, tag):
    return "".join(o.text for o in mn.cell(nb, tag).outputs if o.output_type == "stream")


def test_the_notebook_is_a_course_and_every_cell_ran(nb):
    source = mn.nbformat.read(os.path.join(mn.NOTEBOOKS, NAME), as_version=4)
    course = source.metadata["kiln_course"]
    assert course["seed"] == "001_ae789af7643bbaa4.txt"
    assert course["gpu"] == "optional: runs on the CUDA simulator without a GPU"
    assert all(not c.outputs and c.execution_count is None for c in source.cells if c.cell_type == "code")
    assert mn.errors(nb) == []


def test_pure_python_cells_have_no_footer(nb):
    assert mn.outputs(nb, "loops", "text/plain") == []
    assert mn.outputs(nb, "numpy", "text/plain") == []


def test_the_first_njit_call_compiles_and_the_second_only_runs(nb):
    first = mn.footer(nb, "njit-first-call")
    assert re.match(rf"kiln: compiled maximum_jit\({ARRAY3}, {ARRAY3}, {ARRAY3}\) in [\d.]+ m?s · "
                    r"ran compiled code for [\d.]+ \S+ in 1 call · cell took .*, mostly compiling", first), first
    second = mn.footer(nb, "njit-second-call")
    assert re.fullmatch(r"kiln: ran compiled code for [\d.]+ (ns|µs|ms) in 1 call · cell took [\d.]+ \S+", second), second


def test_annotate_shows_the_types_and_the_vectorized_inner_loop(nb):
    (text,) = mn.outputs(nb, "annotate", "text/plain")
    assert f"a: {ARRAY3.replace(chr(92), '')}" in text
    # the notes under a line come before the next numbered source line
    after_k = text.split("for k in range(a.shape[2]):")[1].split("c[i, j, k] = max(")[0]
    assert "^ loop vectorized: width" in after_k, text


def test_timeit_says_the_slow_run_was_compiling(nb):
    text = stream(nb, "timeit-compile")
    assert re.search(rf"kiln: the slowest run \([\d.]+ m?s\) included compiling maximum_loops\({ARRAY3}, "
                     rf"{ARRAY3}, {ARRAY3}\) .*the best run is compiled code only", text), text


def test_vectorize_with_signatures_compiles_at_definition(nb):
    assert "ufunc ['ff->f']" in stream(nb, "vectorize")
    assert re.match(r"kiln: compiled maximum_ufunc\(float32, float32\) in [\d.]+ m?s", mn.footer(nb, "vectorize"))


def test_compare_finds_the_four_versions_agreeing_and_the_compiled_ones_far_faster(nb):
    plain = mn.outputs(nb, "compare", "text/plain")[0]
    rows = mn.table_rows(plain)
    assert list(rows) == ["loops", "numpy", "njit", "vectorize"]
    assert all(row["result"] == "agrees" for row in rows.values()), plain
    # pure Python against compiled loops over 32,768 elements: a gap of 100x and more
    for label in ("numpy", "njit", "vectorize"):
        assert mn.speedup(rows[label]["speedup"]) > 10, plain
    html = mn.outputs(nb, "compare", "text/html")[0]
    assert all(f'data-label="{label}"' in html for label in rows) and "<svg" in html


def test_the_gpu_ufunc_launch_and_its_copies_are_in_the_footer(nb):
    line, *rest = mn.gpu_lines(nb, "gpu-ufunc")
    assert re.fullmatch(rf"maximum_gpu_ufunc_1\[\(1024, 1, 1\), \(256, 1, 1\)\]: ({SIMULATED}|{ON_GPU})", line), line
    assert re.match(r"copies: 2\.0 MiB to the GPU, 1\.0 MiB back, [\d.]+ ms", rest[0]), rest


def test_compare_marks_the_simulated_gpu_row_and_estimates_it(nb, simulator):
    plain = mn.outputs(nb, "compare-gpu", "text/plain")[0]
    rows = mn.table_rows(plain)
    gpu_label = "gpu ufunc (simulated)" if simulator else "gpu ufunc"
    assert list(rows) == ["cpu ufunc", gpu_label]
    assert all(row["result"] == "agrees" for row in rows.values()), plain
    if simulator:
        assert re.search(r"gpu ufunc: its kernels ran on the CUDA simulator, on the CPU, so its times are not GPU "
                         r"times; for one call, an H100 would take about [\d.]+ µs", plain), plain


def test_the_3d_kernel_with_device_arrays(nb):
    assert mn.outputs(nb, "kernel-cell", "text/plain")[0].splitlines() == [
        "%%cuda: 1 function", "  maximum_kernel: kernel, compiles on its first launch"]
    assert mn.outputs(nb, "kernel-launch", "text/plain")[0] == "(8, 8, 8)"
    line, copies, *warnings = mn.gpu_lines(nb, "kernel-launch")
    assert re.fullmatch(rf"maximum_kernel\[\(8, 8, 8\), \(8, 8, 8\)\]: ({SIMULATED}|{ON_GPU})", line), line
    # a and b to the device (64**3 float32 each), c back; nothing else
    assert re.fullmatch(r"copies: 2\.0 MiB to the GPU, 1\.0 MiB back, [\d.]+ ms", copies), copies
    assert warnings == []


def test_the_float64_pitfall_is_in_the_ptx_and_the_fix_removes_it(nb):
    text = stream(nb, "pitfall-float64-gpu")
    f64 = int(re.search(r"float64 arithmetic instructions: (\d+), float32: \d+", text)[1])
    assert f64 >= 1 and "mul.rn.f64" in text and "cvt.f64.f32" in text, text
    assert mn.gpu_lines(nb, "pitfall-float64-gpu")[0].startswith("afterglow_step_f64[(8, 8, 8), (8, 8, 8)]: ")
    fixed = stream(nb, "float32-fix")
    assert re.search(r"float64 arithmetic instructions: 0, float32: [1-9]", fixed), fixed
    assert "no .f64 instruction" in fixed


def test_the_footer_warns_about_float64_in_the_kernel_and_not_after_the_fix(nb):
    warned = [line for line in mn.gpu_lines(nb, "pitfall-float64-gpu") if line.startswith("warning: afterglow_step_f64: ")]
    assert len(warned) == 1 and re.search(r": [\d,]+ float64 operations? (ran in the kernel's launches|in the kernel) "
                                          r"\(and [\d,]+ float32\): GPUs run float64 far slower", warned[0]), warned
    # reading the PTX compiles apart from the launch, and the footer says which is which
    compiled = mn.footer(nb, "pitfall-float64-gpu").split(" · ")[0]
    assert "afterglow_step_f64(" in compiled and " times" not in compiled, compiled
    assert not any("float64" in line for line in mn.gpu_lines(nb, "float32-fix"))


def test_host_arrays_copied_at_every_launch_are_a_warning_and_device_arrays_fix_it(nb, simulator):
    line, *warnings = mn.gpu_lines(nb, "pitfall-host-copies")
    assert line.startswith("afterglow_step[(8, 8, 8), (8, 8, 8)]: 10 launches, "), line
    if simulator:
        assert line.endswith("copying NumPy arrays in and back"), line
    assert any("keep arrays on the GPU (cuda.to_device, cuda.device_array)" in w for w in warnings), warnings
    html = mn.outputs(nb, "pitfall-host-copies", "text/html")[-1]
    assert 'class="kiln-gpu kiln-gpu-warning"' in html

    line, copies, *warnings = mn.gpu_lines(nb, "device-arrays")
    assert line.startswith("afterglow_step[(8, 8, 8), (8, 8, 8)]: 10 launches, ") and "copying" not in line, line
    # b and a in once, the final glow back once
    assert re.fullmatch(r"copies: 2\.0 MiB to the GPU, 1\.0 MiB back, [\d.]+ ms", copies), copies
    assert warnings == []
