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
/* Deviates of NumPy's other distributions, their parameters already
 * checked by the generated code (NumPy's messages): a standard
 * exponential; Poisson (multiplication below lam 10, Hoermann's PTRS
 * above, as NumPy); binomial (inversion below n*min(p, 1-p) 10, Hoermann's
 * BTRS above); geometric (trials to the first success, by inversion). */
double kj_np_exponential(void);
int64_t kj_np_poisson(double lam);
int64_t kj_np_binomial(int64_t n, double p);
int64_t kj_np_geometric(double p);
/* Shuffles n items of size bytes, stride bytes apart (Fisher-Yates). */
void kj_np_shuffle(void *data, int64_t n, int64_t stride, int64_t size);

#define KJ_RT_RANDOM_SYMBOLS                        \
    {"kj_np_seed", (void *)kj_np_seed},             \
    {"kj_np_normal", (void *)kj_np_normal},         \
    {"kj_np_shuffle", (void *)kj_np_shuffle},       \
    {"kj_np_exponential", (void *)kj_np_exponential}, \
    {"kj_np_poisson", (void *)kj_np_poisson},       \
    {"kj_np_binomial", (void *)kj_np_binomial},     \
    {"kj_np_geometric", (void *)kj_np_geometric},

#endif
