"""notebooks/courses/05_parallel_computing.ipynb (seed 004's notes on parallel
computing) through the real Kiln kernel: every cell runs and checks its own
result, and each lesson's view is where a student reads it: annotate's
float64 upcast and its fix, the footer's launches (grid, block, simulated time
with an H100 estimate) and copies for GPU ufuncs, gufuncs, device functions and
grid-stride kernels, the host-copies pitfall and its device-array fix, the
lost increments of a race against the atomic count, Monte-Carlo pi from
xoroshiro states, print() and the bounds check in kernels, %timeit's and
%compare's word on simulated times."""
import math
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed (the GPU machine has none)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

SIMULATED = re.compile(r".*: (\d+ launches, )?simulated on the CPU in [\d.]+ ms( in all)?, not GPU time; an H100 would "
                       r"take about [\d.]+ (µs|ms) \(an estimate from the launch(es)?, [^)]*\)"
                       r"( plus about [\d.]+ (ns|µs|ms) copying NumPy arrays in and back)?")
ON_GPU = re.compile(r".*: (\d+ launches, )?[\d.]+ ms.*, \d+ registers/thread, occupancy \d+%")


@pytest.fixture(scope="module")
def nb():
    return mn.execute("courses/05_parallel_computing.ipynb")


@pytest.fixture(scope="module")
def simulated(nb):
    return "kernels run on the CUDA simulator" in mn.outputs(nb, "setup", "text/plain")[0]


def launch_lines(nb, tag):
    lines = [line for line in mn.gpu_lines(nb, tag) if not line.startswith(("copies: ", "warning: "))]
    for line in lines:
        assert SIMULATED.fullmatch(line) or ON_GPU.fullmatch(line), line
    return lines


def printed(nb, tag):
    return "".join(o.text for o in mn.cell(nb, tag).outputs if o.output_type == "stream")


def test_every_cell_runs_and_checks_its_result(nb):
    assert mn.errors(nb) == []
    assert "kernels run on" in mn.outputs(nb, "setup", "text/plain")[0]


def test_one_compiled_version_per_argument_types(nb):
    assert re.match(r"kiln: compiled safe_hypot\(float64, float64\) in [\d.]+ m?s, "
                    r"safe_hypot\(float32, float32\) in [\d.]+ m?s", mn.footer(nb, "hypot"))


def test_annotate_shows_the_float64_upcast_and_its_fix(nb):
    upcast = mn.outputs(nb, "annotate-upcast", "text/plain")[0]
    as_float32 = upcast.split("--- safe_hypot(float32, float32) ---")[1]
    assert re.search(r"scale = 1 \+ ratio \* ratio\s+# scale: float64, ratio: float32", as_float32), as_float32
    fixed = mn.outputs(nb, "annotate-float32", "text/plain")[0]
    assert re.search(r"scale = np\.float32\(1\.0\) \+ ratio \* ratio\s+# scale: float32", fixed), fixed
    assert "float64" not in fixed


def test_gpu_ufunc_launch_and_copies_in_the_footer(nb):
    (launch,) = launch_lines(nb, "ufunc")
    assert launch.startswith("logistic_ufunc_") and "[(782, 1, 1), (256, 1, 1)]" in launch   # 200,000 / 256
    # t in, the curve back: 200,000 float32 each way
    assert re.fullmatch(r"copies: 781\.2 KiB to the GPU, 781\.2 KiB back, [\d.]+ ms", mn.gpu_lines(nb, "ufunc")[1])


def test_gpu_gufunc_runs_a_thread_per_row(nb):
    assert mn.outputs(nb, "gufunc", "text/plain")[0] == "(1000,)"
    (launch,) = launch_lines(nb, "gufunc")
    assert launch.startswith("weighted_mean_gufunc_") and "[(8, 1, 1), (128, 1, 1)]" in launch   # 1000 rows
    # the lesson's "input too small": 8 blocks cannot fill a GPU
    assert any(re.match(r"warning: weighted_mean_gufunc_\d+: a grid of 8 blocks keeps at most 8 of", line)
               for line in mn.gpu_lines(nb, "gufunc"))


