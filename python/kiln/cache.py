"""cache=True: compiled machine code kept on disk, so a second process links
it instead of compiling (the object files come from jit/engine/cache.c).

The key of an entry covers everything the machine code depends on: the
function's source, the sources of the kiln functions it calls (transitively:
Numba's cache misses those, numba issue 1833), the values of the globals and
closure variables it reads, the signature and options, the CPU with its
features, and the Kiln build and LLVM version. Each function and signature
has one file (its slot); a file holding another key is stale and is
replaced. A file is written to a temporary name and renamed into place, so
concurrent writers leave one complete file, and ends with a SHA-256 of the
rest, so a truncated or corrupted file is detected, recompiled and
replaced; it is never linked.

Files live in $KILN_CACHE_DIR, or $XDG_CACHE_HOME/kiln (~/.cache/kiln)."""
import hashlib
import inspect
import json
import os
import struct
import tempfile
import threading
import warnings

import numpy as np

import _kiln

from .generators import GeneratorFunction

MAGIC = b"KILNCACHE1\n"
_DIGEST = 32

_loaded = {}          # key -> Specialization: an entry is linked once per process
_identity = None      # the Kiln build, LLVM and host part of every key
_relinks = 0          # bumps the symbol prefix after a file failed to link
# One compile or load at a time: two threads linking the same entry would
# define its symbols twice (file reads release the GIL between the checks).
_lock = threading.RLock()


class CacheWarning(UserWarning):
    """cache=True could not keep this function on disk; it was compiled as usual."""


class _Uncacheable(Exception):
    pass


def cache_dir():
    """Where cache=True keeps compiled code."""
    env = os.environ.get("KILN_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kiln")


def _build_identity():
    global _identity
    if _identity is None:
        from . import __version__
        st = os.stat(_kiln.__file__)
        _identity = f"kiln {__version__} {st.st_size} {st.st_mtime_ns} | {_kiln.cache_target()}"
    return _identity


# ---- the key ----

def _names(code):
    """Global names a code object (and the code nested in it) reads."""
    out = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            out |= _names(const)
    return out


def _describe(value, seen):
    """What of a global the compiled code depends on, as text."""
    if isinstance(value, (_kiln.Dispatcher, GeneratorFunction)):   # a generator's body is inlined where it runs
        opts = sorted(getattr(value, "_kiln_options", {}).items())
        return f"kiln function {opts} {_function_part(value.py_func, seen)}"
    if inspect.ismodule(value):
        return f"module {value.__name__} {getattr(value, '__version__', '')}"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return f"{type(value).__name__} {value!r}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(v, seen) for v in value) + ")"
    if isinstance(value, np.generic):
        return f"{value.dtype} {value!r}"
    if isinstance(value, np.ndarray):
        return f"array {value.dtype} {value.shape} {hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()}"
    if isinstance(value, type) or callable(value):
        return f"{type(value).__name__} {getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
    return f"object {type(value).__module__}.{type(value).__qualname__}"


def _function_part(func, seen):
    if func in seen:
        return f"recursive {func.__qualname__}"
    seen.add(func)
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError) as e:
        raise _Uncacheable(f"its source cannot be read ({e})") from None
    parts = [source]
    for name in sorted(_names(func.__code__)):
        if name in func.__globals__:
            parts.append(f"{name}={_describe(func.__globals__[name], seen)}")
    for cell_name, cell in zip(func.__code__.co_freevars, func.__closure__ or ()):
        try:
            parts.append(f"{cell_name}={_describe(cell.cell_contents, seen)}")
        except ValueError:   # an empty cell
            parts.append(f"{cell_name}=<empty>")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _portable(spec, name_function):
    """spec with each kiln function in it (("function", dispatcher), a
    function passed as an argument) replaced by name_function(dispatcher):
    a dispatcher's address means nothing to another process."""
    if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "function" and isinstance(spec[1], _kiln.Dispatcher):
        return ("function", name_function(spec[1]))
    if isinstance(spec, tuple):
        return tuple(_portable(s, name_function) for s in spec)
    return spec


def _function_name(dispatcher):
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def entry_key(dispatcher, argspecs, retspec):
    """(slot file name, full key) of one function and signature. A kiln
    function passed as an argument keys the entry as a callee does: by its
    source and the globals it reads."""
    func = dispatcher.py_func
    code = func.__code__
    sig = repr((_portable(tuple(argspecs), _function_name), retspec))
    described = repr(_portable(tuple(argspecs), lambda d: _describe(d, set())))
    # a ufunc kernel's entry is its loop (jit/dispatch/ufunc_loop.c): never the plain function's entry
    opts = repr((sorted(dispatcher._kiln_options.items()), getattr(dispatcher, "_kiln_ufunc", None)))
    # a file's functions keep their slot across edits; a cell's by module and name
    where = os.path.abspath(code.co_filename) if os.path.isfile(code.co_filename) else "<cell>"
    slot = hashlib.sha256(f"{where}\n{func.__module__}.{func.__qualname__}\n{sig}\n{opts}".encode()).hexdigest()
    full = hashlib.sha256(f"{_build_identity()}\n{described}\n{opts}\n{_function_part(func, set())}".encode()).hexdigest()
    return f"{func.__name__[:40]}-{slot[:24]}.kc", full


# ---- files ----

