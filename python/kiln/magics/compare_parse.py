"""Reading %compare's input: options, then labelled statements, either
`;`-separated on the magic line or one per line in the cell form.

A label is written `label: statement`. That is Python's annotation syntax,
so `py: f(A)` parses and gives the label exactly; labels with spaces work
too, `numba parallel: f(A)`, and quoted ones may hold any character."""
import ast
import io
import re
import tokenize
from dataclasses import dataclass


class CompareUsageError(ValueError):
    """Bad %compare input; the message says what to write instead."""


@dataclass
class Options:
    number: int = 0      # loops per run; 0 = choose like %timeit
    repeat: int = 0      # runs; 0 = choose like %timeit (7, fewer for slow statements)
    output: bool = False  # -o: return the CompareResult
    check: str = ""      # -c EXPR: compare EXPR after each first call, not the return values


@dataclass
class Entry:
    label: str
    source: str  # the statement, as written


USAGE = (
    "usage: %compare [-n LOOPS] [-r RUNS] [-o] [-c EXPR] [label:] stmt; [label:] stmt; ...\n"
    "   or: %%compare [options] with one [label:] stmt per line of the cell"
)

_OPTION = re.compile(r"""^(-n|-r|-c|--check)\s+(?:"([^"]*)"|'([^']*)'|(\S+))\s*|^(-o)(?:\s+|$)""")


def split_options(line):
    """(Options, rest of the line) for the leading -x options of `line`."""
    opts = Options()
    rest = line.strip()
    while rest.startswith("-"):
        match = _OPTION.match(rest)
        if not match:
            raise CompareUsageError(f"%compare: cannot read the option at {rest.split()[0]!r}\n{USAGE}")
        rest = rest[match.end():]
        flag = match.group(1) or match.group(5)
        value = next((g for g in match.group(2, 3, 4) if g is not None), None)
        if flag in ("-n", "-r"):
            if not value.isdigit() or int(value) < 1:
                raise CompareUsageError(f"%compare: {flag} takes a positive integer, not {value!r}")
            setattr(opts, "number" if flag == "-n" else "repeat", int(value))
        elif flag == "-o":
            opts.output = True
        else:
            opts.check = value
    return opts, rest


def split_statements(text):
    """The `;`-separated parts of one line; a `;` inside brackets or strings
    does not split."""
    parts, start, depth = [], 0, 0
    lines_offset = [0]
    for line in io.StringIO(text):
        lines_offset.append(lines_offset[-1] + len(line))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.OP:
                continue
            if tok.string in "([{":
                depth += 1
            elif tok.string in ")]}":
                depth -= 1
            elif tok.string == ";" and depth == 0:
                offset = lines_offset[tok.start[0] - 1] + tok.start[1]
                parts.append(text[start:offset])
                start = offset + 1
    except (tokenize.TokenError, IndentationError) as exc:
        raise CompareUsageError(f"%compare: cannot read {text!r}: {exc}") from None
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


# A label that is not a Python name: quoted, or plain words (`numba parallel:`).
_LABEL = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z_][\w .+-]*?))\s*:\s*(.+)$""", re.S)


def _default_label(source):
    """The called function's name for `f(...)`, else the statement itself."""
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError:
        return source
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
        return ast.unparse(node.func)
    return source


def parse_entry(text):
    """One `[label:] statement` into an Entry; raises CompareUsageError."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    if tree is not None:
        body = tree.body
        if len(body) == 1 and isinstance(body[0], ast.AnnAssign) and isinstance(body[0].target, ast.Name):
            if body[0].value is None:
                return Entry(body[0].target.id, ast.get_source_segment(text, body[0].annotation))
            # `kiln: found = f(A)` is an annotated assignment to Python, but in a timing it can
            # only mean a label and the assignment it times
            return Entry(body[0].target.id, text.split(":", 1)[1].strip())
        return Entry(_default_label(text), text)
    labelled = _LABEL.match(text)
    if labelled:
        label = next(g for g in labelled.group(1, 2, 3) if g is not None)
        source = labelled.group(4).strip()
        try:
            ast.parse(source)
        except SyntaxError as exc:
            raise CompareUsageError(f"%compare: {label!r}: {source!r} is not Python: {exc.msg}") from None
        return Entry(label, source)
    raise CompareUsageError(
        f"%compare: {text!r} is not a statement; write `label: stmt`")


def parse(line, cell=None):
    """(Options, [Entry]) from the magic line and, for %%compare, the cell."""
    opts, rest = split_options(line)
    if cell is None:
        texts = split_statements(rest)
    else:
        if rest:
            raise CompareUsageError(f"%%compare: statements go in the cell, not after the options\n{USAGE}")
        texts = [ln.strip() for ln in cell.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not texts:
        raise CompareUsageError(f"%compare: nothing to compare\n{USAGE}")
    entries = [parse_entry(t) for t in texts]
    labels = [e.label for e in entries]
    duplicates = sorted({lb for lb in labels if labels.count(lb) > 1})
    if duplicates:
        raise CompareUsageError(f"%compare: labels must differ, {', '.join(duplicates)} repeats; add `label:`")
    return opts, entries
