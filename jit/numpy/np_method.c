/* np_method: the methods of arrays in compiled code, each an entry
 * "ndarray.<name>" with its typing and lowering: copy, astype, reshape,
 * ravel, flatten, transpose, swapaxes, diagonal, fill and item here; sort,
 * argsort, dot, nonzero and repeat typed here and lowered as the NumPy
 * functions' entries, with the array first. The reductions (a.sum(axis)
 * and the rest) are np_reductions.c's. */
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

/* The array a method is called on, typed before the method. */
#define SELF(n) ((n)->kids[0]->type)

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static const kj_type *no_such_method(kj_infer_ctx *c, kj_node *n, const char *m) {
    FAIL(c, n, NULL, "arrays have no method '%s' in compiled code (or not with these arguments)", m);
}

/* The arguments of a.<m>(...) as np.<m>(a, ...)'s (typing kept them
 * fewer than KJ_NP_MAX_ARGS). */
static kj_np_args with_self(kj_node *n, const kj_np_args *a) {
    kj_np_args b = *a;
    for (int i = b.npos; i > 0; i--)
        b.pos[i] = b.pos[i - 1];
    b.pos[0] = n->kids[0];
    b.npos++;
    return b;
}

static LLVMValueRef lower_as_function(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_np_args b = with_self(n, a);
    return kj_np_callable(m)->np_lower(w, n, m, &b);
}

static LLVMValueRef lower_sort_in_place(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_np_args b = with_self(n, a);
    return kj_np_lower_sort(w, n, "sort!", &b);
}

/* ---- copies ---- */

static const kj_type *copy_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *self = SELF(n);
    if (a->npos || a->nkw)
        return no_such_method(c, n, m);
    return kj_array(self->elem, self->ndim, KJ_LAYOUT_C, false);
}

static const kj_type *astype_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    bool bad;
    const kj_type *dt = kj_np_dtype_arg(c, kj_np_arg(a, 0, "dtype"), &bad);
    if (bad)
        return NULL;
    if (!dt)
        FAIL(c, n, NULL, "astype needs a dtype");
    return kj_array(dt, SELF(n)->ndim, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_copy(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m, (void)a;
    return kj_np_copy(w, kj_lower_expr(w, n->kids[0]), SELF(n), n->type->elem);
}

/* ---- shapes ---- */

static const kj_type *reshape_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *self = SELF(n);
    int nd = 0;
    for (int i = 0; i < a->npos; i++) {
        const kj_type *t = kj_np_arg_type(c, a->pos[i]);
        int k = kj_np_shape_ndim(t);
        if (k < 0 || (a->npos > 1 && !kj_is_intlike(t)))
            FAIL(c, n, NULL, "reshape takes ints or one tuple of ints");
        nd += k;
    }
    if (nd == 0)
        FAIL(c, n, NULL, "reshape needs the new shape");
    if (self->layout != KJ_LAYOUT_C)
        FAIL(c, n, "Call .copy() first: it makes a C-contiguous array.",
             "reshape needs a C-contiguous array, and %s may not be", self->name);
    return kj_array(self->elem, nd, KJ_LAYOUT_C, self->readonly);
}

/* a.reshape(...): a view with the new shape (one -1 is inferred). */
static LLVMValueRef lower_reshape(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = n->type, *st = SELF(n);
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);
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

/* a.ravel() (a view of a C-contiguous array), a.flatten() (a copy). */
static const kj_type *flat_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *self = SELF(n);
    if (a->npos)
        return no_such_method(c, n, m);
    return kj_array(self->elem, 1, KJ_LAYOUT_C, m[0] == 'r' && self->layout == KJ_LAYOUT_C && self->readonly);
}

