/* rt_random: the random deviates compiled NumPy code needs beyond the
 * runtime's uniform ones (runtime.c). Per-thread state only. */
#include "jit/runtime/rt_random.h"
#include "jit/runtime/runtime.h"

#include <math.h>
#include <string.h>

static _Thread_local double spare;
static _Thread_local int has_spare;

void kj_np_seed(int64_t seed) {
    kj_rt_seed(seed);
    has_spare = 0;
}

double kj_np_normal(void) {
    if (has_spare) {
        has_spare = 0;
        return spare;
    }
    double u, v, s;
    do {
        u = 2.0 * kj_rt_random() - 1.0;
        v = 2.0 * kj_rt_random() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * log(s) / s);
    spare = v * f;
    has_spare = 1;
    return u * f;
}

double kj_np_exponential(void) {
    return -log1p(-kj_rt_random());   /* 1 - U lies in (0, 1]: no log(0) */
}

/* Hoermann (1993), "The transformed rejection method for generating
 * Poisson random variables", algorithm PTRS. */
static int64_t poisson_ptrs(double lam) {
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = kj_rt_random() - 0.5, v = kj_rt_random(), us = 0.5 - fabs(u);
        double k = floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr)
            return (int64_t)k;
        if (k < 0 || (us < 0.013 && v > us))
            continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1))
            return (int64_t)k;
    }
}

int64_t kj_np_poisson(double lam) {
    if (lam >= 10)
        return poisson_ptrs(lam);
    double limit = exp(-lam), prod = 1.0;
    int64_t k = -1;
    do {
        k++;
        prod *= kj_rt_random();
    } while (prod > limit);
    return k;
}

/* Hoermann (1993), "The generation of binomial random variates",
 * algorithm BTRS, for p <= 1/2 and n * p >= 10. */
static int64_t binomial_btrs(int64_t n, double p) {
    double q = 1 - p, spq = sqrt(n * p * q), b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
    double c = n * p + 0.5, vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = log(p / q);
    double m = floor((n + 1) * p), h = lgamma(m + 1) + lgamma(n - m + 1);
    for (;;) {
        double u = kj_rt_random() - 0.5, v = kj_rt_random(), us = 0.5 - fabs(u);
        double k = floor((2 * a / us + b) * u + c);
        if (k < 0 || k > n)
            continue;
        if (us >= 0.07 && v <= vr)
            return (int64_t)k;
        v = log(v * alpha / (a / (us * us) + b));
        if (v <= h - lgamma(k + 1) - lgamma(n - k + 1) + (k - m) * lpq)
            return (int64_t)k;
    }
}

/* The count of successes by walking the distribution from 0. */
static int64_t binomial_inversion(int64_t n, double p) {
    double q = 1 - p, s = p / q, a = (n + 1) * s, r = pow(q, (double)n), u = kj_rt_random();
    int64_t x = 0;
    while (u > r && x < n) {
        u -= r;
        x++;
        r *= a / (double)x - s;
    }
    return x;
}

int64_t kj_np_binomial(int64_t n, double p) {
    if (n == 0 || p == 0)
        return 0;
    double pp = p <= 0.5 ? p : 1 - p;   /* counted as failures when p > 1/2 */
    int64_t k = pp == 0 ? 0 : n * pp >= 10 ? binomial_btrs(n, pp) : binomial_inversion(n, pp);
    return p <= 0.5 ? k : n - k;
}

int64_t kj_np_geometric(double p) {
    if (p >= 1)
        return 1;
    double k = ceil(log1p(-kj_rt_random()) / log1p(-p));
    return k < 1 ? 1 : (int64_t)k;
}

void kj_np_shuffle(void *data, int64_t n, int64_t stride, int64_t size) {
    char tmp[16], *d = data;
    if (size > (int64_t)sizeof tmp)
        return;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = kj_rt_randint(0, i);
        memcpy(tmp, d + i * stride, (size_t)size);
        memcpy(d + i * stride, d + j * stride, (size_t)size);
        memcpy(d + j * stride, tmp, (size_t)size);
    }
}
