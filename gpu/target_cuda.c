/* The CUDA and CUDA-simulator targets for jit/'s lowering (gpu/targets.h).
 * Both share the front end's view of a kernel; they differ in where thread
 * indices, barriers, math and shared memory come from. */
#include "gpu/targets.h"

#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/TargetMachine.h>

#include "gpu/sim.h"

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"
#define AS_GLOBAL 1
#define AS_SHARED 3
#define AS_LOCAL 5

/* ---- shared helpers ---------------------------------------------------- */

/* fn in m, declared with the given type if it is not there yet. */
static LLVMValueRef get_function(LLVMModuleRef m, const char *name, LLVMTypeRef type) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, name);
    return fn ? fn : LLVMAddFunction(m, name, type);
}

static LLVMValueRef call0(LLVMModuleRef m, LLVMBuilderRef b, const char *name, LLVMTypeRef ret) {
    LLVMTypeRef type = LLVMFunctionType(ret, NULL, 0, 0);
    return LLVMBuildCall2(b, type, get_function(m, name, type), NULL, 0, "");
}

/* CUDA's atomics are relaxed: monotonic on both targets. */
static LLVMValueRef atomic_rmw(const kj_target *t, LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef ptr,
                               LLVMValueRef val) {
    (void)t;
    return LLVMBuildAtomicRMW(b, op, ptr, val, LLVMAtomicOrderingMonotonic, 0);
}

/* ---- CUDA -------------------------------------------------------------- */

typedef struct {
    int ready;                 /* 1 ok, -1 failed; GIL-protected like every compile */
    LLVMTargetMachineRef tm;
    char *layout;
} cuda_state;

static cuda_state cuda;

static int cuda_init(void) {
    if (cuda.ready)
        return cuda.ready;
    kg_error err;
    cuda.ready = -1;
    cuda.tm = kg_nvptx_target_machine(kg_ptx_default_sm(), 3, &err);
    if (!cuda.tm)
        return -1;
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(cuda.tm);
    cuda.layout = LLVMCopyStringRepOfTargetData(td);
    LLVMDisposeTargetData(td);
    cuda.ready = 1;
    return 1;
}

static const char *cuda_triple(const kj_target *t) {
    (void)t;
    return NVPTX_TRIPLE;
}

static const char *cuda_layout(const kj_target *t) {
    (void)t;
    return cuda_init() > 0 ? cuda.layout : NULL;
}

static LLVMTargetMachineRef cuda_tm(const kj_target *t) {
    (void)t;
    return cuda_init() > 0 ? cuda.tm : NULL;
}

/* The math functions libdevice has for both float64 (__nv_sin) and float32
 * (__nv_sinf), one or two float arguments, named as C's math.h names them. */
#define LIBDEVICE(name) {#name, "__nv_" #name, "__nv_" #name "f"}
static const struct {
    const char *c_name, *f64, *f32;
} libdevice_math[] = {
    LIBDEVICE(acos), LIBDEVICE(acosh), LIBDEVICE(asin), LIBDEVICE(asinh), LIBDEVICE(atan),
    LIBDEVICE(atan2), LIBDEVICE(atanh), LIBDEVICE(cbrt), LIBDEVICE(ceil), LIBDEVICE(copysign),
    LIBDEVICE(cos), LIBDEVICE(cosh), LIBDEVICE(erf), LIBDEVICE(erfc), LIBDEVICE(exp), LIBDEVICE(exp2),
    LIBDEVICE(expm1), LIBDEVICE(fabs), LIBDEVICE(floor), LIBDEVICE(fmax), LIBDEVICE(fmin),
    LIBDEVICE(fmod), LIBDEVICE(hypot), LIBDEVICE(ldexp), LIBDEVICE(lgamma), LIBDEVICE(log), LIBDEVICE(log10),
    LIBDEVICE(log1p), LIBDEVICE(log2), LIBDEVICE(nextafter), LIBDEVICE(pow), LIBDEVICE(remainder), LIBDEVICE(rint),
    LIBDEVICE(round), LIBDEVICE(sin), LIBDEVICE(sinh), LIBDEVICE(sqrt), LIBDEVICE(tan),
    LIBDEVICE(tanh), LIBDEVICE(tgamma), LIBDEVICE(trunc),
};

