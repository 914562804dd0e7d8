/* Where simulated threads interleave (gpu/sim.h, kg_sim_interleave_races).
 *
 * A GPU runs a block's threads at once, so a plain read-modify-write of one
 * element by many threads (counter[0] += 1) loses updates: a warp's threads
 * all read, then all write back. The simulator runs its threads one at a
 * time, so it would count right and teach the opposite. It therefore lets
 * the other threads run before each store to memory the kernel also reads
 * through the same pointer: every thread has read by then, and the writes
 * collide as on a GPU.
 *
 * Only such stores switch: kernels that read some arrays and write others
 * (out[i] = a[i] + b[i]) keep running their threads as plain calls. Runs on
 * the optimized module, where a thread's private values are registers and
 * what is left of loads and stores is memory other threads can see (or
 * allocas: thread-private, skipped). */
#include "gpu/sim.h"
#include "gpu/sim_ir.h"

#include <stdbool.h>
#include <stdlib.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

LLVMValueRef kg_sim_base_of(LLVMValueRef p) {
    for (int depth = 0; depth < 32 && p; depth++) {
        LLVMOpcode op = LLVMIsAInstruction(p) ? LLVMGetInstructionOpcode(p)
                        : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p) : (LLVMOpcode)0;
        switch (op) {
        case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMIntToPtr: case LLVMPtrToInt:
            p = LLVMGetOperand(p, 0);
            break;
        case LLVMAdd: case LLVMSub: case LLVMOr:   /* base plus offset, as integers */
            p = LLVMGetOperand(p, LLVMIsAConstant(LLVMGetOperand(p, 0)) ? 1 : 0);
            break;
        case LLVMPHI: case LLVMSelect:
            return NULL;
        default:
            return p;
        }
    }
    return NULL;
}

typedef struct {
    LLVMValueRef base;
    bool loaded, stored;
} object;

typedef struct {
    object *all;
    size_t n, cap;
} objects;

static object *find(objects *o, LLVMValueRef base) {
    for (size_t i = 0; i < o->n; i++)
        if (o->all[i].base == base)
            return &o->all[i];
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        object *grown = realloc(o->all, cap * sizeof *grown);
        if (!grown)
            return NULL;
        o->all = grown, o->cap = cap;
    }
    o->all[o->n] = (object){base, false, false};
    return &o->all[o->n++];
}

/* The object a plain (not atomic) load or store reaches, and whether it
 * stores; NULL for anything else and for thread-private memory. */
static object *accessed(objects *o, LLVMValueRef inst, bool *is_store) {
    bool load = LLVMIsALoadInst(inst) != NULL;
    *is_store = LLVMIsAStoreInst(inst) != NULL;
    if ((!load && !*is_store) || LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic)
        return NULL;
    LLVMValueRef base = kg_sim_base_of(LLVMGetOperand(inst, load ? 0 : 1));
    if (base && LLVMIsAAllocaInst(base))
        return NULL;
    return find(o, base);
}

static int interleave_function(LLVMModuleRef m, LLVMValueRef fn, LLVMBuilderRef b) {
    objects o = {0};
    bool is_store;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            object *obj = accessed(&o, i, &is_store);
            if (obj)
                *(is_store ? &obj->stored : &obj->loaded) = true;
        }
    int placed = 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            object *obj = accessed(&o, i, &is_store);
            if (!obj || !is_store || !obj->loaded)
                continue;
            LLVMValueRef callee = LLVMGetNamedFunction(m, "kiln_sim_interleave");
            if (!callee)
                callee = LLVMAddFunction(m, "kiln_sim_interleave", type);
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef call = LLVMBuildCall2(b, type, callee, NULL, 0, "");
            LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(i));
            placed++;
        }
    free(o.all);
    return placed;
}

int kg_sim_interleave_races(LLVMModuleRef m) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    int placed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (LLVMCountBasicBlocks(fn))
            placed += interleave_function(m, fn, b);
    LLVMDisposeBuilder(b);
    return placed;
}
