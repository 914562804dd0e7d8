/* rewrite_make: NumPy functions that make an array from a formula over a
 * grid (np_rewrite.h):
 *   np.logspace(a, b, n)   np.power(base, np.linspace(a, b, n))
 *   np.hanning(M)          0.5 + 0.5 * np.cos(np.pi * n / d), n = np.arange(1 - M, M, 2),
 *                          d = M - 1 + (M == 1), which leaves NumPy's M < 1 (empty) and
 *                          M == 1 (one 1.0) to the formula; np.hamming: 0.54 + 0.46 * ...,
 *                          np.blackman: 0.42 + 0.5 * np.cos(...) + 0.08 * np.cos(2.0 * np.pi * n / d),
 *                          np.bartlett: np.where(n <= 0, 1 + n / d, 1 - n / d) */
#include "jit/frontend/np_rewrite.h"

#include <string.h>

static kj_node *logspace(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"start", "stop", "num", "endpoint", "base", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes start, stop, num, endpoint and base here", m))
        return NULL;
    kj_node *grid = kj_rw_call(r, "np.linspace", a.arg[2] ? 3 : 2, a.arg[0], a.arg[1], a.arg[2]);
    if (a.arg[3])
        kj_rw_keyword(r, grid, "endpoint", a.arg[3]);
    return kj_rw_call(r, "np.power", 2, a.arg[4] ? a.arg[4] : kj_rw_float(r, 10.0), grid, NULL);
}

/* The window functions' positions n = np.arange(1 - M, M, 2); new nodes
 * each time, as each use of a subexpression needs its own. */
static kj_node *window_positions(kj_rewrite *r, kj_node *M) {
    return kj_rw_call(r, "np.arange", 3, kj_rw_binop(r, KJ_OP_SUB, kj_rw_int(r, 1), M), M, kj_rw_int(r, 2));
}

/* n / (M - 1 + (M == 1)), times factor first when there is one (NumPy's
 * pi * n / (M - 1)). */
static kj_node *window_phase(kj_rewrite *r, kj_node *M, kj_node *factor) {
    kj_node *n = window_positions(r, M);
    kj_node *d = kj_rw_binop(r, KJ_OP_ADD, kj_rw_binop(r, KJ_OP_SUB, M, kj_rw_int(r, 1)),
                       kj_rw_compare(r, KJ_OP_EQ, M, kj_rw_int(r, 1)));
    return kj_rw_binop(r, KJ_OP_DIV, factor ? kj_rw_binop(r, KJ_OP_MUL, factor, n) : n, d);
}

/* np.hanning, np.hamming, np.blackman or np.bartlett (name m) of M (read
 * several times): NumPy's formulas, in its order of operations. */
static kj_node *window_of(kj_rewrite *r, const char *m, kj_node *M) {
    if (!strcmp(m, "bartlett")) {
        return kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_LE, window_positions(r, M), kj_rw_int(r, 0)),
                    kj_rw_binop(r, KJ_OP_ADD, kj_rw_int(r, 1), window_phase(r, M, NULL)),
                    kj_rw_binop(r, KJ_OP_SUB, kj_rw_int(r, 1), window_phase(r, M, NULL)));
    }
    kj_node *pi = kj_rw_float(r, 3.141592653589793);
    kj_node *cos1 = kj_rw_call(r, "np.cos", 1, window_phase(r, M, pi), NULL, NULL);
    if (!strcmp(m, "blackman")) {
        kj_node *two_pi = kj_rw_binop(r, KJ_OP_MUL, kj_rw_float(r, 2.0), kj_rw_float(r, 3.141592653589793));
        kj_node *cos2 = kj_rw_call(r, "np.cos", 1, window_phase(r, M, two_pi), NULL, NULL);
        return kj_rw_binop(r, KJ_OP_ADD,
                     kj_rw_binop(r, KJ_OP_ADD, kj_rw_float(r, 0.42), kj_rw_binop(r, KJ_OP_MUL, kj_rw_float(r, 0.5), cos1)),
                     kj_rw_binop(r, KJ_OP_MUL, kj_rw_float(r, 0.08), cos2));
    }
    bool hann = !strcmp(m, "hanning");
    return kj_rw_binop(r, KJ_OP_ADD, kj_rw_float(r, hann ? 0.5 : 0.54),
                 kj_rw_binop(r, KJ_OP_MUL, kj_rw_float(r, hann ? 0.5 : 0.46), cos1));
}

/* np.hanning, np.hamming, np.blackman and np.bartlett. */
static kj_node *window(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"M", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes the number of points M", m))
        return NULL;
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first, then pass the name.",
                            "np.%s reads M more than once; this M calls a function that may give another value or do more each time", m);
    return window_of(r, m, a.arg[0]);
}

KJ_REWRITE(logspace, "np.logspace", logspace);
KJ_REWRITE(hanning, "np.hanning", window);
KJ_REWRITE(hamming, "np.hamming", window);
KJ_REWRITE(blackman, "np.blackman", window);
KJ_REWRITE(bartlett, "np.bartlett", window);
