/* infer_ctx: the state of one inference pass (infer.c), shared by the
 * inference files that need more than infer.h gives them. */
#ifndef KILN_JIT_INFER_CTX_H
#define KILN_JIT_INFER_CTX_H

#include "jit/infer/infer.h"
#include "jit/core/unit.h"

typedef struct kj_infer_ctx {
    kj_unit *u;
    kj_instance *inst;
    kj_function *f;
    bool strict;
    bool changed;
    bool failed;            /* a hard error (conflicting assignment) */
} ti;

/* An optional used as a value is its value (as in Numba: None there is the
 * user's bug, not a type error). */
static inline const kj_type *kj_value_of(const kj_type *t) { return t && t->kind == KJ_T_OPTIONAL ? t->elem : t; }

/* infer_calls.c: settles the shape of call n before it is typed: 2 when n
 * is no longer a call (type it again), 1 when it is a call to type, 0
 * while a type it needs is unknown, -1 on an error (reported). */
int kj_infer_call_shape(ti *c, kj_node *n);
/* The type of subscript n, and of `x in container` with x of type x
 * (infer_index.c). */
const kj_type *kj_infer_index_type(ti *c, kj_node *n);
const kj_type *kj_infer_contains_type(ti *c, kj_node *n, const kj_type *x, const kj_type *container);
/* The type of a kiln function named as a value (KJ_E_FUNC "dispatcher"). */
const kj_type *kj_infer_function_value(ti *c, kj_node *n);
/* The return type of call n to a kiln dispatcher with arguments of the given types: the
 * instance it goes to is typed (inferred first if need be) and recorded in n->aux. */
const kj_type *kj_infer_dispatcher_call(ti *c, kj_node *n, const kj_type **args, int nargs);

/* Strings (infer_strings.c): f-strings and str(x); print(...), with
 * handled false for other calls. */
const kj_type *kj_str_expr_type(ti *c, kj_node *n);
const kj_type *kj_str_call_type(ti *c, kj_node *n, const char *name, int nargs, const kj_type *const *args,
                                bool *handled);

#endif
