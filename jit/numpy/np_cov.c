/* np_cov: typing and lowering of np.cov(m, y, rowvar, bias, ddof) and
 * np.corrcoef(x, y, rowvar). The variables (rows of m, or its columns with rowvar=False,
 * then those of y) are copied into one float64 matrix for rt_stats.c. As
 * Numba's, the result is 2-d, or 0-d for one 1-d m without y (NumPy
 * squeezes it; it squeezes a 2-d m of one row too, which would give a
 * type that depends on the row count, so that raises); corrcoef's of one
 * 1-d variable is a number, as NumPy's c / c of 0-d arrays. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* arr's variables as rows: a 1-d array is one, a 2-d one has them in rows,
 * or in columns when by_columns (a transposed view). */
static LLVMValueRef as_rows(kj_lw *w, LLVMValueRef arr, const kj_type *t, bool by_columns, const kj_type **rt) {
    LLVMValueRef shape[2], strides[2];
    kj_np_shape(w, arr, t->ndim, shape);
    kj_np_strides(w, arr, t->ndim, strides);
    *rt = kj_array(t->elem, 2, KJ_LAYOUT_A, t->readonly);
    if (t->ndim == 1)
        return kj_np_make(w, *rt, kj_array_field(w, arr, 0, 0), kj_array_field(w, arr, 1, 0), (LLVMValueRef[]){c64(w, 1), shape[0]},
                          (LLVMValueRef[]){c64(w, 0), strides[0]});
    int r = by_columns, c = !by_columns;
    return kj_np_make(w, *rt, kj_array_field(w, arr, 0, 0), kj_array_field(w, arr, 1, 0), (LLVMValueRef[]){shape[r], shape[c]},
                      (LLVMValueRef[]){strides[r], strides[c]});
}

static bool flag(kj_node *k, bool dflt) { return k ? k->ival != 0 : dflt; }

