/* rt_random: np.random in compiled code, on the runtime's per-thread
 * generator (runtime.c's xoshiro256**, seeded by np.random.seed or
 * random.seed in compiled code). The streams are Kiln's own: seeding
 * makes them repeatable, not equal to NumPy's. */
#ifndef KILN_JIT_RT_RANDOM_H
#define KILN_JIT_RT_RANDOM_H

#include <stdint.h>

/* np.random.seed: the generator, and the normal deviate kept back. */
void kj_np_seed(int64_t seed);
/* A standard normal deviate (Marsaglia's polar method). */
double kj_np_normal(void);
/* Shuffles n items of size bytes, stride bytes apart (Fisher-Yates). */
void kj_np_shuffle(void *data, int64_t n, int64_t stride, int64_t size);

#define KJ_RT_RANDOM_SYMBOLS                        \
    {"kj_np_seed", (void *)kj_np_seed},             \
    {"kj_np_normal", (void *)kj_np_normal},         \
    {"kj_np_shuffle", (void *)kj_np_shuffle},

#endif
