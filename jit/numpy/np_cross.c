/* np_cross: np.cross(a, b) of 3-element vectors in compiled code, its
 * typing and its lowering: the vectors lie along the last axis of each
 * array, the other axes broadcast, and each result is computed as NumPy
 * does, (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0) in the promoted
 * dtype. Vectors of 2 elements, whose cross product NumPy gives as a
 * number (a dimension less, known only when the program runs), raise
 * ValueError with what to write instead, as Numba's np.cross does. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *cross_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"a", "b", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *y = kj_np_arg_type(c, kj_np_arg(a, 1, "b"));
    if (!x || !y)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known))
        FAIL(c, n, "Move the vectors to the last axis first (np.moveaxis is not compiled: use .T or .swapaxes).",
             "np.%s takes two arrays and no axis here", m);
    if (x->kind != KJ_T_ARRAY || y->kind != KJ_T_ARRAY || x->ndim == 0 || y->ndim == 0)
        FAIL(c, n, "Make the vectors arrays: np.array([x, y, z]).", "np.cross takes two arrays of vectors, got %s and %s",
             x->name, y->name);
    return kj_np_product_type(c, n, m, x, y);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* For array v (type t) within a result of rank nd: its position along each
 * result axis of idx (its own axes aligned to the right; 0 along one of
 * length 1), then k along its last. */
static LLVMValueRef vector_ptr(kj_lw *w, LLVMValueRef v, const kj_type *t, int nd, const LLVMValueRef *idx, int k) {
    LLVMValueRef at[KJ_NP_MAXDIM];
    int off = nd - t->ndim;
    for (int d = 0; d < t->ndim - 1; d++) {
        LLVMValueRef once = LLVMBuildICmp(w->b, LLVMIntEQ, kj_array_field(w, v, 2, d), c64(w, 1), "");
        at[d] = LLVMBuildSelect(w->b, once, c64(w, 0), idx[d + off], "");
    }
    at[t->ndim - 1] = c64(w, k);
    return kj_np_ptr(w, v, t->ndim, at);
}

/* NumPy's messages for a last axis that is not 3 long. */
static void check_vectors(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    LLVMValueRef len = kj_array_field(w, v, 2, t->ndim - 1);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 2), ""), PyExc_ValueError,
                "np.cross of 2-element vectors gives numbers, which compiled code does not do: write "
                "a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]");
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntNE, len, c64(w, 3), ""), PyExc_ValueError,
                "incompatible dimensions for cross product\n(dimension must be 2 or 3)");
}

static LLVMValueRef lower_cross(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "a"), *bn = kj_np_arg(a, 1, "b");
    const kj_type *at = an->type, *bt = bn->type, *t = n->type, *e = t->elem;
    int nd = t->ndim;
    LLVMValueRef x = kj_lower_expr(w, an), y = kj_lower_expr(w, bn);
    check_vectors(w, x, at);
    check_vectors(w, y, bt);
    /* the result's shape: the other axes broadcast, then the 3 */
    LLVMValueRef shape[KJ_NP_MAXDIM], bad = LLVMConstInt(w->i1, 0, 0);
    for (int d = 0; d < nd - 1; d++) {
        int da = d - (nd - at->ndim), db = d - (nd - bt->ndim);
        LLVMValueRef la = da >= 0 ? kj_array_field(w, x, 2, da) : c64(w, 1);
        LLVMValueRef lb = db >= 0 ? kj_array_field(w, y, 2, db) : c64(w, 1);
        LLVMValueRef a1 = LLVMBuildICmp(w->b, LLVMIntEQ, la, c64(w, 1), "");
        LLVMValueRef b1 = LLVMBuildICmp(w->b, LLVMIntEQ, lb, c64(w, 1), "");
        shape[d] = LLVMBuildSelect(w->b, a1, lb, la, "");
        LLVMValueRef clash = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, la, lb, ""),
                                          LLVMBuildNot(w->b, LLVMBuildOr(w->b, a1, b1, ""), ""), "");
        bad = LLVMBuildOr(w->b, bad, clash, "");
    }
    kj_raise_if(w, bad, PyExc_ValueError, "shape mismatch: objects cannot be broadcast to a single shape");
    shape[nd - 1] = c64(w, 3);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false), idx[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd - 1, shape, idx);
    LLVMValueRef u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = kj_cast(w, kj_np_load(w, vector_ptr(w, x, at, nd, idx, k), at->elem), at->elem, e);
        v[k] = kj_cast(w, kj_np_load(w, vector_ptr(w, y, bt, nd, idx, k), bt->elem), bt->elem, e);
    }
    const kj_type *ee[2] = {e, e};
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;   /* component k: u_i v_j - u_j v_i */
        LLVMValueRef p = kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){u[i], v[j]}, ee, e);
        LLVMValueRef q = kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){u[j], v[i]}, ee, e);
        LLVMValueRef r = kj_np_elem_op(w, n, "subtract", 2, (LLVMValueRef[]){p, q}, ee, e);
        idx[nd - 1] = c64(w, k);
        kj_np_store_elem(w, kj_np_ptr(w, out, nd, idx), r, e, e);
    }
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(cross, .name = "np.cross", .targets = KJ_ON_ANY, .np_type = cross_type, .np_lower = lower_cross);
