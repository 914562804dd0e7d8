/* lower_np_create: arrays made in compiled code (np.empty, zeros, ones,
 * full, the *_like family, arange, linspace, eye, identity, copy, array,
 * asarray) and the array methods that make or view arrays (copy, astype,
 * reshape, ravel, flatten, transpose, fill). */
#include "jit/containers/lists.h"
#include "jit/numpy/lower_np.h"
#include "jit/lower/lower_nrt.h"
#include "jit/core/numpy_api.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef fill_value(kj_lw *w, const kj_np_args *a, int pos, const kj_type *et) {
    kj_node *k = kj_np_arg(a, pos, "fill_value");
    return kj_np_value(w, k, et);
}

/* np.arange: the length NumPy gives, ceil((stop - start) / step) >= 0,
 * and element i = start + i * step. */
static LLVMValueRef arange(kj_lw *w, kj_node *n, const kj_np_args *a) {
    const kj_type *t = n->type;
    bool ints = true;
    for (int i = 0; i < a->npos; i++)
        ints = ints && kj_is_intlike(a->pos[i]->type);
    const kj_type *ct = ints ? KJ_I64 : KJ_F64;
    LLVMValueRef start = a->npos > 1 ? kj_np_value(w, a->pos[0], ct) : kj_cast(w, c64(w, 0), KJ_I64, ct);
    LLVMValueRef stop = kj_np_value(w, a->pos[a->npos > 1 ? 1 : 0], ct);
    LLVMValueRef step = a->npos > 2 ? kj_np_value(w, a->pos[2], ct) : kj_cast(w, c64(w, 1), KJ_I64, ct);
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
static LLVMValueRef linspace(kj_lw *w, kj_node *n, const kj_np_args *a) {
    kj_node *numk = kj_np_arg(a, 2, "num"), *epk = kj_np_arg(a, -1, "endpoint");
    kj_np_linspace ls;
    kj_np_linspace_setup(w, &ls, kj_np_value(w, a->pos[0], KJ_F64), kj_np_value(w, a->pos[1], KJ_F64),
                         numk ? kj_np_value(w, numk, KJ_I64) : c64(w, 50),
                         epk ? kj_truth(w, kj_lower_expr(w, epk), epk->type) : LLVMConstInt(w->i1, 1, 0));
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
    shape[0] = kj_np_value(w, a->pos[0], KJ_I64);
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

LLVMValueRef kj_np_lower_create(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a, bool *handled) {
    const kj_type *t = n->type;
    *handled = true;
    LLVMValueRef shape[KJ_NP_MAXDIM];
    if (!strcmp(m, "empty") || !strcmp(m, "zeros") || !strcmp(m, "ones") || !strcmp(m, "full")) {
        kj_np_shape_arg(w, kj_np_arg(a, 0, "shape"), shape);
        LLVMValueRef arr = kj_np_alloc(w, t, shape, m[0] == 'z');
        if (m[0] == 'o')
            kj_np_fill(w, arr, t, c64(w, 1), KJ_I64);
        else if (m[0] == 'f')
            kj_np_fill(w, arr, t, fill_value(w, a, 1, t->elem), t->elem);
        return arr;
    }
    if (strlen(m) > 5 && !strcmp(m + strlen(m) - 5, "_like")) {
        kj_node *src = kj_np_arg(a, 0, "a");
        LLVMValueRef s = kj_lower_expr(w, src);
        kj_np_shape(w, s, t->ndim, shape);
        LLVMValueRef arr = kj_np_alloc(w, t, shape, m[0] == 'z');
        if (m[0] == 'o')
            kj_np_fill(w, arr, t, c64(w, 1), KJ_I64);
        else if (m[0] == 'f')
            kj_np_fill(w, arr, t, fill_value(w, a, 1, t->elem), t->elem);
        return arr;
    }
    if (!strcmp(m, "arange"))
        return arange(w, n, a);
    if (!strcmp(m, "linspace"))
        return linspace(w, n, a);
    if (!strcmp(m, "eye") || !strcmp(m, "identity"))
        return eye(w, n, m, a);
    if (!strcmp(m, "tri"))
        return kj_np_lower_tri(w, n, a);
    if (!strcmp(m, "copy") || !strcmp(m, "array") || !strcmp(m, "asarray") || !strcmp(m, "ascontiguousarray")) {
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
        return kj_np_copy(w, s, src->type, t->elem);
    }
    *handled = false;
    return NULL;
}

/* a.reshape(...): a view with the new shape (one -1 is inferred). */
static LLVMValueRef reshape(kj_lw *w, kj_node *n, const kj_np_args *a, LLVMValueRef self, const kj_type *st) {
    const kj_type *t = n->type;
    LLVMValueRef shape[KJ_NP_MAXDIM];
    int k = 0;
    for (int i = 0; i < a->npos; i++) {
        kj_np_shape_arg(w, a->pos[i], shape + k);
        k += a->pos[i]->type->kind == KJ_T_TUPLE ? a->pos[i]->type->n : 1;
    }
    LLVMValueRef size = kj_np_size(w, self, st->ndim), known = c64(w, 1), unknown = c64(w, -1);
    LLVMValueRef nneg = c64(w, 0);
    for (int i = 0; i < t->ndim; i++) {
        LLVMValueRef is_neg = LLVMBuildICmp(w->b, LLVMIntEQ, shape[i], c64(w, -1), "");
        nneg = LLVMBuildAdd(w->b, nneg, LLVMBuildZExt(w->b, is_neg, w->i64, ""), "");
        unknown = LLVMBuildSelect(w->b, is_neg, c64(w, i), unknown, "");
        known = LLVMBuildSelect(w->b, is_neg, known, LLVMBuildMul(w->b, known, shape[i], ""), "");
    }
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSGT, nneg, c64(w, 1), ""), PyExc_ValueError,
                "can only specify one unknown dimension");
    LLVMValueRef safe = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, known, c64(w, 0), ""), c64(w, 1), known, "");
    LLVMValueRef inferred = LLVMBuildSDiv(w->b, size, safe, "");
    LLVMValueRef total = c64(w, 1), asked[KJ_NP_MAXDIM];
    for (int i = 0; i < t->ndim; i++) {
        asked[i] = shape[i];
        shape[i] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, unknown, c64(w, i), ""), inferred, shape[i], "");
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, shape[i], c64(w, 0), ""), PyExc_ValueError,
                    "negative dimensions are not allowed");
        total = LLVMBuildMul(w->b, total, shape[i], "");
    }
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, total, size, ""));
    kj_call(w, "kj_np_raise_reshape", w->vd, 3, (LLVMTypeRef[]){w->i64, w->i64, w->ptr},
            (LLVMValueRef[]){size, LLVMConstInt(w->i64, (unsigned)t->ndim, 0), kj_np_i64_array(w, t->ndim, asked)});
    kj_raise_end(w, ok);
    return kj_np_make(w, t, kj_array_field(w, self, 0, 0), kj_array_field(w, self, 1, 0), shape, NULL);
}

