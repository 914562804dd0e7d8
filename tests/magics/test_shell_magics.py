"""kiln.ipython inside a real IPython shell (in-process): the per-cell
footer built from the profiler's records, the %timeit note, and the
errors a user gets from the magics while the shell keeps working."""
import re
import warnings

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import kiln
import kiln.ipython


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kiln.ipython", store_history=False)
    ip.run_cell("import _kiln", store_history=False)
    yield ip
    kiln.ipython.unload_ipython_extension(ip)


def run(shell, code):
    """(stdout, [display bundles], error) of one cell."""
    with capture_output() as cap:
        result = shell.run_cell(code, store_history=True)
    return cap.stdout, [o.data for o in cap.outputs], result.error_in_exec or result.error_before_exec


def test_a_cell_without_kiln_code_gets_no_footer(shell):
    out, displays, error = run(shell, "x = sum(range(10))")
    assert error is None and displays == []


SPIN = ("import kiln\n"
        "@kiln.jit\n"
        "def spin(n):\n"
        "    s = 0.0\n"
        "    for _ in range(n):\n"
        "        s = s * 0.999 + 1.0\n"
        "    return s\n"
        "spin(1)")


def test_footer_names_each_compile_with_phases_and_the_run_time(shell):
    assert run(shell, SPIN)[2] is None
    code = ("_kiln.profiler_record_compile('mm', '(float64[:, :],)', 'cpu',"
            " {'parse': 0.002, 'typing': 0.004, 'lowering': 0.003, 'optimize': 0.03, 'codegen': 0.011})\n"
            "for _ in range(3): spin(5000)")
    _, displays, error = run(shell, code)
    assert error is None
    (footer,) = displays
    text = footer["text/plain"]
    assert text.startswith("kiln: compiled mm(float64[:, :],) in 50 ms · ")
    # calls of several µs are all timed: an exact total, no "≈"
    assert re.search(r" · ran compiled code for [\d.]+ µs in 3 calls · ", text), text
    # 50 ms of compiling is most of a cell that otherwise did next to nothing.
    assert re.search(r"mostly compiling \(\d+%\)", text)
    html = footer["text/html"]
    assert '<details class="kiln-compile"' in html
    assert 'title="parse 2 ms, typing 4 ms, lowering 3 ms, optimize 30 ms, codegen 11 ms"' in html
    assert 'class="kiln-mostly"' in html
    assert "≈" not in text + html and "kiln-estimated" not in html


def test_footer_for_calls_only_does_not_claim_compilation(shell):
    assert run(shell, SPIN)[2] is None
    _, displays, _ = run(shell, "spin(2000)")
    (footer,) = displays
    assert re.match(r"kiln: ran compiled code for [\d.]+ µs in 1 call · cell took ", footer["text/plain"])
    assert "compil" not in footer["text/plain"].split("·", 1)[1]


def test_footer_marks_the_run_time_of_many_short_calls_as_estimated(shell):
    assert run(shell, SPIN)[2] is None
    _, displays, error = run(shell, "for i in range(20_000): spin(50)")
    assert error is None
    (footer,) = displays
    text, html = footer["text/plain"], footer["text/html"]
    # the count stays exact; the time of calls under 1 µs comes from a sample
    assert re.match(r"kiln: ran compiled code for ≈[\d.]+ (µs|ms) in 20,000 calls · cell took ", text), text
    ran = re.search(r'<span class="kiln-estimated" title="([^"]*)">ran compiled code for ≈', html)
    assert ran, html
    assert re.match(r"spin\(int64\): 20,000 in ≈[\d.]+ (µs|ms) \(≈: calls under 1 µs are timed on a sample",
                    ran.group(1)), ran.group(1)


def test_footer_counts_a_cells_real_calls_and_recording_stops_with_the_cell(shell):
    from kiln.magics import records

    assert run(shell, "import kiln\n@kiln.jit\ndef triple(x):\n    return 3 * x\ntriple(1)")[2] is None
    _, displays, error = run(shell, "for i in range(7): triple(i)")
    assert error is None
    (footer,) = displays
    assert re.match(r"kiln: ran compiled code for [\d.]+ (ns|µs|ms) in 7 calls · cell took ", footer["text/plain"])
    shell.user_ns["triple"](2)  # outside a cell: nothing shows it, so nothing records it
    assert [f.calls for f in records.calls() if f.function == "triple"] == [7]


