/* rt_sort: sorting and friends for compiled NumPy code (rt_sort.c), on
 * contiguous buffers; kind is 'f', 'i', 'u' (bool sorts as 'u'). */
#ifndef KILN_JIT_RT_SORT_H
#define KILN_JIT_RT_SORT_H

#include <stdbool.h>
#include <stdint.h>

void kj_np_sort(void *data, int64_t n, int64_t kind, int64_t itemsize);
/* out[i]: the indices that sort data (stably); -1 when out of memory. */
int32_t kj_np_argsort(const void *data, int64_t n, int64_t kind, int64_t itemsize, int64_t *out);
/* Sorts data and moves its distinct values to the front; their number. */
int64_t kj_np_unique(void *data, int64_t n, int64_t kind, int64_t itemsize);
/* The same, and for each distinct value (those not NULL, each with room
 * for n) the index of its first occurrence and its count, and for each
 * element of data the number of its value (inverse); -1 when out of memory. */
int64_t kj_np_unique_with(void *data, int64_t n, int64_t kind, int64_t itemsize, int64_t *index, int64_t *inverse,
                          int64_t *counts);
/* The leftmost insertion point of *value in sorted data (stride bytes
 * apart), or with right the rightmost. */
int64_t kj_np_searchsorted(const void *data, int64_t n, int64_t stride, int64_t kind, int64_t itemsize,
                           const void *value, int64_t right);
/* np.digitize's test of its bins, as NumPy's: 1 when they never decrease
 * (all equal too), -1 when they never increase, 0 otherwise. */
int64_t kj_np_monotonic(const double *a, int64_t n);

/* np.histogram(x, bins, range) on float64 data: counts[bins] and
 * edges[bins + 1]; 0, or what NumPy would refuse (the range's ends in
 * bad_lo, bad_hi for the not-finite cases). */
enum { KJ_HIST_BAD_BINS = 1, KJ_HIST_BAD_RANGE, KJ_HIST_AUTO_NOT_FINITE, KJ_HIST_SUPPLIED_NOT_FINITE };
int32_t kj_np_histogram(const double *x, int64_t n, int64_t bins, int64_t has_range, double lo, double hi,
                        int64_t *counts, double *edges, double *bad_lo, double *bad_hi);

/* np.median and np.quantile (NumPy's default method, 'linear') of n > 0
 * doubles sorted in NumPy's order: NaN when the last is NaN, as in NumPy. */
double kj_np_median(const double *sorted, int64_t n);
double kj_np_quantile(const double *sorted, int64_t n, double q);

/* np.interp at x between the n >= 1 sample points xp (increasing) with
 * values fp, contiguous doubles: NumPy's arithmetic and special cases. */
double kj_np_interp(double x, const double *xp, const double *fp, int64_t n, double left, double right);

#define KJ_RT_SORT_SYMBOLS                                  \
    {"kj_np_sort", (void *)kj_np_sort},                     \
    {"kj_np_argsort", (void *)kj_np_argsort},               \
    {"kj_np_unique", (void *)kj_np_unique},                 \
    {"kj_np_searchsorted", (void *)kj_np_searchsorted},     \
    {"kj_np_monotonic", (void *)kj_np_monotonic},           \
    {"kj_np_unique_with", (void *)kj_np_unique_with},       \
    {"kj_np_histogram", (void *)kj_np_histogram},           \
    {"kj_np_median", (void *)kj_np_median},                 \
    {"kj_np_quantile", (void *)kj_np_quantile},             \
    {"kj_np_interp", (void *)kj_np_interp},

#endif
