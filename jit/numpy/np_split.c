/* np_split: np.split, np.array_split, np.hsplit, np.vsplit and np.dsplit
 * in compiled code, typing and lowering: a list of views of the array
 * along one axis (lists of arrays, lists.h), cut where NumPy cuts it:
 *   - into N sections: array_split makes the first L % N of them one
 *     longer; split wants them equal (ValueError otherwise);
 *   - at indices (a tuple, list or 1-d array of ints): the pieces are the
 *     slices [0:i0], [i0:i1], ..., [ik:], each bound as Python's
 *     (negative from the end, clamped), a piece empty where a bound is
 *     below the one before, as NumPy's.
 * The axis is a constant: 0 by default, 1 for hsplit (0 of a 1-d array),
 * 0 for vsplit, 2 for dsplit. */
#include "jit/containers/lists.h"
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* The axis np.m cuts an array of ndim dimensions along, in *axis (from
 * 0); the least number of dimensions m takes in *least. False when the
 * axis argument is not a constant int. */
static bool cut_axis(const char *m, const kj_np_args *a, int ndim, int64_t *axis, int *least) {
    *least = 1;
    if (!strcmp(m, "hsplit")) {
        *axis = ndim > 1 ? 1 : 0;
        return true;
    }
    if (!strcmp(m, "vsplit") || !strcmp(m, "dsplit")) {
        *least = m[0] == 'v' ? 2 : 3;
        *axis = m[0] == 'v' ? 0 : 2;
        return true;
    }
    if (!kj_const_int(kj_np_arg(a, 2, "axis"), 0, axis))
        return false;
    if (*axis < 0)
        *axis += ndim;
    return true;
}

/* Whether t gives cut points: a tuple of ints (or none), a list of ints or
 * a 1-d array of them. */
static bool are_indices(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kj_is_intlike(t->elems[i]))
                return false;
        return true;
    }
    if (t->kind == KJ_T_LIST)
        return t->elem && kj_is_intlike(t->elem);
    return t->kind == KJ_T_ARRAY && t->ndim == 1 && kj_is_intlike(t->elem);
}

static const kj_type *split_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"ary", "indices_or_sections", "axis", NULL};
    bool any_axis = !strcmp(m, "split") || !strcmp(m, "array_split");
    kj_node *cuts = kj_np_arg(a, 1, "indices_or_sections");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "ary"));
    const kj_type *s = cuts ? kj_np_arg_type(c, cuts) : NULL;
    if (!x || (cuts && !s))
        return NULL;
    if (!cuts || a->npos > (any_axis ? 3 : 2) || !kj_np_only_keywords(a, any_axis ? known : (const char *[]){"ary", "indices_or_sections", NULL}))
        FAIL(c, n, NULL, "np.%s takes an array and sections or indices%s here", m, any_axis ? ", and an axis" : "");
    if (x->kind != KJ_T_ARRAY)
        FAIL(c, n, NULL, "np.%s needs an array here, got %s", m, x->name);
    int64_t axis;
    int least;
    if (!cut_axis(m, a, x->ndim, &axis, &least))
        FAIL(c, n, "Write the axis as a number.", "np.%s takes a constant axis here", m);
    if (x->ndim < least)
        FAIL(c, n, NULL, "%s only works on arrays of %d or more dimensions", m, least);
    if (axis < 0 || axis >= x->ndim)
        FAIL(c, n, NULL, "axis %lld is out of bounds for array of dimension %d", (long long)axis, x->ndim);
    if (!kj_is_intlike(s) && !are_indices(s))
        FAIL(c, cuts, "Give a number of sections, or indices as a tuple, a list or a 1-d array of ints.",
             "np.%s cannot cut at %s", m, s->name);
    /* cuts along the first axis keep a C array's rows whole */
    int layout = axis == 0 && x->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A;
    return kj_list(kj_array(x->elem, x->ndim, layout, x->readonly));
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef min64(kj_lw *w, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, a, b, ""), a, b, "");
}

