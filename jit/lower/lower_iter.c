/* lower_iter: what a `for` loop (and a comprehension, and zip) walks: the
 * count of an iterable and its item at a position, for ranges, arrays,
 * tuples, lists, enumerate, zip, reversed, np.ndindex and np.ndenumerate. */
#include "jit/core/kind_ops.h"
#include "jit/lower/lower.h"

#include <stdlib.h>

/* The number of elements of range(start, stop, step), raising on step 0. */
LLVMValueRef kj_range_len(kj_lw *w, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step) {
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, step, LLVMConstInt(w->i64, 0, 0), ""),
                PyExc_ValueError, "range() arg 3 must not be zero");
    LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0), one = LLVMConstInt(w->i64, 1, 0);
    LLVMValueRef pos = LLVMBuildICmp(w->b, LLVMIntSGT, step, zero, "");
    LLVMValueRef lo = LLVMBuildSelect(w->b, pos, start, stop, "");
    LLVMValueRef hi = LLVMBuildSelect(w->b, pos, stop, start, "");
    LLVMValueRef mag = LLVMBuildSelect(w->b, pos, step, LLVMBuildNeg(w->b, step, ""), "");
    LLVMValueRef nonempty = LLVMBuildICmp(w->b, LLVMIntSLT, lo, hi, "");
    LLVMValueRef span = LLVMBuildSub(w->b, LLVMBuildSub(w->b, hi, lo, ""), one, "");
    LLVMValueRef n = LLVMBuildAdd(w->b, LLVMBuildUDiv(w->b, span, mag, ""), one, "");
    return LLVMBuildSelect(w->b, nonempty, n, zero, "len");
}

LLVMValueRef kj_iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    s->node = n;
    s->type = n->type;
    LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0), one = LLVMConstInt(w->i64, 1, 0);
    switch (n->type->kind) {
    case KJ_T_RANGE: {
        int na = n->nkids - 1;
        LLVMValueRef a[3] = {zero, zero, one};
        for (int i = 0; i < na && i < 3; i++)
            a[i] = kj_cast(w, kj_lower_expr(w, n->kids[i + 1]), n->kids[i + 1]->type, KJ_I64);
        s->start = na == 1 ? zero : a[0];
        LLVMValueRef stop = na == 1 ? a[0] : a[1];
        s->step = na == 3 ? a[2] : one;
        if (na < 3)
            return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, s->start, stop, ""),
                                   LLVMBuildSub(w->b, stop, s->start, ""), zero, "len");
        return kj_range_len(w, s->start, stop, s->step);
    }
    case KJ_T_TUPLE:   /* only in unrolled loops (lower_for_tuple) */
        s->value = kj_lower_expr(w, n);
        return LLVMConstInt(w->i64, (unsigned long long)n->type->n, 0);
    case KJ_T_ARRAY:
        s->value = kj_lower_expr(w, n);
        return kj_array_len(w, s->value);
    case KJ_T_REVERSED:   /* item t is the sequence's item len - 1 - t; value holds len */
        s->subs = calloc(1, sizeof *s->subs);
        s->nsubs = 1;
        return s->value = kj_iter_setup(w, n->kids[1], &s->subs[0]);
    case KJ_T_ENUMERATE: {
        s->subs = calloc(1, sizeof *s->subs);
        s->nsubs = 1;
        s->enum_start = n->nkids > 2 ? kj_cast(w, kj_lower_expr(w, n->kids[2]), n->kids[2]->type, KJ_I64)
                                     : zero;
        return kj_iter_setup(w, n->kids[1], &s->subs[0]);
    }
    case KJ_T_ZIP: {
        s->nsubs = n->nkids - 1;
        s->subs = calloc((size_t)s->nsubs, sizeof *s->subs);
        LLVMValueRef len = NULL;
        for (int i = 0; i < s->nsubs; i++) {
            LLVMValueRef l = kj_iter_setup(w, n->kids[i + 1], &s->subs[i]);
            len = len ? LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, l, len, ""), l, len, "")
                      : l;
        }
        return len ? len : zero;
    }
    default:   /* lists, sets, dicts and their views; np.ndindex, np.ndenumerate */
        return kj_kind_ops_of(n->type->kind)->iter_setup ? kj_kind_ops_of(n->type->kind)->iter_setup(w, n, s) : zero;
    }
}

LLVMValueRef kj_iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) {
    switch (s->type->kind) {
    case KJ_T_RANGE: {
        /* nsw: a range's items lie between its start and stop, so neither
         * step overflows; with a start and step known non-negative (a GPU
         * grid-stride loop) LLVM then knows i is too */
        LLVMValueRef i = LLVMBuildNSWAdd(w->b, s->start, LLVMBuildNSWMul(w->b, t, s->step, ""), "i");
        /* range(n), range(0, n, 2): the index is never negative; saying so
         * lets LLVM drop the negative-index wraparound of a[i] and keep
         * unit-stride loads the vectorizer can widen */
        if (LLVMIsAConstantInt(s->step) && LLVMConstIntGetSExtValue(s->step) > 0) {
            /* counting up, i never goes below its start: range(i + 1, n)
             * inside a loop over range(n) is known non-negative too */
            LLVMValueRef above = LLVMBuildICmp(w->b, LLVMIntSGE, i, s->start, "");
            kj_call_intrinsic(w, "llvm.assume", NULL, 1, &above);
            if (LLVMIsAConstantInt(s->start) && LLVMConstIntGetSExtValue(s->start) >= 0) {
                LLVMValueRef nonneg = LLVMBuildICmp(w->b, LLVMIntSGE, i, LLVMConstInt(w->i64, 0, 0), "");
                kj_call_intrinsic(w, "llvm.assume", NULL, 1, &nonneg);
            }
        }
        return i;
    }
    case KJ_T_TUPLE: {   /* t is a constant: the loop is unrolled */
        unsigned i = (unsigned)LLVMConstIntGetZExtValue(t);
        return kj_cast(w, LLVMBuildExtractValue(w->b, s->value, i, ""), s->type->elems[i],
                       kj_iter_elem(s->type));
    }
    case KJ_T_ARRAY:
        return kj_array_item(w, s->value, s->type, t);
    case KJ_T_REVERSED:
        return kj_iter_item(w, &s->subs[0], LLVMBuildSub(w->b, LLVMBuildSub(w->b, s->value, t, ""),
                                                         LLVMConstInt(w->i64, 1, 0), ""));
    case KJ_T_ENUMERATE: {
        LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, kj_iter_elem(s->type)));
        tup = LLVMBuildInsertValue(w->b, tup, LLVMBuildAdd(w->b, t, s->enum_start, ""), 0, "");
        return LLVMBuildInsertValue(w->b, tup, kj_iter_item(w, &s->subs[0], t), 1, "");
    }
    case KJ_T_ZIP: {
        LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, kj_iter_elem(s->type)));
        for (int i = 0; i < s->nsubs; i++)
            tup = LLVMBuildInsertValue(w->b, tup, kj_iter_item(w, &s->subs[i], t), (unsigned)i, "");
        return tup;
    }
    default:   /* as iter_setup */
        return kj_kind_ops_of(s->type->kind)->iter_item ? kj_kind_ops_of(s->type->kind)->iter_item(w, s, t) : NULL;
    }
}

void kj_iter_free(kj_iter *s) {
    for (int i = 0; i < s->nsubs; i++)
        kj_iter_free(&s->subs[i]);
    free(s->subs);
}
