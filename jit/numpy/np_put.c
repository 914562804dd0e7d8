/* np_put: np.put(a, ind, v) and np.place(arr, mask, vals) in compiled code,
 * typing and lowering: writes into an array at positions of its C order
 * (a view of any layout included, as NumPy's a.flat), the values taken in
 * turn and repeated. np.put: ind an int or a 1-d array of ints, negative
 * from the end, NumPy's IndexError for one out of range (mode='raise');
 * nothing written for an empty v. np.place: where mask (of a's size) is
 * true; NumPy's ValueErrors for a mask of another size, and for no values
 * where the mask has a true element. Both give None. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *put_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool put = m[1] == 'u';
    static const char *const put_names[] = {"a", "ind", "v", "mode", NULL}, *const place_names[] = {"arr", "mask", "vals", NULL};
    const char *const *known = put ? put_names : place_names;
    kj_node *mode = put ? kj_np_arg(a, 3, "mode") : NULL;
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, known[0])), *where = kj_np_arg_type(c, kj_np_arg(a, 1, known[1]));
    const kj_type *v = kj_np_arg_type(c, kj_np_arg(a, 2, known[2]));
    if (!x || !where || !v)
        return NULL;
    const kj_type *we = where->kind == KJ_T_ARRAY ? where->elem : where;
    bool where_ok = put ? (kj_is_intlike(we) && we->kind != KJ_T_BOOL && (where->kind != KJ_T_ARRAY || where->ndim == 1))
                        : where->kind == KJ_T_ARRAY && (we->kind == KJ_T_BOOL || kj_is_intlike(we));
    if (a->npos > (put ? 4 : 3) || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || !where_ok ||
        !(kj_is_number(v) || v->kind == KJ_T_ARRAY) || (mode && !(mode->kind == KJ_E_CONST && mode->str && !strcmp(mode->str, "raise"))))
        FAIL(c, n, put ? "Index the flat array instead: a.ravel()[ind] = v, for a C-contiguous a." : "Write a[mask] = vals.",
             put ? "np.put takes an array, an int or a 1-d array of ints, values and mode='raise' here"
                 : "np.place takes an array, a mask array and values here");
    if (x->readonly)
        FAIL(c, n, NULL, "np.%s cannot write into a %s", m, x->name);
    if ((v->kind == KJ_T_ARRAY ? v->elem : v)->kind == KJ_T_COMPLEX && x->elem->kind != KJ_T_COMPLEX)
        FAIL(c, n, NULL, "np.%s cannot write complex values into %s", m, x->name);
    return kj_none();
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* Element k of arr (type t) in C order, whatever its layout. */
static LLVMValueRef flat_ptr(kj_lw *w, LLVMValueRef arr, const kj_type *t, LLVMValueRef k) {
    LLVMValueRef idx[KJ_NP_MAXDIM];
    for (int d = t->ndim - 1; d >= 0; d--) {
        LLVMValueRef len = kj_array_field(w, arr, 2, d);
        idx[d] = d ? LLVMBuildSRem(w->b, k, len, "") : k;
        if (d)
            k = LLVMBuildSDiv(w->b, k, len, "");
    }
    return kj_np_ptr(w, arr, t->ndim, idx);
}

/* The values as a line to take from in turn: the data of v (type vt; a C
 * copy where it is not contiguous) or a one-element slot for a number. */
static LLVMValueRef values_line(kj_lw *w, LLVMValueRef v, const kj_type *vt, LLVMValueRef *count) {
    if (vt->kind == KJ_T_ARRAY) {
        *count = kj_np_size(w, v, vt->ndim);
        return kj_np_whole_line(w, v, vt);
    }
    *count = c64(w, 1);
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, vt), "value");
    kj_np_store_elem(w, slot, v, vt, vt);
    return slot;
}

