/* rewrite_linalg: NumPy's products and norms that are other NumPy code
 * (np_rewrite.h):
 *   np.outer(a, b)          a.ravel()[:, None] * b.ravel()[None, :]
 *   np.inner(a, b)          np.dot(a, b.T)                (1-d and 2-d)
 *   np.vdot(a, b)           np.dot(np.conj(a).ravel(), b.ravel())
 *   np.trace(a, k)          np.sum(np.diagonal(a, k))
 *   np.linalg.norm(x)       np.sqrt(np.sum(np.abs(x * 1.0) ** 2))
 *   np.linalg.norm(x, ord, axis=k)   the vector norm of each line: np.max(np.abs(x * 1.0), k) for inf,
 *                           np.sum(...) for 1, the root of the sum of squares for 2 (or None), of p-th powers for p
 * (np.linalg.norm(x, ord) of a whole vector or matrix stays a call.) */
#include "jit/frontend/np_rewrite.h"
#include "jit/numpy/lower_np.h"

#include <math.h>

static kj_node *outer(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "b", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes two arrays here", m))
        return NULL;
    return kj_rw_binop(r, KJ_OP_MUL, kj_rw_column_or_row(r, kj_rw_ravel(r, a.arg[0]), true),
                       kj_rw_column_or_row(r, kj_rw_ravel(r, a.arg[1]), false));
}

/* np.inner and np.vdot. */
static kj_node *inner(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "b", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes two arrays", m))
        return NULL;
    if (m[0] == 'i')
        return kj_rw_call(r, "np.dot", 2, a.arg[0], kj_rw_named(r, KJ_E_ATTR, "T", a.arg[1]), NULL);
    return kj_rw_call(r, "np.dot", 2, kj_rw_ravel(r, kj_rw_call(r, "np.conj", 1, a.arg[0], NULL, NULL)),
                      kj_rw_ravel(r, a.arg[1]), NULL);
}

static kj_node *trace(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "offset", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, "Sum a diagonal of a 2-d array: np.sum(a.diagonal(k)).", "np.%s takes a 2-d array and offset here", m))
        return NULL;
    return kj_rw_call(r, "np.sum", 1, kj_rw_call(r, "np.diagonal", a.arg[1] ? 2 : 1, a.arg[0], a.arg[1], NULL), NULL, NULL);
}

/* The norm of the lines of x along axis (NULL: of all of x, the 2-norm
 * only), as NumPy's: ints as floats; inf and -inf the largest and smallest
 * magnitude, 1 their sum, 2 the root of the sum of squares, p the p-th
 * root of the sum of p-th powers. */
static kj_node *vector_norm(kj_rewrite *r, kj_node *x, double ord, kj_node *axis) {
    kj_node *mag = kj_rw_call(r, "np.absolute", 1, kj_rw_binop(r, KJ_OP_MUL, x, kj_rw_float(r, 1.0)), NULL, NULL);
    int nargs = axis ? 2 : 1;
    if (ord == INFINITY || ord == -INFINITY)
        return kj_rw_call(r, ord > 0 ? "np.max" : "np.min", nargs, mag, axis, NULL);
    if (ord == 1.0)
        return kj_rw_call(r, "np.sum", nargs, mag, axis, NULL);
    bool two = ord == 2.0;
    kj_node *power = two ? kj_rw_int(r, 2) : kj_rw_float(r, ord);
    kj_node *total = kj_rw_call(r, "np.sum", nargs, kj_rw_binop(r, KJ_OP_POW, mag, power), axis, NULL);
    return two ? kj_rw_call(r, "np.sqrt", 1, total, NULL, NULL) : kj_rw_binop(r, KJ_OP_POW, total, kj_rw_float(r, 1.0 / ord));
}

/* np.linalg.norm, which the front end names "np.norm" (NumPy's functions
 * go by their own names). */
static kj_node *norm(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"x", "ord", "axis", "keepdims", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    double ord = 2.0;
    int64_t axis;
    bool along = a.arg[2] && kj_const_int(a.arg[2], 0, &axis);
    bool ord_given = a.arg[1] && !(a.arg[1]->kind == KJ_E_CONST && a.arg[1]->type && a.arg[1]->type->kind == KJ_T_NONE);
    if (a.arg[0] && ord_given && !a.arg[2] && !a.arg[3] && !a.unknown && !a.too_many)
        return n;   /* a vector's or a matrix's norm, as x's dimensions say: typed and lowered as a call */
    if (!a.arg[0] || a.arg[3] || a.unknown || a.too_many || (a.arg[2] && !along) ||
        (ord_given && (!along || !kj_const_number(a.arg[1], &ord) || ord == 0.0)))
        return kj_rw_refuse(r, "Give a constant int axis= for a norm of each line (ord= then the vector norm's, not 0).",
                            "np.linalg.%s takes the array, ord=, and a constant axis= here", m);
    return vector_norm(r, a.arg[0], ord, along ? a.arg[2] : NULL);
}

KJ_REWRITE(outer, "np.outer", outer);
KJ_REWRITE(inner, "np.inner", inner);
KJ_REWRITE(vdot, "np.vdot", inner);
KJ_REWRITE(trace, "np.trace", trace);
/* The forms norm leaves are typed and lowered as np.linalg's others. */
KJ_CALLABLE(norm, .name = "np.norm", .targets = KJ_ON_ANY, .rewrite = norm, .np_type = kj_np_linalg_type,
            .np_lower = kj_np_lower_linalg);
