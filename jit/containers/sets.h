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
 * Inference: sets_infer.c; lowering: sets_lower.c. */
#ifndef KILN_JIT_SETS_H
#define KILN_JIT_SETS_H

#include "jit/infer/infer.h"
#include "jit/lower/lower.h"

/* ---- inference ---- */
const kj_type *kj_set_expr_type(kj_infer_ctx *c, kj_node *n);   /* KJ_E_SET */
const kj_type *kj_set_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
/* a | b, a & b, a - b, a ^ b of two sets (and their in-place forms). */
const kj_type *kj_set_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
/* set(), set(iterable) and len(s); handled false for other calls. */
const kj_type *kj_set_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                const kj_type *const *args, bool *handled);

/* ---- lowering ---- */
bool kj_set_lowers(const kj_node *n);
LLVMValueRef kj_set_lower(kj_lw *w, kj_node *n);
/* s |= t, s &= t, s -= t, s ^= t (statement st): s itself changed. */
void kj_set_augassign(kj_lw *w, kj_node *st);
/* Item i of set s (type st) for a loop over it, after kj_dict_iter_setup. */
LLVMValueRef kj_set_item(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef i);

#endif
