/* gpu: the CUDA target (NVPTX lowering hooks, libdevice, the Driver API
 * loaded with dlopen, device arrays, launches, events) and the CPU simulator.
 * Public names are prefixed kg_.
 *
 * What the compiler (jit/) uses from here: kg_ptx_* turns an LLVM module of
 * kernels into PTX text; kg_xoroshiro_ir() gives the device-side random
 * number functions as LLVM IR to link into such a module. */
#ifndef KILN_GPU_H
#define KILN_GPU_H

#include <Python.h>
#include <stdint.h>

/* LLVMModuleRef and LLVMValueRef, spelled so that this header needs no LLVM
 * include path (python/_kiln.c includes it without one). */
struct LLVMOpaqueModule;
struct LLVMOpaqueValue;

/* The most parts a kiln.cuda.jit kernel's arguments flatten into (GPU
 * parameters after the error slot, simulator words; gpu/cuda_compile.c):
 * KJ_SPEC_MAX_ARGS (32) arguments of up to 17 parts (an 8-d array). A
 * launch takes as many, so what runs on the simulator launches on a GPU. */
#define KG_MAX_FLAT 544

/* Errors are values: a failing kg_ function returns -1 and fills one of
 * these. The message is complete and meant for the user. */
typedef enum {
    KG_ERR_NONE,
    KG_ERR_INVALID,        /* bad input from the caller */
    KG_ERR_NO_GPU,         /* the operation needs a GPU and there is none */
    KG_ERR_DRIVER,         /* a CUDA driver call failed */
    KG_ERR_OUT_OF_MEMORY,  /* a device or pinned allocation did not fit */
    KG_ERR_FAULT,          /* a kernel faulted; the context was reset */
    KG_ERR_STALE,          /* an object made before a context reset was used */
    KG_ERR_LLVM,           /* IR did not verify, or NVPTX code generation failed */
    KG_ERR_LIBDEVICE,      /* libdevice.10.bc is needed and was not found */
    KG_ERR_UNDEFINED,      /* a simulated kernel did what CUDA leaves undefined (threads of a
                              block at different barriers) */
} kg_error_kind;

typedef struct {
    kg_error_kind kind;
    int code;              /* the driver's CUresult where there is one, else 0 */
    char message[1024];
} kg_error;

/* Fills err (printf-style message) and returns -1. */
int kg_error_set(kg_error *err, kg_error_kind kind, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Raises the Python exception that matches err (kiln.cuda.CudaError or one
 * of its subclasses). Returns NULL, for `return kg_raise(&err);`. */
PyObject *kg_raise(const kg_error *err);

/* ---- PTX from LLVM (gpu/ptx.c) ---------------------------------------- */

typedef struct {
    int compute_capability;  /* e.g. 90 for sm_90; 0 picks the device's, else 90 */
    int opt_level;           /* 0..3 */
    int fast_math;           /* nonzero: flush denormals (nvvm-reflect-ftz) */
    /* NULL, or where the nanoseconds of the pipeline (libdevice's link
     * with it) and of the PTX emission go: the compile's optimize and
     * codegen phases */
    uint64_t *optimize_ns, *codegen_ns;
} kg_ptx_options;

/* Marks fn as a kernel entry point (an .entry in the PTX). */
void kg_ptx_mark_kernel(struct LLVMOpaqueModule *module, struct LLVMOpaqueValue *fn);

/* Compiles module to PTX text for nvptx64-nvidia-cuda. Links libdevice when
 * the module calls a __nv_* function, internalizes everything but kernels,
 * runs NVVM reflect and the O-level pipeline. The module is changed in place
 * (it stays owned by the caller). On success *ptx is malloc'ed text the
 * caller frees. Returns 0, or -1 with err filled. */
int kg_ptx_from_module(struct LLVMOpaqueModule *module, const kg_ptx_options *options, char **ptx,
                       kg_error *err);

/* The libdevice.10.bc that will be linked: $KILN_LIBDEVICE, then
 * $CUDA_HOME, $CUDA_PATH or /usr/local/cuda + nvvm/libdevice, or next to the
 * nvcc on PATH. NULL if none. */
const char *kg_libdevice_path(void);

/* Links into module the libdevice functions it declares (__nv_sin, ...)
 * and what they call, nothing more. Returns 0, or -1 with err filled
 * (KG_ERR_LIBDEVICE: none found, or a function libdevice lacks). */
int kg_libdevice_link(struct LLVMOpaqueModule *module, kg_error *err);

/* ---- Random numbers (gpu/xoroshiro.c) ---------------------------------- */

/* LLVM IR text defining the device-side xoroshiro128+ functions, for a
 * states array of {i64 s0, i64 s1} records (Numba's layout):
 *   i64    @kiln_xoroshiro128p_next(ptr states, i64 index)
 *   double @kiln_xoroshiro128p_uniform_float64(ptr states, i64 index)
 *   float  @kiln_xoroshiro128p_uniform_float32(ptr states, i64 index)
 *   double @kiln_xoroshiro128p_normal_float64(ptr states, i64 index)
 *   float  @kiln_xoroshiro128p_normal_float32(ptr states, i64 index)
 * for_gpu picks libdevice (__nv_log...) or LLVM intrinsics for the math.
 * The text is static; parse it into the kernel's context and link it. */
const char *kg_xoroshiro_ir(int for_gpu);

/* Fills n states (2*n uint64: s0, s1 per state) exactly as Numba's
 * create_xoroshiro128p_states(n, seed, subsequence_start) does. */
void kg_xoroshiro_init_states(uint64_t *states, size_t n, uint64_t seed,
                              uint64_t subsequence_start);

/* Adds the GPU functions and types to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kg_module_init(PyObject *module);

#endif
