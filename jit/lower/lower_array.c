/* lower_array: element access and views of arrays passed in from Python.
 * C- and F-contiguous arrays are addressed from their shape alone, so the
 * innermost index has unit stride in the IR and loops vectorize; other
 * layouts go through the byte strides. */
#include "jit/core/kind_ops.h"
#include "jit/lower/lower.h"

#include <string.h>

LLVMValueRef kj_array_field(kj_lw *w, LLVMValueRef arr, int field, int dim) {
    LLVMValueRef v = LLVMBuildExtractValue(w->b, arr, (unsigned)field, "");
    return field >= 2 ? LLVMBuildExtractValue(w->b, v, (unsigned)dim, "") : v;
}

LLVMValueRef kj_array_len(kj_lw *w, LLVMValueRef arr) {
    return kj_array_field(w, arr, 2, 0);
}

/* Index value i (of type it) for axis `axis` of length len (axis -1: a
 * tuple): negative counts from the end; with boundscheck, out of range
 * raises IndexError with NumPy's (Python's) words. */
static LLVMValueRef normalize(kj_lw *w, const kj_node *arr, kj_node *in, LLVMValueRef i, const kj_type *it,
                              LLVMValueRef len, int axis) {
    bool is_signed = it->kind == KJ_T_INT && it->is_signed;
    LLVMValueRef asked = i = LLVMBuildIntCast2(w->b, i, w->i64, is_signed, "");
    bool known_nonneg = in && in->kind == KJ_E_CONST && in->ival >= 0;
    if (is_signed && !known_nonneg) {
        LLVMValueRef neg = LLVMBuildICmp(w->b, LLVMIntSLT, i, LLVMConstInt(w->i64, 0, 0), "");
        i = LLVMBuildSelect(w->b, neg, LLVMBuildAdd(w->b, i, len, ""), i, "idx");
    }
    if (!w->inst->opts.boundscheck || kj_range_check_proven(w, arr, in, axis))
        return i;
    LLVMValueRef out = LLVMBuildICmp(w->b, LLVMIntUGE, i, len, "");
    if (axis < 0 || strcmp(w->u->target->name, "cpu") != 0) {   /* a tuple; or a GPU kernel, whose raises carry constant words */
        kj_raise_if(w, out, PyExc_IndexError, axis < 0 ? "tuple index out of range" : "index out of bounds");
        return i;
    }
    LLVMBasicBlockRef ok = kj_raise_begin(w, out);   /* "index 5 is out of bounds for axis 0 with size 3" */
    kj_call(w, "kj_np_raise_index", w->vd, 3, (LLVMTypeRef[]){w->i64, w->i64, w->i64},
            (LLVMValueRef[]){asked, LLVMConstInt(w->i64, (unsigned)axis, 0), len});
    kj_raise_end(w, ok);
    return i;
}

static LLVMValueRef load_elem(kj_lw *w, LLVMValueRef p, const kj_type *et) {
    LLVMValueRef v = LLVMBuildLoad2(w->b, kj_llmemtype(w, et), p, "");
    if (et->kind == KJ_T_BOOL)
        v = LLVMBuildICmp(w->b, LLVMIntNE, v, LLVMConstInt(w->i8, 0, 0), "");
    return v;
}

/* Pointer to element (idx[0], ..., idx[nd-1]) (normalized). */
static LLVMValueRef elem_ptr(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef *idx) {
    LLVMValueRef data = kj_array_field(w, arr, 1, 0);
    int nd = at->ndim;
    if (nd == 0) /* a 0-d array, indexed by a[()]: its one element */
        return data;
    if (at->layout == KJ_LAYOUT_C || at->layout == KJ_LAYOUT_F) {
        bool c = at->layout == KJ_LAYOUT_C;
        LLVMValueRef lin = idx[c ? 0 : nd - 1];
        for (int s = 1; s < nd; s++) {
            int k = c ? s : nd - 1 - s;
            lin = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, lin, kj_array_field(w, arr, 2, k), ""), idx[k], "");
        }
        return LLVMBuildGEP2(w->b, kj_llmemtype(w, at->elem), data, &lin, 1, "");
    }
    LLVMValueRef off = LLVMConstInt(w->i64, 0, 0);
    for (int k = 0; k < nd; k++)
        off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[k], kj_array_field(w, arr, 3, k), ""), "");
    return LLVMBuildGEP2(w->b, w->i8, data, &off, 1, "");
}

