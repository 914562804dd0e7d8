/* fault: SIGSEGV / SIGBUS in guarded calls of compiled code, turned into
 * the call's error (fault.h).
 *
 * A guard is a sigjmp_buf on the stack of the C function that calls
 * compiled code, linked into its thread's chain. The handler jumps to the
 * thread's innermost one; the guarded function then unlinks it and records
 * the error as compiled code records its own (kj_rt_raise), so callers
 * handle a fault like any raised exception: the dispatcher raises it, the
 * pool stops the run and raises it on the caller's thread. Jumping out of
 * compiled code is safe because it holds no lock of its own; a fault inside
 * the C library under a lock (malloc with a heap an overrun corrupted) is
 * beyond saving either way. The handler runs on an alternate stack, set up
 * per thread at its first guarded call, so that a stack overflow is caught
 * too. */
#define _GNU_SOURCE   /* gettid, pthread_getattr_np */
#include "jit/runtime/fault.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/runtime.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct guard {
    sigjmp_buf env;
    struct guard *prev;
    void *volatile addr;   /* the address that faulted, set by the handler */
} guard;

/* The innermost guard of each thread that made a guarded call, found by
 * the handler through its thread id: the handler may not read
 * thread-local variables, whose first read in a thread allocates in a
 * dlopen'd library (and initial-exec ones did not fit in the static TLS
 * glibc had left: _kiln.so failed to load). A thread takes a slot at its first guarded call and
 * gives it back when it ends; past MAX_THREADS threads, calls run
 * unguarded. */
#define MAX_THREADS 256
static struct {
    _Atomic pid_t tid;
    guard *_Atomic innermost;
    kj_nrt_ring *ring;    /* of the innermost call tracking this thread's blocks, or NULL (only this thread uses it) */
} threads[MAX_THREADS];
static _Thread_local int my_slot = -1;   /* -2: none was free */
static _Thread_local uintptr_t stack_floor;   /* the stack's bottom + KJ_STACK_RESERVE, from the first guarded call */
static pthread_key_t thread_key;          /* its value: the thread's alternate stack, or &thread_key */
static bool have_records;                 /* thread_key made and the fork handler set (records_once) */
static pthread_once_t records_once = PTHREAD_ONCE_INIT;

PyObject *kj_MemoryFault;
static struct sigaction previous_segv, previous_bus;

#define ALT_STACK_SIZE (64 * 1024)

static const char fault_message[] =
    "compiled code read or wrote memory outside its arrays. The usual cause is an index out of "
    "bounds: compiled code does not check indices unless compiled with boundscheck=True "
    "(@kiln.jit(boundscheck=True), or %%jit --boundscheck in a notebook), which raises IndexError at "
    "the line.";
static const char overflow_message[] =
    "maximum recursion depth exceeded in compiled code: its stack overflowed";

/* Not ours (no guarded call on this thread): to the handler we replaced,
 * or, when that is the default, back to it, so that the instruction faults
 * again and the process ends as it would have without Kiln. */
static void pass_on(int sig, siginfo_t *info, void *uctx) {
    struct sigaction *prev = sig == SIGSEGV ? &previous_segv : &previous_bus;
    if (prev->sa_flags & SA_SIGINFO) {
        prev->sa_sigaction(sig, info, uctx);
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
    } else {
        signal(sig, SIG_DFL);
        if (info->si_code <= 0)   /* sent, not a fault that comes again */
            raise(sig);
    }
}

static void on_fault(int sig, siginfo_t *info, void *uctx) {
    pid_t me = gettid();
    guard *g = NULL;
    for (int i = 0; i < MAX_THREADS && !g; i++)
        if (atomic_load(&threads[i].tid) == me)
            g = atomic_load(&threads[i].innermost);
    if (!g) {
        pass_on(sig, info, uctx);
        return;
    }
    g->addr = info->si_addr;
    siglongjmp(g->env, 1);   /* SA_NODEFER: the signal is not left blocked */
}

