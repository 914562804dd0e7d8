/* lower_np_tri: np.triu and np.tril, typing and lowering (a matrix, or each matrix of a stack,
 * with the part below diagonal k, or above it, set to zero; a 1-d array is
 * taken as every row, as NumPy's broadcasting of it does) and np.tri (ones
 * at and below diagonal k). New C-order arrays. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* Whether element (i, j) is at or below diagonal k (at or above for upper). */
static LLVMValueRef kept(kj_lw *w, LLVMValueRef i, LLVMValueRef j, LLVMValueRef k, bool upper) {
    LLVMValueRef d = LLVMBuildSub(w->b, j, i, "");
    return LLVMBuildICmp(w->b, upper ? LLVMIntSGE : LLVMIntSLE, d, k, "");
}

static LLVMValueRef diagonal_k(kj_lw *w, kj_node *kn) { return kn ? kj_np_value(w, kn, KJ_I64) : c64(w, 0); }

static const kj_type *triangle_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"m", "k", NULL};
    kj_node *kn = kj_np_arg(a, 1, "k");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "m")), *kt = kn ? kj_np_arg_type(c, kn) : KJ_I64;
    if (!x || !kt)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim == 0 || !kj_is_intlike(kt))
        FAIL(c, n, NULL, "np.%s takes an array and an int k here", m);
    return kj_array(x->elem, x->ndim < 2 ? 2 : x->ndim, KJ_LAYOUT_C, false);
}

/* np.triu(m, k=0), np.tril(m, k=0). */
static LLVMValueRef lower_triangle(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *mn = kj_np_arg(a, 0, "m");
    const kj_type *at = mn->type, *et = at->elem;
    int nd = at->ndim, od = n->type->ndim;
    LLVMValueRef arr = kj_lower_expr(w, mn), k = diagonal_k(w, kj_np_arg(a, 1, "k")), shape[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, nd, shape);
    if (nd == 1)
        shape[1] = shape[0];
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false), idx[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, od, shape, idx);
    LLVMValueRef x = kj_np_load(w, kj_np_ptr(w, arr, nd, nd == 1 ? &idx[1] : idx), et);
    LLVMValueRef keep = kept(w, idx[od - 2], idx[od - 1], k, m[3] == 'u');
    kj_np_store_elem(w, kj_np_ptr(w, out, od, idx), LLVMBuildSelect(w->b, keep, x, LLVMConstNull(kj_lltype(w, et)), ""), et, et);
    kj_np_nest_end(w, &nest);
    return out;
}

/* np.tri(N, M=None, k=0, dtype=float). */
static const kj_type *tri_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    bool bad;
    static const char *const known[] = {"N", "M", "k", "dtype", NULL};
    for (int i = 0; i < 3; i++) {
        kj_node *arg = kj_np_arg(a, i, known[i]);
        const kj_type *t = arg ? kj_np_arg_type(c, arg) : NULL;
        if (arg && !t)
            return NULL;
        if ((i == 0 && !arg) || (arg && !kj_is_intlike(t) && !(i == 1 && t->kind == KJ_T_NONE)) || a->npos > 4 ||
            !kj_np_only_keywords(a, known))
            FAIL(c, n, NULL, "np.tri(N, M=None, k=0, dtype=float) takes ints and a dtype");
    }
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, 3, "dtype"), &bad);
    return bad ? NULL : kj_array(dt ? dt : KJ_F64, 2, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_tri(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *mn = kj_np_arg(a, 1, "M");
    const kj_type *et = n->type->elem;
    LLVMValueRef rows = kj_np_value(w, kj_np_arg(a, 0, "N"), KJ_I64);
    LLVMValueRef shape[2] = {rows, mn && mn->type->kind != KJ_T_NONE ? kj_np_value(w, mn, KJ_I64) : rows}, idx[2];
    for (int d = 0; d < 2; d++) {   /* a negative N or M gives no rows or columns, as NumPy's arange(N) does */
        LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0);
        shape[d] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, shape[d], zero, ""), zero, shape[d], "");
    }
    LLVMValueRef k = diagonal_k(w, kj_np_arg(a, 2, "k"));
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, 2, shape, idx);
    kj_np_store_elem(w, kj_np_ptr(w, out, 2, idx), kept(w, idx[0], idx[1], k, false), kj_bool(), et);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(triu, .name = "np.triu", .targets = KJ_ON_ANY, .np_type = triangle_type, .np_lower = lower_triangle);
KJ_CALLABLE(tril, .name = "np.tril", .targets = KJ_ON_ANY, .np_type = triangle_type, .np_lower = lower_triangle);
KJ_CALLABLE(tri, .name = "np.tri", .targets = KJ_ON_ANY, .np_type = tri_type, .np_lower = lower_tri);
