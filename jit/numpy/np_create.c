/* np_create: arrays made in compiled code: np.empty, zeros, ones, full,
 * the *_like family, arange, linspace, eye, identity, and copy, array,
 * asarray and ascontiguousarray (np.tri: lower_np_tri.c); and global
 * arrays frozen into the module. */
#include "jit/containers/lists.h"
#include "jit/numpy/lower_np.h"
#include "jit/lower/lower_nrt.h"
#include "jit/core/np_dtype.h"
#include "jit/core/numpy_api.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* ---- types ---- */

/* np.empty, zeros, ones (shape, dtype) and np.full (shape, fill_value, dtype). */
static const kj_type *shape_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool bad;
    bool full = m[0] == 'f';
    kj_node *shape = kj_np_arg(a, 0, "shape");
    int nd = kj_np_shape_ndim(kj_np_arg_type(c, shape));
    if (nd < 0)
        FAIL(c, n, NULL, "np.%s needs a shape: an int or a tuple of ints", m);
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, full ? 2 : 1, "dtype"), &bad);
    if (bad)
        return NULL;
    if (full) {
        const kj_type *fv = kj_np_arg_type(c, kj_np_arg(a, 1, "fill_value"));
        if (!fv || !kj_is_number(fv))
            FAIL(c, n, NULL, "np.full needs a number to fill with");
        if (!dt) {
            char why[300];
            dt = kj_np_result_dtype("array", 1, &fv, why, sizeof why);
            if (!dt)
                return NULL;
        }
    }
    return kj_array(dt ? dt : KJ_F64, nd, KJ_LAYOUT_C, false);
}

/* np.empty_like, zeros_like, ones_like (a, dtype), full_like (a, fill_value, dtype). */
static const kj_type *like_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool bad;
    const kj_type *src = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    if (!src || src->kind != KJ_T_ARRAY)
        FAIL(c, n, NULL, "np.%s needs an array", m);
    if (m[0] == 'f' && !kj_np_arg_type(c, kj_np_arg(a, 1, "fill_value")))
        return NULL;
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, m[0] == 'f' ? 2 : 1, "dtype"), &bad);
    if (bad)
        return NULL;
    return kj_array(dt ? dt : src->elem, src->ndim, KJ_LAYOUT_C, false);
}

/* np.arange(start, stop, step, dtype): the dtype may come fourth, by position. */
static int arange_numbers(const kj_np_args *a) { return a->npos == 4 ? 3 : a->npos; }

static const kj_type *arange_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    bool bad;
    const kj_type *e = KJ_I64;
    for (int i = 0; i < arange_numbers(a); i++) {
        const kj_type *t = kj_np_arg_type(c, a->pos[i]);
        if (!t)
            return NULL;
        if (!kj_is_number(t) || t->kind == KJ_T_COMPLEX)
            FAIL(c, n, NULL, "np.arange takes real numbers, got %s", t->name);
        if (!kj_is_intlike(t))
            e = KJ_F64;
    }
    if (a->npos < 1 || a->npos > 4)
        FAIL(c, n, NULL, "np.arange([start,] stop[, step][, dtype])");
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, a->npos == 4 ? 3 : -1, "dtype"), &bad);
    return bad ? NULL : kj_array(dt ? dt : e, 1, KJ_LAYOUT_C, false);
}

static const kj_type *linspace_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    for (int i = 0; i < a->npos; i++) {
        const kj_type *t = kj_np_arg_type(c, a->pos[i]);
        if (!t)
            return NULL;
        if (!kj_is_number(t) || t->kind == KJ_T_COMPLEX || (i == 2 && !kj_is_intlike(t)))
            FAIL(c, n, NULL, "np.linspace(start, stop, num=50) takes real numbers and an int");
    }
    kj_node *ep = kj_np_arg(a, -1, "endpoint");
    if (ep && !kj_np_arg_type(c, ep))
        return NULL;
    if (a->npos < 2 || a->npos > 3)
        FAIL(c, n, NULL, "np.linspace(start, stop, num=50)");
    return kj_array(KJ_F64, 1, KJ_LAYOUT_C, false);
}

