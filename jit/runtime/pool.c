/* pool: persistent workers and a list of open runs, guarded by one mutex.
 *
 * A run lives on its caller's stack. It is in the open list while it may
 * still hand out chunks; a worker joins it under the mutex (taking a slot
 * and counting itself `inside`), claims chunks with an atomic counter
 * outside the mutex, and leaves under the mutex. The caller, after working
 * through the chunks itself, unlinks the run and waits until nobody is
 * inside: by then every claimed chunk is finished and the run's memory may
 * go. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include "jit/runtime/pool.h"
#include "jit/runtime/fault.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Chunks per participant: enough for dynamic balance (rows of a Mandelbrot
 * image cost very different times), few enough that the atomic counter is
 * never the bottleneck. Near the end of a run chunks shrink (a share of
 * what is left, down to TAIL_CHUNKS_PER_THREAD per participant), so that a
 * worker that woke late, or a costly last chunk, leaves the others less to
 * wait for: with equal chunks the caller of a short loop waits for the
 * whole of the worker's wake-up delay at the end (bench/MEASURED.md). */
#define CHUNKS_PER_THREAD 8
#define TAIL_CHUNKS_PER_THREAD 64

typedef struct run run;
struct run {
    kj_pool_body body;
    void *ctx;
    int64_t n;
    int64_t chunk, min_chunk;    /* the largest and the smallest chunk */
    int64_t tail_share;          /* a tail chunk is what is left / tail_share */
    _Atomic int64_t next;        /* first iteration not yet claimed */
    _Atomic int status;          /* first failure, 0 while none */
    kj_rt_error error;           /* written once, by the thread that set status */
    int max_participants;
    int joined;                  /* slots handed out (mutex) */
    int inside;                  /* workers working on it now (mutex) */
    run *prev, *next_run;        /* the open list (mutex) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER;   /* a run was opened */
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;   /* a worker left a run */
static run *open_runs;                                       /* mutex */
static _Atomic unsigned opened;   /* runs opened so far (written under the mutex, read by spinning workers) */
static int nworkers;                                         /* started (mutex) */
static _Atomic int nthreads;                                 /* 0 until first read */
static _Thread_local bool in_body;

static int default_threads(void) {
    const char *env = getenv("KILN_NUM_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == 0 && v >= 1 && v <= KJ_POOL_MAX_THREADS)
            return (int)v;
    }
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1)
        n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > KJ_POOL_MAX_THREADS ? KJ_POOL_MAX_THREADS : n;
}

int kj_pool_threads(void) {
    int n = atomic_load(&nthreads);
    if (n == 0) {
        int expected = 0;
        atomic_compare_exchange_strong(&nthreads, &expected, default_threads());
        n = atomic_load(&nthreads);
    }
    return n;
}

int kj_pool_set_threads(int n) {
    if (n < 1 || n > KJ_POOL_MAX_THREADS)
        return -1;
    atomic_store(&nthreads, n);
    return 0;
}

int kj_pool_in_body(void) { return in_body; }

/* Claims [*lo, *hi), the next chunk; false when none is left. */
static bool claim(run *r, int64_t *lo, int64_t *hi) {
    int64_t from = atomic_load_explicit(&r->next, memory_order_relaxed), size;
    do {
        if (from >= r->n)
            return false;
        size = (r->n - from) / r->tail_share;
        size = size > r->chunk ? r->chunk : size < r->min_chunk ? r->min_chunk : size;
    } while (!atomic_compare_exchange_weak(&r->next, &from, from + size));
    *lo = from;
    *hi = from + size < r->n ? from + size : r->n;
    return true;
}

/* Claims and runs chunks until none is left or the run failed. */
static void work(run *r, int64_t slot) {
    bool outer = in_body;
    in_body = true;
    int64_t lo, hi;
    while (claim(r, &lo, &hi)) {
        if (atomic_load(&r->status) != 0)
            break;
        int st = kj_guarded_body(r->body, r->ctx, lo, hi, slot);
        if (st != 0) {
            int expected = 0;
            kj_rt_error e = kj_rt_take_error();
            if (atomic_compare_exchange_strong(&r->status, &expected, st))
                r->error = e;
            break;
        }
    }
    in_body = outer;
}

/* An open run this worker may join (chunks left, a slot free), or NULL. */
static run *find_run(void) {
    for (run *r = open_runs; r; r = r->next_run)
        if (r->joined < r->max_participants && atomic_load(&r->next) < r->n &&
            atomic_load(&r->status) == 0)
            return r;
    return NULL;
}