/* When a thread with a slot ends: the slot back, its stack freed. */
static void release_thread(void *stack) {
    atomic_store(&threads[my_slot].innermost, NULL);
    atomic_store(&threads[my_slot].tid, 0);
    if (stack != &thread_key) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        free(stack);
    }
}

static void after_fork_child(void);

/* Made on the first guarded call or at installation, whichever comes
 * first: a guarded call before the key existed would have set key 0, which
 * belongs to whoever created it first (under ASan, ASan's own record of
 * the thread, which then crashed at the next malloc or thread exit). */
static void make_records(void) {
    if (pthread_key_create(&thread_key, release_thread) != 0)
        return;
    if (pthread_atfork(NULL, NULL, after_fork_child) != 0) {
        pthread_key_delete(thread_key);
        return;
    }
    have_records = true;
}

/* Takes this thread's slot (returned, or -2), and gives it an alternate
 * signal stack unless it has one already (Python's faulthandler sets one
 * up on the main thread). */
static int register_thread(void) {
    pid_t me = gettid();
    my_slot = -2;
    pthread_once(&records_once, make_records);
    if (!have_records)
        return my_slot;   /* no slot can be given back at thread exit: unguarded */
    for (int i = 0; i < MAX_THREADS && my_slot < 0; i++) {
        pid_t free_tid = 0;
        if (atomic_compare_exchange_strong(&threads[i].tid, &free_tid, me))
            my_slot = i;
    }
    if (my_slot < 0)
        return my_slot;
    pthread_attr_t attr;
    void *lo;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &lo, &size) == 0)
            stack_floor = (uintptr_t)lo + KJ_STACK_RESERVE;
        pthread_attr_destroy(&attr);
    }
    void *stack = &thread_key;   /* a key's destructor runs only for a value other than NULL */
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
        void *mem = malloc(ALT_STACK_SIZE);
        stack_t alt = {.ss_sp = mem, .ss_size = ALT_STACK_SIZE};
        if (mem && sigaltstack(&alt, NULL) == 0)
            stack = mem;
        else
            free(mem);
    }
    pthread_setspecific(thread_key, stack);
    return my_slot;
}

/* A forked child has only the thread that forked, under a new id. */
static void after_fork_child(void) {
    for (int i = 0; i < MAX_THREADS; i++)
        if (i != my_slot)
            atomic_store(&threads[i].tid, 0);
    if (my_slot >= 0)
        atomic_store(&threads[my_slot].tid, gettid());
}

/* Whether addr lies at the bottom of this thread's stack or in the gap
 * Linux keeps below it (256 pages; a frame may skip a few more). */
static bool on_stack_edge(void *addr) {
    pthread_attr_t attr;
    void *lo;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return false;
    bool got = pthread_attr_getstack(&attr, &lo, &size) == 0;
    pthread_attr_destroy(&attr);
    uintptr_t a = (uintptr_t)addr, bottom = (uintptr_t)lo;
    return got && a + (2u << 20) >= bottom && a < bottom + 64 * 1024;
}

bool kj_fault_refuse_if_stack_low(void) {
    if ((uintptr_t)__builtin_frame_address(0) >= stack_floor)
        return false;
    kj_rt_raise(PyExc_RecursionError, overflow_message);
    return true;
}

kj_nrt_ring *kj_fault_ring(void) {
    int slot = my_slot;
    return slot >= 0 ? threads[slot].ring : NULL;
}

/* The end of a call that tracked this thread's blocks on ring (nrt.h):
 * the ring of the call around it, if any, tracks again. */
static void end_tracking(int slot, kj_nrt_ring *ring, kj_nrt_ring *outer, bool failed) {
    threads[slot].ring = outer;
    if (failed || ring->head)
        kj_nrt_ring_close(ring, failed);
}

/* After the jump: g off the chain, the fault this thread's pending error,
 * and, if g was tracking (ring), what the call allocated freed. */
