"""Kiln functions across processes, as Numba's pickle: by reference where the
function can be imported from its module as the same object, by value
otherwise (a function of __main__, of a notebook cell, or made in another
function). By value, the Python function goes with the globals it reads (as
cloudpickle sends functions), its options, its declared signatures and the
source of its file or cell, so that a process that has neither compiles it
on its first call (or loads it from a shared disk cache with cache=True).
A function sent to a process again is the one it already has there, so
that a worker running many tasks of it compiles it once."""
import collections
import hashlib
import io
import linecache
import sys
import types
import uuid
import weakref

import _kiln


def _importable(obj, func):
    """Whether obj is what func's module calls func.__qualname__."""
    if func.__module__ in ("__main__", "__mp_main__") or "<locals>" in func.__qualname__:
        return False
    found = sys.modules.get(func.__module__)
    for part in func.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is obj


def reduce_dispatcher(d):
    """kiln.Dispatcher.__reduce__."""
    if _importable(d, d.py_func):
        return d.py_func.__qualname__
    import cloudpickle   # loaded only when a function is sent by value: it is not a light import
    return cloudpickle.loads, (_dumps_by_value(d, cloudpickle),)


def _dumps_by_value(d, cloudpickle):
    class Pickler(cloudpickle.CloudPickler):
        # Kiln functions met on the way (the globals a function reads, itself
        # when it recurses) go in this one pickle, whose memo ends the recursion.
        def reducer_override(self, obj):
            if isinstance(obj, _kiln.Dispatcher) and not _importable(obj, obj.py_func):
                return _by_value(obj)
            return super().reducer_override(obj)

    out = io.BytesIO()
    Pickler(out).dump(d)
    return out.getvalue()


# What this process has unpickled, by the identity each function was given
# where it was made: the same object again for the same identity. A pool
# unpickles the function with every task and drops it after: the latest
# ones are held, so that a worker does not compile them again each time.
_rebuilt = weakref.WeakValueDictionary()
_recent = collections.deque(maxlen=64)


def _by_value(d):
    f = d.py_func
    filename = f.__code__.co_filename
    # a function its module has (kiln.njit(f) bound to another name) is sent
    # by reference and read from its own file there
    lines = None if _importable(f, f) else linecache.getlines(filename, f.__globals__)
    identity = d.__dict__.get("_kiln_identity")
    if identity is None:
        identity = d._kiln_identity = uuid.uuid4().hex
        _rebuilt[identity] = d   # unpickled here, it is itself
    return _rebuild, (identity, f, filename, lines, d._kiln_options, d._kiln_locked_sigs)


def _refiled(code, filename):
    consts = tuple(_refiled(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _rebuild(identity, py_func, filename, lines, options, locked):
    """The Kiln function again. Nothing is compiled here: a function that
    calls itself is rebuilt while its globals are still being unpickled."""
    from .dispatcher import _make
    d = _rebuilt.get(identity)
    if d is not None:
        return d
    if lines is not None and linecache.getlines(filename) != lines:
        # this process has another text there, or none: the function reads
        # the text it was pickled with, under a name of its own
        digest = hashlib.sha1("".join(lines).encode()).hexdigest()[:12]
        name = f"<kiln: {filename} as pickled, {digest}>"
        linecache.cache[name] = (sum(len(line) for line in lines), None, list(lines), name)
        py_func.__code__ = _refiled(py_func.__code__, name)
    d = _make(py_func, None, options)
    d._kiln_locked_sigs = locked   # each compiled on its first call
    d._kiln_identity = identity    # sent on from here, still itself
    _rebuilt[identity] = d
    _recent.append(d)
    return d
