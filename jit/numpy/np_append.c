/* np_append: np.append(arr, values) without an axis in compiled code,
 * typing and lowering: both raveled and joined into a new 1-d array of
 * their common dtype (arrays or numbers). */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static const kj_type *append_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"arr", "values", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "arr")), *y = kj_np_arg_type(c, kj_np_arg(a, 1, "values"));
    if (!x || !y)
        return NULL;
    const kj_type *ex = x->kind == KJ_T_ARRAY ? x->elem : x, *ey = y->kind == KJ_T_ARRAY ? y->elem : y;
    const kj_type *e = kj_unify(ex, ey);
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || !e || !(kj_is_number(e) || e->kind == KJ_T_BOOL))
        FAIL(c, n, "Join along an axis with np.concatenate((a, b), axis).",
             "np.append takes two arrays or numbers, and no axis, here");
    return kj_array(e, 1, KJ_LAYOUT_C, false);
}

/* np.append(arr, values): each raveled (C order) into its part of a new
 * 1-d array, converted to the result's dtype. */
static LLVMValueRef lower_append(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = n->type;
    kj_node *parts[2] = {kj_np_arg(a, 0, "arr"), kj_np_arg(a, 1, "values")};
    LLVMValueRef v[2], size[2];
    for (int i = 0; i < 2; i++) {
        v[i] = kj_lower_expr(w, parts[i]);
        size[i] = parts[i]->type->kind == KJ_T_ARRAY ? kj_np_size(w, v[i], parts[i]->type->ndim) : c64(w, 1);
    }
    LLVMValueRef total = LLVMBuildAdd(w->b, size[0], size[1], "");
    LLVMValueRef out = kj_np_alloc(w, t, &total, false), data = kj_array_field(w, out, 1, 0);
    LLVMValueRef at = c64(w, 0);
    for (int i = 0; i < 2; i++) {
        const kj_type *pt = parts[i]->type;
        LLVMValueRef off = LLVMBuildMul(w->b, at, kj_np_itemsize(w, t->elem), "");
        LLVMValueRef dst = LLVMBuildGEP2(w->b, w->i8, data, &off, 1, "");
        if (pt->kind == KJ_T_ARRAY) {   /* the part of the result seen with this operand's shape */
            LLVMValueRef shape[KJ_NP_MAXDIM];
            kj_np_shape(w, v[i], pt->ndim, shape);
            const kj_type *vt = kj_array(t->elem, pt->ndim, KJ_LAYOUT_C, false);
            kj_np_copy_into(w, kj_np_make(w, vt, kj_array_field(w, out, 0, 0), dst, shape, NULL), vt, v[i], pt);
        } else {
            kj_np_store_elem(w, dst, v[i], pt, t->elem);
        }
        at = size[0];
    }
    return out;
}

KJ_CALLABLE(append, .name = "np.append", .targets = KJ_ON_ANY, .np_type = append_type, .np_lower = lower_append);