static LLVMValueRef ravel_of_any_layout(kj_lw *w, LLVMValueRef self, const kj_type *st, const kj_type *t,
                                        LLVMValueRef size) {
    LLVMValueRef own[2] = {kj_array_field(w, self, 0, 0), kj_array_field(w, self, 1, 0)};   /* owner, data */
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBasicBlockRef copy = kj_new_bb(w, "ravel.copy"), join = kj_new_bb(w, "ravel.join");
    LLVMBuildCondBr(w->b, kj_np_is_contiguous(w, self, st), join, copy);
    LLVMPositionBuilderAtEnd(w->b, copy);
    LLVMValueRef copied = kj_np_copy(w, self, st, t->elem);
    LLVMValueRef other[2] = {kj_array_field(w, copied, 0, 0), kj_array_field(w, copied, 1, 0)};
    LLVMBasicBlockRef copy_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef part[2];
    for (int f = 0; f < 2; f++) {
        part[f] = LLVMBuildPhi(w->b, w->ptr, "");
        LLVMAddIncoming(part[f], (LLVMValueRef[]){own[f], other[f]}, (LLVMBasicBlockRef[]){from, copy_end}, 2);
    }
    return kj_np_make(w, t, part[0], part[1], &size, NULL);
}

static LLVMValueRef lower_flat(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)a;
    const kj_type *st = SELF(n), *t = n->type;
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);
    LLVMValueRef size = kj_np_size(w, self, st->ndim);
    if (m[0] == 'f')   /* flatten: always a copy */
        self = kj_np_copy(w, self, st, t->elem);
    else if (st->layout != KJ_LAYOUT_C)
        /* ravel: a view of an array NumPy counts as C-contiguous at run time (axes of
         * length 1 keep any stride), else of a copy, so writes through it reach the
         * argument exactly when they do in NumPy */
        return ravel_of_any_layout(w, self, st, t, size);
    return kj_np_make(w, t, kj_array_field(w, self, 0, 0), kj_array_field(w, self, 1, 0), &size, NULL);
}

/* a.transpose(...), a.swapaxes(i, j), and np.moveaxis (the method
 * "moveaxis!" the front end makes of it): views with the axes permuted. */
static const kj_type *axes_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *self = SELF(n);
    int perm[self->ndim > 0 ? self->ndim : 1];
    char why[200];
    if (kj_np_axes_perm(m, a, 0, self->ndim, perm, why, sizeof why) < 0)
        FAIL(c, n, "Name the axes with constant ints.", "%s", why);
    bool same = true, reversed = true;
    for (int k = 0; k < self->ndim; k++) {
        same = same && perm[k] == k;
        reversed = reversed && perm[k] == self->ndim - 1 - k;
    }
    char layout = same ? self->layout
                  : reversed && self->layout == KJ_LAYOUT_C ? KJ_LAYOUT_F
                  : reversed && self->layout == KJ_LAYOUT_F ? KJ_LAYOUT_C : KJ_LAYOUT_A;
    return kj_array(self->elem, self->ndim, layout, self->readonly);
}

static LLVMValueRef lower_axes(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *st = SELF(n);
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM], rs[KJ_NP_MAXDIM], rst[KJ_NP_MAXDIM];
    int perm[KJ_NP_MAXDIM];
    char why[200];
    kj_np_axes_perm(m, a, 0, st->ndim, perm, why, sizeof why);   /* inference checked it */
    kj_np_shape(w, self, st->ndim, shape);
    kj_np_strides(w, self, st->ndim, strides);
    for (int k = 0; k < st->ndim; k++) {
        rs[k] = shape[perm[k]];
        rst[k] = strides[perm[k]];
    }
    return kj_np_make(w, n->type, kj_array_field(w, self, 0, 0), kj_array_field(w, self, 1, 0), rs, rst);
}

/* ---- elements ---- */

static const kj_type *diagonal_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"offset", NULL};
    kj_node *k = kj_np_arg(a, 0, "offset");
    if (SELF(n)->ndim != 2 || a->npos > 1 || !kj_np_only_keywords(a, known) || (k && !kj_is_intlike(kj_np_arg_type(c, k))))
        FAIL(c, n, "Take the diagonal of a 2-d array, with an int offset.", "diagonal takes a 2-d array and an int offset here");
    return kj_array(SELF(n)->elem, 1, KJ_LAYOUT_A, true);   /* NumPy's diagonal is a read-only view */
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

static LLVMValueRef lower_diagonal(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *k = kj_np_arg(a, 0, "offset");
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);   /* before the offset, as Python */
    return kj_np_diagonal(w, n->type, self, k ? kj_np_value(w, k, KJ_I64) : c64(w, 0));
}

