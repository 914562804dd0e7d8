/* rewrite_axes: NumPy functions that are views or indexing along axes,
 * written as the indexing or the method (np_rewrite.h):
 *   np.reshape(a, shape)   a.reshape(shape);     np.shape(a)  a.shape
 *   np.transpose(a, axes)  a.transpose(axes)     (np.swapaxes(a, i, j): a.swapaxes(i, j); np.moveaxis(a, s, d)
 *                          the same kind of view, its axes in the order moving s to d gives)
 *   np.flip(a, axis)       a[::-1, ::-1, ...] (every axis), a[:, ::-1] (axis=1), a[..., ::-1] (axis=-1)
 *                          (np.flipud: axis 0, np.fliplr: axis 1)
 *   np.rot90(m, k)         m[:, ::-1].swapaxes(0, 1) (k = 1), m[::-1, ::-1] (2),
 *                          m.swapaxes(0, 1)[:, ::-1] (3), m[:] (0); k a constant
 *   np.expand_dims(a, k)   a[:, ..., None] with None at axis k (a constant)
 *   np.asfortranarray(a)   np.ascontiguousarray(a.T).T   (dtype= kept: a's transpose made C-contiguous, turned back)
 *   np.take(a, i, axis)    a.ravel()[i], a[i] with axis=0   (a.take(i, axis) the same)
 *   a.tolist()             list(a)                       (1-d: lists hold numbers) */
#include "jit/frontend/np_rewrite.h"

#include <string.h>

/* np.transpose(a, axes), np.swapaxes(a, i, j): the methods of a;
 * np.moveaxis a method of the same kind that arrays have not, named so
 * that `a.moveaxis(...)`, which NumPy refuses, stays refused. */
static kj_node *as_method(kj_rewrite *r, kj_node *n, const char *m) {
    if (n->nkids < 2 || n->kids[1]->kind == KJ_E_KEYWORD)
        return kj_rw_refuse(r, NULL, "np.%s takes the array first", m);
    kj_node *out = kj_rw_node(r, KJ_E_METHOD, n->nkids - 1);
    if (out && !(out->name = kj_strdup(r->f, strcmp(m, "moveaxis") ? m : "moveaxis!")))
        r->failed = true;
    for (int i = 1; out && i < n->nkids; i++)
        out->kids[i - 1] = n->kids[i];
    return out;
}

/* np.flip, np.flipud and np.fliplr. */
static kj_node *flip(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"m", "axis", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t axis = m[4] == 'u' ? 0 : 1;
    bool every = m[4] == 0 && (!a.arg[1] || (a.arg[1]->kind == KJ_E_CONST && a.arg[1]->type->kind == KJ_T_NONE));
    if (!a.arg[0] || a.unknown || a.too_many || (m[4] && a.arg[1]) || (!every && m[4] == 0 && !kj_const_int(a.arg[1], 0, &axis)))
        return kj_rw_refuse(r, "Write the axis as a number, or index with ::-1 yourself.",
                            "np.%s takes an array and a constant axis here", m);
    if (!every)
        return kj_rw_slice_axis(r, a.arg[0], axis, kj_rw_slice(r, 0, 0, -1));
    kj_node *dots = kj_rw_node(r, KJ_E_ELLIPSIS, 0);   /* a[<...>] whose ellipsis stands for reversed slices */
    if (dots)
        dots->ival = -1;
    return kj_rw_index(r, a.arg[0], dots);
}

static kj_node *rot90(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"m", "k", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t k;
    if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 1, &k))
        return kj_rw_refuse(r, "Write k as a number; rotate in other axes with swapaxes and ::-1.",
                            "np.%s takes an array and a constant k here", m);
    kj_node *x = a.arg[0];
    switch (((k % 4) + 4) % 4) {   /* NumPy's: a flip and a swap of the first two axes */
    case 0: return kj_rw_slice_axis(r, x, 0, kj_rw_slice(r, 0, 0, 0));
    case 1: return kj_rw_swap01(r, kj_rw_slice_axis(r, x, 1, kj_rw_slice(r, 0, 0, -1)));
    case 2: return kj_rw_slice_axis(r, kj_rw_slice_axis(r, x, 0, kj_rw_slice(r, 0, 0, -1)), 1, kj_rw_slice(r, 0, 0, -1));
    default: return kj_rw_slice_axis(r, kj_rw_swap01(r, x), 1, kj_rw_slice(r, 0, 0, -1));
    }
}

