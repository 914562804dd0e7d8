/* np_geomspace: np.geomspace(start, stop, num=50, endpoint=True) of real
 * numbers in compiled code, typing and lowering, as NumPy computes it:
 * 10 ** np.linspace(log10(start), log10(stop)) with the ends exactly start
 * and stop; when both are negative, of their negations, negated back;
 * NumPy's ValueError for a zero end (and NaN inside for ends of opposite
 * signs, whose logarithms NumPy takes too). */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *geomspace_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"start", "stop", "num", "endpoint", NULL};
    kj_node *num = kj_np_arg(a, 2, "num"), *ep = kj_np_arg(a, 3, "endpoint");
    const kj_type *t[4] = {kj_np_arg_type(c, kj_np_arg(a, 0, "start")), kj_np_arg_type(c, kj_np_arg(a, 1, "stop")),
                           num ? kj_np_arg_type(c, num) : KJ_I64, ep ? kj_np_arg_type(c, ep) : kj_bool()};
    for (int i = 0; i < 4; i++)
        if (!t[i])
            return NULL;
    if (a->npos > 4 || !kj_np_only_keywords(a, known) || !kj_is_number(t[0]) || !kj_is_number(t[1]) ||
        t[0]->kind == KJ_T_COMPLEX || t[1]->kind == KJ_T_COMPLEX || !kj_is_intlike(t[2]) || !kj_is_number(t[3]))
        FAIL(c, n, "For arrays of ends, loop over them.",
             "np.geomspace(start, stop, num=50, endpoint=True) takes two real numbers, an int and a bool here");
    return kj_array(KJ_F64, 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_geomspace(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    LLVMBuilderRef b = w->b;
    kj_node *num = kj_np_arg(a, 2, "num"), *ep = kj_np_arg(a, 3, "endpoint");
    LLVMValueRef start = kj_np_value(w, kj_np_arg(a, 0, "start"), KJ_F64), stop = kj_np_value(w, kj_np_arg(a, 1, "stop"), KJ_F64);
    LLVMValueRef zero = LLVMConstReal(w->f64, 0.0);
    kj_raise_if(w, LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, start, zero, ""), LLVMBuildFCmp(b, LLVMRealOEQ, stop, zero, ""), ""),
                PyExc_ValueError, "Geometric sequence cannot include zero");
    LLVMValueRef flip = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, start, zero, ""), LLVMBuildFCmp(b, LLVMRealOLT, stop, zero, ""), "");
    LLVMValueRef sign = LLVMBuildSelect(b, flip, LLVMConstReal(w->f64, -1.0), LLVMConstReal(w->f64, 1.0), "");
    LLVMValueRef first = LLVMBuildSelect(b, flip, LLVMBuildFNeg(b, start, ""), start, "");
    LLVMValueRef last = LLVMBuildSelect(b, flip, LLVMBuildFNeg(b, stop, ""), stop, "");
    const kj_type *f64 = KJ_F64, *two[2] = {KJ_F64, KJ_F64};
    kj_np_linspace ls;
    LLVMValueRef count = num ? kj_np_value(w, num, KJ_I64) : LLVMConstInt(w->i64, 50, 0);   /* then endpoint, as Python */
    LLVMValueRef endpoint = ep ? kj_truth(w, kj_lower_expr(w, ep), ep->type) : LLVMConstInt(w->i1, 1, 0);
    kj_np_linspace_setup(w, &ls, kj_np_elem_op(w, n, "log10", 1, &first, &f64, f64), kj_np_elem_op(w, n, "log10", 1, &last, &f64, f64),
                         count, endpoint);
    LLVMValueRef out = kj_np_alloc(w, n->type, &ls.num, false);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ls.num);
    LLVMValueRef v = kj_np_elem_op(w, n, "power", 2, (LLVMValueRef[]){LLVMConstReal(w->f64, 10.0), kj_np_linspace_item(w, &ls, i)}, two, f64);
    LLVMValueRef at_last = LLVMBuildAnd(b, ls.ends_at_stop, LLVMBuildICmp(b, LLVMIntEQ, i, LLVMBuildSub(b, ls.num, LLVMConstInt(w->i64, 1, 0), ""), ""), "");
    v = LLVMBuildSelect(b, at_last, last, v, "");
    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, i, LLVMConstInt(w->i64, 0, 0), ""), first, v, "");
    kj_np_store_elem(w, kj_np_ptr(w, out, 1, &i), LLVMBuildFMul(b, sign, v, ""), f64, f64);
    kj_np_loop_end(w, &l);
    return out;
}

KJ_CALLABLE(geomspace, .name = "np.geomspace", .targets = KJ_ON_ANY, .np_type = geomspace_type, .np_lower = lower_geomspace);