static const char *cuda_math_symbol(const kj_target *t, const char *fn, int bits) {
    (void)t;
    if (bits != 32 && bits != 64)
        return NULL;
    for (size_t i = 0; i < sizeof libdevice_math / sizeof libdevice_math[0]; i++)
        if (strcmp(libdevice_math[i].c_name, fn) == 0)
            return bits == 32 ? libdevice_math[i].f32 : libdevice_math[i].f64;
    return NULL;
}

static LLVMValueRef cuda_special_reg(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b, kj_sreg reg) {
    (void)t;
    static const char *names[] = {
        [KJ_SREG_TID_X] = "tid.x", [KJ_SREG_TID_Y] = "tid.y", [KJ_SREG_TID_Z] = "tid.z",
        [KJ_SREG_NTID_X] = "ntid.x", [KJ_SREG_NTID_Y] = "ntid.y", [KJ_SREG_NTID_Z] = "ntid.z",
        [KJ_SREG_CTAID_X] = "ctaid.x", [KJ_SREG_CTAID_Y] = "ctaid.y", [KJ_SREG_CTAID_Z] = "ctaid.z",
        [KJ_SREG_NCTAID_X] = "nctaid.x", [KJ_SREG_NCTAID_Y] = "nctaid.y", [KJ_SREG_NCTAID_Z] = "nctaid.z",
        [KJ_SREG_WARPSIZE] = "warpsize",
    };
    char intrinsic[64];
    snprintf(intrinsic, sizeof intrinsic, "llvm.nvvm.read.ptx.sreg.%s", names[reg]);
    return call0(m, b, intrinsic, LLVMInt32TypeInContext(LLVMGetModuleContext(m)));
}

static void cuda_barrier(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b) {
    (void)t;
    call0(m, b, "llvm.nvvm.barrier0", LLVMVoidTypeInContext(LLVMGetModuleContext(m)));
}

static void cuda_finish(const kj_target *t, LLVMModuleRef m, LLVMValueRef fn, kj_fn_kind kind) {
    (void)t;
    if (kind == KJ_FN_KERNEL) {
        LLVMSetLinkage(fn, LLVMExternalLinkage);
        kg_ptx_mark_kernel(m, fn);
    } else if (kind == KJ_FN_INTERNAL) {
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    }
}

static const kj_target cuda_target = {
    .name = "cuda",
    .triple = cuda_triple,
    .data_layout = cuda_layout,
    .target_machine = cuda_tm,
    .global_as = AS_GLOBAL,
    .shared_as = AS_SHARED,
    .local_as = AS_LOCAL,
    .poll_interrupts = false,
    .has_runtime = false,
    .step_strided_ranges = true,
    .version_checked_loops = true,
    .math_symbol = cuda_math_symbol,
    .printf_symbol = "vprintf",   /* the driver's, which every CUDA kernel can call */
    .special_reg = cuda_special_reg,
    .barrier = cuda_barrier,
    .atomic_rmw = atomic_rmw,
    .finish_function = cuda_finish,
};

const kj_target *kg_target_cuda(void) {
    return &cuda_target;
}

/* ---- the simulator ----------------------------------------------------- */

static const char *sim_triple(const kj_target *t) {
    (void)t;
    return kj_target_cpu()->triple(kj_target_cpu());
}

static const char *sim_layout(const kj_target *t) {
    (void)t;
    return kj_target_cpu()->data_layout(kj_target_cpu());
}

static LLVMTargetMachineRef sim_tm(const kj_target *t) {
    (void)t;
    return kj_target_cpu()->target_machine(kj_target_cpu());
}

static const char *sim_math_symbol(const kj_target *t, const char *fn, int bits) {
    (void)t;
    return kj_target_cpu()->math_symbol(kj_target_cpu(), fn, bits);
}

