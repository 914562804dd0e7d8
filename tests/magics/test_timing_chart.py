"""kiln.chart outside a notebook: rows named by the variables that hold them
or by keyword, seconds accepted as they are, and what it cannot draw
refused with what it takes."""
import pytest

import kiln


def test_rows_are_named_by_variable_or_keyword_with_speedups_over_the_first():
    slow = 0.02
    view = kiln.chart(slow, 0.001, fast=0.0001)
    lines = repr(view).splitlines()
    assert lines[0].split() == ["label", "best", "slowest", "run", "speedup", "over", "slow"]
    assert [line.split()[0] for line in lines[2:5]] == ["slow", "result", "fast"]
    assert lines[3].split()[-1] == "20×" and lines[4].split()[-1] == "200×"
    assert "slowest run" not in view._repr_html_().split("</table>")[1]   # no slowest-run bars to name


@pytest.mark.parametrize("value", ["1 ms", -1.0, True, None])
def test_what_is_not_a_timing_is_refused(value):
    with pytest.raises(TypeError, match=r"kiln.chart takes %timeit -o results \(t = %timeit -o f\(\)\) or seconds"):
        kiln.chart(value)


def test_nothing_to_draw_says_what_to_pass():
    with pytest.raises(TypeError, match="kiln.chart needs at least one timing"):
        kiln.chart()