/* One slice of an axis: sets *start, *len, *step from Python's rules. */
static void slice_axis(kj_lw *w, kj_node *sl, LLVMValueRef n, LLVMValueRef *out_start,
                       LLVMValueRef *out_len, LLVMValueRef *out_step) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0), one = LLVMConstInt(w->i64, 1, 0),
                 minus1 = LLVMConstInt(w->i64, (unsigned long long)-1, 1);
    LLVMValueRef v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++)
        if (sl->kids[k] && sl->kids[k]->type->kind != KJ_T_NONE)
            v[k] = kj_cast(w, kj_lower_expr(w, sl->kids[k]), sl->kids[k]->type, KJ_I64);
    LLVMValueRef step = v[2] ? v[2] : one;
    if (v[2])
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, step, zero, ""), PyExc_ValueError,
                    "slice step cannot be zero");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, step, zero, "");
    LLVMValueRef lo_clamp = LLVMBuildSelect(b, neg, minus1, zero, "");
    LLVMValueRef hi_clamp = LLVMBuildSelect(b, neg, LLVMBuildSub(b, n, one, ""), n, "");
    LLVMValueRef bound[2];
    for (int k = 0; k < 2; k++) {
        if (!v[k]) {
            bound[k] = k == 0 ? LLVMBuildSelect(b, neg, LLVMBuildSub(b, n, one, ""), zero, "")
                              : LLVMBuildSelect(b, neg, minus1, n, "");
            continue;
        }
        LLVMValueRef x = v[k];
        LLVMValueRef isneg = LLVMBuildICmp(b, LLVMIntSLT, x, zero, "");
        LLVMValueRef xn = LLVMBuildAdd(b, x, n, "");
        xn = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, xn, zero, ""), lo_clamp, xn, "");
        LLVMValueRef xp = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGE, x, n, ""), hi_clamp, x, "");
        bound[k] = LLVMBuildSelect(b, isneg, xn, xp, "");
    }
    LLVMValueRef start = bound[0], stop = bound[1];
    /* len = step < 0 ? (stop < start ? (start-stop-1)/(-step)+1 : 0) : (start < stop ? (stop-start-1)/step+1 : 0) */
    LLVMValueRef lo = LLVMBuildSelect(b, neg, stop, start, ""), hi = LLVMBuildSelect(b, neg, start, stop, "");
    LLVMValueRef mag = LLVMBuildSelect(b, neg, LLVMBuildNeg(b, step, ""), step, "");
    LLVMValueRef len = LLVMBuildAdd(b, LLVMBuildSDiv(b, LLVMBuildSub(b, LLVMBuildSub(b, hi, lo, ""), one, ""), mag, ""), one, "");
    *out_len = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, lo, hi, ""), len, zero, "");
    *out_start = start;
    *out_step = step;
}

