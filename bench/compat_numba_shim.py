"""Numba's entry points replaced by Kiln's, for running Numba's tests under
Kiln (compat_numba_tests.py). install() must run before a test module is
imported, so that its `from numba import njit` takes Kiln's.

What a test asks of Numba's machinery that Kiln does not have raises
OutOfScope (object mode, numba.core's compiler), and a dispatcher attribute
named in NUMBA_INTERNALS that Kiln lacks counts the same way (child: why)."""
import sys

import numba
import numba.core.compiler
import numba.core.decorators
import numba.core.errors
import numba.np.ufunc
import numba.tests.support
from numba.core import types as nt

import kiln

# a dispatcher's or compile result's parts that are Numba's compiler itself
NUMBA_INTERNALS = {"overloads", "get_overload", "get_metadata", "targetctx", "typingctx", "_cache",
                   "_compiler", "get_call_template", "recompile", "disable_compile", "library", "fndesc",
                   "type_annotation", "get_annotation_info", "inspect_cfg", "inspect_disasm_cfg",
                   "_compile_for_args", "typeof_pyval", "get_function_type", "lifted", "objectmode",
                   "typing_context", "target_context", "environment", "_type", "locals", "targetoptions",
                   "_can_compile", "metadata", "call_helper", "reflected_args", "func_ir", "_clear"}


class OutOfScope(Exception):
    """The test asked for a part of Numba that Kiln does not set out to have."""


def _kiln_type(t):
    """Kiln's type for Numba type t, or None where there is none to name."""
    if isinstance(t, (nt.Integer, nt.Float, nt.Complex)):
        return getattr(kiln.types, str(t), None)
    if isinstance(t, nt.Boolean):
        return kiln.boolean
    if isinstance(t, nt.Array):
        elem = _kiln_type(t.dtype)
        if elem is None or t.ndim == 0:
            return None
        axes = [slice(None)] * t.ndim
        if t.layout == "C":
            axes[-1] = slice(None, None, 1)
        elif t.layout == "F":
            axes[0] = slice(None, None, 1)
        return elem[tuple(axes)]
    if isinstance(t, nt.UniTuple):
        e = _kiln_type(t.dtype)
        return None if e is None else kiln.UniTuple(e, t.count)
    if isinstance(t, nt.BaseTuple):
        parts = [_kiln_type(p) for p in t]
        return None if None in parts else kiln.Tuple(parts)
    return None


def _kiln_signature(sig):
    """Kiln's form of one Numba signature (a string, a Signature, or a tuple
    of argument types), or None when some type has no Kiln name: the function
    then compiles for the types it is called with."""
    if isinstance(sig, str):
        try:
            kiln.types.normalize_signature(sig)
            return sig
        except Exception:
            return None
    if isinstance(sig, tuple):
        args = [_kiln_type(a) for a in sig]
        return None if None in args else tuple(args)
    if hasattr(sig, "args"):
        args = [_kiln_type(a) for a in sig.args]
        ret = _kiln_type(sig.return_type) if sig.return_type is not None else None
        if None in args:
            return None
        return ret(*args) if ret is not None else tuple(args)
    return None


_DROPPED = {"debug", "no_rewrites", "nopython", "pipeline_class", "_dbg_optnone", "_dbg_extend_lifetimes",
            "writable_args", "identity", "cache"}


def _out_of_scope(why):
    """Stands for a function Kiln is not asked to compile: raises OutOfScope
    when called, not when made (tests make them in class bodies)."""
    def stand_in(*args, **kwargs):
        raise OutOfScope(why)
    return stand_in


def jit(signature_or_function=None, **kw):
    if kw.get("forceobj") or kw.get("pipeline_class"):
        why = "object mode" if kw.get("forceobj") else "a compiler pipeline of Numba's"
        if callable(signature_or_function) and hasattr(signature_or_function, "__code__"):
            return _out_of_scope(why)
        return lambda f: _out_of_scope(why)
    options = {k: v for k, v in kw.items() if k not in _DROPPED}
    if signature_or_function is None:
        return kiln.jit(**options)
    if callable(signature_or_function) and hasattr(signature_or_function, "__code__"):
        return kiln.jit(signature_or_function, **options)
    sigs = signature_or_function if isinstance(signature_or_function, list) else [signature_or_function]
    converted = [_kiln_signature(s) for s in sigs]
    if None in converted:
        return kiln.jit(**options)
    return kiln.jit(converted, **options)


