/* np_unwrap: np.unwrap(p, discont=None, period=2*pi) of a 1-d array in
 * compiled code, typing and lowering, NumPy's arithmetic step by step:
 * each difference d of neighbours is taken to mod(d + period/2, period) -
 * period/2 (period/2 itself where that gives -period/2 for a positive d),
 * left alone where |d| < discont (period/2 when None), and the running
 * sum of the corrections is added to p[1:]. A float period; the result is
 * p's float dtype, or float64 for ints, as NumPy's. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *unwrap_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"p", "discont", "axis", "period", NULL};
    kj_node *dn = kj_np_arg(a, 1, "discont"), *axis = kj_np_arg(a, 2, "axis"), *per = kj_np_arg(a, -1, "period");
    const kj_type *p = kj_np_arg_type(c, kj_np_arg(a, 0, "p")), *d = dn ? kj_np_arg_type(c, dn) : kj_none();
    const kj_type *pt = per ? kj_np_arg_type(c, per) : KJ_F64;
    if (!p || !d || !pt)
        return NULL;
    int64_t ax = -1;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || p->kind != KJ_T_ARRAY || p->ndim != 1 ||
        !(kj_is_intlike(p->elem) || p->elem->kind == KJ_T_FLOAT) || p->elem->kind == KJ_T_BOOL ||
        !(d->kind == KJ_T_NONE || (kj_is_number(d) && d->kind != KJ_T_COMPLEX)) || pt->kind != KJ_T_FLOAT ||
        (axis && (!kj_const_int(axis, -1, &ax) || (ax != -1 && ax != 0))))
        FAIL(c, n, "Unwrap each row in a loop; write an int period as a float (period=360.0).",
             "np.unwrap takes a real 1-d array, discont and a float period here");
    const kj_type *ops[2] = {kj_array(p->elem, 1, KJ_LAYOUT_C, false), KJ_F64};   /* the differences and a Python float */
    char why[300];
    const kj_type *e = kj_np_result_dtype("add", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.unwrap: %s", why);
    return kj_array(e, 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_unwrap(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    LLVMBuilderRef b = w->b;
    kj_node *pn = kj_np_arg(a, 0, "p"), *dn = kj_np_arg(a, 1, "discont"), *per = kj_np_arg(a, -1, "period");
    const kj_type *pt = pn->type, *pe = pt->elem, *e = n->type->elem;
    LLVMTypeRef et = kj_lltype(w, e);
    LLVMValueRef p = kj_lower_expr(w, pn), len = kj_array_len(w, p);
    LLVMValueRef period = per ? kj_np_value(w, per, e) : kj_cast(w, LLVMConstReal(w->f64, 6.283185307179586), KJ_F64, e);
    LLVMValueRef high = LLVMBuildFDiv(b, period, LLVMConstReal(et, 2.0), ""), low = LLVMBuildFNeg(b, high, "");
    LLVMValueRef discont = dn && dn->type->kind != KJ_T_NONE ? kj_np_value(w, dn, e) : high;
    LLVMValueRef out = kj_np_alloc(w, n->type, &len, false), dst = kj_array_field(w, out, 1, 0);
    LLVMValueRef acc = kj_entry_alloca(w, et, "correction");
    LLVMBuildStore(b, LLVMConstReal(et, 0.0), acc);
    const kj_type *two[2] = {e, e};
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef here = kj_array_item(w, p, pt, i), v = kj_cast(w, here, pe, e);
    LLVMBasicBlockRef step = kj_new_bb(w, "unwrap.step"), store = kj_new_bb(w, "unwrap.store"), from = LLVMGetInsertBlock(b);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, i, LLVMConstInt(w->i64, 0, 0), ""), step, store);
    LLVMPositionBuilderAtEnd(b, step);
    LLVMValueRef before = kj_array_item(w, p, pt, LLVMBuildSub(b, i, LLVMConstInt(w->i64, 1, 0), ""));
    /* the difference in p's dtype (ints wrap, as np.diff's), then in e */
    LLVMValueRef d = kj_cast(w, kj_np_elem_op(w, n, "subtract", 2, (LLVMValueRef[]){here, before}, (const kj_type *[]){pe, pe}, pe), pe, e);
    LLVMValueRef wrapped = kj_np_elem_op(w, n, "mod", 2, (LLVMValueRef[]){LLVMBuildFSub(b, d, low, ""), period}, two, e);
    wrapped = LLVMBuildFAdd(b, wrapped, low, "");
    LLVMValueRef edge = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, wrapped, low, ""),
                                     LLVMBuildFCmp(b, LLVMRealOGT, d, LLVMConstReal(et, 0.0), ""), "");
    wrapped = LLVMBuildSelect(b, edge, high, wrapped, "");
    LLVMValueRef small = LLVMBuildFCmp(b, LLVMRealOLT, kj_np_elem_op(w, n, "absolute", 1, &d, two, e), discont, "");
    LLVMValueRef fix = LLVMBuildSelect(b, small, LLVMConstReal(et, 0.0), LLVMBuildFSub(b, wrapped, d, ""), "");
    LLVMValueRef sum = LLVMBuildFAdd(b, LLVMBuildLoad2(b, et, acc, ""), fix, "");
    LLVMBuildStore(b, sum, acc);
    LLVMValueRef moved = LLVMBuildFAdd(b, v, sum, "");
    LLVMBasicBlockRef stepped = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, store);
    LLVMPositionBuilderAtEnd(b, store);
    LLVMValueRef r = LLVMBuildPhi(b, et, "unwrapped");
    LLVMAddIncoming(r, (LLVMValueRef[]){v, moved}, (LLVMBasicBlockRef[]){from, stepped}, 2);
    kj_np_store_elem(w, LLVMBuildGEP2(b, kj_llmemtype(w, e), dst, &i, 1, ""), r, e, e);
    kj_np_loop_end(w, &l);
    return out;
}

KJ_CALLABLE(unwrap, .name = "np.unwrap", .targets = KJ_ON_ANY, .np_type = unwrap_type, .np_lower = lower_unwrap);