LLVMValueRef kj_lower_index(kj_lw *w, kj_node *n) {
    const kj_type *at = n->kids[0]->type;
    LLVMValueRef arr = kj_lower_expr(w, n->kids[0]);
    int nidx = n->nkids - 1;
    if (at->kind == KJ_T_TUPLE) {
        kj_node *i = n->kids[1];
        if (i->kind == KJ_E_SLICE) {   /* the items a constant slice takes (tuple_slice_type) */
            int pos[at->n > 0 ? at->n : 1];
            int count = kj_const_slice_positions(i, at->n, pos);
            LLVMValueRef out = LLVMGetUndef(kj_lltype(w, n->type));
            for (int k = 0; k < count; k++)
                out = LLVMBuildInsertValue(w->b, out, LLVMBuildExtractValue(w->b, arr, (unsigned)pos[k], ""),
                                           (unsigned)k, "");
            return out;
        }
        if (i->kind == KJ_E_CONST)
            return LLVMBuildExtractValue(w->b, arr, (unsigned)(i->ival < 0 ? i->ival + at->n : i->ival), "");
        /* a uniform tuple indexed by a variable: through memory */
        LLVMValueRef slot = kj_entry_alloca(w, kj_lltype(w, at), "tuple");
        LLVMBuildStore(w->b, arr, slot);
        LLVMValueRef len = LLVMConstInt(w->i64, (unsigned)at->n, 0);
        LLVMValueRef k = normalize(w, NULL, i, kj_lower_expr(w, i), i->type, len, -1);
        if (!w->inst->opts.boundscheck)
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntUGE, k, len, ""), PyExc_IndexError,
                        "tuple index out of range");
        LLVMValueRef p = LLVMBuildGEP2(w->b, kj_lltype(w, at->elems[0]), slot, &k, 1, "");
        return LLVMBuildLoad2(w->b, kj_lltype(w, at->elems[0]), p, "");
    }
    bool all_ints = nidx == at->ndim;
    for (int k = 1; k <= nidx; k++)
        if (n->kids[k]->kind == KJ_E_SLICE || kj_is_newaxis(n->kids[k]))
            all_ints = false;
    if (all_ints) {
        LLVMValueRef idx[at->ndim > 0 ? at->ndim : 1];
        for (int k = 0; k < nidx; k++) {
            kj_node *in = n->kids[k + 1];
            idx[k] = normalize(w, n->kids[0], in, kj_lower_expr(w, in), in->type, kj_array_field(w, arr, 2, k), k);
        }
        return load_elem(w, elem_ptr(w, arr, at, idx), at->elem);
    }
    return kj_lower_view(w, n, arr, -1);
}

LLVMValueRef kj_lower_view(kj_lw *w, kj_node *n, LLVMValueRef arr, int whole) {
    /* a view: ints drop an axis, slices narrow one, None (np.newaxis) adds
     * one of length 1, missing trailing axes stay */
    const kj_type *at = n->kids[0]->type, *rt = n->type;
    int nidx = n->nkids - 1;
    LLVMValueRef off = LLVMConstInt(w->i64, 0, 0);
    LLVMValueRef shapes[at->ndim + nidx], strides[at->ndim + nidx];
    int out = 0;
    for (int k = 0, p = 1; k < at->ndim || p <= nidx; p++) {
        kj_node *in = p <= nidx && p != whole + 1 ? n->kids[p] : NULL;
        if (in && kj_is_newaxis(in)) {
            shapes[out] = LLVMConstInt(w->i64, 1, 0);
            strides[out++] = LLVMConstInt(w->i64, 0, 0);
            continue;
        }
        int axis = k++;
        LLVMValueRef len = kj_array_field(w, arr, 2, axis), stride = kj_array_field(w, arr, 3, axis);
        if (in && in->kind != KJ_E_SLICE) {
            LLVMValueRef i = normalize(w, n->kids[0], in, kj_lower_expr(w, in), in->type, len, axis);
            off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, i, stride, ""), "");
            continue;
        }
        if (in) {
            LLVMValueRef start, sl_len, step;
            slice_axis(w, in, len, &start, &sl_len, &step);
            /* an empty slice may start out of range: it is never read */
            off = LLVMBuildAdd(w->b, off, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, sl_len, LLVMConstInt(w->i64, 0, 0), ""),
                                                          LLVMBuildMul(w->b, start, stride, ""), LLVMConstInt(w->i64, 0, 0), ""), "");
            shapes[out] = sl_len;
            strides[out++] = LLVMBuildMul(w->b, stride, step, "");
        } else {
            shapes[out] = len;
            strides[out++] = stride;
        }
    }
    LLVMValueRef view = LLVMGetUndef(kj_lltype(w, rt));
    view = LLVMBuildInsertValue(w->b, view, kj_array_field(w, arr, 0, 0), 0, "");
    LLVMValueRef data = kj_array_field(w, arr, 1, 0);
    view = LLVMBuildInsertValue(w->b, view, LLVMBuildGEP2(w->b, w->i8, data, &off, 1, ""), 1, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(w->i64, (unsigned)out)), st = sh;
    for (int k = 0; k < out; k++) {
        sh = LLVMBuildInsertValue(w->b, sh, shapes[k], (unsigned)k, "");
        st = LLVMBuildInsertValue(w->b, st, strides[k], (unsigned)k, "");
    }
    view = LLVMBuildInsertValue(w->b, view, sh, 2, "");
    view = LLVMBuildInsertValue(w->b, view, st, 3, "");
    return view;
}

