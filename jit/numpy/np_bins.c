/* np_bins: np.bincount (counting values into bins, in two passes: the
 * largest value sizes the result) and np.interp (each x between the sample
 * points, by the runtime's kj_np_interp on float64 copies), typing and
 * lowering. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static bool given(const kj_node *k) { return k && k->type->kind != KJ_T_NONE; }

static const kj_type *bincount_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"x", "weights", "minlength", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "x"));
    kj_node *wn = kj_np_arg(a, 1, "weights"), *ml = kj_np_arg(a, 2, "minlength");
    const kj_type *wt = wn ? kj_np_arg_type(c, wn) : kj_none(), *mt = ml ? kj_np_arg_type(c, ml) : KJ_I64;
    if (!x || !wt || !mt)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim != 1 ||
        !(x->elem->kind == KJ_T_BOOL || (x->elem->kind == KJ_T_INT && (x->elem->is_signed || x->elem->bits < 64))) ||
        (wt->kind != KJ_T_NONE && (wt->kind != KJ_T_ARRAY || wt->ndim != 1 || wt->elem->kind == KJ_T_COMPLEX)) ||
        !kj_is_intlike(mt))
        FAIL(c, n, "Convert the values with x.astype(np.int64) first.",
             "np.bincount takes a 1-d array of non-negative ints, weights= a 1-d real array and an int minlength=");
    return kj_array(wt->kind == KJ_T_NONE ? KJ_I64 : KJ_F64, 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef bincount(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "x"), *wn = kj_np_arg(a, 1, "weights"), *mn = kj_np_arg(a, 2, "minlength");
    const kj_type *xt = xn->type, *t = n->type;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = kj_lower_expr(w, xn), len = kj_array_len(w, x);
    LLVMValueRef weights = given(wn) ? kj_lower_expr(w, wn) : NULL;
    LLVMValueRef minlength = mn ? kj_np_value(w, mn, KJ_I64) : c64(w, 0);
    kj_raise_if(w, LLVMBuildICmp(b, LLVMIntSLT, minlength, c64(w, 0), ""), PyExc_ValueError, "'minlength' must not be negative");
    /* the largest value, and whether one is negative (NumPy's checks, in its order) */
    LLVMValueRef top = kj_entry_alloca(w, w->i64, "top"), neg = kj_entry_alloca(w, w->i1, "neg");
    LLVMBuildStore(b, c64(w, -1), top);
    LLVMBuildStore(b, LLVMConstInt(w->i1, 0, 0), neg);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef v = kj_cast(w, kj_array_item(w, x, xt, i), xt->elem, KJ_I64);
    LLVMValueRef cur = LLVMBuildLoad2(b, w->i64, top, "");
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, cur, ""), v, cur, ""), top);
    LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, w->i1, neg, ""), LLVMBuildICmp(b, LLVMIntSLT, v, c64(w, 0), ""), ""), neg);
    kj_np_loop_end(w, &l);
    kj_raise_if(w, LLVMBuildLoad2(b, w->i1, neg, ""), PyExc_ValueError, "'list' argument must have no negative elements");
    if (weights)
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntNE, kj_array_len(w, weights), len, ""), PyExc_ValueError,
                    "The weights and list don't have the same length.");
    LLVMValueRef size = LLVMBuildAdd(b, LLVMBuildLoad2(b, w->i64, top, ""), c64(w, 1), "");
    size = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, size, minlength, ""), size, minlength, "bins");
    LLVMValueRef out = kj_np_alloc(w, t, &size, true);
    LLVMTypeRef et = kj_lltype(w, t->elem);
    i = kj_np_loop_begin(w, &l, len);
    v = kj_cast(w, kj_array_item(w, x, xt, i), xt->elem, KJ_I64);
    LLVMValueRef p = LLVMBuildGEP2(b, et, kj_array_field(w, out, 1, 0), &v, 1, "");
    LLVMValueRef old = LLVMBuildLoad2(b, et, p, "");
    LLVMBuildStore(b, weights ? LLVMBuildFAdd(b, old, kj_cast(w, kj_array_item(w, weights, wn->type, i), wn->type->elem, KJ_F64), "")
                              : LLVMBuildAdd(b, old, c64(w, 1), ""),
                   p);
    kj_np_loop_end(w, &l);
    return out;
}

/* A 1-d array's items as contiguous doubles: the array itself when it is
 * one already. */
