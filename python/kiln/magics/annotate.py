"""kiln.annotate(f) and %kiln_annotate f: the function's source with the
types the compiler inferred on each line and one colour per line saying how
fast it is, in the spirit of Cython's `%%cython -a`:

  unused      red      a loop the optimizer removed because nothing it computes is
                       used (the function returns None, the loop writes no argument)
  missed      orange   a loop LLVM did not vectorize, with LLVM's reason
  ordered     peach    a float sum (no fastmath) whose adds run one after another
                       in source order, though its loop is vectorized
  check       yellow   runtime checks: division by zero, index wraparound/bounds
  boundary    cream    Python objects unboxed on entry, the result boxed on return
                       (Kiln compiles nopython only: no line calls back into Python)
  vectorized  green    a loop LLVM vectorized (vector width and interleave)

Types come from Dispatcher.inspect_types(pretty=False), loop facts from
Dispatcher.inspect_remarks(signature) (LLVM's loop-vectorize remarks); checks
and the boundary are read from the source, since Python semantics fix where
they are."""
import ast
import inspect
import re
import textwrap

from . import dispatchers
from .rich import FONT, Rich, esc

# (kind, background, legend) from the most to the least costly.
KINDS = (
    ("unused", "#ffc9c9", "loop removed: its work is never used"),
    ("missed", "#ffd8a8", "loop not vectorized"),
    ("ordered", "#ffe8cc", "float sum in source order"),
    ("check", "#fff3b0", "runtime checks"),
    ("boundary", "#fdf6e3", "boxing at the Python boundary"),
    ("vectorized", "#c6f6d5", "loop vectorized"),
    ("plain", "#ffffff", "compiled, no checks"),
)
_RANK = {kind: i for i, (kind, _, _) in enumerate(KINDS)}
_COLOUR = {kind: colour for kind, colour, _ in KINDS}
_MARK = {"unused": "U", "missed": "M", "ordered": "O", "check": "C", "boundary": "B", "vectorized": "V", "plain": " "}
_WIDTH = re.compile(r"vectorization width: (\d+), interleaved count: (\d+)")


def _non_negative_constant(index):
    """Whether a subscript's index is whole numbers written out, none negative: a[0], a[1, 2]."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(isinstance(p, ast.Constant) and type(p.value) is int and p.value >= 0 for p in parts)


def _checks_by_line(source, first_line, boundscheck):
    """{line: [check, ...]} for what compiled code must test at run time."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        divisor = None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            divisor = node.right
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            divisor = node.value
        if divisor is not None and not (isinstance(divisor, ast.Constant) and divisor.value):
            found.setdefault(node.lineno + first_line - 1, []).append("division by zero check")
        # a[0] cannot be negative: only bounds checking, when on, tests it
        if isinstance(node, ast.Subscript) and (boundscheck or not _non_negative_constant(node.slice)):
            check = "index bounds check" if boundscheck else "negative index wraparound"
            found.setdefault(node.lineno + first_line - 1, []).append(check)
    return {line: sorted(set(checks)) for line, checks in found.items()}


def _boundary_lines(source, first_line):
    """The def line (arguments unboxed) and each return (result boxed)."""
    tree = ast.parse(source)
    func = tree.body[0]
    lines = {func.lineno + first_line - 1: "arguments unboxed from Python objects"}
    for node in ast.walk(func):
        if isinstance(node, ast.Return) and node.value is not None:
            lines[node.lineno + first_line - 1] = "result boxed into a Python object"
    return lines


# LLVM's reasons for not vectorizing, as a student can act on them; LLVM's words follow in brackets.
_PLAIN = {
    "value that could not be identified as reduction is used outside the loop":
        "a value carried from one iteration to the next is not a sum, product, min or max that lanes could "
        "split: each step needs the one before",
    "could not determine number of loop iterations":
        "how many times the loop runs is not known when it starts (a while loop, or one that can leave early)",
    "loop control flow is not understood by vectorizer":
        "the loop can leave early (a break, a return or a raise), which vector lanes cannot follow",
    "unsafe dependent memory operations in loop":
        "an iteration may read memory an earlier iteration wrote",
    "cannot identify array bounds":
        "which memory the loop reads and writes cannot be told in advance",
    "call instruction cannot be vectorized":
        "it calls a function that has no vector version",
}


