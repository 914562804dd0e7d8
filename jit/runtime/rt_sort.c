/* rt_sort: sorting, argsort, unique, searchsorted and histogram for
 * compiled NumPy code, on contiguous buffers of one dtype (kind 'f', 'i',
 * 'u' or 'b' and an item size). Order is NumPy's: NaN after everything. */
#include "jit/runtime/rt_sort.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One comparator per C type: NaN compares greater than any number and
 * equal to NaN, so NaNs sort last and unique keeps one of them. */
#define CMP(name, T, is_float)                                                  \
    static int name(const void *pa, const void *pb) {                          \
        T a = *(const T *)pa, b = *(const T *)pb;                               \
        if (is_float) {                                                         \
            bool na = a != a, nb = b != b;                                      \
            if (na || nb)                                                       \
                return na - nb;                                                 \
        }                                                                       \
        return (a > b) - (a < b);                                               \
    }
CMP(cmp_f64, double, 1)
CMP(cmp_f32, float, 1)
CMP(cmp_i64, int64_t, 0)
CMP(cmp_i32, int32_t, 0)
CMP(cmp_i16, int16_t, 0)
CMP(cmp_i8, int8_t, 0)
CMP(cmp_u64, uint64_t, 0)
CMP(cmp_u32, uint32_t, 0)
CMP(cmp_u16, uint16_t, 0)
CMP(cmp_u8, uint8_t, 0)

typedef int (*cmp_fn)(const void *, const void *);

static cmp_fn comparator(int64_t kind, int64_t itemsize) {
    switch (kind) {
    case 'f': return itemsize == 4 ? cmp_f32 : cmp_f64;
    case 'i': return itemsize == 1 ? cmp_i8 : itemsize == 2 ? cmp_i16 : itemsize == 4 ? cmp_i32 : cmp_i64;
    default: return itemsize == 1 ? cmp_u8 : itemsize == 2 ? cmp_u16 : itemsize == 4 ? cmp_u32 : cmp_u64;
    }
}

void kj_np_sort(void *data, int64_t n, int64_t kind, int64_t itemsize) {
    if (n > 1)
        qsort(data, (size_t)n, (size_t)itemsize, comparator(kind, itemsize));
}

/* Stable merge sort of the indices by their values. */
int32_t kj_np_argsort(const void *data, int64_t n, int64_t kind, int64_t itemsize, int64_t *out) {
    cmp_fn cmp = comparator(kind, itemsize);
    const char *d = data;
    for (int64_t i = 0; i < n; i++)
        out[i] = i;
    int64_t *tmp = n > 1 ? malloc(sizeof(int64_t) * (size_t)n) : NULL;
    if (n > 1 && !tmp)
        return -1;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp(d + out[j] * itemsize, d + out[i] * itemsize) < 0 ? out[j++] : out[i++];
            while (i < mid)
                tmp[k++] = out[i++];
            while (j < hi)
                tmp[k++] = out[j++];
        }
        memcpy(out, tmp, sizeof(int64_t) * (size_t)n);
    }
    free(tmp);
    return 0;
}

int64_t kj_np_unique(void *data, int64_t n, int64_t kind, int64_t itemsize) {
    kj_np_sort(data, n, kind, itemsize);
    cmp_fn cmp = comparator(kind, itemsize);
    char *d = data;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (m == 0 || cmp(d + (m - 1) * itemsize, d + i * itemsize) != 0)
            memmove(d + (m++) * itemsize, d + i * itemsize, (size_t)itemsize);
    return m;
}

int64_t kj_np_unique_with(void *data, int64_t n, int64_t kind, int64_t itemsize, int64_t *index, int64_t *inverse,
                          int64_t *counts) {
    cmp_fn cmp = comparator(kind, itemsize);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    char *sorted = malloc((size_t)(n ? n : 1) * (size_t)itemsize), *d = data;
    int64_t m = -1;
    if (perm && sorted && kj_np_argsort(data, n, kind, itemsize, perm) == 0) {
        for (int64_t j = 0; j < n; j++)
            memcpy(sorted + j * itemsize, d + perm[j] * itemsize, (size_t)itemsize);
        m = 0;
        for (int64_t j = 0; j < n; j++) {   /* each run of equal values (NaNs one run) is one unique value */
            if (m == 0 || cmp(sorted + (j - 1) * itemsize, sorted + j * itemsize) != 0) {
                memcpy(d + m * itemsize, sorted + j * itemsize, (size_t)itemsize);
                if (index)
                    index[m] = perm[j];   /* the first occurrence: the sort is stable */
                if (counts)
                    counts[m] = 0;
                m++;
            }
            if (counts)
                counts[m - 1]++;
            if (inverse)
                inverse[perm[j]] = m - 1;
        }
    }
    free(perm);
    free(sorted);
    return m;
}

