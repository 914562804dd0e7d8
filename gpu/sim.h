/* gpu/sim: the CUDA simulator's runtime. A kernel compiled for the host by
 * the same compiler (target "cuda-simulator", gpu/targets.h) runs here: one
 * block at a time, its threads as cooperative fibers, so that
 * cuda.syncthreads() really waits for the whole block, threads interleave
 * at racy memory accesses as a GPU's do (sim_races.c), shared memory (made
 * per launch, kiln_sim_shared) is the block's, and atomics are real host atomics.
 *
 * Compiled kernels reach the runtime through kg_sim_symbols (the engine
 * defines them for ORC, as it does kj_runtime_symbols). */
#ifndef KILN_GPU_SIM_H
#define KILN_GPU_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu.h"
#include "jit/runtime/runtime.h"

/* The kernel as the simulator calls it, once per thread: the dispatcher's
 * entry convention (i32 entry(ptr ret, ptr args)); nonzero means the thread
 * raised (kj_rt_raise) and the launch stops. */
typedef int32_t (*kg_sim_entry)(void *ret, void *args);

/* What a launch's threads did (sim_work.c), for an estimate of a GPU's time. */
typedef struct {
    uint64_t flops32, flops64;        /* float operations */
    uint64_t global_bytes, shared_bytes;   /* read and written */
} kg_sim_work;

typedef struct {
    unsigned grid[3], block[3];
    size_t dynamic_shared;   /* bytes of cuda.shared.array(0, ...) memory */
    int fibers;              /* the kernel calls kiln_sim_syncthreads or kiln_sim_interleave */
    kg_sim_work *work;       /* where the launch adds what its threads did, or NULL */
    _Atomic uint64_t *blocks_done;   /* counted up as blocks finish, for a progress line; or NULL */
} kg_sim_config;

/* Runs the kernel over the whole grid. Returns 0; or 1 if a thread raised
 * (its error is pending on this thread, kj_rt_take_error), err naming the
 * block and thread; or -1 with err filled (bad configuration, no memory,
 * KG_ERR_UNDEFINED: threads of a block at different barriers).
 * Thread-safe: every launch keeps its state in thread-local storage. */
int kg_sim_launch(kg_sim_entry entry, void *ret, void *args, const kg_sim_config *config, kg_error *err);

/* Whether a module's code calls kiln_sim_syncthreads: kernels that do not,
 * and have no racy access, run their threads one after another, without
 * fibers (faster). */
int kg_sim_module_uses_barrier(struct LLVMOpaqueModule *module);

/* In an optimized simulator module, a call of kiln_sim_interleave before
 * each access to memory that the kernel both reads and writes through one
 * pointer (sim_races.c). Returns how many it put. */
int kg_sim_interleave_races(struct LLVMOpaqueModule *module);

/* Makes an optimized simulator module count its threads' work into the
 * launch's kg_sim_work (sim_work.c). After kg_sim_interleave_races. */
void kg_sim_count_work(struct LLVMOpaqueModule *module);

/* What simulated kernels call. which is a kj_sreg (jit/core/target.h). */
int32_t kiln_sim_sreg(int32_t which);
/* line: the barrier's source line, to tell barriers apart */
void kiln_sim_syncthreads(int32_t line);
/* Adds one thread's work to the launch's (sim_work.c puts the calls). */
void kiln_sim_count(int64_t flops32, int64_t flops64, int64_t global_bytes, int64_t shared_bytes);
/* CUDA's vprintf, to sys.stdout (sim_print.c). */
int32_t kiln_sim_vprintf(const char *format, const void *slots);
/* Lets the block's other threads run up to their next switch. */
void kiln_sim_interleave(void);
void *kiln_sim_dynamic_shared(void);
/* The running launch's block for the static shared array named by key (a
 * byte of the kernel's module), bytes long and zeroed when first asked for;
 * NULL without memory. */
void *kiln_sim_shared(const void *key, int64_t bytes);

extern const kj_symbol kg_sim_symbols[];

#endif
