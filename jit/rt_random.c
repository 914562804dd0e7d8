/* rt_random: the random deviates compiled NumPy code needs beyond the
 * runtime's uniform ones (runtime.c). Per-thread state only. */
#include "jit/rt_random.h"
#include "jit/runtime.h"

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
