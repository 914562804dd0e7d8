/* PTX from LLVM: the NVPTX half of Kiln's CUDA target. A module whose
 * kernels are marked with kg_ptx_mark_kernel becomes PTX text: libdevice is
 * linked in when math is called (gpu/libdevice.c), everything but the
 * kernels is internalized, NVVM reflect answers libdevice's __nvvm_reflect
 * queries, and the O-level pipeline runs for the chosen SM. */
#include "gpu/driver.h"
#include "gpu/gpu.h"
#include "gpu/targets.h"
#include "profiler/profiler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"
/* LLVM 19 knows SMs up to sm_90(a); a newer device runs sm_90 PTX through
 * the driver's JIT. */
#define NEWEST_SM 90

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void init_nvptx(void) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

void kg_ptx_mark_kernel(LLVMModuleRef module, LLVMValueRef fn) {
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMMetadataRef ops[3] = {
        LLVMValueAsMetadata(fn),
        LLVMMDStringInContext2(ctx, "kernel", 6),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0)),
    };
    LLVMMetadataRef node = LLVMMDNodeInContext2(ctx, ops, 3);
    LLVMAddNamedMetadataOperand(module, "nvvm.annotations", LLVMMetadataAsValue(ctx, node));
}

/* Whether fn is named as a kernel in !nvvm.annotations. */
static int is_kernel(LLVMModuleRef module, LLVMValueRef fn) {
    unsigned n = LLVMGetNamedMetadataNumOperands(module, "nvvm.annotations");
    if (n == 0)
        return 0;
    LLVMValueRef *nodes = malloc(n * sizeof *nodes);
    if (!nodes)
        return 0;
    LLVMGetNamedMetadataOperands(module, "nvvm.annotations", nodes);
    int found = 0;
    for (unsigned i = 0; i < n && !found; i++) {
        unsigned k = LLVMGetMDNodeNumOperands(nodes[i]);
        if (k < 2)
            continue;
        LLVMValueRef *ops = malloc(k * sizeof *ops);
        if (!ops)
            break;
        LLVMGetMDNodeOperands(nodes[i], ops);
        unsigned len = 0;
        const char *tag = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
        found = ops[0] == fn && tag && len == 6 && memcmp(tag, "kernel", 6) == 0;
        free(ops);
    }
    free(nodes);
    return found;
}

/* LLVM math intrinsics that NVPTX cannot select (instruction selection
 * would stop the process with "Cannot select"), and their libdevice
 * functions; the float32 forms add "f". Lowering emits llvm.pow for a
 * float ** a variable exponent, and np.* array math uses these too. */
static const char *const math_intrinsics[][2] = {
    {"pow", "pow"}, {"exp", "exp"}, {"exp2", "exp2"}, {"exp10", "exp10"}, {"log", "log"}, {"log2", "log2"},
    {"log10", "log10"}, {"sin", "sin"}, {"cos", "cos"}, {"tan", "tan"}, {"asin", "asin"}, {"acos", "acos"},
    {"atan", "atan"}, {"sinh", "sinh"}, {"cosh", "cosh"}, {"tanh", "tanh"}, {"atan2", "atan2"},
};

/* Calls of those intrinsics become calls of libdevice (same types). */
static void math_intrinsics_to_libdevice(LLVMModuleRef module) {
    LLVMValueRef next;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = next) {
        next = LLVMGetNextFunction(fn);
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (!LLVMIsDeclaration(fn) || strncmp(name, "llvm.", 5) != 0)
            continue;
        const char *dot = strrchr(name, '.');
        bool f32 = strcmp(dot, ".f32") == 0;
        if (!f32 && strcmp(dot, ".f64") != 0)
            continue;   /* vector forms and everything else are left to NVPTX */
        size_t base_len = (size_t)(dot - name) - 5;
        for (size_t i = 0; i < sizeof math_intrinsics / sizeof *math_intrinsics; i++) {
            if (strlen(math_intrinsics[i][0]) != base_len || strncmp(name + 5, math_intrinsics[i][0], base_len))
                continue;
            char nv[32];
            snprintf(nv, sizeof nv, "__nv_%s%s", math_intrinsics[i][1], f32 ? "f" : "");
            LLVMTypeRef type = LLVMGlobalGetValueType(fn);
            LLVMValueRef target = LLVMGetNamedFunction(module, nv);
            if (!target)
                target = LLVMAddFunction(module, nv, type);
            LLVMReplaceAllUsesWith(fn, target);
            LLVMDeleteFunction(fn);
            break;
        }
    }
}

