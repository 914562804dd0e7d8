/* rt_stats: np.cov and np.corrcoef for compiled code, computed as NumPy
 * computes them (rt_stats.c). */
#ifndef KILN_JIT_RT_STATS_H
#define KILN_JIT_RT_STATS_H

#include <stdint.h>

/* The covariance of the k variables in the rows of x (k x n, C order,
 * float64, overwritten: each row less its mean) into out (k x k), with n -
 * ddof as the divisor (0 when that is not positive, as NumPy); with corr
 * the correlation coefficients instead, and for one variable (scalar) c /
 * c. 0, or -1 after raising MemoryError. */
int32_t kj_np_cov(double *x, int64_t k, int64_t n, int64_t ddof, int32_t corr, int32_t scalar, double *out);

#define KJ_RT_STATS_SYMBOLS {"kj_np_cov", (void *)kj_np_cov},

#endif