static const kj_type *fill_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->npos != 1 || a->nkw)
        return no_such_method(c, n, m);
    const kj_type *t = kj_np_arg_type(c, a->pos[0]);
    if (!t)
        return NULL;
    if (!kj_is_number(t) || SELF(n)->readonly)
        FAIL(c, n, NULL, "fill takes a number, on a writeable array");
    return kj_none();
}

static LLVMValueRef lower_fill(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]), v = kj_lower_expr(w, a->pos[0]);   /* in Python's order */
    kj_np_fill(w, self, SELF(n), v, a->pos[0]->type);
    return LLVMConstInt(w->i8, 0, 0);
}

/* a.item(), a.item(flat_index). */
static const kj_type *item_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->nkw || a->npos > 1)
        return no_such_method(c, n, m);
    if (a->npos == 1 && !kj_is_intlike(kj_np_arg_type(c, a->pos[0])))
        FAIL(c, a->pos[0], NULL, "item takes a flat index (an int)");
    return SELF(n)->elem;
}

/* a.item() of a one-element array, a.item(i): element i in C order (from
 * the end when negative), checked as NumPy checks it. */
static LLVMValueRef lower_item(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *st = SELF(n);
    LLVMValueRef self = kj_lower_expr(w, n->kids[0]);
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

/* ---- as NumPy's functions ---- */

static const kj_type *nonzero_method_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->npos || a->nkw || SELF(n)->ndim == 0)
        return no_such_method(c, n, m);
    return kj_np_nonzero_type(m, SELF(n));
}

static const kj_type *repeat_method_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    return kj_np_repeat_type(c, n, a, 0, SELF(n));
}

static const kj_type *dot_method_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->npos != 1 || a->nkw)
        return no_such_method(c, n, m);
    return kj_np_dot_type(c, n, "dot", SELF(n), kj_np_arg_type(c, a->pos[0]));
}

/* a.sort() in place, a.argsort(), along the last axis. */
static const kj_type *sort_method_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *self = SELF(n);
    const char *refused = kj_np_sort_args_refused(a, 0, self->ndim);
    if (refused)
        FAIL(c, n, "Sort along the last axis (the default).", "%s() %s", m, refused);
    if (m[0] == 's' && self->readonly)
        FAIL(c, n, NULL, "cannot sort a read-only array in place");
    return m[0] == 's' ? kj_none() : kj_array(KJ_I64, self->ndim, KJ_LAYOUT_C, false);
}

#define METHOD(id, name_, ty, lo) \
    KJ_CALLABLE(id, .name = "ndarray." name_, .targets = KJ_ON_ANY, .np_type = ty, .np_lower = lo)
METHOD(copy, "copy", copy_type, lower_copy);
METHOD(astype, "astype", astype_type, lower_copy);
METHOD(reshape, "reshape", reshape_type, lower_reshape);
METHOD(ravel, "ravel", flat_type, lower_flat);
METHOD(flatten, "flatten", flat_type, lower_flat);
METHOD(transpose, "transpose", axes_type, lower_axes);
METHOD(swapaxes, "swapaxes", axes_type, lower_axes);
METHOD(moveaxis, "moveaxis!", axes_type, lower_axes);
METHOD(diagonal, "diagonal", diagonal_type, lower_diagonal);
METHOD(fill, "fill", fill_type, lower_fill);
METHOD(item, "item", item_type, lower_item);
METHOD(nonzero, "nonzero", nonzero_method_type, lower_as_function);
METHOD(repeat, "repeat", repeat_method_type, lower_as_function);
METHOD(dot, "dot", dot_method_type, lower_as_function);
METHOD(sort, "sort", sort_method_type, lower_sort_in_place);
METHOD(argsort, "argsort", sort_method_type, lower_as_function);

LLVMValueRef kj_np_lower_method(kj_lw *w, kj_node *n) {
    const char *m = n->name;
    kj_np_args a;
    kj_np_split(n, 1, &a);
    if (kj_np_is_reduction(m))   /* typing let no nan one through as a method */
        return kj_np_lower_reduce(w, n, m, n->kids[0], kj_np_arg(&a, 0, "axis"));
    return kj_np_method(m)->np_lower(w, n, m, &a);   /* typing found it */
}
