/* np_polyval: np.polyval(p, x) in compiled code, typing and lowering, as
 * NumPy computes it: y = 0, then y = y * x + c for each coefficient c of
 * p (a 1-d array, highest power first), elementwise over an array x. The
 * dtype is NumPy's for x (an array) plus a scalar of p's dtype, or the two
 * promoted when x is a number. One difference: for an empty p, NumPy gives
 * zeros in x's own dtype (its loop never ran), compiled code zeros in the
 * dtype above, which typing fixes before p's length is known. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *polyval_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"p", "x", NULL};
    const kj_type *p = kj_np_arg_type(c, kj_np_arg(a, 0, "p")), *x = kj_np_arg_type(c, kj_np_arg(a, 1, "x"));
    if (!p || !x)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || p->kind != KJ_T_ARRAY || p->ndim != 1 ||
        !(kj_is_number(x) || x->kind == KJ_T_ARRAY))
        FAIL(c, n, "Pass the coefficients as a 1-d array: np.polyval(np.array([2.0, 0.0, 1.0]), x).",
             "np.polyval takes a 1-d array of coefficients and a number or an array here");
    const kj_type *xe = x->kind == KJ_T_ARRAY ? x->elem : x;
    /* y + c: y an array of x's dtype, c a scalar of p's (value-based, as NumPy 1 casts) */
    const kj_type *ops[2] = {kj_array(xe, 1, KJ_LAYOUT_C, false),
                             x->kind == KJ_T_ARRAY ? p->elem : p};
    char why[300];
    const kj_type *e = kj_np_result_dtype("add", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.polyval: %s", why);
    return x->kind == KJ_T_ARRAY ? kj_array(e, x->ndim, KJ_LAYOUT_C, false) : e;
}

/* c[0] * x ** (k - 1) + ... + c[k - 1] of one x (type xe), in e. */
static LLVMValueRef horner(kj_lw *w, kj_node *n, LLVMValueRef p, const kj_type *pt, LLVMValueRef x, const kj_type *xe,
                           const kj_type *e) {
    LLVMValueRef y = kj_entry_alloca(w, kj_lltype(w, e), "y");
    LLVMBuildStore(w->b, LLVMConstNull(kj_lltype(w, e)), y);
    kj_np_loop l;
    LLVMValueRef j = kj_np_loop_begin(w, &l, kj_array_len(w, p));
    LLVMValueRef times = kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){LLVMBuildLoad2(w->b, kj_lltype(w, e), y, ""), x},
                                       (const kj_type *[]){e, xe}, e);
    LLVMValueRef plus = kj_np_elem_op(w, n, "add", 2, (LLVMValueRef[]){times, kj_array_item(w, p, pt, j)},
                                      (const kj_type *[]){e, pt->elem}, e);
    LLVMBuildStore(w->b, plus, y);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, kj_lltype(w, e), y, "");
}

static LLVMValueRef lower_polyval(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *pn = kj_np_arg(a, 0, "p"), *xn = kj_np_arg(a, 1, "x");
    const kj_type *pt = pn->type, *xt = xn->type, *t = n->type;
    LLVMValueRef p = kj_lower_expr(w, pn), x = kj_lower_expr(w, xn);
    if (xt->kind != KJ_T_ARRAY)
        return horner(w, n, p, pt, x, xt, t);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, x, xt->ndim, shape);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false), line = kj_np_whole_line(w, x, xt), size = kj_np_size(w, x, xt->ndim);
    LLVMTypeRef xm = kj_llmemtype(w, xt->elem);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, size);
    LLVMValueRef xi = kj_np_load(w, LLVMBuildGEP2(w->b, xm, line, &i, 1, ""), xt->elem);
    LLVMValueRef y = horner(w, n, p, pt, xi, xt->elem, t->elem);
    kj_np_store_elem(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, t->elem), kj_array_field(w, out, 1, 0), &i, 1, ""), y, t->elem, t->elem);
    kj_np_loop_end(w, &l);
    return out;
}

KJ_CALLABLE(polyval, .name = "np.polyval", .targets = KJ_ON_ANY, .np_type = polyval_type, .np_lower = lower_polyval);