/* How long an idle worker watches for the next run before it sleeps. A
 * program calling a parallel function in a loop opens the next run within
 * microseconds; a sleeping worker takes tens of microseconds to wake
 * (futex, then the scheduler), which is most of a short run
 * (bench/MEASURED.md: idle watch). The watch yields the CPU at every look,
 * so on a loaded machine other processes keep it (a pause-instruction spin
 * made calls far slower there). */
#define SPIN_NS 50000

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Returns once a run was opened after `seen`, or after SPIN_NS (mutex
 * not held). */
static void spin_for_run(unsigned seen) {
    uint64_t until = now_ns() + SPIN_NS;
    for (unsigned k = 1; atomic_load_explicit(&opened, memory_order_relaxed) == seen; k++) {
        sched_yield();
        if (k % 8 == 0 && now_ns() > until)
            return;
    }
}

static void *worker_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        run *r = find_run();
        if (!r) {
            /* `opened` only changes under the mutex, with a broadcast: a run
             * opened after `seen` is either seen here or wakes the wait */
            unsigned seen = atomic_load(&opened);
            pthread_mutex_unlock(&lock);
            spin_for_run(seen);
            pthread_mutex_lock(&lock);
            if (atomic_load(&opened) == seen)
                pthread_cond_wait(&work_cv, &lock);
            continue;
        }
        int64_t slot = r->joined++;
        r->inside++;
        pthread_mutex_unlock(&lock);
        work(r, slot);
        kj_fmt_forget_kept_if_any();   /* strings a loop body kept cannot leave it */
        pthread_mutex_lock(&lock);
        if (--r->inside == 0)
            pthread_cond_broadcast(&done_cv);
    }
    return NULL;
}

/* Starts workers up to `want` (mutex held). Fewer is fine: the caller
 * always works on its own run. */
static void grow(int want) {
    while (nworkers < want) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, worker_main, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0)
            break;
        nworkers++;
    }
}

/* A forked child has none of the parent's threads, and the lock may have
 * been held by one of them: start again from nothing. */
static void after_fork_child(void) {
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&work_cv, NULL);
    pthread_cond_init(&done_cv, NULL);
    open_runs = NULL;
    nworkers = 0;
    in_body = false;
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void install_fork_handler(void) { pthread_atfork(NULL, NULL, after_fork_child); }

static int run_inline(int64_t n, kj_pool_body body, void *ctx) {
    bool outer = in_body;
    in_body = true;
    int st = n > 0 ? kj_guarded_body(body, ctx, 0, n, 0) : 0;   /* in_body is reset after a fault too */
    in_body = outer;
    return st;
}

int kj_pool_run(int64_t n, kj_pool_body body, void *ctx) {
    int threads = kj_pool_threads();
    if (n <= 1 || threads <= 1 || in_body)
        return run_inline(n, body, ctx);
    pthread_once(&fork_once, install_fork_handler);
    int64_t chunk = n / ((int64_t)threads * CHUNKS_PER_THREAD), tail = n / ((int64_t)threads * TAIL_CHUNKS_PER_THREAD);
    run r = {.body = body, .ctx = ctx, .n = n, .chunk = chunk > 0 ? chunk : 1, .min_chunk = tail > 0 ? tail : 1,
             .tail_share = 2 * (int64_t)threads, .max_participants = threads, .joined = 1};
    atomic_init(&r.next, 0);
    atomic_init(&r.status, 0);
    pthread_mutex_lock(&lock);
    grow(threads - 1);
    r.next_run = open_runs;
    if (open_runs)
        open_runs->prev = &r;
    open_runs = &r;
    atomic_fetch_add(&opened, 1);
    pthread_cond_broadcast(&work_cv);
    pthread_mutex_unlock(&lock);

    work(&r, 0);

    pthread_mutex_lock(&lock);
    if (r.prev)
        r.prev->next_run = r.next_run;
    else
        open_runs = r.next_run;
    if (r.next_run)
        r.next_run->prev = r.prev;
    while (r.inside > 0)
        pthread_cond_wait(&done_cv, &lock);
    pthread_mutex_unlock(&lock);
    int st = atomic_load(&r.status);
    if (st != 0)
        kj_rt_raise(r.error.cls, r.error.msg);
    return st;
}