static int faulted(guard *g, kj_nrt_ring *ring, kj_nrt_ring *outer) {
    atomic_store(&threads[my_slot].innermost, g->prev);
    if (ring)
        end_tracking(my_slot, ring, outer, true);
    bool overflow = on_stack_edge(g->addr);
    kj_rt_raise(overflow ? PyExc_RecursionError : kj_MemoryFault, overflow ? overflow_message : fault_message);
    return 1;
}

/* This thread's slot, taken on its first call; -2 if none was free. One
 * read of my_slot: each costs a call in a shared library. */
static inline int thread_slot(void) {
    int slot = my_slot;
    return slot == -1 ? register_thread() : slot;
}

/* The body of every guarded call: a macro, because sigsetjmp must run in
 * the frame that stays live while the compiled code runs. g is not
 * initialised as a whole: clearing its sigjmp_buf cost more than the rest
 * of a call of an identity function. A call from Python or NumPy (track)
 * tracks the blocks its thread allocates on a ring of its own until it
 * ends (nrt.h); a pool chunk tracks none of its own: on the caller's
 * thread the call around it tracks them, and what a worker made may be
 * the caller's to free. ring_ is written after sigsetjmp only through its
 * address, which the thread's record holds, so a jump finds it in memory. */
#define GUARDED(track, call)                                                          \
    do {                                                                              \
        const int slot_ = thread_slot();                                              \
        if (slot_ < 0)                                                                \
            return (call);                                                            \
        guard g;                                                                      \
        g.prev = atomic_load_explicit(&threads[slot_].innermost, memory_order_relaxed); \
        kj_nrt_ring ring_, *const outer_ = threads[slot_].ring;                       \
        if (track) {                                                                  \
            atomic_init(&ring_.lock, 0);                                              \
            ring_.head = NULL;                                                        \
            threads[slot_].ring = &ring_;                                             \
        }                                                                             \
        if (sigsetjmp(g.env, 0))                                                      \
            return faulted(&g, (track) ? &ring_ : NULL, outer_);                      \
        atomic_store_explicit(&threads[slot_].innermost, &g, memory_order_relaxed);   \
        int status = (call);                                                          \
        atomic_store_explicit(&threads[slot_].innermost, g.prev, memory_order_relaxed); \
        if (track)                                                                    \
            end_tracking(slot_, &ring_, outer_, status != 0);                         \
        return status;                                                                \
    } while (0)

/* GCC takes the slot, held in a register across sigsetjmp, for a value a
 * longjmp could clobber; it is set before sigsetjmp and never after. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclobbered"

int kj_guarded_entry(int (*entry)(void *, void **), void *ret, void **args) { GUARDED(true, entry(ret, args)); }

int kj_guarded_body(kj_pool_body body, void *ctx, int64_t lo, int64_t hi, int64_t slot) {
    GUARDED(false, body(ctx, lo, hi, slot));
}

int kj_guarded_loop(kj_ufunc_loop loop, char **args, const intptr_t *dims, const intptr_t *steps) {
    GUARDED(true, loop(args, dims, steps, NULL));
}

#pragma GCC diagnostic pop

int kj_install_fault_handler(PyObject *module) {
    kj_MemoryFault = PyErr_NewExceptionWithDoc(
        "kiln.MemoryFault",
        "Compiled code faulted (read or wrote unmapped memory), usually through an index out of "
        "bounds; boundscheck=True turns those into IndexError.",
        PyExc_RuntimeError, NULL);
    if (!kj_MemoryFault)
        return -1;
    Py_INCREF(kj_MemoryFault);
    if (PyModule_AddObject(module, "MemoryFault", kj_MemoryFault) < 0)
        return -1;
    static bool installed;
    if (installed)
        return 0;
    pthread_once(&records_once, make_records);
    if (!have_records) {
        PyErr_SetString(PyExc_OSError, "cannot set up the fault handler's thread records");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &previous_segv) != 0 || sigaction(SIGBUS, &sa, &previous_bus) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    installed = true;
    return 0;
}
