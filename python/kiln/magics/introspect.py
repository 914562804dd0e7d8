"""%kiln_llvm and %kiln_asm: a compiled function's LLVM IR or machine code,
one section per signature, syntax-highlighted by Pygments with inline
styles (no stylesheet, no script), in a scrolling box; the text twin is the
code itself under a header per signature."""
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import GasLexer, LlvmLexer
from pygments.styles.default import DefaultStyle
from pygments.token import Error

from . import dispatchers
from .rich import FONT, Rich, esc

_KINDS = {
    "llvm": ("inspect_llvm", LlvmLexer, "LLVM IR"),
    "asm": ("inspect_asm", GasLexer, "assembly"),
}


class _Style(DefaultStyle):
    """Pygments' default colours, without the red box it draws around what
    its lexer does not know: newer LLVM syntax (range(i32 0, 2)) is not an error."""

    styles = {**DefaultStyle.styles, Error: ""}


def render(dispatcher, kind):
    """A Rich view of `dispatcher`'s code of `kind` ("llvm" or "asm").
    Raises ValueError for what is not a compiled Kiln function."""
    method, lexer, what = _KINDS[kind]
    if not dispatchers.is_dispatcher(dispatcher):
        raise ValueError(f"%kiln_{kind} shows a kiln.jit function; got {type(dispatcher).__name__}")
    name = dispatchers.name(dispatcher)
    if not dispatcher.signatures:
        raise ValueError(f"{name} has not been compiled yet: call it once, then ask for its {what}")
    formatter = HtmlFormatter(noclasses=True, nowrap=True, style=_Style)
    text, html = [], [f'<div class="kiln-{kind}" style="{FONT}">']
    for sig, code in getattr(dispatcher, method)().items():  # {signature: text}, as Numba's
        title = f"{name}{dispatchers.signature_text(sig)}: {what}"
        text += [f"--- {title} ---", code.rstrip(), ""]
        html.append(f'<div style="font-weight:bold; margin-top:6px">{esc(title)}</div>'
                    f'<pre style="max-height:480px; overflow:auto; background:#f8f8f8; padding:6px;'
                    f' margin:2px 0; text-align:left">{highlight(code, lexer(), formatter)}</pre>')
    html.append("</div>")
    return Rich("\n".join(text).rstrip() + "\n", "".join(html))
