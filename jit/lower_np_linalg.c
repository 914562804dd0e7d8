/* lower_np_linalg: np.linalg.solve, inv and det. The matrices go to
 * LAPACK (rt_linalg.c) as Fortran-order float64 copies, as NumPy computes
 * in float64 whatever the input; results come back to C order in the
 * result's type (float32 when every operand is, as NumPy's). */
#include "jit/lower_np.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The transpose of 2-d arr as a view (shape and strides swapped). */
static LLVMValueRef transposed(kj_lw *w, LLVMValueRef arr, const kj_type *at, const kj_type **tt) {
    LLVMValueRef shape[2], strides[2];
    kj_np_shape(w, arr, 2, shape);
    kj_np_strides(w, arr, 2, strides);
    *tt = kj_array(at->elem, 2, KJ_LAYOUT_A, at->readonly);
    return kj_np_make(w, *tt, kj_array_field(w, arr, 0, 0), kj_array_field(w, arr, 1, 0),
                      (LLVMValueRef[]){shape[1], shape[0]}, (LLVMValueRef[]){strides[1], strides[0]});
}

/* arr's items in Fortran order, as a new C-order array of et (the
 * transpose's C order; a 1-d array is the same either way). */
static LLVMValueRef fortran_copy(kj_lw *w, LLVMValueRef arr, const kj_type *at, const kj_type *et) {
    if (at->ndim == 1)
        return kj_np_copy(w, arr, at, et);
    const kj_type *tt;
    LLVMValueRef t = transposed(w, arr, at, &tt);
    return kj_np_copy(w, t, tt, et);
}

/* Leaves the function when the runtime raised (rc != 0). */
static void check(kj_lw *w, LLVMValueRef rc) {
    kj_np_fail_end(w, kj_np_fail_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, rc, LLVMConstInt(w->i32, 0, 0), "")));
}

/* n, after raising LinAlgError when the 2-d arr is not square. */
static LLVMValueRef square_size(kj_lw *w, LLVMValueRef arr) {
    LLVMValueRef n = kj_array_field(w, arr, 2, 0);
    LLVMBasicBlockRef ok = kj_np_fail_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, n, kj_array_field(w, arr, 2, 1), ""));
    kj_call(w, "kj_la_raise", w->vd, 1, &w->ptr,
            (LLVMValueRef[]){LLVMBuildGlobalStringPtr(w->b, "Last 2 dimensions of the array must be square", "msg")});
    kj_np_fail_end(w, ok);
    return n;
}

LLVMValueRef kj_np_lower_linalg(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a");
    const kj_type *t = n->type, *et = t->kind == KJ_T_ARRAY ? t->elem : t;
    LLVMValueRef arr = kj_lower_expr(w, an), size = square_size(w, arr);
    LLVMValueRef lu = fortran_copy(w, arr, an->type, KJ_F64), lu_data = kj_array_field(w, lu, 1, 0);
    if (!strcmp(m, "det")) {
        LLVMValueRef out = kj_entry_alloca(w, w->f64, "det");
        check(w, kj_call(w, "kj_la_det", w->i32, 3, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr}, (LLVMValueRef[]){size, lu_data, out}));
        return kj_cast(w, LLVMBuildLoad2(w->b, w->f64, out, ""), KJ_F64, et);
    }
    LLVMValueRef rhs;   /* Fortran order: for inv the identity, which is its own transpose */
    const kj_type *rt = kj_array(KJ_F64, m[0] == 'i' ? 2 : a->pos[1]->type->ndim, KJ_LAYOUT_C, false);
    if (m[0] == 'i') {
        rhs = kj_np_alloc(w, rt, (LLVMValueRef[]){size, size}, true);
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, size);
        kj_np_store_elem(w, kj_np_ptr(w, rhs, 2, (LLVMValueRef[]){i, i}), LLVMConstReal(w->f64, 1.0), KJ_F64, KJ_F64);
        kj_np_loop_end(w, &l);
    } else {
        kj_node *bn = kj_np_arg(a, 1, "b");
        LLVMValueRef b = kj_lower_expr(w, bn), rows = kj_array_field(w, b, 2, 0);
        kj_np_raise_i64x2_if(w, LLVMBuildICmp(w->b, LLVMIntNE, rows, size, ""), PyExc_ValueError,
                             bn->type->ndim == 1
                                 ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                                   "(m,m),(m)->(m) (size %lld is different from %lld)"
                                 : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                                   "(m,m),(m,n)->(m,n) (size %lld is different from %lld)",
                             rows, size);
        rhs = fortran_copy(w, b, bn->type, KJ_F64);
    }
    LLVMValueRef nrhs = rt->ndim == 1 ? c64(w, 1) : kj_array_field(w, rhs, 2, 0);
    check(w, kj_call(w, "kj_la_solve", w->i32, 4, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->ptr},
                     (LLVMValueRef[]){size, nrhs, lu_data, kj_array_field(w, rhs, 1, 0)}));
    if (rt->ndim == 1)
        return et == KJ_F64 ? rhs : kj_np_copy(w, rhs, rt, et);
    const kj_type *tt;   /* the solution, Fortran order, back to C order */
    LLVMValueRef solution = transposed(w, rhs, rt, &tt);
    return kj_np_copy(w, solution, tt, et);
}
