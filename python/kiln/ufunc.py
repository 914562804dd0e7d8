"""kiln.vectorize and kiln.guvectorize: NumPy ufuncs from Python kernels.

A kernel is compiled by Kiln's compiler together with an inner loop in LLVM
IR (jit/dispatch/ufunc_loop.c); _kiln.make_ufunc hands the loops to NumPy, so the
result is a real numpy.ufunc: broadcasting, out=, reduce, accumulate and type
resolution are NumPy's own. target='parallel' splits each loop call across
Kiln's thread pool. Without signatures, vectorize returns a DUFunc that
compiles a loop for each new combination of input dtypes on first use, as
Numba's does, and guvectorize with a layout alone returns a GUFunc that does
the same per operand dtypes (outputs passed in, as Numba's dynamic gufuncs)."""
import numpy as np

import _kiln

from . import pickling, worker_records
from . import types as kt
from .dispatcher import jit

_IDENTITY = {None: -1, 0: 0, 1: 1, "reorderable": -2}   # PyUFunc_None, _Zero, _One, _ReorderableNone
_TARGETS = ("cpu", "parallel")


def _check_target(target, what):
    if target not in _TARGETS:
        raise ValueError(f"kiln.{what}: target must be one of {_TARGETS} or 'cuda', got {target!r}")


def _identity_code(identity):
    try:
        return _IDENTITY[identity]
    except (KeyError, TypeError):
        raise ValueError(f"identity must be None, 0, 1 or 'reorderable', got {identity!r}") from None


def dtype_of_spec(spec):
    """The NumPy dtype of a scalar type spec."""
    kind = spec[0]
    if kind == "bool":
        return np.dtype(np.bool_)
    if kind == "int":
        return np.dtype(f"{'i' if spec[2] else 'u'}{spec[1] // 8}")
    if kind == "float":
        return np.dtype(f"f{spec[1] // 8}")
    if kind == "complex":
        return np.dtype(f"c{spec[1] // 8}")
    raise TypeError(f"a ufunc operand must be a number type, not {_kiln.type_name(spec)}")


def _spec_of_dtype(dtype):
    spec = _kiln.typeof_spec(np.zeros((), dtype=dtype)[()])
    if spec is None:
        raise TypeError(f"Kiln ufuncs take numbers; cannot compile for dtype {dtype}")
    return spec


def _kernel(py_func, description, options):
    """A private dispatcher for py_func whose compiles produce ufunc loops.
    Like Numba's, it follows NumPy's error model: 1.0 / 0.0 is inf, as
    np.divide gives, and a loop that cannot raise is one LLVM vectorizes."""
    d = jit(error_model="numpy", **options)(py_func)
    d._kiln_ufunc = description
    return d


def _jit_options(options):
    allowed = {"nopython", "fastmath", "boundscheck", "nogil", "cache"}
    unknown = set(options) - allowed
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(sorted(unknown))}")
    return {k: v for k, v in options.items() if k in ("fastmath", "boundscheck", "nopython", "cache")}


def _compile_kernel(kernel, argspecs, retspec):
    """The loop for one signature; with cache=True from disk when stored."""
    if kernel._kiln_options.get("cache"):
        from . import cache
        spec = cache.compile(kernel, tuple(argspecs), retspec)
    else:
        spec = _kiln.compile(kernel, tuple(argspecs), retspec)
    worker_records.tell()   # in a worker, the sender's footer shows this compile
    return spec


# ---- vectorize ----

def _vectorize_loop(kernel, argspecs, retspec):
    spec = _compile_kernel(kernel, argspecs, retspec)
    typenums = tuple(dtype_of_spec(s).num for s in tuple(spec.argtypes) + (spec.restype,))
    return spec, typenums


def _make_vectorized(py_func, loops, identity, target):
    nin = py_func.__code__.co_argcount
    return _kiln.make_ufunc(py_func.__name__, py_func.__doc__ or "", nin, 1, loops,
                            _identity_code(identity), None, target == "parallel", 0)


