"""%%cuda: every function defined at the top level of the cell is compiled
with kiln.cuda.jit. A function that other functions of the cell call is a
device function; the others are kernels, launched as kernel[grid, block](...).
Decorators written in the cell keep working: Kiln's is applied last, only to
what is still a plain Python function.

    %%cuda [--fastmath] [--no-boundscheck]"""
import argparse
import ast
import inspect
import shlex

from IPython.core.error import UsageError
from IPython.display import display

from .jitcell import _DECORATOR, add_decorator
from .rich import FONT, Rich, esc


def _parse(line):
    parser = argparse.ArgumentParser(prog="%%cuda", add_help=False)
    parser.add_argument("--fastmath", action="store_true")
    parser.add_argument("--no-boundscheck", action="store_true")
    try:
        return parser.parse_args(shlex.split(line))
    except SystemExit:
        raise UsageError("usage: %%cuda [--fastmath] [--no-boundscheck]") from None


def device_function_names(tree):
    """Names of the cell's top-level functions that another of them calls."""
    defined = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    called = set()
    for name, node in defined.items():
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in defined \
                    and sub.func.id != name:
                called.add(sub.func.id)
    return called


def run(shell, line, cell):
    """Executes the cell with kiln.cuda.jit added; shows what became a kernel
    and what a device function. Returns {name: kind}."""
    from kiln import cuda

    args = _parse(line)
    options = {"fastmath": args.fastmath, "boundscheck": not args.no_boundscheck}
    filename = shell.compile.cache(cell, shell.execution_count)
    devices = device_function_names(ast.parse(cell, filename=filename))
    made = {}

    def decorate(obj):
        if inspect.isfunction(obj):
            device = obj.__name__ in devices
            obj = cuda.jit(device=device, **options)(obj)
            made[obj.__name__] = "device function" if device else "kernel"
        return obj

    code = add_decorator(cell, filename)
    ns = shell.user_ns
    ns[_DECORATOR] = decorate
    try:
        exec(code, ns)
    finally:
        ns.pop(_DECORATOR, None)
    flags = " ".join(f for f, on in (("--fastmath", args.fastmath), ("--no-boundscheck", args.no_boundscheck)) if on)
    text = [f"%%cuda {flags}".rstrip() + f": {len(made)} function{'s' if len(made) != 1 else ''}"]
    text += [f"  {name}: {kind}, compiles on its first {'launch' if kind == 'kernel' else 'use'}"
             for name, kind in made.items()]
    rows = "".join(f'<tr><td style="text-align:left; padding:1px 10px 1px 0"><b>{esc(n)}</b></td>'
                   f'<td style="text-align:left">{esc(k)}</td></tr>' for n, k in made.items())
    html = (f'<div class="kiln-cuda-cell" style="{FONT}"><div style="color:#555">{esc(text[0])}</div>'
            f'<table style="border-collapse:collapse">{rows}</table></div>')
    display(Rich("\n".join(text), html).bundle(), raw=True)
    return made
