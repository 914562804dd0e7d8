"""kiln.cuda.jit: kernels and device functions compiled by Kiln's own
compiler, through LLVM NVPTX on a GPU and for the host CPU on the CUDA
simulator (gpu/cuda_compile.c).

    @cuda.jit                       a kernel: kernel[griddim, blockdim](args)
    @cuda.jit(device=True)          a device function, called from kernels
    @cuda.jit('void(float32[:])')   signatures, or argtypes=[...] / restype=

Array indexing in kernels is bounds-checked by default: a bad index is an
IndexError naming the kernel, the block and the thread, never a GPU fault
(which would cost the process its GPU context). boundscheck=False turns the
checks off. On the GPU the error is found when Kiln next waits for the GPU:
at the end of a launch that copies host arrays back, at cuda.synchronize()
and at copy_to_host().
"""
import functools
import weakref

import numpy as np

import _kiln

from .. import types as kt
from .. import long_work, unused_work
from ..dispatcher import jit as _host_jit
from .devicearray import DeviceNDArray, to_device
from .driver import LaunchConfig, RawKernel
from .random import xoroshiro128p_dtype

_ACCEPTED = {"device", "fastmath", "boundscheck", "argtypes", "restype", "debug", "lineinfo", "opt",
             "inline", "cache", "max_registers"}

# Kernels launched on the GPU whose error slot has not been read since.
_unchecked = weakref.WeakSet()


def _sim():
    return _kiln.cuda_mode() != "gpu"


def _layout(flags_c, flags_f):
    return "C" if flags_c else "F" if flags_f else "A"


def _holds_host_only(spec):
    """Whether a spec is, or holds, what only host code takes: a kiln function
    (kernels call device code by name) or a string."""
    return spec[0] in ("function", "str") or (spec[0] == "tuple" and any(_holds_host_only(s) for s in spec[1]))


def _argspec(value):
    """The Kiln type spec of a kernel argument."""
    if isinstance(value, DeviceNDArray) or isinstance(value, np.ndarray):
        if value.dtype == xoroshiro128p_dtype:   # random states: n x 2 uint64 words
            return ("array", ("int", 64, False), 2, "C", False)
        if isinstance(value, np.ndarray):
            spec = _kiln.typeof_spec(value)
        else:
            scalar = _kiln.typeof_spec(value.dtype.type(0))
            spec = scalar and ("array", scalar, value.ndim,
                               _layout(value.is_c_contiguous(), value.is_f_contiguous()), False)
    else:
        spec = _kiln.typeof_spec(value)
    if spec is None or _holds_host_only(spec):
        raise TypeError(f"a kernel cannot take a {type(value).__name__} ({value!r:.60}); pass arrays "
                        "(NumPy or device), numbers (complex too), booleans or tuples of numbers")
    return spec


def _geometry(value):
    """(shape, strides) as the kernel sees them (random states as n x 2)."""
    if value.dtype == xoroshiro128p_dtype:
        return (value.shape[0], 2), (value.strides[0], 8)
    return tuple(value.shape), tuple(value.strides)


def _key(a):
    """What decides the Kiln type of a kernel argument."""
    if isinstance(a, DeviceNDArray):
        return DeviceNDArray, a.dtype, a.shape, a.strides
    if isinstance(a, np.ndarray):
        return np.ndarray, a.dtype, a.shape, a.strides, a.flags.writeable
    if isinstance(a, tuple):
        return tuple, tuple(_key(v) for v in a)
    return type(a)


def _flatten(value, spec, out, sim):
    """Appends a kernel argument's parts to out, as the kernel takes them
    (gpu/cuda_compile.c, flat_params): an array's data (the device array on
    the GPU, its host address on the simulator), shape and byte strides; a
    number as an int or a float; a complex as two floats; a tuple's items."""
    kind = spec[0]
    if kind == "array":
        if not sim:
            out.append(value)
        else:
            out.append(_host_address(value) if isinstance(value, np.ndarray) else value.device_pointer)
        shape, strides = _geometry(value)
        out.extend(shape)
        out.extend(strides)
    elif kind == "tuple":
        for item, item_spec in zip(value, spec[1]):
            _flatten(item, item_spec, out, sim)
    elif kind == "complex":
        z = complex(value)
        out.extend((z.real, z.imag))
    elif kind == "float":
        out.append(float(value))
    else:
        out.append(int(value))


