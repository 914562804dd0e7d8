/* lower_np_join: np.concatenate, np.stack, np.hstack, np.vstack (and its
 * alias np.row_stack) and np.column_stack of a tuple or a list of arrays,
 * np.array of a list of arrays or of nested lists (np.append: np_append.c). Each is a
 * concatenation along one axis of the result: stack first gives every
 * array a new axis of length 1 there, vstack gives 1-d arrays one in front
 * (a row), column_stack one behind (a column). Every array is then copied
 * into its slice of the new C-contiguous result, converting its elements
 * to the result's dtype. */
#include "jit/containers/lists.h"
#include "jit/numpy/lower_np.h"

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

/* Raises NumPy's error when a part (expanded shape sh, at index i) does
 * not match the first part (first) on an axis other than the joined one. */
static void check_part(kj_lw *w, const char *m, int rank, int axis, const LLVMValueRef *first, const LLVMValueRef *sh,
                       LLVMValueRef i) {
    for (int k = 0; k < rank; k++) {
        if (k == axis)
            continue;
        LLVMValueRef differs = LLVMBuildICmp(w->b, LLVMIntNE, sh[k], first[k], "");
        if (!strcmp(m, "stack")) {   /* its own message */
            kj_raise_if(w, differs, PyExc_ValueError, "all input arrays must have the same shape");
            continue;
        }
        char msg[200];
        snprintf(msg, sizeof msg,
                 "all the input array dimensions except for the concatenation axis must match exactly, but "
                 "along dimension %d, the array at index 0 has size %%lld and the array at index %%lld has size %%lld",
                 k);
        kj_np_raise_i64x3_if(w, differs, PyExc_ValueError, msg, first[k], i, sh[k]);
    }
}

/* Copies a part (array x of type xt, expanded to shape sh and strides st)
 * into the result (owner, strides ostrides, element type of rt) at data;
 * the position just past it. */
static LLVMValueRef copy_part(kj_lw *w, const kj_type *rt, int axis, LLVMValueRef x, const kj_type *xt, LLVMValueRef *sh,
                              LLVMValueRef *st, LLVMValueRef owner, LLVMValueRef *ostrides, LLVMValueRef data) {
    const kj_type *src_t = kj_array(xt->elem, rt->ndim, KJ_LAYOUT_A, false), *slice_t = kj_array(rt->elem, rt->ndim, KJ_LAYOUT_A, false);
    LLVMValueRef src = kj_np_make(w, src_t, kj_array_field(w, x, 0, 0), kj_array_field(w, x, 1, 0), sh, st);
    kj_np_copy_into(w, kj_np_make(w, slice_t, owner, data, sh, ostrides), slice_t, src, src_t);
    LLVMValueRef step = LLVMBuildMul(w->b, sh[axis], ostrides[axis], "");
    return LLVMBuildGEP2(w->b, w->i8, data, &step, 1, "");
}

/* A tuple of arrays: each part's type and shape are known one by one. */
static LLVMValueRef join_tuple(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
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
    LLVMValueRef out_shape[KJ_NP_MAXDIM];
    for (int k = 0; k < rank; k++)
        out_shape[k] = shape[0][k];
    for (int i = 1; i < count; i++) {
        check_part(w, m, rank, axis, shape[0], shape[i], c64(w, i));
        out_shape[axis] = LLVMBuildAdd(w->b, out_shape[axis], shape[i][axis], "");
    }
    LLVMValueRef out = kj_np_alloc(w, rt, out_shape, false);
    LLVMValueRef out_strides[KJ_NP_MAXDIM], owner = kj_array_field(w, out, 0, 0), data = kj_array_field(w, out, 1, 0);
    kj_np_strides(w, out, rank, out_strides);
    for (int i = 0; i < count; i++)
        data = copy_part(w, rt, axis, arr[i], tt->elems[i], shape[i], strides[i], owner, out_strides, data);
    return out;
}

/* A new array of type rt and shape `shape` holding the count arrays of
 * list (type xt each, seen as `expanded` makes them with unit_at) one
 * after another along axis: the second pass of joins of lists. */
