/* The CUDA simulator's runtime (gpu/sim.h): blocks one after another,
 * threads of a block as fibers (gpu/fiber.h) switched at cuda.syncthreads()
 * and at each racy memory access (kiln_sim_interleave, sim_races.c).
 *
 * Why fibers: a barrier must stop a thread in the middle of its code until
 * every other thread of the block has reached it, and compiled code keeps
 * its state on its stack. Kernels without a barrier or a racy access need
 * no switching, so their threads are plain calls in order.
 *
 * The schedule: the threads of a block take turns in thread order, each
 * running to its next switch. At a racy read-modify-write, every thread
 * reads before any writes back, as a warp's threads do in lockstep on a
 * GPU, so that counter[0] += 1 loses updates here as it does there. */
#include "gpu/sim.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <llvm-c/Core.h>

#include "gpu/fiber.h"
#include "jit/core/target.h"

/* Per-thread stack of a fiber: compiled code with cuda.local.array lives
 * here. Reserved lazily (MAP_NORESERVE), so 1024 of them cost address space
 * only. Twice CUDA's 512 KB of local memory a thread, so that no frame a GPU
 * allows can jump the guard page into the next thread's stack. */
#define FIBER_STACK (1024 * 1024)
#define GUARD 4096

typedef struct {
    kg_fiber context;
    unsigned tid[3];
    int finished;
    int waiting;        /* at a barrier */
    int32_t barrier_line;   /* the source line of the barrier it waits at */
    int32_t status;     /* the entry's return */
} fiber;

/* One static cuda.shared.array of a launch, found by its module's key. */
typedef struct shared_block {
    struct shared_block *next;
    const void *key;
    _Alignas(16) char data[];
} shared_block;

/* The launch this OS thread is running; compiled code reads it through
 * kiln_sim_sreg and friends. */
typedef struct {
    const kg_sim_config *config;
    kg_error *err;
    kg_sim_entry entry;
    void *ret, *args;
    kg_sim_work work;
    unsigned ctaid[3];
    unsigned tid[3];            /* the running thread's */
    void *dynamic_shared;
    shared_block *shared;       /* static shared arrays, made on first use */
    /* fibers (kernels with barriers or racy accesses) */
    fiber *fibers;
    char *stacks;
    size_t n_fibers;
    fiber *running;
    kg_fiber scheduler;
} launch_state;

static _Thread_local launch_state *current;

int32_t kiln_sim_sreg(int32_t which) {
    const launch_state *s = current;
    if (!s)
        return 0;
    switch (which) {
    case KJ_SREG_TID_X: return (int32_t)s->tid[0];
    case KJ_SREG_TID_Y: return (int32_t)s->tid[1];
    case KJ_SREG_TID_Z: return (int32_t)s->tid[2];
    case KJ_SREG_NTID_X: return (int32_t)s->config->block[0];
    case KJ_SREG_NTID_Y: return (int32_t)s->config->block[1];
    case KJ_SREG_NTID_Z: return (int32_t)s->config->block[2];
    case KJ_SREG_CTAID_X: return (int32_t)s->ctaid[0];
    case KJ_SREG_CTAID_Y: return (int32_t)s->ctaid[1];
    case KJ_SREG_CTAID_Z: return (int32_t)s->ctaid[2];
    case KJ_SREG_NCTAID_X: return (int32_t)s->config->grid[0];
    case KJ_SREG_NCTAID_Y: return (int32_t)s->config->grid[1];
    case KJ_SREG_NCTAID_Z: return (int32_t)s->config->grid[2];
    case KJ_SREG_WARPSIZE: return 32;
    default: return 0;
    }
}

void *kiln_sim_dynamic_shared(void) {
    return current ? current->dynamic_shared : NULL;
}

void *kiln_sim_shared(const void *key, int64_t bytes) {
    launch_state *s = current;
    if (!s || bytes < 0)
        return NULL;
    for (shared_block *b = s->shared; b; b = b->next)
        if (b->key == key)
            return b->data;
    /* The first thread to reach the array makes it, zeroed (CUDA leaves it
     * undefined; zero makes a missing initialization reproducible). */
    shared_block *b = calloc(1, sizeof *b + (size_t)bytes);
    if (!b)
        return NULL; /* the kernel raises MemoryError (gpu/intrinsics.c) */
    b->key = key;
    b->next = s->shared;
    s->shared = b;
    return b->data;
}

void kiln_sim_syncthreads(int32_t line) {
    launch_state *s = current;
    /* Without fibers (a kernel not known to use barriers) every other
     * thread of the block has either finished or not started: nothing to
     * wait for that could be waited for. */
    if (!s || !s->running)
        return;
    fiber *f = s->running;
    f->waiting = 1;
    f->barrier_line = line;
    kg_fiber_switch(&f->context, &s->scheduler);
}

