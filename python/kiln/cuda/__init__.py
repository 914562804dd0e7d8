"""kiln.cuda: Kiln's CUDA target, with Numba's names (`from kiln import cuda`).

Importing never fails for want of a GPU: without libcuda.so.1 or a device,
or with KILN_CUDA_SIMULATOR=1, is_available() is False and device arrays live
in host memory, where Kiln's CUDA simulator runs kernels.
"""
import collections

import _kiln

from . import random, report  # kiln.cuda.random as numba.cuda.random; footer summaries
from .devicearray import (DeviceNDArray, device_array, device_array_like, is_cuda_array, pinned_array,
                          pinned_array_like, to_device)
from .driver import RawKernel, compile_ptx_from_ir
from .compiler import CUDAKernel, check_errors, jit
from .intrinsics import (atomic, blockDim, blockIdx, grid, gridDim, gridsize, local, shared, syncthreads,
                         threadIdx, warpsize)
from .streams import Event, Stream, auto_synchronize, default_stream, event, event_elapsed_time, stream

__all__ = [
    "random", "report", "DeviceNDArray", "device_array", "device_array_like", "is_cuda_array", "pinned_array",
    "pinned_array_like", "to_device", "RawKernel", "compile_ptx_from_ir", "Event", "Stream",
    "auto_synchronize", "default_stream", "event", "event_elapsed_time", "stream", "CudaError",
    "CudaMemoryError", "CudaFaultError", "CudaSupportError", "CudaCompileError", "is_available",
    "is_simulator", "simulator_reason", "synchronize", "Device", "gpus", "get_current_device",
    "memory_info", "MemoryInfo", "Context", "current_context", "select_device", "detect", "take_records",
    "set_profiling", "jit", "CUDAKernel", "check_errors", "atomic", "blockDim", "blockIdx", "grid", "gridDim",
    "gridsize", "local", "shared", "syncthreads", "threadIdx", "warpsize",
]

CudaError = _kiln.CudaError
CudaMemoryError = _kiln.CudaMemoryError
CudaFaultError = _kiln.CudaFaultError
CudaSupportError = _kiln.CudaSupportError
CudaCompileError = _kiln.CudaCompileError


def is_available():
    """True when a CUDA GPU is usable (and the simulator is not forced)."""
    return _kiln.cuda_mode() == "gpu"


def is_simulator():
    """True when kernels run on Kiln's CUDA simulator (no usable GPU, or
    KILN_CUDA_SIMULATOR=1)."""
    return _kiln.cuda_mode() == "simulator"


def simulator_reason():
    """Why the simulator runs ('' on a GPU)."""
    return _kiln.cuda_why_simulator()


def synchronize():
    """Waits until every kernel and copy queued on the GPU has finished."""
    _kiln.cuda_synchronize()
    check_errors()   # an IndexError a kernel recorded on the GPU surfaces here


class Device:
    """One GPU, with the properties the driver reports."""

    def __init__(self, properties):
        self._properties = properties
        self.id = properties["id"]
        self.name = properties["name"]
        self.compute_capability = properties["compute_capability"]

    def __getattr__(self, name):
        try:
            return self._properties[name.lower()]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def MULTIPROCESSOR_COUNT(self):
        return self._properties["multiprocessors"]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        major, minor = self.compute_capability
        return f"<kiln.cuda Device {self.id} '{self.name}' sm_{major}{minor}>"


class _GPUs:
    """cuda.gpus: the list of devices (empty in simulator mode)."""

    def _devices(self):
        return [Device(p) for p in _kiln.cuda_devices()]

    def __len__(self):
        return len(self._devices())

    def __getitem__(self, index):
        return self._devices()[index]

    def __iter__(self):
        return iter(self._devices())

    def __repr__(self):
        return repr(self._devices())


gpus = _GPUs()


def get_current_device():
    devices = gpus._devices()
    if not devices:
        raise CudaSupportError(f"no GPU: {simulator_reason()}")
    return devices[0]


def memory_info():
    """(free, total) bytes of GPU memory."""
    return MemoryInfo(*_kiln.cuda_mem_info())


MemoryInfo = collections.namedtuple("MemoryInfo", "free total")


class Context:
    """cuda.current_context(): the process's GPU context, as far as Numba
    code asks about it."""

    def get_memory_info(self):
        return memory_info()

    def synchronize(self):
        synchronize()

    @property
    def device(self):
        return get_current_device()


def current_context():
    if not is_available():
        raise CudaSupportError(f"no GPU: {simulator_reason()}")
    return Context()


def select_device(device_id):
    """Kiln uses the first GPU; selecting it is accepted, others are not."""
    if device_id != 0 or not is_available():
        raise CudaSupportError(f"Kiln runs on GPU 0 only; there is no GPU {device_id} to select"
                               + ("" if is_available() else f" ({simulator_reason()})"))
    return get_current_device()


def detect():
    """Prints the GPUs found and returns True if there is a usable one, as
    numba.cuda.detect() does; in simulator mode says why."""
    devices = gpus._devices()
    if not devices:
        print(f"No CUDA GPU: {simulator_reason()}. Kiln runs CUDA kernels on its simulator.")
        return False
    print(f"Found {len(devices)} CUDA device{'s' if len(devices) > 1 else ''}")
    for d in devices:
        major, minor = d.compute_capability
        print(f"id {d.id} {d.name!r:>30} [SUPPORTED]")
        print(f"{'Compute Capability:':>40} {major}.{minor}")
        print(f"{'PCI Bus ID:':>40} {d.pci_bus_id}")
        print(f"{'Multiprocessors:':>40} {d.multiprocessors}")
        print(f"{'Memory:':>40} {d.total_memory / 2**30:.1f} GiB")
    print(f"Summary:\n\t{len(devices)}/{len(devices)} devices are supported")
    return True


def take_records():
    """The launches and host-device transfers since the last call, for the
    profiler: {'launches': [...], 'transfers': [...], ...}. Reading kernel
    times waits for those kernels to finish."""
    return _kiln.cuda_take_records()


def set_profiling(enabled):
    """Turns the per-launch/per-transfer records on or off; returns the
    previous setting. Off saves two event records per launch."""
    return _kiln.cuda_set_profiling(enabled)