class DUFunc:
    """A ufunc that compiles a loop for each new combination of input dtypes
    (vectorize without signatures). `.ufunc` is the numpy.ufunc with every
    loop compiled so far."""

    __reduce__ = pickling.reduce_made

    def __init__(self, py_func, identity, target, options):
        self.py_func = py_func
        self.identity = identity
        self.target = target
        self._kernel = _kernel(py_func, ("vectorize",), options)
        self._loops = []
        self._keys = set()
        self.ufunc = None
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.nin = py_func.__code__.co_argcount
        self.nout = 1

    def _ensure(self, dtypes):
        key = tuple(np.dtype(d) for d in dtypes)
        if key in self._keys:
            return
        self._loops.append(_vectorize_loop(self._kernel, [_spec_of_dtype(d) for d in key], None))
        self._keys.add(key)
        self.ufunc = _make_vectorized(self.py_func, list(self._loops), self.identity, self.target)

    @staticmethod
    def _dtype(value):
        if isinstance(value, bool):
            return np.dtype(np.bool_)
        if isinstance(value, int):
            return np.dtype(np.int64)
        if isinstance(value, float):
            return np.dtype(np.float64)
        if isinstance(value, complex):
            return np.dtype(np.complex128)
        return np.asarray(value).dtype

    def __call__(self, *args, **kwargs):
        if len(args) < self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} inputs, {len(args)} given")
        self._ensure([self._dtype(a) for a in args[:self.nin]])
        return self.ufunc(*args, **kwargs)

    def _unary_method(self, name, array, *args, **kwargs):
        dt = self._dtype(array)
        self._ensure([dt] * self.nin)
        return getattr(self.ufunc, name)(array, *args, **kwargs)

    def reduce(self, array, *args, **kwargs):
        return self._unary_method("reduce", array, *args, **kwargs)

    def accumulate(self, array, *args, **kwargs):
        return self._unary_method("accumulate", array, *args, **kwargs)

    def reduceat(self, array, *args, **kwargs):
        return self._unary_method("reduceat", array, *args, **kwargs)

    def outer(self, a, b, **kwargs):
        self._ensure([self._dtype(a), self._dtype(b)])
        return self.ufunc.outer(a, b, **kwargs)

    @property
    def types(self):
        return self.ufunc.types if self.ufunc is not None else []

    def __repr__(self):
        return f"<kiln.DUFunc {self.__name__} ({len(self._loops)} loop(s), target={self.target!r})>"


def vectorize(ftylist_or_function=(), identity=None, target="cpu", **options):
    """Compile a scalar kernel into a NumPy ufunc. With signatures
    (['float64(float64, float64)', ...]) every loop is compiled now and the
    result is a numpy.ufunc; without, a DUFunc compiles per input dtype on
    first use. target='parallel' runs large calls on all threads."""
    if target == "cuda":   # GPU ufuncs: python/kiln/cuda/vectorize.py
        from .cuda.vectorize import vectorize as cuda_vectorize
        return cuda_vectorize(ftylist_or_function, identity=identity, **options)
    _check_target(target, "vectorize")
    _identity_code(identity)
    jit_options = _jit_options(options)
    if callable(ftylist_or_function) and hasattr(ftylist_or_function, "__code__"):   # @vectorize with no signatures
        return vectorize((), identity=identity, target=target, **options)(ftylist_or_function)
    sigs = ftylist_or_function
    if isinstance(sigs, (str, kt.Signature)):
        sigs = [sigs]
    sigs = list(sigs)
    normalized = [kt.normalize_signature(s) for s in sigs]   # a bad signature fails before the function

    def wrap(py_func):
        if not normalized:
            made = DUFunc(py_func, identity, target, jit_options)
        else:
            kernel = _kernel(py_func, ("vectorize",), jit_options)
            loops = [_vectorize_loop(kernel, [t.spec for t in args], ret.spec if ret is not None else None)
                     for args, ret in normalized]
            made = _make_vectorized(py_func, loops, identity, target)
        # called from compiled code, the ufunc is a direct call of its kernel, as in Numba (for numbers
        # as a ufunc's element, and arrays where the kernel's body takes them)
        _kiln.compiled_as[made] = jit(error_model="numpy", **jit_options)(py_func)
        return pickling.remember(made, py_func, vectorize, (sigs,), dict(identity=identity, target=target, **options))

    return wrap