static LLVMValueRef as_doubles(kj_lw *w, kj_node *k) {
    LLVMValueRef arr = kj_lower_expr(w, k);
    if (k->type->elem != KJ_F64 || k->type->layout != KJ_LAYOUT_C)
        arr = kj_np_copy(w, arr, k->type, KJ_F64);
    return arr;
}

static const kj_type *interp_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"x", "xp", "fp", "left", "right", NULL};
    const kj_type *t[5];
    for (int i = 0; i < 5; i++) {
        kj_node *k = kj_np_arg(a, i, known[i]);
        if (!(t[i] = k ? kj_np_arg_type(c, k) : kj_none()))
            return NULL;
        bool real = kj_is_number(t[i]) && t[i]->kind != KJ_T_COMPLEX;
        bool ok = i == 0 ? real || (t[i]->kind == KJ_T_ARRAY && t[i]->elem->kind != KJ_T_COMPLEX)
                  : i < 3 ? t[i]->kind == KJ_T_ARRAY && t[i]->ndim == 1 && t[i]->elem->kind != KJ_T_COMPLEX
                          : real || t[i]->kind == KJ_T_NONE;
        if (!ok || a->npos > 5 || !kj_np_only_keywords(a, known))
            FAIL(c, n, "Interpolate the real and imaginary parts one at a time.",
                 "np.interp takes x (a number or a real array), 1-d real xp and fp, and numbers for left and right");
    }
    return t[0]->kind == KJ_T_ARRAY ? kj_array(KJ_F64, t[0]->ndim, KJ_LAYOUT_C, false) : KJ_F64;
}

static LLVMValueRef interp(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const names[] = {"x", "xp", "fp", "left", "right"};
    kj_node *k[5];
    for (int i = 0; i < 5; i++)
        k[i] = kj_np_arg(a, i, names[i]);
    LLVMBuilderRef b = w->b;
    LLVMValueRef xv = kj_lower_expr(w, k[0]), xp = as_doubles(w, k[1]), fp = as_doubles(w, k[2]);
    LLVMValueRef len = kj_array_len(w, xp);
    kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, len, c64(w, 0), ""), PyExc_ValueError, "array of sample points is empty");
    kj_raise_if(w, LLVMBuildICmp(b, LLVMIntNE, kj_array_len(w, fp), len, ""), PyExc_ValueError,
                "fp and xp are not of the same length.");
    LLVMValueRef xd = kj_array_field(w, xp, 1, 0), fd = kj_array_field(w, fp, 1, 0);
    LLVMValueRef last = LLVMBuildSub(b, len, c64(w, 1), "");
    LLVMValueRef ends[2];
    for (int e = 0; e < 2; e++)   /* left and right: fp's first and last by default */
        ends[e] = given(k[3 + e]) ? kj_np_value(w, k[3 + e], KJ_F64)
                                  : LLVMBuildLoad2(b, w->f64, LLVMBuildGEP2(b, w->f64, fd, e ? &last : (LLVMValueRef[]){c64(w, 0)}, 1, ""), "");
    LLVMTypeRef types[] = {w->f64, w->ptr, w->ptr, w->i64, w->f64, w->f64};
    const kj_type *xt = k[0]->type;
    if (xt->kind != KJ_T_ARRAY)
        return kj_call(w, "kj_np_interp", w->f64, 6, types, (LLVMValueRef[]){kj_cast(w, xv, xt, KJ_F64), xd, fd, len, ends[0], ends[1]});
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, xv, xt->ndim, shape);
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, xt->ndim, shape, idx);
    LLVMValueRef x = kj_cast(w, kj_np_load(w, kj_np_ptr(w, xv, xt->ndim, idx), xt->elem), xt->elem, KJ_F64);
    LLVMValueRef r = kj_call(w, "kj_np_interp", w->f64, 6, types, (LLVMValueRef[]){x, xd, fd, len, ends[0], ends[1]});
    kj_np_store_elem(w, kj_np_ptr(w, out, xt->ndim, idx), r, KJ_F64, KJ_F64);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(bincount, .name = "np.bincount", .targets = KJ_ON_ANY, .np_type = bincount_type, .np_lower = bincount);
KJ_CALLABLE(interp, .name = "np.interp", .targets = KJ_ON_ANY, .np_type = interp_type, .np_lower = interp);