def test_timeit_and_compare_loops_are_counted_apart_from_the_cells_timed_calls(shell):
    assert run(shell, "import kiln\n@kiln.jit\ndef quad(x):\n    return 4 * x\nquad(1)")[2] is None
    code = "quad(2)\n%timeit -n 10 -r 2 quad(1)\n%compare -n 5 -r 2 q: quad(3)"
    out, displays, error = run(shell, code)
    assert error is None
    text = displays[-1]["text/plain"]
    # 10 x 2 %timeit calls; %compare's first call and 5 x 2 more
    assert re.match(r"kiln: ran compiled code for [\d.]+ (ns|µs|ms) in 1 call · cell took [\d.]+ (µs|ms|s) · "
                    r"31 calls in %timeit/%compare loops, timed there$", text), text


def test_timeit_says_the_slowest_run_included_compilation(shell):
    code = ("compiled = []\n"
            "def f():\n"
            "    if not compiled:\n"
            "        compiled.append(1)\n"
            "        _kiln.profiler_record_compile('f', '()', 'cpu', {'codegen': 0.0123})\n"
            "t = %timeit -o -n 1 -r 3 f()")
    out, _, error = run(shell, code)
    assert error is None
    assert "kiln: the slowest run (" in out
    assert "included compiling f() (12.3 ms): 12.3 ms of it was compilation" in out
    assert "cached" not in out   # IPython's guess, which the note answers
    assert out.index("per loop") < out.index("kiln: the slowest run")
    assert shell.user_ns["t"].loops == 1  # -o still returns IPython's TimeitResult


def test_timeit_of_one_run_that_compiled_says_to_time_again(shell):
    code = ("compiled1 = []\n"
            "def f1():\n"
            "    if not compiled1:\n"
            "        compiled1.append(1)\n"
            "        _kiln.profiler_record_compile('f1', '()', 'cpu', {'codegen': 0.0228})\n"
            "%timeit -n 10 -r 1 f1()")
    out, _, error = run(shell, code)
    assert error is None
    assert "kiln: the only run (" in out and "run %timeit again to time compiled code only." in out
    assert "the best run is compiled code only" not in out


def test_timeit_of_a_statement_that_compiles_at_each_run_says_every_call_included_it(shell):
    # kiln.njit(g) makes a new dispatcher each time, which compiles on its first call (as Numba's does):
    # no run is compiled code only, nor would a second %timeit be
    run(shell, "def twice_plus_one(x):\n    return x * 2 + 1")
    out, displays, error = run(shell, "%timeit -n 3 -r 2 kiln.njit(twice_plus_one)(2)")
    assert error is None
    assert re.search(r"kiln: the timed statement compiled twice_plus_one\(int64\) 6 times \([\d.]+ \S+ in all, "
                     r"[\d.]+ \S+ each\): it makes a new compiled function each time it runs, so every call timed "
                     r"above included compilation; make the function once, outside %timeit", out), out
    assert "best run is compiled code only" not in out
    footer = displays[-1]["text/plain"]
    assert re.match(r"kiln: compiled twice_plus_one\(int64\) 6 times, [\d.]+ \S+ in all · ", footer), footer
    assert "run it again" not in footer
    assert ">twice_plus_one(int64)</b> 6 times, " in displays[-1]["text/html"]


def test_footer_of_a_loop_that_jits_afresh_says_to_make_the_function_once(shell):
    out, displays, error = run(shell, "for k in range(4):\n    kiln.njit(twice_plus_one)(float(k))")
    assert error is None
    footer = displays[-1]["text/plain"]
    assert "compiled twice_plus_one(float64) 4 times, " in footer, footer
    assert "mostly compiling" in footer, footer
    assert ("twice_plus_one(float64) compiled 4 times, as each jit of the same function makes a new one that "
            "compiles on its first call; make it once, then call it") in footer, footer


def test_timeit_of_runs_far_apart_without_compiling_says_so_in_its_own_words(shell):
    code = ("import time\n"
            "slow_once = []\n"
            "def s():\n"
            "    if not slow_once:\n"
            "        slow_once.append(1)\n"
            "        time.sleep(0.05)\n"
            "%timeit -n 1 -r 3 s()")
    out, _, error = run(shell, code)
    assert error is None
    assert re.search(r"The slowest run took [\d.]+ times as long as the fastest: something the first runs "
                     r"computed may be kept \(cached\) for the later ones\.\n.*per loop", out), out
    assert "kiln:" not in out