/* np.eye(N, M=None, k=0, dtype=float), np.identity(n, dtype=float). */
static const kj_type *eye_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool eye = m[0] == 'e';
    static const char *const eye_known[] = {"N", "M", "k", "dtype", NULL}, *const identity_known[] = {"n", "dtype", NULL};
    const char *const *known = eye ? eye_known : identity_known;
    int nsizes = eye ? 3 : 1;
    if (!kj_np_arg(a, 0, known[0]) || a->npos > nsizes + 1 || !kj_np_only_keywords(a, known))
        FAIL(c, n, NULL, eye ? "np.eye(N, M=None, k=0, dtype=float) takes ints and a dtype"
                             : "np.identity(n, dtype=float) takes an int and a dtype");
    for (int i = 0; i < nsizes; i++) {
        kj_node *k = kj_np_arg(a, i, known[i]);
        const kj_type *t = k ? kj_np_arg_type(c, k) : NULL;
        if (k && !t)
            return NULL;
        if (k && !kj_is_intlike(t) && !(i == 1 && t->kind == KJ_T_NONE))
            FAIL(c, n, NULL, "np.%s takes integer sizes", m);
    }
    bool bad;
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, nsizes, "dtype"), &bad);
    return bad ? NULL : kj_array(dt ? dt : KJ_F64, 2, KJ_LAYOUT_C, false);
}

/* The shape of a tuple of numbers, or of such tuples nested all of one
 * length at each depth (((1, 2), (3, 4)): 2 x 2), into shape (room for
 * KJ_NP_MAXDIM), and the NumPy type of all its numbers promoted into
 * *elem; the number of dimensions, or -1 when it has no such shape. */
static int tuple_shape(const kj_type *t, int64_t *shape, const kj_type **elem) {
    if (t->kind != KJ_T_TUPLE) {
        if (!kj_is_number(t) && t->kind != KJ_T_BOOL)
            return -1;
        *elem = *elem ? kj_promote(*elem, t) : t;
        return 0;
    }
    int64_t inner[KJ_NP_MAXDIM];
    int nd = -2;
    for (int i = 0; i < t->n; i++) {
        int d = tuple_shape(t->elems[i], inner, elem);
        if (d < 0 || d + 1 > KJ_NP_MAXDIM || (nd != -2 && d != nd - 1))
            return -1;
        if (nd != -2 && memcmp(inner, shape + 1, sizeof(int64_t) * (size_t)d) != 0)
            return -1;
        memcpy(shape + 1, inner, sizeof(int64_t) * (size_t)d);
        nd = d + 1;
    }
    shape[0] = t->n;
    return t->n ? nd : 1;   /* () is an empty 1-d array */
}

/* np.array, asarray, ascontiguousarray and copy of an array, a list of
 * numbers, of tuples of numbers, of arrays, or of lists nested; or of a
 * number (0-d) or of tuples of numbers nested (((1, 2), (3, 4))). */
