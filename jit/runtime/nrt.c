/* nrt: reference-counted blocks for memory owned by compiled code, the
 * counters that prove it is all given back, and the Python object that
 * keeps a block alive under a NumPy array returned to Python. */
#include "jit/runtime/fault.h"
#include "jit/runtime/nrt.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>

/* Process-wide counters, atomic so nogil functions may allocate. */
static _Atomic int64_t n_allocs, n_frees, n_live_bytes;

/* Blocks this large ask the kernel for transparent huge pages, as NumPy
 * does for its own arrays (where THP is "madvise", the common default):
 * writing a fresh 8 MB result then costs a few faults instead of two
 * thousand, and streaming it misses the TLB far less. Advice only: a
 * refusal changes nothing. */
#define HUGE_ADVICE_BYTES ((int64_t)4 << 20)

static void advise_huge(void *data, int64_t nbytes) {
#ifdef MADV_HUGEPAGE
    uintptr_t page = 4096, lo = ((uintptr_t)data + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t)data + (uintptr_t)nbytes) / page * page;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)data;
    (void)nbytes;
#endif
}

/* ---- where large blocks start ----
 * A loop streaming through arrays stalls when a load's address matches,
 * in its low 12 bits, a store still in flight (4K aliasing): the core
 * cannot tell them apart at first and waits. NumPy's large arrays come
 * from mmap and start 16 bytes into a page, and glibc puts a large block
 * of ours at whatever page offset it has, often a few lines past theirs:
 * then `return a * b + c` wrote its result slower than into an array NumPy
 * made (bench/MEASURED.md). Large blocks therefore put their data
 * half a page away from NumPy's (PAGE_SPOT), 64-byte aligned; two of ours
 * then share an offset, which does not stall either (a load comes before
 * the store of the same element). */
#define PLACE_MIN ((int64_t)1 << 20)
#define PAGE ((size_t)4096)
#define PAGE_SPOT ((size_t)2048)

static kj_block_t *place_large(size_t total) {
    size_t shift = (PAGE_SPOT + PAGE - KJ_NRT_HEADER) % PAGE;
    char *raw = aligned_alloc(PAGE, (total + shift + PAGE - 1) / PAGE * PAGE);
    if (!raw)
        return NULL;
    kj_block_t *b = (kj_block_t *)(raw + shift);
    b->allocation = raw;
    return b;
}

/* ---- recycling large blocks ----
 * A function returning a new multi-megabyte array on every call would get
 * that memory from the C heap each time, and whether the heap hands back
 * pages already touched or fresh ones (two thousand page faults for 8 MB,
 * costing as much as computing it) depends on whatever else the process
 * allocated in between. So a few freed large blocks wait for the next
 * request of about their size; the bounds keep what is held small. */
#define RECYCLE_MIN ((int64_t)1 << 20)
#define RECYCLE_MAX ((int64_t)32 << 20)
#define RECYCLE_HELD_MAX ((int64_t)64 << 20)
#define RECYCLE_SLOTS 4

static pthread_mutex_t recycle_lock = PTHREAD_MUTEX_INITIALIZER;   /* guards the three below */
static kj_block_t *kept[RECYCLE_SLOTS];   /* oldest first */
static int n_kept;
static int64_t kept_bytes;

/* Takes kept[i] out, closing the gap. */
static kj_block_t *unkeep(int i) {
    kj_block_t *b = kept[i];
    memmove(&kept[i], &kept[i + 1], sizeof *kept * (size_t)(n_kept - i - 1));
    n_kept--;
    kept_bytes -= b->capacity;
    return b;
}

/* A kept block that holds nbytes wasting at most a quarter, or NULL; the
 * newest first (its memory is the likeliest still in cache). */
static kj_block_t *take_recycled(int64_t nbytes) {
    if (nbytes < RECYCLE_MIN || nbytes > RECYCLE_MAX)
        return NULL;
    kj_block_t *got = NULL;
    pthread_mutex_lock(&recycle_lock);
    for (int i = n_kept - 1; i >= 0 && !got; i--)
        if (kept[i]->capacity >= nbytes && kept[i]->capacity - nbytes <= kept[i]->capacity / 4)
            got = unkeep(i);
    pthread_mutex_unlock(&recycle_lock);
    return got;
}

/* ---- small blocks ----
 * glibc's aligned_alloc and free of a block of a few hundred bytes cost
 * most of a loop that makes a small array per iteration (memalign splits
 * chunks and free merges them back), where Numba's allocator is far
 * quicker. Each thread keeps a few freed small blocks of each size for
 * its next requests; they go back to the C heap when the thread ends. Not
 * under KILN_JIT_ASAN (engine.c), where the sanitizer must see each block
 * freed to catch a use after it. */
#define SMALL_CLASSES 8   /* whole blocks of 2 to 9 times 64 bytes: data up to 512 */
#define SMALL_KEEP 16     /* blocks kept per size and thread */

