/* runtime: host support for compiled code. Everything here may run without
 * the GIL (nogil functions): it touches only thread-local state, or the
 * interrupt flag, which is a sig_atomic_t written by the signal handler. */
#include "jit/runtime/runtime.h"
#include "jit/runtime/pool.h"

#include <math.h>
#include <string.h>
#include <time.h>

volatile sig_atomic_t kj_interrupt_flag;

static _Thread_local kj_rt_error pending;

void kj_rt_raise(PyObject *cls, const char *msg) {
    /* an allocation the runtime refused for want of stack (fault.h) said
     * why: the MemoryError its caller raises next only echoes it */
    if (cls == PyExc_MemoryError && pending.cls == PyExc_RecursionError)
        return;
    pending.cls = cls;
    pending.msg = msg;
}

/* PyType_IsSubtype only reads the classes' MROs (builtin exception
 * classes, or ones the compiled function keeps alive): safe without the GIL */
int kj_rt_error_matches(PyObject *cls) {
    PyTypeObject *got = (PyTypeObject *)pending.cls;
    return got && got != (PyTypeObject *)PyExc_KeyboardInterrupt && PyType_IsSubtype(got, (PyTypeObject *)cls);
}

void kj_rt_clear_error(void) {
    pending.cls = NULL;
    pending.msg = NULL;
}

kj_rt_error kj_rt_take_error(void) {
    kj_rt_error e = pending;
    pending.cls = NULL;
    pending.msg = NULL;
    return e;
}

/* ---- random: xoshiro256** per thread, seeded from the clock unless
 * random.seed() is called in compiled code ---- */

static _Thread_local uint64_t rng[4];
static _Thread_local int rng_ready;

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void kj_rt_seed(int64_t seed) {
    uint64_t x = (uint64_t)seed;
    for (int i = 0; i < 4; i++)
        rng[i] = splitmix(&x);
    rng_ready = 1;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next_u64(void) {
    if (!rng_ready) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        kj_rt_seed((int64_t)(ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uintptr_t)&rng));
    }
    uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
    rng[2] ^= rng[0];
    rng[3] ^= rng[1];
    rng[1] ^= rng[2];
    rng[0] ^= rng[3];
    rng[2] ^= t;
    rng[3] = rotl(rng[3], 45);
    return r;
}

double kj_rt_random(void) { return (double)(next_u64() >> 11) * 0x1.0p-53; }

uint64_t *kj_rt_rng_state(void) {
    if (!rng_ready)
        next_u64();   /* seeds */
    return rng;
}

int64_t kj_rt_randint(int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    if (span == 0)   /* the whole 64-bit range */
        return (int64_t)next_u64();
    uint64_t limit = UINT64_MAX - UINT64_MAX % span, r;
    do
        r = next_u64();
    while (r >= limit);
    return (int64_t)((uint64_t)lo + r % span);
}

/* ---- complex powers ---- */

/* x / y by Smith's method (no overflow in the intermediate c*c + d*d);
 * y is never zero here */
static void c_quot(double a, double b, double c, double d, double *re, double *im) {
    if (fabs(c) >= fabs(d)) {
        double r = d / c, den = c + d * r;
        *re = (a + b * r) / den;
        *im = (b - a * r) / den;
    } else {
        double r = c / d, den = c * r + d;
        *re = (a * r + b) / den;
        *im = (b * r - a) / den;
    }
}

int kj_rt_cpow(double ar, double ai, double br, double bi, double *out) {
    out[0] = 1.0;
    out[1] = 0.0;
    if (br == 0.0 && bi == 0.0)
        return 0;
    if (ar == 0.0 && ai == 0.0) {
        out[0] = 0.0;
        return bi != 0.0 || br < 0.0 ? 1 : 0;
    }
    if (bi == 0.0 && br == floor(br) && fabs(br) <= 100.0) {
        /* binary powering, then 1/x for a negative exponent, as CPython */
        long n = (long)fabs(br);
        double rr = 1.0, ri = 0.0, pr = ar, pi = ai;
        for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
            if (n & mask) {
                double t = rr * pr - ri * pi;
                ri = rr * pi + ri * pr;
                rr = t;
            }
            double t = pr * pr - pi * pi;
            pi = 2.0 * pr * pi;
            pr = t;
        }
        if (br < 0) {
            if (rr == 0.0 && ri == 0.0)
                return 1;
            c_quot(1.0, 0.0, rr, ri, &rr, &ri);
        }
        out[0] = rr;
        out[1] = ri;
    } else {
        double vabs = hypot(ar, ai), len = pow(vabs, br), at = atan2(ai, ar), phase = at * br;
        if (bi != 0.0) {
            len /= exp(at * bi);
            phase += bi * log(vabs);
        }
        out[0] = len * cos(phase);
        out[1] = len * sin(phase);
    }
    return isinf(out[0]) || isinf(out[1]) ? 2 : 0;
}

