"""Kernels from PTX, launched through Kiln's CUDA driver layer, with Numba's
launch syntax: kernel[griddim, blockdim, stream, sharedmem](*args).

compile_ptx_from_ir turns LLVM IR (a kernel hand-written in IR, or what
kiln.cuda.jit lowers) into PTX; RawKernel loads it and launches it. Host
NumPy arrays passed to a launch are copied in and back around it, as Numba
does (and the transfer records say so); device arrays pass as they are.
"""
import weakref

import numpy as np

import _kiln

from .devicearray import DeviceNDArray, to_device
from .streams import stream_handle


def compile_ptx_from_ir(ir, kernels, link=(), cc=None, opt=3, fastmath=False):
    """PTX text for the functions named in `kernels` of the LLVM IR `ir`.
    `link` adds more IR modules (e.g. _kiln.cuda_xoroshiro_ir()); cc is the
    compute capability as (major, minor) or an int like 90 (default: the
    GPU's, else sm_90). libdevice is linked when __nv_* math is called."""
    if isinstance(kernels, str):
        kernels = [kernels]
    if isinstance(cc, tuple):
        cc = cc[0] * 10 + cc[1]
    return _kiln.cuda_ptx_from_ir(ir, list(kernels), list(link), cc or 0, opt, fastmath)


def libdevice_path():
    return _kiln.cuda_libdevice_path()


# The kernels loaded in this process by name, for reports that want a
# launched kernel's PTX (kiln.cuda.report.cell_summary).
loaded_kernels = weakref.WeakValueDictionary()


def _dim(value, what):
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (tuple, list)) and 1 <= len(value) <= 3:
        return tuple(int(v) for v in value)
    raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints, not {value!r}")


class LaunchConfig:
    """kernel[griddim, blockdim(, stream(, sharedmem))] -> a callable that
    launches with those settings."""

    __slots__ = ("kernel", "grid", "block", "stream", "sharedmem")

    def __init__(self, kernel, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("launch configuration must be [griddim, blockdim] with optional stream "
                             f"and dynamic shared memory bytes, not {config!r}")
        self.kernel = kernel
        self.grid = _dim(config[0], "griddim")
        self.block = _dim(config[1], "blockdim")
        self.stream = stream_handle(config[2] if len(config) > 2 else 0)
        self.sharedmem = int(config[3]) if len(config) > 3 else 0

    def __call__(self, *args):
        return self.kernel.launch(self.grid, self.block, args, self.stream, self.sharedmem)


def prepare_args(args, stream):
    """Kernel arguments as the driver takes them: host arrays are copied to
    the device. Returns (args, [(host, device) to copy back])."""
    prepared, copy_back = [], []
    for arg in args:
        if isinstance(arg, np.ndarray) and arg.ndim > 0:
            device = to_device(arg, stream=stream or 0)
            prepared.append(device)
            if arg.flags.writeable:
                copy_back.append((arg, device))
        else:
            prepared.append(arg)
    return tuple(prepared), copy_back


class RawKernel:
    """A kernel from PTX text: RawKernel(ptx, name)[grid, block](*args).
    Arguments: device arrays (their address), host arrays (copied in and
    back), Python ints (int64), floats (float64), NumPy scalars (their own
    type)."""

    def __init__(self, ptx, name):
        self.module = _kiln.CudaModule(ptx)
        self.function = self.module.get_function(name)
        self.name = name
        self.ptx = ptx
        loaded_kernels[name] = self

    def __getitem__(self, config):
        return LaunchConfig(self, config)

    def launch(self, grid, block, args, stream=None, sharedmem=0):
        for arg in args:
            if isinstance(arg, np.ndarray):
                break
        else:  # device arrays and scalars only: nothing to copy
            return self.function.launch(grid, block, args, sharedmem, stream)
        prepared, copy_back = prepare_args(args, stream)
        self.function.launch(grid, block, prepared, sharedmem, stream)
        for host, device in copy_back:
            device.copy_to_host(host, stream=stream or 0)

    def inspect_ptx(self):
        return self.ptx

    @property
    def registers(self):
        return self.function.registers

    @property
    def local_bytes(self):
        return self.function.local_bytes

    @property
    def shared_bytes(self):
        return self.function.shared_bytes

    def occupancy(self, block_size, shared_bytes=0):
        return self.function.occupancy(block_size, shared_bytes)


__all__ = ["compile_ptx_from_ir", "libdevice_path", "LaunchConfig", "RawKernel", "prepare_args",
           "DeviceNDArray"]
