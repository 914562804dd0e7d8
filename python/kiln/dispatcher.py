"""kiln.jit and the Python side of the dispatcher.

The dispatcher is the C type _kiln.Dispatcher: a call types its arguments
and runs the machine code compiled for them. Only a miss comes here
(_specialize), to pick a declared signature or compile a new one. The
methods below are installed into the C type, so a call never goes through a
Python subclass. Its options, declared signatures and specializations are
kept in C too, and read and set here as _kiln_options (a dict; read, a view),
_kiln_locked_sigs and _kiln_compiled."""
import functools
import inspect
import os
import sys
import threading

import numpy as np

import _kiln

from . import config, long_work, pickling, sources, unused_work, worker_records
from . import types as kt

# LLVM's fast-math flags (llvm-c/Core.h LLVMFastMath*), by Numba's names.
_FASTMATH = {"reassoc": 1, "nnan": 2, "ninf": 4, "nsz": 8, "arcp": 16, "contract": 32, "afn": 64}
_FASTMATH_ALL = 127

_ACCEPTED = {"nopython", "nogil", "fastmath", "boundscheck", "parallel", "cache", "forceobj",
             "looplift", "error_model", "inline", "locals", "target", "_nrt", "no_cpython_wrapper",
             "_no_interrupt_poll"}


def _options(kwargs):
    unknown = set(kwargs) - _ACCEPTED
    if unknown:
        raise TypeError(f"kiln.jit: unknown option(s) {', '.join(sorted(unknown))}")
    if kwargs.get("forceobj"):
        raise NotImplementedError("kiln.jit: Kiln has no object mode; every function is compiled nopython")
    target = kwargs.get("target", "cpu")
    if target not in ("cpu", None):
        raise ValueError(f"kiln.jit: target must be 'cpu' or 'cuda', not {target!r}")
    fastmath = kwargs.get("fastmath", False)
    if fastmath is True:
        flags = _FASTMATH_ALL
    elif not fastmath:
        flags = 0
    else:
        names = set(fastmath)
        bad = names - set(_FASTMATH) - {"fast"}
        if bad:
            raise ValueError(f"kiln.jit: unknown fastmath flag(s) {sorted(bad)}; known: {sorted(_FASTMATH)}, "
                             f"and 'fast' for all of them")
        # 'fast' is LLVM's (and Numba's) name for every flag at once
        flags = _FASTMATH_ALL if "fast" in names else sum(_FASTMATH[n] for n in names)
    error_model = kwargs.get("error_model", "python")
    if error_model not in ("python", "numpy"):
        raise ValueError(f"kiln.jit: error_model must be 'python' or 'numpy', not {error_model!r}")
    boundscheck = config.BOUNDSCHECK if config.BOUNDSCHECK is not None else kwargs.get("boundscheck")
    return {"nogil": bool(kwargs.get("nogil", False)), "boundscheck": bool(boundscheck or False),
            # Numba's error_model='numpy': a float division by zero gives inf or nan instead of raising
            "numpy_errors": error_model == "numpy",
            "fastmath_flags": flags,
            # prange loops on the thread pool (jit/parallel/parallel.h); Numba's option dicts count as True
            "parallel": bool(kwargs.get("parallel", False)),
            "cache": bool(kwargs.get("cache", False)),   # compiled code on disk (kiln/cache.py)
            # bench/jit_vs_numba.py only: what polling for Ctrl-C costs
            "no_interrupt_poll": bool(kwargs.get("_no_interrupt_poll", False))}


def _signature_key(argspecs):
    return tuple(kt.from_spec(s) for s in argspecs)


def _arg_names(py_func):
    code = py_func.__code__
    return code.co_varnames[:code.co_argcount]


def _vararg_name(py_func):
    """The name of py_func's *args parameter, or None."""
    code = py_func.__code__
    return code.co_varnames[code.co_argcount] if code.co_flags & inspect.CO_VARARGS else None


# kiln.jit functions compile one at a time, as under Numba's compiler lock: threads making the
# first call of a function together (Dask's threaded scheduler) compile it once, the others
# waiting for it and then using it. Reentrant, whatever a compile calls back; made anew in a
# forked child, where the thread that held it does not exist.
def _new_compile_lock():
    global _compiling
    _compiling = threading.RLock()


_new_compile_lock()
os.register_at_fork(after_in_child=_new_compile_lock)


def _compiling_text(name):
    """What a compile of name does, for a notebook's line while it runs (kiln.long_work)."""
    doing = _kiln.compile_doing()
    return f"compiling {name}: {doing}" if doing else f"compiling {name}"