static const kj_type *cov_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    /* Numba's types: 0-d (a number) for one 1-d variable, else 2-d */
    bool cov = m[2] == 'v';
    static const char *const known_cov[] = {"m", "y", "rowvar", "bias", "ddof", NULL}, *const known_corr[] = {"x", "y", "rowvar", NULL};
    const char *const *known = cov ? known_cov : known_corr;
    const kj_type *t[5] = {NULL};
    for (int i = 0; i < (cov ? 5 : 3); i++) {
        kj_node *k = kj_np_arg(a, i, known[i]);
        if (k && !(t[i] = kj_np_arg_type(c, k)))
            return NULL;
        bool ok = !k || (i <= 1 ? (i == 1 && t[i]->kind == KJ_T_NONE) ||
                                      (t[i]->kind == KJ_T_ARRAY && t[i]->ndim >= 1 && t[i]->ndim <= 2 &&
                                       t[i]->elem->kind != KJ_T_COMPLEX)
                         : i == 4 ? t[i]->kind == KJ_T_NONE || kj_is_intlike(t[i])
                                  : k->kind == KJ_E_CONST && (t[i]->kind == KJ_T_BOOL || kj_is_intlike(t[i])));   /* rowvar=0 */
        if (!ok || !t[0] || a->npos > (cov ? 5 : 3) || !kj_np_only_keywords(a, known))
            FAIL(c, n, "Write rowvar and bias as constants: True, False, 1 or 0.",
                 "np.%s takes 1-d or 2-d real arrays%s here", m, cov ? ", rowvar, bias and an int ddof" : " and rowvar");
    }
    bool one = t[0]->ndim == 1 && (!t[1] || t[1]->kind == KJ_T_NONE);   /* corrcoef's c / c of 0-d arrays: a number */
    return one && !cov ? KJ_F64 : kj_array(KJ_F64, one ? 0 : 2, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_cov(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    bool corr = m[1] == 'o' && m[2] == 'r';
    kj_node *mn = kj_np_arg(a, 0, corr ? "x" : "m"), *yn = kj_np_arg(a, 1, "y");
    if (yn && yn->type->kind == KJ_T_NONE)
        yn = NULL;
    bool rowvar = flag(kj_np_arg(a, 2, "rowvar"), true), bias = !corr && flag(kj_np_arg(a, 3, "bias"), false);
    kj_node *dn = corr ? NULL : kj_np_arg(a, 4, "ddof");
    LLVMValueRef ddof = dn && dn->type->kind != KJ_T_NONE ? kj_np_value(w, dn, KJ_I64) : c64(w, bias ? 0 : 1);
    const kj_type *mt, *yt = NULL;
    /* NumPy transposes only a matrix of more than one row */
    LLVMValueRef m_rows = as_rows(w, kj_lower_expr(w, mn), mn->type, !rowvar && mn->type->ndim == 2, &mt);
    LLVMValueRef k = kj_array_field(w, m_rows, 2, 0), obs = kj_array_field(w, m_rows, 2, 1), y_rows = NULL;
    if (yn) {
        y_rows = as_rows(w, kj_lower_expr(w, yn), yn->type, !rowvar && yn->type->ndim == 2, &yt);
        LLVMValueRef y_obs = kj_array_field(w, y_rows, 2, 1);
        kj_np_raise_i64x2_if(w, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, y_obs, obs, ""),
                                              LLVMBuildICmp(w->b, LLVMIntNE, k, c64(w, 0), ""), ""), PyExc_ValueError,
                             "all the input array dimensions except for the concatenation axis must match exactly, but "
                             "along dimension 1, the array at index 0 has size %lld and the array at index 1 has size %lld",
                             obs, y_obs);
    }
    bool scalar = n->type->kind != KJ_T_ARRAY || n->type->ndim == 0;
    if (!scalar && mn->type->ndim == 2 && !yn)
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, k, c64(w, 1), ""), PyExc_RuntimeError,
                    "np.cov / np.corrcoef of a 2-d array of one variable: NumPy gives a 0-d result there, which would "
                    "make the type depend on the row count; pass the variable as a 1-d array (m[0])");
    /* with no variables in m, NumPy returns an empty matrix before looking at y */
    LLVMValueRef total = y_rows ? LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, k, c64(w, 0), ""), c64(w, 0),
                                                  LLVMBuildAdd(w->b, k, kj_array_field(w, y_rows, 2, 0), ""), "")
                                : k;
    const kj_type *xt = kj_array(KJ_F64, 2, KJ_LAYOUT_C, false);
    LLVMValueRef x = kj_np_alloc(w, xt, (LLVMValueRef[]){total, obs}, false);
    LLVMValueRef top = kj_np_make(w, xt, kj_array_field(w, x, 0, 0), kj_array_field(w, x, 1, 0), (LLVMValueRef[]){k, obs}, NULL);
    kj_np_copy_into(w, top, xt, m_rows, mt);
    if (y_rows) {   /* y's rows after m's */
        LLVMValueRef yk = LLVMBuildSub(w->b, total, k, ""), off = LLVMBuildMul(w->b, LLVMBuildMul(w->b, k, obs, ""), c64(w, 8), "");
        LLVMValueRef below = kj_np_make(w, xt, kj_array_field(w, x, 0, 0), LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, x, 1, 0), &off, 1, ""),
                                        (LLVMValueRef[]){yk, obs}, NULL);
        kj_np_copy_into(w, below, xt, y_rows, yt);
    }
    LLVMValueRef out = kj_np_alloc(w, xt, (LLVMValueRef[]){total, total}, false);
    LLVMValueRef st = kj_call(w, "kj_np_cov", w->i32, 7, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->i32, w->i32, w->ptr},
                              (LLVMValueRef[]){kj_array_field(w, x, 1, 0), total, obs, ddof, LLVMConstInt(w->i32, corr, 0),
                                               LLVMConstInt(w->i32, scalar, 0), kj_array_field(w, out, 1, 0)});
    kj_raise_end(w, kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, st, LLVMConstInt(w->i32, 0, 0), "")));
    if (!scalar)
        return out;
    if (n->type->kind != KJ_T_ARRAY)   /* corrcoef of one variable */
        return LLVMBuildLoad2(w->b, w->f64, kj_array_field(w, out, 1, 0), "");
    return kj_np_make(w, n->type, kj_array_field(w, out, 0, 0), kj_array_field(w, out, 1, 0), NULL, NULL);
}

KJ_CALLABLE(cov, .name = "np.cov", .targets = KJ_ON_ANY, .np_type = cov_type, .np_lower = lower_cov);
KJ_CALLABLE(corrcoef, .name = "np.corrcoef", .targets = KJ_ON_ANY, .np_type = cov_type, .np_lower = lower_cov);
