/* lower_np_misc: np.dot (and a.dot, 1-d and 2-d), np.sort, argsort,
 * unique, searchsorted and histogram. Sorting and histograms call the
 * runtime (rt_np.c); dot is loops here, so LLVM sees through them. */
#include "jit/numpy/lower_np.h"
#include "jit/core/callables.h"

#include <string.h>


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

static LLVMValueRef dot(kj_lw *w, kj_node *n, kj_node *xn, kj_node *yn) {
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

/* np.sum, prod, min, max, mean, all or any of a tuple of numbers, element
 * after element (the order NumPy adds fewer than eight numbers in), in
 * the result's type. */
static LLVMValueRef tuple_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arr) {
    const kj_type *tt = arr->type, *rt = n->type;
    LLVMValueRef t = kj_lower_expr(w, arr), acc = NULL;
    bool truth = !strcmp(m, "all") || !strcmp(m, "any");
    const char *op = truth ? (m[1] == 'l' ? "logical_and" : "logical_or")
                     : !strcmp(m, "prod") ? "multiply"
                     : strstr(m, "min") ? "minimum"
                     : strstr(m, "max") ? "maximum" : "add";   /* sum, mean */
    const kj_type *at = !strcmp(m, "mean") && rt->kind != KJ_T_FLOAT ? KJ_F64 : rt;
    for (int i = 0; i < tt->n; i++) {
        LLVMValueRef x = LLVMBuildExtractValue(w->b, t, (unsigned)i, "");
        x = truth ? kj_truth(w, x, tt->elems[i]) : kj_cast(w, x, tt->elems[i], at);
        acc = !acc ? x : kj_np_elem_op(w, n, op, 2, (LLVMValueRef[]){acc, x}, (const kj_type *[]){at, at}, at);
    }
    if (!strcmp(m, "mean"))
        acc = kj_np_elem_op(w, n, "true_divide", 2, (LLVMValueRef[]){acc, LLVMConstReal(kj_lltype(w, at), tt->n)},
                            (const kj_type *[]){at, at}, at);
    return kj_cast(w, acc, at, rt);
}

LLVMValueRef kj_np_lower_other(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    if (!strcmp(m, "dot") || !strcmp(m, "matmul"))
        return dot(w, n, a->pos[0], a->pos[1]);
    if (kj_np_is_reduction(m)) {
        kj_node *arr = kj_np_arg(a, 0, "a");
        if (arr->type->kind == KJ_T_TUPLE)
            return tuple_reduce(w, n, m, arr);
        if (arr->type->kind != KJ_T_ARRAY)   /* all or any of a number */
            return kj_truth(w, kj_lower_expr(w, arr), arr->type);
        return kj_np_lower_reduce(w, n, m, arr, kj_np_arg(a, 1, "axis"));
    }
    if (!strcmp(m, "real") || !strcmp(m, "imag"))
        return kj_np_part(w, kj_lower_expr(w, a->pos[0]), a->pos[0]->type, m[0] == 'i', n->type);
    if (kj_np_join_rank(m, 1) > 0)
        return kj_np_lower_join(w, n, m, a);
    if (!strcmp(m, "nonzero") || !strcmp(m, "flatnonzero") || !strcmp(m, "argwhere"))
        return kj_np_lower_nonzero(w, n, m, a->pos[0]);
    if (!strcmp(m, "repeat"))
        return kj_np_lower_repeat(w, n, a);
    if (!strcmp(m, "tile"))
        return kj_np_lower_tile(w, n, a);
    if (kj_np_is_linalg(m))
        return kj_np_lower_linalg(w, n, m, a);
    const kj_callable *own = kj_np_callable(m);   /* a function in a file of its own */
    if (own)
        return own->np_lower(w, n, m, a);
    if (kj_np_is_place(m))
        return kj_np_lower_place(w, n, m, a);
    return kj_np_lower_sorting(w, n, m, a);
}
