"""Kiln functions across processes, as Numba's pickle: by reference where the
object can be imported from its module, by value otherwise (made in
__main__, in a notebook cell, or in another function). By value, the Python
function goes with the globals it reads (as cloudpickle sends functions)
and the source of its file or cell, so that a process that has neither
compiles it there: a jit function with its options and declared signatures,
on its first call (or from a shared disk cache with cache=True); a ufunc,
gufunc or cfunc by the decorator that made it, given the same arguments.
An object sent to a process again is the one it already has there, so that
a worker running many tasks of a function compiles it once."""
import collections
import copyreg
import io
import linecache
import sys
import uuid
import weakref

import numpy as np

import _kiln

from . import sources, worker_records


def _importable(obj, func):
    """Whether obj is what func's module calls func.__qualname__."""
    if func.__module__ in ("__main__", "__mp_main__") or "<locals>" in func.__qualname__:
        return False
    found = sys.modules.get(func.__module__)
    for part in func.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is obj


class _Recipe:
    """How a kiln ufunc, gufunc or cfunc was made: decorator(*args,
    **kwargs)(py_func); identity: the one it travels under, once it has."""

    def __init__(self, py_func, decorator, args, kwargs):
        self.py_func, self.decorator, self.args, self.kwargs = py_func, decorator, args, kwargs
        self.identity = None


# numpy.ufunc keeps no attributes and takes no weak reference: the recipes of
# Kiln's, by id, each with its ufunc (kept for the process, as its loops are).
_ufunc_recipes = {}


def remember(made, py_func, decorator, args, kwargs):
    """Notes that decorator(*args, **kwargs)(py_func) made `made`; returns it."""
    recipe = _Recipe(py_func, decorator, args, kwargs)
    if isinstance(made, np.ufunc):
        _ufunc_recipes[id(made)] = (made, recipe)
    else:
        made._kiln_recipe = recipe
        made.__module__ = py_func.__module__   # where pickle looks for it by name
    return made


def _recipe_of(obj):
    if isinstance(obj, np.ufunc):
        kept = _ufunc_recipes.get(id(obj))
        return kept[1] if kept and kept[0] is obj else None
    return obj.__dict__.get("_kiln_recipe") if type(obj).__reduce__ is reduce_made else None


def reduce_dispatcher(d):
    """kiln.Dispatcher.__reduce__."""
    if _importable(d, d.py_func):
        return d.py_func.__qualname__
    return _by_value_pickle(d)


_numpy_reduce_ufunc = copyreg.dispatch_table.get(np.ufunc)


def reduce_made(obj):
    """__reduce__ of a kiln ufunc, gufunc or cfunc, and of every numpy.ufunc
    once kiln is imported (copyreg): NumPy's own for the others."""
    recipe = _recipe_of(obj)
    if recipe is None:
        return _numpy_reduce_ufunc(obj)
    if _importable(obj, recipe.py_func):
        return recipe.py_func.__qualname__
    return _by_value_pickle(obj)


copyreg.pickle(np.ufunc, reduce_made)


def _by_value_pickle(obj):
    import cloudpickle   # loaded only when something is sent by value: it is not a light import

    class Pickler(cloudpickle.CloudPickler):
        # Kiln's objects met on the way (the globals a function reads, itself
        # when it recurses) go in this one pickle, whose memo ends the recursion.
        def reducer_override(self, o):
            if isinstance(o, _kiln.Dispatcher) and not _importable(o, o.py_func):
                return _dispatcher_by_value(o)
            recipe = _recipe_of(o)
            if recipe is not None and not _importable(o, recipe.py_func):
                return _made_by_value(o, recipe)
            return super().reducer_override(o)

    out = io.BytesIO()
    Pickler(out).dump(obj)
    return cloudpickle.loads, (out.getvalue(),)


def _source(f):
    """(its file's name, its lines): None for the lines of a function its
    module has (kiln.njit(f) bound to another name), read from its own file
    where it arrives."""
    filename = f.__code__.co_filename
    return filename, None if _importable(f, f) else linecache.getlines(filename, f.__globals__)


# What this process has unpickled or sent, by the identity each object was
# given where it was made: the same object again for the same identity. A
# pool unpickles the function with every task and drops it after: the latest
# ones are held, so that a worker does not compile them again each time.
_rebuilt = weakref.WeakValueDictionary()
_recent = collections.deque(maxlen=64)
_remade = {}   # ufuncs, gufuncs and cfuncs, kept as their recipes are


def _dispatcher_by_value(d):
    identity = d.__dict__.get("_kiln_identity")
    if identity is None:
        identity = d._kiln_identity = uuid.uuid4().hex
        _rebuilt[identity] = d   # unpickled here, it is itself
    return _rebuild, (identity, d.py_func, *_source(d.py_func), dict(d._kiln_options), d._kiln_locked_sigs,
                      worker_records.folder())


def _made_by_value(obj, recipe):
    if recipe.identity is None:
        recipe.identity = uuid.uuid4().hex
        _remade[recipe.identity] = obj
    return _remake, (recipe.identity, recipe.py_func, *_source(recipe.py_func), recipe.decorator, recipe.args,
                     recipe.kwargs, worker_records.folder())


def _read_as_sent(py_func, filename, lines):
    """Where this process has another text at filename, or none, py_func
    reads the text it was pickled with."""
    if lines is not None and linecache.getlines(filename) != lines:
        sources.keep(py_func, lines, f"{filename} as pickled")


def _rebuild(identity, py_func, filename, lines, options, locked, sender_folder):
    """The jit function again. Nothing is compiled here: a function that
    calls itself is rebuilt while its globals are still being unpickled.
    Its compiles are told to the sender (worker_records)."""
    from .dispatcher import _make
    worker_records.adopt(sender_folder)
    d = _rebuilt.get(identity)
    if d is not None:
        return d
    _read_as_sent(py_func, filename, lines)
    d = _make(py_func, None, options)
    d._kiln_locked_sigs = locked   # each compiled on its first call
    d._kiln_identity = identity    # sent on from here, still itself
    _rebuilt[identity] = d
    _recent.append(d)
    return d


def _remake(identity, py_func, filename, lines, decorator, args, kwargs, sender_folder):
    """The ufunc, gufunc or cfunc again, made as it was (compiled now where
    it declares signatures, and told to the sender)."""
    worker_records.adopt(sender_folder)
    made = _remade.get(identity)
    if made is None:
        _read_as_sent(py_func, filename, lines)
        made = _remade[identity] = decorator(*args, **kwargs)(py_func)
        _recipe_of(made).identity = identity
        worker_records.tell()
    return made
