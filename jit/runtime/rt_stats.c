/* rt_stats: np.cov and np.corrcoef (rt_stats.h), step for step as NumPy:
 * the row means in NumPy's order of addition, the rows centred, X @ X.T
 * with each sum in order (the reference BLAS's), times 1 / (n - ddof);
 * corrcoef then divides by the standard deviations, row then column, and
 * clips to [-1, 1]. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jit/runtime/rt_stats.h"
#include "jit/runtime/rt_np.h"
#include "jit/runtime/runtime.h"

#include <math.h>
#include <stdlib.h>

int32_t kj_np_cov(double *x, int64_t k, int64_t n, int64_t ddof, int32_t corr, int32_t scalar, double *out) {
    for (int64_t i = 0; i < k; i++) {
        double *row = x + i * n, mean = kj_np_sum_f64(row, n) / (double)n;
        for (int64_t t = 0; t < n; t++)
            row[t] -= mean;
    }
    double fact = (double)(n - ddof);
    double scale = 1.0 / (fact > 0 ? fact : 0.0);
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < k; j++) {
            double acc = 0.0;
            for (int64_t t = 0; t < n; t++)
                acc += x[i * n + t] * x[j * n + t];
            out[i * k + j] = acc * scale;
        }
    if (!corr)
        return 0;
    if (scalar) {   /* NumPy's corrcoef of one variable: c / c */
        out[0] = out[0] / out[0];
        return 0;
    }
    double *sd = malloc(sizeof(double) * (size_t)(k ? k : 1));
    if (!sd) {
        kj_rt_raise(PyExc_MemoryError, NULL);
        return -1;
    }
    for (int64_t i = 0; i < k; i++)
        sd[i] = sqrt(out[i * k + i]);
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < k; j++) {
            double c = out[i * k + j] / sd[i] / sd[j];
            out[i * k + j] = c < -1.0 ? -1.0 : c > 1.0 ? 1.0 : c;   /* NaN stays */
        }
    free(sd);
    return 0;
}