static const kj_type *array_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool bad;
    const kj_type *src = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    if (!src)
        return NULL;
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, 1, "dtype"), &bad);
    if (bad)
        return NULL;
    /* of a list (np.copy takes arrays only) */
    bool list = src->kind == KJ_T_LIST && strcmp(m, "copy") != 0;
    const kj_type *item = list ? src->elem : NULL;   /* NULL for an empty list's */
    if (item && item->kind == KJ_T_TUPLE) {
        /* np.array(pairs): one row per tuple, the numbers promoted as NumPy does */
        const kj_type *u = NULL;
        for (int i = 0; i < item->n && (u = kj_unify(u, item->elems[i])); i++)
            if (!kj_is_number(u) && u->kind != KJ_T_BOOL)
                u = NULL;
        if (!u)
            FAIL(c, n, "Build the array with np.empty and fill it.",
                 "np.%s takes a list of tuples of numbers only, got a list of %s", m, item->name);
        return kj_array(dt ? dt : u, 2, KJ_LAYOUT_C, false);
    }
    if (item && item->kind == KJ_T_ARRAY) {
        if (item->ndim + 1 > KJ_NP_MAXDIM)
            FAIL(c, n, NULL, "np.%s of a list of %d-d arrays has too many dimensions", m, item->ndim);
        return kj_array(dt ? dt : item->elem, item->ndim + 1, KJ_LAYOUT_C, false);   /* one array per row */
    }
    if (item && item->kind == KJ_T_LIST) {
        /* np.array([[1., 2.], [3., 4.]]): a dimension per level of lists */
        int nd = 1;
        const kj_type *e = item;
        for (; e && e->kind == KJ_T_LIST; e = e->elem)
            nd++;
        if (e && !kj_is_number(e) && e->kind != KJ_T_BOOL)
            FAIL(c, n, "Build the array with np.empty and fill it.",
                 "np.%s takes nested lists of numbers only, got lists of %s", m, e->name);
        if (nd > KJ_NP_MAXDIM)
            FAIL(c, n, NULL, "np.%s of lists nested %d deep has too many dimensions", m, nd);
        return kj_array(dt ? dt : e ? e : KJ_F64, nd, KJ_LAYOUT_C, false);
    }
    if (list)   /* np.array([1, 2, 3]), or of an empty list */
        return kj_array(dt ? dt : item ? item : KJ_F64, 1, KJ_LAYOUT_C, false);
    if (src->kind == KJ_T_TUPLE || kj_is_number(src) || src->kind == KJ_T_BOOL) {
        int64_t shape[KJ_NP_MAXDIM];
        const kj_type *e = NULL;
        int nd = tuple_shape(src, shape, &e);
        if (nd < 0)
            FAIL(c, n, "Make each level of the tuples one length, of numbers only.",
                 "np.%s of %s: the tuples are not of one shape of numbers", m, src->name);
        return kj_array(dt ? dt : e ? e : KJ_F64, nd, KJ_LAYOUT_C, false);
    }
    if (src->kind != KJ_T_ARRAY)
        FAIL(c, n, "Build the array with np.empty and fill it.", "np.%s needs an array or a list here, got %s", m,
             src->name);
    if (!strcmp(m, "asarray") && (!dt || dt == src->elem))
        return src;
    return kj_array(dt ? dt : src->elem, src->ndim, KJ_LAYOUT_C, false);
}

/* ---- lowering ---- */

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* np.arange: the length NumPy gives, ceil((stop - start) / step) >= 0,
 * and element i = start + i * step. */
static LLVMValueRef arange(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = n->type;
    int numbers = arange_numbers(a);
    bool ints = true;
    for (int i = 0; i < numbers; i++)
        ints = ints && kj_is_intlike(a->pos[i]->type);
    const kj_type *ct = ints ? KJ_I64 : KJ_F64;
    LLVMValueRef start = numbers > 1 ? kj_np_value(w, a->pos[0], ct) : kj_cast(w, c64(w, 0), KJ_I64, ct);
    LLVMValueRef stop = kj_np_value(w, a->pos[numbers > 1 ? 1 : 0], ct);
    LLVMValueRef step = numbers > 2 ? kj_np_value(w, a->pos[2], ct) : kj_cast(w, c64(w, 1), KJ_I64, ct);
    LLVMValueRef len;
    if (ints) {
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, step, c64(w, 0), ""), PyExc_ZeroDivisionError,
                    "division by zero");
        /* ceil division toward the step's sign */
        LLVMValueRef span = LLVMBuildSub(w->b, stop, start, "");
        LLVMValueRef pos = LLVMBuildICmp(w->b, LLVMIntSGT, step, c64(w, 0), "");
        LLVMValueRef adj = LLVMBuildSelect(w->b, pos, LLVMBuildSub(w->b, step, c64(w, 1), ""),
                                           LLVMBuildAdd(w->b, step, c64(w, 1), ""), "");
        len = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, span, adj, ""), step, "");
    } else {
        kj_raise_if(w, LLVMBuildFCmp(w->b, LLVMRealOEQ, step, LLVMConstReal(w->f64, 0), ""),
                    PyExc_ZeroDivisionError, "division by zero");
        LLVMValueRef q = LLVMBuildFDiv(w->b, LLVMBuildFSub(w->b, stop, start, ""), step, "");
        q = kj_call_intrinsic(w, "llvm.ceil", w->f64, 1, &q);
        kj_raise_if(w, LLVMBuildFCmp(w->b, LLVMRealUNO, q, q, ""), PyExc_ValueError, "arange: cannot compute length");
        len = LLVMBuildFPToSI(w->b, LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOGT, q, LLVMConstReal(w->f64, 0), ""),
                                                    q, LLVMConstReal(w->f64, 0), ""), w->i64, "");
    }
    len = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, len, c64(w, 0), ""), len, c64(w, 0), "len");
    LLVMValueRef arr = kj_np_alloc(w, t, &len, false);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef v = ints ? LLVMBuildAdd(w->b, start, LLVMBuildMul(w->b, i, step, ""), "")
                          : LLVMBuildFAdd(w->b, start, LLVMBuildFMul(w->b, LLVMBuildSIToFP(w->b, i, w->f64, ""), step, ""), "");
    kj_np_store_elem(w, kj_np_ptr(w, arr, 1, &i), v, ct, t->elem);
    kj_np_loop_end(w, &l);
    return arr;
}

