/* rt_linalg_norm: np.linalg.norm with ord= but no axis=, whose meaning
 * depends on the number of dimensions, and np.linalg.cond, which is built
 * on it (rt_linalg.h). The steps are NumPy's linalg.py: the same special
 * orders, the same reductions, its errors for empty maxima and minima. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jit/runtime/rt_linalg.h"
#include "jit/runtime/runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* n doubles (at least one), or NULL after raising MemoryError. */
static double *doubles(int64_t n) {
    double *p = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!p)
        kj_rt_raise(PyExc_MemoryError, NULL);
    return p;
}

static int32_t empty_reduction(bool largest) {
    kj_rt_raise(PyExc_ValueError, largest ? "zero-size array to reduction operation maximum which has no identity"
                                          : "zero-size array to reduction operation minimum which has no identity");
    return -1;
}

/* best updated with the i-th value v as np.max (largest) or np.min
 * update it: a NaN, once met, stays. */
static double fold(double best, double v, int64_t i, bool largest) {
    if (i == 0 || isnan(v) || isnan(best))
        return i == 0 || isnan(v) ? v : best;
    return largest ? (v > best ? v : best) : (v < best ? v : best);
}

/* Sum of the n items x[i * step] under f: |x|, x * x or |x| ** p. */
enum { ABS, SQUARE, POWER };
static double sum_of(const double *x, int64_t n, int64_t step, int f, double p) {
    double acc = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double v = x[i * step];
        acc += f == ABS ? fabs(v) : f == SQUARE ? v * v : pow(fabs(v), p);
    }
    return acc;
}

static int32_t vector_norm(int64_t n, const double *x, int32_t kind, double p, double *out) {
    if (kind == KJ_NORM_DEFAULT || p == 2.0) {   /* sqrt(x.dot(x)) */
        *out = sqrt(sum_of(x, n, 1, SQUARE, 0));
    } else if (isinf(p)) {
        if (n == 0)
            return empty_reduction(p > 0);
        double best = 0.0;
        for (int64_t i = 0; i < n; i++)
            best = fold(best, fabs(x[i]), i, p > 0);
        *out = best;
    } else if (p == 0.0) {   /* how many are not zero (NaN is not) */
        double count = 0;
        for (int64_t i = 0; i < n; i++)
            count += x[i] != 0.0;
        *out = count;
    } else if (p == 1.0) {
        *out = sum_of(x, n, 1, ABS, 0);
    } else {
        *out = pow(sum_of(x, n, 1, POWER, p), 1.0 / p);
    }
    return 0;
}

/* The singular values of the m x n x (C order) into s, the largest first,
 * through a Fortran-order copy as NumPy's svd makes (the transpose has
 * the same values, but LAPACK's differ from them in the last bits). */
static int32_t singular_values(int64_t m, int64_t n, const double *x, double *s) {
    double *f = doubles(m * n);
    if (!f)
        return -1;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            f[j * m + i] = x[i * n + j];
    int32_t rc = kj_la_svd(m, n, f, s, NULL, NULL, 0);
    free(f);
    return rc;
}

/* The largest or smallest line sum of |x|: of the columns (1, -1) or the
 * rows (inf, -inf), as add.reduce(abs(x), axis).max(). */
static int32_t line_sums_extreme(int64_t m, int64_t n, const double *x, bool columns, bool largest, double *out) {
    int64_t lines = columns ? n : m, len = columns ? m : n;
    if (lines == 0)
        return empty_reduction(largest);
    double best = 0.0;
    for (int64_t l = 0; l < lines; l++)
        best = fold(best, columns ? sum_of(x + l, len, n, ABS, 0) : sum_of(x + l * n, len, 1, ABS, 0), l, largest);
    *out = best;
    return 0;
}

static int32_t matrix_norm(int64_t m, int64_t n, const double *x, int32_t kind, double p, double *out) {
    if (kind == KJ_NORM_DEFAULT || kind == KJ_NORM_FRO) {   /* sqrt(x.ravel().dot(x.ravel())) */
        *out = sqrt(sum_of(x, m * n, 1, SQUARE, 0));
        return 0;
    }
    if (kind == KJ_NORM_NUMBER && fabs(p) != 2.0)   /* 1, -1, inf, -inf (typing allows no other) */
        return line_sums_extreme(m, n, x, fabs(p) == 1.0, p > 0, out);
    /* 2, -2 and 'nuc', through the singular values */
    int64_t k = m < n ? m : n;
    if (kind == KJ_NORM_NUMBER && k == 0)
        return empty_reduction(p > 0);
    double *s = doubles(k);
    int32_t rc = s ? singular_values(m, n, x, s) : -1;
    if (rc == 0)
        *out = kind == KJ_NORM_NUC ? sum_of(s, k, 1, ABS, 0) : p > 0 ? s[0] : s[k - 1];
    free(s);
    return rc;
}

int32_t kj_la_norm(int64_t m, int64_t n, const double *x, int32_t kind, double p, double *out) {
    return n < 0 ? vector_norm(m, x, kind, p, out) : matrix_norm(m, n, x, kind, p, out);
}

int32_t kj_la_cond(int64_t m, int64_t n, const double *x, int32_t kind, double p, int32_t single, double *out) {
    if (m == 0 || n == 0) {
        kj_la_raise("cond is not defined on empty arrays");
        return -1;
    }
    bool any_nan = false;
    for (int64_t i = 0; i < m * n; i++)
        any_nan |= isnan(x[i]);
    double r;
    if (kind == KJ_NORM_DEFAULT || (kind == KJ_NORM_NUMBER && fabs(p) == 2.0)) {   /* s[0] / s[-1] */
        int64_t k = m < n ? m : n;
        double *s = doubles(k);
        int32_t rc = s ? singular_values(m, n, x, s) : -1;
        if (rc == 0) {
            double big = s[0], small = s[k - 1];
            if (single)   /* NumPy divides the float32 values, as float32 */
                big = (float)big, small = (float)small;
            r = p == -2.0 ? small / big : big / small;
            r = single ? (float)r : r;
        }
        free(s);
        if (rc != 0)
            return rc;
    } else {   /* norm(x, p) * norm(inv(x), p), NaN where x is singular */
        if (m != n) {
            kj_la_raise("Last 2 dimensions of the array must be square");
            return -1;
        }
        double *inv = doubles(n * n), of_x = 0.0, of_inv = 0.0;
        int32_t rc = -1;
        if (inv) {
            rc = kj_la_try_inverse(n, x, inv);
            for (int64_t i = 0; rc == 1 && i < n * n; i++)   /* singular: NumPy's inverse is all NaN */
                inv[i] = NAN;
            if (rc >= 0 && (rc = matrix_norm(n, n, x, kind, p, &of_x)) == 0)
                rc = matrix_norm(n, n, inv, kind, p, &of_inv);   /* 'nuc' of the NaNs: "SVD did not converge" */
            if (single)   /* NumPy's norm of the float32 x is a float32 (the inverse is float64) */
                of_x = (float)of_x;
        }
        free(inv);
        if (rc != 0)
            return rc;
        r = of_x * of_inv;
    }
    *out = isnan(r) && !any_nan ? INFINITY : r;   /* NumPy: NaN from a singular x is inf */
    return 0;
}