/* Writes value j (mod count) of line (element type ve) at p, an element of et. */
static void write_value(kj_lw *w, LLVMValueRef p, const kj_type *et, LLVMValueRef line, const kj_type *ve,
                        LLVMValueRef j, LLVMValueRef count) {
    LLVMValueRef at = LLVMBuildSRem(w->b, j, count, "");
    LLVMValueRef v = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, ve), line, &at, 1, ""), ve);
    kj_np_store_elem(w, p, v, ve, et);
}

static LLVMValueRef lower_put(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)n;
    LLVMBuilderRef b = w->b;
    bool put = m[1] == 'u';
    kj_node *xn = kj_np_arg(a, 0, put ? "a" : "arr");
    kj_node *wn = kj_np_arg(a, 1, put ? "ind" : "mask"), *vn = kj_np_arg(a, 2, put ? "v" : "vals");
    const kj_type *xt = xn->type, *wt = wn->type, *vt = vn->type, *ve = vt->kind == KJ_T_ARRAY ? vt->elem : vt;
    LLVMValueRef x = kj_lower_expr(w, xn), where = kj_lower_expr(w, wn), v = kj_lower_expr(w, vn);
    LLVMValueRef size = kj_np_size(w, x, xt->ndim), count, line = values_line(w, v, vt, &count);
    LLVMBasicBlockRef work = kj_new_bb(w, "put.work"), done = kj_new_bb(w, "put.done");
    if (put) {   /* nothing to write without values */
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, count, c64(w, 0), ""), work, done);
        LLVMPositionBuilderAtEnd(b, work);
        LLVMValueRef positions = wt->kind == KJ_T_ARRAY ? kj_array_len(w, where) : c64(w, 1);
        kj_np_loop l;
        LLVMValueRef j = kj_np_loop_begin(w, &l, positions);
        LLVMValueRef asked = wt->kind == KJ_T_ARRAY ? kj_array_item(w, where, wt, j) : where;
        LLVMValueRef k = kj_np_checked_index(w, asked, wt->kind == KJ_T_ARRAY ? wt->elem : wt, size, 0);
        write_value(w, flat_ptr(w, x, xt, k), xt->elem, line, ve, j, count);
        kj_np_loop_end(w, &l);
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, done);
        return LLVMConstInt(w->i8, 0, 0);
    }
    kj_raise_if(w, LLVMBuildICmp(b, LLVMIntNE, kj_np_size(w, where, wt->ndim), size, ""), PyExc_ValueError,
                "place: mask and data must be the same size");
    LLVMValueRef mask = kj_np_whole_line(w, where, wt), taken = kj_entry_alloca(w, w->i64, "taken");
    LLVMBuildStore(b, c64(w, 0), taken);
    LLVMBuildBr(b, work);
    LLVMPositionBuilderAtEnd(b, work);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, size);
    LLVMValueRef flag = kj_np_load(w, LLVMBuildGEP2(b, kj_llmemtype(w, wt->elem), mask, &i, 1, ""), wt->elem);
    LLVMBasicBlockRef write = kj_new_bb(w, "place.write"), next = kj_new_bb(w, "place.next");
    LLVMBuildCondBr(b, kj_truth(w, flag, wt->elem), write, next);
    LLVMPositionBuilderAtEnd(b, write);
    kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError, "Cannot insert from an empty array!");
    LLVMValueRef j = LLVMBuildLoad2(b, w->i64, taken, "");
    write_value(w, flat_ptr(w, x, xt, i), xt->elem, line, ve, j, count);
    LLVMBuildStore(b, LLVMBuildAdd(b, j, c64(w, 1), ""), taken);
    LLVMBuildBr(b, next);
    LLVMPositionBuilderAtEnd(b, next);
    kj_np_loop_end(w, &l);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    return LLVMConstInt(w->i8, 0, 0);
}

KJ_CALLABLE(put, .name = "np.put", .targets = KJ_ON_ANY, .np_type = put_type, .np_lower = lower_put);
KJ_CALLABLE(place, .name = "np.place", .targets = KJ_ON_ANY, .np_type = put_type, .np_lower = lower_put);
