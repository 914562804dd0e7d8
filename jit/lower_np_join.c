/* lower_np_join: np.concatenate, np.stack, np.hstack, np.vstack (and its
 * alias np.row_stack) and np.column_stack of a tuple of arrays, and
 * np.append. Each is a concatenation along one axis of the result: stack
 * first gives every array a new axis of length 1 there, vstack gives 1-d
 * arrays one in front (a row), column_stack one behind (a column). Every array is then copied into its
 * slice of the new C-contiguous result, converting its elements to the
 * result's dtype. */
#include "jit/lower_np.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The result's axis the arrays are joined along, and where each array gets
 * a new axis of length 1 (-1: none), for arrays of nd dimensions. */
static void join_axes(const char *m, const kj_np_args *a, int nd, int rank, int *axis, int *unit_at) {
    kj_node *given = strcmp(m, "concatenate") == 0 || strcmp(m, "stack") == 0 ? kj_np_arg(a, 1, "axis") : NULL;
    *axis = given ? (int)given->ival : (!strcmp(m, "hstack") && nd > 1) || !strcmp(m, "column_stack") ? 1 : 0;
    if (*axis < 0)
        *axis += rank;
    bool rows = !strcmp(m, "vstack") || !strcmp(m, "row_stack");
    *unit_at = !strcmp(m, "stack") ? *axis : rows && nd == 1 ? 0 : -1;
}

/* Array x (type xt) seen with rank dimensions: a new one of length 1 at
 * unit_at (stride 0), or as it is. */
static void expanded(kj_lw *w, LLVMValueRef x, const kj_type *xt, int unit_at, LLVMValueRef *shape, LLVMValueRef *strides) {
    LLVMValueRef sh[KJ_NP_MAXDIM], st[KJ_NP_MAXDIM];
    kj_np_shape(w, x, xt->ndim, sh);
    kj_np_strides(w, x, xt->ndim, st);
    for (int k = 0, j = 0; j < xt->ndim || k == unit_at; k++) {
        if (k == unit_at) {
            shape[k] = c64(w, 1);
            strides[k] = c64(w, 0);
        } else {
            shape[k] = sh[j];
            strides[k] = st[j++];
        }
    }
}

LLVMValueRef kj_np_lower_join(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *rt = n->type, *tt = a->pos[0]->type;
    int nd = tt->elems[0]->ndim, rank = rt->ndim, count = tt->n, axis, unit_at;
    join_axes(m, a, nd, rank, &axis, &unit_at);
    LLVMValueRef tuple = kj_lower_expr(w, a->pos[0]);
    LLVMValueRef arr[count], shape[count][KJ_NP_MAXDIM], strides[count][KJ_NP_MAXDIM];
    for (int i = 0; i < count; i++) {
        arr[i] = LLVMBuildExtractValue(w->b, tuple, (unsigned)i, "");
        bool column = !strcmp(m, "column_stack") && tt->elems[i]->ndim == 1;   /* a 1-d array stands as a column */
        expanded(w, arr[i], tt->elems[i], column ? 1 : unit_at, shape[i], strides[i]);
    }
    /* every axis but the joined one must match the first array's */
    LLVMValueRef out_shape[KJ_NP_MAXDIM];
    for (int k = 0; k < rank; k++) {
        out_shape[k] = shape[0][k];
        for (int i = 1; i < count; i++) {
            if (k == axis) {
                out_shape[k] = LLVMBuildAdd(w->b, out_shape[k], shape[i][k], "");
                continue;
            }
            LLVMValueRef differs = LLVMBuildICmp(w->b, LLVMIntNE, shape[i][k], shape[0][k], "");
            if (!strcmp(m, "stack")) {   /* its own message */
                kj_raise_if(w, differs, PyExc_ValueError, "all input arrays must have the same shape");
                continue;
            }
            char msg[200];
            snprintf(msg, sizeof msg,
                     "all the input array dimensions except for the concatenation axis must match exactly, but "
                     "along dimension %d, the array at index 0 has size %%lld and the array at index %d has size %%lld",
                     k, i);
            kj_np_raise_i64x2_if(w, differs, PyExc_ValueError, msg, shape[0][k], shape[i][k]);
        }
    }
    LLVMValueRef out = kj_np_alloc(w, rt, out_shape, false);
    LLVMValueRef out_strides[KJ_NP_MAXDIM], owner = kj_array_field(w, out, 0, 0), data = kj_array_field(w, out, 1, 0);
    kj_np_strides(w, out, rank, out_strides);
    const kj_type *slice_t = kj_array(rt->elem, rank, KJ_LAYOUT_A, false);
    for (int i = 0; i < count; i++) {
        const kj_type *src_t = kj_array(tt->elems[i]->elem, rank, KJ_LAYOUT_A, false);
        LLVMValueRef src = kj_np_make(w, src_t, kj_array_field(w, arr[i], 0, 0), kj_array_field(w, arr[i], 1, 0),
                                      shape[i], strides[i]);
        LLVMValueRef slice = kj_np_make(w, slice_t, owner, data, shape[i], out_strides);
        kj_np_copy_into(w, slice, slice_t, src, src_t);
        LLVMValueRef step = LLVMBuildMul(w->b, shape[i][axis], out_strides[axis], "");
        data = LLVMBuildGEP2(w->b, w->i8, data, &step, 1, "");
    }
    return out;
}

/* np.append(arr, values): each raveled (C order) into its part of a new
 * 1-d array, converted to the result's dtype. */
LLVMValueRef kj_np_lower_append(kj_lw *w, kj_node *n, const kj_np_args *a) {
    const kj_type *t = n->type;
    kj_node *parts[2] = {kj_np_arg(a, 0, "arr"), kj_np_arg(a, 1, "values")};
    LLVMValueRef v[2], size[2];
    for (int i = 0; i < 2; i++) {
        v[i] = kj_lower_expr(w, parts[i]);
        size[i] = parts[i]->type->kind == KJ_T_ARRAY ? kj_np_size(w, v[i], parts[i]->type->ndim) : c64(w, 1);
    }
    LLVMValueRef total = LLVMBuildAdd(w->b, size[0], size[1], "");
    LLVMValueRef out = kj_np_alloc(w, t, &total, false), data = kj_array_field(w, out, 1, 0);
    LLVMValueRef at = c64(w, 0);
    for (int i = 0; i < 2; i++) {
        const kj_type *pt = parts[i]->type;
        LLVMValueRef off = LLVMBuildMul(w->b, at, kj_np_itemsize(w, t->elem), "");
        LLVMValueRef dst = LLVMBuildGEP2(w->b, w->i8, data, &off, 1, "");
        if (pt->kind == KJ_T_ARRAY) {   /* the part of the result seen with this operand's shape */
            LLVMValueRef shape[KJ_NP_MAXDIM];
            kj_np_shape(w, v[i], pt->ndim, shape);
            const kj_type *vt = kj_array(t->elem, pt->ndim, KJ_LAYOUT_C, false);
            kj_np_copy_into(w, kj_np_make(w, vt, kj_array_field(w, out, 0, 0), dst, shape, NULL), vt, v[i], pt);
        } else {
            kj_np_store_elem(w, dst, v[i], pt, t->elem);
        }
        at = size[0];
    }
    return out;
}
