/* np_indices: np.indices(dimensions, dtype=int) in compiled code, typing
 * and lowering: for a tuple of N ints, an array of shape (N, *dimensions)
 * whose [k, i0, ..., iN-1] is ik, as NumPy's (sparse=True is refused). */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *indices_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"dimensions", "dtype", NULL};
    kj_node *dims = kj_np_arg(a, 0, "dimensions"), *dt = kj_np_arg(a, 1, "dtype");
    const kj_type *t = dims ? kj_np_arg_type(c, dims) : NULL;
    if (!t)
        return NULL;
    int nd = t->kind == KJ_T_TUPLE ? kj_np_shape_ndim(t) : -1;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || nd < 0 || nd + 1 > KJ_NP_MAXDIM)
        FAIL(c, n, "Write the dimensions as a tuple: np.indices((n, m)).",
             "np.indices takes a tuple of ints and a dtype here");
    const kj_type *e = dt ? kj_np_dtype_node(dt) : KJ_I64;
    if (!e || !kj_is_number(e) || e->kind == KJ_T_COMPLEX)
        FAIL(c, n, NULL, "np.indices takes an integer or float dtype, such as np.int32, here");
    return kj_array(e, nd + 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_indices(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = n->type;
    int nd = t->ndim - 1;
    LLVMValueRef shape[KJ_NP_MAXDIM];
    shape[0] = LLVMConstInt(w->i64, (unsigned long long)nd, 0);
    kj_np_shape_arg(w, kj_np_arg(a, 0, "dimensions"), shape + 1);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    kj_np_loop axis, loops[KJ_NP_MAXDIM];
    LLVMValueRef idx[KJ_NP_MAXDIM];
    idx[0] = kj_np_loop_begin(w, &axis, shape[0]);
    for (int d = 0; d < nd; d++)
        idx[d + 1] = kj_np_loop_begin(w, &loops[d], shape[d + 1]);
    /* element [k, i0, ...] is ik: the index of the loop k, picked at run time */
    LLVMValueRef v = idx[1];
    for (int d = 1; d < nd; d++)
        v = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, idx[0], LLVMConstInt(w->i64, (unsigned long long)d, 0), ""),
                            idx[d + 1], v, "");
    if (nd > 0)
        kj_np_store_elem(w, kj_np_ptr(w, out, t->ndim, idx), v, KJ_I64, t->elem);
    for (int d = nd - 1; d >= 0; d--)
        kj_np_loop_end(w, &loops[d]);
    kj_np_loop_end(w, &axis);
    return out;
}

KJ_CALLABLE(indices, .name = "np.indices", .targets = KJ_ON_ANY, .np_type = indices_type, .np_lower = lower_indices);