def test_a_kernel_calls_a_device_function_returning_a_tuple(nb):
    assert re.match(r"kiln: compiled roots_kernel\((array\(float32, 1d, C\)(, )?){5}\)", mn.footer(nb, "device-tuple"))
    (launch,) = launch_lines(nb, "device-tuple")
    assert launch.startswith("roots_kernel[(157, 1, 1), (128, 1, 1)]: ")


def test_grid_stride_kernel_from_a_cuda_cell_under_two_grids(nb):
    assert mn.outputs(nb, "grid-stride-cell", "text/plain")[0] == (
        "%%cuda: 1 function\n  scaled_add: kernel, compiles on its first launch")
    small, large = launch_lines(nb, "grid-stride")
    assert small.startswith("scaled_add[(4, 1, 1), (128, 1, 1)]: ")
    assert large.startswith("scaled_add[(264, 1, 1), (256, 1, 1)]: ")
    # the 4-block grid is too small for a GPU (an H100's 132 multiprocessors on the simulator); 264 blocks are not
    grid = [line for line in mn.gpu_lines(nb, "grid-stride") if "multiprocessors busy" in line]
    assert len(grid) == 1 and re.fullmatch(r"warning: scaled_add: a grid of 4 blocks keeps at most 4 of (the GPU's|an "
                                           r"H100's) \d+ multiprocessors busy; launch at least \d+ blocks .*", grid[0]), grid


def test_pitfall_numpy_arrays_are_copied_at_every_launch(nb, simulated):
    lines = mn.gpu_lines(nb, "pitfall-host-copies")
    assert lines[0].startswith("diffuse_step[(782, 1, 1), (128, 1, 1)]: 50 launches, ")
    warning = [line for line in lines if line.startswith("warning: ")]
    if simulated:
        assert re.search(r"plus about [\d.]+ ms copying NumPy arrays in and back$", lines[0]), lines[0]
        assert warning and warning[0].startswith("warning: on a GPU, copying the NumPy arrays in and back would take")
    else:
        assert warning and warning[0].startswith("warning: copies between host and GPU took")
    assert warning[0].endswith("keep arrays on the GPU (cuda.to_device, cuda.device_array) and copy back only the result")
    html = mn.outputs(nb, "pitfall-host-copies", "text/html")[-1]
    assert 'class="kiln-gpu kiln-gpu-warning"' in html


def test_device_arrays_copy_once_in_and_once_back(nb):
    launch, *rest = mn.gpu_lines(nb, "device-arrays")
    assert launch.startswith("diffuse_step[(782, 1, 1), (128, 1, 1)]: 50 launches, ")
    assert "copying NumPy arrays" not in launch
    # the rod in, the result back: 100,000 float32 each, once; no warning
    assert len(rest) == 1 and re.fullmatch(r"copies: 390\.6 KiB to the GPU, 390\.6 KiB back, [\d.]+ ms", rest[0]), rest


def test_chained_gpu_ufuncs_with_out_copy_only_input_and_answer(nb):
    first, second, *rest = mn.gpu_lines(nb, "ufunc-out")
    assert first.startswith("logistic_ufunc_") and second.startswith("logistic_slope_ufunc_")
    assert len(rest) == 1 and re.fullmatch(r"copies: 781\.2 KiB to the GPU, 781\.2 KiB back, [\d.]+ ms", rest[0]), rest


