"""The one compact line under a cell that called or compiled Kiln code:
what was compiled and how long each took (phases on hover and in a details
element), what was loaded from the disk cache instead, how long compiled
code ran (with "≈" when calls under a microsecond were timed on a sample:
profiler/profiler.h), and whether compiling dominated. Calls made by
%timeit and %compare are counted there, not timed: those magics print their
own timings."""
from . import gpu_records
from .records import PHASES, by_title
from .rich import FONT, Rich, esc, fmt_seconds

# Above this share of the cell's wall time, the line says the cell was mostly
# compilation: the seed's "COMPILATION TIME IS INCLUDED" warning, made automatic.
MOSTLY = 0.5


def _phases_text(compile_):
    return ", ".join(f"{p} {fmt_seconds(compile_.phases.get(p, 0.0))}" for p in PHASES)


def _how_long(group):
    """'2.66 ms', or '9 times, 12.5 ms in all' for a specialization compiled again and again."""
    if group.times == 1:
        return fmt_seconds(group.seconds)
    return f"{group.times:,} times, {fmt_seconds(group.seconds)} in all"


def _in(group):
    """'in 2.66 ms', or '9 times, 12.5 ms in all'."""
    return ("in " if group.times == 1 else "") + _how_long(group)


def _compile_html(group):
    rows = "".join(
        f'<tr><td style="padding:0 8px 0 0">{esc(p)}</td>'
        f'<td style="text-align:right">{esc(fmt_seconds(group.phases.get(p, 0.0)))}</td></tr>'
        for p in PHASES
    )
    return (
        f'<details class="kiln-compile" style="display:inline-block; vertical-align:top; margin-right:10px"'
        f' title="{esc(_phases_text(group))}">'
        f'<summary style="cursor:pointer"><b>{esc(group.title)}</b> {esc(_how_long(group))}'
        f"</summary><table>{rows}</table></details>"
    )


# Why a total carries "≈", said on hover (profiler/profiler.h has the rules).
SAMPLED = ("≈: calls under 1 µs are timed on a sample (about 1 in 128) and the others estimated "
           "at the sample's mean; the count is exact")


def _ran(delta):
    """(text, HTML) of how long compiled code ran, or None when nothing ran."""
    if not delta.calls:
        return None
    calls = f"{delta.calls:,} call{'s' if delta.calls != 1 else ''}"
    approx = "≈" if delta.estimated else ""
    text = f"ran compiled code for {approx}{fmt_seconds(delta.call_seconds)} in {calls}"
    per_function = "; ".join(
        f"{f.title}: {f.calls:,} in {'≈' if f.estimated else ''}{fmt_seconds(f.seconds)}"
        for f in delta.functions if f.calls)
    hover = per_function + (f" ({SAMPLED})" if delta.estimated else "")
    mark = ' class="kiln-estimated"' if delta.estimated else ""
    return text, f'<span{mark} title="{esc(hover)}">{esc(text)}</span>'


def _workers(delta):
    """(text, HTML) of what worker processes compiled (a pool's, a Dask
    cluster's), or None: each function once, with how many processes did
    it and how long each took on average."""
    if not delta.workers:
        return None
    per_function = {}   # (title, from cache) -> {pid: seconds}
    for c in delta.workers:
        per_pid = per_function.setdefault((c.title, c.from_cache), {})
        per_pid[c.worker] = per_pid.get(c.worker, 0.0) + c.seconds
    sentences = {}      # (process count, from cache) -> ["f(int64) in 25 ms", ...]
    for (title, cached), per_pid in per_function.items():
        mean = sum(per_pid.values()) / len(per_pid)
        sentences.setdefault((len(per_pid), cached), []).append(f"{title} in {fmt_seconds(mean)}")
    parts = []
    for (n, cached), items in sentences.items():
        verb = "loaded from cache" if cached else "compiled"
        parts.append(f"{n} worker process{'es' if n != 1 else ''} {verb} {', '.join(items)}"
                     + (", each on average" if n != 1 else ""))
    text = "; ".join(parts)
    hover = "; ".join(f"{title}: {fmt_seconds(s)} in process {pid}"
                      for (title, _), per_pid in per_function.items() for pid, s in sorted(per_pid.items()))
    return text, f'<span class="kiln-workers" title="{esc(hover)}">{esc(text)}</span>'


