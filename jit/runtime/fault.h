/* fault: a fault in compiled code becomes a Python exception, not the end
 * of the process. Compiled code does not check indices unless compiled
 * with boundscheck=True (as in Numba), so an index far out of bounds reads
 * or writes unmapped memory, and runaway recursion overflows the stack:
 * either raises SIGSEGV (or SIGBUS). While a guarded call runs, the
 * handler jumps back to the guard, which reports kiln.MemoryFault (or
 * RecursionError for the stack) as the call's error, and the notebook
 * keeps its variables; what the call allocated before the fault is freed
 * (nrt.h's rings; not what pool workers of a parallel loop allocated in the
 * chunk that faulted). An overrun that lands in mapped memory does not
 * fault and cannot be caught this way. */
#ifndef KILN_JIT_FAULT_H
#define KILN_JIT_FAULT_H

#include <Python.h>
#include <stdbool.h>

#include "jit/runtime/pool.h"

/* kiln.MemoryFault, made by kj_install_fault_handler. */
extern PyObject *kj_MemoryFault;

/* Installs the SIGSEGV / SIGBUS handler, which hands faults outside
 * guarded calls to the handler it replaced, and adds kiln.MemoryFault to
 * module. Returns 0, or -1 with a Python exception set. */
int kj_install_fault_handler(PyObject *module);

/* The ring of the guarded call that is tracking this thread's
 * allocations, or NULL (nrt.c, for each new block). */
struct kj_nrt_ring *kj_fault_ring(void);

/* Whether this thread's stack is nearly full (less than KJ_STACK_RESERVE
 * left), with RecursionError then pending: the runtime refuses to
 * allocate rather than overflow inside malloc, whose lock a fault would
 * leave held (the next allocation would wait forever). False on a thread
 * that never made a guarded call. */
#define KJ_STACK_RESERVE (256 * 1024)
bool kj_fault_refuse_if_stack_low(void);

/* entry(ret, args) under a guard: its status, or 1 with the fault as this
 * thread's pending runtime error (runtime.h). */
int kj_guarded_entry(int (*entry)(void *, void **), void *ret, void **args);

/* body(ctx, lo, hi, slot) likewise, for the pool's chunks. */
int kj_guarded_body(kj_pool_body body, void *ctx, int64_t lo, int64_t hi, int64_t slot);

/* A ufunc's compiled loop (ufunc_loop.c; intptr_t is npy_intp) likewise:
 * a fault returns to the C function NumPy called, which returns to NumPy
 * as after any error, so NumPy's own state stays whole. */
typedef int (*kj_ufunc_loop)(char **args, const intptr_t *dims, const intptr_t *steps, void *unused);
int kj_guarded_loop(kj_ufunc_loop loop, char **args, const intptr_t *dims, const intptr_t *steps);

#endif
