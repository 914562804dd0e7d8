/* np_ndindex: np.ndindex(shape) and np.ndenumerate(a), and `for` loops over np.ndindex(shape) and np.ndenumerate(a).
 * The loop counts t over the positions (the product of the lengths, 1 for
 * no dimension), and the index of position t, in C order as NumPy walks
 * them (the last axis fastest), is kept in a counter that carries like an
 * odometer: `for` loops and comprehensions take their items in turn, t = 0,
 * 1, 2, ... (lower.h), and the next index is an increment and a compare.
 * Unravelling each t by division made a sum over np.ndindex several
 * times slower than Numba's (bench/MEASURED.md). */
#include "jit/core/kind_ops.h"
#include "jit/lower/lower.h"
#include "jit/numpy/infer_np.h"

#include <Python.h>
#include <stdio.h>

#define FAIL KJ_INFER_FAIL

/* np.ndindex(shape) or np.ndindex(n0, n1, ...) with ints; np.ndenumerate(a)
 * of an array of one dimension or more. Loops over them only. */
static const kj_type *nd_iteration_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->nkw)
        FAIL(c, n, NULL, "np.%s takes no keywords", m);
    if (m[2] == 'e') {
        const kj_type *x = a->npos == 1 ? kj_np_arg_type(c, a->pos[0]) : NULL;
        if (!x || x->kind != KJ_T_ARRAY || x->ndim == 0)
            FAIL(c, n, "Loop over a.flat positions with np.ndindex(a.shape), or index a 0-d array with a[()].",
                 "np.ndenumerate takes one array of one dimension or more%s%s", x ? ", got " : "", x ? x->name : "");
        return kj_ndenumerate(x);
    }
    int nd = 0;
    for (int i = 0; i < a->npos; i++) {
        const kj_type *t = kj_np_arg_type(c, a->pos[i]);
        bool shape = a->npos == 1 && t && t->kind == KJ_T_TUPLE;
        for (int k = 0; shape && k < t->n; k++)
            shape = kj_is_intlike(t->elems[k]);
        if (!t || (!shape && !kj_is_intlike(t)))
            FAIL(c, n, "Give it a.shape, or the lengths as ints: np.ndindex(3, 4).",
                 "np.ndindex takes a tuple of ints or ints%s%s", t ? ", got " : "", t ? t->name : "");
        nd += shape ? t->n : 1;
    }
    return kj_ndindex(nd);
}


static int ndim_of(const kj_iter *s) {
    return s->type->kind == KJ_T_NDENUMERATE ? s->type->elem->ndim : s->type->ndim;
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The lengths of the iteration's dimensions, into dims. */
static void lengths(kj_lw *w, kj_iter *s, LLVMValueRef *dims) {
    for (int k = 0; k < ndim_of(s); k++)
        dims[k] = s->type->kind == KJ_T_NDENUMERATE ? kj_array_field(w, s->value, 2, k)
                                                     : LLVMBuildExtractValue(w->b, s->value, (unsigned)k, "");
}

static LLVMValueRef counter_at(kj_lw *w, kj_iter *s, int k) {
    LLVMValueRef at[2] = {c64(w, 0), c64(w, k)};
    return LLVMBuildGEP2(w->b, LLVMArrayType2(w->i64, (uint64_t)ndim_of(s)), s->position, at, 2, "");
}

static LLVMValueRef nd_iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    int nd = ndim_of(s);
    if (s->type->kind == KJ_T_NDENUMERATE) {
        s->value = kj_lower_expr(w, n->kids[1]);
    } else {   /* the lengths, from a shape tuple or from ints, kept as an [nd x i64] */
        s->value = LLVMGetUndef(LLVMArrayType2(w->i64, (uint64_t)nd));
        unsigned k = 0;
        for (int i = 1; i < n->nkids; i++) {
            const kj_type *at = n->kids[i]->type;
            LLVMValueRef v = kj_lower_expr(w, n->kids[i]);
            int parts = at->kind == KJ_T_TUPLE ? at->n : 1;
            for (int e = 0; e < parts; e++) {
                LLVMValueRef d = at->kind == KJ_T_TUPLE
                                     ? kj_cast(w, LLVMBuildExtractValue(w->b, v, (unsigned)e, ""), at->elems[e], KJ_I64)
                                     : kj_cast(w, v, at, KJ_I64);
                kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, d, c64(w, 0), ""), PyExc_ValueError,
                            "negative dimensions are not allowed");
                s->value = LLVMBuildInsertValue(w->b, s->value, d, k++, "");
            }
        }
    }
    s->position = kj_entry_alloca(w, LLVMArrayType2(w->i64, (uint64_t)(nd > 0 ? nd : 1)), "nd.index");
    LLVMValueRef dims[nd > 0 ? nd : 1], count = c64(w, 1);
    lengths(w, s, dims);
    for (int k = 0; k < nd; k++) {
        LLVMBuildStore(w->b, c64(w, 0), counter_at(w, s, k));
        count = LLVMBuildMul(w->b, count, dims[k], "");
    }
    return count;
}

