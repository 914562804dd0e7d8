/* np_trim_zeros: np.trim_zeros(filt, trim='fb') of a 1-d array in compiled
 * code, typing and lowering: the view of filt without its leading ('f')
 * and trailing ('b') zeros, empty when every element is zero, as NumPy's. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

/* Which ends trim (a constant string) cuts: bit 1 the front, bit 2 the back. */
static int ends(const kj_np_args *a) {
    const kj_node *trim = kj_np_arg(a, 1, "trim");
    if (!trim)
        return 3;
    int e = 0;
    for (const char *s = trim->str; *s; s++)
        e |= (*s == 'f' || *s == 'F') ? 1 : (*s == 'b' || *s == 'B') ? 2 : 0;
    return e;
}

static const kj_type *trim_zeros_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"filt", "trim", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "filt"));
    const kj_node *trim = kj_np_arg(a, 1, "trim");
    if (!x)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim != 1)
        FAIL(c, n, NULL, "np.%s takes a 1-d array and trim here", m);
    if (trim && !(trim->kind == KJ_E_CONST && trim->type && trim->type->kind == KJ_T_STR))
        FAIL(c, n, "Write trim as a string: 'f', 'b' or 'fb'.", "np.trim_zeros takes a constant trim here");
    return kj_array(x->elem, 1, x->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A, x->readonly);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The first position from `from` going by `step` whose element is not
 * zero, or `stop` when there is none. */
static LLVMValueRef first_nonzero(kj_lw *w, LLVMValueRef x, const kj_type *xt, LLVMValueRef from, LLVMValueRef stop,
                                  long long step) {
    LLVMValueRef at = kj_entry_alloca(w, w->i64, "at");
    LLVMBuildStore(w->b, from, at);
    LLVMBasicBlockRef test = kj_new_bb(w, "trim.test"), look = kj_new_bb(w, "trim.look"),
                      next = kj_new_bb(w, "trim.next"), done = kj_new_bb(w, "trim.done");
    LLVMBuildBr(w->b, test);
    LLVMPositionBuilderAtEnd(w->b, test);
    LLVMValueRef i = LLVMBuildLoad2(w->b, w->i64, at, "");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, i, stop, ""), done, look);
    LLVMPositionBuilderAtEnd(w->b, look);
    LLVMValueRef v = kj_array_item(w, x, xt, i);
    LLVMBuildCondBr(w->b, kj_truth(w, v, xt->elem), done, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, i, c64(w, step), ""), at);
    LLVMBuildBr(w->b, test);
    LLVMPositionBuilderAtEnd(w->b, done);
    return LLVMBuildLoad2(w->b, w->i64, at, "");
}

static LLVMValueRef lower_trim_zeros(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "filt");
    const kj_type *xt = xn->type;
    LLVMValueRef x = kj_lower_expr(w, xn), len = kj_array_len(w, x);
    int e = ends(a);
    LLVMValueRef lo = e & 1 ? first_nonzero(w, x, xt, c64(w, 0), len, 1) : c64(w, 0);
    LLVMValueRef hi = len;
    if (e & 2)   /* one past the last non-zero, from the end down to lo */
        hi = LLVMBuildAdd(w->b, first_nonzero(w, x, xt, LLVMBuildSub(w->b, len, c64(w, 1), ""),
                                              LLVMBuildSub(w->b, lo, c64(w, 1), ""), -1), c64(w, 1), "");
    LLVMValueRef count = LLVMBuildSub(w->b, hi, lo, "");
    count = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, count, c64(w, 0), ""), c64(w, 0), count, "");
    LLVMValueRef stride = kj_array_field(w, x, 3, 0), off = LLVMBuildMul(w->b, lo, stride, "");
    LLVMValueRef data = LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, x, 1, 0), &off, 1, "");
    return kj_np_make(w, n->type, kj_array_field(w, x, 0, 0), data, &count, &stride);
}

KJ_CALLABLE(trim_zeros, .name = "np.trim_zeros", .targets = KJ_ON_ANY, .np_type = trim_zeros_type, .np_lower = lower_trim_zeros);