def _reason(message):
    """LLVM's analysis text without the "loop not vectorized: " it repeats, said plainly where
    the text is one students meet (LLVM's own words kept after it)."""
    text = message.split(": ", 1)[1] if message.startswith("loop not vectorized: ") else message
    for llvm, plain in _PLAIN.items():
        if text.startswith(llvm):
            return f"{plain} (LLVM: {llvm})"
    return text


def _remark_notes(remarks):
    """{line: (kind, [note, ...])} from LLVM's loop-vectorize remarks.

    LLVM puts "loop not vectorized" (missed) on the loop's line and the
    reason (analysis) on the line that blocks it, such as the reduction
    `acc += ...` without fastmath. Both lines are marked: the loop with its
    reasons, the blocking line with what it blocks. An analysis remark
    belongs to the nearest missed loop that starts at or above it."""
    notes = {}

    def add(line, kind, text):
        old_kind, texts = notes.get(line, (None, []))
        notes[line] = (kind if old_kind in (None, "vectorized") else old_kind, texts + [text])

    # a loop the optimizer removed (unused) gets only that note: what the
    # vectorizer said of it before it went is moot
    removed = {r["line"] for r in remarks if r["kind"] == "unused"}
    missed_lines = sorted(r["line"] for r in remarks if r["kind"] == "missed")
    reasons = {line: [] for line in missed_lines}
    for r in remarks:
        if r["kind"] == "analysis":
            owner = max((m for m in missed_lines if m <= r["line"]), default=None)
            if r["line"] in removed or owner in removed:
                continue
            if owner is not None:
                reasons[owner].append(_reason(r["message"]))
            if owner != r["line"]:
                add(r["line"], "missed", f"blocks vectorization: {_reason(r['message'])}")
    for r in remarks:
        if r["kind"] == "vectorized":
            width = _WIDTH.search(r["message"])
            add(r["line"], "vectorized", f"loop vectorized: width {width.group(1)}, interleave {width.group(2)}"
                if width else f"loop vectorized: {r['message']}")
        elif r["kind"] == "missed" and r["line"] not in removed:
            why = "; ".join(dict.fromkeys(reasons[r["line"]])) or "LLVM gave no reason"
            add(r["line"], "missed", f"loop not vectorized: {why}")
        elif r["kind"] == "unused":
            add(r["line"], "unused", "loop removed by the optimizer: nothing it computes is used (the function "
                "returns None and the loop writes no argument), so timing the function measures nothing; "
                "return what it computes to keep the work")
        elif r["kind"] == "ordered":
            add(r["line"], "ordered", "sum kept in source order: each add waits for the one before "
                "(strict floating point); fastmath=True lets it run in vector lanes")
    return notes


def _note_kind(note):
    """The CSS class suffix of a note: vectorized, missed, ordered, unused or info."""
    if note.startswith("loop vectorized"):
        return "vectorized"
    if note.startswith(("loop not vectorized", "blocks vectorization")):
        return "missed"
    if note.startswith("sum kept in source order"):
        return "ordered"
    if note.startswith("loop removed"):
        return "unused"
    return "info"


def _boundscheck(dispatcher):
    # a kiln function's options, kept in C, read as a dict (jit/dispatch/dispatch.c)
    return bool(getattr(dispatcher, "_kiln_options", {}).get("boundscheck"))


def _lines(dispatcher, typed, remarks):
    """[(line number, source text, kind, types text, notes)] for one signature."""
    src_lines, first = inspect.getsourcelines(dispatcher.py_func)
    source = textwrap.dedent("".join(src_lines))
    checks = _checks_by_line(source, first, _boundscheck(dispatcher))
    boundary = _boundary_lines(source, first)
    loop_notes = _remark_notes(remarks)
    types_at = {lineno: var_types for lineno, _, var_types in typed}
    rows = []
    for offset, text in enumerate(src_lines):
        lineno = first + offset
        types = types_at.get(lineno) or {}
        kinds, notes = ["plain"], []
        remark_kind, remark_texts = loop_notes.get(lineno, (None, []))
        if remark_kind:
            kinds.append(remark_kind)
        notes += remark_texts
        if lineno in checks:
            kinds.append("check")
            notes += checks[lineno]
        if lineno in boundary:
            kinds.append("boundary")
            notes.append(boundary[lineno])
        rows.append((lineno, text.rstrip("\n"), min(kinds, key=_RANK.get), types, notes))
    return rows