/* a.item() of a one-element array, a.item(i): element i in C order (from
 * the end when negative), checked as NumPy checks it. */
static LLVMValueRef item(kj_lw *w, const kj_np_args *a, LLVMValueRef self, const kj_type *st) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef size = kj_np_size(w, self, st->ndim), zero = LLVMConstInt(w->i64, 0, 0), flat = zero;
    if (a->npos == 0) {
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntNE, size, LLVMConstInt(w->i64, 1, 0), ""), PyExc_ValueError,
                    "can only convert an array of size 1 to a Python scalar");
    } else {
        LLVMValueRef i = kj_np_value(w, a->pos[0], KJ_I64);
        flat = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, i, zero, ""), LLVMBuildAdd(b, i, size, ""), i, "");
        kj_np_raise_i64x2_if(w, LLVMBuildICmp(b, LLVMIntUGE, flat, size, ""), PyExc_IndexError,
                             st->ndim == 1 ? "index %lld is out of bounds for axis 0 with size %lld"
                                           : "index %lld is out of bounds for size %lld", i, size);
    }
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, self, st->ndim, shape);
    for (int k = st->ndim - 1; k >= 0; k--) {   /* no axis is empty here: size > flat */
        idx[k] = LLVMBuildURem(b, flat, shape[k], "");
        flat = LLVMBuildUDiv(b, flat, shape[k], "");
    }
    return kj_np_load(w, kj_np_ptr(w, self, st->ndim, idx), st->elem);
}

