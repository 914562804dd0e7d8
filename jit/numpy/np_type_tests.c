/* np_type_tests: np.iscomplexobj(x) and np.isrealobj(x), decided by x's type as NumPy decides
 * them by its dtype, and np.isscalar(x), by whether x is a number, bool or str (an array, 0-d
 * ones too, a tuple or a list is not): known when compiling; x is still evaluated, for what it
 * does. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <string.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *type_test_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"x", NULL};
    kj_node *x = kj_np_arg(a, 0, "x");
    const kj_type *t = x ? kj_np_arg_type(c, x) : NULL;
    if (x && !t)
        return NULL;
    bool any = !strcmp(m, "isscalar");   /* of whatever x holds */
    if (!t || a->npos > 1 || !kj_np_only_keywords(a, known) || (!any && !kj_is_number(t) && t->kind != KJ_T_ARRAY))
        FAIL(c, n, NULL, "np.%s takes one array or number here", m);
    return kj_bool();
}

static LLVMValueRef lower_type_test(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)n;
    kj_node *x = kj_np_arg(a, 0, "x");
    kj_lower_expr(w, x);
    if (!strcmp(m, "isscalar"))
        return LLVMConstInt(kj_lltype(w, kj_bool()),
                            kj_is_number(x->type) || x->type->kind == KJ_T_BOOL || x->type->kind == KJ_T_STR, 0);
    const kj_type *t = x->type->kind == KJ_T_ARRAY ? x->type->elem : x->type;
    bool complex = t->kind == KJ_T_COMPLEX;
    return LLVMConstInt(kj_lltype(w, kj_bool()), !strcmp(m, "iscomplexobj") ? complex : !complex, 0);
}

KJ_NP_FUNCTION(iscomplexobj, type_test_type, lower_type_test);
KJ_NP_FUNCTION(isrealobj, type_test_type, lower_type_test);
KJ_NP_FUNCTION(isscalar, type_test_type, lower_type_test);