typedef struct {
    kj_block_t *head[SMALL_CLASSES];   /* linked through next */
    int n[SMALL_CLASSES];
} small_cache;

static _Thread_local small_cache *my_cache;
static _Thread_local bool no_cache;   /* this thread's could not be made */
static pthread_key_t cache_key;         /* its destructor frees a thread's cache */
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static bool caching;

static void drop_cache(void *p) {
    small_cache *c = p;
    for (int k = 0; k < SMALL_CLASSES; k++)
        while (c->head[k]) {
            kj_block_t *b = c->head[k];
            c->head[k] = b->next;
            free(b);
        }
    free(c);
}

static void make_cache_key(void) {
    const char *asan = getenv("KILN_JIT_ASAN");
    caching = !(asan && strcmp(asan, "1") == 0) && pthread_key_create(&cache_key, drop_cache) == 0;
}

/* This thread's cache, or NULL. */
static small_cache *thread_cache(void) {
    small_cache *c = my_cache;
    if (c || no_cache)
        return c;
    pthread_once(&cache_once, make_cache_key);
    c = caching ? calloc(1, sizeof *c) : NULL;
    if (c && pthread_setspecific(cache_key, c) != 0) {
        free(c);
        c = NULL;
    }
    no_cache = !c;
    return my_cache = c;
}

/* The size class of a block whose data area holds capacity bytes, or -1. */
static int small_class(int64_t capacity) {
    int64_t units = (capacity + KJ_NRT_HEADER) / 64;
    return units >= 2 && units < 2 + SMALL_CLASSES ? (int)(units - 2) : -1;
}

static kj_block_t *take_small(int64_t total) {
    int k = small_class(total - KJ_NRT_HEADER);
    small_cache *c = k >= 0 ? thread_cache() : NULL;
    kj_block_t *b = c ? c->head[k] : NULL;
    if (b) {
        c->head[k] = b->next;
        c->n[k]--;
    }
    return b;
}

/* Whether b went to this thread's cache. */
static bool keep_small(kj_block_t *b) {
    int k = b->allocation == b ? small_class(b->capacity) : -1;
    small_cache *c = k >= 0 ? thread_cache() : NULL;
    if (!c || c->n[k] == SMALL_KEEP)
        return false;
    b->next = c->head[k];
    c->head[k] = b;
    c->n[k]++;
    return true;
}

/* Keeps b for a later request (a small one in this thread's cache; a large
 * one among the recycled, giving up the oldest kept blocks to make room),
 * or frees it. */
static void give_back(kj_block_t *b) {
    if (keep_small(b))
        return;
    if (b->capacity < RECYCLE_MIN || b->capacity > RECYCLE_MAX) {
        free(b->allocation);
        return;
    }
    kj_block_t *out[RECYCLE_SLOTS];
    int n_out = 0;
    pthread_mutex_lock(&recycle_lock);
    while (n_kept == RECYCLE_SLOTS || (n_kept > 0 && kept_bytes + b->capacity > RECYCLE_HELD_MAX))
        out[n_out++] = unkeep(0);
    kept[n_kept++] = b;
    kept_bytes += b->capacity;
    pthread_mutex_unlock(&recycle_lock);
    for (int i = 0; i < n_out; i++)   /* outside the lock: free may return memory to the system */
        free(out[i]->allocation);
}

/* ---- rings (nrt.h) ---- */

static void lock_ring(kj_nrt_ring *r) {
    while (atomic_exchange_explicit(&r->lock, 1, memory_order_acquire))
        ;
}

static void unlock_ring(kj_nrt_ring *r) { atomic_store_explicit(&r->lock, 0, memory_order_release); }

/* The ring of blocks a failed call's close is freeing: their counts no
 * longer matter, and nothing but the close frees them. */
static kj_nrt_ring dying;

static void unlink_block(kj_block_t *b) {
    kj_nrt_ring *r = b->ring;
    lock_ring(r);
    if (b->prev)
        b->prev->next = b->next;
    else
        r->head = b->next;
    if (b->next)
        b->next->prev = b->prev;
    unlock_ring(r);
}

/* The counters, then the memory back. */
static void release(kj_block_t *b) {
    atomic_fetch_add_explicit(&n_frees, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&n_live_bytes, b->nbytes, memory_order_relaxed);
    give_back(b);
}

void kj_nrt_ring_close(kj_nrt_ring *ring, int failed) {
    /* the call is over, and with it every pool chunk that could free a block of the ring */
    kj_block_t *left = ring->head;
    ring->head = NULL;
    for (kj_block_t *b = left; b; b = b->next)
        b->ring = failed ? &dying : NULL;
    if (!failed)
        return;
    for (kj_block_t *b = left; b; b = b->next)   /* a list's items may be on the ring too: decref skips those */
        if (b->dtor)
            b->dtor(b);
    while (left) {
        kj_block_t *next = left->next;
        release(left);
        left = next;
    }
}