def _gpu(summary):
    """(text, HTML) of the GPU lines under the footer line, or ("", "")."""
    if summary is None:
        return "", ""
    rows = gpu_records.lines(summary)
    text = "".join(f"\n  gpu: {line}" for _, line in rows)
    html = "".join(
        f'<div class="kiln-gpu{" kiln-gpu-warning" if warning else ""}" style="padding-left:2em;'
        f' color:{"#b35900" if warning else "#555"}">{esc(line)}</div>' for warning, line in rows)
    return text, html


def _unused(told):
    """(text, HTML) of the loops the cell's compiles found removed as
    unused (kiln.unused_work), one warning line each, or ("", "")."""
    lines = [f"warning: {function}, line {line}: loop optimized away, so timing {function} measures nothing "
             f"(it returns None and the loop writes nothing a caller sees)" for function, line, _ in told]
    text = "".join(f"\n  {line}" for line in lines)
    html = "".join(f'<div class="kiln-unused" title="{esc(message)}" style="padding-left:2em; color:#b35900">'
                   f"{esc(line)}</div>" for line, (_, _, message) in zip(lines, told))
    return text, html


def _warned(texts):
    """(text, HTML) of the Kiln warnings the cell raised (cell_warnings), one line each, or ("", "")."""
    text = "".join(f"\n  warning: {t}" for t in texts)
    html = "".join(f'<div class="kiln-warning" style="padding-left:2em; color:#b35900">warning: {esc(t)}</div>'
                   for t in texts)
    return text, html


def render(delta, cell_seconds, gpu_summary=None, unused=(), warned=()):
    """A Rich view of one cell's Delta (cell_seconds is its wall time), with
    kiln.cuda.report's lines when the cell used the GPU, a warning for
    each loop its compiles found optimized away as unused
    (kiln.unused_work.take()'s), and one for each other Kiln warning it
    raised (cell_warnings.FooterWarnings.take()'s)."""
    parts_text = []
    parts_html = []
    compiled = by_title(delta.compiles)
    if compiled:
        parts_text.append("compiled " + ", ".join(f"{g.title} {_in(g)}" for g in compiled))
        parts_html.append("compiled " + "".join(_compile_html(g) for g in compiled))
    if delta.loads:
        loaded = "loaded " + ", ".join(f"{g.title} from cache {_in(g)}" for g in by_title(delta.loads))
        parts_text.append(loaded)
        parts_html.append(f'<span class="kiln-cache-load">{esc(loaded)}</span>')
    workers = _workers(delta)
    if workers:
        parts_text.append(workers[0])
        parts_html.append(workers[1])
    ran = _ran(delta)
    if ran:
        parts_text.append(ran[0])
        parts_html.append(ran[1])
    share = delta.compile_seconds / cell_seconds if cell_seconds > 0 else 0.0
    verdict = f"cell took {fmt_seconds(cell_seconds)}"
    again = [g for g in compiled if g.times > 1]
    if share > MOSTLY and again:   # running the cell again would compile them again
        verdict += (f", mostly compiling ({min(share, 1.0):.0%}): {again[0].title} compiled {again[0].times:,} "
                    f"times, as each jit of the same function makes a new one that compiles on its first call; "
                    f"make it once, then call it")
    elif share > MOSTLY:
        verdict += f", mostly compiling ({min(share, 1.0):.0%}): run it again to time the compiled code"
    parts_text.append(verdict)
    verdict_html = esc(verdict)
    if share > MOSTLY:
        verdict_html = f'<b class="kiln-mostly" style="color:#b35900">{verdict_html}</b>'
    parts_html.append(verdict_html)
    if delta.untimed_calls:
        # counted, not timed: their own timings are the cell's output
        n = delta.untimed_calls
        looped = f"{n:,} call{'s' if n != 1 else ''} in %timeit/%compare loops, timed there"
        parts_text.append(looped)
        parts_html.append(esc(looped))

    gpu_text, gpu_html = _gpu(gpu_summary)
    unused_text, unused_html = _unused(unused)
    warned_text, warned_html = _warned(warned)
    text = "kiln: " + " · ".join(parts_text) + gpu_text + unused_text + warned_text
    body = (
        f'<div class="kiln-footer" style="{FONT} color:#555; border-top:1px solid #ddd;'
        f' padding-top:2px; margin-top:2px">'
        f'<span style="color:#b35900; font-weight:bold">kiln</span> '
        + ' <span style="color:#aaa">·</span> '.join(parts_html)
        + gpu_html
        + unused_html
        + warned_html
        + "</div>"
    )
    return Rich(text, body)
