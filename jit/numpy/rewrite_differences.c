/* rewrite_differences: NumPy's differences of neighbours as slices
 * (np_rewrite.h):
 *   np.diff(a, n, axis)   a[..., 1:] - a[..., :-1], n times (along axis, the last by default)
 *   np.ediff1d(a)         a.ravel()[1:] - a.ravel()[:-1]
 *   np.trapz(y, x, dx)    np.sum(d * (y[..., 1:] + y[..., :-1]) / 2.0, axis), d = np.diff(x) or dx */
#include "jit/frontend/np_rewrite.h"

/* x[1:] op x[:-1] along axis. */
static kj_node *neighbours(kj_rewrite *r, kj_op op, kj_node *x, int64_t axis) {
    return kj_rw_binop(r, op, kj_rw_slice_axis(r, x, axis, kj_rw_slice(r, 1, 0, 0)),
                       kj_rw_slice_axis(r, x, axis, kj_rw_slice(r, 0, -1, 0)));
}

static kj_node *diff(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "n", "axis", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t times, axis;
    if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 1, &times) || !kj_const_int(a.arg[2], -1, &axis) ||
        times < 0 || times > 8)
        return kj_rw_refuse(r, "Write n and axis as numbers.", "np.%s takes an array, n (0 to 8) and axis as constants here", m);
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: x = ...; np.diff(x).",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    kj_node *out = a.arg[0];
    for (int64_t i = 0; i < times; i++)
        out = neighbours(r, KJ_OP_SUB, out, axis);
    return out;
}

static kj_node *ediff1d(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"ary", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, "Join the ends yourself: np.concatenate((begin, np.ediff1d(x), end)).", "np.%s takes only the array here", m))
        return NULL;
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: x = ...; np.ediff1d(x).",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    return kj_rw_binop(r, KJ_OP_SUB, kj_rw_index(r, kj_rw_ravel(r, a.arg[0]), kj_rw_slice(r, 1, 0, 0)),
                       kj_rw_index(r, kj_rw_ravel(r, a.arg[0]), kj_rw_slice(r, 0, -1, 0)));
}

static kj_node *trapz(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"y", "x", "dx", "axis", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t axis;
    if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[3], -1, &axis) || (a.arg[1] && (a.arg[2] || axis != -1)))
        return kj_rw_refuse(r, "Write the axis as a number.",
                            "np.%s takes y, then x (along the last axis) or dx, and a constant axis here", m);
    if (!kj_rw_plain(a.arg[0]) || (a.arg[1] && !kj_rw_plain(a.arg[1])))
        return kj_rw_refuse(r, "Assign them to names first: y = ...; np.trapz(y).",
                            "np.%s reads its operands more than once; one of these calls a function that may give another value or do more each time", m);
    /* NumPy's: add.reduce(d * (y[1:] + y[:-1]) / 2.0) along axis, d = diff(x) or dx */
    kj_node *d = a.arg[1] ? neighbours(r, KJ_OP_SUB, a.arg[1], -1) : a.arg[2] ? a.arg[2] : kj_rw_float(r, 1.0);
    kj_node *areas = kj_rw_binop(r, KJ_OP_DIV, kj_rw_binop(r, KJ_OP_MUL, d, neighbours(r, KJ_OP_ADD, a.arg[0], axis)),
                                 kj_rw_float(r, 2.0));
    return kj_rw_call(r, "np.sum", 2, areas, kj_rw_int(r, axis), NULL);
}

KJ_REWRITE(diff, "np.diff", diff);
KJ_REWRITE(ediff1d, "np.ediff1d", ediff1d);
KJ_REWRITE(trapz, "np.trapz", trapz);
