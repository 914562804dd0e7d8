/* np_unravel_index: np.unravel_index(index, shape) in compiled code, typing
 * and lowering: for one integer index into an array of that shape (an int
 * or a tuple of ints), the tuple of its indices along each axis in C
 * order, as NumPy's intp, with NumPy's ValueError for an index outside
 * the array. Arrays of indices and order='F' are refused with a hint. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#define FAIL KJ_INFER_FAIL

static const kj_type *unravel_index_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"indices", "shape", NULL};
    kj_node *in = kj_np_arg(a, 0, "indices"), *sh = kj_np_arg(a, 1, "shape");
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || !in || !sh)
        FAIL(c, n, "Unravel in C order, np.unravel_index(i, shape); for Fortran order unravel i in the reversed "
             "shape and reverse the tuple.", "np.unravel_index takes an index and a shape here");
    const kj_type *it = kj_np_arg_type(c, in), *st = kj_np_arg_type(c, sh);
    if (!it || !st)
        return NULL;
    if (!kj_is_intlike(it))
        FAIL(c, n, it->kind == KJ_T_ARRAY ? "Unravel the indices one at a time in a loop." : NULL,
             "np.unravel_index takes one integer index here, got %s", it->name);
    int nd = kj_np_shape_ndim(st);
    if (nd < 0)
        FAIL(c, n, NULL, "np.unravel_index takes a shape of ints (an int or a tuple of ints), got %s", st->name);
    const kj_type *axes[KJ_NP_MAXDIM];
    if (nd > KJ_NP_MAXDIM)
        FAIL(c, n, NULL, "np.unravel_index: a shape of %d dimensions is more than %d", nd, KJ_NP_MAXDIM);
    for (int k = 0; k < nd; k++)
        axes[k] = KJ_I64;
    return kj_tuple(nd, axes);
}

static LLVMValueRef lower_unravel_index(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    int nd = n->type->n;
    LLVMValueRef index = kj_np_value(w, kj_np_arg(a, 0, "indices"), KJ_I64), shape[KJ_NP_MAXDIM];
    kj_np_shape_arg(w, kj_np_arg(a, 1, "shape"), shape);
    LLVMValueRef size = LLVMConstInt(w->i64, 1, 0);
    for (int k = 0; k < nd; k++)
        size = LLVMBuildMul(w->b, size, shape[k], "");
    /* NumPy's test, signed: a negative index, or a shape with a negative
     * length (a negative size), is outside */
    LLVMValueRef outside = LLVMBuildOr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, index, LLVMConstInt(w->i64, 0, 0), ""),
                                       LLVMBuildICmp(w->b, LLVMIntSGE, index, size, ""), "");
    kj_np_raise_i64x2_if(w, outside, PyExc_ValueError, "index %lld is out of bounds for array with size %lld",
                         index, size);
    LLVMValueRef r = LLVMGetUndef(kj_lltype(w, n->type));
    for (int k = nd - 1; k >= 0; k--) {   /* no length is 0 here: 0 <= index < size */
        r = LLVMBuildInsertValue(w->b, r, LLVMBuildSRem(w->b, index, shape[k], ""), (unsigned)k, "");
        index = LLVMBuildSDiv(w->b, index, shape[k], "");
    }
    return r;
}

KJ_CALLABLE(unravel_index, .name = "np.unravel_index", .targets = KJ_ON_ANY, .np_type = unravel_index_type,
            .np_lower = lower_unravel_index);
