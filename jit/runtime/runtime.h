/* runtime: what compiled code calls into on the host: exceptions, the
 * interrupt flag, random numbers, integer helpers. The engine makes these
 * symbols visible to JIT-compiled code (kj_runtime_symbols). */
#ifndef KILN_JIT_RUNTIME_H
#define KILN_JIT_RUNTIME_H

#include <Python.h>
#include <signal.h>
#include <stdint.h>

/* Set by the SIGINT handler, polled by compiled loops; cleared by the
 * dispatcher when a call starts and when it reports the interrupt. */
extern volatile sig_atomic_t kj_interrupt_flag;

/* The exception compiled code raised on this thread (class borrowed: a
 * builtin or kept alive by the compiled function's unit; msg a constant of
 * the compiled code or NULL). */
typedef struct {
    PyObject *cls;
    const char *msg;
} kj_rt_error;

void kj_rt_raise(PyObject *cls, const char *msg);
/* A message starting with this mark is the repr of the exception's one
 * argument (a number or a tuple of them), which becomes that value again:
 * KeyError(5), as Python raises it. */
#define KJ_RT_VALUE_MARK "\x01"
/* Takes the pending error of this thread (cls NULL if none). */
kj_rt_error kj_rt_take_error(void);
/* e as the Python exception (GIL held): a KeyboardInterrupt (or no error:
 * the loop stopped for the interrupt flag) consumes CPython's own record
 * of the SIGINT, so that it is not raised a second time after the call. */
void kj_rt_error_to_python(kj_rt_error e);
/* What a kiln.cfunc's wrapper (cfunc.c) calls when the function raised:
 * the exception goes to sys.unraisablehook (a C caller cannot receive it),
 * and the wrapper returns zero, as Numba's cfuncs do. */
void kj_cfunc_report(const char *name);
/* For try / except in compiled code: whether the pending error's class is
 * cls or a subclass of it (never for KeyboardInterrupt, which compiled code
 * does not catch), and dropping the error once a handler took it. */
int kj_rt_error_matches(PyObject *cls);
void kj_rt_clear_error(void);

double kj_rt_random(void);
/* This thread's xoshiro256** state (4 words), seeded on first use. Compiled
 * code inlines the generator on it; the pointer is fixed per thread, so the
 * call is declared free of memory effects and hoisted out of loops. */
uint64_t *kj_rt_rng_state(void);
void kj_rt_seed(int64_t seed);
int64_t kj_rt_randint(int64_t lo, int64_t hi);
int64_t kj_rt_ipow(int64_t base, int64_t exp);
int64_t kj_rt_powmod(int64_t base, int64_t exp, int64_t mod);
int64_t kj_rt_gcd(int64_t a, int64_t b);
/* math.factorial, isqrt, comb, perm on non-negative arguments (compiled
 * code checks the sign first), wrapping at 64 bits. */
int64_t kj_rt_factorial(int64_t n);
int64_t kj_rt_isqrt(int64_t n);
int64_t kj_rt_comb(int64_t n, int64_t k);
int64_t kj_rt_perm(int64_t n, int64_t k);
/* complex a ** b as CPython computes it (repeated multiplication for a
 * whole exponent up to 100, the polar form otherwise), into out[0..1].
 * Returns 0, 1 for 0.0 to a negative or complex power (ZeroDivisionError),
 * or 2 when the result overflows (OverflowError). */
int kj_rt_cpow(double ar, double ai, double br, double bi, double *out);

/* Installs the SIGINT handler (once; chains to the handler it replaces,
 * without SA_RESTART, so a blocked system call returns to Python) and
 * wraps _signal.signal, so that a handler Python code sets later (asyncio's
 * too) finds Kiln's back in front of it: compiled loops stay interruptible.
 * Returns 0 or -1 with a Python exception set. */
int kj_install_interrupt_handler(void);

/* Name/address pairs of everything above that compiled code may reference. */
typedef struct {
    const char *name;
    void *addr;
} kj_symbol;
extern const kj_symbol kj_runtime_symbols[];

#endif
