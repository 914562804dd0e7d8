/* profiler: timing records of compiles and calls, kept per process so that
 * the notebook face (kiln.ipython) can show per cell what was compiled and
 * how long compiled code ran. Public names are prefixed kp_.
 *
 * Thread safety: every kp_record_* may be called from any thread, with or
 * without the GIL held. A call adds to the calling thread's own totals, no
 * lock and no shared write (the dispatch hot path); compiles take a mutex
 * (rare, and already milliseconds long). */
#ifndef KILN_PROFILER_H
#define KILN_PROFILER_H

#include <Python.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    KP_PHASE_PARSE,     /* Python source -> Kiln IR */
    KP_PHASE_TYPING,    /* type inference */
    KP_PHASE_LOWERING,  /* Kiln IR -> LLVM IR */
    KP_PHASE_OPTIMIZE,  /* LLVM pass pipeline */
    KP_PHASE_CODEGEN,   /* machine code (ORC) or PTX */
    KP_PHASE_COUNT
} kp_phase;

/* Short lower-case name of a phase ("parse", "typing", ...), as Python sees it. */
const char *kp_phase_name(kp_phase phase);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC), for compile phases. */
uint64_t kp_now_ns(void);

/* The cheapest timestamp for timing one call on the dispatch path: the TSC
 * on x86-64 when it is invariant, else kp_now_ns(). Only a difference of two
 * means anything, and only to kp_record_call_ticks(). Valid once the clock is
 * initialized (kp_module_init does it; kp_clock_init may be called earlier). */
extern int kp_ticks_are_tsc;  /* set once by kp_clock_init, read-only after */
void kp_clock_init(void);
static inline uint64_t kp_ticks(void) {
#if defined(__x86_64__)
    if (kp_ticks_are_tsc)
        return __builtin_ia32_rdtsc();
#endif
    return kp_now_ns();
}

/* Nanoseconds in `ticks` of kp_ticks(). */
double kp_ticks_to_ns(uint64_t ticks);

/* One finished compile of one function for one signature. */
typedef struct {
    const char *function;   /* qualified name, copied by the profiler */
    const char *signature;  /* e.g. "(float64, array(float64, 1d, C))", copied */
    const char *target;     /* "cpu", "cuda", "cuda-simulator", copied */
    uint64_t phase_ns[KP_PHASE_COUNT];
} kp_compile_record;

/* Keeps a copy of the record. When memory runs out the record is dropped:
 * compiling goes on, only the report misses it. */
void kp_record_compile(const kp_compile_record *record);

/* What the dispatcher records of each call. Timing costs two kp_ticks() and
 * a per-thread add per call (about 20 ns with the TSC on an AMD EPYC, as
 * much as the rest of a dispatch), so calls are recorded only while
 * something will show them: kiln.ipython records them for each cell, whose
 * footer reports them; a script, a test or a benchmark pays one load and a
 * branch. Inside a cell, %timeit and %compare count their loops' calls
 * without timing them, so that what they measure is the dispatch a script
 * gets, and the footer says those calls were timed there.
 *
 * Each switch is a count, not a flag, so that nested users each switch it
 * on and off without undoing another's: calls are recorded while
 * kp_calls_recorders > 0, and only counted while kp_calls_untimers > 0 too.
 * Changed only by kp_record_calls() / kp_untime_calls() (compare-and-swap,
 * from any thread); read by the dispatcher with relaxed loads: a call that
 * starts as a switch flips may go either way. */
typedef enum { KP_CALLS_OFF, KP_CALLS_COUNTED, KP_CALLS_TIMED } kp_calls_mode;
extern _Atomic int kp_calls_recorders, kp_calls_untimers;
static inline kp_calls_mode kp_calls_recording(void) {
    if (atomic_load_explicit(&kp_calls_recorders, memory_order_relaxed) <= 0)
        return KP_CALLS_OFF;
    return atomic_load_explicit(&kp_calls_untimers, memory_order_relaxed) > 0 ? KP_CALLS_COUNTED
                                                                              : KP_CALLS_TIMED;
}
/* Add one user of the switch (on != 0) or remove one. Each returns the
 * number left, or -1 when asked to remove one that was never added (the
 * count stays 0). */
int kp_record_calls(int on);
int kp_untime_calls(int on);

/* One call counted, not timed (KP_CALLS_COUNTED). */
void kp_record_untimed_call(void);

/* Time spent inside compiled code by one call from Python (the dispatcher
 * adds it after each call returns, while KP_CALLS_TIMED). These record
 * whenever called: the switch is the caller's to check. The _ticks form
 * takes a difference of kp_ticks() and is the cheaper pair on the hot path:
 *     uint64_t t0 = kp_ticks(); ...call...; kp_record_call_ticks(kp_ticks() - t0); */
void kp_record_call(uint64_t elapsed_ns);
void kp_record_call_ticks(uint64_t elapsed_ticks);

/* Totals since the process started, summed over threads; a reader
 * subtracts two snapshots. A call still running on another thread shows up
 * in the snapshot after it returns. */
typedef struct {
    uint64_t calls;     /* kp_record_call count */
    uint64_t call_ns;   /* sum of their elapsed_ns */
    uint64_t untimed_calls;  /* kp_record_untimed_call count */
    size_t compiles;    /* kp_record_compile count (index of the next record) */
} kp_counters;

kp_counters kp_snapshot(void);

/* Fills *out with record number `index` (0 = first ever). Its strings stay
 * owned by the profiler, which never frees a record: they live until the
 * process exits. Returns 0, or -1 when no such record exists yet. */
int kp_compile_at(size_t index, kp_compile_record *out);

/* Adds the profiler's Python functions to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kp_module_init(PyObject *module);

/* Adds _kiln.host_info() (LLVM's view of the host CPU, LLVM's version).
 * Returns 0, or -1 with a Python exception set. */
int kp_hostinfo_init(PyObject *module);

#endif
