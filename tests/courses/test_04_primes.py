"""notebooks/courses/04_primes.ipynb (seed 003, primes on the CPU and the GPU) run through the real Kiln
kernel once: every cell checks its primes against a NumPy sieve or the Python list, and here we check
what a student sees. The footer of the first and second compiled call, %compare's rows (all agreeing,
the compiled version faster), the annotated source (types, why the inner loop is not vectorized),
%timeit's note when the timed statement recompiles at every run and kiln.chart of the saved timings,
the GPU footer of a one-thread launch (a grid too small, a partial warp), of 998 launches
in a loop (one line, launch overhead in the H100 estimate), of the array kernel and of the CUDA ufunc
(grid, copies), and the simulated rows of %compare with their estimates."""
import os
import re
import sys

import pytest

pytest.importorskip("nbclient", reason="nbclient is not installed (the GPU machine has none)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "magics"))
import magics_notebook as mn  # noqa: E402

PARTIAL_WARP = ("warning: check_prime_kernel: blocks of 1 thread are not a whole number of 32-thread warps; "
                "the last warp of every block runs partly empty")


@pytest.fixture(scope="module")
def nb():
    return mn.execute("courses/04_primes.ipynb")


def estimate_seconds(text):
    """The H100 estimate of a simulated launch line or %compare note: 'an H100 would take about 5.99 ms'."""
    return mn.seconds(re.search(r"an H100 would take about ([\d.]+ \S+) \(an estimate", text)[1])


def test_every_cell_ran_and_found_the_same_primes(nb):
    assert mn.errors(nb) == []
    assert "kernels run" in mn.outputs(nb, "setup", "text/plain")[0]
    assert mn.outputs(nb, "python-primes", "text/plain") == [
        "1229 primes below 10,000; the first ten: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]\n"]


def test_first_call_compiles_and_second_call_only_runs(nb):
    first = mn.footer(nb, "jit-first-call")
    assert re.match(r"kiln: compiled find_primes\(int64\) in [\d.]+ m?s · ran compiled code for [\d.]+ \S+ in 1 call"
                    r" · cell took [\d.]+ m?s", first), first
    second = mn.footer(nb, "jit-second-call")
    assert re.match(r"kiln: ran compiled code for [\d.]+ \S+ in 1 call · cell took ", second), second


def test_compare_python_and_kiln_agree_and_kiln_is_faster(nb):
    plain, html = mn.outputs(nb, "compare-cpu", "text/plain")[0], mn.outputs(nb, "compare-cpu", "text/html")[0]
    rows = mn.table_rows(plain)
    assert list(rows) == ["python", "kiln"]
    assert all(row["result"] == "agrees" for row in rows.values())
    assert mn.speedup(rows["kiln"]["speedup"]) > 1   # about 20x here
    assert '<tr class="kiln-compare-row" data-label="kiln"' in html and "<svg" in html


def test_annotate_shows_the_types_and_why_the_inner_loop_is_not_vectorized(nb):
    text = mn.outputs(nb, "annotate", "text/plain")[0]
    assert "--- find_primes(int64) ---" in text
    assert re.search(r"primes = \[\]\s+# primes: list\(int64\)", text)
    assert re.search(r"^M +6 +if num % divisor == 0:", text, re.M)
    assert "loop not vectorized" in text and "division by zero check" in text


def test_timeit_of_jit_inside_the_statement_says_every_call_compiled(nb):
    printed = "".join(mn.outputs(nb, "timeit-recompiles", "text/plain")[:-1])
    assert re.search(r"kiln: the timed statement compiled find_primes\(int64\) 6 times \([\d.]+ \S+ in all, "
                     r"[\d.]+ \S+ each\): .* so every call timed above included compilation; make the function "
                     r"once, outside %timeit", printed), printed
    assert re.match(r"kiln: compiled find_primes\(int64\) 6 times, ", mn.footer(nb, "timeit-recompiles"))
    # timing the function made once: nothing compiled, no note
    assert "kiln: the" not in "".join(mn.outputs(nb, "timeit-once", "text/plain"))


def test_chart_of_saved_timings_shows_recompiling_loses_most_of_the_gain(nb):
    text = mn.outputs(nb, "chart", "text/plain")[0]
    rows = {line.split()[0]: line.split() for line in text.splitlines()[2:5]}
    assert list(rows) == ["t_python", "t_recompiling", "t_compiled"]
    gains = {name: mn.speedup(cells[-1]) for name, cells in rows.items()}
    assert gains["t_python"] == 1 and gains["t_compiled"] > 1
    assert gains["t_compiled"] > gains["t_recompiling"]   # each recompiling call also compiles (tens of ms)
    assert "<svg" in mn.outputs(nb, "chart", "text/html")[0]


def test_pitfall_a_one_thread_launch_wastes_the_warp_and_the_grid(nb):
    line, *warnings = mn.gpu_lines(nb, "pitfall-small-grid")
    assert line.startswith("check_prime_kernel[(1, 1, 1), (1, 1, 1)]: 2 launches, ")
    assert PARTIAL_WARP in warnings
    # on a GPU Kiln knows its multiprocessors; the simulator counts an H100's, which its estimates are for
    whose = "an H100's 132" if "simulated on the CPU" in line else "the GPU's"
    assert f"check_prime_kernel: a grid of 1 block keeps at most 1 of {whose} multiprocessors busy" in " ".join(warnings)
    if "simulated on the CPU" in line:
        assert "not GPU time; an H100 would take about" in line
    html = mn.outputs(nb, "pitfall-small-grid", "text/html")[-1]
    assert re.search(r'class="kiln-gpu kiln-gpu-warning"[^>]*>warning: check_prime_kernel: blocks of 1 thread', html)


def test_pitfall_a_launch_per_number_is_one_line_dominated_by_launch_overhead(nb):
    line, *warnings = mn.gpu_lines(nb, "pitfall-small-gpu-work")
    assert line.startswith("check_prime_kernel[(1, 1, 1), (1, 1, 1)]: 998 launches, "), line
    assert PARTIAL_WARP in warnings
    if "simulated on the CPU" in line:
        assert re.search(r"998 launches, simulated on the CPU in [\d.]+ ms in all, not GPU time", line)
        # 998 launches of a few µs each: milliseconds, where one launch's work is next to nothing
        assert estimate_seconds(line) > 1e-3
        assert "0 float operations" in line


def test_compare_of_the_launch_loop_against_the_cpu_marks_the_simulated_row(nb):
    plain = mn.outputs(nb, "compare-launch-each", "text/plain")[0]
    rows = mn.table_rows(plain)
    assert list(rows)[0] == "kiln, CPU"
    gpu_label = list(rows)[1]
    assert gpu_label.startswith("GPU, a launch per number")
    assert all(row["result"] == "agrees" for row in rows.values())
    if gpu_label.endswith("(simulated)"):
        note = re.search(r"^GPU, a launch per number: its kernels ran on the CUDA simulator.*$", plain, re.M)[0]
        assert estimate_seconds(note) > 1e-3


def test_the_array_kernel_uses_a_device_function_whole_warps_and_counts_its_copies(nb):
    listing = mn.outputs(nb, "array-kernel-cell", "text/plain")[0]
    assert "prime_or_zero: device function, compiles on its first use" in listing
    assert "check_primes_kernel: kernel, compiles on its first launch" in listing
    assert mn.outputs(nb, "array-kernel", "text/plain")[0] == "157 blocks of 64 threads found 1229 primes below 10,000\n"
    lines = mn.gpu_lines(nb, "array-kernel")
    assert lines[0].startswith("check_primes_kernel[(157, 1, 1), (64, 1, 1)]: ")
    assert re.fullmatch(r"copies: 39\.1 KiB to the GPU, 39\.1 KiB back, [\d.]+ ms", lines[1]), lines
    assert not any("warps" in line or "a grid of" in line for line in lines)


def test_the_cuda_ufunc_picks_its_grid_and_copies_in_and_back(nb):
    lines = mn.gpu_lines(nb, "cuda-ufunc")
    assert re.match(r"prime_or_zero_ufunc_ufunc_\d+\[\(40, 1, 1\), \(256, 1, 1\)\]: ", lines[0]), lines
    assert re.fullmatch(r"copies: 39\.1 KiB to the GPU, 39\.1 KiB back, [\d.]+ ms", lines[1]), lines
    # the ufunc chose the grid: the warning blames the data's size, not the launch
    assert re.match(r"warning: prime_or_zero_ufunc_ufunc_\d+: a grid of 40 blocks keeps at most 40 of .* its inputs "
                    r"are too few elements to fill the GPU", lines[2]), lines


def test_compare_of_all_versions_agrees(nb):
    plain = mn.outputs(nb, "compare-all", "text/plain")[0]
    rows = mn.table_rows(plain)
    labels = [label.replace(" (simulated)", "") for label in rows]
    assert labels == ["python", "kiln", "GPU kernel", "GPU ufunc"]
    assert all(row["result"] == "agrees" for row in rows.values())
    assert mn.speedup(rows["kiln"]["speedup"]) > 1
    if "GPU kernel (simulated)" in rows:
        for name in ("GPU kernel", "GPU ufunc"):
            assert re.search(rf"^{name}: its kernels ran on the CUDA simulator, on the CPU, so its times are not "
                             rf"GPU times; for one call, an H100 would take about", plain, re.M)
