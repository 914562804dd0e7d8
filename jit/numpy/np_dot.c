/* np_dot: np.dot and np.matmul (and a.dot) of 1-d and 2-d arrays, as
 * loops here, so that LLVM sees through them. */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

const kj_type *kj_np_dot_type(kj_infer_ctx *c, kj_node *n, const char *name, const kj_type *x, const kj_type *y) {
    if (!x || !y)
        return NULL;
    if (x->kind != KJ_T_ARRAY || y->kind != KJ_T_ARRAY || x->ndim > 2 || y->ndim > 2)
        FAIL(c, n, NULL, "%s takes 1-d or 2-d arrays, got %s and %s", name, x->name, y->name);
    const kj_type *ops[2] = {x, y};
    char why[300];
    const kj_type *e = kj_np_result_dtype("dot", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "%s: %s", name, why);
    int nd = x->ndim + y->ndim - 2;
    return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
}

static const kj_type *dot_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"a", "b", NULL};   /* np.matmul, a ufunc, takes them by position only */
    if (a->npos + a->nkw != 2 || !kj_np_only_keywords(a, m[0] == 'd' ? known : NULL))
        FAIL(c, n, "Write the product into a new array: c = np.%s(a, b).", "np.%s takes two arrays here (out= is not supported)", m);
    return kj_np_dot_type(c, n, m[0] == 'd' ? "np.dot" : "np.matmul", kj_np_arg_type(c, kj_np_arg(a, 0, "a")),
                          kj_np_arg_type(c, kj_np_arg(a, 1, "b")));
}


/* sum over k of x[k] * y[k] for two lines. */
static LLVMValueRef dot_line(kj_lw *w, LLVMValueRef xd, LLVMValueRef xs, const kj_type *xt,
                             LLVMValueRef yd, LLVMValueRef ys, const kj_type *yt, LLVMValueRef n,
                             const kj_type *rt) {
    LLVMValueRef acc = kj_entry_alloca(w, kj_lltype(w, rt), "dot");
    LLVMBuildStore(w->b, LLVMConstNull(kj_lltype(w, rt)), acc);
    kj_np_loop l;
    LLVMValueRef k = kj_np_loop_begin(w, &l, n);
    LLVMValueRef xo = LLVMBuildMul(w->b, k, xs, ""), yo = LLVMBuildMul(w->b, k, ys, "");
    LLVMValueRef x = kj_cast(w, kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, xd, &xo, 1, ""), xt), xt, rt);
    LLVMValueRef y = kj_cast(w, kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, yd, &yo, 1, ""), yt), yt, rt);
    LLVMValueRef cur = LLVMBuildLoad2(w->b, kj_lltype(w, rt), acc, "");
    LLVMValueRef r = rt->kind == KJ_T_FLOAT ? kj_fm(w, LLVMBuildFAdd(w->b, cur, kj_fm(w, LLVMBuildFMul(w->b, x, y, "")), ""))
                                            : LLVMBuildAdd(w->b, cur, LLVMBuildMul(w->b, x, y, ""), "");
    LLVMBuildStore(w->b, r, acc);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, kj_lltype(w, rt), acc, "");
}

static LLVMValueRef at_row(kj_lw *w, LLVMValueRef arr, int dim, LLVMValueRef i) {
    LLVMValueRef off = LLVMBuildMul(w->b, i, kj_array_field(w, arr, 3, dim), "");
    return LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, "");
}

static LLVMValueRef lower_dot(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "a"), *yn = kj_np_arg(a, 1, "b");
    const kj_type *xt = xn->type, *yt = yn->type, *t = n->type;
    const kj_type *rt = t->kind == KJ_T_ARRAY ? t->elem : t;
    if (rt->kind == KJ_T_COMPLEX || rt->kind == KJ_T_BOOL) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, NULL, "np.dot of %s arrays is not supported yet", rt->name);
        return LLVMGetUndef(kj_lltype(w, t));
    }
    LLVMValueRef x = kj_lower_expr(w, xn), y = kj_lower_expr(w, yn);
    /* the contracted axis: x's last, y's first (1-d) or second to last */
    LLVMValueRef kx = kj_array_field(w, x, 2, xt->ndim - 1), ky = kj_array_field(w, y, 2, 0);
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, kx, ky, ""));
    LLVMValueRef xs_[2], ys_[2];
    kj_np_shape(w, x, xt->ndim, xs_);
    kj_np_shape(w, y, yt->ndim, ys_);
    kj_call(w, "kj_np_raise_dot", w->vd, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->i64, w->ptr},
            (LLVMValueRef[]){LLVMConstInt(w->i64, (unsigned)xt->ndim, 0), kj_np_i64_array(w, xt->ndim, xs_),
                             LLVMConstInt(w->i64, (unsigned)yt->ndim, 0), kj_np_i64_array(w, yt->ndim, ys_)});
    kj_raise_end(w, ok);
    LLVMValueRef xs = kj_array_field(w, x, 3, xt->ndim - 1), ys = kj_array_field(w, y, 3, 0);
    if (xt->ndim == 1 && yt->ndim == 1)
        return dot_line(w, kj_array_field(w, x, 1, 0), xs, xt->elem, kj_array_field(w, y, 1, 0), ys, yt->elem, kx, rt);
    LLVMValueRef shape[2];
    int nd = 0;
    if (xt->ndim == 2)
        shape[nd++] = kj_array_field(w, x, 2, 0);
    if (yt->ndim == 2)
        shape[nd++] = kj_array_field(w, y, 2, 1);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    LLVMValueRef idx[2];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef xd = xt->ndim == 2 ? at_row(w, x, 0, idx[0]) : kj_array_field(w, x, 1, 0);
    LLVMValueRef yd = yt->ndim == 2 ? at_row(w, y, 1, idx[nd - 1]) : kj_array_field(w, y, 1, 0);
    LLVMValueRef r = dot_line(w, xd, xs, xt->elem, yd, ys, yt->elem, kx, rt);
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, idx), r, rt, rt);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(dot, .name = "np.dot", .targets = KJ_ON_ANY, .np_type = dot_type, .np_lower = lower_dot);
KJ_CALLABLE(matmul, .name = "np.matmul", .targets = KJ_ON_ANY, .np_type = dot_type, .np_lower = lower_dot);
