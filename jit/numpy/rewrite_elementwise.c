/* rewrite_elementwise: NumPy functions of each element written as the
 * ufuncs that compute them, as NumPy defines them (np_rewrite.h):
 *   np.logaddexp(x, y)   NumPy's npy_logaddexp: x + log(2) where x == y, else
 *                        the larger plus np.log1p(np.exp(smaller - larger)); NaN stays
 *   np.logaddexp2(x, y)  the same in base 2 (np.exp2, log1p times log2(e))
 *   np.heaviside(x, h)   0 below 0, h at 0, 1 above, NaN stays
 *   np.sinc(x)           sin(y) / y with y = pi * np.where(x == 0, 1e-20, x), as NumPy
 *   np.isposinf(x)       x == np.inf                   (np.isneginf: x == -np.inf)
 *   np.signbit(x)        np.copysign(1.0, x) < 0       (set for -0.0 and a NaN with its sign bit, as NumPy's)
 *   np.fix(x)            np.trunc(x)                   (NumPy's ceil below 0 and floor above are a truncation)
 *   np.iscomplex(x)      np.imag(x) != 0               (np.isreal: == 0; the imaginary part of a real array is zeros)
 *   np.angle(z, deg)     np.arctan2(np.imag(z), np.real(z)), times 180 / pi with deg=True (a constant)
 *   np.modf(x)           (np.copysign(np.where(np.isinf(x), 0.0, x - np.trunc(x)), x), np.trunc(x)) */
#include "jit/frontend/np_rewrite.h"

#include <math.h>

/* The one operand of np.m(x) (twice: read more than once), or NULL after
 * refusing the call. */
static kj_node *one_operand(kj_rewrite *r, kj_node *n, const char *m, bool twice) {
    static const char *const params[] = {"x", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, NULL, "np.%s takes one operand here (no out=)", m))
        return NULL;
    if (twice && !kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first, then pass the name.",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    return a.arg[0];
}

/* np.logaddexp(x, y) (base2: np.logaddexp2) as NumPy's npy_logaddexp
 * computes it. */
static kj_node *logaddexp_of(kj_rewrite *r, kj_node *x, kj_node *y, bool base2) {
    const double ln2 = 0.6931471805599453, log2e = 1.4426950408889634;
    kj_node *tail[2];
    for (int k = 0; k < 2; k++) {   /* x + log1p(exp(y - x)) where x is larger, and the mirror */
        kj_node *big = k ? y : x, *small = k ? x : y;
        kj_node *e = kj_rw_call(r, base2 ? "np.exp2" : "np.exp", 1, kj_rw_binop(r, KJ_OP_SUB, small, big), NULL, NULL);
        kj_node *l = kj_rw_call(r, "np.log1p", 1, e, NULL, NULL);
        tail[k] = kj_rw_binop(r, KJ_OP_ADD, big, base2 ? kj_rw_binop(r, KJ_OP_MUL, l, kj_rw_float(r, log2e)) : l);
    }
    kj_node *unordered = kj_rw_binop(r, KJ_OP_SUB, x, y);   /* a NaN */
    kj_node *rest = kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_GT, x, y), tail[0],
                               kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_LT, x, y), tail[1], unordered));
    kj_node *equal = kj_rw_binop(r, KJ_OP_ADD, x, kj_rw_float(r, base2 ? 1.0 : ln2));
    return kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_EQ, x, y), equal, rest);
}

/* np.logaddexp, np.logaddexp2 and np.heaviside: two operands, each read
 * several times. */
static kj_node *two_operands(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"x1", "x2", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, NULL, "np.%s takes two operands here", m))
        return NULL;
    if (!kj_rw_plain(a.arg[0]) || !kj_rw_plain(a.arg[1]))
        return kj_rw_refuse(r, "Assign them to names first: x = ...; np.logaddexp(x, y).",
                            "np.%s reads its operands more than once; one of these calls a function that may give another value or do more each time", m);
    if (m[0] == 'l')
        return logaddexp_of(r, a.arg[0], a.arg[1], m[9] == '2');
    kj_node *x = a.arg[0], *zero = kj_rw_int(r, 0);   /* NumPy's heaviside: x itself where it is NaN */
    kj_node *at_zero = kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_EQ, x, zero), a.arg[1], x);
    kj_node *above = kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_GT, x, zero), kj_rw_float(r, 1.0), at_zero);
    return kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_LT, x, zero), kj_rw_float(r, 0.0), above);
}

