"""kiln.cfunc: a kiln function behind a plain C function pointer, as Numba's
@cfunc, for C libraries and scipy.LowLevelCallable:

    @kiln.cfunc("float64(float64)")
    def integrand(x):
        return math.exp(-x * x)

    scipy.integrate.quad(scipy.LowLevelCallable(integrand.ctypes), 0, 1)

It compiles once, for its signature, when decorated. An exception raised
inside goes to sys.unraisablehook and the call returns zero: a C caller
cannot receive it (Numba's cfuncs behave so too)."""
from . import pickling
from . import types as kt
from .dispatcher import _make, _options, compile as _compile_for


def _c_type(spec):
    """The ctypes type of a number type spec (None for none); ctypes is
    imported here, on the first cfunc, to keep `import kiln` quick."""
    import ctypes
    return {("float", 64): ctypes.c_double, ("float", 32): ctypes.c_float, ("bool",): ctypes.c_bool,
            ("int", 8, True): ctypes.c_int8, ("int", 16, True): ctypes.c_int16, ("int", 32, True): ctypes.c_int32,
            ("int", 64, True): ctypes.c_int64, ("int", 8, False): ctypes.c_uint8, ("int", 16, False): ctypes.c_uint16,
            ("int", 32, False): ctypes.c_uint32, ("int", 64, False): ctypes.c_uint64, ("none",): None}[tuple(spec)]


class CFunc:
    """A compiled C function: .address (an int), .ctypes (a ctypes function
    of it), .native_name, .inspect_llvm(); calling it from Python goes
    through ctypes."""

    __reduce__ = pickling.reduce_made

    def __init__(self, py_func, signature, options):
        args, ret = kt.normalize_signature(signature)
        if ret is None:
            raise TypeError("kiln.cfunc needs the return type in its signature: 'float64(float64)'")
        self.__wrapped__ = py_func
        self.__name__, self.__qualname__, self.__doc__ = py_func.__name__, py_func.__qualname__, py_func.__doc__
        self._dispatcher = dispatcher = _make(py_func, None, options)
        dispatcher._kiln_cfunc = True   # its entry is the C wrapper (jit/dispatch/cfunc.c), for this object only
        self._spec = _compile_for(dispatcher, signature)
        self.address = self._spec.address
        self.native_name = f"{py_func.__qualname__}_cfunc"
        import ctypes
        argtypes = [_c_type(s) for s in self._spec.argtypes]
        self.ctypes = ctypes.CFUNCTYPE(_c_type(self._spec.restype), *argtypes)(self.address)

    def __call__(self, *args):
        return self.ctypes(*args)

    def inspect_llvm(self):
        return self._spec.llvm

    def __repr__(self):
        return f"<kiln cfunc {self.__qualname__} {self._spec.signature} at {self.address:#x}>"


def cfunc(signature, **options):
    """@kiln.cfunc('float64(float64)'): the decorated function compiled now
    for that signature, as a C function (options as kiln.jit's)."""
    if callable(signature) and hasattr(signature, "__code__"):
        raise TypeError("kiln.cfunc needs a signature: @kiln.cfunc('float64(float64)')")
    opts = _options(options)
    return lambda py_func: pickling.remember(CFunc(py_func, signature, opts), py_func, cfunc, (signature,), options)
