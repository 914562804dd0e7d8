/* ufunc_loop: the inner loop NumPy calls for a kiln.vectorize or
 * kiln.guvectorize kernel, generated in LLVM IR next to the kernel so the
 * kernel inlines into it and, for contiguous operands, vectorizes.
 *
 * The loop is `i32 loop(ptr args, ptr dims, ptr steps, ptr unused)`:
 * NumPy's PyUFuncGenericFunction plus a status, 0 or the kernel's failure
 * (its exception pending on this thread). ufunc.c wraps it for NumPy. */
#include "jit/lower.h"
#include "jit/ufunc.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    kj_lw w;                       /* only ctx, builder and the basic types */
    LLVMValueRef fn, args, dims, steps;
    kj_instance *in;
    int nops;                      /* operands NumPy passes (inputs + outputs) */
} gen;

static LLVMValueRef at_index(gen *g, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
    LLVMValueRef p = LLVMBuildGEP2(g->w.b, t, base, &i, 1, "");
    return LLVMBuildLoad2(g->w.b, t, p, "");
}

static LLVMValueRef const64(gen *g, long long v) { return LLVMConstInt(g->w.i64, (unsigned long long)v, 1); }

/* The pointer to element i of operand k: base + i * step, with the step a
 * constant (the element size) on the contiguous path. */
static LLVMValueRef operand_ptr(gen *g, LLVMValueRef base, LLVMValueRef step, LLVMValueRef i) {
    LLVMValueRef off = LLVMBuildMul(g->w.b, i, step, "");
    return LLVMBuildGEP2(g->w.b, g->w.i8, base, &off, 1, "");
}

static LLVMValueRef load_scalar(gen *g, LLVMValueRef p, const kj_type *t) {
    LLVMValueRef v = LLVMBuildLoad2(g->w.b, kj_llmemtype(&g->w, t), p, "");
    if (t->kind == KJ_T_BOOL)
        v = LLVMBuildICmp(g->w.b, LLVMIntNE, v, LLVMConstInt(g->w.i8, 0, 0), "");
    return v;
}

static void store_scalar(gen *g, LLVMValueRef p, LLVMValueRef v, const kj_type *t) {
    if (t->kind == KJ_T_BOOL)
        v = LLVMBuildZExt(g->w.b, v, g->w.i8, "");
    LLVMBuildStore(g->w.b, v, p);
}

/* An array operand of a gufunc kernel: the core dimensions of operand k
 * (their sizes in dims[1 + core[j]], their strides in steps[*stride_at + j]),
 * or, for a scalar core `()` declared as a 1-d array, one element. */
static LLVMValueRef core_array(gen *g, LLVMValueRef data, const kj_type *at, const int *core, int ncore,
                               int *stride_at) {
    LLVMValueRef v = LLVMGetUndef(kj_lltype(&g->w, at));
    v = LLVMBuildInsertValue(g->w.b, v, LLVMConstNull(g->w.ptr), 0, "");
    v = LLVMBuildInsertValue(g->w.b, v, data, 1, "");
    for (int j = 0; j < at->ndim; j++) {
        LLVMValueRef size, stride;
        if (ncore == 0) {
            size = const64(g, 1);
            stride = const64(g, (long long)LLVMABISizeOfType(
                                    LLVMCreateTargetDataLayout(g->in ? NULL : NULL) ? NULL : NULL, NULL));
        } else {
            size = at_index(g, g->w.i64, g->dims, const64(g, 1 + core[j]));
            stride = at_index(g, g->w.i64, g->steps, const64(g, *stride_at + j));
        }
        LLVMValueRef shape = LLVMBuildExtractValue(g->w.b, v, 2, "");
        v = LLVMBuildInsertValue(g->w.b, v, LLVMBuildInsertValue(g->w.b, shape, size, (unsigned)j, ""), 2, "");
        LLVMValueRef strides = LLVMBuildExtractValue(g->w.b, v, 3, "");
        v = LLVMBuildInsertValue(g->w.b, v, LLVMBuildInsertValue(g->w.b, strides, stride, (unsigned)j, ""), 3,
                                 "");
    }
    *stride_at += ncore;
    return v;
}
