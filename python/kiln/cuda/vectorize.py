"""kiln.vectorize(..., target='cuda'): a GPU ufunc from a scalar function.

The scalar function becomes a device function; each signature and each
pattern of array/scalar operands gets a grid-stride kernel (written here as
Python source, compiled by kiln.cuda.jit) that applies it element by
element. Host arrays are copied in and the result copied back, as Numba
does; with device arrays in, or a device array as out=, nothing is copied
and a device array comes back."""
import linecache
import math

import numpy as np

from .. import types as kt
from ..ufunc import dtype_of_spec
from . import compiler
from .devicearray import DeviceNDArray, device_array, to_device

_BLOCK = 256
_counter = [0]


def _dtype(t):
    if t.spec[0] not in ("bool", "int", "float"):
        raise TypeError(f"GPU ufuncs take booleans, integers and floats, not {t}")
    return dtype_of_spec(t.spec)


def _kernel_source(name, scalars):
    """A grid-stride kernel applying fn to element j of every array operand."""
    params = [f"a{k}" for k in range(len(scalars))]
    operands = [p if s else f"{p}[j]" for p, s in zip(params, scalars)]
    return (f"def {name}({', '.join(params + ['out'])}):\n"
            f"    start = cuda.grid(1)\n"
            f"    stride = cuda.gridsize(1)\n"
            f"    for j in range(start, out.shape[0], stride):\n"
            f"        out[j] = fn({', '.join(operands)})\n")


def pick_loop(name, loops, dtypes):
    """The index of the loop (its input dtypes) that operands of `dtypes`
    run: one taking exactly them, else the first they cast to, as Numba's
    GPU ufuncs allow: within a kind (float64 to float32), or safely across."""
    dtypes = [np.dtype(d) for d in dtypes]
    for n, ins in enumerate(loops):
        if list(ins) == dtypes:
            return n
    for n, ins in enumerate(loops):
        if len(dtypes) == len(ins) and all(np.can_cast(d, t, "same_kind" if d.kind == t.kind else "safe")
                                           for d, t in zip(dtypes, ins)):
            return n
    raise TypeError(f"{name}: no GPU loop for input types ({', '.join(str(d) for d in dtypes)})")


def make_kernel(stem, source_of, shape, fn):
    """A kernel from generated source: source_of(name, shape) written under
    a fresh name and compiled by kiln.cuda.jit, with `fn` (a device function)
    in its globals. Unchecked: the generator's indices are in bounds."""
    _counter[0] += 1
    name = f"{stem}_{_counter[0]}"
    filename = f"<kiln.cuda {name}>"
    src = source_of(name, shape)
    # the compiler reads a function's source through linecache
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {"cuda": _cuda_module(), "fn": fn}
    exec(compile(src, filename, "exec"), namespace)
    return compiler.CUDAKernel(namespace[name], None, {"boundscheck": False, "fastmath_flags": 0})


class CUDAUFunc:
    """A GPU ufunc: f(*arrays_or_scalars, out=None, stream=0)."""

    def __init__(self, py_func, signatures, options):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.nin = py_func.__code__.co_argcount
        self._options = options
        self._sigs = []
        for sig in signatures:
            args, ret = kt.normalize_signature(sig)
            if len(args) != self.nin:
                raise TypeError(f"signature {sig!r} has {len(args)} inputs; {self.__name__} takes {self.nin}")
            if ret is None:
                raise TypeError(f"GPU ufunc signatures need a return type: {sig!r}")
            self._sigs.append((tuple(_dtype(a) for a in args), _dtype(ret), (args, ret)))
        self._device = compiler.jit([kt.Signature(r, a) for _, _, (a, r) in self._sigs], device=True,
                                    **options)(py_func)
        self._kernels = {}

    def __repr__(self):
        return f"<kiln.cuda ufunc {self.__name__} ({len(self._sigs)} loop(s))>"

    def _pick(self, dtypes):
        ins, ret, _ = self._sigs[pick_loop(self.__name__, [ins for ins, _, _ in self._sigs], dtypes)]
        return ins, ret

    def _kernel(self, ins, scalars):
        key = (ins, scalars)
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = make_kernel(f"{self.__name__}_ufunc", _kernel_source, scalars, self._device)
        return k

    def __call__(self, *args, out=None, stream=0):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} inputs, got {len(args)}")
        on_device = isinstance(out, DeviceNDArray) or any(isinstance(a, DeviceNDArray) for a in args)
        dtypes = [a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype for a in args]
        ins, ret = self._pick(dtypes)
        scalars = tuple(not isinstance(a, DeviceNDArray) and np.ndim(a) == 0 for a in args)
        shapes = [a.shape for a, s in zip(args, scalars) if not s]
        shape = np.broadcast_shapes(*shapes) if shapes else ()
        operands = []
        for a, s, t in zip(args, scalars, ins):
            if s:
                operands.append(t.type(a))
            elif isinstance(a, DeviceNDArray):
                if a.shape != shape or not a.is_c_contiguous() or a.dtype != t:
                    raise ValueError(f"{self.__name__}: device array operands must be C-contiguous "
                                     f"{t} arrays of the result's shape {shape}")
                operands.append(a.reshape(-1) if a.ndim != 1 else a)
            else:
                host = np.ascontiguousarray(np.broadcast_to(np.asarray(a, dtype=t), shape)).reshape(-1)
                operands.append(to_device(host, stream=stream))
        n = int(np.prod(shape, dtype=np.int64))
        if out is None:
            result = device_array(shape, dtype=ret, stream=stream)
        elif isinstance(out, DeviceNDArray):
            if out.shape != shape or out.dtype != ret or not out.is_c_contiguous():
                raise ValueError(f"{self.__name__}: out= must be a C-contiguous {ret} array of shape {shape}")
            result = out
        else:
            result = device_array(shape, dtype=ret, stream=stream)
        flat = result.reshape(-1) if result.ndim != 1 else result
        if n:
            grid = max(1, min(math.ceil(n / _BLOCK), 65535))
            self._kernel(ins, scalars)[grid, _BLOCK, stream](*operands, flat)
        if on_device:
            return result
        if isinstance(out, np.ndarray):
            result.copy_to_host(out, stream=stream)
            return out
        host = result.copy_to_host(stream=stream)
        return host[()] if host.ndim == 0 else host


def _cuda_module():
    from .. import cuda
    return cuda


def vectorize(signatures, identity=None, **options):
    """kiln.vectorize(signatures, target='cuda')(f): GPU ufuncs need their
    signatures, as Numba's do. identity only matters to reductions, which
    GPU ufuncs do not have."""
    allowed = {"fastmath", "boundscheck", "nopython", "cache"}
    unknown = set(options) - allowed
    if unknown:
        raise TypeError(f"kiln.vectorize(target='cuda'): unknown option(s) {', '.join(sorted(unknown))}")
    if callable(signatures) and hasattr(signatures, "__code__") or not signatures:
        raise TypeError("kiln.vectorize(target='cuda') needs signatures, e.g. ['float32(float32, float32)']")
    if isinstance(signatures, (str, kt.Signature)):
        signatures = [signatures]
    jit_options = {k: v for k, v in options.items() if k in ("fastmath", "boundscheck")}
    return lambda f: CUDAUFunc(f, list(signatures), jit_options)


__all__ = ["CUDAUFunc", "vectorize"]