def _host_address(ary):
    return ary.__array_interface__["data"][0]


def _simulating_text(name, grid, block):
    """What a simulator launch does, for a notebook's line while it runs (kiln.long_work)."""
    done, total = _kiln.cuda_sim_progress()
    return f"simulating {name}[{grid}, {block}]: block {done:,} of {total:,}", done / max(total, 1)


def _dim3(d):
    return d if isinstance(d, tuple) else (d,)


def _signature_text(argspecs):
    """'(array(float32, 1d, C), int64)': how a compile of these argument types is titled."""
    return "(" + ", ".join(_kiln.type_name(s) for s in argspecs) + ")"


class _Compiled:
    """One kernel for one signature: on the GPU its loaded PTX and raise
    sites, on the simulator its host entry."""

    __slots__ = ("argspecs", "ptx", "raw", "sites", "entry", "fibers", "stats", "errors")

    def __init__(self):
        self.ptx = self.raw = self.sites = self.entry = self.fibers = self.stats = self.errors = None


class CUDAKernel:
    """A @kiln.cuda.jit kernel. kernel[griddim, blockdim(, stream, sharedmem)](args)."""

    def __init__(self, py_func, sigs, options):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__doc__ = py_func.__doc__
        # The options and declared signatures are kept in C, by a kiln
        # function of py_func that the kernel is compiled through, never called.
        self._state = _kiln.Dispatcher(py_func)
        self._state._kiln_options = options
        self._compiled = {}           # argspecs -> _Compiled (for this process's mode)
        self._ptx = {}                # argspecs -> PTX text (also made in simulator mode, on request)
        self._by_key = {}             # launch argument key -> argspecs (_signature)
        if sigs:
            locked = []
            for sig in sigs:
                args, ret = kt.normalize_signature(sig)
                if ret is not None and ret.spec != ("none",):
                    raise TypeError(f"kernel {self.__name__} must return void, not {ret}")
                locked.append((tuple(a.spec for a in args), None))
            self._state._kiln_locked_sigs = locked
            for argspecs, _ in locked:
                self._compile(argspecs)

    @property
    def _kiln_options(self):   # as a kiln function's (cache keys, the annotate view read it)
        return self._state._kiln_options

    def __repr__(self):
        return f"<kiln.cuda.jit kernel {self.__qualname__}>"

    def __getitem__(self, config):
        return LaunchConfig(self, config)

    def __call__(self, *args):
        raise TypeError(f"kernel {self.__name__} needs a launch configuration: "
                        f"{self.__name__}[griddim, blockdim](...)")

    # -- compiling ----------------------------------------------------------
    def _signature(self, args):
        # Launch overhead matters (a teacher times empty kernels): the types
        # of a launch are remembered by what determines them.
        key = tuple(_key(a) for a in args)
        specs = self._by_key.get(key)
        if specs is None:
            specs = self._by_key[key] = self._match(args)
            if len(self._by_key) > 256:
                self._by_key.clear()
        return specs

    def _match(self, args):
        specs = tuple(_argspec(a) for a in args)
        locked = self._state._kiln_locked_sigs
        if locked:
            for argspecs, _ in locked:
                if len(argspecs) == len(specs) and all(_kiln.can_convert(a, b) for a, b in zip(specs, argspecs)):
                    return argspecs
            got = ", ".join(_kiln.type_name(s) for s in specs)
            raise TypeError(f"kernel {self.__name__}: no signature accepts ({got})")
        return specs

    def _compile(self, argspecs):
        c = self._compiled.get(argspecs)
        if c is not None:
            return c
        c = _Compiled()
        c.argspecs = argspecs
        fastmath = bool(self._state._kiln_options["fastmath_flags"])
        signature = _signature_text(argspecs)
        try:
            if _sim():
                c.entry, c.fibers, c.stats, remarks = _kiln.cuda_compile(self._state, argspecs, "simulator",
                                                                          fastmath, signature)
            else:
                c.ptx, name, c.sites, c.stats, remarks = _kiln.cuda_compile(self._state, argspecs, "cuda", fastmath,
                                                                            signature)
                self._ptx[argspecs] = c.ptx
                c.raw = RawKernel(c.ptx, name)
                c.errors = to_device(np.zeros(8, dtype=np.int64))
        except _kiln.TypingError as exc:
            raise exc.with_traceback(None) from None
        unused_work.tell(self.py_func, remarks)
        self._compiled[argspecs] = c
        return c

    # -- launching ----------------------------------------------------------
    def launch(self, grid, block, args, stream=None, sharedmem=0):
        """One launch (kernel[grid, block, stream, sharedmem](*args) comes
        here through driver.LaunchConfig, the stream already a handle)."""
        c = self._compile(self._signature(args))
        if _sim():
            flat = []
            for a, spec in zip(args, c.argspecs):
                _flatten(a, spec, flat, True)
            # a GPU launch copies each NumPy array in and back (below): the estimate counts it
            host_bytes = sum(a.nbytes for a in args if isinstance(a, np.ndarray))
            with long_work.watching(functools.partial(_simulating_text, self.__name__, grid, block)):
                _kiln.cuda_sim_launch(c.entry, self.__name__, tuple(flat), _dim3(grid), _dim3(block), sharedmem,
                                      c.fibers, host_bytes)
            return
        flat, copy_back = [c.errors], []
        for a, spec in zip(args, c.argspecs):
            if isinstance(a, np.ndarray):
                d = to_device(a, stream=stream or 0)
                if a.flags.writeable:
                    copy_back.append((a, d))
                a = d
            _flatten(a, spec, flat, False)
        c.raw.function.launch(grid, block, tuple(flat), sharedmem, stream)
        _unchecked.add(self)
        for host, device in copy_back:   # copy_to_host raises what the kernel recorded
            device.copy_to_host(host, stream=stream or 0)

    def _check(self):
        for c in self._compiled.values():
            if c.errors is None:
                continue
            slot = c.errors._copy_out(None, 0)
            if slot[0]:
                c.errors.copy_to_device(np.zeros(8, dtype=np.int64))
                cls, msg = c.sites[slot[0] - 1]
                block, thread = tuple(int(v) for v in slot[1:4]), tuple(int(v) for v in slot[4:7])
                raise (cls or RuntimeError)(f"{msg} (kernel '{self.__name__}' raised in block {block}, "
                                            f"thread {thread})")

    # -- introspection ------------------------------------------------------
    def _latest(self, signature):
        if signature is not None:
            return tuple(signature)
        if not self._compiled and not self._ptx:
            raise ValueError(f"kernel {self.__name__} is not compiled yet: launch it or give a signature")
        return list(self._compiled or self._ptx)[-1]

    def inspect_ptx(self, signature=None):
        """The PTX of one signature (the latest compiled if None). Made by
        LLVM NVPTX even on the simulator, so it can be read anywhere."""
        key = self._latest(signature)
        if key not in self._ptx:
            try:
                # titled apart from the simulator's compile of the same signature, which the footer
                # would otherwise count as the kernel compiled twice
                self._ptx[key] = _kiln.cuda_compile(self._state, key, "cuda", bool(self._state._kiln_options["fastmath_flags"]),
                                                    _signature_text(key) + " to PTX")[0]
            except _kiln.TypingError as exc:
                raise exc.with_traceback(None) from None
        return self._ptx[key]

    def inspect_asm(self, signature=None):
        return self.inspect_ptx(signature)

    def _raw(self, signature=None):
        c = self._compiled.get(self._latest(signature))
        if c is None or c.raw is None:
            raise _kiln.CudaSupportError("registers and occupancy come from the GPU driver; kernels run on the "
                                         f"simulator here ({_kiln.cuda_why_simulator()})")
        return c.raw

    def get_regs_per_thread(self, signature=None):
        return self._raw(signature).registers

    @property
    def registers(self):
        return self._raw().registers

    @property
    def local_bytes(self):
        return self._raw().local_bytes

    @property
    def shared_bytes(self):
        return self._raw().shared_bytes

    def occupancy(self, block_size, shared_bytes=0):
        """Theoretical occupancy of a launch with this block size:
        {'blocks_per_multiprocessor': int, 'occupancy': 0..1}."""
        return self._raw().occupancy(block_size, shared_bytes)

    @property
    def signatures(self):
        return list(self._compiled)

    @property
    def stats(self):
        return {sig: dict(c.stats) for sig, c in self._compiled.items()}