/* ---- integers: wrap at 64 bits like the rest of compiled arithmetic ---- */

int64_t kj_rt_ipow(int64_t base, int64_t exp) {
    uint64_t r = 1, b = (uint64_t)base;
    while (exp > 0) {
        if (exp & 1)
            r *= b;
        b *= b;
        exp >>= 1;
    }
    return (int64_t)r;
}

int64_t kj_rt_powmod(int64_t base, int64_t exp, int64_t mod) {
    __int128 r = 1, b = base % mod;
    if (b < 0)
        b += mod < 0 ? -mod : mod;
    while (exp > 0) {
        if (exp & 1)
            r = (r * b) % mod;
        b = (b * b) % mod;
        exp >>= 1;
    }
    int64_t x = (int64_t)r;
    if (x != 0 && ((x < 0) != (mod < 0)))
        x += mod;
    return x;
}

int64_t kj_rt_gcd(int64_t a, int64_t b) {
    uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (int64_t)x;
}

int64_t kj_rt_factorial(int64_t n) {
    uint64_t r = 1;
    for (int64_t i = 2; i <= n && r != 0; i++)   /* 0 once a factor of 2^64 is in */
        r *= (uint64_t)i;
    return (int64_t)r;
}

int64_t kj_rt_isqrt(int64_t n) {
    uint64_t x = (uint64_t)sqrt((double)n);
    while (x * x > (uint64_t)n)   /* the double may be one off either way */
        x--;
    while ((x + 1) * (x + 1) <= (uint64_t)n)
        x++;
    return (int64_t)x;
}

int64_t kj_rt_perm(int64_t n, int64_t k) {
    if (k > n)
        return 0;
    uint64_t r = 1;
    for (int64_t i = 0; i < k; i++)
        r *= (uint64_t)(n - i);
    return (int64_t)r;
}

