/* np_place: NumPy functions that place elements by position:
 *   np.take_along_axis(arr, indices, axis)   out[..., k, ...] = arr[..., indices[..., k, ...], ...], the other
 *                                            axes broadcast between the two (axis=None: arr flattened)
 *   np.fill_diagonal(a, val, wrap)           a[i, i, ...] = val (val's elements in turn, from the start
 *                                            again when it runs out; a tall matrix's diagonal starts
 *                                            again below it with wrap=True)
 *   np.broadcast_to(array, shape)            a read-only view of array with shape, a stride of 0 along
 *                                            each axis it lacks or has once
 * with NumPy's IndexError and ValueError for what does not fit.
 * Their axis and wrap are constants, as users write them, so that the
 * loops are known when the function compiles. */
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* ---- types ---- */

static bool const_int(const kj_node *k) { return k && k->kind == KJ_E_CONST && k->type && kj_is_intlike(k->type); }

static const kj_type *take_along_axis_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"arr", "indices", "axis", NULL};
    kj_node *axis = kj_np_arg(a, 2, "axis");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "arr")), *ix = kj_np_arg_type(c, kj_np_arg(a, 1, "indices"));
    if (!x || !ix)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || !axis || x->kind != KJ_T_ARRAY || ix->kind != KJ_T_ARRAY)
        FAIL(c, n, "Pass the axis as a number: np.take_along_axis(a, np.argsort(a, axis=1), axis=1).",
             "np.take_along_axis takes an array, an array of indices and an axis here");
    if (ix->elem->kind != KJ_T_INT)
        FAIL(c, n, NULL, "np.take_along_axis: `indices` must be an integer array, got %s", ix->name);
    bool flat = axis->type && axis->type->kind == KJ_T_NONE;
    if (!flat && !const_int(axis))
        FAIL(c, n, "Write the axis as a number: axis=1, axis=-1.", "np.take_along_axis takes a constant axis here");
    if (flat ? ix->ndim != 1 : ix->ndim != x->ndim)
        FAIL(c, n, NULL, "np.take_along_axis: `indices` and `arr` must have the same number of dimensions "
                         "(one for axis=None), got %s and %s", ix->name, x->name);
    if (!flat && (axis->ival < -x->ndim || axis->ival >= x->ndim))
        FAIL(c, n, NULL, "np.take_along_axis: axis %lld is out of bounds for array of dimension %d",
             (long long)axis->ival, x->ndim);
    return kj_array(x->elem, ix->ndim, KJ_LAYOUT_C, false);
}

static const kj_type *fill_diagonal_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"a", "val", "wrap", NULL};
    kj_node *wrap = kj_np_arg(a, 2, "wrap");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *v = kj_np_arg_type(c, kj_np_arg(a, 1, "val"));
    if (!x || !v)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim < 2)
        FAIL(c, n, NULL, "np.fill_diagonal takes an array of two or more dimensions and a value here");
    if (x->readonly)
        FAIL(c, n, "Pass a writeable array.", "np.fill_diagonal cannot write to a read-only array (%s)", x->name);
    const kj_type *ve = v->kind == KJ_T_ARRAY ? v->elem : v;
    if (!(kj_is_number(ve) || ve->kind == KJ_T_BOOL) || (ve->kind == KJ_T_COMPLEX && x->elem->kind != KJ_T_COMPLEX))
        FAIL(c, n, NULL, "np.fill_diagonal cannot store %s into an array of %s", v->name, x->elem->name);
    if (wrap && !kj_np_const_bool(wrap))
        FAIL(c, n, "Write wrap=True or wrap=False.", "np.fill_diagonal takes a constant wrap here");
    return kj_none();
}

static const kj_type *broadcast_to_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"array", "shape", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "array")), *s = kj_np_arg_type(c, kj_np_arg(a, 1, "shape"));
    if (!x || !s)
        return NULL;
    int nd = kj_np_shape_ndim(s);
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || nd < 0)
        FAIL(c, n, NULL, "np.broadcast_to takes an array and a shape (an int or a tuple of ints) here");
    if (x->kind != KJ_T_ARRAY)
        FAIL(c, n, "Make the array first: np.full(shape, x).", "np.broadcast_to takes an array here, got %s", x->name);
    if (x->ndim > nd)
        FAIL(c, n, NULL, "np.broadcast_to: input operand has more dimensions (%d) than allowed by the shape (%d)",
             x->ndim, nd);
    return kj_array(x->elem, nd, KJ_LAYOUT_A, true);   /* a view, read-only as NumPy's */
}

