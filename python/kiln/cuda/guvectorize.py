"""kiln.guvectorize(..., target='cuda'): a generalized GPU ufunc.

The function becomes a device function over core dimensions, as in
guvectorize on the CPU: '(i)->()' hands it a row and a 1-element array for
its scalar result, '(m,n),(n,p)->(m,p)' two matrices and the one to fill.
A grid-stride kernel, generated per signature, calls it once for each
element of the loop dimensions (the operands' leading dimensions,
broadcast), thread by thread. Host arrays are copied in and the results
copied back, as numba-cuda does; with device arrays in, or device arrays as
out=, nothing is copied and device arrays come back. stream= orders the
copies and the launch."""
import math

import numpy as np

from .. import types as kt
from ..ufunc import dtype_of_spec, parse_layout
from . import compiler
from .devicearray import DeviceNDArray, device_array, to_device
from .vectorize import make_kernel, pick_loop

_BLOCK = 128


def _kernel_source(name, nparams):
    """fn applied to row j of every operand (each has the loop dimension first)."""
    params = [f"a{k}" for k in range(nparams)]
    return (f"def {name}({', '.join(params)}):\n"
            f"    start = cuda.grid(1)\n"
            f"    stride = cuda.gridsize(1)\n"
            f"    for j in range(start, a0.shape[0], stride):\n"
            f"        fn({', '.join(p + '[j]' for p in params)})\n")


class _Loop:
    """One signature: operand dtypes, and which operands the function takes
    as scalars (a `()` input declared as a number)."""

    def __init__(self, args, cores, nin, layout):
        self.dtypes, self.scalar = [], []
        for k, (t, core) in enumerate(zip(args, cores)):
            spec = t.spec
            is_array = spec[0] == "array"
            if is_array and spec[2] != max(len(core), 1):
                raise TypeError(f"layout {layout!r}: operand {k + 1} has {len(core)} core dimension(s), "
                                f"but the signature gives it {t}")
            if not is_array and (core or k >= nin):
                raise TypeError(f"layout {layout!r}: operand {k + 1} must be an array (an output with core "
                                f"dimensions '()' is a 1-element array), not {t}")
            self.dtypes.append(dtype_of_spec(spec[1] if is_array else spec))
            self.scalar.append(not is_array)