static LLVMValueRef copy_list_parts(kj_lw *w, LLVMValueRef list, const kj_type *xt, LLVMValueRef count, int unit_at,
                                    int axis, const kj_type *rt, LLVMValueRef *shape) {
    LLVMValueRef out = kj_np_alloc(w, rt, shape, false), sh[KJ_NP_MAXDIM], st[KJ_NP_MAXDIM];
    LLVMValueRef out_strides[KJ_NP_MAXDIM], owner = kj_array_field(w, out, 0, 0);
    kj_np_strides(w, out, rt->ndim, out_strides);
    LLVMValueRef data = kj_entry_alloca(w, w->ptr, "join.at");
    LLVMBuildStore(w->b, kj_array_field(w, out, 1, 0), data);
    kj_np_loop l;
    LLVMValueRef x = kj_list_get(w, list, xt, kj_np_loop_begin(w, &l, count));
    expanded(w, x, xt, unit_at, sh, st);
    LLVMBuildStore(w->b, copy_part(w, rt, axis, x, xt, sh, st, owner, out_strides, LLVMBuildLoad2(w->b, w->ptr, data, "")),
                   data);
    kj_np_loop_end(w, &l);
    return out;
}

/* A list of arrays (of one type), its length known at run time: one pass
 * checks the shapes and adds up the joined axis, a second copies. */
static LLVMValueRef join_list(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *rt = n->type, *xt = a->pos[0]->type->elem;
    int rank = rt->ndim, axis, unit_at;
    join_axes(m, a, xt->ndim, rank, &axis, &unit_at);
    if (!strcmp(m, "column_stack") && xt->ndim == 1)
        unit_at = 1;
    LLVMValueRef list = kj_lower_expr(w, a->pos[0]), count = kj_list_len(w, list);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError,
                !strcmp(m, "stack") ? "need at least one array to stack" : "need at least one array to concatenate");
    LLVMValueRef first[KJ_NP_MAXDIM], sh[KJ_NP_MAXDIM], st[KJ_NP_MAXDIM];
    expanded(w, kj_list_get(w, list, xt, c64(w, 0)), xt, unit_at, first, st);
    LLVMValueRef total = kj_entry_alloca(w, w->i64, "join.total");
    LLVMBuildStore(w->b, c64(w, 0), total);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, count);
    expanded(w, kj_list_get(w, list, xt, i), xt, unit_at, sh, st);
    check_part(w, m, rank, axis, first, sh, i);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, LLVMBuildLoad2(w->b, w->i64, total, ""), sh[axis], ""), total);
    kj_np_loop_end(w, &l);
    first[axis] = LLVMBuildLoad2(w->b, w->i64, total, "");
    return copy_list_parts(w, list, xt, count, unit_at, axis, rt, first);
}

LLVMValueRef kj_np_array_of_list(kj_lw *w, LLVMValueRef list, const kj_type *lt, const kj_type *rt) {
    const kj_type *xt = lt->elem;
    int nd = xt->ndim;
    LLVMValueRef count = kj_list_len(w, list), sh[KJ_NP_MAXDIM];
    /* the detected shape: the length, then the first array's (zeros for no array) */
    LLVMValueRef detected = kj_entry_alloca(w, LLVMArrayType2(w->i64, (unsigned)nd + 1), "array.shape");
    LLVMValueRef at[KJ_NP_MAXDIM + 1];
    for (int k = 0; k <= nd; k++) {
        at[k] = LLVMBuildGEP2(w->b, w->i64, detected, (LLVMValueRef[]){c64(w, k)}, 1, "");
        LLVMBuildStore(w->b, k ? c64(w, 0) : count, at[k]);
    }
    LLVMValueRef agree = kj_entry_alloca(w, w->i64, "array.agree");   /* axes on which every array agrees */
    LLVMBuildStore(w->b, c64(w, nd), agree);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, count), first = LLVMBuildICmp(w->b, LLVMIntEQ, i, c64(w, 0), "");
    kj_np_shape(w, kj_list_get(w, list, xt, i), nd, sh);
    LLVMValueRef differs_at = c64(w, nd);
    for (int k = nd - 1; k >= 0; k--) {
        LLVMValueRef want = LLVMBuildSelect(w->b, first, sh[k], LLVMBuildLoad2(w->b, w->i64, at[k + 1], ""), "");
        LLVMBuildStore(w->b, want, at[k + 1]);
        differs_at = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntNE, sh[k], want, ""), c64(w, k), differs_at, "");
    }
    LLVMValueRef so_far = LLVMBuildLoad2(w->b, w->i64, agree, "");
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, differs_at, so_far, ""), differs_at, so_far, ""),
                   agree);
    kj_np_loop_end(w, &l);
    LLVMValueRef agreed = LLVMBuildLoad2(w->b, w->i64, agree, "");
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntSLT, agreed, c64(w, nd), ""));
    kj_call(w, "kj_np_raise_ragged", w->vd, 2, (LLVMTypeRef[]){w->i64, w->ptr},
            (LLVMValueRef[]){LLVMBuildAdd(w->b, agreed, c64(w, 1), ""), detected});
    kj_raise_end(w, ok);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    for (int k = 0; k <= nd; k++)
        shape[k] = LLVMBuildLoad2(w->b, w->i64, at[k], "");
    return copy_list_parts(w, list, xt, count, 0, 0, rt, shape);
}