def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def _trusted(st):
    """Whether an entry may be linked into this process: machine code is run
    as it is, so only a file this user wrote (owned by them, writable by no
    one else) is; another user's entry in a shared KILN_CACHE_DIR is not."""
    return st.st_uid == os.geteuid() and not st.st_mode & 0o022


def _read(path, key):
    """The header and object bytes of a valid file for this key, or None
    (no file, another key, truncated, corrupted, not this user's)."""
    try:
        with open(path, "rb") as fh:
            # checked on the open file: a file swapped in after the check is never read
            if not _trusted(os.fstat(fh.fileno())):
                return None
            data = fh.read()
    except OSError:
        return None
    if len(data) < len(MAGIC) + 16 + _DIGEST or not data.startswith(MAGIC):
        return None
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if hashlib.sha256(body).digest() != digest:
        return None
    try:
        at = len(MAGIC)
        (hlen,) = struct.unpack_from("<Q", body, at)
        header = json.loads(body[at + 8:at + 8 + hlen].decode())
        at += 8 + hlen
        (olen,) = struct.unpack_from("<Q", body, at)
        obj = body[at + 8:at + 8 + olen]
        if len(obj) != olen or at + 8 + olen != len(body) or header.get("key") != key:
            return None
    except (ValueError, struct.error, UnicodeDecodeError):
        return None
    return header, obj


def _write(path, key, spec, nogil):
    obj, entry, symbols = spec.object
    header = json.dumps({
        "key": key, "entry": entry, "symbols": list(symbols), "argspecs": _portable(spec.argtypes, _function_name),
        "retspec": spec.restype,
        "nogil": nogil, "ir": spec.llvm, "remarks": list(spec.remarks),
        "annotations": list(spec.annotations), "parallel": list(spec.parallel), "signature": spec.signature,
    }).encode()
    body = MAGIC + struct.pack("<Q", len(header)) + header + struct.pack("<Q", len(obj)) + obj
    directory = os.path.dirname(path)
    os.makedirs(directory, mode=0o700, exist_ok=True)   # a user's cache is theirs alone
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".kc")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body + hashlib.sha256(body).digest())
        os.replace(tmp, path)   # atomic: readers see the old file or this one, never a part
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _link(header, obj, argspecs):
    """The Specialization in obj, for the call's argspecs (the header's name
    the functions passed, the call's are those functions)."""
    loops = [dict(lp, reductions=[tuple(r) for r in lp["reductions"]]) for lp in header["parallel"]]
    return _kiln.load_object(obj, header["entry"], list(header["symbols"]), tuple(argspecs),
                             _tuples(header["retspec"]), bool(header["nogil"]), header["ir"], header["remarks"],
                             [tuple(a) for a in header["annotations"]], loops, header["signature"])


def compile(dispatcher, argspecs, retspec):
    """The Specialization for this signature: linked from the cache when a
    valid entry is there, else compiled and stored."""
    name = dispatcher.py_func.__qualname__
    try:
        slot, key = entry_key(dispatcher, argspecs, retspec)
    except _Uncacheable as e:
        warnings.warn(f"kiln: cannot cache {name}: {e}; compiled without the cache", CacheWarning, stacklevel=4)
        return _kiln.compile(dispatcher, tuple(argspecs), retspec)
    with _lock:
        spec = _loaded.get(key)
        if spec is None:
            spec, compiled = _load_or_compile(dispatcher, argspecs, retspec, slot, key)
            _loaded[key] = spec
        else:
            compiled = False
    if not compiled:
        _warn_again(spec)
    return spec


def _warn_again(spec):
    """The ParallelSafetyWarnings compiling would have given (jit/parallel/parallel_lower.c
    keeps each one's text in its loop record), so a cache hit says the same."""
    for lp in spec.parallel:
        if lp.get("warning"):
            warnings.warn_explicit(lp["warning"], _kiln.ParallelSafetyWarning, lp["filename"], lp["line"])


def _load_or_compile(dispatcher, argspecs, retspec, slot, key):
    """(Specialization, whether it was compiled now rather than linked)."""
    global _relinks
    name = dispatcher.py_func.__qualname__
    path = os.path.join(cache_dir(), slot)
    found = _read(path, key)
    spec = None
    if found is not None:
        try:
            spec = _link(*found, argspecs)
        except Exception:   # noqa: BLE001 - a file that does not link is replaced below
            _relinks += 1
    if spec is not None:
        # the cell footer shows a load where it would show a compile
        _kiln.profiler_record_cache_load(name, spec.signature, "cpu", spec.stats["cache_load"])
        return spec, False
    dispatcher._kiln_cache_prefix = f"kc_{key[:24]}" + (f"_{_relinks}" if _relinks else "")
    try:
        spec = _kiln.compile(dispatcher, tuple(argspecs), retspec)
    finally:
        dispatcher._kiln_cache_prefix = None
    if spec.object is None:
        warnings.warn(f"kiln: cannot cache {name}: its machine code refers to a Python object; "
                      f"compiled without the cache", CacheWarning, stacklevel=5)
    elif _portable(spec.restype, _function_name) != spec.restype:
        warnings.warn(f"kiln: cannot cache {name}: it returns a kiln function; compiled without the cache",
                      CacheWarning, stacklevel=5)
    else:
        try:
            _write(path, key, spec, bool(dispatcher._kiln_options.get("nogil")))
        except OSError as e:
            warnings.warn(f"kiln: cannot write the cache for {name} in {cache_dir()}: {e}", CacheWarning,
                          stacklevel=5)
    return spec, True
