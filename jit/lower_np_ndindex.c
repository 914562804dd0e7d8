/* lower_np_ndindex: `for` loops over np.ndindex(shape) and np.ndenumerate(a).
 * The loop counts t over the positions (the product of the lengths, 1 for
 * no dimension); position t's index is t unravelled in C order, the last
 * axis fastest, as NumPy walks them: one division by each length but the
 * first per position, which x86 gives with the remainder. */
#include "jit/lower.h"

#include <Python.h>

/* The lengths of the iteration's dimensions, into dims. */
static void lengths(kj_lw *w, kj_iter *s, LLVMValueRef *dims) {
    if (s->type->kind == KJ_T_NDENUMERATE) {
        for (int k = 0; k < s->type->elem->ndim; k++)
            dims[k] = kj_array_field(w, s->value, 2, k);
        return;
    }
    for (int k = 0; k < s->type->ndim; k++)
        dims[k] = LLVMBuildExtractValue(w->b, s->value, (unsigned)k, "");
}

static int ndim_of(const kj_iter *s) {
    return s->type->kind == KJ_T_NDENUMERATE ? s->type->elem->ndim : s->type->ndim;
}

LLVMValueRef kj_nd_iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    if (s->type->kind == KJ_T_NDENUMERATE) {
        s->value = kj_lower_expr(w, n->kids[1]);
    } else {   /* the lengths, from a shape tuple or from ints, kept as an [nd x i64] */
        s->value = LLVMGetUndef(LLVMArrayType2(w->i64, (uint64_t)s->type->ndim));
        unsigned k = 0;
        for (int i = 1; i < n->nkids; i++) {
            const kj_type *at = n->kids[i]->type;
            LLVMValueRef v = kj_lower_expr(w, n->kids[i]);
            int parts = at->kind == KJ_T_TUPLE ? at->n : 1;
            for (int e = 0; e < parts; e++) {
                LLVMValueRef d = at->kind == KJ_T_TUPLE
                                     ? kj_cast(w, LLVMBuildExtractValue(w->b, v, (unsigned)e, ""), at->elems[e], KJ_I64)
                                     : kj_cast(w, v, at, KJ_I64);
                kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, d, LLVMConstInt(w->i64, 0, 0), ""), PyExc_ValueError,
                            "negative dimensions are not allowed");
                s->value = LLVMBuildInsertValue(w->b, s->value, d, k++, "");
            }
        }
    }
    int nd = ndim_of(s);
    LLVMValueRef dims[nd > 0 ? nd : 1], count = LLVMConstInt(w->i64, 1, 0);
    lengths(w, s, dims);
    for (int k = 0; k < nd; k++)
        count = LLVMBuildMul(w->b, count, dims[k], "");
    return count;
}

LLVMValueRef kj_nd_iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) {
    int nd = ndim_of(s);
    LLVMValueRef dims[nd > 0 ? nd : 1], idx[nd > 0 ? nd : 1];
    lengths(w, s, dims);
    for (int k = nd - 1; k > 0; k--) {   /* t < the product of the lengths: what is left is the first index */
        idx[k] = LLVMBuildURem(w->b, t, dims[k], "");
        t = LLVMBuildUDiv(w->b, t, dims[k], "");
    }
    if (nd > 0)
        idx[0] = t;
    const kj_type *item = kj_iter_elem(s->type);
    const kj_type *index_type = s->type->kind == KJ_T_NDINDEX ? item : item->elems[0];
    LLVMValueRef index = LLVMGetUndef(kj_lltype(w, index_type));
    for (int k = 0; k < nd; k++)
        index = LLVMBuildInsertValue(w->b, index, idx[k], (unsigned)k, "");
    if (s->type->kind == KJ_T_NDINDEX)
        return index;
    LLVMValueRef pair = LLVMGetUndef(kj_lltype(w, item));
    pair = LLVMBuildInsertValue(w->b, pair, index, 0, "");
    return LLVMBuildInsertValue(w->b, pair, kj_array_load(w, s->value, s->type->elem, idx), 1, "");
}
