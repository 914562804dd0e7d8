/* pool: the persistent worker threads that run prange loops, parallel
 * ufunc loops and parallel array expressions.
 *
 * One pool per process, started on the first parallel run and kept for the
 * life of the process (re-made empty in a forked child). A run splits
 * [0, n) into chunks handed out dynamically; the calling thread works on its
 * own run too, so a run always finishes even when every worker is busy with
 * another run. That is what makes entry from several threads at once safe
 * (Numba's workqueue layer aborts there, numba issue 9327): runs queue side
 * by side and workers help whichever has chunks left. A run started from
 * inside a body (a parallel function called by a parallel loop) runs inline
 * on that thread, serially.
 *
 * Everything here may run without the GIL and never touches Python. */
#ifndef KILN_JIT_POOL_H
#define KILN_JIT_POOL_H

#include <stdint.h>

/* At most this many threads (the caller included) work on one run; also the
 * number of per-participant slots compiled reductions allocate. */
#define KJ_POOL_MAX_THREADS 64

/* A loop body over the iterations [lo, hi). `slot` (0 .. KJ_POOL_MAX_THREADS-1)
 * belongs to one participant for the whole run: per-thread partial results
 * live there. Returns 0, or nonzero after recording an exception with
 * kj_rt_raise on this thread. */
typedef int (*kj_pool_body)(void *ctx, int64_t lo, int64_t hi, int64_t slot);

/* Runs body over [0, n) on up to kj_pool_threads() threads and waits for it.
 * Returns 0, or the status of the first failing chunk; that chunk's
 * exception is then pending on the caller's thread (kj_rt_take_error) and
 * chunks not yet started are skipped. */
int kj_pool_run(int64_t n, kj_pool_body body, void *ctx);

/* The number of threads a run uses: KILN_NUM_THREADS, or the CPUs this
 * process may run on, until kj_pool_set_threads changes it. */
int kj_pool_threads(void);

/* Sets the thread count for later runs (process-wide). Returns 0, or -1 if
 * n is outside 1 .. KJ_POOL_MAX_THREADS. */
int kj_pool_set_threads(int n);

/* Whether this thread is inside a pool body now (nested runs go serial). */
int kj_pool_in_body(void);

#endif
