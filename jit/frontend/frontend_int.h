/* frontend_int: what the front end's two halves share (frontend.c: the
 * helpers over ast objects and the expressions; frontend_stmt.c: the
 * statements and kj_frontend). Not for use outside the front end. */
#ifndef KILN_JIT_FRONTEND_INT_H
#define KILN_JIT_FRONTEND_INT_H

#include <stdbool.h>

#include "jit/frontend/frontend.h"

/* The state of one function's walk. */
typedef struct {
    kj_function *f;
    kj_error *e;
    int line_offset;      /* added to ast line numbers: file line of the block - 1 */
    int col_offset;       /* the indent removed from every line */
    PyObject *globals;    /* borrowed */
    PyObject *builtins;   /* borrowed */
    PyObject *closure;    /* owned dict: free variables' values, or NULL */
    PyObject *inner;      /* owned dict: inner functions by name (inner.c), or NULL */
    PyObject *slices;     /* owned dict: s = slice(a, b, c) names, each with the locals holding its
                           * bounds (a tuple of 3 slots or None), and dt = np.int_ names, each
                           * with the type's function name (a str), or NULL (frontend_stmt.c) */
    PyObject *fdef;       /* borrowed: the function's ast */
    PyObject *self;       /* borrowed: the dispatcher being compiled, which the function's
                           * own name means while that name is not bound yet */
    const char *self_name;
    bool is_lambda;
    struct fe_handler *handler;   /* the innermost except clause being read, or NULL */
    struct fe_scope *scope;       /* the innermost list comprehension being read, or NULL */
} fe;

/* A list comprehension's names (its target's), which Python keeps apart
 * from the function's locals: slots[i] is the local names[i] means inside
 * it. */
#define FE_SCOPE_NAMES 16
typedef struct fe_scope {
    const char *names[FE_SCOPE_NAMES];
    int slots[FE_SCOPE_NAMES];
    int n;
    struct fe_scope *outer;
} fe_scope;

/* An except clause whose body the front end is reading: raise (bare) and
 * raise name re-raise its exception, which marks the clause (node->ival) to
 * keep it; name (the `as` name, or NULL) may be used in no other way. */
typedef struct fe_handler {
    kj_node *node;
    const char *name;
    struct fe_handler *outer;
} fe_handler;

/* The ast class name of node, and whether it is `kind`. */
const char *kj_fe_kind_of(PyObject *node);
bool kj_fe_is(PyObject *node, const char *kind);

/* node.name as a new reference, or NULL with c->e filled. */
PyObject *kj_fe_get(fe *c, PyObject *node, const char *name);

/* node's line and column in the file (the offsets of the source block added). */
int kj_fe_line(fe *c, PyObject *node);
int kj_fe_col(fe *c, PyObject *node);

/* Fills c->e with an UnsupportedError at node; returns -1. */
int kj_fe_unsupported(fe *c, PyObject *node, const char *hint, const char *what);

/* Adds a local (or parameter) to f, or returns the one of that name; -1 on
 * failure. kj_fe_add_param is kj_fe_add_local(f, name, true). */
int kj_fe_add_local(kj_function *f, const char *name, bool is_arg);
bool kj_fe_is_local(kj_function *f, const char *name);
int kj_fe_add_param(kj_function *f, const char *name);

/* Makes every name assigned anywhere under node a local of c->f. */
int kj_fe_collect_locals(fe *c, PyObject *node);

/* Gives the ast nodes made[0..n) (built to stand for `from`, all
 * non-NULL) the location of `from`, through ast.copy_location; false
 * with a Python error set when one is NULL or that fails. */
bool kj_fe_place(PyObject *ast, PyObject *const *made, size_t n, PyObject *from);

/* For `name = lambda ...: ...` (one name, a lambda), the target's name (a
 * new reference) and the lambda node (borrowed from node, in *lambda);
 * NULL for any other statement. Such a name is an inner function, not a
 * local (inner.c). */
PyObject *kj_fe_lambda_binding(PyObject *node, PyObject **lambda);

/* Replaces *fdef (c->f's FunctionDef ast, owned) by a copy with the body
 * of each generator a for loop of it runs written into the loop's place
 * (python/kiln/generators.py); the parse itself is shared with later
 * compiles (source.h) and stays as it is. 0, or -1 with c->e filled. */
int kj_fe_inline_generators(fe *c, PyObject **fdef);

/* The IR of an expression, and of an assignment target (a local, an
 * element, or a tuple of those); NULL with c->e filled. */
kj_node *kj_fe_expr(fe *c, PyObject *node);
kj_node *kj_fe_target(fe *c, PyObject *node);

/* The operator an ast operator node (Add, Eq, And, ...) stands for, or
 * (kj_op)-1 for one Kiln does not know. */
kj_op kj_fe_binop(PyObject *op);

#endif