int64_t kj_rt_comb(int64_t n, int64_t k) {
    if (k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    /* exact while the running value fits in 128 bits */
    unsigned __int128 r = 1;
    for (int64_t i = 1; i <= k; i++)
        r = r * (unsigned __int128)(n - k + i) / (unsigned __int128)i;
    return (int64_t)(uint64_t)r;
}

/* ---- interrupt ---- */

void kj_rt_error_to_python(kj_rt_error e) {
    if (e.cls == PyExc_KeyboardInterrupt || !e.cls) {
        kj_interrupt_flag = 0;
        if (PyErr_CheckSignals() < 0)   /* CPython's handler raised it */
            return;
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return;
    }
    if (e.msg && e.msg[0] == KJ_RT_VALUE_MARK[0]) {
        PyObject *ast = PyImport_ImportModule("ast");
        PyObject *v = ast ? PyObject_CallMethod(ast, "literal_eval", "s", e.msg + 1) : NULL;
        Py_XDECREF(ast);
        if (!v) {   /* inf, nan: the text itself */
            PyErr_Clear();
            v = PyUnicode_FromString(e.msg + 1);
        }
        PyObject *exc = v ? PyObject_CallOneArg(e.cls, v) : NULL;   /* one argument, a tuple too */
        if (exc)
            PyErr_SetObject(e.cls, exc);
        Py_XDECREF(exc);
        Py_XDECREF(v);
    } else if (e.msg) {
        PyErr_SetString(e.cls, e.msg);
    } else {
        PyErr_SetNone(e.cls);
    }
}

void kj_cfunc_report(const char *name) {
    kj_rt_error e = kj_rt_take_error();
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *saved_type, *saved_value, *saved_tb;   /* a C caller inside Python may have its own exception */
    PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
    kj_rt_error_to_python(e);
    if (PyErr_Occurred()) {
        PyObject *where = PyUnicode_FromFormat("kiln cfunc %s", name);
        PyErr_WriteUnraisable(where);
        Py_XDECREF(where);
    }
    PyErr_Restore(saved_type, saved_value, saved_tb);
    PyGILState_Release(g);
}

static struct sigaction previous;

/* Sets the flag compiled loops poll, then lets the previous handler
 * (CPython's) record the signal so KeyboardInterrupt is raised in Python. */
static void on_sigint(int sig, siginfo_t *info, void *uctx) {
    kj_interrupt_flag = 1;
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction)
            previous.sa_sigaction(sig, info, uctx);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
               previous.sa_handler) {
        previous.sa_handler(sig);
    } else if (previous.sa_handler == SIG_DFL) {
        /* nobody else wants it: the default action (terminate) as before */
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* Puts on_sigint in front of whatever handles SIGINT now, unless it is there
 * already. No SA_RESTART: as under CPython's own handler, a system call the
 * signal lands in returns EINTR, so that Python runs its handler there
 * (Event.wait, os.read, recv, waitpid...) instead of blocking on. */
static int chain_sigint(void) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);   /* no SIGINT between reading and replacing */
    struct sigaction current, sa;
    int rc = sigaction(SIGINT, NULL, &current);
    if (rc == 0 && !((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigint)) {
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigint;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        previous = current;
        rc = sigaction(SIGINT, &sa, NULL);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        PyErr_SetFromErrno(PyExc_OSError);
    return rc;
}

/* _signal.signal as CPython defines it. Every Python-level change of a
 * handler (signal.signal, asyncio.run installing and restoring its own)
 * goes through it, and CPython then installs its C handler in place of
 * on_sigint: compiled loops would never see another interrupt. */
static PyObject *python_signal;

/* _signal.signal(signalnum, handler), and for SIGINT with a Python
 * handler, on_sigint back in front of it. SIG_IGN and SIG_DFL are left as
 * the caller set them: ignored, or the end of the process. */
static PyObject *signal_keeping_kiln(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    PyObject *r = PyObject_Vectorcall(python_signal, args, (size_t)nargs, NULL);
    if (r && nargs == 2 && PyLong_AsLong(args[0]) == SIGINT && PyCallable_Check(args[1]) &&
        chain_sigint() < 0)
        Py_CLEAR(r);
    return r;
}

static PyMethodDef signal_keeping_kiln_def = {
    "signal", (PyCFunction)(void (*)(void))signal_keeping_kiln, METH_FASTCALL,
    "signal(signalnum, handler) as _signal.signal; Kiln's SIGINT handler stays in front of a "
    "Python handler so that compiled loops stay interruptible."};

int kj_install_interrupt_handler(void) {
    static int installed;
    if (installed)
        return 0;
    PyObject *mod = PyImport_ImportModule("_signal");
    python_signal = mod ? PyObject_GetAttrString(mod, "signal") : NULL;
    PyObject *wrapper = python_signal ? PyCFunction_New(&signal_keeping_kiln_def, NULL) : NULL;
    int rc = wrapper ? PyObject_SetAttrString(mod, "signal", wrapper) : -1;
    Py_XDECREF(wrapper);
    Py_XDECREF(mod);
    if (rc < 0 || chain_sigint() < 0)
        return -1;
    installed = 1;
    return 0;
}

const kj_symbol kj_runtime_symbols[] = {
    {"kj_rt_raise", (void *)kj_rt_raise},
    {"kj_rt_error_matches", (void *)kj_rt_error_matches},
    {"kj_rt_clear_error", (void *)kj_rt_clear_error},
    {"kj_rt_take_error", (void *)kj_rt_take_error},   /* except ... as e: raise e (lower.c) */
    {"kj_rt_random", (void *)kj_rt_random},
    {"kj_cfunc_report", (void *)kj_cfunc_report},   /* kiln.cfunc's wrapper (cfunc.c) */
    {"kj_rt_rng_state", (void *)kj_rt_rng_state},
    {"kj_rt_seed", (void *)kj_rt_seed},
    {"kj_rt_randint", (void *)kj_rt_randint},
    {"kj_rt_ipow", (void *)kj_rt_ipow},
    {"kj_rt_powmod", (void *)kj_rt_powmod},
    {"kj_rt_gcd", (void *)kj_rt_gcd},
    {"kj_rt_factorial", (void *)kj_rt_factorial},
    {"kj_rt_isqrt", (void *)kj_rt_isqrt},
    {"kj_rt_comb", (void *)kj_rt_comb},
    {"kj_rt_perm", (void *)kj_rt_perm},
    {"kj_rt_cpow", (void *)kj_rt_cpow},
    {"kj_pool_run", (void *)kj_pool_run},   /* prange loops (parallel_lower.c) */
    {"kj_pool_threads", (void *)kj_pool_threads},   /* chunks of a loop turned inside out (parallel_interchange.c) */
    {"kj_interrupt_flag", (void *)&kj_interrupt_flag},
    {NULL, NULL},
};
