/* frontend: a Python function's source -> Kiln IR (ir.h), resolving globals
 * at compile time (numbers and tuples become constants; math, cmath, random
 * and numpy functions, builtins and other kiln functions become KJ_E_FUNC). */
#ifndef KILN_JIT_FRONTEND_H
#define KILN_JIT_FRONTEND_H

#include "jit/errors.h"
#include "jit/ir.h"

/* Builds the IR of py_func. Returns a new function (free with
 * kj_function_free) or NULL with e filled (f is then still returned through
 * *partial when its source was found, so the error can show the line). */
kj_function *kj_frontend(PyObject *py_func, kj_error *e, kj_function **partial);

/* A Python value read at compile time, as IR (a constant, a tuple of
 * constants, a module, function, exception class or dispatcher); `what`
 * names it in errors. NULL with e filled (globals.c). */
kj_node *kj_value_node(kj_function *f, kj_error *e, PyObject *v, int line, int col, const char *what);

/* The dispatcher type: globals holding one are compiled together with the
 * caller (set by dispatch.c). */
extern PyTypeObject *kj_dispatcher_type;

#endif
