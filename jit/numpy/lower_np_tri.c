/* lower_np_tri: np.triu and np.tril (a matrix, or each matrix of a stack,
 * with the part below diagonal k, or above it, set to zero; a 1-d array is
 * taken as every row, as NumPy's broadcasting of it does) and np.tri (ones
 * at and below diagonal k). New C-order arrays. */
#include "jit/numpy/lower_np.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* Whether element (i, j) is at or below diagonal k (at or above for upper). */
static LLVMValueRef kept(kj_lw *w, LLVMValueRef i, LLVMValueRef j, LLVMValueRef k, bool upper) {
    LLVMValueRef d = LLVMBuildSub(w->b, j, i, "");
    return LLVMBuildICmp(w->b, upper ? LLVMIntSGE : LLVMIntSLE, d, k, "");
}

static LLVMValueRef diagonal_k(kj_lw *w, kj_node *kn) { return kn ? kj_np_value(w, kn, KJ_I64) : c64(w, 0); }

/* np.triu(m, k=0), np.tril(m, k=0). */
LLVMValueRef kj_np_lower_triangle(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
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
LLVMValueRef kj_np_lower_tri(kj_lw *w, kj_node *n, const kj_np_args *a) {
    kj_node *mn = kj_np_arg(a, 1, "M");
    const kj_type *et = n->type->elem;
    LLVMValueRef rows = kj_np_value(w, kj_np_arg(a, 0, "N"), KJ_I64);
    LLVMValueRef shape[2] = {rows, mn && mn->type->kind != KJ_T_NONE ? kj_np_value(w, mn, KJ_I64) : rows}, idx[2];
    LLVMValueRef k = diagonal_k(w, kj_np_arg(a, 2, "k"));
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, 2, shape, idx);
    kj_np_store_elem(w, kj_np_ptr(w, out, 2, idx), kept(w, idx[0], idx[1], k, false), kj_bool(), et);
    kj_np_nest_end(w, &nest);
    return out;
}
