"""kiln.chart: timings a course saved with `t = %timeit -o f()` (or seconds)
drawn as %compare draws its rows, a table with each one's speedup over the
first and the log-scale bar chart, where the seeds plot their speedups by
hand with matplotlib. A row is named by its keyword, else by the variable
the caller keeps it in."""
from . import chart
from .rich import FONT, Rich, esc, fmt_seconds, html_table, text_table


def _seconds(result):
    """(best per call, slowest run per call or None) of one result."""
    runs, loops = getattr(result, "all_runs", None), getattr(result, "loops", None)
    if runs and loops:   # IPython's TimeitResult
        return min(runs) / loops, max(runs) / loops
    if isinstance(result, (int, float)) and not isinstance(result, bool) and result > 0:
        return float(result), None
    raise TypeError(f"kiln.chart takes %timeit -o results (t = %timeit -o f()) or seconds, not "
                    f"{type(result).__name__} {result!r:.60}")


def _name_in(frame, value):
    """A name the caller's code keeps `value` in (IPython's _ and _12 left out), or None."""
    for scope in (frame.f_locals, frame.f_globals):
        for name, held in scope.items():
            if held is value and not name.startswith("_"):
                return name
    return None


def _speedup(reference, best):
    ratio = reference / best
    return f"{ratio:,.0f}×" if ratio >= 1000 else f"{ratio:.3g}×"


def draw(results, named, frame):
    """The Rich view of kiln.chart(*results, **named), called from `frame`."""
    rows = [(_name_in(frame, r) or f"result {k + 1}", r) for k, r in enumerate(results)] + list(named.items())
    if not rows:
        raise TypeError("kiln.chart needs at least one timing: kiln.chart(t_python, t_jit) after "
                        "t_python = %timeit -o ...")
    bars = [(label,) + _seconds(result) for label, result in rows]
    reference = bars[0][1]
    table = [("label", "best", "slowest run", f"speedup over {bars[0][0]}")] + [
        (label, fmt_seconds(best), fmt_seconds(worst) if worst else "—", _speedup(reference, best))
        for label, best, worst in bars]
    ghost = "slowest run" if any(worst for _, _, worst in bars) else None
    text = "\n".join(text_table(table)) + "\n\n" + chart.text(bars, "best per call")
    attributes = [f'class="kiln-chart-row" data-label="{esc(label)}"' for label, _, _ in bars]
    html = (f'<div class="kiln-timing-chart" style="{FONT}">' + html_table(table, attributes, "kiln-chart-table")
            + chart.svg(bars, "best per call", ghost, "Time per call, log scale") + "</div>")
    return Rich(text, html)
