/* np_vander: np.vander(x, N=None, increasing=False) of a 1-d array in
 * compiled code, typing and lowering: row i holds the powers of x[i] from
 * N - 1 down to 0 (up with increasing=True), each the one before times
 * x[i] as NumPy's multiply.accumulate computes them, in NumPy's dtype
 * (x's promoted with int64). */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *vander_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"x", "N", "increasing", NULL};
    kj_node *nn = kj_np_arg(a, 1, "N"), *inc = kj_np_arg(a, 2, "increasing");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "x")), *nt = nn ? kj_np_arg_type(c, nn) : kj_none();
    if (!x || !nt)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim != 1 ||
        !(kj_is_intlike(nt) || nt->kind == KJ_T_NONE))
        FAIL(c, n, NULL, "np.%s takes a 1-d array, an int N and increasing here", m);
    if (inc && !kj_np_const_bool(inc))
        FAIL(c, n, "Write increasing=True or increasing=False.", "np.vander takes a constant increasing here");
    const kj_type *ops[2] = {x, kj_array(KJ_I64, 1, KJ_LAYOUT_C, false)};
    char why[300];
    const kj_type *e = kj_np_result_dtype("add", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.vander: %s", why);
    return kj_array(e, 2, KJ_LAYOUT_C, false);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef lower_vander(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "x"), *nn = kj_np_arg(a, 1, "N"), *inc = kj_np_arg(a, 2, "increasing");
    const kj_type *xt = xn->type, *t = n->type, *e = t->elem;
    bool up = inc && inc->ival;
    LLVMValueRef x = kj_lower_expr(w, xn), rows = kj_array_len(w, x);
    LLVMValueRef cols = nn && nn->type->kind != KJ_T_NONE ? kj_np_value(w, nn, KJ_I64) : rows;
    LLVMValueRef shape[2] = {rows, cols};
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    const kj_type *ee[2] = {e, e};
    kj_np_loop row, column;
    LLVMValueRef i = kj_np_loop_begin(w, &row, rows);
    LLVMValueRef xi = kj_cast(w, kj_array_item(w, x, xt, i), xt->elem, e);
    LLVMValueRef power = kj_entry_alloca(w, kj_lltype(w, e), "power");
    LLVMBuildStore(w->b, kj_cast(w, c64(w, 1), KJ_I64, e), power);
    LLVMValueRef k = kj_np_loop_begin(w, &column, cols);
    LLVMValueRef col = up ? k : LLVMBuildSub(w->b, LLVMBuildSub(w->b, cols, c64(w, 1), ""), k, "");
    LLVMValueRef p = LLVMBuildLoad2(w->b, kj_lltype(w, e), power, "");
    kj_np_store_elem(w, kj_np_ptr(w, out, 2, (LLVMValueRef[]){i, col}), p, e, e);
    LLVMBuildStore(w->b, kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){p, xi}, ee, e), power);
    kj_np_loop_end(w, &column);
    kj_np_loop_end(w, &row);
    return out;
}

KJ_CALLABLE(vander, .name = "np.vander", .targets = KJ_ON_ANY, .np_type = vander_type, .np_lower = lower_vander);
