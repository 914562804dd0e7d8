/* frontend: a Python function's source -> Kiln IR (ir.h), resolving globals
 * at compile time (numbers and tuples become constants; math, cmath, random
 * and numpy functions, builtins and other kiln functions become KJ_E_FUNC). */
#ifndef KILN_JIT_FRONTEND_H
#define KILN_JIT_FRONTEND_H

#include "jit/core/errors.h"
#include "jit/core/ir.h"

/* Builds the IR of the function of dispatcher (its py_func). Returns a new
 * function (free with kj_function_free) or NULL with e filled (f is then
 * still returned through *partial when its source was found, so the error
 * can show the line). */
kj_function *kj_frontend(PyObject *dispatcher, PyObject *py_func, kj_error *e, kj_function **partial);

/* Adds _kiln.compiled_as, the objects kiln.extending registered, each with
 * the kiln dispatcher compiled code calls in its place. */
int kj_globals_init(PyObject *module);

/* A Python value read at compile time, as IR (a constant, a tuple of
 * constants, a module, function, exception class or dispatcher); `what`
 * names it in errors. NULL with e filled (globals.c). */
kj_node *kj_value_node(kj_function *f, kj_error *e, PyObject *v, int line, int col, const char *what);

/* Rewrites a call to a kiln dispatcher (kids[0]) that passes keywords,
 * leaves parameters to their defaults or feeds a *args into a positional
 * call with every parameter (a callee's *args gets one tuple), then, for an inner function (inner.c), appends its free
 * variables as load(ctx, name, line, col) reads them; a Python-worded
 * TypingError otherwise (bind.c). */
int kj_bind_call(kj_function *f, kj_error *e, kj_node *call,
                 kj_node *(*load)(void *ctx, const char *name, int line, int col), void *ctx);

/* The binding of a call that spread a tuple (g(*t)), once inference has
 * replaced the spread by the tuple's elements; the free variables
 * kj_bind_call appended (call->ival of them) stay last (bind.c). */
int kj_bind_spread(kj_function *f, kj_error *e, kj_node *call);

/* Inner functions (inner.c). kj_inner_def: lifts the def node fdef (on
 * file line `line`) of f into a dispatcher of its own whose free variables
 * are trailing parameters, stored as inner[name]; -1 with e filled.
 * kj_lifted_freevars: those names (new reference) if dispatcher is such a
 * lifted function, else NULL. kj_lifted_params: for a lifted py_func, adds
 * those names as parameters of f through add_param; returns how many (0
 * for any other function), or -1 with a Python exception set. An inner
 * function may call itself and the inner functions defined before it. */
int kj_inner_def(kj_function *f, PyObject *fdef, PyObject *inner, int line, int col, kj_error *e);
/* The same for `name = lambda ...` on file line `line`, the lambda alone
 * on its line (two there could not be told apart). */
int kj_inner_lambda(kj_function *f, PyObject *lambda, const char *name, PyObject *inner, int line, int col, kj_error *e);
PyObject *kj_lifted_freevars(PyObject *dispatcher);
int kj_lifted_params(kj_function *f, PyObject *py_func, int (*add_param)(kj_function *, const char *));

#endif
