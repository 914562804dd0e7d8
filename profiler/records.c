/* The profiler's store. Call totals are kept per thread (the dispatch hot
 * path must neither lock nor bounce a shared cache line between threads):
 * each thread adds to its own block with plain relaxed loads and stores, and
 * readers sum every block. Compile records sit in an append-only array under
 * a mutex. Nothing is ever freed: readers may keep pointers to record
 * strings, and a finished thread's block keeps its totals (40 bytes per
 * thread that ever called compiled code). */
#include "profiler/profiler.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* One thread's call totals. Only that thread writes them; atomics make the
 * readers' loads well-defined, and relaxed order is enough for totals. */
typedef struct thread_totals {
    _Atomic uint64_t calls;
    _Atomic uint64_t ns;     /* from kp_record_call */
    _Atomic uint64_t ticks;  /* from kp_record_call_ticks */
    _Atomic uint64_t untimed;  /* kp_record_untimed_call count (not in calls) */
    struct thread_totals *next;  /* set before the block is published */
} thread_totals;

static _Atomic(thread_totals *) all_threads;  /* lock-free push-only list */
static _Thread_local thread_totals *this_thread;
/* Where calls go when a thread's block cannot be allocated. */
static thread_totals shared_fallback;

/* Protects compile_records, compile_count and compile_capacity. */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;
static kp_compile_record *compile_records;
static size_t compile_count;
static size_t compile_capacity;

static const char *const phase_names[KP_PHASE_COUNT] = {
    [KP_PHASE_PARSE] = "parse",       [KP_PHASE_TYPING] = "typing",
    [KP_PHASE_LOWERING] = "lowering", [KP_PHASE_OPTIMIZE] = "optimize",
    [KP_PHASE_CODEGEN] = "codegen",
};

const char *kp_phase_name(kp_phase phase) {
    return (unsigned)phase < KP_PHASE_COUNT ? phase_names[phase] : "?";
}

/* The calling thread's block, allocated and published on its first call. */
static thread_totals *register_thread(void) {
    thread_totals *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->next = atomic_load_explicit(&all_threads, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&all_threads, &t->next, t, memory_order_release,
                                                  memory_order_relaxed))
        ;
    this_thread = t;
    return t;
}

static void add_relaxed(_Atomic uint64_t *total, uint64_t amount) {
    atomic_store_explicit(total, atomic_load_explicit(total, memory_order_relaxed) + amount,
                          memory_order_relaxed);
}

enum { IN_NS, IN_TICKS, UNTIMED };

/* Adds one call and `amount` to the ns or ticks total of this thread, or
 * one untimed call. */
static inline void record(int what, uint64_t amount) {
    thread_totals *t = this_thread;
    if (__builtin_expect(t == NULL, 0) && (t = register_thread()) == NULL) {
        /* Shared by every thread that failed to allocate: needs real atomics. */
        if (what == UNTIMED) {
            atomic_fetch_add_explicit(&shared_fallback.untimed, 1, memory_order_relaxed);
            return;
        }
        atomic_fetch_add_explicit(&shared_fallback.calls, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(what == IN_TICKS ? &shared_fallback.ticks : &shared_fallback.ns, amount,
                                  memory_order_relaxed);
        return;
    }
    if (what == UNTIMED) {
        add_relaxed(&t->untimed, 1);
        return;
    }
    add_relaxed(&t->calls, 1);
    add_relaxed(what == IN_TICKS ? &t->ticks : &t->ns, amount);
}

void kp_record_call(uint64_t elapsed_ns) { record(IN_NS, elapsed_ns); }

void kp_record_call_ticks(uint64_t elapsed_ticks) { record(IN_TICKS, elapsed_ticks); }

void kp_record_untimed_call(void) { record(UNTIMED, 0); }

_Atomic int kp_calls_recorders, kp_calls_untimers;

static int switch_count(_Atomic int *count, int on) {
    int n = atomic_load_explicit(count, memory_order_relaxed);
    do {
        if (!on && n == 0)
            return -1;
    } while (!atomic_compare_exchange_weak_explicit(count, &n, n + (on ? 1 : -1), memory_order_relaxed,
                                                    memory_order_relaxed));
    return n + (on ? 1 : -1);
}

int kp_record_calls(int on) { return switch_count(&kp_calls_recorders, on); }

int kp_untime_calls(int on) { return switch_count(&kp_calls_untimers, on); }

static char *copy_or_empty(const char *s) { return strdup(s ? s : ""); }

void kp_record_compile(const kp_compile_record *record) {
    if (!record)
        return;
    kp_compile_record copy = *record;
    copy.function = copy_or_empty(record->function);
    copy.signature = copy_or_empty(record->signature);
    copy.target = copy_or_empty(record->target);
    if (!copy.function || !copy.signature || !copy.target)
        goto dropped;

    pthread_mutex_lock(&compile_lock);
    if (compile_count == compile_capacity) {
        size_t capacity = compile_capacity ? 2 * compile_capacity : 64;
        kp_compile_record *grown = realloc(compile_records, capacity * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&compile_lock);
            goto dropped;
        }
        compile_records = grown;
        compile_capacity = capacity;
    }
    compile_records[compile_count++] = copy;
    pthread_mutex_unlock(&compile_lock);
    return;

dropped:
    free((char *)copy.function);
    free((char *)copy.signature);
    free((char *)copy.target);
}

kp_counters kp_snapshot(void) {
    kp_counters c;
    c.calls = atomic_load_explicit(&shared_fallback.calls, memory_order_relaxed);
    c.call_ns = atomic_load_explicit(&shared_fallback.ns, memory_order_relaxed);
    c.untimed_calls = atomic_load_explicit(&shared_fallback.untimed, memory_order_relaxed);
    uint64_t ticks = atomic_load_explicit(&shared_fallback.ticks, memory_order_relaxed);
    for (thread_totals *t = atomic_load_explicit(&all_threads, memory_order_acquire); t; t = t->next) {
        c.calls += atomic_load_explicit(&t->calls, memory_order_relaxed);
        c.call_ns += atomic_load_explicit(&t->ns, memory_order_relaxed);
        c.untimed_calls += atomic_load_explicit(&t->untimed, memory_order_relaxed);
        ticks += atomic_load_explicit(&t->ticks, memory_order_relaxed);
    }
    c.call_ns += (uint64_t)kp_ticks_to_ns(ticks);
    pthread_mutex_lock(&compile_lock);
    c.compiles = compile_count;
    pthread_mutex_unlock(&compile_lock);
    return c;
}

int kp_compile_at(size_t index, kp_compile_record *out) {
    int found = -1;
    pthread_mutex_lock(&compile_lock);
    if (index < compile_count) {
        *out = compile_records[index];
        found = 0;
    }
    pthread_mutex_unlock(&compile_lock);
    return found;
}