int64_t kj_np_searchsorted(const void *data, int64_t n, int64_t stride, int64_t kind, int64_t itemsize,
                           const void *value, int64_t right) {
    cmp_fn cmp = comparator(kind, itemsize);
    const char *d = data;
    int64_t lo = 0, hi = n;
    while (lo < hi) {   /* the first i with not (a[i] < value), or with right not (a[i] <= value) */
        int64_t mid = lo + (hi - lo) / 2;
        int c = cmp(d + mid * stride, value);
        if (c < 0 || (right && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t kj_np_monotonic(const double *a, int64_t n) {
    int64_t i = 1;
    while (i < n && a[i] == a[0])   /* equal edges at the start decide nothing */
        i++;
    if (i >= n)
        return 1;
    bool up = a[i - 1] < a[i];
    for (i++; i < n; i++)
        if (up ? a[i - 1] > a[i] : a[i - 1] < a[i])
            return 0;
    return up ? 1 : -1;
}

int32_t kj_np_histogram(const double *x, int64_t n, int64_t bins, int64_t has_range, double lo, double hi,
                        int64_t *counts, double *edges, double *bad_lo, double *bad_hi) {
    if (bins < 1)
        return KJ_HIST_BAD_BINS;
    double first = lo, last = hi;
    if (!has_range) {
        /* a.min(), a.max() (NaN if any is NaN); (0, 1) for an empty array */
        first = n ? x[0] : 0.0;
        last = n ? x[0] : 1.0;
        bool nan = false;
        for (int64_t i = 0; i < n; i++) {
            nan = nan || x[i] != x[i];
            first = x[i] < first ? x[i] : first;
            last = x[i] > last ? x[i] : last;
        }
        if (nan)
            first = last = NAN;
    } else if (first > last) {
        return KJ_HIST_BAD_RANGE;
    }
    if (!isfinite(first) || !isfinite(last)) {
        *bad_lo = first;
        *bad_hi = last;
        return has_range ? KJ_HIST_SUPPLIED_NOT_FINITE : KJ_HIST_AUTO_NOT_FINITE;
    }
    if (first == last) {
        first -= 0.5;
        last += 0.5;
    }
    /* the edges as np.linspace(first, last, bins + 1) */
    double step = (last - first) / (double)bins;
    for (int64_t i = 0; i <= bins; i++)
        edges[i] = step == 0 ? (double)i / (double)bins * (last - first) + first : (double)i * step + first;
    edges[bins] = last;
    memset(counts, 0, sizeof(int64_t) * (size_t)bins);
    double norm = (double)bins / (last - first);
    for (int64_t i = 0; i < n; i++) {
        double v = x[i];
        if (!(v >= first && v <= last))
            continue;
        int64_t k = (int64_t)((v - first) * norm);
        if (k == bins)
            k--;
        /* NumPy's correction for rounding near the edges */
        if (v < edges[k])
            k--;
        else if (v >= edges[k + 1] && k != bins - 1)
            k++;
        counts[k]++;
    }
    return 0;
}

double kj_np_median(const double *sorted, int64_t n) {
    if (isnan(sorted[n - 1]))
        return NAN;
    if (n % 2)
        return sorted[n / 2];
    return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;   /* NumPy's mean of the middle two */
}

/* NumPy's _quantile for method 'linear': virtual index (n - 1) * q between
 * two neighbours, and its _lerp, which counts from the upper neighbour for
 * weights of a half or more. At the top, both neighbours are the last
 * element and the weight is measured from index -1, as NumPy does. */
double kj_np_quantile(const double *sorted, int64_t n, double q) {
    if (isnan(sorted[n - 1]))
        return NAN;
    double at = (double)(n - 1) * q, gamma;
    int64_t lo, hi;
    if (at >= (double)(n - 1)) {
        lo = hi = n - 1;
        gamma = at + 1;
    } else {
        double below = floor(at);
        lo = (int64_t)below;
        hi = lo + 1;
        gamma = at - below;
    }
    double a = sorted[lo], b = sorted[hi], diff = b - a;
    return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

double kj_np_interp(double x, const double *xp, const double *fp, int64_t n, double left, double right) {
    if (n == 1)   /* NumPy's one-point case: a NaN x falls through to fp[0] */
        return x < xp[0] ? left : x > xp[0] ? right : fp[0];
    if (isnan(x))
        return x;
    if (x < xp[0])
        return left;
    if (x > xp[n - 1])
        return right;
    int64_t lo = 0, hi = n;   /* j: the last sample point <= x */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (xp[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t j = lo - 1;
    if (j == n - 1 || xp[j] == x)
        return fp[j];
    double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double r = slope * (x - xp[j]) + fp[j];
    if (isnan(r)) {   /* NumPy tries from the other end, then a flat segment's value */
        r = slope * (x - xp[j + 1]) + fp[j + 1];
        if (isnan(r) && fp[j] == fp[j + 1])
            r = fp[j];
    }
    return r;
}
