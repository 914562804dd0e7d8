/* methods: what the files of the containers' methods (list_methods.c,
 * set_methods.c, dict_methods.c) share. A method call's container is its
 * first kid, typed before the method; each method is a registry entry
 * (callables.h's KJ_METHOD). */
#ifndef KILN_JIT_CONTAINER_METHODS_H
#define KILN_JIT_CONTAINER_METHODS_H

#include "jit/core/callables.h"
#include "jit/infer/infer.h"
#include "jit/lower/lower.h"

/* The container's type, and its value. */
static inline const kj_type *kj_method_self_type(const kj_node *n) { return n->kids[0]->type; }
static inline LLVMValueRef kj_method_self(kj_lw *w, kj_node *n) { return kj_lower_expr(w, n->kids[0]); }
/* The value of a method that gives None. */
static inline LLVMValueRef kj_method_none(kj_lw *w) { return LLVMConstInt(w->i8, 0, 0); }
/* The problem that the container has the method, but not for these
 * arguments. */
static inline const kj_type *kj_method_refused(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    return kj_infer_method_refused(c, n, self, true);
}

#endif