def _compile(self, argspecs, retspec):
    # one frame, as cache.py's warnings count frames up to the caller
    with _compiling, long_work.watching(functools.partial(_compiling_text, self.py_func.__qualname__)):
        done = next((s for s in self._kiln_compiled
                     if s.argtypes == tuple(argspecs) and (retspec is None or s.restype == retspec)), None)
        if done is not None:
            return done
        if self._kiln_options.get("cache"):
            from . import cache
            spec = cache.compile(self, tuple(argspecs), retspec)
        else:
            spec = _kiln.compile(self, tuple(argspecs), retspec)
        self._kiln_keep(spec)
    worker_records.tell()   # in a worker, the sender's footer shows this compile
    unused_work.tell(self.py_func, spec.remarks)
    return spec


def _unsupported_params(py_func):
    """**kwargs or keyword-only parameters, which Kiln does not compile."""
    code = py_func.__code__
    return code.co_kwonlyargcount > 0 or code.co_flags & inspect.CO_VARKEYWORDS


def _specialize(self, args, arg_specs=None):
    """The specialization for these arguments, compiling one if needed.
    arg_specs: their types, where the C dispatcher typed every one."""
    specs = []
    names = _arg_names(self.py_func)
    if _unsupported_params(self.py_func):
        try:   # the front end's error, with the def line and a caret
            return _compile(self, [], None)
        except _kiln.TypingError as exc:
            raise exc.with_traceback(None) from None
    vararg = _vararg_name(self.py_func)
    if vararg is not None:
        # *args: each argument is typed (and passed) on its own; the entry
        # packs them into the tuple (jit/lower/lower.c). The C dispatcher sends a
        # call with fewer to _call_bound, which fills the defaults.
        names = names + tuple(f"{vararg}[{i}]" for i in range(len(args) - len(names)))
    elif len(args) != len(names):
        raise TypeError(f"{self.py_func.__qualname__}() takes {len(names)} positional argument(s) "
                        f"but {len(args)} were given")
    for i, (name, value) in enumerate(zip(names, args)):
        spec = arg_specs[i] if arg_specs is not None else _kiln.typeof_spec(value)
        if spec is None:
            what, hint = _unpassable(value, name)
            raise TypeError(f"{self.py_func.__qualname__}(): argument '{name}' is {what}, "
                            f"which Kiln cannot pass to compiled code (numbers, NumPy arrays and scalars "
                            f"of bool, int, uint, float and complex dtypes, tuples, lists of numbers or of tuples of "
                            f"numbers, strings, None and kiln functions can be passed)"
                            + (f"; {hint}" if hint else ""))
        specs.append(spec)
    locked = self._kiln_locked_sigs
    ret = None
    if locked:
        declared = [(a, r) for a, r in locked if all(_kiln.can_convert(x, y) for x, y in zip(specs, a))]
        if not declared:
            got = ", ".join(_kiln.type_name(s) for s in specs)
            have = "; ".join("(" + ", ".join(_kiln.type_name(s) for s in a) + ")" for a, _ in locked)
            raise TypeError(f"{self.py_func.__qualname__}: no matching definition for argument type(s) "
                            f"({got}); compiled for {have}")
        # compiled when declared (_compile finds it), or on this first call where a pickle brought
        # the declaration (pickling.py)
        specs, ret = list(declared[0][0]), declared[0][1]
    try:
        return _compile(self, specs, ret)
    except _kiln.TypingError as exc:
        # the message says everything: no frames of Kiln's own in the traceback
        raise exc.with_traceback(None) from None


def _binder(py_func):
    """A Python function with py_func's parameters and defaults that returns
    its arguments in order: Python itself binds a call (and words its
    errors, naming py_func) exactly as it would for py_func."""
    code = py_func.__code__
    names = code.co_varnames[:code.co_argcount]
    vararg = _vararg_name(py_func)
    params, rest = (names + ("*" + vararg,), " + " + vararg) if vararg else (names, "")
    scope = {}
    exec(f"def binder({', '.join(params)}):\n    return ({''.join(n + ', ' for n in names)}){rest}", scope)
    binder = scope["binder"]
    binder.__name__, binder.__qualname__ = py_func.__name__, py_func.__qualname__
    binder.__defaults__ = py_func.__defaults__
    return binder


def _call_bound(self, *args, **kwargs):
    """A call with keywords or left-out defaults (the C dispatcher sends only
    those here): binds them as Python would, then calls with every parameter
    by position."""
    if _unsupported_params(self.py_func):
        return _specialize(self, args)   # compiling says why
    binder = self.__dict__.get("_kiln_binder")
    if binder is None:
        binder = self._kiln_binder = _binder(self.py_func)
    return self(*binder(*args, **kwargs))


def compile(self, sig):
    """Compiles one signature ahead of the first call (Numba's .compile)."""
    args, ret = kt.normalize_signature(sig)
    return _compile(self, [t.spec for t in args], ret.spec if ret is not None else None)