static kj_node *sinc_of(kj_rewrite *r, kj_node *n, const char *m) {
    kj_node *x = one_operand(r, n, m, true);
    if (!x)
        return NULL;
    kj_node *y[2];
    for (int k = 0; k < 2; k++) {   /* written twice: each is computed in the same fused loop */
        kj_node *nonzero = kj_rw_call(r, "np.where", 3, kj_rw_compare(r, KJ_OP_EQ, x, kj_rw_int(r, 0)),
                                      kj_rw_float(r, 1.0e-20), x);
        y[k] = kj_rw_binop(r, KJ_OP_MUL, kj_rw_float(r, 3.141592653589793), nonzero);
    }
    return kj_rw_binop(r, KJ_OP_DIV, kj_rw_call(r, "np.sin", 1, y[0], NULL, NULL), y[1]);
}

/* np.isposinf, np.isneginf, np.signbit and np.fix. */
static kj_node *sign_tests(kj_rewrite *r, kj_node *n, const char *m) {
    kj_node *x = one_operand(r, n, m, false);
    if (!x)
        return NULL;
    if (m[0] == 'f')
        return kj_rw_call(r, "np.trunc", 1, x, NULL, NULL);
    if (m[0] == 's')
        return kj_rw_compare(r, KJ_OP_LT, kj_rw_call(r, "np.copysign", 2, kj_rw_float(r, 1.0), x, NULL), kj_rw_int(r, 0));
    return kj_rw_compare(r, KJ_OP_EQ, x, kj_rw_float(r, m[2] == 'p' ? INFINITY : -INFINITY));
}

/* np.iscomplex and np.isreal. */
static kj_node *has_imaginary_part(kj_rewrite *r, kj_node *n, const char *m) {
    kj_node *x = one_operand(r, n, m, false);
    return x ? kj_rw_compare(r, m[2] == 'c' ? KJ_OP_NE : KJ_OP_EQ, kj_rw_call(r, "np.imag", 1, x, NULL, NULL), kj_rw_int(r, 0))
             : NULL;
}

static kj_node *angle(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"z", "deg", NULL};
    kj_rw_args a;
    kj_rw_bind(n, params, &a);
    int64_t deg = 0;
    if (!a.arg[0] || a.unknown || a.too_many || (a.arg[1] && !kj_const_int(a.arg[1], 0, &deg)))
        return kj_rw_refuse(r, "Write deg=True or deg=False.", "np.%s takes z and a constant deg here", m);
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: z = ...; np.angle(z).",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    kj_node *radians = kj_rw_call(r, "np.arctan2", 2, kj_rw_call(r, "np.imag", 1, a.arg[0], NULL, NULL),
                                  kj_rw_call(r, "np.real", 1, a.arg[0], NULL, NULL), NULL);
    return deg ? kj_rw_binop(r, KJ_OP_MUL, radians, kj_rw_float(r, 180.0 / M_PI)) : radians;
}

static kj_node *modf_parts(kj_rewrite *r, kj_node *n, const char *m) {
    kj_node *x = one_operand(r, n, m, true);
    if (!x)
        return NULL;
    kj_node *rest = kj_rw_binop(r, KJ_OP_SUB, x, kj_rw_call(r, "np.trunc", 1, x, NULL, NULL));
    kj_node *frac = kj_rw_call(r, "np.where", 3, kj_rw_call(r, "np.isinf", 1, x, NULL, NULL), kj_rw_float(r, 0.0), rest);
    return kj_rw_tuple2(r, kj_rw_call(r, "np.copysign", 2, frac, x, NULL), kj_rw_call(r, "np.trunc", 1, x, NULL, NULL));
}

KJ_REWRITE(logaddexp, "np.logaddexp", two_operands);
KJ_REWRITE(logaddexp2, "np.logaddexp2", two_operands);
KJ_REWRITE(heaviside, "np.heaviside", two_operands);
KJ_REWRITE(sinc, "np.sinc", sinc_of);
KJ_REWRITE(isposinf, "np.isposinf", sign_tests);
KJ_REWRITE(isneginf, "np.isneginf", sign_tests);
KJ_REWRITE(signbit, "np.signbit", sign_tests);
KJ_REWRITE(fix, "np.fix", sign_tests);
KJ_REWRITE(iscomplex, "np.iscomplex", has_imaginary_part);
KJ_REWRITE(isreal, "np.isreal", has_imaginary_part);
KJ_REWRITE(angle, "np.angle", angle);
KJ_REWRITE(modf, "np.modf", modf_parts);
