/* lower_np_fancy: indexing with arrays, as users write it: a boolean mask
 * of the array's shape (a[a > 0], a[m] = 0), a 1-d integer array on the
 * first axis (a[idx], a[idx] = v) or, with a 1-d mask too, beside slices
 * (a[:, idx], a[:, m], read and written), and
 * one per axis, naming points (a[i, j], a[np.nonzero(m)]). They make
 * copies when read, as NumPy does; the mask is walked in C order. */
#include "jit/numpy/lower_np.h"
#include "jit/runtime/rt_np.h"

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* NumPy's IndexError when the mask's shape is not the array's. */
static void check_mask_shape(kj_lw *w, LLVMValueRef a, LLVMValueRef m, int nd) {
    for (int d = 0; d < nd; d++) {
        LLVMValueRef ad = kj_array_field(w, a, 2, d), md = kj_array_field(w, m, 2, d);
        LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, ad, md, ""));
        kj_call(w, "kj_np_raise_mask", w->vd, 3, (LLVMTypeRef[]){w->i64, w->i64, w->i64},
                (LLVMValueRef[]){c64(w, d), ad, md});
        kj_raise_end(w, ok);
    }
}

LLVMValueRef kj_np_checked_index(kj_lw *w, LLVMValueRef i, const kj_type *it, LLVMValueRef len, int axis) {
    LLVMValueRef asked = kj_cast(w, i, it, KJ_I64);
    LLVMValueRef k = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, asked, c64(w, 0), ""),
                                     LLVMBuildAdd(w->b, asked, len, ""), asked, "");
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntUGE, k, len, ""));
    kj_call(w, "kj_np_raise_index", w->vd, 3, (LLVMTypeRef[]){w->i64, w->i64, w->i64},
            (LLVMValueRef[]){asked, c64(w, axis), len});
    kj_raise_end(w, ok);
    return k;
}

/* a[i, j, ...] (or a[t], t a tuple of them): one 1-d integer array per
 * axis, naming the points a[i[k], j[k], ...]. */
typedef struct {
    LLVMValueRef a, ix[KJ_NP_MAXDIM], count;
    const kj_type *at, *it[KJ_NP_MAXDIM];
} points;

/* The arrays of point index n, checked to be of one length (NumPy's
 * IndexError when not). */
static void points_of(kj_lw *w, kj_node *n, points *p) {
    p->at = n->kids[0]->type;
    p->a = kj_lower_expr(w, n->kids[0]);
    int nd = p->at->ndim;
    const kj_type *tt = n->kids[1]->type;
    LLVMValueRef tuple = tt->kind == KJ_T_TUPLE ? kj_lower_expr(w, n->kids[1]) : NULL;
    for (int d = 0; d < nd; d++) {
        p->it[d] = tuple ? tt->elems[d] : n->kids[d + 1]->type;
        p->ix[d] = tuple ? LLVMBuildExtractValue(w->b, tuple, (unsigned)d, "") : kj_lower_expr(w, n->kids[d + 1]);
    }
    p->count = kj_array_len(w, p->ix[0]);
    for (int d = 1; d < nd; d++) {
        LLVMValueRef len = kj_array_len(w, p->ix[d]);
        kj_np_raise_i64x2_if(w, LLVMBuildICmp(w->b, LLVMIntNE, len, p->count, ""), PyExc_IndexError,
                             /* NumPy ends it with a space */
                             "shape mismatch: indexing arrays could not be broadcast together with shapes (%lld,) (%lld,) ",
                             p->count, len);
    }
}

/* The address of point k, each coordinate checked (from the end when negative). */
static LLVMValueRef point_ptr(kj_lw *w, const points *p, LLVMValueRef k) {
    LLVMValueRef idx[KJ_NP_MAXDIM];
    for (int d = 0; d < p->at->ndim; d++)
        idx[d] = kj_np_checked_index(w, kj_array_item(w, p->ix[d], p->it[d], k), p->it[d]->elem,
                               kj_array_field(w, p->a, 2, d), d);
    return kj_np_ptr(w, p->a, p->at->ndim, idx);
}

/* The rest of a's shape after the first axis, and a view of row i. */
static LLVMValueRef row(kj_lw *w, LLVMValueRef a, const kj_type *at, LLVMValueRef i) {
    return kj_array_item(w, a, at, i);
}

