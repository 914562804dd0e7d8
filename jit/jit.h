/* jit: Kiln's compiler for the host CPU (front end, types, inference,
 * lowering, engine, dispatcher, runtime). Public names are prefixed kj_. */
#ifndef KILN_JIT_H
#define KILN_JIT_H

#include <Python.h>

/* Adds the compiler's functions and types to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kj_module_init(PyObject *module);

#endif
