"""What the notebook views read from a Kiln dispatcher (kiln.jit's result):
its signatures and how long each took to compile. One place, so that the
views do not each learn the shape of Dispatcher.stats."""


def is_dispatcher(obj):
    """A compiled Kiln function (Numba's shape: it wraps .py_func)."""
    return callable(obj) and hasattr(obj, "py_func") and hasattr(obj, "signatures")


def name(dispatcher):
    return getattr(dispatcher.py_func, "__qualname__", dispatcher.py_func.__name__)


def signature_text(sig):
    """(float64, array(float64, 1d, C)): a signature tuple as users write it."""
    if isinstance(sig, tuple):
        return "(" + ", ".join(map(str, sig)) + ")"
    text = str(sig)
    return text if text.startswith("(") else f"({text})"


def compile_seconds(dispatcher):
    """{signature: (total seconds, {phase: seconds})} for every compiled
    signature. Dispatcher.stats maps a signature to its phases' seconds."""
    out = {}
    stats = getattr(dispatcher, "stats", None) or {}
    for sig in dispatcher.signatures:
        phases = dict(stats.get(sig, {})) if hasattr(stats, "get") else {}
        out[sig] = (sum(v for v in phases.values() if isinstance(v, (int, float))), phases)
    return out