void kiln_sim_count(int64_t flops32, int64_t flops64, int64_t global_bytes, int64_t shared_bytes) {
    launch_state *s = current;
    if (!s)
        return;
    s->work.flops32 += (uint64_t)flops32;
    s->work.flops64 += (uint64_t)flops64;
    s->work.global_bytes += (uint64_t)global_bytes;
    s->work.shared_bytes += (uint64_t)shared_bytes;
}

void kiln_sim_interleave(void) {
    launch_state *s = current;
    if (s && s->running)   /* without fibers, threads run one after another */
        kg_fiber_switch(&s->running->context, &s->scheduler);
}

static void fiber_main(void *arg) {
    fiber *f = arg;
    launch_state *s = current;
    f->status = s->entry(s->ret, s->args);
    f->finished = 1;
    kg_fiber_switch(&f->context, &s->scheduler);   /* for good: never resumed */
}

static void init_fiber(launch_state *s, size_t i) {
    const unsigned *b = s->config->block;
    fiber *f = &s->fibers[i];
    f->tid[0] = (unsigned)(i % b[0]);
    f->tid[1] = (unsigned)(i / b[0] % b[1]);
    f->tid[2] = (unsigned)(i / ((size_t)b[0] * b[1]));
    f->finished = f->waiting = 0;
    f->status = 0;
    kg_fiber_init(&f->context, s->stacks + i * FIBER_STACK + GUARD, FIBER_STACK - GUARD, fiber_main, f);
}

static void thread_name(const fiber *f, char *out, size_t size) {
    snprintf(out, size, "thread (%u, %u, %u)", f->tid[0], f->tid[1], f->tid[2]);
}

/* Whether the waiting threads all wait at one barrier; else err says
 * which wait where. Threads that returned count as arrived, as on a GPU
 * since Volta (exited threads do not hold a barrier up). */
static bool one_barrier(launch_state *s) {
    const fiber *first = NULL;
    for (size_t i = 0; i < s->n_fibers; i++) {
        const fiber *f = &s->fibers[i];
        if (f->finished)
            continue;
        if (!first) {
            first = f;
        } else if (f->barrier_line != first->barrier_line) {
            char a[48], b[48];
            thread_name(first, a, sizeof a);
            thread_name(f, b, sizeof b);
            kg_error_set(s->err, KG_ERR_UNDEFINED, 0,
                         "in block (%u, %u, %u), threads wait at different cuda.syncthreads() calls: %s at "
                         "line %d, %s at line %d. Every thread of a block must reach the same barrier; a GPU "
                         "may hang or go on with wrong data. Move the barrier out of the branch or loop "
                         "that only some threads take",
                         s->ctaid[0], s->ctaid[1], s->ctaid[2], a, (int)first->barrier_line, b,
                         (int)f->barrier_line);
            return false;
        }
    }
    return true;
}

/* Returns 0, 1 + the linear index of the thread that raised, or -1 with
 * s->err filled (threads at different barriers). */
static int run_block_with_fibers(launch_state *s, const unsigned ctaid[3]) {
    size_t n = s->n_fibers;
    for (size_t i = 0; i < n; i++)
        init_fiber(s, i);
    memcpy(s->ctaid, ctaid, sizeof s->ctaid);
    size_t live = n;
    while (live) {
        size_t waiting = 0;
        for (size_t i = 0; i < n; i++) {
            fiber *f = &s->fibers[i];
            if (f->finished)
                continue;
            if (!f->waiting) {   /* run it to its next switch */
                s->running = f;
                memcpy(s->tid, f->tid, sizeof s->tid);
                kg_fiber_switch(&s->scheduler, &f->context);
                s->running = NULL;
            }
            if (f->finished) {
                live--;
                if (f->status != 0)
                    return (int)i + 1; /* stop the block at the first error */
            }
            waiting += (size_t)f->waiting;
        }
        /* Everyone still running has reached the barrier (threads that
         * returned count as arrived): let them all through. */
        if (waiting == live && live) {
            if (!one_barrier(s))
                return -1;
            for (size_t i = 0; i < n; i++)
                s->fibers[i].waiting = 0;
        }
    }
    return 0;
}

/* Returns 0, or 1 + the linear index of the thread that raised. */
static int run_block_directly(launch_state *s, const unsigned ctaid[3]) {
    const unsigned *b = s->config->block;
    memcpy(s->ctaid, ctaid, sizeof s->ctaid);
    size_t index = 0;
    for (unsigned z = 0; z < b[2]; z++)
        for (unsigned y = 0; y < b[1]; y++)
            for (unsigned x = 0; x < b[0]; x++, index++) {
                s->tid[0] = x, s->tid[1] = y, s->tid[2] = z;
                if (s->entry(s->ret, s->args) != 0)
                    return (int)index + 1;
            }
    return 0;
}

