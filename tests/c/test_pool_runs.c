/* The thread pool as compiled prange loops use it: every iteration runs
 * exactly once with 1, 2 and many threads; per-slot partial sums add up;
 * a run started inside a body runs inline; several threads entering at
 * once all finish with their own results; a failing chunk's exception
 * reaches the caller and the pool keeps working; the thread count is
 * checked. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/runtime/pool.h"
#include "jit/runtime/runtime.h"

#include "tests/c/check.h"

/* ---- every iteration once, partial sums per slot ---- */

typedef struct {
    _Atomic int *hits;
    int64_t partial[KJ_POOL_MAX_THREADS];
} count_ctx;

static int count_body(void *p, int64_t lo, int64_t hi, int64_t slot) {
    count_ctx *c = p;
    for (int64_t i = lo; i < hi; i++) {
        atomic_fetch_add(&c->hits[i], 1);
        c->partial[slot] += i;
    }
    return 0;
}

static void check_counts(int threads, int64_t n) {
    CHECK(kj_pool_set_threads(threads) == 0);
    count_ctx c;
    memset(&c, 0, sizeof c);
    c.hits = calloc((size_t)n + 1, sizeof *c.hits);
    CHECK(kj_pool_run(n, count_body, &c) == 0);
    int64_t sum = 0;
    for (int s = 0; s < KJ_POOL_MAX_THREADS; s++)
        sum += c.partial[s];
    int wrong = 0;
    for (int64_t i = 0; i < n; i++)
        wrong += atomic_load(&c.hits[i]) != 1;
    CHECK(wrong == 0);
    CHECK(sum == n * (n - 1) / 2);
    free(c.hits);
}

/* ---- nested: a body that starts a run ---- */

static int inner_body(void *p, int64_t lo, int64_t hi, int64_t slot) {
    (void)slot;
    int64_t *acc = p;
    for (int64_t i = lo; i < hi; i++)
        *acc += i;
    return 0;
}

static int outer_body(void *p, int64_t lo, int64_t hi, int64_t slot) {
    int64_t *totals = p;
    for (int64_t i = lo; i < hi; i++) {
        int64_t acc = 0;   /* the inner run is inline: plain local accumulation is safe */
        if (!kj_pool_in_body() || kj_pool_run(100, inner_body, &acc) != 0)
            return 1;
        totals[slot] += acc;
    }
    return 0;
}

/* ---- concurrent entry from several threads ---- */

typedef struct {
    int64_t n, result;
    int status;
} caller_arg;

static int sum_body(void *p, int64_t lo, int64_t hi, int64_t slot) {
    int64_t *partial = p;
    for (int64_t i = lo; i < hi; i++)
        partial[slot] += i % 7;
    return 0;
}

static void *caller_main(void *p) {
    caller_arg *a = p;
    for (int rep = 0; rep < 50; rep++) {
        int64_t partial[KJ_POOL_MAX_THREADS] = {0};
        a->status |= kj_pool_run(a->n, sum_body, partial);
        int64_t s = 0;
        for (int k = 0; k < KJ_POOL_MAX_THREADS; k++)
            s += partial[k];
        a->result = s;
    }
    return NULL;
}

/* ---- failure ---- */

static int fake_exception_class;   /* stands for a PyObject *: the pool only carries it */

static int failing_body(void *p, int64_t lo, int64_t hi, int64_t slot) {
    (void)p;
    (void)slot;
    for (int64_t i = lo; i < hi; i++)
        if (i == 777) {
            kj_rt_raise((PyObject *)&fake_exception_class, "iteration 777 failed");
            return 1;
        }
    return 0;
}

/* ---- the guard's per-thread record keeps to its own key ----
 * The first guarded call used to store its record under key 0 when the
 * fault handler had not been installed (as here): another library's value
 * was overwritten (under ASan, its record of the thread). */
static void check_others_keys_kept(void) {
    pthread_key_t key;
    static int marker;
    CHECK(pthread_key_create(&key, NULL) == 0);
    CHECK(pthread_setspecific(key, &marker) == 0);
    count_ctx c;
    memset(&c, 0, sizeof c);
    c.hits = calloc(11, sizeof *c.hits);
    CHECK(kj_pool_set_threads(1) == 0);
    CHECK(kj_pool_run(10, count_body, &c) == 0);
    CHECK(pthread_getspecific(key) == &marker);
    free(c.hits);
    pthread_key_delete(key);
}

int main(void) {
    check_others_keys_kept();   /* first: before any guarded call */
    int64_t sizes[] = {0, 1, 2, 3, 1000, 100003};
    int threads[] = {1, 2, 4, 9};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            check_counts(threads[t], sizes[s]);

    CHECK(kj_pool_set_threads(4) == 0);
    int64_t totals[KJ_POOL_MAX_THREADS] = {0};
    CHECK(kj_pool_run(50, outer_body, totals) == 0);
    int64_t total = 0;
    for (int k = 0; k < KJ_POOL_MAX_THREADS; k++)
        total += totals[k];
    CHECK(total == 50 * 4950);

    enum { CALLERS = 6 };
    pthread_t th[CALLERS];
    caller_arg args[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        args[i] = (caller_arg){.n = 20000 + 1000 * i};
        pthread_create(&th[i], NULL, caller_main, &args[i]);
    }
    for (int i = 0; i < CALLERS; i++) {
        pthread_join(th[i], NULL);
        int64_t want = 0;
        for (int64_t k = 0; k < args[i].n; k++)
            want += k % 7;
        CHECK(args[i].status == 0);
        CHECK(args[i].result == want);
    }

    CHECK(kj_pool_run(5000, failing_body, NULL) == 1);
    kj_rt_error e = kj_rt_take_error();
    CHECK(e.cls == (PyObject *)&fake_exception_class);
    CHECK(e.msg && strcmp(e.msg, "iteration 777 failed") == 0);
    check_counts(4, 5000);   /* still works after a failure */

    CHECK(kj_pool_set_threads(0) == -1);
    CHECK(kj_pool_set_threads(KJ_POOL_MAX_THREADS + 1) == -1);
    CHECK(kj_pool_threads() == 4);

    return check_exit_status();
}
