"""Device arrays: NumPy-shaped views of GPU memory (of host memory when the
CUDA simulator runs), with Numba's names: to_device, device_array,
device_array_like, copy_to_host, __cuda_array_interface__.

The memory itself is a `_kiln.DeviceMemory`; a DeviceNDArray is (memory,
byte offset, shape, strides, dtype), so slicing makes views without copies.
"""
import numpy as np

import _kiln

from .streams import stream_handle


def _contiguous_strides(shape, itemsize, order):
    """Byte strides of a contiguous array of `shape` in C or F order."""
    strides = []
    step = itemsize
    dims = reversed(shape) if order == "C" else shape
    for n in dims:
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides)) if order == "C" else tuple(strides)


def _normalize_shape(shape):
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _extent(shape, strides, itemsize):
    """(lowest, highest + 1) byte offsets an array touches, relative to its
    first element; (0, 0) when it is empty."""
    if any(n == 0 for n in shape):
        return 0, 0
    low = sum(s * (n - 1) for n, s in zip(shape, strides) if s < 0)
    high = sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0)
    return low, high + itemsize


class DeviceNDArray:
    """An array in GPU memory. Pass it to kernels to avoid copies; bring it
    back with copy_to_host()."""

    __slots__ = ("_memory", "_offset", "shape", "strides", "dtype", "stream", "_writeback")

    def __init__(self, shape, strides, dtype, memory, offset=0, stream=0, writeback=None):
        self._memory = memory
        self._offset = offset
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = np.dtype(dtype)
        self.stream = stream
        self._writeback = writeback  # the host array to_device() copied, for to_host()

    # -- what NumPy users expect ------------------------------------------
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    def __repr__(self):
        where = "simulated device" if self._memory.simulated else "device"
        return f"<kiln.cuda DeviceNDArray shape={self.shape} dtype={self.dtype} on the {where}>"

    def is_c_contiguous(self):
        return self.strides == _contiguous_strides(self.shape, self.itemsize, "C") or self.size <= 1

    def is_f_contiguous(self):
        return self.strides == _contiguous_strides(self.shape, self.itemsize, "F") or self.size <= 1

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    # -- the device side ----------------------------------------------------
    @property
    def device_pointer(self):
        """The device address of element 0 (what a kernel receives). Raises
        if a context reset after a kernel fault freed the memory."""
        if not self._memory.valid:
            raise _kiln.CudaError(
                "this device array is no longer valid: its memory was freed when Kiln reset the "
                "GPU context after a kernel fault; copy the data to the device again")
        return self._memory.ptr + self._offset

    @property
    def is_valid(self):
        return self._memory.valid

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "strides": None if self.is_c_contiguous() else self.strides,
            "data": (self.device_pointer if self.size else 0, False),
            "typestr": self.dtype.str,
            "descr": self.dtype.descr,
            "stream": None,
            "version": 3,
        }

    # -- views --------------------------------------------------------------
    def _layout_probe(self):
        """A host array with this array's shape, strides and dtype whose data
        is never read: indexing it does the view arithmetic for us."""
        base = np.empty(1, dtype=self.dtype)
        return base, np.lib.stride_tricks.as_strided(base, self.shape, self.strides, writeable=False)

    def _view(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        for k in key:
            if not (k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))):
                raise TypeError(f"device arrays take ints, slices, None and ... as indices, not "
                                f"{type(k).__name__} (copy to the host for fancy indexing)")
        if not any(k is Ellipsis for k in key):
            key = key + (Ellipsis,)  # a view even when every axis gets an int
        base, probe = self._layout_probe()
        view = probe[key]
        shift = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        return DeviceNDArray(view.shape, view.strides, self.dtype, self._memory, self._offset + shift,
                             self.stream)

    def __getitem__(self, key):
        view = self._view(key)
        if view.ndim == 0:  # an element: its value, as Numba gives it
            return view.copy_to_host()[()]
        return view

    def __setitem__(self, key, value):
        view = self._view(key)
        host = view.copy_to_host()
        host[...] = value
        view.copy_to_device(host)

    def reshape(self, *shape, order="C"):
        shape = shape[0] if len(shape) == 1 and not np.isscalar(shape[0]) else shape
        shape = (shape,) if np.isscalar(shape) else tuple(int(n) for n in shape)
        if shape.count(-1) == 1:  # the one dimension NumPy would infer
            known = int(np.prod([n for n in shape if n != -1]))
            shape = tuple(self.size // known if n == -1 and known else n for n in shape)
        shape = _normalize_shape(shape)
        if int(np.prod(shape)) != self.size:
            raise ValueError(f"cannot reshape a device array of size {self.size} into shape {shape}")
        if not (self.is_c_contiguous() if order == "C" else self.is_f_contiguous()):
            raise NotImplementedError("reshape of a non-contiguous device array needs a copy: "
                                      "copy_to_host() first")
        return DeviceNDArray(shape, _contiguous_strides(shape, self.itemsize, order), self.dtype,
                             self._memory, self._offset, self.stream)

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    # -- copies -------------------------------------------------------------
    def _span(self):
        low, high = _extent(self.shape, self.strides, self.itemsize)
        return self._offset + low, high - low, -low

    def copy_to_host(self, ary=None, stream=0):
        """Copies to a new host array, or into `ary` (same shape and dtype).
        An error a kiln.cuda.jit kernel recorded meanwhile is raised here."""
        ary = self._copy_out(ary, stream)
        from .compiler import check_errors   # compiler imports this module
        check_errors()
        return ary

    def _copy_out(self, ary, stream):
        if ary is not None:
            if ary.shape != self.shape or ary.dtype != self.dtype:
                raise ValueError(f"copy_to_host: the array has shape {ary.shape} and dtype {ary.dtype}; "
                                 f"this device array has shape {self.shape} and dtype {self.dtype}")
            if not ary.flags.writeable:
                raise ValueError("copy_to_host: the destination array is read-only")
        start, nbytes, first = self._span()
        if ary is not None and ary.strides == self.strides and (ary.flags.c_contiguous or ary.flags.f_contiguous):
            if nbytes:
                _kiln.cuda_copy("dtoh", self._memory, start, ary.reshape(-1, order="A").view(np.uint8),
                                stream_handle(stream))
            return ary
        raw = np.empty(max(nbytes, self.itemsize), dtype=np.uint8)
        if nbytes:
            _kiln.cuda_copy("dtoh", self._memory, start, raw[:nbytes], stream_handle(stream))
        view = np.ndarray(self.shape, self.dtype, buffer=raw, offset=first, strides=self.strides)
        if ary is None:
            ary = np.empty(self.shape, dtype=self.dtype,
                           order="F" if self.is_f_contiguous() and not self.is_c_contiguous() else "C")
        ary[...] = view
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a host array (or another device array) of the same shape
        into this one."""
        if isinstance(ary, DeviceNDArray):
            if ary.shape != self.shape or ary.dtype != self.dtype:
                raise ValueError(f"copy_to_device: shape/dtype {ary.shape}/{ary.dtype} differ from "
                                 f"{self.shape}/{self.dtype}")
            if ary.strides != self.strides:
                ary = ary.copy_to_host()
            else:
                start, nbytes, _ = self._span()
                src_start, _, _ = ary._span()
                if nbytes:
                    _kiln.cuda_copy_dtod(self._memory, start, ary._memory, src_start, nbytes)
                return
        host = np.asarray(ary)
        if host.dtype != self.dtype:
            raise TypeError(f"copy_to_device: dtype {host.dtype} does not match the device array's "
                            f"{self.dtype}")
        if host.shape != self.shape:
            host = np.broadcast_to(host, self.shape)
        start, nbytes, first = self._span()
        if not nbytes:
            return
        if host.strides == self.strides and (host.flags.c_contiguous or host.flags.f_contiguous):
            _kiln.cuda_copy("htod", self._memory, start, host.reshape(-1, order="A").view(np.uint8),
                            stream_handle(stream))
            return
        # A strided destination: read the bytes it spans, write the
        # elements, send the span back (what is between stays unchanged).
        raw = np.empty(nbytes, dtype=np.uint8)
        _kiln.cuda_copy("dtoh", self._memory, start, raw, stream_handle(stream))
        target = np.ndarray(self.shape, self.dtype, buffer=raw, offset=first, strides=self.strides)
        target[...] = host
        _kiln.cuda_copy("htod", self._memory, start, raw, stream_handle(stream))

    def to_host(self, stream=0):
        """Copies back into the host array this one was made from with
        to_device() (older Numba code, e.g. `d_image.to_host()`)."""
        if self._writeback is None:
            raise ValueError("to_host() needs the host array this device array was copied from; it was made "
                             "without one, so use copy_to_host()")
        self.copy_to_host(self._writeback, stream=stream)

    def copy_to_host_async(self, stream):
        return self.copy_to_host(stream=stream)

    def __array__(self, dtype=None, copy=None):
        host = self.copy_to_host()
        return host if dtype is None else host.astype(dtype)


def _allocate(shape, dtype, strides, order, stream):
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    low, high = _extent(shape, strides, dtype.itemsize)
    memory = _kiln.cuda_alloc(high - low)
    return DeviceNDArray(shape, strides, dtype, memory, -low, stream)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialized array on the device (like np.empty)."""
    return _allocate(shape, dtype, strides, order, stream)


def _host_order(ary):
    return "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"


def device_array_like(ary, stream=0):
    """An uninitialized device array with the shape, dtype and (contiguous)
    layout of `ary`."""
    order = _host_order(ary) if isinstance(ary, np.ndarray) else (
        "F" if ary.is_f_contiguous() and not ary.is_c_contiguous() else "C")
    return device_array(ary.shape, ary.dtype, order=order, stream=stream)


def to_device(obj, stream=0, copy=True, to=None):
    """Copies a host array to the device; returns the DeviceNDArray. A
    device array is returned as it is. With `to=`, copies into that one."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    host = original = np.asarray(obj)
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        host = np.ascontiguousarray(host)
    device = _allocate(host.shape, host.dtype, None, _host_order(host), stream)
    if copy:
        device.copy_to_device(host, stream=stream)
    if isinstance(obj, np.ndarray) and obj.flags.writeable:
        device._writeback = original
    return device


def is_cuda_array(obj):
    return hasattr(obj, "__cuda_array_interface__")


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A host array in page-locked memory: faster copies, and asynchronous
    ones on streams (plain host memory in simulator mode)."""
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    low, high = _extent(shape, strides, dtype.itemsize)
    buffer = np.frombuffer(_kiln.cuda_pinned_alloc(high - low), dtype=np.uint8)
    return np.ndarray(shape, dtype, buffer=buffer, offset=-low, strides=strides)


def pinned_array_like(ary):
    return pinned_array(ary.shape, ary.dtype, order=_host_order(ary))
