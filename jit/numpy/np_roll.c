/* np_roll: np.roll(a, shift, axis) in compiled code, typing and lowering.
 * Without an axis the elements in C order move shift places, those pushed
 * past the end coming round to the front, and the result has a's shape;
 * with one, every line along the axis moves so. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* shift modulo n, in [0, n) (0 when n is 0). */
static LLVMValueRef wrapped(kj_lw *w, LLVMValueRef shift, LLVMValueRef n) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef empty = LLVMBuildICmp(b, LLVMIntEQ, n, c64(w, 0), "");
    LLVMValueRef d = LLVMBuildSelect(b, empty, c64(w, 1), n, "");
    LLVMValueRef r = LLVMBuildSRem(b, shift, d, "");
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, r, c64(w, 0), ""), LLVMBuildAdd(b, r, d, ""), r, "");
    return LLVMBuildSelect(b, empty, c64(w, 0), r, "");
}

/* i + s, brought back below n (i, s < n). */
static LLVMValueRef moved(kj_lw *w, LLVMValueRef i, LLVMValueRef s, LLVMValueRef n) {
    LLVMValueRef j = LLVMBuildAdd(w->b, i, s, "");
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGE, j, n, ""), LLVMBuildSub(w->b, j, n, ""), j, "");
}

static const kj_type *roll_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"a", "shift", "axis", NULL};
    kj_node *sh = kj_np_arg(a, 1, "shift"), *ax = kj_np_arg(a, 2, "axis");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *st = sh ? kj_np_arg_type(c, sh) : NULL, *axt = ax ? kj_np_arg_type(c, ax) : kj_none();
    if (!x || (sh && !st) || !axt)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim == 0 || !st ||
        !kj_is_intlike(st) || (axt->kind != KJ_T_NONE && !kj_is_intlike(axt)))
        FAIL(c, n, "Roll one axis at a time.", "np.roll takes an array, an int shift and an int axis here");
    return kj_array(x->elem, x->ndim, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_roll(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "a"), *axn = kj_np_arg(a, 2, "axis");
    const kj_type *at = an->type, *t = n->type, *et = at->elem;
    int nd = at->ndim;
    LLVMValueRef arr = kj_lower_expr(w, an), shift = kj_np_value(w, kj_np_arg(a, 1, "shift"), KJ_I64);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, nd, shape);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    if (!axn || axn->type->kind == KJ_T_NONE) {
        LLVMValueRef src = kj_np_whole_line(w, arr, at), size = kj_np_size(w, arr, nd), s = wrapped(w, shift, size);
        LLVMTypeRef mt = kj_llmemtype(w, et);
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, size), j = moved(w, i, s, size);
        LLVMValueRef x = LLVMBuildLoad2(w->b, mt, LLVMBuildGEP2(w->b, mt, src, &i, 1, ""), "");
        LLVMBuildStore(w->b, x, LLVMBuildGEP2(w->b, mt, kj_array_field(w, out, 1, 0), &j, 1, ""));
        kj_np_loop_end(w, &l);
        return out;
    }
    LLVMValueRef asked = kj_np_value(w, axn, KJ_I64);
    LLVMValueRef axis = kj_np_axis(w, asked, nd);
    LLVMValueRef len = c64(w, 0);
    for (int k = 0; k < nd; k++)
        len = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), ""), shape[k], len, "");
    LLVMValueRef s = wrapped(w, shift, len), idx[KJ_NP_MAXDIM], to[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    for (int k = 0; k < nd; k++)   /* the axis is a run-time value: each index moves if it is that one */
        to[k] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), ""), moved(w, idx[k], s, len), idx[k], "");
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, to), kj_np_load(w, kj_np_ptr(w, arr, nd, idx), et), et, et);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(roll, .name = "np.roll", .targets = KJ_ON_ANY, .np_type = roll_type, .np_lower = lower_roll);