def test_timeit_calibration_absorbs_the_compile(shell):
    code = ("compiled2 = []\n"
            "def g():\n"
            "    if not compiled2:\n"
            "        compiled2.append(1)\n"
            "        _kiln.profiler_record_compile('g', '()', 'cpu', {'codegen': 0.004})\n"
            "%timeit -r 2 g()")
    out, _, error = run(shell, code)
    assert error is None
    assert "kiln: compiling g() (4 ms) took 4 ms, in the calibration loop before the timed runs" in out


def test_timeit_says_when_a_run_included_a_load_from_the_disk_cache(shell):
    code = ("loaded = []\n"
            "def h():\n"
            "    if not loaded:\n"
            "        loaded.append(1)\n"
            "        _kiln.profiler_record_cache_load('h', '()', 'cpu', 0.0031)\n"
            "%timeit -n 1 -r 3 h()")
    out, displays, error = run(shell, code)
    assert error is None
    assert re.search(r"kiln: the slowest run \([\d.]+ \S+\) included loading h\(\) \(3.1 ms\) from the disk "
                     r"cache: 3.1 ms of it was loading; the best run is compiled code only\.", out), out
    assert "compil" not in out.split("kiln:", 1)[1].split(";")[0]
    assert displays[-1]["text/plain"].startswith("kiln: loaded h() from cache in 3.1 ms · cell took ")


@pytest.mark.parametrize("code, message", [
    ("%compare -n 0 f()", "-n takes a positive integer"),
    ("%kiln_annotate", "usage: %kiln_annotate FUNCTION"),
    ("%kiln_annotate no_such_function", "cannot find 'no_such_function': NameError"),
    ("%kiln_llvm len", "shows a kiln.jit function; got builtin_function_or_method"),
    ("%kiln_sysinfo extra", "takes no arguments"),
    ("%%jit --eager\ndef f(x):\n    return x\n", "--eager compiles the given signatures"),
])
def test_magic_usage_errors_are_clear_and_the_shell_goes_on(shell, code, message):
    with capture_output() as cap:
        result = shell.run_cell(code)
    assert not result.success
    assert message in cap.stderr + cap.stdout
    _, _, error = run(shell, "y = 1 + 1")
    assert error is None and shell.user_ns["y"] == 2


def test_compare_names_the_statement_that_raised(shell):
    with capture_output() as cap:
        result = shell.run_cell("%compare ok: len('ab'); bad: 1 / 0")
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    assert "%compare: statement 'bad' (1 / 0) raised:" in cap.stderr


def test_jit_cell_compiles_plain_defs_and_keeps_the_cells_own_decorators(shell):
    code = ("%%jit --boundscheck\n"
            "import functools\n"
            "import kiln\n"
            "def plain(x):\n"
            "    return x * 2\n"
            "@kiln.njit(fastmath=True)\n"
            "def decorated(x):\n"
            "    return x + 1.0\n"
            "@functools.lru_cache\n"
            "def cached(x):\n"
            "    return x - 1\n"
            "answer = plain(21)\n")
    _, displays, error = run(shell, code)
    assert error is None
    ns = shell.user_ns
    assert isinstance(ns["plain"], kiln.Dispatcher) and ns["plain"]._kiln_options["boundscheck"]
    # Its own options (kiln.jit's, read through _kiln_options), not the magic's.
    assert ns["decorated"]._kiln_options["fastmath_flags"] == 127
    assert not ns["decorated"]._kiln_options["boundscheck"]
    assert not isinstance(ns["cached"], kiln.Dispatcher) and ns["cached"](3) == 2
    assert ns["answer"] == 42  # a call in the cell itself already runs compiled code
    listing = displays[0]["text/plain"].splitlines()
    assert listing[0] == "%%jit (boundscheck=True): 2 functions"
    assert listing[1] == "  plain(int64): compiled in " + listing[1].rsplit("in ", 1)[1]
    assert listing[2] == "  decorated: compiles on its first call"
    assert "__kiln_jit_cell_decorate__" not in ns


def test_jit_cell_syntax_errors_point_at_the_cell(shell):
    with capture_output() as cap:
        result = shell.run_cell("%%jit\ndef broken(x):\n    return x +\n")
    assert isinstance(result.error_in_exec, SyntaxError)
    assert "return x +" in cap.stdout + cap.stderr  # the offending line, as Python reports it
    assert "broken" not in shell.user_ns
    assert run(shell, "z = 3")[2] is None