static LLVMValueRef sim_special_reg(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b, kj_sreg reg) {
    (void)t;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMTypeRef type = LLVMFunctionType(i32, &i32, 1, 0);
    LLVMValueRef which = LLVMConstInt(i32, (unsigned long long)reg, 0);
    return LLVMBuildCall2(b, type, get_function(m, "kiln_sim_sreg", type), &which, 1, "");
}

/* kiln_sim_syncthreads(line): the line tells the barriers apart, so that
 * threads of a block waiting at different ones are reported (sim.c). */
static void sim_barrier(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b) {
    (void)t;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i32, 1, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "kiln_sim_syncthreads");
    if (!fn)
        fn = LLVMAddFunction(m, "kiln_sim_syncthreads", type);
    LLVMMetadataRef at = LLVMGetCurrentDebugLocation2(b);
    LLVMValueRef line = LLVMConstInt(i32, at ? LLVMDILocationGetLine(at) : 0, 0);
    LLVMBuildCall2(b, type, fn, &line, 1, "");
}

static void sim_finish(const kj_target *t, LLVMModuleRef m, LLVMValueRef fn, kj_fn_kind kind) {
    (void)t, (void)m;
    if (kind == KJ_FN_INTERNAL)
        LLVMSetLinkage(fn, LLVMInternalLinkage);
}

/* Interleaving points first: counting adds stores of its own. */
static int sim_after_optimize(const kj_target *t, LLVMModuleRef m) {
    (void)t;
    int placed = kg_sim_interleave_races(m);
    kg_sim_count_work(m);
    return placed;
}

static const kj_target simulator_target = {
    .name = "cuda-simulator",
    .triple = sim_triple,
    .data_layout = sim_layout,
    .target_machine = sim_tm,
    .global_as = 0,
    .shared_as = 0,
    .local_as = 0,
    .poll_interrupts = true,
    .has_runtime = true,
    .step_strided_ranges = true,
    .version_checked_loops = true,
    .math_symbol = sim_math_symbol,
    .printf_symbol = "kiln_sim_vprintf",
    .special_reg = sim_special_reg,
    .barrier = sim_barrier,
    .atomic_rmw = atomic_rmw,
    .finish_function = sim_finish,
    .after_optimize = sim_after_optimize,
};

const kj_target *kg_target_simulator(void) {
    return &simulator_target;
}

LLVMValueRef kg_target_dynamic_shared(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b) {
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    if (t == &simulator_target)
        return call0(m, b, "kiln_sim_dynamic_shared", LLVMPointerTypeInContext(ctx, 0));
    /* extern __shared__ char kiln_dynamic_shared[]; its size is the launch's */
    LLVMValueRef g = LLVMGetNamedGlobal(m, "kiln_dynamic_shared");
    if (!g) {
        g = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(LLVMInt8TypeInContext(ctx), 0), "kiln_dynamic_shared",
                                        AS_SHARED);
        LLVMSetAlignment(g, 16);
    }
    return g;
}

LLVMValueRef kg_target_static_shared(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b, LLVMTypeRef at) {
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    if (t == &simulator_target) {
        /* The key is a byte of this module, unique per array and per
         * loaded kernel; the launch hands out one zeroed block per key. */
        LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
        LLVMValueRef key = LLVMAddGlobal(m, i8, "kiln_shared_key");
        LLVMSetInitializer(key, LLVMConstInt(i8, 0, 0));
        LLVMSetLinkage(key, LLVMInternalLinkage);
        LLVMSetGlobalConstant(key, 0); /* a writable global: never merged with another key */
        LLVMValueRef args[2] = {key, LLVMSizeOf(at)};
        LLVMTypeRef params[2] = {LLVMPointerTypeInContext(ctx, 0), i64};
        LLVMTypeRef type = LLVMFunctionType(params[0], params, 2, 0);
        return LLVMBuildCall2(b, type, get_function(m, "kiln_sim_shared", type), args, 2, "");
    }
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, at, "kiln_shared", t->shared_as);
    LLVMSetInitializer(g, LLVMGetUndef(at));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 16);
    return g;
}
