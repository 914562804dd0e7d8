/* compile: the driver of one compile (front end, inference, lowering,
 * engine) and its product, the Specialization: machine code for one
 * function and one signature, with what the notebook shows about it
 * (optimized IR, assembly, vectorization remarks, per-line types, phase
 * times). */
#ifndef KILN_JIT_COMPILE_H
#define KILN_JIT_COMPILE_H

#include <Python.h>
#include <stdbool.h>

#include "jit/core/types.h"
#include "jit/core/unit.h"

#include <llvm-c/DebugInfo.h>

/* The most arguments a compiled function takes from Python. */
#define KJ_SPEC_MAX_ARGS 32

/* i32 entry(ptr ret, ptr args): args[i] points at argument i. */
typedef int (*kj_entry_fn)(void *ret, void **args);

typedef struct {
    PyObject_HEAD
    kj_entry_fn entry;
    int nargs;
    const kj_type **args;
    const kj_type *ret;
    bool nogil;
    char *ir;
    char *asm_text;          /* made on first request */
    PyObject *remarks;       /* list of dicts */
    PyObject *stats;         /* dict phase -> seconds */
    PyObject *annotations;   /* list of (line, source, {var: type}) */
    PyObject *signature;     /* str */
    PyObject *keep;          /* objects the machine code points at */
    PyObject *parallel;      /* list of prange loop records (parallel_lower.c) */
    PyObject *object;        /* cache=True: [object bytes, entry, symbols] (cache.c), or None */
    /* where each argument goes in the dispatcher's argument buffer, worked
     * out on the first call (dispatch.c) so later calls skip the layout */
    bool laid_out;
    bool scalar_call;        /* numbers only, in and out: dispatch.c's call_scalars */
    unsigned arg_offset[KJ_SPEC_MAX_ARGS];
    unsigned args_size, ret_size;
    struct kp_calls *calls;  /* the profiler's record of its calls, made with the layout; owned */
} kj_spec;

extern PyTypeObject kj_spec_type;

/* The stages every target's compile shares (the CPU's here, kiln.cuda's in
 * gpu/cuda_compile.c), each timed into phase[] by its KP_PHASE_* (profiler.h).
 * kj_compile_front: the instance of dispatcher for these argument types,
 * made by the front end (parse), with ret as its declared result if not
 * NULL, then typed with its callees (typing); exact: these types win over
 * the signatures the dispatcher declares (an explicit compile); NULL with
 * u->err filled or a Python exception set.
 * kj_compile_module: after inference, a module for u's target in context
 * ctx (with line tables of the given emission kind), lowered from u's
 * instances; 0, or -1 with u->err filled (the module is u->mod either way).
 * kj_phase_stats: seconds per phase, the dict Specialization.stats and a
 * CUDA kernel's stats hold; NULL with an exception. */
kj_instance *kj_compile_front(kj_unit *u, PyObject *dispatcher, int nargs, const kj_type *const *args,
                              const kj_type *ret, bool exact, uint64_t *phase);
int kj_compile_module(kj_unit *u, kj_instance *top, LLVMContextRef ctx, LLVMDWARFEmissionKind emission,
                      uint64_t *phase);
PyObject *kj_phase_stats(const uint64_t *phase);
/* The compile's record for the profiler (the cell's footer): top's name,
 * the signature as shown, u's target and the phases. */
void kj_compile_record(const kj_unit *u, const kj_instance *top, const char *signature, const uint64_t *phase);
/* Frees what u holds; kj_unit_fail first sets u's error as the Python
 * exception, and returns NULL. */
void kj_unit_free(kj_unit *u);
PyObject *kj_unit_fail(kj_unit *u);

/* A step after lowering that may give the compiled function another entry:
 * if top's dispatcher is of its kind, it defines the entry in u->mod and
 * writes its name into entry_name. Returns 0 (also when not of its kind),
 * or -1 with u->err filled. dispatch/ registers kiln.vectorize's ufunc
 * loop and kiln.cfunc's C function at import (module.c). */
typedef int (*kj_entry_hook)(kj_unit *u, kj_instance *top, char *entry_name, size_t size);
void kj_compile_add_entry_hook(kj_entry_hook hook);

/* _kiln.compile(dispatcher, argspecs, retspec_or_None) -> Specialization */
PyObject *kj_compile_py(PyObject *self, PyObject *args);

int kj_compile_init(PyObject *module);

#endif