void kj_np_linspace_setup(kj_lw *w, kj_np_linspace *ls, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef num,
                          LLVMValueRef endpoint) {
    LLVMBuilderRef b = w->b;
    kj_np_raise_i64_if(w, LLVMBuildICmp(b, LLVMIntSLT, num, c64(w, 0), ""), PyExc_ValueError,
                       "Number of samples, %lld, must be non-negative.", num);
    ls->start = start;
    ls->stop = stop;
    ls->num = num;
    LLVMValueRef div = LLVMBuildSelect(b, endpoint, LLVMBuildSub(b, num, c64(w, 1), ""), num, "");
    ls->delta = LLVMBuildFSub(b, stop, start, "");
    ls->div = LLVMBuildSIToFP(b, div, w->f64, "");
    ls->step = LLVMBuildFDiv(b, ls->delta, ls->div, "");
    ls->has_div = LLVMBuildICmp(b, LLVMIntSGT, div, c64(w, 0), "");
    ls->step_zero = LLVMBuildFCmp(b, LLVMRealOEQ, ls->step, LLVMConstReal(w->f64, 0), "");
    ls->ends_at_stop = LLVMBuildAnd(b, endpoint, LLVMBuildICmp(b, LLVMIntSGT, num, c64(w, 1), ""), "");
}

LLVMValueRef kj_np_linspace_item(kj_lw *w, const kj_np_linspace *ls, LLVMValueRef i) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef fi = LLVMBuildSIToFP(b, i, w->f64, "");
    LLVMValueRef by_step = LLVMBuildFMul(b, fi, ls->step, "");
    LLVMValueRef by_delta = LLVMBuildFMul(b, LLVMBuildFDiv(b, fi, ls->div, ""), ls->delta, "");
    LLVMValueRef y = LLVMBuildSelect(b, ls->has_div, LLVMBuildSelect(b, ls->step_zero, by_delta, by_step, ""),
                                     LLVMBuildFMul(b, fi, ls->delta, ""), "");
    y = LLVMBuildFAdd(b, y, ls->start, "");
    LLVMValueRef last = LLVMBuildAnd(b, ls->ends_at_stop, LLVMBuildICmp(b, LLVMIntEQ, i, LLVMBuildSub(b, ls->num, c64(w, 1), ""), ""), "");
    return LLVMBuildSelect(b, last, ls->stop, y, "");
}

/* np.linspace(start, stop, num=50, endpoint=True). */
static LLVMValueRef linspace(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *numk = kj_np_arg(a, 2, "num"), *epk = kj_np_arg(a, -1, "endpoint");
    /* the arguments in Python's order, one declarator each (C leaves a call's arguments unordered) */
    LLVMValueRef start = kj_np_value(w, a->pos[0], KJ_F64), stop = kj_np_value(w, a->pos[1], KJ_F64);
    LLVMValueRef num = numk ? kj_np_value(w, numk, KJ_I64) : c64(w, 50);
    LLVMValueRef endpoint = epk ? kj_truth(w, kj_lower_expr(w, epk), epk->type) : LLVMConstInt(w->i1, 1, 0);
    kj_np_linspace ls;
    kj_np_linspace_setup(w, &ls, start, stop, num, endpoint);
    LLVMValueRef arr = kj_np_alloc(w, n->type, &ls.num, false);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ls.num);
    kj_np_store_elem(w, kj_np_ptr(w, arr, 1, &i), kj_np_linspace_item(w, &ls, i), KJ_F64, KJ_F64);
    kj_np_loop_end(w, &l);
    return arr;
}

