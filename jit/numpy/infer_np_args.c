/* infer_np_args: what the typings of NumPy calls share (infer_np.h):
 * the types of their arguments, dtypes, shapes and keywords. */
#include "jit/numpy/infer_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

const kj_type *kj_np_arg_type(kj_infer_ctx *c, kj_node *k) {
    if (!k)
        return NULL;
    return kj_infer_value(c, k);
}

const kj_type *kj_np_dtype_typed(kj_infer_ctx *c, kj_node *k) {
    if (kj_np_is_dtype_attr(k))
        kj_np_arg_type(c, k->kids[0]);
    return kj_np_dtype_node(k);
}

const kj_type *kj_np_dtype_arg(kj_infer_ctx *c, kj_node *k, bool *bad) {
    *bad = false;
    if (!k)
        return NULL;
    const kj_type *t = kj_np_dtype_typed(c, k);
    if (!t) {
        *bad = true;
        kj_infer_problem(c, k, "Write the type as np.float64, np.int32, float, int or bool, or as a.dtype of an array a.",
                         "this is not a dtype compiled code knows");
    }
    return t;
}

bool kj_np_const_bool(const kj_node *k) {
    return k->kind == KJ_E_CONST && k->type && k->type->kind == KJ_T_BOOL;
}

int kj_np_shape_ndim(const kj_type *t) {
    if (!t)
        return -1;
    if (kj_is_intlike(t))
        return 1;
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kj_is_intlike(t->elems[i]))
                return -1;
        return t->n;
    }
    return -1;
}

const kj_type *kj_np_product_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *x, const kj_type *y) {
    const kj_type *ops[2] = {x, y};
    char why[300];
    const kj_type *e = kj_np_result_dtype("multiply", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    return kj_array(e, x->ndim > y->ndim ? x->ndim : y->ndim, KJ_LAYOUT_C, false);
}

bool kj_np_only_keywords(const kj_np_args *a, const char *const *names) {
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (int j = 0; names && names[j]; j++)
            ok = ok || !strcmp(names[j], a->kw[i]->name);
        if (!ok)
            return false;
    }
    return true;
}
