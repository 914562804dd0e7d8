/* sets: Python sets in compiled code, as Numba's: items are numbers or
 * tuples of ints; set() and displays, set(iterable) and comprehensions,
 * add, discard, remove, pop, clear, copy, update, union, intersection,
 * difference, symmetric_difference (and | & - ^, in place with |= &= -=
 * ^=), issubset, issuperset, isdisjoint, == != <= < >= >, `in`, len,
 * truth, loops, and returning them to Python as Python sets. A set is a
 * dict table (dicts.h) whose values have no bytes; its items come in
 * insertion order, where Python's come in its hash table's order (which
 * Python leaves unspecified), and pop() takes the first item, as a loop
 * would, as in Python.
 * Inference: sets_infer.c; lowering: sets_lower.c; methods, typed and
 * lowered: set_methods.c. */
#ifndef KILN_JIT_SETS_H
#define KILN_JIT_SETS_H

#include "jit/infer/infer.h"
#include "jit/lower/lower.h"

/* ---- inference ---- */
const kj_type *kj_set_expr_type(kj_infer_ctx *c, kj_node *n);   /* KJ_E_SET */
/* a | b, a & b, a - b, a ^ b of two sets (and their in-place forms). */
const kj_type *kj_set_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
/* set(), set(iterable) and len(s); handled false for other calls. */
const kj_type *kj_set_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                const kj_type *const *args, bool *handled);

#define KJ_SET_ITEMS_HINT "Set items are numbers or tuples of ints; use a NumPy array (np.unique) for anything else."
/* The items of iterable t (a set, list, 1-d array, range, tuple or dict)
 * as a set's item type, in *e (NULL while nothing is in it yet); false
 * when it cannot give set items (reported at at). */
bool kj_set_items_of(kj_infer_ctx *c, kj_node *at, const kj_type *t, const kj_type **e);
/* The set of a and b's items: their item types unified. */
const kj_type *kj_set_joined(kj_infer_ctx *c, kj_node *at, const kj_type *a, const kj_type *b);

/* ---- lowering ---- */
bool kj_set_lowers(const kj_node *n);
LLVMValueRef kj_set_lower(kj_lw *w, kj_node *n);
/* s |= t, s &= t, s -= t, s ^= t (statement st): s itself changed. */
void kj_set_augassign(kj_lw *w, kj_node *st);
/* Item i of set s (type st) for a loop over it, after kj_dict_iter_setup. */
LLVMValueRef kj_set_item(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef i);
/* A new empty set of type st (a temporary of the statement). */
LLVMValueRef kj_set_new(kj_lw *w, const kj_type *st);
/* x (type xt) added to set s of type st. */
void kj_set_add(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt);
/* Removes x from s: an i1, whether it was there. */
LLVMValueRef kj_set_take(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt);
/* Every item of iterable node n added to s (of type st). */
void kj_set_add_all(kj_lw *w, LLVMValueRef s, const kj_type *st, kj_node *n);
/* A new set of type t of the items of s (type st). */
LLVMValueRef kj_set_copy(kj_lw *w, LLVMValueRef s, const kj_type *st, const kj_type *t);
/* The items of a (type at) that the sets others[0..n) all have (keep) or
 * none has (!keep): added to r (type t), or with r NULL removed from a
 * (the in-place forms). */
void kj_set_filter(kj_lw *w, LLVMValueRef a, const kj_type *at, int n, LLVMValueRef *others, const kj_type **ots,
                   bool keep, LLVMValueRef r, const kj_type *t);
/* Whether every item of a is in b (every), or any is. */
LLVMValueRef kj_set_in_other(kj_lw *w, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt, bool every);
/* a OP b for sets: | & - ^, a new set of type t. */
LLVMValueRef kj_set_binop(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt,
                          const kj_type *t);

#endif