static LLVMValueRef max64(kj_lw *w, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, a, b, ""), a, b, "");
}

/* The view of x (type xt) from start to stop (0 <= start, stop <= len)
 * along axis, appended to list (items of type pt). */
static void push_piece(kj_lw *w, LLVMValueRef list, const kj_type *pt, LLVMValueRef x, const kj_type *xt, int axis,
                       LLVMValueRef start, LLVMValueRef stop) {
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM];
    kj_np_shape(w, x, xt->ndim, shape);
    kj_np_strides(w, x, xt->ndim, strides);
    LLVMValueRef off = LLVMBuildMul(w->b, start, strides[axis], "");
    LLVMValueRef data = LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, x, 1, 0), &off, 1, "");
    shape[axis] = max64(w, LLVMBuildSub(w->b, stop, start, ""), c64(w, 0));
    kj_list_push(w, list, pt, kj_np_make(w, pt, kj_array_field(w, x, 0, 0), data, shape, strides), pt);
}

/* N sections of len elements: NumPy's errors, then the list of the
 * sections (type lt). */
static LLVMValueRef cut_sections(kj_lw *w, const char *m, const kj_type *lt, LLVMValueRef x, const kj_type *xt, int axis,
                                 LLVMValueRef len, LLVMValueRef nsec) {
    if (!strcmp(m, "array_split")) {
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLE, nsec, c64(w, 0), ""), PyExc_ValueError,
                    "number sections must be larger than 0.");
    } else {   /* NumPy tests len % N first */
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, nsec, c64(w, 0), ""), PyExc_ZeroDivisionError,
                    "integer modulo by zero");
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildSRem(w->b, len, nsec, ""), c64(w, 0), ""),
                    PyExc_ValueError, "array split does not result in an equal division");
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, nsec, c64(w, 0), ""), PyExc_ValueError,
                    "number sections must be larger than 0.");
    }
    LLVMValueRef list = kj_list_make(w, lt, nsec);
    LLVMValueRef each = LLVMBuildSDiv(w->b, len, nsec, ""), extras = LLVMBuildSRem(w->b, len, nsec, "");
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, nsec);
    LLVMValueRef start = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, i, each, ""), min64(w, i, extras), "");
    LLVMValueRef longer = LLVMBuildZExt(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, i, extras, ""), w->i64, "");
    push_piece(w, list, lt->elem, x, xt, axis, start, LLVMBuildAdd(w->b, LLVMBuildAdd(w->b, start, each, ""), longer, ""));
    kj_np_loop_end(w, &l);
    return list;
}

/* Index i of a slice over len elements, as Python bounds it. */
static LLVMValueRef slice_bound(kj_lw *w, LLVMValueRef i, LLVMValueRef len) {
    LLVMValueRef from_end = max64(w, LLVMBuildAdd(w->b, i, len, ""), c64(w, 0));
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, i, c64(w, 0), ""), from_end, min64(w, i, len), "");
}

/* Cut point k of the cuts given as st (a tuple spilled to memory, a list
 * or an array), as an int64. */
static LLVMValueRef cut_point(kj_lw *w, LLVMValueRef cuts, const kj_type *st, LLVMValueRef k) {
    if (st->kind == KJ_T_LIST)
        return kj_cast(w, kj_list_get(w, cuts, st->elem, k), st->elem, KJ_I64);
    if (st->kind == KJ_T_ARRAY)
        return kj_cast(w, kj_array_item(w, cuts, st, k), st->elem, KJ_I64);
    return LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i64, cuts, &k, 1, ""), "");
}