def check_errors():
    """Raises the first error a kernel launched since the last check recorded
    on the GPU (an IndexError, ZeroDivisionError...)."""
    pending = list(_unchecked)
    _unchecked.clear()
    for k in pending:
        k._check()


def _device_function(py_func, sigs, options):
    """A kiln.jit dispatcher: kernels that call it compile it with their own
    target; Python may call it on the host."""
    host_options = {"boundscheck": options["boundscheck"], "fastmath": options["fastmath_flags"] != 0}
    if sigs:
        try:   # declared signatures are compiled for the host now, as kiln.jit does
            d = _host_jit(list(sigs), **host_options)(py_func)
            d._kiln_cuda_device = True
            return d
        except (_kiln.TypingError, _kiln.UnsupportedError) as exc:
            # GPU-only code (cuda.threadIdx...): declared for kernels only. The
            # error's hint (decorate with kiln.cuda.jit) does not apply here.
            host_error = str(exc).split("\nHint:")[0]
    d = _host_jit(**host_options)(py_func)
    if sigs:
        locked = []
        for sig in sigs:
            args, ret = kt.normalize_signature(sig)
            locked.append((tuple(a.spec for a in args), ret.spec if ret is not None else None))
        d._kiln_locked_sigs = locked
        d._specialize = _host_call_refused(py_func.__qualname__, host_error)
    d._kiln_cuda_device = True
    return d