# ---- guvectorize ----

def parse_layout(layout):
    """'(m,n),(n,p)->(m,p)' -> (inputs, outputs, number of distinct dims),
    each operand a tuple of dim numbers in order of first appearance."""
    text = layout.replace(" ", "")
    if text.count("->") != 1:
        raise ValueError(f"a gufunc layout has one '->': {layout!r}")
    numbers = {}

    def operands(part):
        out = []
        if not (part.startswith("(") and part.endswith(")")):
            raise ValueError(f"malformed gufunc layout {layout!r}")
        for group in part[1:-1].split("),("):
            names = [n for n in group.split(",") if n]
            if not all(n.isidentifier() for n in names):
                raise ValueError(f"malformed gufunc layout {layout!r}")
            out.append(tuple(numbers.setdefault(n, len(numbers)) for n in names))
        return out

    ins, outs = text.split("->")
    inputs, outputs = operands(ins), operands(outs)
    return inputs, outputs, len(numbers)


def _gufunc_args(args, cores, layout):
    """Kernel parameter types with array layouts relaxed to 'A' (NumPy hands
    core dimensions with any strides), checked against the layout."""
    out = []
    for t, core in zip(args, cores):
        spec = t.spec
        if spec[0] == "array":
            if spec[2] != len(core) and not (len(core) == 0 and spec[2] == 1):
                raise TypeError(f"layout {layout!r}: an operand with {len(core)} core dimension(s) cannot be "
                                f"{t}")
            spec = ("array", spec[1], spec[2], "A", False)
        elif core:
            raise TypeError(f"layout {layout!r}: an operand with core dimensions must be an array, not {t}")
        out.append(spec)
    return out


def _gufunc_loop(kernel, argspecs):
    """One gufunc loop: the compiled kernel and its operands' NumPy type numbers."""
    spec = _compile_kernel(kernel, argspecs, None)   # inferred: the hook explains a non-None return
    return spec, tuple(dtype_of_spec(s[1] if s[0] == "array" else s).num for s in argspecs)


def _make_gufunc(py_func, layout, loops, identity, target):
    inputs, outputs, ndims = parse_layout(layout)
    return _kiln.make_ufunc(py_func.__name__, py_func.__doc__ or "", len(inputs), len(outputs), loops,
                            _identity_code(identity), layout.replace(" ", ""), target == "parallel", ndims)


def _gufunc_kernel(py_func, layout, jit_options):
    inputs, outputs, _ndims = parse_layout(layout)
    cores = inputs + outputs
    nparams = py_func.__code__.co_argcount
    if nparams != len(cores):
        raise TypeError(f"{py_func.__name__} takes {nparams} parameters but layout {layout!r} has "
                        f"{len(cores)} operands")
    return _kernel(py_func, ("guvectorize", tuple(cores)), jit_options)


