/* target_cpu: the host CPU, for ORC-compiled code. Everything is 0 address
 * space; math functions are the C library's (sin / sinf); interrupts are
 * polled. */
#include "jit/core/target.h"
#include "jit/engine/engine.h"

#include <stdio.h>
#include <string.h>
#include <llvm-c/Target.h>

typedef struct {
    char *triple;
    char *layout;
    LLVMTargetMachineRef tm;
    int ready;   /* 1 ok, -1 failed; guarded by the GIL like every compile */
} cpu_state;

static cpu_state state;

static int cpu_init(void) {
    kj_llvm_init();   /* after the warm-up thread, which may be filling state */
    if (state.ready)
        return state.ready;
    state.ready = -1;
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
        return -1;
    char *triple = LLVMGetDefaultTargetTriple();
    state.triple = LLVMNormalizeTargetTriple(triple);
    LLVMDisposeMessage(triple);
    LLVMTargetRef target;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(state.triple, &target, &err)) {
        LLVMDisposeMessage(err);
        return -1;
    }
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    state.tm = LLVMCreateTargetMachine(target, state.triple, cpu, features, LLVMCodeGenLevelAggressive,
                                       LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!state.tm)
        return -1;
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(state.tm);
    state.layout = LLVMCopyStringRepOfTargetData(td);
    LLVMDisposeTargetData(td);
    state.ready = 1;
    return 1;
}

static const char *cpu_triple(const kj_target *t) {
    (void)t;
    return cpu_init() > 0 ? state.triple : NULL;
}

static const char *cpu_layout(const kj_target *t) {
    (void)t;
    return cpu_init() > 0 ? state.layout : NULL;
}

static LLVMTargetMachineRef cpu_tm(const kj_target *t) {
    (void)t;
    return cpu_init() > 0 ? state.tm : NULL;
}

/* libm names: "sin" for double, "sinf" for float. The returned names live
 * in a small table of interned strings (GIL-protected). */
static const char *cpu_math_symbol(const kj_target *t, const char *fn, int bits) {
    (void)t;
    if (bits != 32)
        return fn;
    static char names[64][24];
    static int used;
    char want[24];
    snprintf(want, sizeof want, "%sf", fn);
    for (int i = 0; i < used; i++)
        if (strcmp(names[i], want) == 0)
            return names[i];
    if (used == 64)
        return NULL;
    memcpy(names[used], want, sizeof want);
    return names[used++];
}

static void cpu_finish(const kj_target *t, LLVMModuleRef m, LLVMValueRef fn, kj_fn_kind kind) {
    (void)t;
    (void)m;
    (void)fn;
    (void)kind;   /* the C calling convention and default linkage serve the host */
}

static const kj_target cpu_target = {
    .name = "cpu",
    .triple = cpu_triple,
    .data_layout = cpu_layout,
    .target_machine = cpu_tm,
    .global_as = 0,
    .shared_as = 0,
    .local_as = 0,
    .poll_interrupts = true,
    .vectorizes_ordered_sums = true,
    .has_runtime = true,
    .math_symbol = cpu_math_symbol,
    .finish_function = cpu_finish,
};

const kj_target *kj_target_cpu(void) { return &cpu_target; }
