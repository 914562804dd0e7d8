/* np_nan_to_num: np.nan_to_num(x, copy=True, nan=0.0, posinf=None,
 * neginf=None) in compiled code, its typing and its lowering: NaN becomes
 * nan, +inf posinf (by default the largest finite number of x's dtype),
 * -inf neginf (the most negative); complex numbers have both parts
 * mended, integers and bools are left as they are. With copy=False (a
 * constant) x itself is mended and returned, as NumPy does. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <float.h>

#define FAIL KJ_INFER_FAIL

static bool copies(const kj_np_args *a) {
    const kj_node *copy = kj_np_arg(a, 1, "copy");
    return !copy || copy->ival;
}

static const kj_type *nan_to_num_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"x", "copy", "nan", "posinf", "neginf", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "x"));
    if (!x)
        return NULL;
    const kj_type *e = x->kind == KJ_T_ARRAY ? x->elem : x;
    if (a->npos > 5 || !kj_np_only_keywords(a, known) || !(kj_is_number(e) || e->kind == KJ_T_BOOL))
        FAIL(c, n, NULL, "np.%s takes an array or a number, and numbers for nan, posinf and neginf, here", m);
    const kj_node *copy = kj_np_arg(a, 1, "copy");
    if (copy && !kj_np_const_bool(copy))
        FAIL(c, n, "Write copy=True or copy=False.", "np.nan_to_num takes a constant copy here");
    if (!copies(a) && (x->kind != KJ_T_ARRAY || x->readonly))
        FAIL(c, n, "Pass a writeable array, or leave copy=True.",
             "np.nan_to_num(copy=False) mends a writeable array in place, got %s", x->name);
    static const char *const values[] = {"nan", "posinf", "neginf"};
    for (int i = 0; i < 3; i++) {
        kj_node *v = kj_np_arg(a, 2 + i, values[i]);
        const kj_type *vt = v ? kj_np_arg_type(c, v) : KJ_F64;
        if (!vt)
            return NULL;
        if (!(kj_is_number(vt) || vt->kind == KJ_T_BOOL || vt->kind == KJ_T_NONE) || vt->kind == KJ_T_COMPLEX)
            FAIL(c, v, NULL, "np.nan_to_num's %s must be a real number, got %s", values[i], vt->name);
    }
    if (x->kind != KJ_T_ARRAY)
        return x;
    return copies(a) ? kj_array(x->elem, x->ndim, KJ_LAYOUT_C, false) : x;
}

/* The replacement for one of nan, posinf, neginf (k), in the float type
 * ft: the value given, else NumPy's default. */
static LLVMValueRef replacement(kj_lw *w, const kj_np_args *a, int k, const kj_type *ft) {
    static const char *const names[] = {"nan", "posinf", "neginf"};
    kj_node *v = kj_np_arg(a, 2 + k, names[k]);
    if (v && v->type->kind != KJ_T_NONE)
        return kj_cast(w, kj_lower_expr(w, v), v->type, ft);
    double largest = ft->bits == 32 ? FLT_MAX : DBL_MAX;
    return LLVMConstReal(kj_lltype(w, ft), k == 0 ? 0.0 : k == 1 ? largest : -largest);
}

/* x (a float of type ft) mended with the three replacements r. */
static LLVMValueRef mend(kj_lw *w, LLVMValueRef x, const LLVMValueRef *r) {
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef inf = LLVMConstReal(t, 1.0 / 0.0), minus_inf = LLVMConstReal(t, -1.0 / 0.0);
    LLVMValueRef up = LLVMBuildFCmp(w->b, LLVMRealOEQ, x, inf, ""), down = LLVMBuildFCmp(w->b, LLVMRealOEQ, x, minus_inf, "");
    LLVMValueRef y = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealUNO, x, x, ""), r[0], x, "");
    y = LLVMBuildSelect(w->b, up, r[1], y, "");   /* each test on x itself: a replacement may be inf */
    return LLVMBuildSelect(w->b, down, r[2], y, "");
}

/* An element (or number) of type et mended: both parts of a complex one. */
static LLVMValueRef mend_elem(kj_lw *w, LLVMValueRef v, const kj_type *et, const LLVMValueRef *r) {
    if (et->kind == KJ_T_FLOAT)
        return mend(w, v, r);
    if (et->kind != KJ_T_COMPLEX)
        return v;
    for (unsigned part = 0; part < 2; part++)
        v = LLVMBuildInsertValue(w->b, v, mend(w, LLVMBuildExtractValue(w->b, v, part, ""), r), part, "");
    return v;
}

static LLVMValueRef lower_nan_to_num(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "x");
    const kj_type *xt = xn->type, *et = xt->kind == KJ_T_ARRAY ? xt->elem : xt;
    const kj_type *ft = et->kind == KJ_T_COMPLEX ? kj_float(et->bits / 2) : et;
    LLVMValueRef x = kj_lower_expr(w, xn), r[3] = {NULL, NULL, NULL};
    if (ft->kind == KJ_T_FLOAT)
        for (int k = 0; k < 3; k++)
            r[k] = replacement(w, a, k, ft);
    if (xt->kind != KJ_T_ARRAY)
        return mend_elem(w, x, et, r);
    int nd = xt->ndim;
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, x, nd, shape);
    LLVMValueRef out = copies(a) ? kj_np_alloc(w, n->type, shape, false) : x;
    if (ft->kind != KJ_T_FLOAT && out == x)   /* integers in place: nothing to do */
        return out;
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef v = kj_np_load(w, kj_np_ptr(w, x, nd, idx), et);
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, idx), mend_elem(w, v, et, r), et, et);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(nan_to_num, .name = "np.nan_to_num", .targets = KJ_ON_ANY, .np_type = nan_to_num_type, .np_lower = lower_nan_to_num);
