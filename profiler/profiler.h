/* profiler: timing records of compiles and calls, kept per process so that
 * the notebook face (kiln.ipython) can show per cell what was compiled and
 * how long compiled code ran. Public names are prefixed kp_.
 *
 * Thread safety: compile records may be added from any thread, with or
 * without the GIL (a mutex: compiles are rare and milliseconds long); call
 * records are kept under the GIL (see below). */
#ifndef KILN_PROFILER_H
#define KILN_PROFILER_H

#include <Python.h>
#include <stdbool.h>
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
 * means anything, and only to kp_call_timed(). Valid once the clock is
 * initialized (kp_module_init does it; kp_clock_init may be called earlier). */
extern int kp_ticks_are_tsc;  /* set once by kp_clock_init, read-only after */
void kp_clock_init(void);
static inline uint64_t kp_ticks(void) {
#if defined(__x86_64__)
    if (kp_ticks_are_tsc) {
        /* fenced on both sides: read once everything before has finished,
         * before anything after starts. Unfenced, the read that ends a short
         * call runs ahead of the call's last dependent instructions (a
         * 50-step float chain read as almost nothing); the fences' cost is
         * paid on timed calls only (bench/MEASURED.md). */
        __builtin_ia32_lfence();
        uint64_t t = __builtin_ia32_rdtsc();
        __builtin_ia32_lfence();
        return t;
    }
#endif
    return kp_now_ns();
}

/* Nanoseconds in `ticks` of kp_ticks(), and the other way. */
double kp_ticks_to_ns(uint64_t ticks);
uint64_t kp_ns_to_ticks(double ns);

/* Ticks that two back-to-back kp_ticks() read apart (a median measured at
 * initialization): what timing a call adds to the call's own ticks. */
uint64_t kp_ticks_overhead(void);

/* One finished compile of one function for one signature, or one load of
 * its machine code from the disk cache (cache=True), which stands for a
 * compile: then from_cache is set and load_ns is its time, the phases 0. */
typedef struct {
    const char *function;   /* qualified name, copied by the profiler */
    const char *signature;  /* e.g. "(float64, array(float64, 1d, C))", copied */
    const char *target;     /* "cpu", "cuda", "cuda-simulator", copied */
    uint64_t phase_ns[KP_PHASE_COUNT];
    bool from_cache;
    uint64_t load_ns;
} kp_compile_record;

/* Keeps a copy of the record. When memory runs out the record is dropped:
 * compiling goes on, only the report misses it. */
void kp_record_compile(const kp_compile_record *record);

/* ---- calls of compiled code ----
 *
 * Calls are recorded only while something will show them: kiln.ipython
 * records each notebook cell, whose footer reports them; a script, a test
 * or a benchmark pays one load and a branch. While recording, the count of
 * calls is exact, and so is the run time of calls long enough for the clock
 * (two fenced TSC reads) to be negligible; shorter calls are
 * timed on a sample (the team's decision, measured in
 * bench/profiler_overhead.py):
 *
 * - each compiled function (one record per specialization) has its first
 *   KP_EXACT_CALLS calls of a recording timed one by one;
 * - while its timed calls run under KP_SHORT_CALL_NS on average, and the
 *   last one did too, only one call in about KP_SAMPLE_EVERY is timed (at
 *   random gaps, so that a periodic pattern of arguments cannot line up
 *   with the samples), and the calls in between are estimated at the
 *   samples' mean; a long sample has the calls after it timed one by one
 *   again; and a sample over KP_INTERRUPTED_FACTOR times the mean counts
 *   only for itself: for a function under a microsecond such a call was
 *   most likely interrupted (preempted, a page fault), and weighing it as
 *   the calls it samples would turn one interruption into most of a cell.
 *   A total with estimated calls in it is flagged `estimated`.
 *
 * The price of sampling: once a function has shown itself short in a cell,
 * a long call of it later in the same cell is timed only if a sample lands
 * on it (and then counts for itself only), else it is estimated at the
 * short calls' mean: a short function's rare long calls are under-counted.
 * Each cell starts a new recording, which times every first call again.
 *
 * The dispatcher's fast path is then a counter increment and a compare
 * (kp_call_starts); the two clock reads and the bookkeeping (kp_call_timed)
 * run on the first calls, on long calls, and on the samples.
 *
 * Inside a cell, %timeit and %compare count their loops' calls without
 * timing any (untimed), so that what they measure is the dispatch a script
 * gets; the footer says those calls were timed there.
 *
 * Thread safety: records, switches and totals are changed and read only
 * with the GIL held (the dispatcher records before it releases the GIL for
 * a nogil call and after it takes it back), so plain loads and stores do. */