/* np.eye(N, M=None, k=0) and np.identity(n). */
static LLVMValueRef eye(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *t = n->type;
    LLVMValueRef shape[2];
    shape[0] = kj_np_value(w, kj_np_arg(a, 0, m[0] == 'e' ? "N" : "n"), KJ_I64);
    kj_node *mk = m[0] == 'e' ? kj_np_arg(a, 1, "M") : NULL, *kk = m[0] == 'e' ? kj_np_arg(a, 2, "k") : NULL;
    shape[1] = mk && mk->type->kind != KJ_T_NONE ? kj_np_value(w, mk, KJ_I64) : shape[0];
    LLVMValueRef k = kk ? kj_np_value(w, kk, KJ_I64) : c64(w, 0);
    LLVMValueRef arr = kj_np_alloc(w, t, shape, true);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, shape[0]);
    LLVMValueRef j = LLVMBuildAdd(w->b, i, k, "");
    LLVMValueRef in = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntSGE, j, c64(w, 0), ""),
                                   LLVMBuildICmp(w->b, LLVMIntSLT, j, shape[1], ""), "");
    LLVMBasicBlockRef set = kj_new_bb(w, "eye.set"), next = kj_new_bb(w, "eye.next");
    LLVMBuildCondBr(w->b, in, set, next);
    LLVMPositionBuilderAtEnd(w->b, set);
    kj_np_store_elem(w, kj_np_ptr(w, arr, 2, (LLVMValueRef[]){i, j}), c64(w, 1), KJ_I64, t->elem);
    LLVMBuildBr(w->b, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    kj_np_loop_end(w, &l);
    return arr;
}

/* A new array of n's type and this shape: uninitialised (np.empty), zeros,
 * ones or fill_value (np.full), as m says. */
static LLVMValueRef filled(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a, LLVMValueRef *shape) {
    const kj_type *t = n->type;
    LLVMValueRef arr = kj_np_alloc(w, t, shape, m[0] == 'z');
    if (m[0] == 'o')
        kj_np_fill(w, arr, t, c64(w, 1), KJ_I64);
    else if (m[0] == 'f')
        kj_np_fill(w, arr, t, kj_np_value(w, kj_np_arg(a, 1, "fill_value"), t->elem), t->elem);
    return arr;
}

static LLVMValueRef lower_shape(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape_arg(w, kj_np_arg(a, 0, "shape"), shape);
    return filled(w, n, m, a, shape);
}

static LLVMValueRef lower_like(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, kj_lower_expr(w, kj_np_arg(a, 0, "a")), n->type->ndim, shape);
    return filled(w, n, m, a, shape);
}

/* Stores value v of type vt (a number, or tuples nested) into array arr
 * (type t) at the index whose first depth positions are idx. */
static void store_tuple(kj_lw *w, LLVMValueRef arr, const kj_type *t, LLVMValueRef v, const kj_type *vt,
                        LLVMValueRef *idx, int depth) {
    if (vt->kind != KJ_T_TUPLE) {
        kj_np_store_elem(w, kj_np_ptr(w, arr, t->ndim, idx), v, vt, t->elem);
        return;
    }
    for (int i = 0; i < vt->n; i++) {
        idx[depth] = c64(w, i);
        store_tuple(w, arr, t, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), vt->elems[i], idx, depth + 1);
    }
}