def test_compare_estimates_the_copies_of_numpy_arrays(nb, simulated):
    plain = mn.outputs(nb, "compare-copies", "text/plain")[0]
    suffix = " (simulated)" if simulated else ""
    assert list(mn.table_rows(plain)) == ["numpy arrays" + suffix, "device arrays" + suffix]
    if simulated:
        numpy_note = re.search(r"^numpy arrays: its kernels ran on the CUDA simulator.*$", plain, re.M)[0]
        device_note = re.search(r"^device arrays: its kernels ran on the CUDA simulator.*$", plain, re.M)[0]
        assert "copying NumPy arrays in and back" in numpy_note
        assert "copying" not in device_note


def test_a_race_loses_increments(nb):
    racy = re.search(r"racy counter: ([\d,]+) of 33,792 threads counted", printed(nb, "race"))
    assert racy and int(racy[1].replace(",", "")) < 33_792 // 4, printed(nb, "race")
    assert launch_lines(nb, "race")[0].startswith("count_threads_racy[(264, 1, 1), (128, 1, 1)]: ")


def test_atomics_count_every_thread(nb):
    text = printed(nb, "atomic")
    assert "atomic counter: 33,792 of 33,792 threads counted" in text
    share = re.search(r"samples above 2 sigma \(([\d.]+)%", text)
    assert share and abs(float(share[1]) - 2.28) < 0.2, text


def test_monte_carlo_pi_from_per_thread_generators(nb):
    estimate = re.search(r"pi is about ([\d.]+) from 844,800 points", printed(nb, "monte-carlo-pi"))
    assert estimate and abs(float(estimate[1]) - math.pi) < 0.01
    (launch,) = launch_lines(nb, "monte-carlo-pi")
    assert launch.startswith("count_hits[(264, 1, 1), (64, 1, 1)]: 2 launches")
    # in: two sets of 16,896 states (16 bytes each); back: the int64 hit counts, twice; and no warning
    copies, *rest = mn.gpu_lines(nb, "monte-carlo-pi")[1:]
    assert re.fullmatch(r"copies: 528\.0 KiB to the GPU, 264\.0 KiB back, [\d.]+ ms", copies) and rest == [], rest


def test_print_inside_a_kernel(nb, simulated):
    if simulated:   # on a GPU the driver prints after cuda.synchronize(), outside the cell's streams
        assert printed(nb, "kernel-print") == "block 0 thread 1 clamps -2.000000\nblock 0 thread 3 clamps -0.500000\n"
    assert ("warning: clamp_negative: blocks of 4 threads are not a whole number of 32-thread warps; "
            "the last warp of every block runs partly empty") in mn.gpu_lines(nb, "kernel-print")


def test_an_out_of_bounds_index_names_the_thread(nb):
    assert re.search(r"IndexError: index out of bounds \(kernel 'double_unguarded' raised in block \(1, 0, 0\), "
                     r"thread \([23], 0, 0\)\)", printed(nb, "bounds-check")), printed(nb, "bounds-check")


def test_timeit_of_simulated_launches_says_they_are_not_gpu_times(nb, simulated):
    text = printed(nb, "timeit-sync")
    assert "per loop" in text
    if simulated:
        assert re.search(r"kiln: the kernels timed ran on the CUDA simulator, on the CPU, so these are not GPU times; "
                         r"for each launch, an H100 would take about [\d.]+ µs", text), text


def test_compare_three_versions_agree_and_numpy_beats_the_loop(nb, simulated):
    plain = mn.outputs(nb, "compare-timing", "text/plain")[0]
    gpu_label = "gpu kernel" + (" (simulated)" if simulated else "")
    rows = mn.table_rows(plain)
    assert list(rows) == ["python loop", "numpy", gpu_label]
    assert all(row["result"] == "agrees" for row in rows.values())
    # NumPy's slices against a Python loop over 10,000 points: hundreds of times faster
    assert mn.speedup(rows["numpy"]["speedup"]) > 1
    if simulated:
        assert re.search(r"^gpu kernel: its kernels ran on the CUDA simulator, on the CPU, so its times are not GPU "
                         r"times; for one call, an H100 would take about", plain, re.M), plain