static int check_config(const kg_sim_config *c, kg_error *err) {
    for (int i = 0; i < 3; i++)
        if (c->grid[i] == 0 || c->block[i] == 0)
            return kg_error_set(err, KG_ERR_INVALID, 0, "grid and block dimensions must be >= 1, not "
                                "grid (%u, %u, %u) block (%u, %u, %u)", c->grid[0], c->grid[1], c->grid[2],
                                c->block[0], c->block[1], c->block[2]);
    size_t threads = (size_t)c->block[0] * c->block[1] * c->block[2];
    if (threads > 1024)
        return kg_error_set(err, KG_ERR_INVALID, 0, "block (%u, %u, %u) has %zu threads; CUDA allows at "
                            "most 1024 per block", c->block[0], c->block[1], c->block[2], threads);
    return 0;
}

int kg_sim_launch(kg_sim_entry entry, void *ret, void *args, const kg_sim_config *config, kg_error *err) {
    if (check_config(config, err) < 0)
        return -1;
    launch_state s = {.config = config, .err = err, .entry = entry, .ret = ret, .args = args};
    int status = 0;
    if (config->dynamic_shared && !(s.dynamic_shared = calloc(1, config->dynamic_shared)))
        return kg_error_set(err, KG_ERR_OUT_OF_MEMORY, 0, "no host memory for %zu bytes of simulated "
                            "dynamic shared memory", config->dynamic_shared);
    if (config->fibers) {
        s.n_fibers = (size_t)config->block[0] * config->block[1] * config->block[2];
        s.fibers = calloc(s.n_fibers, sizeof *s.fibers);
        s.stacks = mmap(NULL, s.n_fibers * FIBER_STACK, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (!s.fibers || s.stacks == MAP_FAILED) {
            s.stacks = NULL;
            status = kg_error_set(err, KG_ERR_OUT_OF_MEMORY, 0, "no host memory for %zu simulated threads",
                                  s.n_fibers);
        }
        /* A guard page under each stack: a thread that overflows its stack
         * faults instead of overwriting its neighbour's. */
        for (size_t i = 0; s.stacks && i < s.n_fibers; i++)
            mprotect(s.stacks + i * FIBER_STACK, GUARD, PROT_NONE);
    }
    launch_state *outer = current; /* a kernel launched from a simulated kernel's host code: keep it */
    current = &s;
    for (unsigned z = 0; status == 0 && z < config->grid[2]; z++)
        for (unsigned y = 0; status == 0 && y < config->grid[1]; y++)
            for (unsigned x = 0; status == 0 && x < config->grid[0]; x++) {
                unsigned ctaid[3] = {x, y, z};
                int failed = config->fibers ? run_block_with_fibers(&s, ctaid)
                                                  : run_block_directly(&s, ctaid);
                if (config->blocks_done)
                    atomic_fetch_add(config->blocks_done, 1);
                if (failed < 0) {
                    status = -1;
                } else if (failed) {
                    unsigned t = (unsigned)failed - 1, bx = config->block[0], by = config->block[1];
                    kg_error_set(err, KG_ERR_INVALID, 0, "raised in block (%u, %u, %u), thread (%u, %u, %u)",
                                 x, y, z, t % bx, t / bx % by, t / (bx * by));
                    status = 1;
                }
            }
    current = outer;
    if (config->work)
        *config->work = s.work;
    if (s.stacks)
        munmap(s.stacks, s.n_fibers * FIBER_STACK);
    free(s.fibers);
    free(s.dynamic_shared);
    while (s.shared) {
        shared_block *next = s.shared->next;
        free(s.shared);
        s.shared = next;
    }
    return status;
}

int kg_sim_module_uses_barrier(struct LLVMOpaqueModule *module) {
    LLVMValueRef fn = LLVMGetNamedFunction(module, "kiln_sim_syncthreads");
    return fn && LLVMGetFirstUse(fn) != NULL;
}

const kj_symbol kg_sim_symbols[] = {
    {"kiln_sim_sreg", (void *)kiln_sim_sreg},
    {"kiln_sim_syncthreads", (void *)kiln_sim_syncthreads},
    {"kiln_sim_interleave", (void *)kiln_sim_interleave},
    {"kiln_sim_vprintf", (void *)kiln_sim_vprintf},
    {"kiln_sim_count", (void *)kiln_sim_count},
    {"kiln_sim_dynamic_shared", (void *)kiln_sim_dynamic_shared},
    {"kiln_sim_shared", (void *)kiln_sim_shared},
    {NULL, NULL},
};
