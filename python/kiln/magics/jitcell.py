"""%%jit: every function defined at the top level of the cell is compiled as
if decorated with kiln.jit(options on the magic line). Decorators written in
the cell keep working: Kiln's decorator is applied last (outermost), and only
to what is still a plain Python function.

The cell's output lists each function with its signatures and compile time;
it is a display that later cells update once a lazy compile happens."""
import ast
import collections
import inspect

from IPython.display import display

from . import dispatchers
from .rich import FONT, Rich, esc, fmt_seconds

# The name the rewritten cell calls its added decorator by; removed after.
_DECORATOR = "__kiln_jit_cell_decorate__"


def options(args):
    """kiln.jit keyword options from the parsed magic line."""
    opts = {}
    for flag in ("parallel", "fastmath", "nogil", "cache", "boundscheck"):
        if getattr(args, flag):
            opts[flag] = True
    return opts


def add_decorator(source, filename):
    """The cell's code object, each top-level def given Kiln's decorator as
    its outermost one. Raises SyntaxError as Python would."""
    tree = ast.parse(source, filename=filename)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            first = node.decorator_list[0] if node.decorator_list else node
            deco = ast.copy_location(ast.Name(id=_DECORATOR, ctx=ast.Load()), first)
            node.decorator_list.insert(0, deco)
    return compile(ast.fix_missing_locations(tree), filename, "exec")


class JitCell:
    """One %%jit cell's functions and the display listing them."""

    def __init__(self, jit, signatures, opts, eager):
        self._jit = jit
        self._signatures = signatures
        self._opts = opts
        self._eager = eager
        self.functions = []  # dispatchers, in definition order
        self.handle = None
        self._shown = None

    def decorate(self, obj):
        if inspect.isfunction(obj):
            jit = self._jit(self._signatures, **self._opts) if self._signatures else self._jit(**self._opts)
            obj = jit(obj)
            if self._eager and len(obj.signatures) < len(self._signatures):
                # kiln.jit(signatures) compiles them at definition already;
                # --eager guarantees it, without compiling any a second time.
                for sig in self._signatures:
                    obj.compile(sig)
        if dispatchers.is_dispatcher(obj):
            self.functions.append(obj)
        return obj

    def state(self):
        return [tuple(f.signatures) for f in self.functions]

    def render(self):
        opts = " ".join(f"{k}=True" for k in self._opts) or "default options"
        text = [f"%%jit ({opts}): {len(self.functions)} function{'s' if len(self.functions) != 1 else ''}"]
        rows = []
        for f in self.functions:
            compiled = dispatchers.compile_seconds(f)
            fname = dispatchers.name(f)
            if not compiled:
                text.append(f"  {fname}: compiles on its first call")
                rows.append((fname, "—", "compiles on its first call", ""))
            for sig, (seconds, phases) in compiled.items():
                sig_text = dispatchers.signature_text(sig)
                # A cache=True hit has one phase, cache_load (kiln/cache.py).
                how = "loaded from the disk cache" if "cache_load" in phases else "compiled"
                text.append(f"  {fname}{sig_text}: {how} in {fmt_seconds(seconds)}")
                hover = ", ".join(f"{p} {fmt_seconds(s)}" for p, s in phases.items())
                rows.append((fname, sig_text, f"{how} in {fmt_seconds(seconds)}", hover))
        cells = "".join(
            f'<tr class="kiln-jit-function"><td style="text-align:left; padding:1px 10px 1px 0"><b>{esc(n)}</b></td>'
            f'<td style="text-align:left; padding:1px 10px 1px 0">{esc(s)}</td>'
            f'<td style="text-align:left" title="{esc(h)}">{esc(c)}</td></tr>'
            for n, s, c, h in rows)
        html = (f'<div class="kiln-jit-cell" style="{FONT}"><div style="color:#555">%%jit '
                f"({esc(opts)})</div><table style=\"border-collapse:collapse\">{cells}</table></div>")
        if self._opts.get("parallel"):
            # Which loops ran in parallel and why the others did not, once
            # each signature is compiled. Imported here: it loads the compiler.
            from kiln import parallel
            for report in parallel.cell_reports(self.functions):
                text += ["", report.text(1)]
                html += parallel.render_html(report)
        return Rich("\n".join(text), html)

    def show(self):
        self._shown = self.state()
        self.handle = display(self.render().bundle(), raw=True, display_id=True)

    def refresh(self):
        """Updates the display when a function gained a signature since."""
        state = self.state()
        if self.handle is not None and state != self._shown:
            self._shown = state
            self.handle.update(self.render().bundle(), raw=True)


def _unquote(text):
    """IPython's magic_arguments keeps the quotes of "float64(float64[:])"."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


# The listings that later cells may still update: the most recent %%jit
# cells. A bound, because each holds its dispatchers (and their machine code)
# alive; a teacher scrolls back a few cells, not a hundred.
_LIVE = collections.deque(maxlen=20)


def refresh_all(delta=None):
    """CellWatch listener: updates every live listing whose functions compiled."""
    for jitcell in _LIVE:
        jitcell.refresh()


def run(shell, jit, args, cell):
    """Executes the cell with Kiln's decorator added and shows what it
    defined; `jit` is kiln.jit. Later compiles update the listing through
    refresh_all."""
    signatures = [_unquote(s) for s in args.signature or []]
    jitcell = JitCell(jit, signatures, options(args), args.eager)
    filename = shell.compile.cache(cell, shell.execution_count)
    code = add_decorator(cell, filename)
    ns = shell.user_ns
    ns[_DECORATOR] = jitcell.decorate
    try:
        exec(code, ns)
    finally:
        ns.pop(_DECORATOR, None)
    jitcell.show()
    _LIVE.append(jitcell)
    return jitcell