/* The counter, now at idx, to the next position: the last axis one up, and
 * where it reaches its length, 0 and a carry into the axis before. Branches,
 * taken rarely, rather than selects: a select would put the compare on the
 * loop's chain of dependences, three cycles a position instead of one. */
static void step_counter(kj_lw *w, kj_iter *s, LLVMValueRef *idx, LLVMValueRef *dims) {
    LLVMBasicBlockRef done = kj_new_bb(w, "nd.stepped");
    for (int k = ndim_of(s) - 1; k >= 0; k--) {
        LLVMValueRef up = LLVMBuildAdd(w->b, idx[k], c64(w, 1), "");
        LLVMValueRef wrap = LLVMBuildICmp(w->b, LLVMIntEQ, up, dims[k], "");
        LLVMValueRef expect[2] = {wrap, LLVMConstInt(w->i1, 0, 0)};
        wrap = kj_call_intrinsic(w, "llvm.expect", w->i1, 2, expect);
        LLVMBasicBlockRef same = kj_new_bb(w, "nd.step"), carry = kj_new_bb(w, "nd.carry");
        LLVMBuildCondBr(w->b, wrap, carry, same);
        LLVMPositionBuilderAtEnd(w->b, same);
        LLVMBuildStore(w->b, up, counter_at(w, s, k));
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, carry);
        LLVMBuildStore(w->b, c64(w, 0), counter_at(w, s, k));
    }
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

static LLVMValueRef nd_iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) {
    (void)t;   /* the counter is at position t: items are taken in turn */
    int nd = ndim_of(s);
    LLVMValueRef dims[nd > 0 ? nd : 1], idx[nd > 0 ? nd : 1];
    lengths(w, s, dims);
    for (int k = 0; k < nd; k++) {
        idx[k] = LLVMBuildLoad2(w->b, w->i64, counter_at(w, s, k), "");
        /* 0 <= idx < length: LLVM then drops a[idx]'s negative-index wraparound */
        LLVMValueRef inside = LLVMBuildICmp(w->b, LLVMIntULT, idx[k], dims[k], "");
        kj_call_intrinsic(w, "llvm.assume", NULL, 1, &inside);
    }
    step_counter(w, s, idx, dims);
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

KJ_KIND_OPS(ndindex, .kind = KJ_T_NDINDEX, .iter_setup = nd_iter_setup, .iter_item = nd_iter_item);
KJ_KIND_OPS(ndenumerate, .kind = KJ_T_NDENUMERATE, .iter_setup = nd_iter_setup, .iter_item = nd_iter_item);

/* Only loops take them (kj_iter above); a call kept as a value is refused. */
static LLVMValueRef lower_as_value(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)a;
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, "Write the call in the loop itself: for i in np.ndindex(a.shape).",
            "np.%s is compiled only as the iterable of a for loop or a comprehension", m);
    return LLVMGetUndef(kj_lltype(w, n->type));
}

KJ_CALLABLE(ndindex, .name = "np.ndindex", .targets = KJ_ON_ANY, .np_type = nd_iteration_type, .np_lower = lower_as_value);
KJ_CALLABLE(ndenumerate, .name = "np.ndenumerate", .targets = KJ_ON_ANY, .np_type = nd_iteration_type,
            .np_lower = lower_as_value);
