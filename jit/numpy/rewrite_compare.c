/* rewrite_compare: NumPy's comparisons of whole arrays as elementwise code
 * (np_rewrite.h):
 *   np.isclose(a, b)        np.where(np.isfinite(a) & np.isfinite(b),
 *                                    np.abs(a - b) <= atol + rtol * np.abs(b), a == b)
 *                           (| np.isnan(a) & np.isnan(b) with equal_nan=True)
 *   np.allclose(a, b)       np.all(np.isclose(a, b))
 *   np.array_equal(a, b)    a.shape == b.shape and np.all(a == b)
 *                           (| np.isnan(a) & np.isnan(b) with equal_nan=True) */
#include "jit/frontend/np_rewrite.h"

/* equal, or, where equal_nan holds, a NaN in both x and y. */
static kj_node *or_both_nan(kj_rewrite *r, kj_node *equal, kj_node *x, kj_node *y, kj_node *equal_nan) {
    if (!equal_nan)
        return equal;
    kj_node *both_nan = kj_rw_binop(r, KJ_OP_BITAND, kj_rw_call(r, "np.isnan", 1, x, NULL, NULL),
                                    kj_rw_call(r, "np.isnan", 1, y, NULL, NULL));
    return kj_rw_binop(r, KJ_OP_BITOR, equal, kj_rw_binop(r, KJ_OP_BITAND, both_nan, equal_nan));
}

/* np.isclose(a, b, rtol, atol, equal_nan) and np.allclose. */
static kj_node *isclose(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "b", "rtol", "atol", "equal_nan", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes a, b, rtol, atol and equal_nan here", m))
        return NULL;
    kj_node *x = a.arg[0], *y = a.arg[1];
    if (!kj_rw_plain(x) || !kj_rw_plain(y))
        return kj_rw_refuse(r, "Assign them to names first: x = ...; np.isclose(x, y).",
                            "np.%s reads its operands more than once; one of these calls a function that may give another value or do more each time", m);
    kj_node *rtol = a.arg[2] ? a.arg[2] : kj_rw_float(r, 1e-05);
    kj_node *atol = a.arg[3] ? a.arg[3] : kj_rw_float(r, 1e-08);
    kj_node *finite = kj_rw_binop(r, KJ_OP_BITAND, kj_rw_call(r, "np.isfinite", 1, x, NULL, NULL),
                                  kj_rw_call(r, "np.isfinite", 1, y, NULL, NULL));
    kj_node *within = kj_rw_compare(r, KJ_OP_LE, kj_rw_call(r, "np.absolute", 1, kj_rw_binop(r, KJ_OP_SUB, x, y), NULL, NULL),
                                    kj_rw_binop(r, KJ_OP_ADD, atol,
                                                kj_rw_binop(r, KJ_OP_MUL, rtol, kj_rw_call(r, "np.absolute", 1, y, NULL, NULL))));
    kj_node *close = kj_rw_call(r, "np.where", 3, finite, within, kj_rw_compare(r, KJ_OP_EQ, x, y));
    close = or_both_nan(r, close, x, y, a.arg[4]);
    return m[0] == 'a' ? kj_rw_call(r, "np.all", 1, close, NULL, NULL) : close;
}

/* np.array_equal(a1, a2, equal_nan): same shape, and every element equal. */
static kj_node *array_equal(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a1", "a2", "equal_nan", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes two arrays and equal_nan here", m))
        return NULL;
    kj_node *x = a.arg[0], *y = a.arg[1];
    if (!kj_rw_plain(x) || !kj_rw_plain(y))
        return kj_rw_refuse(r, "Assign them to names first: x = ...; np.array_equal(x, y).",
                            "np.%s reads its operands more than once; one of these calls a function that may give another value or do more each time", m);
    kj_node *same_shape =
        kj_rw_compare(r, KJ_OP_EQ, kj_rw_named(r, KJ_E_ATTR, "shape", x), kj_rw_named(r, KJ_E_ATTR, "shape", y));
    kj_node *equal = or_both_nan(r, kj_rw_compare(r, KJ_OP_EQ, x, y), x, y, a.arg[2]);
    return kj_rw_op(r, KJ_E_BOOLOP, KJ_OP_AND, same_shape, kj_rw_call(r, "np.all", 1, equal, NULL, NULL));
}

KJ_REWRITE(isclose, "np.isclose", isclose);
KJ_REWRITE(allclose, "np.allclose", isclose);
KJ_REWRITE(array_equal, "np.array_equal", array_equal);