/* arr's part at position i of axis: a view of its other axes, of type st. */
static LLVMValueRef across(kj_lw *w, LLVMValueRef arr, int nd, int axis, LLVMValueRef i, const kj_type *st) {
    LLVMValueRef off = LLVMBuildMul(w->b, i, kj_array_field(w, arr, 3, axis), "");
    LLVMValueRef data = LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, "");
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM];
    for (int d = 0, o = 0; d < nd; d++)
        if (d != axis) {
            shape[o] = kj_array_field(w, arr, 2, d);
            strides[o++] = kj_array_field(w, arr, 3, d);
        }
    return kj_np_make(w, st, kj_array_field(w, arr, 0, 0), data, shape, strides);
}

/* The index array beside slices, of axis `axis` of view (of nd axes): an
 * integer array as it is, or for a 1-d boolean mask the int64 positions
 * of its true elements, after NumPy's IndexError when its length is not
 * the axis's (*it becomes their type). */
static LLVMValueRef axis_index(kj_lw *w, kj_node *ixn, LLVMValueRef view, int axis, const kj_type **it) {
    LLVMValueRef ix = kj_lower_expr(w, ixn);
    *it = ixn->type;
    if (ixn->type->elem->kind != KJ_T_BOOL)
        return ix;
    LLVMValueRef len = kj_array_field(w, view, 2, axis), have = kj_array_len(w, ix);
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, have, len, ""));
    kj_call(w, "kj_np_raise_mask", w->vd, 3, (LLVMTypeRef[]){w->i64, w->i64, w->i64},
            (LLVMValueRef[]){c64(w, axis), len, have});
    kj_raise_end(w, ok);
    *it = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    return kj_np_nonzero_of(w, *it, "flatnonzero", ix, ixn->type);
}

/* a[:, idx], a[1:, ::2, idx]: the slices' view of a, and along the array's
 * axis the positions idx names, in its order, copied (NumPy's result). */
static LLVMValueRef gather(kj_lw *w, kj_node *n, int axis) {
    const kj_type *at = n->kids[0]->type, *it, *t = n->type;
    int nd = at->ndim;
    LLVMValueRef v = kj_lower_view(w, n, kj_lower_expr(w, n->kids[0]), axis);
    LLVMValueRef ix = axis_index(w, n->kids[axis + 1], v, axis, &it);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, v, nd, shape);
    LLVMValueRef len = shape[axis];
    shape[axis] = kj_array_len(w, ix);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    const kj_type *part = kj_array(at->elem, nd - 1, KJ_LAYOUT_A, false);
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, shape[axis]);
    LLVMValueRef i = kj_np_checked_index(w, kj_array_item(w, ix, it, k), it->elem, len, axis);
    kj_np_copy_into(w, across(w, out, nd, axis, k, part), part, across(w, v, nd, axis, i, part), part);
    kj_np_loop_end(w, &l);
    return out;
}

/* a[:, idx] = v: the slices' view of a, and along its axis each position
 * idx names given its part of v, broadcast as NumPy does to the indexing
 * result (v's axes align with the result's from the right; the one facing
 * idx has its length or 1). Like NumPy, in idx's order and without a copy
 * of a v that overlaps a. */
static void scatter(kj_lw *w, kj_node *n, int axis, LLVMValueRef v, const kj_type *vt) {
    const kj_type *at = n->kids[0]->type, *it;
    int nd = at->ndim;
    LLVMValueRef view = kj_lower_view(w, n, kj_lower_expr(w, n->kids[0]), axis);
    LLVMValueRef ix = axis_index(w, n->kids[axis + 1], view, axis, &it);
    LLVMValueRef len = kj_array_field(w, view, 2, axis), count = kj_array_len(w, ix);
    const kj_type *part = kj_array(at->elem, nd - 1, KJ_LAYOUT_A, false);
    int vaxis = vt->kind == KJ_T_ARRAY ? axis - (nd - vt->ndim) : -1;   /* v's axis facing idx, if any */
    const kj_type *vpart = vaxis >= 0 ? kj_array(vt->elem, vt->ndim - 1, KJ_LAYOUT_A, vt->readonly) : vt;
    LLVMValueRef single = NULL;
    if (vaxis >= 0) {
        LLVMValueRef have = kj_array_field(w, v, 2, vaxis);
        single = LLVMBuildICmp(w->b, LLVMIntEQ, have, c64(w, 1), "");
        kj_raise_if(w, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, have, count, ""), LLVMBuildNot(w->b, single, ""), ""),
                    PyExc_ValueError, "shape mismatch: value array could not be broadcast to indexing result");
    }
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, count);
    LLVMValueRef i = kj_np_checked_index(w, kj_array_item(w, ix, it, k), it->elem, len, axis);
    LLVMValueRef src = v;
    if (vaxis >= 0)
        src = across(w, v, vt->ndim, vaxis, LLVMBuildSelect(w->b, single, c64(w, 0), k, ""), vpart);
    kj_np_assign(w, across(w, view, nd, axis, i, part), part, src, vpart);
    kj_np_loop_end(w, &l);
}