def _pick(self, signature):
    if signature is None:
        return dict(self._kiln_specs)
    if not isinstance(signature, tuple):
        signature = tuple(signature)
    return {signature: self._kiln_specs[signature]}


def inspect_llvm(self, signature=None):
    """{signature: optimized LLVM IR}, or the text for one signature."""
    got = {sig: s.llvm for sig, s in _pick(self, signature).items()}
    return got if signature is None else got[tuple(signature)]


def inspect_asm(self, signature=None):
    """{signature: host assembly}, or the text for one signature."""
    got = {sig: s.asm for sig, s in _pick(self, signature).items()}
    return got if signature is None else got[tuple(signature)]


def inspect_remarks(self, signature=None):
    """LLVM's loop-vectorize remarks for one signature (the latest if None):
    a list of {line, kind: 'vectorized' | 'missed' | 'analysis' | 'ordered' | 'unused', message}
    ('ordered': a float sum, without fastmath, whose vectorized loop adds in
    source order; 'unused': a loop of a function returning None that the
    optimizer removed, nothing it computes being used; both Kiln's remarks,
    read from the optimized code)."""
    if not self._kiln_specs:
        return []
    sig = tuple(signature) if signature is not None else list(self._kiln_specs)[-1]
    return [dict(r) for r in self._kiln_specs[sig].remarks]


def inspect_types(self, signature=None, pretty=True, file=None):
    """The source with every variable's inferred type per line. pretty=False
    returns {signature: [(line, source, {var: type}), ...]} instead."""
    data = {sig: list(s.annotations) for sig, s in _pick(self, signature).items()}
    if not pretty:
        return data
    out = file or sys.stdout
    for sig, lines in data.items():
        print(f"{self.py_func.__qualname__} {sig}", file=out)
        print("-" * 60, file=out)
        for line, src, types in lines:
            print(f"{line:5d}  {src}", file=out)
            if types:
                shown = ", ".join(f"{k}: {v}" for k, v in sorted(types.items()))
                print(f"       # {shown}", file=out)
        print("=" * 60, file=out)
    return None


@property
def _kiln_specs(self):
    """{signature: Specialization} of those compiled, oldest first (the
    dispatcher keeps them, in C)."""
    return {_signature_key(s.argtypes): s for s in self._kiln_compiled}


@property
def signatures(self):
    """The argument types of every compiled specialization."""
    return list(self._kiln_specs)


@property
def stats(self):
    """{signature: {phase: seconds}} for parse, typing, lowering, optimize, codegen."""
    return {sig: dict(s.stats) for sig, s in self._kiln_specs.items()}


@property
def nopython_signatures(self):
    return [kt.Signature(kt.from_spec(s.restype), sig) for sig, s in self._kiln_specs.items()]


def _repr(self):
    return f"<kiln.jit {self.py_func.__qualname__}>"


_kiln.install_dispatcher_methods({
    "_specialize": _specialize, "_call_bound": _call_bound, "compile": compile, "inspect_llvm": inspect_llvm,
    "inspect_asm": inspect_asm, "inspect_remarks": inspect_remarks, "inspect_types": inspect_types,
    "_kiln_specs": _kiln_specs, "signatures": signatures, "stats": stats, "nopython_signatures": nopython_signatures,
    "__repr__": _repr, "__reduce__": pickling.reduce_dispatcher,
})


def _make(py_func, sigs, options):
    if not callable(py_func) or not hasattr(py_func, "__code__"):
        raise TypeError(f"kiln.jit decorates a Python function, got {type(py_func).__name__}")
    if config.DISABLE_JIT:   # KILN_DISABLE_JIT=1: the function runs as Python
        return py_func
    if inspect.isgeneratorfunction(py_func):
        from .generators import GeneratorFunction
        return GeneratorFunction(py_func, options, sigs)
    sources.keep_if_shared(py_func)
    d = _kiln.Dispatcher(py_func)
    functools.update_wrapper(d, py_func)
    d._kiln_options = options
    if sigs:
        locked = []
        for sig in sigs:
            spec = compile(d, sig)
            locked.append((tuple(spec.argtypes), spec.restype))
        d._kiln_locked_sigs = locked
    return d


def jit(signature_or_function=None, **kwargs):
    """Compile a function for the host CPU on its first call with new argument
    types (or now, for each signature given). Forms: @jit, @jit(...options),
    jit(f), @jit(float64(int32, int32)), @jit([sig, ...]), @jit('float64(int32, int32)'),
    jit((f8[:, :], f8[:, :]))(f). target='cuda' runs the function's loops as
    GPU kernels (kiln/cuda/offload.py)."""
    if kwargs.get("target") == "cuda":
        return _offloaded(signature_or_function, kwargs)
    options = _options(kwargs)
    if signature_or_function is None:
        return lambda f: _make(f, None, options)
    if callable(signature_or_function) and hasattr(signature_or_function, "__code__"):
        return _make(signature_or_function, None, options)
    sigs = signature_or_function
    if isinstance(sigs, list):
        sigs = list(sigs)
    else:
        sigs = [sigs]
    for s in sigs:
        kt.normalize_signature(s)   # a bad signature fails here, before the function
    return lambda f: _make(f, sigs, options)