static void cut_at(kj_lw *w, LLVMValueRef list, const kj_type *pt, LLVMValueRef x, const kj_type *xt, int axis,
                   LLVMValueRef len, kj_node *cutn) {
    const kj_type *st = cutn->type;
    LLVMValueRef cuts = kj_lower_expr(w, cutn), count;
    if (st->kind == KJ_T_TUPLE) {   /* its ints, to memory, so that the loop reads them by index */
        LLVMValueRef mem = kj_entry_alloca(w, LLVMArrayType2(w->i64, (uint64_t)(st->n ? st->n : 1)), "split.cuts");
        for (int i = 0; i < st->n; i++) {
            LLVMValueRef k = c64(w, i);
            LLVMBuildStore(w->b, kj_cast(w, LLVMBuildExtractValue(w->b, cuts, (unsigned)i, ""), st->elems[i], KJ_I64),
                           LLVMBuildGEP2(w->b, w->i64, mem, &k, 1, ""));
        }
        cuts = mem;
        count = c64(w, st->n);
    } else {
        count = st->kind == KJ_T_LIST ? kj_list_len(w, cuts) : kj_array_len(w, cuts);
    }
    LLVMValueRef prev = kj_entry_alloca(w, w->i64, "split.prev");
    LLVMBuildStore(w->b, c64(w, 0), prev);
    kj_np_loop l;   /* count + 1 pieces: the last one runs to the end */
    LLVMValueRef k = kj_np_loop_begin(w, &l, LLVMBuildAdd(w->b, count, c64(w, 1), ""));
    LLVMValueRef last = LLVMBuildICmp(w->b, LLVMIntEQ, k, count, "");
    LLVMBasicBlockRef read = kj_new_bb(w, "split.read"), join = kj_new_bb(w, "split.join");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBuildCondBr(w->b, last, join, read);
    LLVMPositionBuilderAtEnd(w->b, read);
    LLVMValueRef point = cut_point(w, cuts, st, k);
    LLVMBasicBlockRef read_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef end = LLVMBuildPhi(w->b, w->i64, "split.end");
    LLVMAddIncoming(end, (LLVMValueRef[]){len, point}, (LLVMBasicBlockRef[]){from, read_end}, 2);
    LLVMValueRef start = slice_bound(w, LLVMBuildLoad2(w->b, w->i64, prev, ""), len);
    push_piece(w, list, pt, x, xt, axis, start, slice_bound(w, end, len));
    LLVMBuildStore(w->b, end, prev);
    kj_np_loop_end(w, &l);
}

static LLVMValueRef lower_split(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *xn = kj_np_arg(a, 0, "ary"), *cutn = kj_np_arg(a, 1, "indices_or_sections");
    const kj_type *xt = xn->type, *pt = n->type->elem;
    int64_t axis;
    int least;
    cut_axis(m, a, xt->ndim, &axis, &least);   /* typing checked it */
    LLVMValueRef x = kj_lower_expr(w, xn), len = kj_array_field(w, x, 2, (int)axis);
    if (kj_is_intlike(cutn->type))
        return cut_sections(w, m, n->type, x, xt, (int)axis, len, kj_np_value(w, cutn, KJ_I64));
    LLVMValueRef list = kj_list_make(w, n->type, c64(w, 0));
    cut_at(w, list, pt, x, xt, (int)axis, len, cutn);
    return list;
}

KJ_CALLABLE(split, .name = "np.split", .targets = KJ_ON_ANY, .np_type = split_type, .np_lower = lower_split);
KJ_CALLABLE(array_split, .name = "np.array_split", .targets = KJ_ON_ANY, .np_type = split_type, .np_lower = lower_split);
KJ_CALLABLE(hsplit, .name = "np.hsplit", .targets = KJ_ON_ANY, .np_type = split_type, .np_lower = lower_split);
KJ_CALLABLE(vsplit, .name = "np.vsplit", .targets = KJ_ON_ANY, .np_type = split_type, .np_lower = lower_split);
KJ_CALLABLE(dsplit, .name = "np.dsplit", .targets = KJ_ON_ANY, .np_type = split_type, .np_lower = lower_split);