kj_block_t *kj_nrt_alloc(int64_t nbytes) {
    if (nbytes < 0 || kj_fault_refuse_if_stack_low())
        return NULL;
    size_t total = ((size_t)KJ_NRT_HEADER + (size_t)nbytes + 63) / 64 * 64;
    kj_block_t *b = nbytes < RECYCLE_MIN ? take_small((int64_t)total) : take_recycled(nbytes);
    if (!b) {
        b = nbytes >= PLACE_MIN ? place_large(total) : aligned_alloc(64, total);
        if (!b)
            return NULL;
        if (nbytes < PLACE_MIN)
            b->allocation = b;
        b->capacity = (int64_t)(total - KJ_NRT_HEADER);
        if (nbytes >= HUGE_ADVICE_BYTES)
            advise_huge(kj_nrt_data(b), nbytes);
    }
    atomic_init((_Atomic int64_t *)&b->refcnt, 1);
    b->nbytes = nbytes;
    b->dtor = NULL;
    b->ring = kj_fault_ring();
    if (b->ring) {
        lock_ring(b->ring);
        b->prev = NULL;
        b->next = b->ring->head;
        if (b->next)
            b->next->prev = b;
        b->ring->head = b;
        unlock_ring(b->ring);
    }
    atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&n_live_bytes, nbytes, memory_order_relaxed);
    return b;
}

kj_block_t *kj_nrt_alloc_zeroed(int64_t nbytes) {
    kj_block_t *b = kj_nrt_alloc(nbytes);
    if (b)
        memset(kj_nrt_data(b), 0, (size_t)nbytes);
    return b;
}

void kj_nrt_incref(void *owner) {
    if (kj_nrt_is_block(owner))
        atomic_fetch_add_explicit((_Atomic int64_t *)&kj_nrt_block(owner)->refcnt, 1,
                                  memory_order_relaxed);
}

void kj_nrt_decref(void *owner) {
    if (!kj_nrt_is_block(owner))
        return;
    kj_block_t *b = kj_nrt_block(owner);
    /* release/acquire: every write through other references happens
     * before the free */
    if (atomic_fetch_sub_explicit((_Atomic int64_t *)&b->refcnt, 1, memory_order_release) != 1)
        return;
    atomic_thread_fence(memory_order_acquire);
    if (b->ring == &dying)
        return;
    if (b->ring)
        unlink_block(b);
    if (b->dtor)
        b->dtor(b);
    release(b);
}

kj_nrt_stats_t kj_nrt_stats(void) {
    kj_nrt_stats_t s = {atomic_load(&n_allocs), atomic_load(&n_frees), atomic_load(&n_live_bytes)};
    return s;
}

/* ---- the base object of arrays returned to Python ---- */

typedef struct {
    PyObject_HEAD
    void *owner;    /* one reference on the block */
} owned_memory;

static void owned_memory_dealloc(PyObject *self) {
    kj_nrt_decref(((owned_memory *)self)->owner);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject owned_memory_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.OwnedMemory",
    .tp_doc = "Memory allocated by compiled code, kept alive by the NumPy arrays on it.",
    .tp_basicsize = sizeof(owned_memory),
    .tp_dealloc = owned_memory_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

PyObject *kj_nrt_base_object(void *owner) {
    if (!kj_nrt_is_block(owner)) {
        PyObject *o = owner ? (PyObject *)owner : Py_None;
        Py_INCREF(o);
        return o;
    }
    owned_memory *m = PyObject_New(owned_memory, &owned_memory_type);
    if (!m)
        return NULL;
    m->owner = owner;
    return (PyObject *)m;
}

static PyObject *nrt_stats_py(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    kj_nrt_stats_t s = kj_nrt_stats();
    return Py_BuildValue("{s:L,s:L,s:L}", "alloc", (long long)s.allocs, "free", (long long)s.frees,
                         "live_bytes", (long long)s.live_bytes);
}

static PyMethodDef nrt_methods[] = {
    {"nrt_stats", nrt_stats_py, METH_NOARGS,
     "nrt_stats() -> {'alloc', 'free', 'live_bytes'}: blocks allocated and freed by compiled "
     "code since the process started, and the bytes still held."},
    {NULL, NULL, 0, NULL},
};

int kj_nrt_module_init(PyObject *module) {
    if (PyType_Ready(&owned_memory_type) < 0 || PyModule_AddFunctions(module, nrt_methods) < 0)
        return -1;
    Py_INCREF(&owned_memory_type);
    if (PyModule_AddObject(module, "OwnedMemory", (PyObject *)&owned_memory_type) < 0) {
        Py_DECREF(&owned_memory_type);
        return -1;
    }
    return 0;
}