def _offloaded(signature_or_function, kwargs):
    """kiln.jit(target='cuda'): signatures are not needed (each launch
    compiles for its arguments' types), nor options other than nopython."""
    unknown = set(kwargs) - {"target", "nopython"}
    if unknown:
        raise TypeError(f"kiln.jit(target='cuda'): unknown option(s) {', '.join(sorted(unknown))}")
    from .cuda.offload import offload
    if callable(signature_or_function) and hasattr(signature_or_function, "__code__"):
        return offload(signature_or_function)
    return offload


def njit(*args, **kwargs):
    """The same as jit: Kiln always compiles in nopython mode."""
    kwargs.setdefault("nopython", True)
    return jit(*args, **kwargs)


def _unpassable(value, name="x"):
    """(what value is, a hint or None) for a value Kiln cannot pass: the
    dtype of a NumPy array or scalar says more than its class. name: how
    the hint calls the value."""
    dtype = getattr(value, "dtype", None)
    if isinstance(value, (np.ndarray, np.generic)):
        what = f"a NumPy array of dtype {dtype}" if isinstance(value, np.ndarray) else f"a NumPy {dtype} scalar"
        if dtype.kind == "f":   # float16 and long double: Kiln computes in float32 and float64, as Numba does
            return what, f"convert it first: {name}.astype(np.{'float32' if dtype.itemsize < 4 else 'float64'})"
        return what, None
    if type(value).__module__.startswith("pandas."):
        # a Series or DataFrame is not an array (it has no buffer); its
        # NumPy array is one call away, and taking it is the user's choice
        # because a DataFrame of several dtypes gives a copy
        kind = type(value).__name__
        if kind == "DataFrame":
            return ("a pandas DataFrame", f"pass its columns as NumPy arrays: {name}['a'].to_numpy(), or all "
                    f"of them as one 2-D array: {name}.to_numpy()")
        return (f"a pandas {kind}" + (f" of dtype {dtype}" if dtype is not None else ""),
                f"pass its NumPy array: {name}.to_numpy()")
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        return f"a {type(value).__name__}", f"convert it to a NumPy array first: np.asarray({name})"
    if isinstance(value, list) and value and all(type(x).__name__ == "ndarray" for x in value):
        return "a list of arrays", "pass a tuple instead: tuple(arrays), or one array: np.stack(arrays)"
    if isinstance(value, list) and not value:
        return "an empty list", ("the type of its items cannot be known: pass a list with items, or a NumPy array "
                                 f"(np.empty(0)) as {name}")
    if isinstance(value, list):
        kinds = sorted({type(x).__name__ for x in value})
        if len(kinds) > 1:
            return (f"a list of mixed items ({', '.join(kinds)})",
                    f"make its items one type ([float(v) for v in {name}]), or pass np.array({name})")
        return f"a list of {kinds[0]}", "pass a NumPy array instead: np.array(values), or a tuple"
    if isinstance(value, dict):
        return "a dict", "build it in the compiled function, or pass its keys and values as arrays"
    if inspect.isfunction(value):
        return f"the Python function {value.__qualname__}", "decorate it with @kiln.njit to pass it to compiled code"
    from .generators import GeneratorFunction
    if isinstance(value, GeneratorFunction):   # inlined where it is looped over, so never a value
        return (f"the kiln generator {value.py_func.__qualname__}",
                f"loop over it by its name in the compiled function (for v in {value.py_func.__name__}(...)), "
                "or pass what it yields as an array")
    if callable(value) and not isinstance(value, type):
        return (f"the callable {getattr(value, '__qualname__', type(value).__name__)}",
                "wrap it in a kiln function (@kiln.njit def f(x): return ...) to pass it to compiled code")
    if isinstance(value, (set, frozenset)):
        return f"a {type(value).__name__}", "build it in the compiled function, or pass its items as an array: np.array(sorted(s))"
    return f"a {type(value).__name__}", None


def typeof(value):
    """The Kiln type of a Python value (as an argument of a compiled function)."""
    spec = _kiln.typeof_spec(value)
    if spec is None:
        what, hint = _unpassable(value)
        raise ValueError(f"Kiln cannot type {what}" + (f"; {hint}" if hint else ""))
    return kt.from_spec(spec)
