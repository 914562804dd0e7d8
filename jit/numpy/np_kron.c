/* np_kron: np.kron(a, b) of 1-d and 2-d arrays in compiled code, typing
 * and lowering: the block matrix whose block (i, j) is a[i, j] * b, in
 * the promoted dtype, as NumPy computes it. An array of fewer dimensions
 * than the other counts as having axes of length 1 in front, as NumPy's. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *kron_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"a", "b", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *y = kj_np_arg_type(c, kj_np_arg(a, 1, "b"));
    if (!x || !y)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || y->kind != KJ_T_ARRAY ||
        x->ndim < 1 || x->ndim > 2 || y->ndim < 1 || y->ndim > 2)
        FAIL(c, n, NULL, "np.%s takes two 1-d or 2-d arrays here", m);
    return kj_np_product_type(c, n, m, x, y);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The shape of v (type t) seen with nd axes, 1s in front. */
static void seen_as(kj_lw *w, LLVMValueRef v, const kj_type *t, int nd, LLVMValueRef *shape) {
    for (int d = 0; d < nd; d++)
        shape[d] = d < nd - t->ndim ? c64(w, 1) : kj_array_field(w, v, 2, d - (nd - t->ndim));
}

static LLVMValueRef lower_kron(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "a"), *bn = kj_np_arg(a, 1, "b");
    const kj_type *at = an->type, *bt = bn->type, *t = n->type, *e = t->elem;
    int nd = t->ndim;
    LLVMValueRef x = kj_lower_expr(w, an), y = kj_lower_expr(w, bn);
    LLVMValueRef as[2], bs[2], shape[2], idx[4], at_x[2], at_y[2], at_out[2];
    seen_as(w, x, at, nd, as);
    seen_as(w, y, bt, nd, bs);
    for (int d = 0; d < nd; d++)
        shape[d] = LLVMBuildMul(w->b, as[d], bs[d], "");
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    /* per axis d, a's position idx[2d] outside b's idx[2d + 1]: the result is written in order */
    LLVMValueRef dims[4];
    for (int d = 0; d < nd; d++) {
        dims[2 * d] = as[d];
        dims[2 * d + 1] = bs[d];
    }
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, 2 * nd, dims, idx);
    for (int d = 0; d < nd; d++) {
        at_x[d] = idx[2 * d];
        at_y[d] = idx[2 * d + 1];
        at_out[d] = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, idx[2 * d], bs[d], ""), idx[2 * d + 1], "");
    }
    const kj_type *ee[2] = {e, e};
    LLVMValueRef u = kj_cast(w, kj_np_load(w, kj_np_ptr(w, x, at->ndim, at_x + (nd - at->ndim)), at->elem), at->elem, e);
    LLVMValueRef v = kj_cast(w, kj_np_load(w, kj_np_ptr(w, y, bt->ndim, at_y + (nd - bt->ndim)), bt->elem), bt->elem, e);
    LLVMValueRef p = kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){u, v}, ee, e);
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, at_out), p, e, e);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(kron, .name = "np.kron", .targets = KJ_ON_ANY, .np_type = kron_type, .np_lower = lower_kron);