class CUDAGUFunc:
    """A generalized GPU ufunc: f(*inputs, out=None, stream=0)."""

    def __init__(self, py_func, signatures, layout, options):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.layout = layout.replace(" ", "")
        inputs, outputs, _ = parse_layout(layout)
        self._cores = inputs + outputs
        self.nin, self.nout = len(inputs), len(outputs)
        if py_func.__code__.co_argcount != len(self._cores):
            raise TypeError(f"{self.__name__} takes {py_func.__code__.co_argcount} parameters but layout "
                            f"{layout!r} has {len(self._cores)} operands")
        sigs = [kt.normalize_signature(s)[0] for s in signatures]
        self._loops = [_Loop(args, self._cores, self.nin, self.layout) for args in sigs]
        self._device = compiler.jit([kt.Signature(kt.void, a) for a in sigs], device=True, **options)(py_func)
        self._kernels = {}

    def __repr__(self):
        return f"<kiln.cuda gufunc {self.__name__} {self.layout} ({len(self._loops)} loop(s))>"

    def _pick(self, dtypes):
        n = pick_loop(self.__name__, [loop.dtypes[:self.nin] for loop in self._loops], dtypes)
        return n, self._loops[n]

    def _sizes(self, args):
        """{dimension number: size} from the inputs' trailing dimensions, and
        the loop shape: their leading dimensions, broadcast."""
        sizes, leading = {}, []
        for k, (a, core) in enumerate(zip(args, self._cores)):
            shape = np.shape(a)
            if len(shape) < len(core):
                raise ValueError(f"{self.__name__}: input {k + 1} has {len(shape)} dimension(s), fewer than "
                                 f"its {len(core)} core dimension(s) in {self.layout!r}")
            for dim, size in zip(core, shape[len(shape) - len(core):]):
                if sizes.setdefault(dim, size) != size:
                    raise ValueError(f"{self.__name__}: core dimensions of {self.layout!r} disagree: "
                                     f"{sizes[dim]} and {size}")
            leading.append(shape[:len(shape) - len(core)])
        for k, core in enumerate(self._cores[self.nin:]):
            if any(dim not in sizes for dim in core):
                raise ValueError(f"{self.__name__}: output {k + 1} of {self.layout!r} has a dimension no input "
                                 f"gives")
        return sizes, np.broadcast_shapes(*leading)

    def _operand(self, a, dtype, loop_shape, core_shape, flat_core, stream):
        """A device array of shape (loop elements, *flat_core) for one input
        of core shape `core_shape`."""
        n = math.prod(loop_shape)
        if isinstance(a, DeviceNDArray):
            if a.shape != loop_shape + core_shape or a.dtype != dtype or not a.is_c_contiguous():
                raise ValueError(f"{self.__name__}: a device array operand must be a C-contiguous {dtype} "
                                 f"array of shape {loop_shape + core_shape}")
            return a.reshape((n,) + flat_core)
        host = np.broadcast_to(np.asarray(a, dtype=dtype), loop_shape + core_shape)
        return to_device(np.ascontiguousarray(host).reshape((n,) + flat_core), stream=stream)

    def __call__(self, *args, out=None, stream=0):
        if len(args) == self.nin + self.nout and out is None:   # outputs given by position, as NumPy allows
            args, out = args[:self.nin], args[self.nin:]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} input(s) and {self.nout} output(s), got "
                            f"{len(args)} arrays")
        outs = () if out is None else tuple(out) if isinstance(out, tuple) else (out,)
        if outs and len(outs) != self.nout:
            raise TypeError(f"{self.__name__}: out= takes {self.nout} array(s)")
        on_device = any(isinstance(a, DeviceNDArray) for a in args + outs)
        dtypes = [a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype for a in args]
        n_loop, loop = self._pick(dtypes)
        sizes, loop_shape = self._sizes(args)
        n = math.prod(loop_shape)
        operands = []
        for k, a in enumerate(args):
            core_shape = tuple(sizes[d] for d in self._cores[k])
            flat_core = () if loop.scalar[k] else core_shape or (1,)   # a '()' array: 1 element; a number: none
            operands.append(self._operand(a, loop.dtypes[k], loop_shape, core_shape, flat_core, stream))
        results = []
        for k in range(self.nout):
            core = self._cores[self.nin + k]
            core_shape = tuple(sizes[d] for d in core) or (1,)   # '()': a 1-element array
            dtype = loop.dtypes[self.nin + k]
            given = outs[k] if outs else None
            result_shape = loop_shape + tuple(sizes[d] for d in core)
            if isinstance(given, DeviceNDArray):
                if given.shape != result_shape or given.dtype != dtype or not given.is_c_contiguous():
                    raise ValueError(f"{self.__name__}: out= must be a C-contiguous {dtype} array of shape "
                                     f"{result_shape}")
                flat = given.reshape((n,) + core_shape)
            else:
                flat = device_array((n,) + core_shape, dtype=dtype, stream=stream)
            operands.append(flat)
            results.append((flat, given, result_shape))
        if n:
            kernel = self._kernels.get(n_loop)
            if kernel is None:
                kernel = self._kernels[n_loop] = make_kernel(f"{self.__name__}_gufunc", _kernel_source,
                                                             len(operands), self._device)
            kernel[max(1, min(math.ceil(n / _BLOCK), 65535)), _BLOCK, stream](*operands)
        made = []
        for flat, given, shape in results:
            if isinstance(given, DeviceNDArray):
                made.append(given)
            elif isinstance(given, np.ndarray):   # a host out= is filled, device inputs or not
                given[...] = flat.copy_to_host(stream=stream).reshape(shape)
                made.append(given)
            elif on_device:
                made.append(flat.reshape(shape))
            else:
                host = flat.copy_to_host(stream=stream).reshape(shape)
                made.append(host[()] if host.ndim == 0 else host)
        return made[0] if self.nout == 1 else tuple(made)


def guvectorize(signatures, layout, **options):
    """kiln.guvectorize(signatures, layout, target='cuda')(f), as numba-cuda
    has it: signatures are needed (every operand's type, outputs included)."""
    allowed = {"fastmath", "boundscheck", "nopython", "cache"}
    unknown = set(options) - allowed
    if unknown:
        raise TypeError(f"kiln.guvectorize(target='cuda'): unknown option(s) {', '.join(sorted(unknown))}")
    if not signatures or isinstance(signatures, str) and "->" in signatures:
        raise TypeError("kiln.guvectorize(target='cuda') needs signatures and a layout, e.g. "
                        "@guvectorize(['void(float32[:], float32[:])'], '(n)->()', target='cuda')")
    if isinstance(signatures, (str, kt.Signature)):
        signatures = [signatures]
    jit_options = {k: v for k, v in options.items() if k in ("fastmath", "boundscheck")}
    return lambda f: CUDAGUFunc(f, list(signatures), layout, jit_options)


__all__ = ["CUDAGUFunc", "guvectorize"]
