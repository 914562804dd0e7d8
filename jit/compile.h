/* compile: the driver of one compile (front end, inference, lowering,
 * engine) and its product, the Specialization: machine code for one
 * function and one signature, with what the notebook shows about it
 * (optimized IR, assembly, vectorization remarks, per-line types, phase
 * times). */
#ifndef KILN_JIT_COMPILE_H
#define KILN_JIT_COMPILE_H

#include <Python.h>
#include <stdbool.h>

#include "jit/types.h"

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
} kj_spec;

extern PyTypeObject kj_spec_type;

/* _kiln.compile(dispatcher, argspecs, retspec_or_None) -> Specialization */
PyObject *kj_compile_py(PyObject *self, PyObject *args);

int kj_compile_init(PyObject *module);

#endif
