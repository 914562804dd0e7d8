/* np_parts: the real and imaginary parts, np.real(x) and np.imag(x) as
 * a.real and a.imag: of a number, a number; of a complex array, a view of
 * its floats; of a real array, itself and read-only zeros. */
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* a.real, a.imag (np.real(a), np.imag(a)): the array itself for .real of
 * a real array, a view of a complex array's parts (floats one complex
 * apart), or NULL. */
const kj_type *kj_np_part_type(const kj_type *self, const char *m) {
    if (strcmp(m, "real") != 0 && strcmp(m, "imag") != 0)
        return NULL;
    if (self->elem->kind == KJ_T_COMPLEX)
        return kj_array(kj_float(self->elem->bits / 2), self->ndim, KJ_LAYOUT_A, self->readonly);
    /* of a real array: itself, and NumPy's read-only zeros for the imaginary part */
    return m[0] == 'r' ? self : kj_array(self->elem, self->ndim, KJ_LAYOUT_C, true);
}

static const kj_type *parts_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *val = kj_np_arg(a, 0, "val");
    if (a->npos + a->nkw != 1 || !val)
        FAIL(c, n, NULL, "np.%s takes one array or number", m);
    const kj_type *x = kj_np_arg_type(c, val);
    if (x && kj_is_number(x))   /* of a number: a number, the part of a complex one */
        return x->kind == KJ_T_COMPLEX ? kj_float(x->bits / 2) : x;
    const kj_type *t = x && x->kind == KJ_T_ARRAY ? kj_np_part_type(x, m) : NULL;
    if (!t && x)
        FAIL(c, n, NULL, "np.%s takes an array or a number, got %s", m, x->name);
    return t;
}

LLVMValueRef kj_np_part(kj_lw *w, LLVMValueRef arr, const kj_type *at, bool imag, const kj_type *t) {
    if (at->kind != KJ_T_ARRAY) {   /* a number */
        if (at->kind == KJ_T_COMPLEX)
            return LLVMBuildExtractValue(w->b, arr, imag, "");
        return imag ? LLVMConstNull(kj_lltype(w, at)) : arr;
    }
    if (at->elem->kind != KJ_T_COMPLEX && imag) {
        LLVMValueRef shape[KJ_NP_MAXDIM];
        kj_np_shape(w, arr, at->ndim, shape);
        return kj_np_alloc(w, t, shape, true);
    }
    if (at->elem->kind != KJ_T_COMPLEX)
        return arr;
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM], data = kj_array_field(w, arr, 1, 0);
    kj_np_shape(w, arr, at->ndim, shape);
    kj_np_strides(w, arr, at->ndim, strides);
    if (imag) {   /* one float further on */
        LLVMValueRef half = LLVMConstInt(w->i64, (unsigned long long)at->elem->bits / 16, 0);
        data = LLVMBuildGEP2(w->b, w->i8, data, &half, 1, "imag");
    }
    return kj_np_make(w, t, kj_array_field(w, arr, 0, 0), data, shape, strides);
}

static LLVMValueRef lower_parts(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *x = kj_np_arg(a, 0, "val");
    return kj_np_part(w, kj_lower_expr(w, x), x->type, m[0] == 'i', n->type);
}

KJ_CALLABLE(real, .name = "np.real", .targets = KJ_ON_ANY, .np_type = parts_type, .np_lower = lower_parts);
KJ_CALLABLE(imag, .name = "np.imag", .targets = KJ_ON_ANY, .np_type = parts_type, .np_lower = lower_parts);
