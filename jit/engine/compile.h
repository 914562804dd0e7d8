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

/* _kiln.compile(dispatcher, argspecs, retspec_or_None) -> Specialization */
PyObject *kj_compile_py(PyObject *self, PyObject *args);

int kj_compile_init(PyObject *module);

#endif