/* ---- lowering ---- */

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef take_along_axis(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "arr"), *in = kj_np_arg(a, 1, "indices"), *axn = kj_np_arg(a, 2, "axis");
    const kj_type *at = an->type, *it = in->type, *t = n->type;
    LLVMValueRef arr = kj_lower_expr(w, an), ix = kj_lower_expr(w, in);
    if (axn->type->kind == KJ_T_NONE) {   /* positions in the flattened array, in C order */
        LLVMValueRef line = kj_np_whole_line(w, arr, at), size = kj_np_size(w, arr, at->ndim);
        LLVMValueRef count = kj_array_len(w, ix);
        LLVMValueRef out = kj_np_alloc(w, t, &count, false);
        kj_np_loop l;
        LLVMValueRef k = kj_np_loop_begin(w, &l, count);
        LLVMValueRef i = kj_np_checked_index(w, kj_array_item(w, ix, it, k), it->elem, size, 0);
        LLVMValueRef x = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, at->elem), line, &i, 1, ""), at->elem);
        kj_np_store_elem(w, kj_np_ptr(w, out, 1, &k), x, at->elem, t->elem);
        kj_np_loop_end(w, &l);
        return out;
    }
    int nd = at->ndim, axis = (int)(axn->ival < 0 ? axn->ival + nd : axn->ival);
    LLVMValueRef ashape[KJ_NP_MAXDIM], ishape[KJ_NP_MAXDIM], shape[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, nd, ashape);
    kj_np_shape(w, ix, nd, ishape);
    LLVMValueRef bad = LLVMConstInt(w->i1, 0, 0), a1[KJ_NP_MAXDIM], i1[KJ_NP_MAXDIM];
    for (int d = 0; d < nd; d++) {   /* broadcast: a length of 1 takes the other's */
        a1[d] = LLVMBuildICmp(w->b, LLVMIntEQ, ashape[d], c64(w, 1), "");
        i1[d] = LLVMBuildICmp(w->b, LLVMIntEQ, ishape[d], c64(w, 1), "");
        if (d == axis) {
            shape[d] = ishape[d];
            continue;
        }
        shape[d] = LLVMBuildSelect(w->b, a1[d], ishape[d], ashape[d], "");
        LLVMValueRef differ = LLVMBuildICmp(w->b, LLVMIntNE, ashape[d], ishape[d], "");
        bad = LLVMBuildOr(w->b, bad, LLVMBuildAnd(w->b, differ, LLVMBuildNot(w->b, LLVMBuildOr(w->b, a1[d], i1[d], ""), ""), ""), "");
    }
    kj_raise_if(w, bad, PyExc_IndexError, "shape mismatch: indexing arrays could not be broadcast together");
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    LLVMValueRef idx[KJ_NP_MAXDIM], from[KJ_NP_MAXDIM], at_ix[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    for (int d = 0; d < nd; d++) {   /* where an axis is broadcast, its one position */
        at_ix[d] = d == axis ? idx[d] : LLVMBuildSelect(w->b, i1[d], c64(w, 0), idx[d], "");
        from[d] = LLVMBuildSelect(w->b, a1[d], c64(w, 0), idx[d], "");
    }
    from[axis] = kj_np_checked_index(w, kj_np_load(w, kj_np_ptr(w, ix, nd, at_ix), it->elem), it->elem, ashape[axis], axis);
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, idx), kj_np_load(w, kj_np_ptr(w, arr, nd, from), at->elem), at->elem, t->elem);
    kj_np_nest_end(w, &nest);
    return out;
}

