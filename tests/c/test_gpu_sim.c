/* The CUDA simulator's runtime with kernels written in C: block-wide
 * barriers really wait (a shared-memory tree reduction and a neighbour
 * exchange), atomics across blocks, 3-D indices, dynamic shared memory, a
 * thread that raises, threads at different barriers, a read-modify-write
 * that interleaves, bad configurations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"
#include "jit/core/target.h"

#include "tests/c/check.h"

#define TID_X kiln_sim_sreg(KJ_SREG_TID_X)
#define NTID_X kiln_sim_sreg(KJ_SREG_NTID_X)
#define CTAID_X kiln_sim_sreg(KJ_SREG_CTAID_X)
#define NCTAID_X kiln_sim_sreg(KJ_SREG_NCTAID_X)
/* as compiled kernels call it: the line tells barriers apart */
#define SYNCTHREADS() kiln_sim_syncthreads(__LINE__)

/* ---- block sum: shared[tid] = x[i]; tree reduction with barriers ---- */

static double shared_sum[256];

typedef struct {
    const double *x;
    double *block_sums;
} sum_args;

static int32_t block_sum(void *ret, void *args) {
    (void)ret;
    sum_args *a = args;
    int t = TID_X, n = NTID_X;
    shared_sum[t] = a->x[CTAID_X * n + t];
    SYNCTHREADS();
    for (int half = n / 2; half > 0; half /= 2) {
        if (t < half)
            shared_sum[t] += shared_sum[t + half];
        SYNCTHREADS();
    }
    if (t == 0)
        a->block_sums[CTAID_X] = shared_sum[0];
    return 0;
}

static void test_shared_memory_reduction(void) {
    enum { BLOCKS = 5, THREADS = 256 };
    double x[BLOCKS * THREADS], sums[BLOCKS];
    for (int i = 0; i < BLOCKS * THREADS; i++)
        x[i] = (i * 7919) % 1000 - 500.25;
    sum_args a = {x, sums};
    kg_sim_config config = {.grid = {BLOCKS, 1, 1}, .block = {THREADS, 1, 1}, .dynamic_shared = 0, .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(block_sum, NULL, &a, &config, &err) == 0);
    for (int b = 0; b < BLOCKS; b++) {
        double expected = 0;
        for (int i = 0; i < THREADS; i++)
            expected += x[b * THREADS + i];
        CHECK(sums[b] == expected);
    }
}

/* ---- neighbour exchange: every write lands before any read ---- */

static int shared_ring[128];

static int32_t rotate(void *ret, void *args) {
    (void)ret;
    int *out = args;
    int t = TID_X, n = NTID_X;
    shared_ring[t] = t * 3 + CTAID_X;
    SYNCTHREADS();
    out[CTAID_X * n + t] = shared_ring[(t + 1) % n];
    return 0;
}

static void test_barrier_orders_writes_before_reads(void) {
    int out[3 * 128];
    memset(out, -1, sizeof out);
    kg_sim_config config = {.grid = {3, 1, 1}, .block = {128, 1, 1}, .dynamic_shared = 0, .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(rotate, NULL, out, &config, &err) == 0);
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 128; t++)
            CHECK(out[b * 128 + t] == ((t + 1) % 128) * 3 + b);
}

/* ---- atomics over a grid-stride loop ---- */

typedef struct {
    long n;
    long *counter;
    long *histogram;
} atomic_args;

static int32_t count(void *ret, void *args) {
    (void)ret;
    atomic_args *a = args;
    for (long i = CTAID_X * NTID_X + TID_X; i < a->n; i += (long)NTID_X * NCTAID_X) {
        __atomic_fetch_add(a->counter, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&a->histogram[i % 10], 1, __ATOMIC_RELAXED);
    }
    return 0;
}

static void test_atomics_across_blocks(void) {
    long counter = 0, histogram[10] = {0};
    atomic_args a = {12345, &counter, histogram};
    kg_sim_config config = {.grid = {7, 1, 1}, .block = {64, 1, 1}, .dynamic_shared = 0, .fibers = 0};
    kg_error err = {0};
    CHECK(kg_sim_launch(count, NULL, &a, &config, &err) == 0);
    CHECK(counter == 12345);
    for (int k = 0; k < 10; k++)
        CHECK(histogram[k] == 12345 / 10 + (k < 12345 % 10));
}

/* ---- 3-D grid and block: every (block, thread) exactly once ---- */

static int32_t mark(void *ret, void *args) {
    (void)ret;
    int *seen = args;
    int bx = NTID_X, by = kiln_sim_sreg(KJ_SREG_NTID_Y), bz = kiln_sim_sreg(KJ_SREG_NTID_Z);
    int gx = NCTAID_X, gy = kiln_sim_sreg(KJ_SREG_NCTAID_Y);
    int x = CTAID_X * bx + TID_X;
    int y = kiln_sim_sreg(KJ_SREG_CTAID_Y) * by + kiln_sim_sreg(KJ_SREG_TID_Y);
    int z = kiln_sim_sreg(KJ_SREG_CTAID_Z) * bz + kiln_sim_sreg(KJ_SREG_TID_Z);
    seen[(z * gy * by + y) * gx * bx + x]++;
    return 0;
}

