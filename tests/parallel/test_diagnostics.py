"""f.parallel_diagnostics(level=1..4) and f.parallel_report(): what a
student reads about each prange loop, and the HTML view of the source with
the loops marked (what %%jit --parallel displays)."""
import numpy as np
import pytest

import kiln
from kiln import prange

# the serial loop's warning is checked in test_verdicts.py; here it is expected
pytestmark = pytest.mark.filterwarnings("ignore::kiln.ParallelSafetyWarning")


@kiln.njit(parallel=True)
def two_loops(a, out):
    total = 0.0
    for i in prange(a.shape[0]):
        t = a[i] * 2.0
        out[i] = t
        total += t
    prev = 0.0
    for i in prange(a.shape[0]):
        out[i] = prev + 1.0
        prev = out[i]
    return total


def test_levels_add_detail(capsys):
    two_loops(np.arange(10.0), np.zeros(10))
    two_loops.parallel_diagnostics(level=1)
    one = capsys.readouterr().out
    assert "2 loop(s) found, 1 running in parallel" in one
    assert "PARALLEL" in one and "SERIAL" in one
    assert "`prev` is assigned in one iteration" in one
    assert "reduction" not in one
    two_loops.parallel_diagnostics(level=2)
    two = capsys.readouterr().out
    assert "reduction: total (+=)" in two and "private per iteration" not in two
    two_loops.parallel_diagnostics(level=3)
    three = capsys.readouterr().out
    assert "private per iteration: t" in three
    assert "shared (read only): a, out" in three
    two_loops.parallel_diagnostics(level=4)
    four = capsys.readouterr().out
    assert "allocation hoisting" in four and "not checked" in four
    with pytest.raises(ValueError, match="level"):
        two_loops.parallel_report().text(5)


def test_report_data_and_html():
    two_loops(np.arange(4.0), np.zeros(4))
    report = two_loops.parallel_report()
    assert isinstance(report, kiln.ParallelReport)
    first, second = report.loops
    assert first["parallel"] and first["reductions"] == [("total", "+=", first["line"] + 3)]
    assert not second["parallel"] and second["reason_line"] == second["line"] + 1
    page = report._repr_html_()
    assert "<table" in page
    assert "class='par'" in page and "class='why'" in page and "class='red'" in page
    assert "prev = out[i]" in page   # the source is shown
    assert "is assigned in one iteration" in page


def test_before_compiling_and_without_prange():
    @kiln.njit(parallel=True)
    def no_loops(x):
        return x + 1
    with pytest.raises(ValueError, match="call it first"):
        no_loops.parallel_report()
    no_loops(1)
    assert "No parallel loops" in no_loops.parallel_report().text(1)


def test_array_expressions_are_listed():
    @kiln.njit(parallel=True)
    def scaled(a):
        return a * 2.0 + 1.0
    scaled(np.ones(3))
    (loop,) = scaled.parallel_report().loops
    assert loop["kind"] == "array expression" and loop["parallel"]
    assert "array expression, split from 32,768 elements): PARALLEL" in scaled.parallel_report().text(1)


def test_level_4_points_at_allocations_repeated_every_iteration(capsys):
    @kiln.njit(parallel=True)
    def rows(m, out):
        for i in prange(m.shape[0]):
            scratch = np.zeros(m.shape[1])          # same size every time: could be made once
            sized = np.empty(i + 1)                 # depends on i: not reported
            for j in range(m.shape[1]):
                scratch[j] = m[i, j] * 2.0
            sized[0] = scratch.sum()
            out[i] = sized[0]
        return out
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(rows(m, np.zeros(3)), m.sum(axis=1) * 2.0)
    (loop,) = rows.parallel_report().loops
    first = rows.py_func.__code__.co_firstlineno
    assert loop["allocations"] == [first + 3]
    rows.parallel_diagnostics(level=4)
    assert f"allocation at line {first + 3}: a new array of the same size" in capsys.readouterr().out


def test_cell_reports_for_the_jit_magic():
    from kiln.parallel import cell_reports
    two_loops(np.arange(4.0), np.zeros(4))

    @kiln.njit
    def serial(x):
        return x
    serial(1)
    reports = cell_reports([two_loops, serial])
    assert [r.function_name for r in reports] == ["two_loops"] * len(two_loops.signatures)
    assert cell_reports([serial]) == []
