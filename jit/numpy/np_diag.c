/* np_diag: np.diag(v, k) and np.diagonal(a, offset) in compiled code,
 * typing and lowering: of a 2-d array, diagonal k as a read-only view
 * (kj_np_diagonal, which a.diagonal() shares); np.diag of a 1-d array, a
 * new square array, zero but for v on diagonal k. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static const kj_type *diag_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"v", "k", "a", "offset", NULL};
    bool diag = m[4] == 0;
    const kj_type *v = kj_np_arg_type(c, kj_np_arg(a, 0, diag ? "v" : "a"));
    kj_node *k = kj_np_arg(a, 1, diag ? "k" : "offset");
    if (!v || (k && !kj_np_arg_type(c, k)))
        return NULL;
    if (v->kind != KJ_T_ARRAY || (v->ndim != 2 && (!diag || v->ndim != 1)) || a->npos > 2 ||
        !kj_np_only_keywords(a, known) || (k && !kj_is_intlike(k->type)))
        FAIL(c, n, NULL, diag ? "np.diag takes a 1-d or 2-d array and an int k here"
                              : "np.diagonal takes a 2-d array and an int offset here");
    return v->ndim == 1 ? kj_array(v->elem, 2, KJ_LAYOUT_C, false) : kj_array(v->elem, 1, KJ_LAYOUT_A, true);
}

/* np.diag(v, k) of a 1-d v: a square array, zero but for v on diagonal k. */
static LLVMValueRef diag_matrix(kj_lw *w, const kj_type *t, kj_node *vn, LLVMValueRef k) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef v = kj_lower_expr(w, vn), len = kj_array_len(w, v), zero = c64(w, 0);
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, k, zero, ""), mag = LLVMBuildSelect(b, neg, LLVMBuildNeg(b, k, ""), k, "");
    LLVMValueRef size = LLVMBuildAdd(b, len, mag, "");
    LLVMValueRef out = kj_np_alloc(w, t, (LLVMValueRef[]){size, size}, true);
    LLVMValueRef row0 = LLVMBuildSelect(b, neg, mag, zero, ""), col0 = LLVMBuildSelect(b, neg, zero, mag, "");
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef at[2] = {LLVMBuildAdd(b, i, row0, ""), LLVMBuildAdd(b, i, col0, "")};
    kj_np_store_elem(w, kj_np_ptr(w, out, 2, at), kj_array_item(w, v, vn->type, i), vn->type->elem, t->elem);
    kj_np_loop_end(w, &l);
    return out;
}

static LLVMValueRef lower_diag(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    bool diag = m[4] == 0;
    kj_node *vn = kj_np_arg(a, 0, diag ? "v" : "a"), *kn = kj_np_arg(a, 1, diag ? "k" : "offset");
    LLVMValueRef k = kn ? kj_np_value(w, kn, KJ_I64) : c64(w, 0);
    if (vn->type->ndim == 1)
        return diag_matrix(w, n->type, vn, k);
    return kj_np_diagonal(w, n->type, kj_lower_expr(w, vn), k);
}

KJ_CALLABLE(diag, .name = "np.diag", .targets = KJ_ON_ANY, .np_type = diag_type, .np_lower = lower_diag);
KJ_CALLABLE(diagonal, .name = "np.diagonal", .targets = KJ_ON_ANY, .np_type = diag_type, .np_lower = lower_diag);
