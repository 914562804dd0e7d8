"""%compare's output: one table (label, first call, compile, best, median,
speedup against the first row, agreement) and the log-scale bar chart, as
HTML with inline SVG and as a text/plain twin."""
from . import chart, simulated
from .rich import FONT, Rich, esc, fmt_seconds, html_table, text_table

COLUMNS = ("label", "first call", "compile", "best", "median", "speedup", "result")


def _label(row):
    """The row's label, marked where its times are the CUDA simulator's."""
    return row.label + (" (simulated)" if row.simulated else "")


def _simulated_notes(result):
    """A sentence for each row whose kernels ran on the CUDA simulator."""
    return [f"{r.label}: its kernels ran on the CUDA simulator, on the CPU, so its times are not GPU times; "
            f"for one call, {simulated.estimate_sentence(*r.simulated)}." for r in result if r.simulated]


def _cells(row):
    if row.agrees is None:
        agrees = "not compared"
    else:
        agrees = "agrees" if row.agrees else "DIFFERS"
    return (
        _label(row),
        fmt_seconds(row.first),
        fmt_seconds(row.compile) if row.compile else "—",
        fmt_seconds(row.best),
        fmt_seconds(row.median),
        f"{row.speedup:,.0f}×" if row.speedup >= 1000 else f"{row.speedup:.3g}×",
        agrees,
    )


def _loops_note(result):
    return "best and median per call; " + "; ".join(
        f"{r.label}: {len(r.runs)} runs × {r.loops} loop{'s' if r.loops != 1 else ''}" for r in result)


def render(result):
    """A Rich view of a CompareResult."""
    table = [COLUMNS] + [_cells(r) for r in result]
    text_lines = text_table(table)
    bars = [(_label(r), r.best, r.first) for r in result]
    notes = _simulated_notes(result)
    text = ("\n".join(text_lines) + "\n" + _loops_note(result) + "".join("\n" + n for n in notes) + "\n\n"
            + chart.text(bars, "best per call"))
    differs = [r.label for r in result if r.agrees is False]
    if differs:
        text += f"\n\nWARNING: results differ from {result[0].label}'s: {', '.join(differs)}"

    attributes = [f'class="kiln-compare-row" data-label="{esc(r.label)}"'
                  + (' style="background:#fde2e2"' if r.agrees is False else "") for r in result]
    warning = (f'<div class="kiln-differs" style="color:#c53030; font-weight:bold">results differ from '
               f'{esc(result[0].label)}\'s: {esc(", ".join(differs))}</div>' if differs else "")
    html = (
        f'<div class="kiln-compare" style="{FONT}">'
        + html_table(table, attributes, "kiln-compare-table")
        + f'<div style="color:#666; margin-bottom:6px">{esc(_loops_note(result))}</div>'
        + "".join(f'<div class="kiln-simulated" style="color:#b35900; margin-bottom:4px">{esc(n)}</div>'
                  for n in notes)
        + warning
        + chart.svg(bars, "best per call", "first call (with compile)", "Time per call, log scale")
        + "</div>"
    )
    return Rich(text, html)
