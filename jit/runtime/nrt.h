/* nrt: the runtime for memory owned by compiled code (Numba's NRT MemInfo
 * is the model). Arrays and lists created in compiled code live in
 * reference-counted blocks; the compiler inserts the increments and
 * decrements (lower_nrt.c); an array returned to Python becomes a NumPy
 * array whose base is a small Python object holding one reference.
 *
 * An owner, as stored in an array's `owner` field, is either
 *   - a PyObject* (an array passed in from Python: borrowed for the call,
 *     never counted by compiled code), or NULL, or
 *   - a block's address + 1 (blocks are 64-byte aligned, so the low bit
 *     tells the two apart without touching memory).
 * Every function here is safe without the GIL: counts are atomic. */
#ifndef KILN_JIT_NRT_H
#define KILN_JIT_NRT_H

#include <Python.h>
#include <stdatomic.h>
#include <stdint.h>

#include "jit/runtime/runtime.h"

/* Bytes from a block's start to its data (the header, padded so data is
 * 64-byte aligned for vector loads). */
#define KJ_NRT_HEADER 64

typedef struct kj_block kj_block_t;
typedef void (*kj_block_dtor)(kj_block_t *b);

/* The blocks a guarded call (fault.h) allocated on its thread that are
 * still live. When the call fails, by an exception or a caught fault,
 * none of them can have reached anything that outlives it (results are
 * handed to Python only after a call succeeds, and compiled code stores
 * references nowhere else), so whatever is left on the ring is garbage: a
 * fault skipped the cleanup of the frames that held it. When the call
 * succeeds, what is left is its results, let go of the ring. Zeroed: an
 * empty, unlocked ring. */
typedef struct kj_nrt_ring {
    _Atomic int lock;            /* a spin lock: a pool worker may free a block of the caller's */
    kj_block_t *head;
} kj_nrt_ring;

struct kj_block {
    int64_t refcnt;              /* atomic */
    int64_t nbytes;              /* of the data */
    int64_t capacity;            /* bytes the data area holds (>= nbytes; a recycled block may be larger) */
    kj_block_dtor dtor;          /* frees what the data points to (lists), or NULL */
    void *allocation;            /* what free() takes: the block, or before it (nrt.c, place_large) */
    kj_nrt_ring *ring;           /* the ring holding it, or NULL */
    kj_block_t *prev, *next;     /* on the ring */
};

/* A new block with one reference and nbytes of data (uninitialized);
 * NULL when memory is exhausted. */
kj_block_t *kj_nrt_alloc(int64_t nbytes);
/* Same, zero-filled. */
kj_block_t *kj_nrt_alloc_zeroed(int64_t nbytes);
void kj_nrt_incref(void *owner);
void kj_nrt_decref(void *owner);

static inline int kj_nrt_is_block(const void *owner) { return ((uintptr_t)owner & 1) != 0; }
static inline kj_block_t *kj_nrt_block(void *owner) { return (kj_block_t *)((char *)owner - 1); }
static inline void *kj_nrt_data(kj_block_t *b) { return (char *)b + KJ_NRT_HEADER; }

/* Ends the guarded call that owned ring: after a failure frees every
 * block still on it (their destructors' decrements of each other skipped),
 * after a success lets them go. */
void kj_nrt_ring_close(kj_nrt_ring *ring, int failed);

/* The Python object to use as the base of a NumPy array on block memory:
 * it takes over the reference the caller holds on `owner`. For a borrowed
 * owner (a PyObject), a new reference to it. NULL with an exception set. */
PyObject *kj_nrt_base_object(void *owner);

/* The counters tests read to prove nothing leaks. */
typedef struct {
    int64_t allocs, frees, live_bytes;
} kj_nrt_stats_t;
kj_nrt_stats_t kj_nrt_stats(void);

/* Adds nrt_stats() and the base-object type to the module. */
int kj_nrt_module_init(PyObject *module);

#endif