#define KP_EXACT_CALLS 16
#define KP_SHORT_CALL_NS 1000
#define KP_SAMPLE_EVERY 128
#define KP_INTERRUPTED_FACTOR 64

typedef enum { KP_CALLS_OFF, KP_CALLS_TIMED, KP_CALLS_UNTIMED } kp_calls_mode;

/* One specialization's calls in the current recording. The dispatcher makes
 * one per specialization (kp_calls_new) and gives it back when the
 * specialization goes (kp_calls_release); only kp_call_* touch the counts. */
typedef struct kp_calls {
    struct kp_call_counts {
        uint64_t calls;         /* calls while recording, not untimed: exact */
        uint64_t next_timed;    /* the call numbered above this is timed */
        uint64_t untimed;       /* calls counted in untimed loops */
        uint64_t timed;         /* calls timed, and their ticks */
        uint64_t timed_ticks;
        uint64_t samples;       /* of those, timed as samples of short calls */
        uint64_t sample_ticks;
        bool sampling;          /* the next timed call is a sample */
        bool linked;            /* on the recording's list (has calls in it) */
    } n;
    bool released;              /* its specialization went: freed when unlinked */
    PyObject *function;         /* str, owned: names it in reports */
    PyObject *signature;        /* str, owned */
    struct kp_calls *next;      /* on the recording's list */
} kp_calls;

extern kp_calls_mode kp_calls_mode_now;  /* set by the switches below, under the GIL */

/* Joins the current recording's list (first call in it). */
void kp_calls_link(kp_calls *r);

/* Called before each call of compiled code: whether to time it. */
static inline bool kp_call_starts(kp_calls *r) {
    if (__builtin_expect(kp_calls_mode_now == KP_CALLS_OFF, 1))
        return false;
    if (kp_calls_mode_now == KP_CALLS_UNTIMED) {
        if (!r->n.linked)
            kp_calls_link(r);
        r->n.untimed++;
        return false;
    }
    return ++r->n.calls > r->n.next_timed;
}

/* After a call kp_call_starts chose to time: `ticks` is the difference of
 * two kp_ticks() around it. Links the record on its first call and picks
 * the next call to time. */
void kp_call_timed(kp_calls *r, uint64_t ticks);

/* A zeroed record, or NULL when memory runs out. `function` and
 * `signature` (str) name it in reports; each is borrowed and kept with a
 * new reference. */
kp_calls *kp_calls_new(PyObject *function, PyObject *signature);

/* Gives the record back: freed now, or, when it has calls in the current
 * recording, as the next recording starts (its calls stay in the report
 * until then). NULL is fine. */
void kp_calls_release(kp_calls *r);

/* Add one user of the switch (on != 0) or remove one. Calls are recorded
 * while kp_record_calls has users, and counted untimed while
 * kp_untime_calls has users too. The first user of kp_record_calls starts
 * a new recording: every record starts again from zero. Each returns the
 * number of users left, or -1 when asked to remove one that was never
 * added (the count stays 0). */
int kp_record_calls(int on);
int kp_untime_calls(int on);

/* Calls `visit(record, ctx)` for each record with calls in the current (or
 * last) recording, stopping at the first nonzero return, which it returns. */
int kp_calls_each(int (*visit)(const kp_calls *record, void *ctx), void *ctx);

/* A record's run time in ns, less the clock's own share of each call
 * (kp_ticks_overhead): exact, or with the calls not timed estimated at
 * its samples' mean (*estimated set when any was). */
double kp_calls_ns(const kp_calls *r, bool *estimated);

/* Compile records recorded so far (the index of the next one). */
size_t kp_compile_count(void);

/* Fills *out with record number `index` (0 = first ever). Its strings stay
 * owned by the profiler, which never frees a record: they live until the
 * process exits. Returns 0, or -1 when no such record exists yet. */
int kp_compile_at(size_t index, kp_compile_record *out);

/* Adds the profiler's Python functions to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kp_module_init(PyObject *module);

/* Adds _kiln.profiler_costs(n) (bench.c), for bench/profiler_overhead.py.
 * Returns 0, or -1 with a Python exception set. */
int kp_bench_init(PyObject *module);

/* Adds _kiln.host_info() (LLVM's view of the host CPU, LLVM's version).
 * Returns 0, or -1 with a Python exception set. */
int kp_hostinfo_init(PyObject *module);

#endif
