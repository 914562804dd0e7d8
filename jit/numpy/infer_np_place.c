/* infer_np_place: the types of NumPy functions that place elements by
 * position: np.take_along_axis(arr, indices, axis), np.fill_diagonal(a,
 * val, wrap) and np.broadcast_to(array, shape). Their axis and wrap are
 * constants, as users write them, so that the loops are known when the
 * function compiles. */
#include "jit/numpy/infer_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static bool const_int(const kj_node *k) { return k && k->kind == KJ_E_CONST && k->type && kj_is_intlike(k->type); }

static const kj_type *take_along_axis_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a) {
    static const char *const known[] = {"arr", "indices", "axis", NULL};
    kj_node *axis = kj_np_arg(a, 2, "axis");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "arr")), *ix = kj_np_arg_type(c, kj_np_arg(a, 1, "indices"));
    if (!x || !ix)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || !axis || x->kind != KJ_T_ARRAY || ix->kind != KJ_T_ARRAY)
        FAIL(c, n, "Pass the axis as a number: np.take_along_axis(a, np.argsort(a, axis=1), axis=1).",
             "np.take_along_axis takes an array, an array of indices and an axis here");
    if (ix->elem->kind != KJ_T_INT)
        FAIL(c, n, NULL, "np.take_along_axis: `indices` must be an integer array, got %s", ix->name);
    bool flat = axis->type && axis->type->kind == KJ_T_NONE;
    if (!flat && !const_int(axis))
        FAIL(c, n, "Write the axis as a number: axis=1, axis=-1.", "np.take_along_axis takes a constant axis here");
    if (flat ? ix->ndim != 1 : ix->ndim != x->ndim)
        FAIL(c, n, NULL, "np.take_along_axis: `indices` and `arr` must have the same number of dimensions "
                         "(one for axis=None), got %s and %s", ix->name, x->name);
    if (!flat && (axis->ival < -x->ndim || axis->ival >= x->ndim))
        FAIL(c, n, NULL, "np.take_along_axis: axis %lld is out of bounds for array of dimension %d",
             (long long)axis->ival, x->ndim);
    return kj_array(x->elem, ix->ndim, KJ_LAYOUT_C, false);
}

static const kj_type *fill_diagonal_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a) {
    static const char *const known[] = {"a", "val", "wrap", NULL};
    kj_node *wrap = kj_np_arg(a, 2, "wrap");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *v = kj_np_arg_type(c, kj_np_arg(a, 1, "val"));
    if (!x || !v)
        return NULL;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim < 2)
        FAIL(c, n, NULL, "np.fill_diagonal takes an array of two or more dimensions and a value here");
    if (x->readonly)
        FAIL(c, n, "Pass a writeable array.", "np.fill_diagonal cannot write to a read-only array (%s)", x->name);
    const kj_type *ve = v->kind == KJ_T_ARRAY ? v->elem : v;
    if (!(kj_is_number(ve) || ve->kind == KJ_T_BOOL) || (ve->kind == KJ_T_COMPLEX && x->elem->kind != KJ_T_COMPLEX))
        FAIL(c, n, NULL, "np.fill_diagonal cannot store %s into an array of %s", v->name, x->elem->name);
    if (wrap && !kj_np_const_bool(wrap))
        FAIL(c, n, "Write wrap=True or wrap=False.", "np.fill_diagonal takes a constant wrap here");
    return kj_none();
}

static const kj_type *broadcast_to_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a) {
    static const char *const known[] = {"array", "shape", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "array")), *s = kj_np_arg_type(c, kj_np_arg(a, 1, "shape"));
    if (!x || !s)
        return NULL;
    int nd = kj_np_shape_ndim(s);
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || nd < 0)
        FAIL(c, n, NULL, "np.broadcast_to takes an array and a shape (an int or a tuple of ints) here");
    if (x->kind != KJ_T_ARRAY)
        FAIL(c, n, "Make the array first: np.full(shape, x).", "np.broadcast_to takes an array here, got %s", x->name);
    if (x->ndim > nd)
        FAIL(c, n, NULL, "np.broadcast_to: input operand has more dimensions (%d) than allowed by the shape (%d)",
             x->ndim, nd);
    return kj_array(x->elem, nd, KJ_LAYOUT_A, true);   /* a view, read-only as NumPy's */
}

const kj_type *kj_np_place_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, bool *handled) {
    *handled = true;
    if (!strcmp(m, "take_along_axis"))
        return take_along_axis_type(c, n, a);
    if (!strcmp(m, "fill_diagonal"))
        return fill_diagonal_type(c, n, a);
    if (!strcmp(m, "broadcast_to"))
        return broadcast_to_type(c, n, a);
    *handled = false;
    return NULL;
}