def test_annotate_and_llvm_of_a_function_not_yet_compiled_say_to_call_it(shell):
    run(shell, "%%jit\ndef later(x):\n    return x\n")
    for magic in ("kiln_annotate", "kiln_llvm", "kiln_asm"):
        with capture_output() as cap:
            result = shell.run_cell(f"%{magic} later")
        assert not result.success
        assert "later has not been compiled yet: call it once" in cap.stderr
    with pytest.raises(ValueError, match="shows a kiln.jit function; got function"):
        kiln.annotate(lambda: 0)


def test_annotate_says_why_a_recurrence_does_not_vectorize_in_plain_words(shell):
    code = ("%%jit\n"
            "def orbit(x0, n):\n"
            "    x = x0\n"
            "    for t in range(n):\n"
            "        x = 4.0 * x * (1.0 - x)\n"
            "    return x\n")
    assert run(shell, code)[2] is None and run(shell, "orbit(0.1, 10)")[2] is None
    text = kiln.annotate(shell.user_ns["orbit"]).text
    assert ("^ loop not vectorized: a value carried from one iteration to the next is not a sum, product, min or max "
            "that lanes could split: each step needs the one before (LLVM: value that could not be identified as "
            "reduction is used outside the loop)") in text


def test_annotate_of_a_cuda_kernel_says_where_to_look_instead(shell):
    assert run(shell, "from kiln import cuda\n@cuda.jit\ndef fill(a):\n    a[cuda.grid(1)] = 1.0\n")[2] is None
    with capture_output() as cap:
        result = shell.run_cell("%kiln_annotate fill")
    assert not result.success
    assert ("kiln.annotate shows functions compiled for the CPU; fill is a CUDA kernel: read its PTX with "
            ".inspect_ptx(), and what its launches cost in the cell's footer") in cap.stderr


def test_footer_reports_a_cells_gpu_copies_in_kiln_cuda_reports_words(shell):
    code = ("import numpy as np\n"
            "from kiln import cuda\n"
            "on_gpu = cuda.to_device(np.ones(1000))\n"
            "back = on_gpu.copy_to_host()\n")
    _, displays, error = run(shell, code)
    assert error is None
    (footer,) = displays
    lines = footer["text/plain"].splitlines()
    assert lines[0].startswith("kiln: cell took ")
    assert re.fullmatch(r"  gpu: copies: 7\.8 KiB to the GPU, 7\.8 KiB back, [\d.]+ ms", lines[1])
    assert '<div class="kiln-gpu" style="padding-left:2em; color:#555">copies: 7.8 KiB' in footer["text/html"]
    # The records were taken: the next cell has none to report.
    assert run(shell, "w = 1")[1] == []


def test_annotate_marks_lines_with_runtime_checks(shell):
    code = ("%%jit {flags}\n"
            "def pick{n}(A, k, d):\n"
            "    x = A[k] + A[0]\n"
            "    return x // d\n")
    for n, flags, check in ((1, "", "negative index wraparound"), (2, "--boundscheck", "index bounds check")):
        assert run(shell, code.format(n=n, flags=flags))[2] is None
        _, _, error = run(shell, f"import numpy as np\npicked{n} = pick{n}(np.arange(10), -3, 2)")
        assert error is None and shell.user_ns[f"picked{n}"] == 3
        text = kiln.annotate(shell.user_ns[f"pick{n}"]).text
        marks = {m.group(2).strip(): m.group(1) for m in re.finditer(r"^(.)\s+\d+  (.+?)(?:  #.*)?$", text, re.M)}
        assert marks["x = A[k] + A[0]"] == "C" and f"^ {check}" in text
        # one note for the line: A[0] needs no wraparound, only bounds checking when on
        assert text.count(f"^ {check}") == 1
        # A division check costs more than boxing the result: the line is a
        # check line, and both notes are shown.
        assert marks["return x // d"] == "C"
        assert "^ division by zero check" in text and "^ result boxed into a Python object" in text