def _host_call_refused(name, why):
    """What a call from Python does for a declared device function that only
    compiles for the GPU (the dispatcher's _specialize, per instance): says so,
    instead of finding no host specialization."""
    def refuse(args, arg_specs=None):
        raise TypeError(f"{name} is a device function that only compiles for the GPU, so Python cannot call "
                        f"it; call it from a kernel. Compiling it for the host said: {why}")
    return refuse


def jit(signature_or_function=None, device=False, **kwargs):
    """Compile a CUDA kernel (or with device=True a device function). Forms:
    @jit, @jit(...options), @jit('void(float32[:])'), @jit([sigs]),
    jit(argtypes=[...], restype=..., device=True)(f)."""
    unknown = set(kwargs) - _ACCEPTED
    if unknown:
        raise TypeError(f"kiln.cuda.jit: unknown option(s) {', '.join(sorted(unknown))}")
    fastmath = kwargs.get("fastmath", False)
    options = {"boundscheck": bool(kwargs.get("boundscheck", True)),
               "fastmath_flags": 127 if fastmath else 0}
    sigs = None
    if "argtypes" in kwargs:
        ret = kwargs.get("restype") or kt.void
        sigs = [ret(*kwargs["argtypes"])]
    func = None
    if callable(signature_or_function) and hasattr(signature_or_function, "__code__"):
        func = signature_or_function
    elif signature_or_function is not None:
        sigs = signature_or_function if isinstance(signature_or_function, list) else [signature_or_function]

    def make(f):
        if device:
            return _device_function(f, sigs, options)
        return CUDAKernel(f, sigs, options)

    return make(func) if func is not None else make