class GUFunc:
    """A generalized ufunc that compiles a loop for each new combination of
    operand dtypes (guvectorize without signatures, Numba's dynamic gufunc).
    As in Numba, every operand is passed, outputs included (positionally or
    out=): their dtypes cannot be guessed from the inputs' safely. `.ufunc` is
    the numpy.ufunc with every loop compiled so far."""

    __reduce__ = pickling.reduce_made

    def __init__(self, py_func, layout, identity, target, options):
        self.py_func = py_func
        self.layout = layout.replace(" ", "")
        self.identity = identity
        self.target = target
        inputs, outputs, _ndims = parse_layout(layout)
        self._cores = inputs + outputs
        self._kernel = _gufunc_kernel(py_func, layout, options)
        self._loops = []
        self._keys = set()
        self.ufunc = None
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.nin, self.nout = len(inputs), len(outputs)
        self.signature = self.layout

    def _argspecs(self, dtypes):
        """Kernel parameter types: a `()` input is a scalar, a `()` output a
        1-element array (as with signatures), any other operand an array of
        its core dimensions."""
        specs = []
        for k, (dt, core) in enumerate(zip(dtypes, self._cores)):
            scalar = _spec_of_dtype(dt)
            if not core and k < self.nin:
                specs.append(scalar)
            else:
                specs.append(("array", scalar, max(len(core), 1), "A", False))
        return specs

    def __call__(self, *args, **kwargs):
        out = kwargs.pop("out", None)
        if out is not None:
            args += tuple(out) if isinstance(out, tuple) else (out,)
        if len(args) != len(self._cores):
            raise TypeError(f"{self.__name__} without signatures needs all {len(self._cores)} operands of "
                            f"{self.layout!r}, outputs included: call {self.__name__}(inputs..., out) "
                            f"(or pass signatures to kiln.guvectorize to let NumPy allocate the output)")
        key = tuple(DUFunc._dtype(a) for a in args)
        if key not in self._keys:
            self._loops.append(_gufunc_loop(self._kernel, self._argspecs(key)))
            self._keys.add(key)
            self.ufunc = _make_gufunc(self.py_func, self.layout, list(self._loops), self.identity, self.target)
        # the loop for exactly these dtypes, not the first one NumPy could cast them to
        return self.ufunc(*args, signature=key, **kwargs)

    @property
    def types(self):
        return self.ufunc.types if self.ufunc is not None else []

    def __repr__(self):
        return f"<kiln.GUFunc {self.__name__} {self.layout} ({len(self._loops)} loop(s), target={self.target!r})>"


def guvectorize(ftylist, signature=None, identity=None, target="cpu", **options):
    """Compile a kernel over core dimensions into a generalized NumPy ufunc:
    @guvectorize(['void(float64[:], float64[:])'], '(n)->()'). Outputs are the
    last parameters and are written in place (a scalar output `()` is a
    1-element array, as in Numba). With the layout alone,
    @guvectorize('(n)->()'), the result is a GUFunc that compiles per operand
    dtypes on first use. target='cuda' makes a GPU gufunc (cuda/guvectorize.py)."""
    if target == "cuda":
        from .cuda.guvectorize import guvectorize as cuda_guvectorize
        return cuda_guvectorize(ftylist, signature, **options)
    _check_target(target, "guvectorize")
    _identity_code(identity)
    jit_options = _jit_options(options)
    if callable(ftylist) and hasattr(ftylist, "__code__"):
        raise TypeError("kiln.guvectorize takes the layout first: @guvectorize('(n)->()'), or signatures "
                        "and the layout: @guvectorize(['void(f8[:], f8[:])'], '(n)->()')")
    if signature is None:
        if not (isinstance(ftylist, str) and "->" in ftylist):
            raise TypeError("kiln.guvectorize needs a layout such as '(n)->()'")
        parse_layout(ftylist)   # a bad layout fails before the function
        return lambda py_func: pickling.remember(GUFunc(py_func, ftylist, identity, target, jit_options), py_func,
                                                 guvectorize, (ftylist,),
                                                 dict(identity=identity, target=target, **options))
    inputs, outputs, _ndims = parse_layout(signature)
    cores = inputs + outputs
    sigs = [ftylist] if isinstance(ftylist, (str, kt.Signature)) else list(ftylist)
    normalized = [kt.normalize_signature(s) for s in sigs]

    def wrap(py_func):
        if not normalized:
            made = GUFunc(py_func, signature, identity, target, jit_options)
        else:
            kernel = _gufunc_kernel(py_func, signature, jit_options)
            loops = []
            for args, _ret in normalized:
                if len(args) != len(cores):
                    raise TypeError(f"signature with {len(args)} types for {len(cores)} parameters")
                loops.append(_gufunc_loop(kernel, _gufunc_args(args, cores, signature)))
            made = _make_gufunc(py_func, signature, loops, identity, target)
        return pickling.remember(made, py_func, guvectorize, (sigs, signature),
                                 dict(identity=identity, target=target, **options))

    return wrap