static void test_three_dimensional_indices(void) {
    enum { N = (2 * 4) * (3 * 2) * (2 * 3) };
    int seen[N] = {0};
    for (int barrier = 0; barrier < 2; barrier++) { /* plain calls and fibers agree */
        kg_sim_config config = {.grid = {2, 3, 2}, .block = {4, 2, 3}, .dynamic_shared = 0, .fibers = barrier};
        kg_error err = {0};
        CHECK(kg_sim_launch(mark, NULL, seen, &config, &err) == 0);
    }
    for (int i = 0; i < N; i++)
        CHECK(seen[i] == 2);
}

/* ---- dynamic shared memory is there, with the size asked for ---- */

static int32_t use_dynamic(void *ret, void *args) {
    (void)ret;
    float *out = args;
    float *shared = kiln_sim_dynamic_shared();
    int t = TID_X;
    shared[t] = (float)t * 0.5f;
    SYNCTHREADS();
    out[t] = shared[NTID_X - 1 - t];
    return 0;
}

static void test_dynamic_shared_memory(void) {
    float out[32];
    kg_sim_config config = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .dynamic_shared = 32 * sizeof(float), .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(use_dynamic, NULL, out, &config, &err) == 0);
    for (int t = 0; t < 32; t++)
        CHECK(out[t] == (31 - t) * 0.5f);
}

/* ---- a thread that raises stops the launch and is named ---- */

static int32_t raise_at_5(void *ret, void *args) {
    (void)ret, (void)args;
    SYNCTHREADS();
    return CTAID_X == 1 && TID_X == 5;
}

static void test_raising_thread_is_reported(void) {
    kg_sim_config config = {.grid = {3, 1, 1}, .block = {8, 1, 1}, .dynamic_shared = 0, .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(raise_at_5, NULL, NULL, &config, &err) == 1);
    CHECK(strstr(err.message, "block (1, 0, 0), thread (5, 0, 0)") != NULL);
}

/* ---- threads of a block at different barriers are reported ---- */

static int32_t split_barrier(void *ret, void *args) {
    (void)ret, (void)args;
    if (TID_X < 4)
        SYNCTHREADS();
    else
        SYNCTHREADS();
    return 0;
}

static void test_threads_at_different_barriers_are_reported(void) {
    kg_sim_config config = {.grid = {2, 1, 1}, .block = {8, 1, 1}, .dynamic_shared = 0, .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(split_barrier, NULL, NULL, &config, &err) == -1 && err.kind == KG_ERR_UNDEFINED);
    CHECK(strstr(err.message, "in block (0, 0, 0), threads wait at different cuda.syncthreads() calls: "
                              "thread (0, 0, 0) at line ") != NULL);
    CHECK(strstr(err.message, "thread (4, 0, 0) at line ") != NULL);
}

/* ---- a read-modify-write with a switch before its write loses updates ---- */

static int32_t racy_increment(void *ret, void *args) {
    (void)ret;
    int *counter = args;
    int seen = *counter;
    kiln_sim_interleave();   /* where sim_races.c puts it: before the store */
    *counter = seen + 1;
    return 0;
}

static void test_interleaved_threads_lose_updates_as_a_warp_does(void) {
    int counter = 0;
    kg_sim_config config = {.grid = {3, 1, 1}, .block = {64, 1, 1}, .dynamic_shared = 0, .fibers = 1};
    kg_error err = {0};
    CHECK(kg_sim_launch(racy_increment, NULL, &counter, &config, &err) == 0);
    CHECK(counter == 3);   /* every thread of a block read 0, 1, 2 before any wrote */
}

static void test_bad_configurations(void) {
    kg_error err = {0};
    kg_sim_config zero = {.grid = {0, 1, 1}, .block = {32, 1, 1}, .dynamic_shared = 0, .fibers = 0};
    CHECK(kg_sim_launch(count, NULL, NULL, &zero, &err) == -1 && err.kind == KG_ERR_INVALID);
    kg_sim_config big = {.grid = {1, 1, 1}, .block = {32, 32, 2}, .dynamic_shared = 0, .fibers = 1};
    CHECK(kg_sim_launch(count, NULL, NULL, &big, &err) == -1 && strstr(err.message, "at most 1024"));
}

int main(void) {
    test_shared_memory_reduction();
    test_barrier_orders_writes_before_reads();
    test_atomics_across_blocks();
    test_three_dimensional_indices();
    test_dynamic_shared_memory();
    test_raising_thread_is_reported();
    test_threads_at_different_barriers_are_reported();
    test_interleaved_threads_lose_updates_as_a_warp_does();
    test_bad_configurations();
    return check_exit_status();
}
