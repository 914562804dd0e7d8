/* np_frexp: np.frexp(x) in compiled code, typing and lowering: the
 * mantissa and exponent of each element (x == m * 2**e, 0.5 <= |m| < 1),
 * from libm's frexp as NumPy takes them, as a tuple of a float array and
 * an int32 array (two numbers for a number). */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *frexp_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *x = a->npos == 1 && a->nkw == 0 ? kj_np_arg_type(c, a->pos[0]) : NULL;
    if (a->npos != 1 || a->nkw != 0)
        FAIL(c, n, NULL, "np.frexp takes one operand here (no out=)");
    if (!x)
        return NULL;
    const kj_type *e = x->kind == KJ_T_ARRAY ? x->elem : x;
    if (!(kj_is_number(e) || e->kind == KJ_T_BOOL) || e->kind == KJ_T_COMPLEX)
        FAIL(c, n, NULL, "np.frexp takes real numbers, got %s", x->name);
    char why[300];   /* the mantissa's dtype is np.sqrt's (int8 gives float16...): NumPy's probe of frexp gives a tuple */
    const kj_type *mant = kj_np_result_dtype("sqrt", 1, &x, why, sizeof why);
    if (!mant)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    const kj_type *parts[2] = {mant, kj_int(32, true)};
    if (x->kind == KJ_T_ARRAY)
        for (int i = 0; i < 2; i++)
            parts[i] = kj_array(parts[i], x->ndim, KJ_LAYOUT_C, false);
    return kj_tuple(2, parts);
}

/* libm's frexp of v (converted to the float type ft): the mantissa, and
 * the exponent through *exp. */
static LLVMValueRef frexp_of(kj_lw *w, kj_node *at, LLVMValueRef v, const kj_type *vt, const kj_type *ft,
                             LLVMValueRef exp_slot, LLVMValueRef *exp) {
    const kj_target *tg = w->u->target;
    const char *sym = tg->math_symbol ? tg->math_symbol(tg, "frexp", ft->bits) : NULL;
    LLVMTypeRef lt = kj_lltype(w, ft);
    if (!sym) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL, "frexp is not available on the %s target",
                tg->name);
        *exp = LLVMConstInt(w->i32, 0, 0);
        return LLVMGetUndef(lt);
    }
    LLVMValueRef args[2] = {kj_cast(w, v, vt, ft), exp_slot};
    LLVMValueRef m = kj_call(w, sym, lt, 2, (LLVMTypeRef[]){lt, w->ptr}, args);
    *exp = LLVMBuildLoad2(w->b, w->i32, exp_slot, "");
    return m;
}

static LLVMValueRef lower_frexp(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = a->pos[0];
    const kj_type *xt = xn->type, *t = n->type, *et = xt->kind == KJ_T_ARRAY ? xt->elem : xt;
    const kj_type *mt = t->elems[0]->kind == KJ_T_ARRAY ? t->elems[0]->elem : t->elems[0];
    LLVMValueRef x = kj_lower_expr(w, xn), exp_slot = kj_entry_alloca(w, w->i32, "exp"), e, parts[2];
    if (xt->kind != KJ_T_ARRAY) {
        parts[0] = frexp_of(w, n, x, xt, mt, exp_slot, &e);
        parts[1] = e;
        return kj_np_tuple(w, t, 2, parts);
    }
    int nd = xt->ndim;
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, x, nd, shape);
    for (int i = 0; i < 2; i++)
        parts[i] = kj_np_alloc(w, t->elems[i], shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef mant = frexp_of(w, n, kj_np_load(w, kj_np_ptr(w, x, nd, idx), et), et, mt, exp_slot, &e);
    kj_np_store_elem(w, kj_np_ptr(w, parts[0], nd, idx), mant, mt, mt);
    kj_np_store_elem(w, kj_np_ptr(w, parts[1], nd, idx), e, kj_int(32, true), kj_int(32, true));
    kj_np_nest_end(w, &nest);
    return kj_np_tuple(w, t, 2, parts);
}

KJ_CALLABLE(frexp, .name = "np.frexp", .targets = KJ_ON_ANY, .np_type = frexp_type, .np_lower = lower_frexp);
