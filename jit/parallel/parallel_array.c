/* parallel_array: array reductions in prange loops (`acc += a[i]`, `acc *=
 * row`, as Numba allows), for parallel_lower.c.
 *
 * Each pool slot gets a private array of acc's shape, made at the slot's
 * first chunk and filled with the operation's identity (0 for += and -=, 1
 * for *=); the body updates it in place in acc's stead. After the run the
 * parent adds (multiplies) the slots' arrays into acc in slot order and
 * gives them back, on the error path too. The cost: one array per thread
 * that took part, and one pass over each at the end. */
#include "jit/numpy/lower_np.h"
#include "jit/lower/lower_nrt.h"
#include "jit/parallel/parallel.h"
#include "jit/runtime/pool.h"

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef slot_ptr(kj_lw *w, const kj_type *t, LLVMValueRef partials, LLVMValueRef k) {
    LLVMTypeRef at = LLVMArrayType2(kj_lltype(w, t), KJ_POOL_MAX_THREADS);
    return LLVMBuildGEP2(w->b, at, partials, (LLVMValueRef[]){c64(w, 0), k}, 2, "");
}

/* Whether a slot's array has been made (the parent starts them all null). */
static LLVMValueRef is_made(kj_lw *w, LLVMValueRef arr) {
    return LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildExtractValue(w->b, arr, 0, ""), LLVMConstNull(w->ptr), "");
}

void kj_par_array_partial(kj_lw *o, kj_red_op op, const kj_type *t, LLVMValueRef acc, LLVMValueRef partials,
                          LLVMValueRef slot, LLVMValueRef local) {
    LLVMTypeRef lt = kj_lltype(o, t);
    LLVMValueRef p = slot_ptr(o, t, partials, slot);
    LLVMBasicBlockRef make = kj_new_bb(o, "partial.make"), ready = kj_new_bb(o, "partial.ready");
    LLVMBuildCondBr(o->b, is_made(o, LLVMBuildLoad2(o->b, lt, p, "")), ready, make);
    LLVMPositionBuilderAtEnd(o->b, make);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(o, acc, t->ndim, shape);
    LLVMValueRef fresh = kj_np_alloc(o, t, shape, false);
    kj_np_fill(o, fresh, t, kj_cast(o, c64(o, op == KJ_RED_MUL), KJ_I64, t->elem), t->elem);
    kj_nrt_replace(o, p, fresh, t);   /* the slot keeps it past this chunk */
    LLVMBuildStore(o->b, fresh, p);
    LLVMBuildBr(o->b, ready);
    LLVMPositionBuilderAtEnd(o->b, ready);
    LLVMValueRef mine = LLVMBuildLoad2(o->b, lt, p, "");
    kj_nrt_replace(o, local, mine, t);
    LLVMBuildStore(o->b, mine, local);
}

/* acc[...] = acc[...] op part[...], element by element (same shapes). */
static void combine_into(kj_lw *w, kj_node *at, kj_red_op op, LLVMValueRef acc, LLVMValueRef part,
                         const kj_type *t) {
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, acc, t->ndim, shape);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, t->ndim, shape, idx);
    LLVMValueRef dst = kj_np_ptr(w, acc, t->ndim, idx);
    LLVMValueRef x[2] = {kj_np_load(w, dst, t->elem), kj_np_load(w, kj_np_ptr(w, part, t->ndim, idx), t->elem)};
    /* partials of -= start at 0 and subtract: the total adds them */
    LLVMValueRef r = kj_np_elem_op(w, at, op == KJ_RED_MUL ? "multiply" : "add", 2, x,
                                   (const kj_type *[]){t->elem, t->elem}, t->elem);
    kj_np_store_elem(w, dst, r, t->elem, t->elem);
    kj_np_nest_end(w, &nest);
}

void kj_par_array_fold(kj_lw *w, kj_node *at, kj_red_op op, const kj_type *t, LLVMValueRef partials,
                       LLVMValueRef acc_slot) {
    LLVMTypeRef lt = kj_lltype(w, t);
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, c64(w, KJ_POOL_MAX_THREADS));
    LLVMValueRef part = LLVMBuildLoad2(w->b, lt, slot_ptr(w, t, partials, k), "");
    LLVMBasicBlockRef use = kj_new_bb(w, "partial.fold"), next = kj_new_bb(w, "partial.next");
    LLVMBuildCondBr(w->b, is_made(w, part), use, next);
    LLVMPositionBuilderAtEnd(w->b, use);
    combine_into(w, at, op, LLVMBuildLoad2(w->b, lt, acc_slot, ""), part, t);
    kj_nrt_decref_value(w, part, t);
    LLVMBuildBr(w->b, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    kj_np_loop_end(w, &l);
}
