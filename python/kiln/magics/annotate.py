"""kiln.annotate(f) and %kiln_annotate f: the function's source with the
types the compiler inferred on each line and one colour per line saying how
fast it is, in the spirit of Cython's `%%cython -a`:

  python      red      calls back into Python or works on Python objects
  missed      orange   a loop LLVM did not vectorize, with LLVM's reason
  check       yellow   runtime checks: division by zero, index wraparound/bounds
  boundary    cream    arguments unboxed on entry, the result boxed on return
  vectorized  green    a loop LLVM vectorized (vector width and interleave)

Types come from Dispatcher.inspect_types(pretty=False), loop facts from
Dispatcher.inspect_remarks() (LLVM's loop-vectorize remarks); checks and the
boundary are read from the source, since Python semantics fix where they are."""
import ast
import inspect
import re
import textwrap

from . import dispatchers
from .rich import FONT, Rich, esc

# (kind, background, legend) from the most to the least costly.
KINDS = (
    ("python", "#ffc4c4", "calls into Python / Python objects"),
    ("missed", "#ffd8a8", "loop not vectorized"),
    ("check", "#fff3b0", "runtime checks"),
    ("boundary", "#fdf6e3", "boxing at the Python boundary"),
    ("vectorized", "#c6f6d5", "loop vectorized"),
    ("plain", "#ffffff", "compiled, no checks"),
)
_RANK = {kind: i for i, (kind, _, _) in enumerate(KINDS)}
_COLOUR = {kind: colour for kind, colour, _ in KINDS}
_MARK = {"python": "P", "missed": "M", "check": "C", "boundary": "B", "vectorized": "V", "plain": " "}
_PYOBJECT = re.compile(r"\b(pyobject|object|reflected)\b")
_WIDTH = re.compile(r"vectorization width: (\d+), interleaved count: (\d+)")


def _per_signature(value, dispatcher):
    """Numba-shaped inspect_* results are {signature: x}; a bare x is the
    latest signature's."""
    return dict(value) if isinstance(value, dict) else {dispatcher.signatures[-1]: value}


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
        if isinstance(node, ast.Subscript):
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


def _remark_notes(remarks):
    """{line: (kind or None, [note, ...])} from LLVM's loop remarks."""
    notes = {}
    for r in remarks:
        line, kind, message = r["line"], r["kind"], r["message"]
        best, texts = notes.get(line, (None, []))
        if kind == "vectorized":
            width = _WIDTH.search(message)
            texts.append(f"loop vectorized: width {width.group(1)}, interleave {width.group(2)}" if width
                         else f"loop vectorized: {message}")
            best = best or "vectorized"
        elif kind == "missed":
            texts.append(f"loop not vectorized: {message}")
            best = "missed"
        else:
            texts.append(f"LLVM: {message}")
        notes[line] = (best, texts)
    return notes


def _options(dispatcher):
    return dict(getattr(dispatcher, "targetoptions", None) or getattr(dispatcher, "options", None) or {})


def _lines(dispatcher, sig, typed, remarks):
    """[(line number, source text, kind, types text, notes)] for one signature."""
    src_lines, first = inspect.getsourcelines(dispatcher.py_func)
    source = textwrap.dedent("".join(src_lines))
    checks = _checks_by_line(source, first, _options(dispatcher).get("boundscheck", False))
    boundary = _boundary_lines(source, first)
    loop_notes = _remark_notes(remarks)
    types_at = {lineno: var_types for lineno, _, var_types in typed}
    rows = []
    for offset, text in enumerate(src_lines):
        lineno = first + offset
        var_types = types_at.get(lineno, {})
        types = ", ".join(f"{v}: {t}" for v, t in var_types.items())
        kinds, notes = ["plain"], []
        if any(_PYOBJECT.search(str(t)) for t in var_types.values()):
            kinds.append("python")
            notes.append("works on Python objects")
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
    return "".join(f'<span class="kiln-legend" style="background:{colour}; border:1px solid #ccc; padding:0 6px;'
                   f' margin-right:6px">{esc(legend)}</span>' for _, colour, legend in KINDS)


def render(dispatcher):
    """A Rich view of the compiled function, one section per signature.
    Raises ValueError for a non-Kiln or not yet compiled function."""
    if not dispatchers.is_dispatcher(dispatcher):
        raise ValueError(f"kiln.annotate shows a kiln.jit function; got {type(dispatcher).__name__}")
    name = dispatchers.name(dispatcher)
    if not dispatcher.signatures:
        raise ValueError(f"{name} has not been compiled yet: call it once (or give it a signature), "
                         f"then annotate it")
    all_types = _per_signature(dispatcher.inspect_types(pretty=False), dispatcher)
    all_remarks = _per_signature(dispatcher.inspect_remarks(), dispatcher)
    text = ["Marks: " + ", ".join(f"{_MARK[k]} = {legend}" for k, _, legend in KINDS if k != "plain")]
    html = [f'<div class="kiln-annotate" style="{FONT}"><div style="margin-bottom:4px">{_legend_html()}</div>']
    for sig in dispatcher.signatures:
        title = f"{name}{dispatchers.signature_text(sig)}"
        rows = _lines(dispatcher, sig, all_types.get(sig, []), all_remarks.get(sig, []))
        text.append(f"--- {title} ---")
        width = max(len(r[1]) for r in rows)
        body = []
        for lineno, src, kind, types, notes in rows:
            text.append(f"{_MARK[kind]} {lineno:4d}  {src:<{width}}" + (f"  # {types}" if types else ""))
            text.extend(f"{'':7}  {'':<{width}}  ^ {note}" for note in notes if kind != "plain")
            note_html = "".join(
                f'<div class="kiln-note kiln-{"vectorized" if note.startswith("loop vectorized") else "missed" if note.startswith("loop not") else "info"}">'
                f"{esc(note)}</div>" for note in notes)
            body.append(
                f'<tr class="kiln-line kiln-{kind}" data-line="{lineno}" style="background:{_COLOUR[kind]}">'
                f'<td style="color:#888; text-align:right; padding:0 6px; vertical-align:top">{lineno}</td>'
                f'<td style="text-align:left; vertical-align:top"><pre style="margin:0; background:transparent">'
                f'{esc(src) or " "}</pre></td>'
                f'<td class="kiln-types" style="text-align:left; color:#2c5282; padding:0 8px; vertical-align:top">'
                f"{esc(types)}</td>"
                f'<td style="text-align:left; color:#555; padding:0 4px; vertical-align:top">{note_html}</td></tr>')
        html.append(f'<div style="font-weight:bold; margin-top:6px">{esc(title)}</div>'
                    f'<table style="border-collapse:collapse">{"".join(body)}</table>')
    html.append("</div>")
    return Rich("\n".join(text) + "\n", "".join(html))