LLVMValueRef kj_np_lower_fancy_index(kj_lw *w, kj_node *n) {
    int axis = kj_index_gather_axis(n);
    if (axis >= 0)
        return gather(w, n, axis);
    if (kj_np_is_point_index(n)) {   /* a[i, j]: the elements at those points */
        points p;
        points_of(w, n, &p);
        LLVMValueRef out = kj_np_alloc(w, n->type, &p.count, false);
        kj_np_loop l;
        LLVMValueRef k = kj_np_loop_begin(w, &l, p.count);
        kj_np_store_elem(w, kj_np_ptr(w, out, 1, &k), kj_np_load(w, point_ptr(w, &p, k), p.at->elem), p.at->elem,
                         n->type->elem);
        kj_np_loop_end(w, &l);
        return out;
    }
    const kj_type *at = n->kids[0]->type, *it = n->kids[1]->type, *t = n->type;
    LLVMValueRef a = kj_lower_expr(w, n->kids[0]), ix = kj_lower_expr(w, n->kids[1]);
    if (it->elem->kind == KJ_T_BOOL) {   /* a[mask]: the selected elements, in C order */
        int nd = at->ndim;
        check_mask_shape(w, a, ix, nd);
        LLVMValueRef count = kj_np_count_true(w, ix, it);
        LLVMValueRef out = kj_np_alloc(w, t, &count, false);
        LLVMValueRef at_slot = kj_entry_alloca(w, w->i64, "k");
        LLVMBuildStore(w->b, c64(w, 0), at_slot);
        LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
        kj_np_shape(w, a, nd, shape);
        kj_np_nest nest;
        kj_np_nest_begin(w, &nest, nd, shape, idx);
        LLVMValueRef take = kj_np_load(w, kj_np_ptr(w, ix, nd, idx), it->elem);
        LLVMBasicBlockRef yes = kj_new_bb(w, "mask.take"), next = kj_new_bb(w, "mask.next");
        LLVMBuildCondBr(w->b, take, yes, next);
        LLVMPositionBuilderAtEnd(w->b, yes);
        LLVMValueRef k = LLVMBuildLoad2(w->b, w->i64, at_slot, "");
        kj_np_store_elem(w, kj_np_ptr(w, out, 1, &k), kj_np_load(w, kj_np_ptr(w, a, nd, idx), at->elem), at->elem, t->elem);
        LLVMBuildStore(w->b, LLVMBuildAdd(w->b, k, c64(w, 1), ""), at_slot);
        LLVMBuildBr(w->b, next);
        LLVMPositionBuilderAtEnd(w->b, next);
        kj_np_nest_end(w, &nest);
        return out;
    }
    /* a[idx]: rows of a, in idx's order */
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, a, at->ndim, shape);
    LLVMValueRef len = shape[0];
    shape[0] = kj_array_len(w, ix);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, shape[0]);
    LLVMValueRef i = kj_np_checked_index(w, kj_array_item(w, ix, it, k), it->elem, len, 0);
    if (at->ndim == 1)
        kj_np_store_elem(w, kj_np_ptr(w, out, 1, &k), kj_array_item(w, a, at, i), at->elem, t->elem);
    else
        kj_np_copy_into(w, row(w, out, t, k), kj_iter_elem(t), row(w, a, at, i), kj_iter_elem(at));
    kj_np_loop_end(w, &l);
    return out;
}

