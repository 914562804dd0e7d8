/* rewrite_reduce: NumPy reductions that are other reductions
 * (np_rewrite.h):
 *   np.count_nonzero(a)   np.sum(a != 0)                (axis= kept)
 *   np.ptp(a, axis)       np.max(a, axis) - np.min(a, axis)
 *   np.average(a, axis)   np.mean(a, axis)              (no weights) */
#include "jit/frontend/np_rewrite.h"

static kj_node *count_nonzero(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "axis", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes an array and axis= here", m))
        return NULL;
    kj_node *nonzero = kj_rw_compare(r, KJ_OP_NE, a.arg[0], kj_rw_int(r, 0));
    return kj_rw_call(r, "np.sum", a.arg[1] ? 2 : 1, nonzero, a.arg[1], NULL);
}

/* np.ptp and np.average. */
static kj_node *ptp_or_average(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", "axis", NULL};
    kj_rw_args a;
    bool average = m[0] == 'a';
    if (!kj_rw_args_of(r, n, params, 1, &a, average ? "Weigh the values yourself: np.sum(w * a) / np.sum(w)." : NULL,
                       "np.%s takes an array and axis here", m))
        return NULL;
    int nargs = a.arg[1] ? 2 : 1;
    if (average)
        return kj_rw_call(r, "np.mean", nargs, a.arg[0], a.arg[1], NULL);
    if (!kj_rw_plain(a.arg[0]) || (a.arg[1] && !kj_rw_plain(a.arg[1])))
        return kj_rw_refuse(r, "Assign it to a name first: x = ...; np.ptp(x).",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    return kj_rw_binop(r, KJ_OP_SUB, kj_rw_call(r, "np.max", nargs, a.arg[0], a.arg[1], NULL),
                       kj_rw_call(r, "np.min", nargs, a.arg[0], a.arg[1], NULL));
}

KJ_REWRITE(count_nonzero, "np.count_nonzero", count_nonzero);
KJ_REWRITE(ptp, "np.ptp", ptp_or_average);
KJ_REWRITE(average, "np.average", ptp_or_average);