def njit(*args, **kw):
    return jit(*args, **kw)


def _ufunc_maker(kiln_maker):
    def make(ftylist_or_function=None, *args, **kw):
        kw = {k: v for k, v in kw.items() if k not in ("nopython", "cache", "identity", "writable_args")}
        if callable(ftylist_or_function) and hasattr(ftylist_or_function, "__code__"):
            return kiln_maker(**kw)(ftylist_or_function)
        sigs = ftylist_or_function
        if sigs is not None:
            sigs = [_kiln_signature(s) if not isinstance(s, str) else s
                    for s in (sigs if isinstance(sigs, list) else [sigs])]
            sigs = [s for s in sigs if s is not None] or None
        return kiln_maker(sigs, *args, **kw) if sigs is not None else kiln_maker(*args, **kw)
    return make


class CompileResult:
    """compile_isolated's result: entry_point; the rest is Numba's compiler."""

    def __init__(self, entry_point, signature):
        self.entry_point = entry_point
        self.signature = signature

    def __getattr__(self, name):
        raise OutOfScope(f"compile result's {name}")


def _cached_compile(cache, func, args, return_type=None, flags=None):
    """numba.tests.support.CompilationCache.compile: compile_isolated's
    counterpart that many test modules use."""
    return compile_isolated(func, args, return_type, flags)


def compile_isolated(func, args, return_type=None, flags=None, locals=None):
    if flags is not None and getattr(flags, "force_pyobject", False):
        raise OutOfScope("object mode")
    sig = return_type(*args) if return_type is not None else tuple(args)
    converted = _kiln_signature(sig)
    entry = kiln.njit(converted)(func) if converted is not None else kiln.njit(func)
    return CompileResult(entry, sig)


def _refused(*args, **kw):
    raise OutOfScope("numba.core's compiler called directly")


def _refused_to_tests(method):
    """method of Numba's compiler, refused where a test calls it itself
    (its pipelines and rewrite passes); Numba's own uses (numba.typed's
    methods, compiled by Numba when a test calls them from Python) go on."""
    def guarded(*args, **kw):
        if sys._getframe(1).f_globals.get("__name__", "").startswith("numba.tests"):
            raise OutOfScope("numba.core's compiler called directly")
        return method(*args, **kw)
    return guarded


def _widened(numba_class):
    """numba_class, also matching Kiln's compile-time refusals, so that
    assertRaises(TypingError) holds when Kiln refuses what Numba refuses."""
    kiln_classes = (kiln.TypingError, kiln.UnsupportedError)

    class Either(type(numba_class)):
        def __subclasscheck__(cls, sub):
            return issubclass(sub, numba_class) or issubclass(sub, kiln_classes)

        def __instancecheck__(cls, obj):
            return cls.__subclasscheck__(type(obj))

    return Either(numba_class.__name__, (numba_class,), {"__module__": numba_class.__module__})


def install():
    for module in (numba, numba.core.decorators):
        module.jit, module.njit = jit, njit
    numba.prange = kiln.prange
    numba.vectorize = numba.np.ufunc.vectorize = _ufunc_maker(kiln.vectorize)
    numba.guvectorize = numba.np.ufunc.guvectorize = _ufunc_maker(kiln.guvectorize)
    numba.core.compiler.compile_isolated = numba.tests.support.compile_isolated = compile_isolated
    numba.tests.support.CompilationCache.compile = _cached_compile
    numba.core.compiler.compile_extra = numba.tests.support.compile_extra = _refused
    base = numba.core.compiler.CompilerBase
    base.compile_extra, base.compile_ir = _refused_to_tests(base.compile_extra), _refused_to_tests(base.compile_ir)
    for name in ("TypingError", "NumbaTypeError", "NumbaValueError", "UnsupportedError",
                 "NumbaNotImplementedError"):
        setattr(numba.core.errors, name, _widened(getattr(numba.core.errors, name)))