void kj_np_store_fancy(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    int axis = kj_index_gather_axis(target);
    if (axis >= 0) {
        scatter(w, target, axis, v, vt);
        return;
    }
    if (kj_np_is_point_index(target)) {   /* a[i, j] = v: a number, or one value per point (or one for all) */
        points p;
        points_of(w, target, &p);
        LLVMValueRef single = NULL;
        if (vt->kind == KJ_T_ARRAY) {
            if (vt->ndim != 1 || vt->layout != KJ_LAYOUT_C)
                v = kj_np_copy(w, v, vt, vt->elem);   /* walked flat below */
            LLVMValueRef have = kj_np_size(w, v, vt->ndim);
            single = LLVMBuildICmp(w->b, LLVMIntEQ, have, c64(w, 1), "");
            kj_np_raise_i64x2_if(w, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, have, p.count, ""), LLVMBuildNot(w->b, single, ""), ""),
                                 PyExc_ValueError, "shape mismatch: value array of shape (%lld,) could not be broadcast to "
                                                   "indexing result of shape (%lld,)", have, p.count);
        }
        kj_np_loop l;
        LLVMValueRef k = kj_np_loop_begin(w, &l, p.count), x = v;
        const kj_type *xt = vt;
        if (single) {
            LLVMValueRef src = LLVMBuildSelect(w->b, single, c64(w, 0), k, "");
            x = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, vt->elem), kj_array_field(w, v, 1, 0), &src, 1, ""), vt->elem);
            xt = vt->elem;
        }
        kj_np_store_elem(w, point_ptr(w, &p, k), x, xt, p.at->elem);
        kj_np_loop_end(w, &l);
        return;
    }
    const kj_type *at = target->kids[0]->type, *it = target->kids[1]->type;
    LLVMValueRef a = kj_lower_expr(w, target->kids[0]), ix = kj_lower_expr(w, target->kids[1]);
    bool from_array = vt->kind == KJ_T_ARRAY;
    if (it->elem->kind == KJ_T_BOOL) {   /* a[mask] = scalar, or = the values in order */
        int nd = at->ndim;
        check_mask_shape(w, a, ix, nd);
        if (from_array) {
            LLVMValueRef count = kj_np_count_true(w, ix, it), have = kj_np_size(w, v, vt->ndim);
            LLVMValueRef bad = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, have, count, ""),
                                            LLVMBuildICmp(w->b, LLVMIntNE, have, c64(w, 1), ""), "");
            LLVMBasicBlockRef ok = kj_raise_begin(w, bad);
            kj_call(w, "kj_np_raise_mask_assign", w->vd, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){have, count});
            kj_raise_end(w, ok);
            if (vt->ndim != 1 || vt->layout != KJ_LAYOUT_C)
                v = kj_np_copy(w, v, vt, vt->elem);   /* walked flat below */
        }
        LLVMValueRef k_slot = kj_entry_alloca(w, w->i64, "k");
        LLVMBuildStore(w->b, c64(w, 0), k_slot);
        LLVMValueRef single = from_array ? LLVMBuildICmp(w->b, LLVMIntEQ, kj_np_size(w, v, vt->ndim), c64(w, 1), "") : NULL;
        LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
        kj_np_shape(w, a, nd, shape);
        kj_np_nest nest;
        kj_np_nest_begin(w, &nest, nd, shape, idx);
        LLVMBasicBlockRef yes = kj_new_bb(w, "mask.put"), next = kj_new_bb(w, "mask.next");
        LLVMBuildCondBr(w->b, kj_np_load(w, kj_np_ptr(w, ix, nd, idx), it->elem), yes, next);
        LLVMPositionBuilderAtEnd(w->b, yes);
        LLVMValueRef x = v;
        const kj_type *xt = vt;
        if (from_array) {
            LLVMValueRef k = LLVMBuildLoad2(w->b, w->i64, k_slot, "");
            LLVMValueRef src = LLVMBuildSelect(w->b, single, c64(w, 0), k, "");
            x = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, vt->elem), kj_array_field(w, v, 1, 0), &src, 1, ""), vt->elem);
            xt = vt->elem;
            LLVMBuildStore(w->b, LLVMBuildAdd(w->b, k, c64(w, 1), ""), k_slot);
        }
        kj_np_store_elem(w, kj_np_ptr(w, a, nd, idx), x, xt, at->elem);
        LLVMBuildBr(w->b, next);
        LLVMPositionBuilderAtEnd(w->b, next);
        kj_np_nest_end(w, &nest);
        return;
    }
    /* a[idx] = v: v broadcast to the selected rows, or one value per index */
    LLVMValueRef len = kj_array_len(w, a), n = kj_array_len(w, ix);
    bool per_index = from_array && vt->ndim == at->ndim;
    if (per_index) {
        LLVMValueRef vl = kj_array_len(w, v);
        kj_raise_if(w, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, vl, n, ""),
                                    LLVMBuildICmp(w->b, LLVMIntNE, vl, c64(w, 1), ""), ""),
                    PyExc_ValueError, "shape mismatch: value array could not be broadcast to indexing result");
    }
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, n);
    LLVMValueRef i = kj_np_checked_index(w, kj_array_item(w, ix, it, k), it->elem, len, 0);
    LLVMValueRef x = v;
    const kj_type *xt = vt;
    if (per_index) {
        LLVMValueRef src = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, kj_array_len(w, v), c64(w, 1), ""),
                                           c64(w, 0), k, "");
        x = kj_array_item(w, v, vt, src);
        xt = kj_iter_elem(vt);
    }
    if (at->ndim == 1)
        kj_np_store_elem(w, kj_np_ptr(w, a, 1, &i), x, xt, at->elem);
    else
        kj_np_assign(w, row(w, a, at, i), kj_iter_elem(at), x, xt);
    kj_np_loop_end(w, &l);
}