LLVMValueRef kj_array_load(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef *idx) {
    return load_elem(w, elem_ptr(w, arr, at, idx), at->elem);
}

LLVMValueRef kj_array_item(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef t) {
    if (at->ndim == 1) {
        LLVMValueRef idx[1] = {t};
        return load_elem(w, elem_ptr(w, arr, at, idx), at->elem);
    }
    const kj_type *rt = kj_iter_elem(at);
    LLVMValueRef off = LLVMBuildMul(w->b, t, kj_array_field(w, arr, 3, 0), "");
    LLVMValueRef view = LLVMGetUndef(kj_lltype(w, rt));
    view = LLVMBuildInsertValue(w->b, view, kj_array_field(w, arr, 0, 0), 0, "");
    view = LLVMBuildInsertValue(w->b, view, LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, ""), 1, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(w->i64, rt->ndim)), st = sh;
    for (int k = 1; k < at->ndim; k++) {
        sh = LLVMBuildInsertValue(w->b, sh, kj_array_field(w, arr, 2, k), (unsigned)k - 1, "");
        st = LLVMBuildInsertValue(w->b, st, kj_array_field(w, arr, 3, k), (unsigned)k - 1, "");
    }
    view = LLVMBuildInsertValue(w->b, view, sh, 2, "");
    return LLVMBuildInsertValue(w->b, view, st, 3, "");
}

void kj_store_index(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    const kj_kind_ops *ops = kj_kind_ops_of(target->kids[0]->type->kind);
    if (ops->store && (!ops->stores || ops->stores(target))) {   /* lst[i] = x, d[k] = v; a[1:-1] = b, a[mask] = 0 */
        ops->store(w, target, v, vt);
        return;
    }
    const kj_type *at = target->kids[0]->type;
    const kj_type *et = target->type;
    if (et->kind == KJ_T_ARRAY) {
        /* view[...] = scalar: fill the view */
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, target->line, target->col,
                "Assign element by element in a loop.", "assigning to a slice is not supported yet");
        return;
    }
    LLVMValueRef arr = kj_lower_expr(w, target->kids[0]);
    int nidx = target->nkids - 1;
    LLVMValueRef idx[at->ndim > 0 ? at->ndim : 1];
    for (int k = 0; k < nidx; k++) {
        kj_node *in = target->kids[k + 1];
        idx[k] = normalize(w, target->kids[0], in, kj_lower_expr(w, in), in->type, kj_array_field(w, arr, 2, k), k);
    }
    LLVMValueRef x = kj_cast(w, v, vt, at->elem);
    if (at->elem->kind == KJ_T_BOOL)
        x = LLVMBuildZExt(w->b, x, w->i8, "");
    LLVMBuildStore(w->b, x, elem_ptr(w, arr, at, idx));
}