LLVMValueRef kj_np_diagonal(kj_lw *w, const kj_type *t, LLVMValueRef arr, LLVMValueRef k) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef zero = c64(w, 0), shape[2], strides[2];
    kj_np_shape(w, arr, 2, shape);
    kj_np_strides(w, arr, 2, strides);
    /* the first element: row -k below the main diagonal, column k right of it */
    LLVMValueRef row = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, k, zero, ""), LLVMBuildNeg(b, k, ""), zero, "");
    LLVMValueRef col = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, k, zero, ""), k, zero, "");
    LLVMValueRef rows = LLVMBuildSub(b, shape[0], row, ""), cols = LLVMBuildSub(b, shape[1], col, "");
    LLVMValueRef len = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, rows, cols, ""), rows, cols, "");
    LLVMValueRef empty = LLVMBuildICmp(b, LLVMIntSLE, len, zero, "");
    len = LLVMBuildSelect(b, empty, zero, len, "len");
    LLVMValueRef off = LLVMBuildAdd(b, LLVMBuildMul(b, row, strides[0], ""), LLVMBuildMul(b, col, strides[1], ""), "");
    off = LLVMBuildSelect(b, empty, zero, off, "");   /* an empty diagonal starts nowhere past the array */
    LLVMValueRef data = LLVMBuildGEP2(b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, "");
    LLVMValueRef stride = LLVMBuildAdd(b, strides[0], strides[1], "");
    return kj_np_make(w, t, kj_array_field(w, arr, 0, 0), data, &len, &stride);
}

LLVMValueRef kj_np_lower_method(kj_lw *w, kj_node *n) {
    const char *m = n->name;
    const kj_type *st = n->kids[0]->type, *t = n->type;
    kj_np_args a;
    kj_np_split(n, 1, &a);
    if (kj_np_is_reduction(m))   /* typing let no nan one through as a method */
        return kj_np_lower_reduce(w, n, m, n->kids[0], kj_np_arg(&a, 0, "axis"));
    if (!strcmp(m, "sort") || !strcmp(m, "argsort") || !strcmp(m, "dot") || !strcmp(m, "nonzero") || !strcmp(m, "repeat")) {
        kj_np_args b = a;   /* as np.<m>(self, ...) */
        for (int i = b.npos; i > 0; i--)
            b.pos[i] = b.pos[i - 1];
        b.pos[0] = n->kids[0];
        b.npos++;
        return kj_np_lower_other(w, n, !strcmp(m, "sort") ? "sort!" : m, &b);
    }
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);
    if (!strcmp(m, "copy") || !strcmp(m, "astype"))
        return kj_np_copy(w, self, st, t->elem);
    if (!strcmp(m, "ravel") || !strcmp(m, "flatten")) {
        /* C order: a 1-d view of the array (ravel of a C array) or of a copy */
        LLVMValueRef flat = m[0] == 'r' && st->layout == KJ_LAYOUT_C ? self : kj_np_copy(w, self, st, t->elem);
        LLVMValueRef size = kj_np_size(w, self, st->ndim);
        return kj_np_make(w, t, kj_array_field(w, flat, 0, 0), kj_array_field(w, flat, 1, 0), &size, NULL);
    }
    if (!strcmp(m, "reshape"))
        return reshape(w, n, &a, self, st);
    if (!strcmp(m, "diagonal")) {
        kj_node *k = kj_np_arg(&a, 0, "offset");
        return kj_np_diagonal(w, t, self, k ? kj_np_value(w, k, KJ_I64) : c64(w, 0));
    }
    if (!strcmp(m, "transpose") || !strcmp(m, "swapaxes") || !strcmp(m, "moveaxis!")) {
        LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM], rs[KJ_NP_MAXDIM], rst[KJ_NP_MAXDIM];
        int perm[KJ_NP_MAXDIM];
        char why[200];
        kj_np_axes_perm(m, &a, 0, st->ndim, perm, why, sizeof why);   /* inference checked it */
        kj_np_shape(w, self, st->ndim, shape);
        kj_np_strides(w, self, st->ndim, strides);
        for (int k = 0; k < st->ndim; k++) {
            rs[k] = shape[perm[k]];
            rst[k] = strides[perm[k]];
        }
        return kj_np_make(w, t, kj_array_field(w, self, 0, 0), kj_array_field(w, self, 1, 0), rs, rst);
    }
    if (!strcmp(m, "fill")) {
        kj_np_fill(w, self, st, kj_lower_expr(w, a.pos[0]), a.pos[0]->type);
        return LLVMConstInt(w->i8, 0, 0);
    }
    if (!strcmp(m, "item"))
        return item(w, &a, self, st);
    kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "internal: array method %s", m);
    return LLVMGetUndef(kj_lltype(w, t));
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