/* Whether the module declares (without defining) any libdevice function. */
static int calls_libdevice(LLVMModuleRef module) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (LLVMIsDeclaration(fn) && len > 5 && strncmp(name, "__nv_", 5) == 0)
            return 1;
    }
    return 0;
}

/* Only kernels stay visible, so that GlobalDCE drops the rest of libdevice
 * and the inliner may fold device functions into their callers. */
static void internalize(LLVMModuleRef module) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && !is_kernel(module, fn))
            LLVMSetLinkage(fn, LLVMInternalLinkage);
}

int kg_ptx_default_sm(void) {
    int major = kg_device_attribute(KG_ATTR_CC_MAJOR);
    int minor = kg_device_attribute(KG_ATTR_CC_MINOR);
    int sm = major > 0 ? major * 10 + (minor > 0 ? minor : 0) : NEWEST_SM;
    return sm > NEWEST_SM ? NEWEST_SM : sm;
}

static int pick_sm(const kg_ptx_options *options) {
    int sm = options->compute_capability > 0 ? options->compute_capability : kg_ptx_default_sm();
    return sm > NEWEST_SM ? NEWEST_SM : sm;
}

LLVMTargetMachineRef kg_nvptx_target_machine(int sm, int opt_level, kg_error *err) {
    pthread_once(&nvptx_once, init_nvptx);
    LLVMTargetRef target;
    char *message = NULL;
    if (LLVMGetTargetFromTriple(NVPTX_TRIPLE, &target, &message)) {
        kg_error_set(err, KG_ERR_LLVM, 0, "this LLVM has no NVPTX target: %s", message);
        LLVMDisposeMessage(message);
        return NULL;
    }
    char cpu[16];
    snprintf(cpu, sizeof cpu, "sm_%d", sm);
    LLVMCodeGenOptLevel level = opt_level <= 0 ? LLVMCodeGenLevelNone
                              : opt_level == 1 ? LLVMCodeGenLevelLess
                              : opt_level == 2 ? LLVMCodeGenLevelDefault
                                               : LLVMCodeGenLevelAggressive;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, NVPTX_TRIPLE, cpu, "", level,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm)
        kg_error_set(err, KG_ERR_LLVM, 0, "cannot make an NVPTX target machine for %s", cpu);
    return tm;
}

static int run_pipeline(LLVMModuleRef module, LLVMTargetMachineRef tm, int opt_level, kg_error *err) {
    char pipeline[256];
    /* GlobalDCE first: the rest of libdevice is dead once internalized, and
     * optimizing it would be most of the compile time. NVVMReflect runs at
     * the start of default<On> (the NVPTX target registers it there). */
    int level = opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level;
    /* Once the device code is inlined into the kernel, bounds checks on
     * loop-invariant indices (matmul's A[row, k] checks row every k) are
     * loop-invariant branches to the raise exit, which the default
     * pipeline's unswitching (before inlining) misses. Unswitching them
     * then takes naive matmul's inner loop from five branches to two. On the
     * H100 that did not measurably change its time (bench/gpu/RESULTS.md);
     * it is kept for kernels with more invariant checks. The clean-up after
     * it is the part of a second default<O3> that these loops need (the
     * loop-exit test made redundant, invariant code hoisted): every seed
     * kernel's PTX is the same as with a second default<O3>, for a quarter
     * less IR->PTX time (bench/MEASURED.md). */
    static const char cleanup[] = "function(instcombine,simplifycfg,loop-mssa(licm),loop(indvars),"
                                  "correlated-propagation,constraint-elimination,instcombine,simplifycfg)";
    if (level >= 2)
        snprintf(pipeline, sizeof pipeline, "globaldce,default<O%d>,simple-loop-unswitch<nontrivial>,%s", level,
                 cleanup);
    else
        snprintf(pipeline, sizeof pipeline, "globaldce,default<O%d>", level);
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(module, pipeline, tm, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (e) {
        char *message = LLVMGetErrorMessage(e); /* consumes e */
        kg_error_set(err, KG_ERR_LLVM, 0, "NVPTX optimization pipeline failed: %s", message);
        LLVMDisposeErrorMessage(message);
        return -1;
    }
    return 0;
}

static void set_reflect_ftz(LLVMModuleRef module, int ftz) {
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMValueRef value = LLVMConstInt(LLVMInt32TypeInContext(ctx), ftz ? 1 : 0, 0);
    LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(value));
}

