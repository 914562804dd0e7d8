"""The text a kiln function is compiled from, kept where linecache would
lose it. Kiln reads a function's source through linecache by its code
object's file name; some names are shared by many texts (IPython's %%time
compiles every cell as '<timed exec>', %%timeit as '<magic-timeit>', exec() and `python3 -c` all code as
'<string>'), and a pickled function may arrive where its file holds another
text or none. Such a function is given a name of its own for the text it
was made from."""
import ast
import hashlib
import linecache
import sys
import types

import _kiln

# The names IPython's %%time and %%timeit give every cell they run
# (IPython/core/magics/execution.py).
SHARED_NAMES = ("<timed exec>", "<timed eval>", "<magic-timeit>")


def _refiled(code, filename):
    consts = tuple(_refiled(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def keep(py_func, lines, origin):
    """py_func reads `lines` from now on, under a name made from origin (its
    file's name) and the text."""
    digest = hashlib.sha1("".join(lines).encode()).hexdigest()[:12]
    name = f"<kiln: {origin}, {digest}>"
    linecache.cache[name] = (sum(len(line) for line in lines), None, list(lines), name)
    py_func.__code__ = _refiled(py_func.__code__, name)


def _command_line_text(py_func):
    """The program of `python3 -c`, where py_func is defined in it (code
    given to exec() as a string is '<string>' too, and its text is kept
    nowhere)."""
    argv = getattr(sys, "orig_argv", [])
    if "-c" not in argv[:-1]:
        return None
    text = argv[argv.index("-c") + 1]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == py_func.__name__:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if first == py_func.__code__.co_firstlineno:
                return text.splitlines(True)
    return None


def _codes_within(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes_within(c)


def _compiled_text(py_func):
    """The text given to exec() or compile() that py_func was made from:
    the newest of those the audit hook kept (_kiln.compiled_texts) whose
    compiled code holds py_func's code object, equal in every part."""
    code = py_func.__code__
    for text in _kiln.compiled_texts(code.co_filename):
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        try:
            # a name without angle brackets, which the hook does not keep again
            again = compile(text, "kiln: source check", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue
        if any(c == code for c in _codes_within(again)):
            return text.splitlines(True)
    return None


def _statement_at(history, start):
    """The lines of history from start that one statement typed at the
    prompt takes: its decorators, its def line and the indented lines below."""
    end = start + 1
    while end < len(history) and (history[end][:1] in (" ", "\t", ")") or history[end - 1].lstrip().startswith("@")):
        end += 1
    return history[start:end]


def _prompt_text(py_func):
    """What was typed at the python3 prompt to define py_func, from
    readline's history (the prompt keeps no text itself): the newest
    statement there that compiles to py_func's code."""
    readline = sys.modules.get("readline")
    if readline is None or not hasattr(sys, "ps1"):
        return None
    code = py_func.__code__
    history = [readline.get_history_item(i) or "" for i in range(1, readline.get_current_history_length() + 1)]
    for start in range(len(history) - 1, -1, -1):
        first = history[start]
        if not (first.startswith("@") or first.startswith("def ") or "lambda" in first):
            continue
        lines = [line + "\n" for line in _statement_at(history, start)]
        try:
            again = compile("".join(lines), "kiln: source check", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue
        if any(c == code for c in _codes_within(again)):
            return lines
    return None


def keep_if_shared(py_func):
    """A function of a %%time or %%timeit cell keeps that cell's text,
    which the next cell timed takes the shared name over from; one of
    `python3 -c` keeps the command line's, one made by exec() or compile()
    of a string the string's."""
    filename = py_func.__code__.co_filename
    if filename in SHARED_NAMES:
        lines = linecache.getlines(filename)
        if lines:
            keep(py_func, lines, filename)
    elif filename == "<stdin>":
        lines = _prompt_text(py_func)
        if lines:
            keep(py_func, lines, "the python3 prompt")
    elif filename.startswith("<") and not linecache.getlines(filename):
        lines = _compiled_text(py_func)
        if lines:
            keep(py_func, lines, f"{filename} given to exec()")
        elif filename == "<string>":
            lines = _command_line_text(py_func)
            if lines:
                keep(py_func, lines, "python3 -c")


def register_shared(source):
    """source is the text IPython's %%time or %%timeit is about to compile
    under its shared names (kiln.ipython calls this as the cell is
    parsed)."""
    lines = source.splitlines(True)
    for name in SHARED_NAMES:
        linecache.cache[name] = (len(source), None, lines, name)