static LLVMValueRef lower_array(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = n->type;
    kj_node *src = kj_np_arg(a, 0, "a");
    LLVMValueRef s = kj_lower_expr(w, src);
    if (t == src->type)   /* asarray of an array of this type: the same array */
        return s;
    if (src->type->kind == KJ_T_LIST && src->type->elem && src->type->elem->kind == KJ_T_ARRAY)
        return kj_np_array_of_list(w, s, src->type, t);
    if (src->type->kind == KJ_T_LIST && src->type->elem && src->type->elem->kind == KJ_T_LIST)
        return kj_np_array_of_nested(w, s, src->type, t);
    if (src->type->kind == KJ_T_LIST) {   /* np.array(a_list): the items, converted; a row per tuple */
        const kj_type *e = src->type->elem;
        LLVMValueRef shape[2] = {kj_list_len(w, s), c64(w, e && e->kind == KJ_T_TUPLE ? e->n : 1)};
        LLVMValueRef arr = kj_np_alloc(w, t, shape, false);
        if (e) {
            kj_np_loop l;
            LLVMValueRef idx[2] = {kj_np_loop_begin(w, &l, shape[0]), c64(w, 0)};
            LLVMValueRef item = kj_list_get(w, s, e, idx[0]);
            if (e->kind != KJ_T_TUPLE)
                kj_np_store_elem(w, kj_np_ptr(w, arr, 1, idx), item, e, t->elem);
            for (int k = 0; e->kind == KJ_T_TUPLE && k < e->n; k++) {
                idx[1] = c64(w, k);
                kj_np_store_elem(w, kj_np_ptr(w, arr, 2, idx), LLVMBuildExtractValue(w->b, item, (unsigned)k, ""),
                                 e->elems[k], t->elem);
            }
            kj_np_loop_end(w, &l);
        }
        return arr;
    }
    if (src->type->kind != KJ_T_ARRAY) {   /* a number, or tuples of numbers nested */
        int64_t dims[KJ_NP_MAXDIM];
        const kj_type *e = NULL;
        tuple_shape(src->type, dims, &e);   /* typing checked it */
        LLVMValueRef shape[KJ_NP_MAXDIM];
        for (int k = 0; k < t->ndim; k++)
            shape[k] = c64(w, dims[k]);
        LLVMValueRef arr = kj_np_alloc(w, t, shape, false);
        LLVMValueRef idx[KJ_NP_MAXDIM];
        store_tuple(w, arr, t, s, src->type, idx, 0);
        return arr;
    }
    return kj_np_copy(w, s, src->type, t->elem);
}

LLVMValueRef kj_np_frozen(kj_lw *w, kj_node *n) {
    const kj_type *t = n->type;
    if (!kj_nrt_host_only(w, n, "a global array"))
        return LLVMGetUndef(kj_lltype(w, t));
    PyArrayObject *a = (PyArrayObject *)n->pyobj;
    size_t bytes = (size_t)PyArray_NBYTES(a);
    LLVMValueRef data = LLVMAddGlobal(w->mod, LLVMArrayType2(w->i8, bytes ? bytes : 1), "kiln.frozen");
    LLVMSetInitializer(data, bytes ? LLVMConstStringInContext(w->ctx, PyArray_BYTES(a), (unsigned)bytes, 1)
                                   : LLVMConstNull(LLVMArrayType2(w->i8, 1)));
    LLVMSetGlobalConstant(data, 1);
    LLVMSetLinkage(data, LLVMPrivateLinkage);
    LLVMSetAlignment(data, 64);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    for (int k = 0; k < t->ndim; k++)
        shape[k] = c64(w, PyArray_DIM(a, k));
    return kj_np_make(w, t, LLVMConstNull(w->ptr), data, shape, NULL);
}

KJ_NP_FUNCTION(empty, shape_type, lower_shape);
KJ_NP_FUNCTION(zeros, shape_type, lower_shape);
KJ_NP_FUNCTION(ones, shape_type, lower_shape);
KJ_NP_FUNCTION(full, shape_type, lower_shape);
KJ_NP_FUNCTION(empty_like, like_type, lower_like);
KJ_NP_FUNCTION(zeros_like, like_type, lower_like);
KJ_NP_FUNCTION(ones_like, like_type, lower_like);
KJ_NP_FUNCTION(full_like, like_type, lower_like);
KJ_NP_FUNCTION(arange, arange_type, arange);
KJ_NP_FUNCTION(linspace, linspace_type, linspace);
KJ_NP_FUNCTION(eye, eye_type, eye);
KJ_NP_FUNCTION(identity, eye_type, eye);
KJ_NP_FUNCTION(array, array_type, lower_array);
KJ_NP_FUNCTION(asarray, array_type, lower_array);
KJ_NP_FUNCTION(ascontiguousarray, array_type, lower_array);
KJ_NP_FUNCTION(copy, array_type, lower_array);
