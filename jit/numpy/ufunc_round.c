/* ufunc_round: np.round(x, decimals) (ufuncs.h), NumPy's way: x * 10**d,
 * rint, / 10**d (for d < 0: x / 10**-d, rint, * 10**-d), in the float's
 * own precision; integers are themselves for d >= 0 and go through
 * float64 otherwise; a complex number rounds part by part. */
#include "jit/numpy/ufuncs.h"

#include <string.h>

#include "jit/frontend/np_rewrite.h"

/* 10**n for 0 <= n, from a constant table: exact through 1e22, each later
 * one ten times the one before, as NumPy's power_of_ten multiplies; inf
 * past 1e308. */
static LLVMValueRef power_of_ten(kj_lw *w, LLVMValueRef n) {
    enum { N = 310 };
    LLVMTypeRef at = LLVMArrayType2(w->f64, N);
    LLVMValueRef table = LLVMGetNamedGlobal(w->mod, "np.round.powers");
    if (!table) {
        LLVMValueRef v[N];
        double p = 1.0;
        for (int i = 0; i < N; i++, p *= 10.0)
            v[i] = LLVMConstReal(w->f64, p);
        table = LLVMAddGlobal(w->mod, at, "np.round.powers");
        LLVMSetInitializer(table, LLVMConstArray2(w->f64, v, N));
        LLVMSetGlobalConstant(table, 1);
        LLVMSetLinkage(table, LLVMPrivateLinkage);
    }
    LLVMValueRef last = LLVMConstInt(w->i64, N - 1, 0);
    LLVMValueRef i = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntUGT, n, last, ""), last, n, "");
    LLVMValueRef at_i = LLVMBuildGEP2(w->b, at, table, (LLVMValueRef[]){LLVMConstInt(w->i64, 0, 0), i}, 2, "");
    return LLVMBuildLoad2(w->b, w->f64, at_i, "");
}

/* One float (of type t) rounded to d decimals (an i64). */
static LLVMValueRef round_float(kj_lw *w, LLVMValueRef x, const kj_type *t, LLVMValueRef d) {
    LLVMBuilderRef b = w->b;
    LLVMTypeRef lt = kj_lltype(w, t);
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, d, LLVMConstInt(w->i64, 0, 0), "");
    LLVMValueRef f = power_of_ten(w, LLVMBuildSelect(b, neg, LLVMBuildNeg(b, d, ""), d, ""));
    f = kj_cast(w, f, KJ_F64, t);
    LLVMValueRef up = LLVMBuildFMul(b, x, f, ""), down = LLVMBuildFDiv(b, x, f, "");
    LLVMValueRef r = kj_call_intrinsic(w, "llvm.rint", lt, 1, (LLVMValueRef[]){LLVMBuildSelect(b, neg, down, up, "")});
    return LLVMBuildSelect(b, neg, LLVMBuildFMul(b, r, f, ""), LLVMBuildFDiv(b, r, f, ""), "");
}

static LLVMValueRef round_elem(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMValueRef x = e->x[0], d = kj_cast(w, e->x[1], e->xt[1], KJ_I64);
    const kj_type *xt = e->xt[0], *rt = e->rt;
    if (rt->kind == KJ_T_COMPLEX) {
        const kj_type *ft = kj_float(rt->bits / 2);
        LLVMValueRef z = kj_cast(w, x, xt, rt);
        return kj_elem_pair(w, rt, round_float(w, kj_elem_part(w, z, 0), ft, d), round_float(w, kj_elem_part(w, z, 1), ft, d));
    }
    if (rt->kind == KJ_T_FLOAT)
        return round_float(w, kj_cast(w, x, xt, rt), rt, d);
    LLVMValueRef v = kj_cast(w, x, xt, rt);
    LLVMValueRef r = LLVMBuildFPToSI(w->b, round_float(w, kj_cast(w, x, xt, KJ_F64), KJ_F64, d), w->i64, "");
    if (rt->bits < 64)   /* through int64, so that a multiple of ten past the dtype's range wraps as NumPy's cast does */
        r = LLVMBuildTrunc(w->b, r, kj_lltype(w, rt), "");
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, d, LLVMConstInt(w->i64, 0, 0), ""), r, v, "");
}

/* np.round(a, decimals, out), np.around, np.round_ and a.round(decimals,
 * out) as np.round(a, decimals) with out= a keyword, the ufuncs' way: every
 * call has both operands. */
static kj_node *both_operands(kj_rewrite *r, kj_node *n, const char *m) {
    (void)m;
    static const char *const params[] = {"a", "decimals", "out", NULL};
    kj_rw_args a;
    kj_rw_bind(n, r->method ? params + 1 : params, &a);
    if (r->method) {
        memmove(&a.arg[1], &a.arg[0], sizeof a.arg[0] * 2);
        a.arg[0] = n->kids[0];
    }
    if (!a.arg[0] || a.unknown || a.too_many)
        return kj_rw_refuse(r, NULL, "%s takes the array, decimals and out= only", "np.round");
    kj_node *c = kj_rw_call(r, "np.round", 2, a.arg[0], a.arg[1] ? a.arg[1] : kj_rw_int(r, 0), NULL);
    if (a.arg[2])
        kj_rw_keyword(r, c, "out", a.arg[2]);
    return c;
}

KJ_UFUNC(round, "round", 2, .elem = round_elem, .elem_complex = round_elem, .rewrite = both_operands);
KJ_REWRITE(around, "np.around", both_operands);
KJ_REWRITE(round_, "np.round_", both_operands);
KJ_REWRITE(ndarray_round, "ndarray.round", both_operands);
