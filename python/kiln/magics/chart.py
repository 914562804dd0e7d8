"""A horizontal bar chart on a log scale as inline SVG (no script, no
fonts to fetch), and its text twin: bars of '#' on the same log scale.

Each row may carry a second, lighter bar behind the main one; %compare uses
it for the first call, so compilation shows as the gap between the two."""
import math

from .rich import esc, fmt_seconds

LABEL_W = 150     # px for row labels
PLOT_W = 420      # px for the bars
VALUE_W = 90      # px for the value printed after each bar
ROW_H = 22
TOP = 24          # room for the legend
AXIS_H = 22
MAIN_COLOUR = "#2b6cb0"
GHOST_COLOUR = "#f6ad55"


def _decades(values):
    """(low, high) powers of ten that enclose every positive value."""
    positive = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not positive:
        return -9, 0
    low = math.floor(math.log10(min(positive)))
    high = math.ceil(math.log10(max(positive)))
    return low, max(high, low + 1)


def _scale(value, low, high, width):
    """Bar length of `value` seconds on a log axis from 10**low to 10**high.
    A bar always starts at the axis minimum, so it is never zero wide."""
    if not value or value <= 0:
        return 0.0
    frac = (math.log10(value) - low) / (high - low)
    return max(1.0, min(1.0, frac) * width)


def svg(rows, main_name, ghost_name, title):
    """rows: [(label, main_seconds, ghost_seconds or None)]; ghost_name None
    where no row has a ghost bar (its legend is left out)."""
    low, high = _decades([v for _, m, g in rows for v in (m, g)])
    height = TOP + ROW_H * len(rows) + AXIS_H
    width = LABEL_W + PLOT_W + VALUE_W
    out = [
        f'<svg class="kiln-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}"'
        ' style="font-family: sans-serif; font-size: 11px; background: #fff">',
        f"<title>{esc(title)}</title>",
        f'<rect x="{LABEL_W}" y="6" width="10" height="10" fill="{MAIN_COLOUR}"/>'
        f'<text x="{LABEL_W + 14}" y="15">{esc(main_name)}</text>',
        (f'<rect x="{LABEL_W + 120}" y="6" width="10" height="10" fill="{GHOST_COLOUR}"/>'
         f'<text x="{LABEL_W + 134}" y="15">{esc(ghost_name)}</text>' if ghost_name else ""),
        f'<text x="{LABEL_W + PLOT_W}" y="15" text-anchor="end" fill="#666">log scale</text>',
    ]
    axis_y = TOP + ROW_H * len(rows)
    for decade in range(low, high + 1):
        x = LABEL_W + (decade - low) / (high - low) * PLOT_W
        out.append(f'<line x1="{x:.1f}" y1="{TOP - 2}" x2="{x:.1f}" y2="{axis_y}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_y + 14}" text-anchor="middle" fill="#444">'
                   f"{esc(fmt_seconds(10.0 ** decade))}</text>")
    for i, (label, main, ghost) in enumerate(rows):
        y = TOP + i * ROW_H
        out.append(f'<text x="{LABEL_W - 6}" y="{y + 15}" text-anchor="end">{esc(label)}</text>')
        if ghost:
            out.append(f'<rect class="kiln-bar-ghost" data-label="{esc(label)}" x="{LABEL_W}" y="{y + 3}"'
                       f' width="{_scale(ghost, low, high, PLOT_W):.1f}" height="{ROW_H - 6}"'
                       f' fill="{GHOST_COLOUR}"><title>{esc(label)}: {esc(ghost_name)}'
                       f" {esc(fmt_seconds(ghost))}</title></rect>")
        out.append(f'<rect class="kiln-bar" data-label="{esc(label)}" data-seconds="{main:.6g}"'
                   f' x="{LABEL_W}" y="{y + 6}" width="{_scale(main, low, high, PLOT_W):.1f}"'
                   f' height="{ROW_H - 12}" fill="{MAIN_COLOUR}"><title>{esc(label)}: {esc(main_name)}'
                   f" {esc(fmt_seconds(main))}</title></rect>")
        out.append(f'<text x="{LABEL_W + PLOT_W + 6}" y="{y + 15}">{esc(fmt_seconds(main))}</text>')
    out.append(f'<line x1="{LABEL_W}" y1="{axis_y}" x2="{LABEL_W + PLOT_W}" y2="{axis_y}" stroke="#444"/>')
    out.append("</svg>")
    return "".join(out)


def text(rows, main_name, width=40):
    """The text twin: one line per row, '#' bars on the same log axis."""
    low, high = _decades([m for _, m, _ in rows])
    label_w = max(len(label) for label, _, _ in rows)
    lines = [f"{'':{label_w}}  {main_name}, log scale {fmt_seconds(10.0 ** low)} .. {fmt_seconds(10.0 ** high)}"]
    for label, main, _ in rows:
        bar = "#" * max(1, round(_scale(main, low, high, width)))
        lines.append(f"{label:>{label_w}}  {bar:<{width}} {fmt_seconds(main)}")
    return "\n".join(lines)
