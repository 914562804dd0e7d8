/* kind_ops: the registry through which the generic stages (infer/,
 * lower/) reach what a kind of value does, and whatever lowers a whole
 * statement its own way. NumPy arrays (numpy/), lists, dicts, sets and
 * strings (containers/) each declare one entry with KJ_KIND_OPS in the file
 * that implements the kind; inference and lowering find it by the type's
 * kind (kj_kind_ops_of) and name none of the files behind it, so the
 * stages stand below the features that use them.
 *
 * A hook left NULL is an operation the kind does not have: the stage then
 * does what it does for any value (usually: reports that it is not
 * supported). Where a node is offered to every kind in turn (lowers, call
 * types), kinds are asked in the order of kj_kind, so arrays come first.
 *
 * Entries are collected by the linker into sections, as callables.h's. */
#ifndef KILN_JIT_KIND_OPS_H
#define KILN_JIT_KIND_OPS_H

#include <llvm-c/Core.h>

#include "jit/core/ir.h"

typedef struct kj_infer_ctx kj_infer_ctx;   /* infer/infer.h */
typedef struct kj_lw kj_lw;                 /* lower/lower.h */
typedef struct kj_iter kj_iter;             /* lower/lower.h */

typedef struct kj_kind_ops {
    kj_kind kind;

    /* ---- typing (infer/): each returns the type, or NULL after reporting */
    /* a OP b (and a < b) with an operand of this kind (arrays before lists
     * before sets, as binop_type asks) */
    const kj_type *(*binop_type)(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
    const kj_type *(*unary_type)(kj_infer_ctx *c, kj_node *n, const kj_type *a);
    /* self.name, self.name(...), self[...]; *handled false leaves an
     * attribute or index to the stage's own typing */
    const kj_type *(*attr_type)(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled);
    const kj_type *(*method_type)(kj_infer_ctx *c, kj_node *n, const kj_type *self);
    /* or, without method_type: the kind's methods are the registry's
     * entries "<methods>.<name>" (callables.h), typed and lowered there */
    const char *methods;
    const kj_type *(*index_type)(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled);
    /* target[k] = value of type t (at: the statement) */
    int (*store_type)(kj_infer_ctx *c, kj_node *target, const kj_type *t, kj_node *at);
    /* a node that builds a value of this kind ([...], {k: v}, f"...") */
    const kj_type *(*display_type)(kj_infer_ctx *c, kj_node *n);
    /* a call of a builtin (list(x), sorted(x), str(x)): *handled false when
     * the kind has nothing to say of this name and these types */
    const kj_type *(*builtin_call_type)(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                        const kj_type *const *args, bool *handled);
    /* calls of the functions of one module (module "np." for NumPy) */
    const char *module;
    const kj_type *(*module_call_type)(kj_infer_ctx *c, kj_node *n);

    /* ---- lowering (lower/) */
    /* whether the kind lowers typed node n, and its lowering */
    bool (*lowers)(const kj_node *n);
    LLVMValueRef (*lower)(kj_lw *w, kj_node *n);
    /* a constant of this kind read from a global (an array frozen at compile time) */
    LLVMValueRef (*constant)(kj_lw *w, kj_node *n);
    /* self OP= other, in place (statement s) */
    void (*augassign)(kj_lw *w, kj_node *s);
    /* target[k] = v: for every target of the kind, or where stores(target) says */
    bool (*stores)(const kj_node *target);
    void (*store)(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
    /* len(v) */
    LLVMValueRef (*len)(kj_lw *w, LLVMValueRef v);
    /* `for x in n`: lower n and return its length; then item t of it */
    LLVMValueRef (*iter_setup)(kj_lw *w, kj_node *n, kj_iter *s);
    LLVMValueRef (*iter_item)(kj_lw *w, kj_iter *s, LLVMValueRef t);
} kj_kind_ops;

/* What lowers a statement its own way before lower.c lowers it as written
 * (a prange loop across the pool, a[1:-1] = b * c with no temporary), or
 * works around every statement (np.sum(a) + a.max() in one pass over a). */
typedef struct kj_stmt_lowering {
    /* for statements of kind stmt: true when it lowered s */
    kj_node_kind stmt;
    bool (*lower)(kj_lw *w, kj_node *s);
    /* around each statement of any kind: begin's state goes to end */
    void *(*begin)(kj_lw *w, kj_node *s);
    void (*end)(kj_lw *w, void *state);
} kj_stmt_lowering;

#define KJ_KIND_OPS(id, ...)                                                                    \
    static const kj_kind_ops kj_kind_ops_##id = {__VA_ARGS__};                                 \
    static const kj_kind_ops *const kj_kind_ops_entry_##id                                     \
        __attribute__((used, section("kiln_kind_ops"))) = &kj_kind_ops_##id

#define KJ_STMT_LOWERING(id, ...)                                                               \
    static const kj_stmt_lowering kj_stmt_lowering_##id = {__VA_ARGS__};                       \
    static const kj_stmt_lowering *const kj_stmt_lowering_entry_##id                           \
        __attribute__((used, section("kiln_stmt_lowerings"))) = &kj_stmt_lowering_##id

/* The entry of kind k; one with every hook NULL where no file declares one. */
const kj_kind_ops *kj_kind_ops_of(kj_kind k);
/* The entries that lower statements, n of them. */
const kj_stmt_lowering *const *kj_stmt_lowerings(int *n);

#endif
