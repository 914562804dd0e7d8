"""The names kernels use inside kiln.cuda.jit code: cuda.threadIdx.x,
cuda.grid(1), cuda.shared.array(...), cuda.atomic.add(...), ...

They are markers, not working Python: each carries `_kiln_builtin`, the
name the compiler knows it by (gpu/intrinsics.c reads it while it resolves
globals). A name beginning "module:" is a namespace whose attributes are
read at compile time (cuda.shared), "value:" a value read without a call
(cuda.threadIdx.x), anything else a function. Called from plain Python they
say that they only work inside a kernel."""


class _Intrinsic:
    __slots__ = ("_kiln_builtin",)

    def __init__(self, name):
        self._kiln_builtin = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self._kiln_builtin.split(':')[-1]} can only be used inside a "
                           "kiln.cuda.jit kernel or device function")

    def __repr__(self):
        return f"<kiln {self._kiln_builtin.split(':')[-1]}>"


class _Dim3(_Intrinsic):
    """threadIdx, blockIdx, blockDim, gridDim: .x .y .z inside kernels."""
    __slots__ = ("x", "y", "z")

    def __init__(self, name):
        super().__init__("module:" + name)
        self.x, self.y, self.z = (_Intrinsic(f"value:{name}.{c}") for c in "xyz")


class _Namespace(_Intrinsic):
    def __init__(self, name, functions):
        super().__init__("module:" + name)
        for f in functions:
            object.__setattr__(self, f, _Intrinsic(f"{name}.{f}"))

    __slots__ = ("array", "add", "sub", "max", "min", "exch", "cas", "compare_and_swap")


threadIdx = _Dim3("cuda.threadIdx")
blockIdx = _Dim3("cuda.blockIdx")
blockDim = _Dim3("cuda.blockDim")
gridDim = _Dim3("cuda.gridDim")
warpsize = _Intrinsic("value:cuda.warpsize")
grid = _Intrinsic("cuda.grid")
gridsize = _Intrinsic("cuda.gridsize")
syncthreads = _Intrinsic("cuda.syncthreads")
shared = _Namespace("cuda.shared", ["array"])
local = _Namespace("cuda.local", ["array"])
atomic = _Namespace("cuda.atomic", ["add", "sub", "max", "min", "exch", "cas", "compare_and_swap"])

__all__ = ["threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize", "grid", "gridsize",
           "syncthreads", "shared", "local", "atomic"]