static void fill_diagonal(kj_lw *w, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a"), *vn = kj_np_arg(a, 1, "val"), *wrapn = kj_np_arg(a, 2, "wrap");
    const kj_type *at = an->type, *vt = vn->type;
    int nd = at->ndim;
    LLVMValueRef arr = kj_lower_expr(w, an), v = kj_lower_expr(w, vn);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, nd, shape);
    LLVMValueRef count;
    bool wrap = nd == 2 && wrapn && wrapn->ival;
    if (nd == 2) {   /* wrapping, the positions k * (columns + 1) of the flat array that it holds */
        LLVMValueRef rows = shape[0], cols = shape[1], step = LLVMBuildAdd(w->b, cols, c64(w, 1), "");
        LLVMValueRef size = LLVMBuildMul(w->b, rows, cols, "");
        count = wrap ? LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, size, cols, ""), step, "")
                     : LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, rows, cols, ""), rows, cols, "");
    } else {
        count = shape[0];
        LLVMValueRef unequal = LLVMConstInt(w->i1, 0, 0);
        for (int d = 1; d < nd; d++)
            unequal = LLVMBuildOr(w->b, unequal, LLVMBuildICmp(w->b, LLVMIntNE, shape[d], count, ""), "");
        kj_raise_if(w, unequal, PyExc_ValueError, "All dimensions of input must be of equal length");
    }
    LLVMValueRef line = NULL, have = NULL;
    if (vt->kind == KJ_T_ARRAY) {   /* val's elements in C order, taken in turn; none: nothing to do */
        line = kj_np_whole_line(w, v, vt);
        have = kj_np_size(w, v, vt->ndim);
        LLVMValueRef none = LLVMBuildICmp(w->b, LLVMIntEQ, have, c64(w, 0), "");
        count = LLVMBuildSelect(w->b, none, c64(w, 0), count, "");
        have = LLVMBuildSelect(w->b, none, c64(w, 1), have, "");
    }
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, count), idx[KJ_NP_MAXDIM];
    for (int d = 0; d < nd; d++)
        idx[d] = k;
    if (wrap) {
        LLVMValueRef p = LLVMBuildMul(w->b, k, LLVMBuildAdd(w->b, shape[1], c64(w, 1), ""), "");
        idx[0] = LLVMBuildSDiv(w->b, p, shape[1], "");
        idx[1] = LLVMBuildSRem(w->b, p, shape[1], "");
    }
    LLVMValueRef x = v;
    const kj_type *xt = vt;
    if (line) {
        LLVMValueRef j = LLVMBuildSRem(w->b, k, have, "");
        x = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, vt->elem), line, &j, 1, ""), vt->elem);
        xt = vt->elem;
    }
    kj_np_store_elem(w, kj_np_ptr(w, arr, nd, idx), x, xt, at->elem);
    kj_np_loop_end(w, &l);
}

static LLVMValueRef broadcast_to(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "array");
    const kj_type *xt = xn->type, *t = n->type;
    int nd = t->ndim, off = nd - xt->ndim;
    LLVMValueRef x = kj_lower_expr(w, xn), shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM];
    kj_np_shape_arg(w, kj_np_arg(a, 1, "shape"), shape);
    LLVMValueRef negative = LLVMConstInt(w->i1, 0, 0), bad = LLVMConstInt(w->i1, 0, 0);
    for (int d = 0; d < nd; d++) {
        negative = LLVMBuildOr(w->b, negative, LLVMBuildICmp(w->b, LLVMIntSLT, shape[d], c64(w, 0), ""), "");
        if (d < off) {
            strides[d] = c64(w, 0);
            continue;
        }
        LLVMValueRef len = kj_array_field(w, x, 2, d - off);
        LLVMValueRef once = LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 1), "");
        bad = LLVMBuildOr(w->b, bad, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, len, shape[d], ""),
                                                  LLVMBuildNot(w->b, once, ""), ""), "");
        strides[d] = LLVMBuildSelect(w->b, once, c64(w, 0), kj_array_field(w, x, 3, d - off), "");
    }
    kj_raise_if(w, negative, PyExc_ValueError, "all elements of broadcast shape must be non-negative");
    kj_raise_if(w, bad, PyExc_ValueError, "operands could not be broadcast together with the requested shape");
    return kj_np_make(w, t, kj_array_field(w, x, 0, 0), kj_array_field(w, x, 1, 0), shape, strides);
}

static LLVMValueRef lower_fill_diagonal(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)n, (void)m;
    fill_diagonal(w, a);
    return LLVMConstInt(w->i8, 0, 0);   /* None */
}

KJ_CALLABLE(take_along_axis, .name = "np.take_along_axis", .targets = KJ_ON_ANY, .np_type = take_along_axis_type,
            .np_lower = take_along_axis);
KJ_CALLABLE(fill_diagonal, .name = "np.fill_diagonal", .targets = KJ_ON_ANY, .np_type = fill_diagonal_type,
            .np_lower = lower_fill_diagonal);
KJ_CALLABLE(broadcast_to, .name = "np.broadcast_to", .targets = KJ_ON_ANY, .np_type = broadcast_to_type,
            .np_lower = broadcast_to);
