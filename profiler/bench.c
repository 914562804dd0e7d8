/* _kiln.profiler_costs(n): what each part of recording a call costs, each
 * timed in C over n rounds around an empty indirect call (the stand-in for
 * compiled code), for bench/profiler_overhead.py to set beside a whole
 * dispatch. The clocks it compares are the candidates for timing a call;
 * an unfenced rdtsc is cheaper but lets the read that ends a call run
 * ahead of the call's last instructions (profiler.h, kp_ticks);
 * the adds are the bookkeeping designs (a shared atomic total, per-thread
 * totals as Kiln kept before, the per-specialization record it keeps now).
 * It starts a recording of its own (one record, given back), so it is not
 * for use inside a cell that is being recorded. */
#include "profiler/profiler.h"

#include <stdatomic.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* The stand-in for compiled code: called through a volatile pointer so that
 * neither the call nor the loop around it is optimized away. */
static __attribute__((noinline)) int empty_call(void) { return 0; }
static int (*volatile call_target)(void) = empty_call;

static _Atomic uint64_t shared_total;
static _Thread_local uint64_t thread_total;

typedef enum {
    COST_CALL,          /* the empty call alone: subtracted by the reader */
    COST_RDTSC,
    COST_RDTSCP,
    COST_LFENCE_RDTSC,
    COST_CLOCK_GETTIME,
    COST_ATOMIC_ADD,
    COST_THREAD_ADD,
    COST_RECORD_OFF,
    COST_RECORD_SHORT,
    COST_RECORD_LONG,
    COST_COUNT
} cost;

static const char *const cost_names[COST_COUNT] = {
    [COST_CALL] = "empty call",
    [COST_RDTSC] = "2 x rdtsc",
    [COST_RDTSCP] = "2 x rdtscp",
    [COST_LFENCE_RDTSC] = "2 x lfence;rdtsc;lfence (kp_ticks)",
    [COST_CLOCK_GETTIME] = "2 x clock_gettime(MONOTONIC)",
    [COST_ATOMIC_ADD] = "atomic add to a shared total",
    [COST_THREAD_ADD] = "add to a thread-local total",
    [COST_RECORD_OFF] = "record: off",
    [COST_RECORD_SHORT] = "record: short calls (sampled)",
    [COST_RECORD_LONG] = "record: long calls (every call timed)",
};

/* ns per round of `what`, n rounds, each around one empty call. */
static double run(cost what, long n, kp_calls *r) {
    uint64_t sink = 0;
    /* the long calls' record sees each call as this much longer than it is,
     * so that it times every one, as it does real calls over the threshold */
    uint64_t stretch = kp_ns_to_ticks(10.0 * KP_SHORT_CALL_NS);
    uint64_t start = kp_now_ns();
    for (long i = 0; i < n; i++) {
        switch (what) {
#if defined(__x86_64__)
        case COST_RDTSC: {
            uint64_t t0 = __rdtsc();
            sink += (uint64_t)call_target();
            sink += __rdtsc() - t0;
            break;
        }
        case COST_RDTSCP: {
            unsigned aux;
            uint64_t t0 = __rdtscp(&aux);
            sink += (uint64_t)call_target();
            sink += __rdtscp(&aux) - t0;
            break;
        }
        case COST_LFENCE_RDTSC: {
            _mm_lfence();
            uint64_t t0 = __rdtsc();
            _mm_lfence();
            sink += (uint64_t)call_target();
            _mm_lfence();
            sink += __rdtsc() - t0;
            _mm_lfence();
            break;
        }
#endif
        case COST_CLOCK_GETTIME: {
            uint64_t t0 = kp_now_ns();
            sink += (uint64_t)call_target();
            sink += kp_now_ns() - t0;
            break;
        }
        case COST_ATOMIC_ADD:
            sink += (uint64_t)call_target();
            atomic_fetch_add_explicit(&shared_total, 1, memory_order_relaxed);
            break;
        case COST_THREAD_ADD:
            sink += (uint64_t)call_target();
            thread_total++;
            break;
        case COST_RECORD_OFF:
        case COST_RECORD_SHORT:
        case COST_RECORD_LONG: {
            /* as jit/dispatch/dispatch.c does it */
            bool timed = kp_call_starts(r);
            uint64_t t0 = timed ? kp_ticks() : 0;
            sink += (uint64_t)call_target();
            if (timed)
                kp_call_timed(r, kp_ticks() - t0 + (what == COST_RECORD_LONG ? stretch : 0));
            break;
        }
        default:
            sink += (uint64_t)call_target();
            break;
        }
    }
    uint64_t stop = kp_now_ns();
    __asm__ volatile("" : : "r"(sink));
    return (double)(stop - start) / (double)n;
}

/* Adds name: ns per round to dict. Returns 0, or -1 with an exception. */
static int put(PyObject *dict, cost what, double ns) {
    PyObject *v = PyFloat_FromDouble(ns);
    int failed = !v || PyDict_SetItemString(dict, cost_names[what], v) < 0;
    Py_XDECREF(v);
    return failed ? -1 : 0;
}

static PyObject *costs(PyObject *self, PyObject *arg) {
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "profiler_costs: n must be > 0");
        return NULL;
    }
    PyObject *result = PyDict_New();  /* owned here until returned */
    kp_calls *r = kp_calls_new(NULL, NULL);
    if (!result || !r) {
        Py_XDECREF(result);
        kp_calls_release(r);
        return result ? PyErr_NoMemory() : NULL;
    }
    int failed = 0;
    for (cost what = COST_CALL; !failed && what < COST_COUNT; what++) {
#if !defined(__x86_64__)
        if (what == COST_RDTSC || what == COST_RDTSCP || what == COST_LFENCE_RDTSC)
            continue;
#endif
        bool recording = what == COST_RECORD_SHORT || what == COST_RECORD_LONG;
        if (recording)
            kp_record_calls(1);  /* a new recording: the record starts from zero */
        failed = put(result, what, run(what, n, r));
        if (recording)
            kp_record_calls(0);
    }
    kp_calls_release(r);
    if (failed)
        Py_CLEAR(result);
    return result;
}

static PyMethodDef bench_methods[] = {
    {"profiler_costs", costs, METH_O,
     "profiler_costs(n) -> {part: ns per call}: the clocks and bookkeeping a recorded call could "
     "pay, each averaged over n rounds around an empty call ('empty call' alone is one entry)."},
    {NULL, NULL, 0, NULL},
};

int kp_bench_init(PyObject *module) { return PyModule_AddFunctions(module, bench_methods); }
