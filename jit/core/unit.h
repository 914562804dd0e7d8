/* unit: one compile, from a dispatcher's Python function and argument types
 * to machine code. A unit holds every function instance compiled together:
 * the one asked for and the kiln functions it calls (self-recursion
 * included), so calls between them go straight from machine code to machine
 * code. Inference (infer.c) and lowering (lower*.c) work on instances. */
#ifndef KILN_JIT_UNIT_H
#define KILN_JIT_UNIT_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "jit/core/errors.h"
#include "jit/core/ir.h"
#include "jit/core/target.h"

/* Compile options (jit(...) keywords). */
typedef struct {
    bool nogil;
    bool boundscheck;
    bool numpy_errors;          /* error_model='numpy': float division by zero is IEEE's inf or nan */
    unsigned fastmath;          /* LLVMFastMathFlags; 0 = strict IEEE */
    bool no_interrupt_poll;     /* only for measuring what polling costs (bench/) */
    bool loops_polled_outside;  /* a ufunc kernel: the ufunc's loop polls (ufunc_loop.c), its counted loops do not */
    bool parallel;              /* prange loops run on the thread pool (parallel.h) */
} kj_options;

typedef struct kj_instance kj_instance;
struct kj_instance {
    kj_function *f;             /* owned */
    PyObject *dispatcher;       /* borrowed (kept alive by the caller's globals) */
    const kj_type **args;       /* nargs argument types */
    const kj_type *ret;         /* inferred, or declared by a signature */
    bool ret_declared;
    kj_options opts;
    bool typed;                 /* inference finished */
    bool typing;                /* inference running (a recursive call reads ret) */
    LLVMValueRef llfn;          /* i32 fn(ptr ret, args...) */
    char symbol[128];
    kj_instance *next;
};

typedef struct {
    const kj_target *target;
    kj_instance *instances;     /* the first is the one asked for */
    kj_error err;
    kj_function *err_function;  /* where err happened (borrowed) */
    kj_function *orphan;        /* a function whose front end failed (owned) */
    PyObject *parallel_report;  /* list of prange loop records (parallel_lower.c), or NULL */
    PyObject *cache_object;     /* cache=True: [object bytes, entry, symbols] (cache.c), or NULL */
    PyObject *loop_remarks;     /* Kiln's own loop remarks (lower_strict_sums.c), or NULL; engine.c adds LLVM's */
    /* while the instance asked for is made: its dispatcher, whose types this
     * compile gives exactly (an explicit signature wins over its locked list) */
    PyObject *exact_dispatcher;
    /* lowering */
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMDIBuilderRef di;
    LLVMMetadataRef di_file, di_cu;
} kj_unit;

/* Appends {line, kind, message} to a remark list (inspect_remarks'
 * shape, as u->loop_remarks holds); a failure is dropped (unit.c). */
void kj_remark_add(PyObject *list, long line, const char *kind, const char *message);

/* Creates the instance of `dispatcher` (its py_func and options) for these
 * argument types in unit u, or returns the one already there. NULL with
 * u->err filled (instances.c). */
kj_instance *kj_unit_instance(kj_unit *u, PyObject *dispatcher, int nargs,
                              const kj_type *const *args);

/* What a kiln function keeps in C between its compiles: its options, the
 * signatures it was declared with and its specializations. kiln.Dispatcher
 * holds one (dispatch.c), which Python reads and sets as _kiln_options (a
 * dict), _kiln_locked_sigs and _kiln_compiled. */
typedef struct {
    kj_options opts;
    bool cache;                 /* cache=True: compiled code kept on disk (python/kiln/cache.py) */
    PyObject *locked;           /* owned: the declared signatures, a list of (argspecs, retspec or None); NULL: any types */
    PyObject *specs;            /* owned: the Specializations compiled, one per signature, oldest first; or NULL */
} kj_fn_state;

/* kiln.Dispatcher (types.h's kj_dispatcher_type) keeps its kj_fn_state
 * `offset` bytes in (dispatch.c says so at start-up). */
void kj_fn_state_register(size_t offset);
/* The state kept by o, or NULL where o is no kiln function. */
kj_fn_state *kj_fn_state_of(PyObject *o);

/* A dispatcher's compile options (defaults for an object that keeps none). */
kj_options kj_read_options(PyObject *dispatcher);

/* Infers the types of every node and local of inst (and of the instances
 * it calls). Returns 0, or -1 with u->err filled. */
int kj_infer(kj_unit *u, kj_instance *inst);

#endif
