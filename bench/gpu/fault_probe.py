"""Can a process use the GPU again after a sticky fault? Ways gpu/driver.c
has not tried (it resets the primary context in six orders): a new,
non-primary context made with cuCtxCreate, before and after the primary
context's reset. Straight on libcuda through ctypes, so that nothing of
Kiln's stands between; run on the GPU machine by hand:
    python3 bench/gpu/fault_probe.py
Each step prints the CUresult codes (0 success, 700 illegal address)."""
import ctypes

PTX = b"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry wild() {
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 8;
  st.global.u32 [%rd1], 1;
  ret;
}
.visible .entry ok() { ret; }
"""

cu = ctypes.CDLL("libcuda.so.1")
cu.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3


def run_kernel(name):
    """(load, launch, synchronize) results for one kernel of PTX."""
    module, fn = ctypes.c_void_p(), ctypes.c_void_p()
    load = cu.cuModuleLoadData(ctypes.byref(module), PTX)
    if load:
        return load, None, None
    cu.cuModuleGetFunction(ctypes.byref(fn), module, name)
    return load, cu.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, None, None, None), cu.cuCtxSynchronize()


def usable(tag):
    pointer = ctypes.c_uint64()
    alloc = cu.cuMemAlloc_v2(ctypes.byref(pointer), 1 << 20)
    print(f"{tag}: alloc {alloc}, ok kernel (load, launch, sync) {run_kernel(b'ok')}", flush=True)


def new_context(device):
    ctx = ctypes.c_void_p()
    r = cu.cuCtxCreate_v2(ctypes.byref(ctx), 0, device)
    set_current = cu.cuCtxSetCurrent(ctx) if r == 0 else None
    print(f"  cuCtxCreate {r}, set current {set_current}", flush=True)
    return ctx


print("cuInit", cu.cuInit(0))
device = ctypes.c_int()
cu.cuDeviceGet(ctypes.byref(device), 0)
primary = ctypes.c_void_p()
print("retain primary", cu.cuDevicePrimaryCtxRetain(ctypes.byref(primary), device), "set current",
      cu.cuCtxSetCurrent(primary))
usable("before the fault")
print("wild kernel (load, launch, sync)", run_kernel(b"wild"))
usable("primary context after the fault")

print("1. a new context beside the faulted primary one")
first = new_context(device)
usable("   new context")
print("2. the primary context reset, then a new context")
cu.cuCtxSetCurrent(None)
print("  reset", cu.cuDevicePrimaryCtxReset_v2(device))
cu.cuCtxDestroy_v2(first)
new_context(device)
usable("   new context after reset")
print("3. cuInit again, then the primary context retained anew")
print("  cuInit", cu.cuInit(0), "retain", cu.cuDevicePrimaryCtxRetain(ctypes.byref(primary), device),
      "set current", cu.cuCtxSetCurrent(primary))
usable("   retained again")