CACHED_CELL_SCRIPT = """
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
ip = InteractiveShell.instance()
ip.run_cell("%load_ext kiln.ipython")
with capture_output() as cap:
    ip.run_cell("%%jit --cache\\ndef cached_twice(x):\\n    return 2 * x\\n")
    ip.run_cell("print(cached_twice(21))")
print(cap.stdout)
print(cap.outputs[1].data["text/plain"])
"""


def test_jit_cell_listing_says_when_code_came_from_the_disk_cache(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, KILN_CACHE_DIR=str(tmp_path), PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
               IPYTHONDIR=str(tmp_path / "ipython"))
    listings = []
    for _ in range(2):  # a second process finds the machine code on disk
        done = subprocess.run([sys.executable, "-c", CACHED_CELL_SCRIPT], capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("42\n")
        listings.append(done.stdout.splitlines()[-1])
    assert re.fullmatch(r"  cached_twice\(int64\): compiled in [\d.]+ \S+", listings[0])
    assert re.fullmatch(r"  cached_twice\(int64\): loaded from the disk cache in [\d.]+ \S+", listings[1])


RUNNING_TOTAL = ("import numpy as np\nimport kiln\n"
                 "@kiln.njit(parallel=True)\n"
                 "def running_total{n}(v):\n"
                 "    for i in kiln.prange(1, v.shape[0]):\n"
                 "        v[i] += v[i - 1]\n"
                 "    return v\n")


@pytest.fixture
def footer_warnings(monkeypatch):
    """Kiln's hook as the kernel has it: pytest puts Python's own showwarning back for each test
    (and recwarn does again: ask for this fixture after it)."""
    monkeypatch.setattr(warnings, "showwarning", kiln.ipython._watch._warnings._show)


def test_kiln_warnings_of_a_cell_are_footer_lines_and_follow_the_filters(shell, recwarn, footer_warnings):
    assert run(shell, RUNNING_TOTAL.format(n=1))[2] is None
    with capture_output() as cap:
        shell.run_cell("running_total1(np.ones(5))")
    assert cap.stderr == "" and len(recwarn) == 0   # said once, in the footer, not shown as a warning
    footer = cap.outputs[-1].data["text/plain"]
    assert "\n  warning: the prange loop of running_total1 at line 5 runs serially: array `v` is written" in footer
    # "ignore" silences it, "error" raises it, and catch_warnings(record=True) records it, as for any warning
    assert run(shell, RUNNING_TOTAL.format(n=2))[2] is None
    _, displays, error = run(shell, "import warnings\nwith warnings.catch_warnings():\n"
                                    "    warnings.simplefilter('ignore', kiln.ParallelSafetyWarning)\n"
                                    "    running_total2(np.ones(5))")
    assert error is None and "warning:" not in displays[-1]["text/plain"]
    assert run(shell, RUNNING_TOTAL.format(n=3))[2] is None
    _, _, error = run(shell, "with warnings.catch_warnings():\n"
                             "    warnings.simplefilter('error', kiln.ParallelSafetyWarning)\n"
                             "    running_total3(np.ones(5))")
    assert isinstance(error, kiln.ParallelSafetyWarning)
    assert run(shell, RUNNING_TOTAL.format(n=4))[2] is None
    out, displays, error = run(shell, "with warnings.catch_warnings(record=True) as caught:\n"
                                      "    running_total4(np.ones(5))\n"
                                      "print(len(caught), caught[0].category.__name__)")
    assert error is None and out == "1 ParallelSafetyWarning\n" and "warning:" not in displays[-1]["text/plain"]


def test_an_unused_loop_ignored_by_the_filters_gets_no_footer_line(shell, footer_warnings):
    code = ("import warnings\nimport numpy as np\nimport kiln\n"
            "@kiln.njit\n"
            "def thrown_away(a):\n"
            "    s = 0.0\n"
            "    for x in a:\n"
            "        s += x\n")
    assert run(shell, code)[2] is None
    _, displays, error = run(shell, "with warnings.catch_warnings():\n"
                                    "    warnings.simplefilter('ignore', kiln.UnusedWorkWarning)\n"
                                    "    thrown_away(np.ones(3))")
    assert error is None and "loop optimized away" not in displays[-1]["text/plain"]


def test_kiln_warnings_outside_a_cell_are_shown_as_python_shows_them(shell, recwarn, footer_warnings):
    warnings.warn_explicit("kiln: outside any cell", kiln.ParallelSafetyWarning, "<test>", 1)
    assert [str(w.message) for w in recwarn] == ["kiln: outside any cell"]
