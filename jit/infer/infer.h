/* infer: type inference (infer.c), as the features that type their own
 * values (numpy/, containers/) use it: the types of the nodes they are
 * given, problems reported at the user's line, locals typed as an
 * assignment would. */
#ifndef KILN_JIT_INFER_H
#define KILN_JIT_INFER_H

#include <stdio.h>

#include "jit/core/ir.h"

typedef struct kj_infer_ctx kj_infer_ctx;
/* The type of n (inferring it), or NULL. */
const kj_type *kj_infer_sub(kj_infer_ctx *c, kj_node *n);
/* The type of n as a value: when n is an Optional, n becomes a
 * KJ_E_UNWRAP of what it was, typed as the Optional's value. */
const kj_type *kj_infer_value(kj_infer_ctx *c, kj_node *n);
/* A typing problem at n: an error when inference is strict, NULL always. */
const kj_type *kj_infer_problem(kj_infer_ctx *c, kj_node *n, const char *hint, const char *what);
/* A new node in the function's memory, for a feature that rewrites an
 * expression while typing it (numpy/infer_np_index.c). */
kj_node *kj_infer_new_node(kj_infer_ctx *c, kj_node_kind kind, int line, int col, int nkids);
/* Gives local `slot` a (more precise) type, as an assignment would. */
int kj_infer_assign_local(kj_infer_ctx *c, int slot, const kj_type *t, kj_node *at);
/* Types an assignment's target (a local or a tuple of them) as holding t. */
int kj_infer_assign_target(kj_infer_ctx *c, kj_node *target, const kj_type *t, kj_node *at);

/* Whether block b always ends by return or raise (the statement that does
 * may be nested in an if whose branches both do, or a try). */
bool kj_block_terminates(const kj_block *b);
/* Before typing an instance: what its arguments' types decide, taken as
 * decided (decided.c): isinstance of a parameter, and the `if` branches
 * such tests and `x is None` leave out. 0, or -1 out of memory. */
int kj_decide_by_argument_types(kj_function *f, const kj_type *const *args);

/* The type of call n of a container's method (infer_method.c), self the
 * container's type; and the problem that the container has no such method
 * (known: not with these arguments), for its entries to report. */
const kj_type *kj_infer_container_method(kj_infer_ctx *c, kj_node *n, const kj_type *self);
const kj_type *kj_infer_method_refused(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool known);

/* A typing problem at n with a formatted message: returns NULL from the
 * caller (the typings of np.* calls, lists and strings share it). */
#define KJ_INFER_FAIL(c, n, hint, ...)                                  \
    do {                                                                \
        char what_[1200];                                               \
        snprintf(what_, sizeof what_, __VA_ARGS__);                     \
        return kj_infer_problem(c, n, hint, what_);                     \
    } while (0)

#endif
