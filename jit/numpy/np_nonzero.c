/* np_nonzero: where an array is nonzero (true): np.nonzero(a) (and
 * a.nonzero(), np.where(a)), a tuple of index arrays, one per axis;
 * np.flatnonzero(a), the indices into a.ravel(); np.argwhere(a), one row of
 * indices per element. A first pass counts, a second writes, both in C
 * order. */
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* np.nonzero(a): a tuple of index arrays, one per axis; np.flatnonzero:
 * one of flat indices; np.argwhere: rows of indices. */
const kj_type *kj_np_nonzero_type(const char *m, const kj_type *x) {
    const kj_type *line = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    if (!strcmp(m, "argwhere"))
        return kj_array(KJ_I64, 2, KJ_LAYOUT_C, false);
    if (!strcmp(m, "flatnonzero"))
        return line;
    const kj_type *e[x->ndim];   /* ndim >= 1: checked by the callers */
    for (int k = 0; k < x->ndim; k++)
        e[k] = line;
    return kj_tuple(x->ndim, e);
}

static const kj_type *nonzero_call_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    if (!x)
        return NULL;
    if (a->npos + a->nkw != 1 || x->kind != KJ_T_ARRAY || x->ndim == 0)
        FAIL(c, n, NULL, "np.%s takes one array of at least one dimension", m);
    return kj_np_nonzero_type(m, x);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

LLVMValueRef kj_np_count_true(kj_lw *w, LLVMValueRef a, const kj_type *at) {
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, a, at->ndim, shape);
    LLVMValueRef acc = kj_entry_alloca(w, w->i64, "count");
    LLVMBuildStore(w->b, c64(w, 0), acc);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, at->ndim, shape, idx);
    LLVMValueRef t = kj_truth(w, kj_np_load(w, kj_np_ptr(w, a, at->ndim, idx), at->elem), at->elem);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, LLVMBuildLoad2(w->b, w->i64, acc, ""), LLVMBuildZExt(w->b, t, w->i64, ""), ""), acc);
    kj_np_nest_end(w, &nest);
    return LLVMBuildLoad2(w->b, w->i64, acc, "");
}

static LLVMValueRef lower_nonzero(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a");
    return kj_np_nonzero_of(w, n->type, m, kj_lower_expr(w, an), an->type);
}

LLVMValueRef kj_np_nonzero_of(kj_lw *w, const kj_type *t, const char *m, LLVMValueRef a, const kj_type *at) {
    int nd = at->ndim;
    LLVMValueRef count = kj_np_count_true(w, a, at);
    /* where the indices go: one array per axis (nonzero), one array of
     * flat indices, or one array of rows of nd (argwhere) */
    LLVMValueRef out[KJ_NP_MAXDIM], result;
    const kj_type *line = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    bool rows = !strcmp(m, "argwhere");
    LLVMValueRef step = c64(w, rows ? nd : 1);
    if (rows) {
        LLVMValueRef shape[2] = {count, c64(w, nd)};
        result = out[0] = kj_np_alloc(w, t, shape, false);
    } else if (!strcmp(m, "flatnonzero")) {
        result = out[0] = kj_np_alloc(w, line, &count, false);
    } else {
        result = LLVMGetUndef(kj_lltype(w, t));
        for (int k = 0; k < nd; k++) {
            out[k] = kj_np_alloc(w, line, &count, false);
            result = LLVMBuildInsertValue(w->b, result, out[k], (unsigned)k, "");
        }
    }
    LLVMValueRef at_slot = kj_entry_alloca(w, w->i64, "k"), flat_slot = kj_entry_alloca(w, w->i64, "flat");
    LLVMBuildStore(w->b, c64(w, 0), at_slot);
    LLVMBuildStore(w->b, c64(w, 0), flat_slot);
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, a, nd, shape);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef flat = LLVMBuildLoad2(w->b, w->i64, flat_slot, "");
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, flat, c64(w, 1), ""), flat_slot);
    LLVMValueRef nz = kj_truth(w, kj_np_load(w, kj_np_ptr(w, a, nd, idx), at->elem), at->elem);
    LLVMBasicBlockRef put = kj_new_bb(w, "nonzero.put"), next = kj_new_bb(w, "nonzero.next");
    LLVMBuildCondBr(w->b, nz, put, next);
    LLVMPositionBuilderAtEnd(w->b, put);
    LLVMValueRef k = LLVMBuildLoad2(w->b, w->i64, at_slot, ""), first = LLVMBuildMul(w->b, k, step, "");
    if (!strcmp(m, "flatnonzero")) {
        LLVMBuildStore(w->b, flat, LLVMBuildGEP2(w->b, w->i64, kj_array_field(w, out[0], 1, 0), &first, 1, ""));
    } else {
        for (int d = 0; d < nd; d++) {   /* nonzero: array d, argwhere: column d of the row */
            LLVMValueRef pos = rows ? LLVMBuildAdd(w->b, first, c64(w, d), "") : first;
            LLVMValueRef data = kj_array_field(w, out[rows ? 0 : d], 1, 0);
            LLVMBuildStore(w->b, idx[d], LLVMBuildGEP2(w->b, w->i64, data, &pos, 1, ""));
        }
    }
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, k, c64(w, 1), ""), at_slot);
    LLVMBuildBr(w->b, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    kj_np_nest_end(w, &nest);
    return result;
}

KJ_CALLABLE(nonzero, .name = "np.nonzero", .targets = KJ_ON_ANY, .np_type = nonzero_call_type, .np_lower = lower_nonzero);
KJ_CALLABLE(flatnonzero, .name = "np.flatnonzero", .targets = KJ_ON_ANY, .np_type = nonzero_call_type,
            .np_lower = lower_nonzero);
KJ_CALLABLE(argwhere, .name = "np.argwhere", .targets = KJ_ON_ANY, .np_type = nonzero_call_type, .np_lower = lower_nonzero);