static kj_node *expand_dims(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "axis", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t axis;
    if (!a.arg[0] || !a.arg[1] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 0, &axis))
        return kj_rw_refuse(r, "Write the axis as a number, or index with None yourself: a[:, None].",
                            "np.%s takes an array and a constant axis here", m);
    return kj_rw_slice_axis(r, a.arg[0], axis, kj_rw_none(r));
}

static kj_node *asfortranarray(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "dtype", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes an array and dtype= here", m))
        return NULL;
    kj_node *c = kj_rw_call(r, "np.ascontiguousarray", 1, kj_rw_named(r, KJ_E_ATTR, "T", a.arg[0]), NULL, NULL);
    if (c && a.arg[1])
        kj_rw_keyword(r, c, "dtype", a.arg[1]);
    return kj_rw_named(r, KJ_E_ATTR, "T", c);
}

/* np.take(a, indices, axis) or a.take(indices, axis). */
static kj_node *take(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "indices", "axis", NULL};
    kj_rw_args a;
    kj_rw_bind(n, r->method ? params + 1 : params, &a);
    kj_node *arr = r->method ? n->kids[0] : a.arg[0], *indices = a.arg[r->method ? 0 : 1],
            *axis_arg = a.arg[r->method ? 1 : 2];
    bool flat = !axis_arg || (axis_arg->kind == KJ_E_CONST && axis_arg->type && axis_arg->type->kind == KJ_T_NONE);
    int64_t axis = 0;
    if (!arr || !indices || a.unknown || a.too_many || (!flat && (!kj_const_int(axis_arg, 0, &axis) || axis != 0)))
        return kj_rw_refuse(r, "Along another axis, index it yourself: a[:, idx] (a copy), a[:, i] for one index i.",
                            "np.%s takes an array, indices and axis=None or 0 here", m);
    return kj_rw_index(r, flat ? kj_rw_ravel(r, arr) : arr, indices);
}

/* np.ravel(a): a.ravel(), in C order, as Numba takes it (no order=). */
static kj_node *ravel(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, "For Fortran order, ravel the transpose: a.T.ravel().",
                       "np.%s takes only the array here", m))
        return NULL;
    return kj_rw_ravel(r, a.arg[0]);
}

static kj_node *shape_of(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes one array here", m))
        return NULL;
    return kj_rw_named(r, KJ_E_ATTR, "shape", a.arg[0]);
}

static kj_node *tolist(kj_rewrite *r, kj_node *n, const char *m) {
    (void)m;
    if (n->nkids != 1)
        return kj_rw_refuse(r, NULL, "%s takes no arguments", "a.tolist()");
    return kj_rw_call(r, "list", 1, n->kids[0], NULL, NULL);
}

KJ_REWRITE(transpose, "np.transpose", as_method);
KJ_REWRITE(reshape, "np.reshape", as_method);
KJ_REWRITE(shape, "np.shape", shape_of);
KJ_REWRITE(ravel, "np.ravel", ravel);
KJ_REWRITE(swapaxes, "np.swapaxes", as_method);
KJ_REWRITE(moveaxis, "np.moveaxis", as_method);
KJ_REWRITE(flip, "np.flip", flip);
KJ_REWRITE(flipud, "np.flipud", flip);
KJ_REWRITE(fliplr, "np.fliplr", flip);
KJ_REWRITE(rot90, "np.rot90", rot90);
KJ_REWRITE(expand_dims, "np.expand_dims", expand_dims);
KJ_REWRITE(asfortranarray, "np.asfortranarray", asfortranarray);
KJ_REWRITE(take, "np.take", take);
KJ_REWRITE(ndarray_take, "ndarray.take", take);
KJ_REWRITE(ndarray_tolist, "ndarray.tolist", tolist);