static int emit(LLVMModuleRef module, LLVMTargetMachineRef tm, char **ptx, kg_error *err) {
    LLVMMemoryBufferRef buffer;
    char *message = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, module, LLVMAssemblyFile, &message, &buffer)) {
        kg_error_set(err, KG_ERR_LLVM, 0, "NVPTX code generation failed: %s", message);
        LLVMDisposeMessage(message);
        return -1;
    }
    size_t size = LLVMGetBufferSize(buffer);
    *ptx = malloc(size + 1);
    if (*ptx) {
        memcpy(*ptx, LLVMGetBufferStart(buffer), size);
        (*ptx)[size] = '\0';
    }
    LLVMDisposeMemoryBuffer(buffer);
    return *ptx ? 0 : kg_error_set(err, KG_ERR_LLVM, 0, "out of memory copying PTX");
}

/* LLVM's diagnostics while a kernel compiles. Without a handler of its own
 * the context prints them on stderr (the loop vectorizer's remarks, which
 * engine.c turns on for the CPU's report, appeared under every GPU compile)
 * and ends the process on an error. Remarks are dropped here; the first
 * error is kept and fails the compile. */
typedef struct {
    char error[256];
} ptx_diagnostics;

static void on_ptx_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    ptx_diagnostics *d = opaque;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || d->error[0])
        return;
    char *desc = LLVMGetDiagInfoDescription(info);
    snprintf(d->error, sizeof d->error, "%s", desc);
    LLVMDisposeMessage(desc);
}

static int optimize_and_emit(LLVMModuleRef module, LLVMTargetMachineRef tm, const kg_ptx_options *options,
                             uint64_t start, char **ptx, kg_error *err) {
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMDiagnosticHandler previous = LLVMContextGetDiagnosticHandler(ctx);
    void *previous_context = LLVMContextGetDiagnosticContext(ctx);
    ptx_diagnostics diagnostics = {{0}};
    LLVMContextSetDiagnosticHandler(ctx, on_ptx_diagnostic, &diagnostics);
    int status = run_pipeline(module, tm, options->opt_level, err);
    uint64_t t = kp_now_ns();
    if (options->optimize_ns)
        *options->optimize_ns = t - start;
    if (status == 0)
        status = emit(module, tm, ptx, err);
    if (options->codegen_ns)
        *options->codegen_ns = kp_now_ns() - t;
    LLVMContextSetDiagnosticHandler(ctx, previous, previous_context);
    if (status == 0 && diagnostics.error[0]) {
        free(*ptx);
        *ptx = NULL;
        status = kg_error_set(err, KG_ERR_LLVM, 0, "NVPTX code generation failed: %s", diagnostics.error);
    }
    return status;
}

int kg_ptx_from_module(LLVMModuleRef module, const kg_ptx_options *options, char **ptx, kg_error *err) {
    *ptx = NULL;
    uint64_t start = kp_now_ns();   /* the optimize phase counts libdevice's link */
    int sm = pick_sm(options);
    LLVMTargetMachineRef tm = kg_nvptx_target_machine(sm, options->opt_level, err);
    if (!tm)
        return -1;
    LLVMSetTarget(module, NVPTX_TRIPLE);
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(module, layout);
    LLVMDisposeTargetData(layout);

    int status = 0;
    char *message = NULL;
    if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
        status = kg_error_set(err, KG_ERR_LLVM, 0, "kernel IR does not verify: %s", message);
    } else {
        math_intrinsics_to_libdevice(module);
        if (calls_libdevice(module))
            status = kg_libdevice_link(module, err);
    }
    LLVMDisposeMessage(message);
    if (status == 0) {
        set_reflect_ftz(module, options->fast_math);
        internalize(module);
        status = optimize_and_emit(module, tm, options, start, ptx, err);
    }
    LLVMDisposeTargetMachine(tm);
    return status;
}
