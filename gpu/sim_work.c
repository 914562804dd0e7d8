/* What a simulated kernel's threads did, counted as they run, so that a
 * launch on the simulator can say roughly what a GPU would take
 * (python/kiln/cuda/estimate.py): float operations (float32 and float64
 * apart) and the bytes read and written in global and in shared memory.
 *
 * Each block of the optimized IR knows its own counts; a function adds
 * them up in locals as its blocks run (registers, after SROA) and hands the
 * totals to kiln_sim_count when it returns, once per thread. The kernel's
 * argument words, read by its entry, are a GPU's parameters, not memory
 * traffic, and are not counted. Runs after sim_races.c, whose switches are
 * not the kernel's work. */
#include "gpu/sim.h"
#include "gpu/sim_ir.h"

#include <stdbool.h>
#include <string.h>

#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

enum { FLOPS32, FLOPS64, GLOBAL_BYTES, SHARED_BYTES, NCOUNTS };

static unsigned lanes(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static LLVMTypeRef scalar_of(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
}

/* Float operations of one instruction into c: arithmetic, and calls that
 * return floats (math functions; fma and fmuladd count two). */
static void count_flops(LLVMValueRef in, uint64_t *c) {
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    bool arithmetic = op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFRem ||
                      op == LLVMFNeg;
    LLVMTypeRef t = LLVMTypeOf(in);
    LLVMTypeKind k = LLVMGetTypeKind(scalar_of(t));
    if (k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind && k != LLVMHalfTypeKind)
        return;
    uint64_t n = 0;
    if (arithmetic) {
        n = 1;
    } else if (op == LLVMCall) {
        size_t len = 0;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
        n = strstr(name, "fma") ? 2 : 1;
    }
    c[k == LLVMDoubleTypeKind ? FLOPS64 : FLOPS32] += n * lanes(t);
}

static bool is_call_of(LLVMValueRef v, const char *name) {
    if (!v || !LLVMIsACallInst(v))
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(v);
    size_t len = 0;
    return callee && strcmp(LLVMGetValueName2(callee, &len), name) == 0;
}

/* Bytes one memory instruction moves into c: shared memory, or global
 * (anything else that is not thread-private, an argument word read by the
 * entry, or a variable of the module, as the Ctrl-C flag loops poll). */
static void count_bytes(LLVMValueRef in, LLVMTargetDataRef layout, bool entry, uint64_t *c) {
    LLVMValueRef ptr;
    LLVMTypeRef type;
    if (LLVMIsALoadInst(in))
        ptr = LLVMGetOperand(in, 0), type = LLVMTypeOf(in);
    else if (LLVMIsAStoreInst(in))
        ptr = LLVMGetOperand(in, 1), type = LLVMTypeOf(LLVMGetOperand(in, 0));
    else if (LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in))
        ptr = LLVMGetOperand(in, 0), type = LLVMTypeOf(LLVMGetOperand(in, 1));
    else
        return;
    LLVMValueRef base = kg_sim_base_of(ptr);
    if (base && (LLVMIsAAllocaInst(base) || LLVMIsAGlobalVariable(base) || (entry && LLVMIsAArgument(base))))
        return;
    bool shared = is_call_of(base, "kiln_sim_shared") || is_call_of(base, "kiln_sim_dynamic_shared");
    c[shared ? SHARED_BYTES : GLOBAL_BYTES] += LLVMABISizeOfType(layout, type);
}

/* Adds the block's counts to the function's locals, before its terminator
 * (in the entry block, the locals are made before anything else, so the
 * adds must come after them). Returns whether it counted anything. */
static bool count_block(LLVMBasicBlockRef bb, LLVMBuilderRef b, LLVMValueRef *locals, LLVMTargetDataRef layout,
                        bool entry) {
    uint64_t c[NCOUNTS] = {0};
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        count_flops(in, c);
        count_bytes(in, layout, entry, c);
    }
    bool any = false;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(locals[0])));
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(bb));
    for (int k = 0; k < NCOUNTS; k++)
        if (c[k]) {
            LLVMValueRef sum = LLVMBuildAdd(b, LLVMBuildLoad2(b, i64, locals[k], ""), LLVMConstInt(i64, c[k], 0), "");
            LLVMBuildStore(b, sum, locals[k]);
            any = true;
        }
    return any;
}

static void count_function(LLVMModuleRef m, LLVMValueRef fn, LLVMBuilderRef b, LLVMTargetDataRef layout) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    bool entry = len > 5 && strcmp(name + len - 5, "_flat") == 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMBasicBlockRef first = LLVMGetEntryBasicBlock(fn);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(first));
    LLVMValueRef locals[NCOUNTS];
    for (int k = 0; k < NCOUNTS; k++) {
        locals[k] = LLVMBuildAlloca(b, i64, "sim.work");
        LLVMBuildStore(b, LLVMConstInt(i64, 0, 0), locals[k]);
    }
    bool any = false;
    for (LLVMBasicBlockRef bb = first; bb; bb = LLVMGetNextBasicBlock(bb))
        any |= count_block(bb, b, locals, layout, entry);
    LLVMTypeRef params[NCOUNTS] = {i64, i64, i64, i64};
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, NCOUNTS, 0);
    LLVMValueRef report = LLVMGetNamedFunction(m, "kiln_sim_count");
    if (!report)
        report = LLVMAddFunction(m, "kiln_sim_count", type);
    for (LLVMBasicBlockRef bb = first; any && bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef end = LLVMGetBasicBlockTerminator(bb);
        if (!end || !LLVMIsAReturnInst(end))
            continue;
        LLVMPositionBuilderBefore(b, end);
        LLVMValueRef totals[NCOUNTS];
        for (int k = 0; k < NCOUNTS; k++)
            totals[k] = LLVMBuildLoad2(b, i64, locals[k], "");
        LLVMBuildCall2(b, type, report, totals, NCOUNTS, "");
    }
}

void kg_sim_count_work(LLVMModuleRef m) {
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (LLVMCountBasicBlocks(fn))
            count_function(m, fn, b, layout);
    LLVMDisposeBuilder(b);
    /* the locals become registers */
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, "function(sroa)", NULL, options);
    if (err)   /* the allocas still count right, a little slower */
        LLVMConsumeError(err);
    LLVMDisposePassBuilderOptions(options);
}
