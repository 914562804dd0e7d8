"""notebooks/gpu_course.ipynb through the real Kiln kernel (nbclient): the
seeds' CUDA kernels run (on the simulator here, each cell checking its
result against NumPy or the host), and the footer under each cell lists the
cell's launches and copies with the teacher's warnings."""
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed (the GPU machine has none)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

@pytest.fixture(scope="module")
def nb():
    return mn.execute("gpu_course.ipynb")


def test_every_cell_ran_and_agreed_with_numpy(nb):
    assert mn.errors(nb) == []
    assert "GPU:" in mn.outputs(nb, "setup", "text/plain")[0]


def test_a_launch_is_in_the_footer(nb):
    footer = mn.outputs(nb, "add-launch", "text/plain")[-1]
    # the first launch compiled the kernel for the argument types it was given
    assert re.match(r"kiln: compiled add_kernel\(array\(float32, 1d, C\), array\(float32, 1d, C\), "
                    r"array\(float32, 1d, C\)\) in [\d.]+ m?s", footer), footer
    line, *warnings = mn.gpu_lines(nb, "add-launch")
    assert line.startswith("add_kernel[(32, 1, 1), (128, 1, 1)]: ")
    simulated = re.fullmatch(r".*: simulated on the CPU in ([\d.]+) ms, not GPU time; an H100 would take about "
                             r"[\d.]+ µs \(an estimate from the launch, [\d.]+ \S+ moved and [\d,]+ float operations\) "
                             r"plus about [\d.]+ (µs|ms) copying NumPy arrays in and back", line)
    on_gpu = re.fullmatch(r".*: [\d.]+ ms, \d+ registers/thread, occupancy \d+%", line)
    assert simulated or on_gpu, line
    if simulated:
        assert float(simulated[1]) > 0
    # 32 blocks fill a quarter of an H100 (the simulator's estimates are for one)
    grid, copies = warnings
    assert re.match(r"warning: add_kernel: a grid of 32 blocks keeps at most 32 of (an H100's 132|the GPU's \d+) "
                    r"multiprocessors busy", grid), grid
    # 100,000 float32 added: on a GPU the copies of x, y and out outweigh the kernel (seed 000's lesson),
    # measured there, estimated on the simulator
    assert re.fullmatch(
        r"warning: (on a GPU, copying the NumPy arrays in and back would take about [\d.]+ (µs|ms) against about "
        r"[\d.]+ µs in the kernels \(estimates\)|copies between host and GPU took .*): keep arrays on the GPU "
        r"\(cuda.to_device, cuda.device_array\) and copy back only the result", copies), warnings


def test_a_partial_warp_is_a_warning_in_text_and_html(nb):
    lines = mn.gpu_lines(nb, "partial-warp")
    assert lines[0].startswith("add_kernel[(32, 1, 1), (100, 1, 1)]: ")
    assert ("warning: add_kernel: blocks of 100 threads are not a whole number of 32-thread warps; "
            "the last warp of every block runs partly empty") in lines
    html = mn.outputs(nb, "partial-warp", "text/html")[-1]
    assert re.search(r'class="kiln-gpu kiln-gpu-warning"[^>]*>warning: add_kernel: blocks of 100 threads', html)


def test_device_array_copies_are_counted(nb):
    lines = mn.gpu_lines(nb, "maximum-3d")
    assert lines[0].startswith("maximum_6[(4, 4, 4), (8, 8, 8)]: ")
    # a and b to the device (32**3 float32 each), c back
    assert re.fullmatch(r"copies: 256\.0 KiB to the GPU, 128\.0 KiB back, [\d.]+ ms", lines[1]), lines


def test_a_loop_of_launches_is_one_line(nb):
    lines = mn.gpu_lines(nb, "primes-kernel")
    assert lines[0].startswith("check_prime_gpu_kernel[(1, 1, 1), (1, 1, 1)]: 58 launches, ")
    # the time is the run's, not each launch's
    assert re.fullmatch(r".*: 58 launches, (simulated on the CPU in [\d.]+ ms in all, not GPU time; an H100 .*|[\d.]+ ms in all, .*)",
                        lines[0]), lines[0]
    # the seed launches one block of one thread, which the teacher's warnings point out once each: on
    # the simulator against an H100's multiprocessors, the GPU its estimates are for
    whose = "an H100's 132" if "simulated on the CPU" in lines[0] else "the GPU's \\d+"
    assert len(lines) == 3 and re.fullmatch(
        f"warning: check_prime_gpu_kernel: a grid of 1 block keeps at most 1 of {whose} multiprocessors busy; "
        r"launch at least \d+ blocks \(a grid-stride loop handles any size\)", lines[1]), lines
    assert lines[2] == ("warning: check_prime_gpu_kernel: blocks of 1 thread are not a whole number of 32-thread "
                        "warps; the last warp of every block runs partly empty")


def test_ufunc_and_device_function_cells(nb):
    assert any(line.startswith("gaussian_pdf_ufunc") for line in mn.gpu_lines(nb, "gaussian"))
    cell_text = mn.outputs(nb, "polar-cell", "text/plain")[0]
    assert cell_text.splitlines()[1] == "  polar_to_cartesian: device function, compiles on its first use"


def test_the_race_cell_loses_increments_and_the_atomic_cell_does_not(nb):
    text = "".join(mn.outputs(nb, "race", "text/plain"))
    racy = re.search(r"thread_counter_race_condition: ([\d,]+) of 4,096 increments", text)
    assert racy and int(racy[1].replace(",", "")) < 1024, text
    assert "thread_counter_safe: 4,096 of 4,096 increments" in text


def test_the_gufunc_cell_shows_unit_norms_and_its_launch(nb):
    # the cell checks the norms against 1; its result is the float32 array
    assert re.fullmatch(r"array\(\[[\d.,\s]+\], dtype=float32\)", mn.outputs(nb, "gufunc", "text/plain")[0])
    assert any(line.startswith("l2_norm_gufunc_") for line in mn.gpu_lines(nb, "gufunc"))


def test_the_offloaded_loop_cell_launches_a_kernel_and_says_the_copy_outweighs_it(nb):
    line, *warnings = mn.gpu_lines(nb, "offload")
    assert line.startswith("average_sqrt_cuda_loop0[(")
    assert any("copy" in w and "keep arrays on the GPU" in w for w in warnings), warnings
