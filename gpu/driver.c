/* The CUDA Driver API through dlopen, the process's context, and recovery
 * after a kernel fault. See gpu/driver.h. */
#include "gpu/driver.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kg_driver_api kg_cu;

/* The GIL protects all of this (see driver.h). */
static kg_mode mode = KG_MODE_UNDECIDED;
static char why_simulator[256];
static CUdevice device;
static CUcontext context;          /* retained primary context, NULL before first use */
static uint64_t generation = 1;    /* bumped by every reset */
static char last_kernel[128];
/* Set when a kernel fault lost the context: what happened, for every later
 * call that finds the GPU still unusable. Cleared if a new context works. */
static char lost_reason[512];

int kg_error_set(kg_error *err, kg_error_kind kind, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err->kind = kind;
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* One entry point: its symbol and where it goes in kg_cu. */
typedef struct {
    const char *symbol;
    void **slot;
} entry;

#define ENTRY(field, symbol) {symbol, (void **)&kg_cu.field}

static int load_table(void *lib) {
    const entry entries[] = {
        ENTRY(Init, "cuInit"),
        ENTRY(DriverGetVersion, "cuDriverGetVersion"),
        ENTRY(GetErrorName, "cuGetErrorName"),
        ENTRY(GetErrorString, "cuGetErrorString"),
        ENTRY(DeviceGetCount, "cuDeviceGetCount"),
        ENTRY(DeviceGet, "cuDeviceGet"),
        ENTRY(DeviceGetName, "cuDeviceGetName"),
        ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute"),
        ENTRY(DeviceTotalMem, "cuDeviceTotalMem_v2"),
        ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        ENTRY(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
        ENTRY(DevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2"),
        ENTRY(CtxSetCurrent, "cuCtxSetCurrent"),
        ENTRY(CtxSynchronize, "cuCtxSynchronize"),
        ENTRY(MemGetInfo, "cuMemGetInfo_v2"),
        ENTRY(MemAlloc, "cuMemAlloc_v2"),
        ENTRY(MemFree, "cuMemFree_v2"),
        ENTRY(MemHostAlloc, "cuMemHostAlloc"),
        ENTRY(MemFreeHost, "cuMemFreeHost"),
        ENTRY(MemcpyHtoD, "cuMemcpyHtoD_v2"),
        ENTRY(MemcpyDtoH, "cuMemcpyDtoH_v2"),
        ENTRY(MemcpyDtoD, "cuMemcpyDtoD_v2"),
        ENTRY(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
        ENTRY(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
        ENTRY(MemsetD8, "cuMemsetD8_v2"),
        ENTRY(ModuleLoadDataEx, "cuModuleLoadDataEx"),
        ENTRY(ModuleUnload, "cuModuleUnload"),
        ENTRY(ModuleGetFunction, "cuModuleGetFunction"),
        ENTRY(FuncGetAttribute, "cuFuncGetAttribute"),
        ENTRY(LaunchKernel, "cuLaunchKernel"),
        ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
        ENTRY(StreamCreate, "cuStreamCreate"),
        ENTRY(StreamDestroy, "cuStreamDestroy_v2"),
        ENTRY(StreamSynchronize, "cuStreamSynchronize"),
        ENTRY(EventCreate, "cuEventCreate"),
        ENTRY(EventDestroy, "cuEventDestroy_v2"),
        ENTRY(EventRecord, "cuEventRecord"),
        ENTRY(EventSynchronize, "cuEventSynchronize"),
        ENTRY(EventQuery, "cuEventQuery"),
        ENTRY(EventElapsedTime, "cuEventElapsedTime"),
    };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        *entries[i].slot = dlsym(lib, entries[i].symbol);
        if (!*entries[i].slot) {
            snprintf(why_simulator, sizeof why_simulator, "libcuda.so.1 lacks %s (driver too old)",
                     entries[i].symbol);
            return -1;
        }
    }
    return 0;
}

static kg_mode decide_mode(void) {
    const char *forced = getenv("KILN_CUDA_SIMULATOR");
    if (forced && strcmp(forced, "") != 0 && strcmp(forced, "0") != 0) {
        snprintf(why_simulator, sizeof why_simulator, "KILN_CUDA_SIMULATOR=%s", forced);
        return KG_MODE_SIMULATOR;
    }
    /* Kept open for the life of the process: the table points into it. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why_simulator, sizeof why_simulator, "no CUDA driver (libcuda.so.1: %s)", dlerror());
        return KG_MODE_SIMULATOR;
    }
    if (load_table(lib) < 0) {
        dlclose(lib);
        return KG_MODE_SIMULATOR;
    }
    CUresult r = kg_cu.Init(0);
    int count = 0;
    if (r == CUDA_SUCCESS)
        r = kg_cu.DeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        const char *name = NULL;
        if (r == CUDA_SUCCESS || kg_cu.GetErrorName(r, &name) != CUDA_SUCCESS)
            name = "no device";
        snprintf(why_simulator, sizeof why_simulator, "CUDA driver found but no usable GPU (%s)", name);
        return KG_MODE_SIMULATOR;
    }
    if (kg_cu.DeviceGet(&device, 0) != CUDA_SUCCESS) {
        snprintf(why_simulator, sizeof why_simulator, "cuDeviceGet(0) failed");
        return KG_MODE_SIMULATOR;
    }
    return KG_MODE_GPU;
}

kg_mode kg_driver_mode(void) {
    if (mode == KG_MODE_UNDECIDED)
        mode = decide_mode();
    return mode;
}

const char *kg_driver_why_simulator(void) {
    return kg_driver_mode() == KG_MODE_SIMULATOR ? why_simulator : "";
}

int kg_context_ensure(kg_error *err) {
    if (kg_driver_mode() != KG_MODE_GPU)
        return kg_error_set(err, KG_ERR_NO_GPU, 0, "no GPU: %s", why_simulator);
    CUresult r;
    if (!context) {
        r = kg_cu.DevicePrimaryCtxRetain(&context, device);
        if (r != CUDA_SUCCESS) {
            context = NULL;
            return kg_driver_fail(r, "cuDevicePrimaryCtxRetain", err);
        }
        lost_reason[0] = '\0';
    }
    /* Cheap, and another library in the process may have made its own
     * context current since the last call. */
    r = kg_cu.CtxSetCurrent(context);
    if (r != CUDA_SUCCESS)
        return kg_driver_fail(r, "cuCtxSetCurrent", err);
    return 0;
}

uint64_t kg_context_generation(void) {
    return generation;
}

void kg_context_note_launch(const char *name) {
    snprintf(last_kernel, sizeof last_kernel, "%s", name);
}

int kg_device_attribute(int attribute) {
    int value = -1;
    if (kg_driver_mode() != KG_MODE_GPU || kg_cu.DeviceGetAttribute(&value, attribute, device) != CUDA_SUCCESS)
        return -1;
    return value;
}

/* Errors after which the context cannot be used again (cuda.h: "the
 * process must be terminated and relaunched", or, for the primary context,
 * the context reset). */
static int is_sticky(CUresult r) {
    switch (r) {
    case 214:  /* ECC_UNCORRECTABLE */
    case 700:  /* ILLEGAL_ADDRESS */
    case 702:  /* LAUNCH_TIMEOUT */
    case 710:  /* ASSERT */
    case 714:  /* HARDWARE_STACK_ERROR */
    case 715:  /* ILLEGAL_INSTRUCTION */
    case 716:  /* MISALIGNED_ADDRESS */
    case 717:  /* INVALID_ADDRESS_SPACE */
    case 718:  /* INVALID_PC */
    case 719:  /* LAUNCH_FAILED */
        return 1;
    default:
        return 0;
    }
}

/* Throws away the faulted primary context: every allocation, module and
 * stream in it is gone, which the generation bump makes visible to their
 * Python owners. The next kg_context_ensure tries to retain a fresh one.
 * Seen on an H100 with driver 580: that retain fails with the same sticky
 * error whatever the order of release/reset/set-current, so in practice
 * the process keeps running and every GPU call says to restart. Our retain
 * is not released: after a reset the driver ignores releases. */
static void context_reset(void) {
    kg_cu.CtxSetCurrent(NULL);
    kg_cu.DevicePrimaryCtxReset(device);
    context = NULL;
    generation++;
}

int kg_driver_fail(CUresult r, const char *what, kg_error *err) {
    const char *name = NULL, *text = NULL;
    /* The table is only complete in GPU mode. */
    if (!kg_cu.GetErrorName || kg_cu.GetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "CUDA_ERROR_UNKNOWN";
    if (!kg_cu.GetErrorString || kg_cu.GetErrorString(r, &text) != CUDA_SUCCESS || !text)
        text = "unknown error";
    if (!is_sticky(r)) {
        kg_error_kind kind = r == CUDA_ERROR_OUT_OF_MEMORY ? KG_ERR_OUT_OF_MEMORY : KG_ERR_DRIVER;
        return kg_error_set(err, kind, r, "%s: %s: %s", what, name, text);
    }
    if (lost_reason[0])
        return kg_error_set(err, KG_ERR_FAULT, r,
                            "the GPU cannot be used in this process any more: %s. The CUDA driver "
                            "does not let a process recover from such a fault; restart the kernel "
                            "(or the Python process) to use the GPU again. Code on the CPU keeps "
                            "working.", lost_reason);
    snprintf(lost_reason, sizeof lost_reason, "kernel '%s' faulted with %s (%s)",
             last_kernel[0] ? last_kernel : "(none launched)", name, text);
    kg_error_set(err, KG_ERR_FAULT, r,
                 "%s, reported by %s. Kiln reset the GPU context: device arrays, streams and "
                 "events made before this are no longer valid.", lost_reason, what);
    context_reset();
    return -1;
}
