/* rewrite_select: NumPy functions that pick elements, written as masks,
 * np.where and np.unique (np_rewrite.h):
 *   np.extract(c, a)          a.ravel()[c.ravel() != 0]
 *   np.select(cs, xs, d)      np.where(cs[0], xs[0], np.where(cs[1], xs[1], ... d))
 *   np.tril_indices(n, k, m)  np.nonzero(np.tri(n, m, k) != 0)   (m: n when absent)
 *   np.triu_indices(n, k, m)  np.nonzero(np.tri(n, m, k - 1) == 0)
 *   np.tril_indices_from(a, k)  np.tril_indices(a.shape[0], k, a.shape[1])  (triu the same)
 *   np.union1d(a, b)          np.unique(np.concatenate((a.ravel(), b.ravel())))
 *   np.intersect1d(a, b)      np.unique(a[np.isin(a, b)]), in the dtype of both (np.concatenate
 *                             with b.ravel()[:0])
 *   np.setdiff1d(a, b)        np.unique(a[~np.isin(a, b)]) */
#include "jit/frontend/np_rewrite.h"

static kj_node *extract(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"condition", "arr", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes a condition and an array", m))
        return NULL;
    return kj_rw_index(r, kj_rw_ravel(r, a.arg[1]), kj_rw_compare(r, KJ_OP_NE, kj_rw_ravel(r, a.arg[0]), kj_rw_int(r, 0)));
}

static kj_node *first_choice(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"condlist", "choicelist", "default", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    kj_node *cs = a.arg[0], *xs = a.arg[1];
    if (!cs || !xs || a.unknown || a.too_many || (cs->kind != KJ_E_LIST && cs->kind != KJ_E_TUPLE) ||
        (xs->kind != KJ_E_LIST && xs->kind != KJ_E_TUPLE) || cs->nkids != xs->nkids || cs->nkids == 0)
        return kj_rw_refuse(r, "Write the conditions and the choices out: np.select([a > 0, a < 0], [a, -a], 0).",
                            "np.%s takes lists of conditions and choices, of one length, written in the call", m);
    kj_node *out = a.arg[2] ? a.arg[2] : kj_rw_int(r, 0);
    for (int i = cs->nkids - 1; i >= 0; i--)   /* the first condition that holds wins */
        out = kj_rw_call(r, "np.where", 3, cs->kids[i], xs->kids[i], out);
    return out;
}

/* np.tril_indices and np.triu_indices. */
static kj_node *triangle_indices(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"n", "k", "m", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes n, k and m", m))
        return NULL;
    if (!a.arg[2] && !kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: n = ...; np.tril_indices(n).",
                            "np.%s reads n more than once; this n calls a function that may give another value or do more each time", m);
    bool lower = m[3] == 'l';
    kj_node *k = a.arg[1] ? a.arg[1] : kj_rw_int(r, 0);
    kj_node *tri = kj_rw_call(r, "np.tri", 3, a.arg[0], a.arg[2] ? a.arg[2] : a.arg[0],
                              lower ? k : kj_rw_binop(r, KJ_OP_SUB, k, kj_rw_int(r, 1)));
    return kj_rw_call(r, "np.nonzero", 1, kj_rw_compare(r, lower ? KJ_OP_NE : KJ_OP_EQ, tri, kj_rw_int(r, 0)), NULL, NULL);
}

/* np.tril_indices_from and np.triu_indices_from: of a 2-d array's shape. */
static kj_node *triangle_indices_from(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"arr", "k", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes an array and k", m))
        return NULL;
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: a = ...; np.tril_indices_from(a).",
                            "np.%s reads the array's shape twice; this array calls a function that may give another "
                            "value or do more each time", m);
    kj_node *shape = kj_rw_named(r, KJ_E_ATTR, "shape", a.arg[0]);
    kj_node *k = a.arg[1] ? a.arg[1] : kj_rw_int(r, 0);
    bool lower = m[3] == 'l';
    kj_node *tri = kj_rw_call(r, "np.tri", 3, kj_rw_index(r, shape, kj_rw_int(r, 0)), kj_rw_index(r, shape, kj_rw_int(r, 1)),
                              lower ? k : kj_rw_binop(r, KJ_OP_SUB, k, kj_rw_int(r, 1)));
    return kj_rw_call(r, "np.nonzero", 1, kj_rw_compare(r, lower ? KJ_OP_NE : KJ_OP_EQ, tri, kj_rw_int(r, 0)), NULL, NULL);
}

/* np.union1d, np.intersect1d and np.setdiff1d: the sorted unique values
 * of either array, of both, of the first only. */
static kj_node *set_operation(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"ar1", "ar2", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes two arrays here", m))
        return NULL;
    kj_node *x = a.arg[0], *y = a.arg[1];
    if (m[0] == 'u')
        return kj_rw_call(r, "np.unique", 1, kj_rw_call(r, "np.concatenate", 1, kj_rw_tuple2(r, kj_rw_ravel(r, x), kj_rw_ravel(r, y)), NULL, NULL),
                          NULL, NULL);
    if (!kj_rw_plain(x) || (m[0] == 'i' && !kj_rw_plain(y)))
        return kj_rw_refuse(r, "Assign them to names first: x = ...; np.setdiff1d(x, y).",
                            "np.%s reads its operands more than once; one of these calls a function that may give another value or do more each time", m);
    kj_node *in = kj_rw_call(r, "np.isin", 2, x, y, NULL);
    kj_node *kept = kj_rw_index(r, x, m[0] == 's' ? kj_rw_invert(r, in) : in);
    if (m[0] == 'i') {   /* NumPy joins both arrays' values: the result takes their common dtype */
        kj_node *none = kj_rw_slice(r, 0, 0, 0);   /* [:0] */
        if (none)
            none->kids[1] = kj_rw_int(r, 0);
        kept = kj_rw_call(r, "np.concatenate", 1, kj_rw_tuple2(r, kept, kj_rw_index(r, kj_rw_ravel(r, y), none)), NULL, NULL);
    }
    return kj_rw_call(r, "np.unique", 1, kept, NULL, NULL);
}

KJ_REWRITE(extract, "np.extract", extract);
KJ_REWRITE(select, "np.select", first_choice);
KJ_REWRITE(tril_indices, "np.tril_indices", triangle_indices);
KJ_REWRITE(triu_indices, "np.triu_indices", triangle_indices);
KJ_REWRITE(tril_indices_from, "np.tril_indices_from", triangle_indices_from);
KJ_REWRITE(triu_indices_from, "np.triu_indices_from", triangle_indices_from);
KJ_REWRITE(union1d, "np.union1d", set_operation);
KJ_REWRITE(intersect1d, "np.intersect1d", set_operation);
KJ_REWRITE(setdiff1d, "np.setdiff1d", set_operation);
