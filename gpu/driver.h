/* gpu/driver: the CUDA Driver API, loaded with dlopen("libcuda.so.1") so that
 * Kiln builds and runs without CUDA. Declares only the handful of types and
 * entry points Kiln uses (values from NVIDIA's cuda.h, driver API 12+), keeps
 * the process's one context (the device's primary context) and recovers it
 * after a sticky fault.
 *
 * Thread safety: every function here is called with the GIL held; the GIL
 * protects the driver table and the context state. */
#ifndef KILN_GPU_DRIVER_H
#define KILN_GPU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_READY = 600,
};

/* Device attributes (CUdevice_attribute). */
enum {
    KG_ATTR_MAX_THREADS_PER_BLOCK = 1,
    KG_ATTR_MAX_BLOCK_DIM_X = 2,
    KG_ATTR_MAX_GRID_DIM_X = 5,
    KG_ATTR_MAX_SHARED_PER_BLOCK = 8,
    KG_ATTR_WARP_SIZE = 10,
    KG_ATTR_MULTIPROCESSOR_COUNT = 16,
    KG_ATTR_PCI_BUS_ID = 33,
    KG_ATTR_MAX_THREADS_PER_SM = 39,
    KG_ATTR_CC_MAJOR = 75,
    KG_ATTR_CC_MINOR = 76,
    KG_ATTR_MAX_SHARED_PER_SM = 81,
    KG_ATTR_MAX_REGISTERS_PER_SM = 82,
    KG_ATTR_MAX_BLOCKS_PER_SM = 106,
};

/* Function attributes (CUfunction_attribute). */
enum {
    KG_FUNC_MAX_THREADS_PER_BLOCK = 0,
    KG_FUNC_SHARED_SIZE_BYTES = 1,
    KG_FUNC_CONST_SIZE_BYTES = 2,
    KG_FUNC_LOCAL_SIZE_BYTES = 3,
    KG_FUNC_NUM_REGS = 4,
};

/* JIT options for cuModuleLoadDataEx (CUjit_option). */
enum {
    KG_JIT_INFO_LOG_BUFFER = 3,
    KG_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    KG_JIT_ERROR_LOG_BUFFER = 5,
    KG_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The entry points, filled by kg_driver_load(). Names carry the _v2 suffix
 * where the driver exports one, as cuda.h's macros would pick. */
typedef struct {
    CUresult (*Init)(unsigned int flags);
    CUresult (*DriverGetVersion)(int *version);
    CUresult (*GetErrorName)(CUresult error, const char **name);
    CUresult (*GetErrorString)(CUresult error, const char **text);
    CUresult (*DeviceGetCount)(int *count);
    CUresult (*DeviceGet)(CUdevice *device, int ordinal);
    CUresult (*DeviceGetName)(char *name, int len, CUdevice device);
    CUresult (*DeviceGetAttribute)(int *value, int attribute, CUdevice device);
    CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice device);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice device);
    CUresult (*DevicePrimaryCtxReset)(CUdevice device);
    CUresult (*CtxSetCurrent)(CUcontext ctx);
    CUresult (*CtxSynchronize)(void);
    CUresult (*MemGetInfo)(size_t *free_bytes, size_t *total_bytes);
    CUresult (*MemAlloc)(CUdeviceptr *ptr, size_t bytes);
    CUresult (*MemFree)(CUdeviceptr ptr);
    CUresult (*MemHostAlloc)(void **ptr, size_t bytes, unsigned int flags);
    CUresult (*MemFreeHost)(void *ptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*MemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream);
    CUresult (*MemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes, CUstream stream);
    CUresult (*MemsetD8)(CUdeviceptr dst, unsigned char value, size_t bytes);
    CUresult (*ModuleLoadDataEx)(CUmodule *module, const void *image, unsigned int n_options,
                                 int *options, void **values);
    CUresult (*ModuleUnload)(CUmodule module);
    CUresult (*ModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
    CUresult (*FuncGetAttribute)(int *value, int attribute, CUfunction function);
    CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream,
                             void **params, void **extra);
    CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction f, int block_size,
                                                          size_t dynamic_shared);
    CUresult (*StreamCreate)(CUstream *stream, unsigned int flags);
    CUresult (*StreamDestroy)(CUstream stream);
    CUresult (*StreamSynchronize)(CUstream stream);
    CUresult (*EventCreate)(CUevent *event, unsigned int flags);
    CUresult (*EventDestroy)(CUevent event);
    CUresult (*EventRecord)(CUevent event, CUstream stream);
    CUresult (*EventSynchronize)(CUevent event);
    CUresult (*EventQuery)(CUevent event);
    CUresult (*EventElapsedTime)(float *ms, CUevent start, CUevent end);
} kg_driver_api;

extern kg_driver_api kg_cu;

/* What the process runs kernels on; decided once, on first use. */
typedef enum {
    KG_MODE_UNDECIDED,
    KG_MODE_GPU,        /* libcuda loaded, cuInit succeeded, a device exists */
    KG_MODE_SIMULATOR,  /* no usable GPU, or KILN_CUDA_SIMULATOR=1 */
} kg_mode;

/* The mode, deciding it on the first call (loads libcuda and calls cuInit
 * unless KILN_CUDA_SIMULATOR=1). Never fails: any failure means simulator;
 * kg_driver_why_simulator() then says why. */
kg_mode kg_driver_mode(void);
const char *kg_driver_why_simulator(void);

/* Makes the primary context of the current device current, retaining it on
 * first use. Returns 0, or -1 with err filled. Only valid in GPU mode. */
int kg_context_ensure(kg_error *err);

/* Context generation: increases each time the context is reset after a
 * fault. Device memory, modules and streams remember the generation they
 * were made in; a different one means they died with the old context. */
uint64_t kg_context_generation(void);

/* Remembers the kernel launched last, so that a fault reported later by an
 * unrelated call can name it. name is copied. */
void kg_context_note_launch(const char *name);

/* Turns a failed driver call into an error record: "<what>: CUDA_ERROR_X:
 * text". If r is a sticky error (the context is lost), err->kind is
 * KG_ERR_FAULT, the message names the kernel launched last, and the context
 * is reset; if the driver will not give a new one, later calls fail with a
 * message that says to restart the process. Always returns -1. */
int kg_driver_fail(CUresult r, const char *what, kg_error *err);

/* Integer attribute of the current device; -1 if it cannot be read. */
int kg_device_attribute(int attribute);

#endif