def _legend_html():
    """The colour chips, each with the mark its lines carry (as in the text view)."""
    return "".join(f'<span class="kiln-legend" style="background:{colour}; border:1px solid #ccc; padding:0 6px;'
                   f' margin-right:6px; white-space:nowrap; display:inline-block">'
                   f'{f"<b>{_MARK[kind]}</b> " if kind != "plain" else ""}{esc(legend)}</span>'
                   for kind, colour, legend in KINDS)


def _types_html(var_types):
    """One unbreakable "name: type" per variable: long lists wrap between variables, not inside one."""
    return ", ".join(f'<span style="white-space:nowrap">{esc(v)}: {esc(t)}</span>' for v, t in var_types.items())


def render(dispatcher):
    """A Rich view of the compiled function, one section per signature.
    Raises ValueError for a non-Kiln or not yet compiled function."""
    if not dispatchers.is_dispatcher(dispatcher):
        raise ValueError(f"kiln.annotate shows a kiln.jit function; got {type(dispatcher).__name__}")
    if not hasattr(dispatcher, "inspect_types"):   # a kiln.cuda kernel: its loops are the GPU's, not LLVM's remarks
        raise ValueError(f"kiln.annotate shows functions compiled for the CPU; {dispatchers.name(dispatcher)} is a CUDA "
                         f"kernel: read its PTX with .inspect_ptx(), and what its launches cost in the cell's footer")
    name = dispatchers.name(dispatcher)
    if not dispatcher.signatures:
        raise ValueError(f"{name} has not been compiled yet: call it once (or give it a signature), "
                         f"then annotate it")
    all_types = dispatcher.inspect_types(pretty=False)
    text = ["Marks: " + ", ".join(f"{_MARK[k]} = {legend}" for k, _, legend in KINDS if k != "plain")]
    html = [f'<div class="kiln-annotate" style="{FONT}"><div style="margin-bottom:4px">{_legend_html()}</div>']
    for sig in dispatcher.signatures:
        title = f"{name}{dispatchers.signature_text(sig)}"
        rows = _lines(dispatcher, all_types.get(sig, []), dispatcher.inspect_remarks(sig))
        text.append(f"--- {title} ---")
        width = max(len(r[1]) for r in rows)
        body = []
        for lineno, src, kind, var_types, notes in rows:
            types = ", ".join(f"{v}: {t}" for v, t in var_types.items())
            text.append((f"{_MARK[kind]} {lineno:4d}  {src:<{width}}" + (f"  # {types}" if types else "")).rstrip())
            text.extend(f"{'':7}  {'':<{width}}  ^ {note}" for note in notes if kind != "plain")
            note_html = "".join(f'<div class="kiln-note kiln-note-{_note_kind(note)}">{esc(note)}</div>'
                                for note in notes)
            body.append(
                f'<tr class="kiln-line kiln-{kind}" data-line="{lineno}" style="background:{_COLOUR[kind]}">'
                f'<td class="kiln-mark" style="font-weight:bold; padding:0 2px 0 4px; vertical-align:top">'
                f'{_MARK[kind].strip()}</td>'
                f'<td style="color:#888; text-align:right; padding:0 6px; vertical-align:top">{lineno}</td>'
                f'<td style="text-align:left; vertical-align:top; white-space:pre">'
                f'<pre style="margin:0; padding:0; background:transparent; white-space:pre">'
                f'{esc(src) or " "}</pre></td>'
                f'<td class="kiln-types" style="text-align:left; color:#2c5282; padding:0 8px; vertical-align:top;'
                f' min-width:20em">{_types_html(var_types)}</td>'
                # notes are sentences: kept readable beside long types
                f'<td style="text-align:left; color:#555; padding:0 4px; vertical-align:top;'
                f' min-width:18em">{note_html}</td></tr>')
        html.append(f'<div style="font-weight:bold; margin-top:6px">{esc(title)}</div>'
                    f'<table style="border-collapse:collapse">{"".join(body)}</table>')
    html.append("</div>")
    return Rich("\n".join(text) + "\n", "".join(html))
