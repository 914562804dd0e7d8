"""Numba's extending API for implementations written in Python:
register_jitable and overload.

    @register_jitable
    def clip01(x):                       # called from Python: plain Python
        return min(max(x, 0.0), 1.0)     # called from compiled code: compiled

    @overload(scipy.special.expit)       # compiled code calling expit gets
    def expit_impl(x):                   # the implementation the factory
        if isinstance(x, types.Float):   # returns for the argument types
            return lambda x: 1.0 / (1.0 + math.exp(-x))

The registered object stays what it was for Python; compiled code calls a
kiln dispatcher in its place (_kiln.compiled_as, read where the front end
resolves a global or a module's attribute: jit/frontend/globals.c)."""
import functools

import _kiln

from . import types
from .dispatcher import _options, njit

__all__ = ["register_jitable", "overload"]


def register_jitable(*args, **options):
    """@register_jitable or @register_jitable(**jit options): the function,
    unchanged, which compiled code calls as kiln.njit(function, **options)."""
    def register(function):
        _kiln.compiled_as[function] = njit(function, **options)
        return function
    if len(args) == 1 and callable(args[0]) and not options:
        return register(args[0])
    if args:
        raise TypeError("register_jitable takes the function, or jit options by keyword")
    return register


def _implementation(name, factory, specs):
    """The implementation for argument types (specs): what the factory
    returns given Kiln's types, which look as Numba's do to it
    (isinstance(x, types.Float), x.ndim, x.dtype)."""
    given = [types.from_spec(s) for s in specs]
    impl = factory(*given)
    if impl is None:
        raise _kiln.TypingError(f"{name}: the overload {factory.__qualname__} has no implementation for "
                                f"({', '.join(map(str, given))})")
    if not callable(impl) or not hasattr(impl, "__code__"):
        raise _kiln.TypingError(f"{name}: the overload {factory.__qualname__} returned {type(impl).__name__}, "
                                f"not a function")
    return impl


def overload(target, jit_options=None, **unused):
    """@overload(target): the decorated factory takes the types of a call's
    arguments and returns a Python function that implements target for them
    (or None: no implementation for those types). Compiled code calling
    target compiles that function; Python calling target is unchanged.
    Numba's other keywords (strict, inline, prefer_literal) change nothing."""
    def register(factory):
        # a dispatcher of the factory, whose function to compile depends on the types
        # (jit/infer/instances.c asks _kiln_impl_for)
        d = _kiln.Dispatcher(factory)
        d._kiln_options = _options(dict(jit_options or {}))
        name = getattr(target, "__name__", factory.__name__)
        d._kiln_impl_for = functools.partial(_implementation, name, factory)
        _kiln.compiled_as[target] = d
        return factory
    return register