/* np.array's nested lists, walked twice: first their lengths, then their numbers. */
typedef struct nested_walk {
    int nd;
    LLVMValueRef out;                 /* NULL on the first walk */
    LLVMValueRef at;                  /* i64[nd]: each depth's length, -1 until a list there is seen */
    LLVMValueRef agree;               /* i64: the depths at which every list agrees */
    LLVMValueRef idx[KJ_NP_MAXDIM];
    const kj_type *rt;
} nested_walk;

static LLVMValueRef slot(kj_lw *w, LLVMValueRef array, int k) {
    return LLVMBuildGEP2(w->b, w->i64, array, (LLVMValueRef[]){c64(w, k)}, 1, "");
}

/* One list at depth k (type lt; depth 0 is the outermost). First walk: its
 * length is checked against the first list's at that depth, and agree
 * lowered to k where they differ. Second walk: its numbers are stored at idx. */
static void walk_nested(kj_lw *w, nested_walk *nw, LLVMValueRef list, const kj_type *lt, int k) {
    LLVMValueRef n = kj_list_len(w, list);
    if (!nw->out) {
        LLVMValueRef seen = LLVMBuildLoad2(w->b, w->i64, slot(w, nw->at, k), "");
        LLVMValueRef want = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, seen, c64(w, 0), ""), n, seen, "");
        LLVMBuildStore(w->b, want, slot(w, nw->at, k));
        LLVMValueRef so_far = LLVMBuildLoad2(w->b, w->i64, nw->agree, "");
        LLVMValueRef differs = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, n, want, ""),
                                            LLVMBuildICmp(w->b, LLVMIntSLT, c64(w, k), so_far, ""), "");
        LLVMBuildStore(w->b, LLVMBuildSelect(w->b, differs, c64(w, k), so_far, ""), nw->agree);
    }
    bool numbers = k + 1 == nw->nd;
    if ((numbers && !nw->out) || !lt->elem)   /* lengths only, or lists that hold nothing */
        return;
    kj_np_loop l;
    nw->idx[k] = kj_np_loop_begin(w, &l, n);
    LLVMValueRef item = kj_list_get(w, list, lt->elem, nw->idx[k]);
    if (numbers)
        kj_np_store_elem(w, kj_np_ptr(w, nw->out, nw->nd, nw->idx), item, lt->elem, nw->rt->elem);
    else
        walk_nested(w, nw, item, lt->elem, k + 1);
    kj_np_loop_end(w, &l);
}

LLVMValueRef kj_np_array_of_nested(kj_lw *w, LLVMValueRef list, const kj_type *lt, const kj_type *rt) {
    nested_walk nw = {.nd = rt->ndim, .rt = rt};
    nw.at = kj_entry_alloca(w, LLVMArrayType2(w->i64, (unsigned)nw.nd), "array.shape");
    nw.agree = kj_entry_alloca(w, w->i64, "array.agree");
    for (int k = 0; k < nw.nd; k++)
        LLVMBuildStore(w->b, c64(w, -1), slot(w, nw.at, k));
    LLVMBuildStore(w->b, c64(w, nw.nd), nw.agree);
    walk_nested(w, &nw, list, lt, 0);
    /* ragged at depth k: the depths before it have all been seen, their lengths set */
    LLVMValueRef agreed = LLVMBuildLoad2(w->b, w->i64, nw.agree, "");
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntSLT, agreed, c64(w, nw.nd), ""));
    kj_call(w, "kj_np_raise_ragged", w->vd, 2, (LLVMTypeRef[]){w->i64, w->ptr}, (LLVMValueRef[]){agreed, nw.at});
    kj_raise_end(w, ok);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    for (int k = 0; k < nw.nd; k++) {   /* a depth no list reached (an empty outer list): 0 */
        LLVMValueRef len = LLVMBuildLoad2(w->b, w->i64, slot(w, nw.at, k), "");
        shape[k] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, len, c64(w, 0), ""), c64(w, 0), len, "");
    }
    nw.out = kj_np_alloc(w, rt, shape, false);
    walk_nested(w, &nw, list, lt, 0);
    return nw.out;
}

LLVMValueRef kj_np_lower_join(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    return a->pos[0]->type->kind == KJ_T_LIST ? join_list(w, n, m, a) : join_tuple(w, n, m, a);
}
