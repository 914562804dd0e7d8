/* lists: Python lists in compiled code, of numbers, tuples of numbers or
 * arrays: `[]`, literals and comprehensions, append, extend, pop, insert,
 * len, indexing, slicing, iteration, `in`, sorting, and returning them to
 * Python as Python lists. A list value is an owner (nrt.h) of a block
 * holding the list's header; its items live in a separate buffer that
 * grows. A list of arrays holds a reference on each item's owner.
 * Inference hands list nodes to lists_infer.c; lowering to lists_lower.c;
 * the runtime is rt_list.c. */
#ifndef KILN_JIT_LISTS_H
#define KILN_JIT_LISTS_H

#include "jit/infer/infer.h"
#include "jit/lower/lower.h"
#include "jit/runtime/rt_list.h"

/* ---- inference ---- */
const kj_type *kj_list_expr_type(kj_infer_ctx *c, kj_node *n);          /* LIST, LISTCOMP */
/* The type of the items a comprehension (LISTCOMP, DICTCOMP) makes, its
 * target typed from its iterable on the way. */
const kj_type *kj_comprehension_item_type(kj_infer_ctx *c, kj_node *n);
const kj_type *kj_list_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
const kj_type *kj_list_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
/* a + b and a * n (n * a) with a list: a new list, as Python's. */
const kj_type *kj_list_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
/* len, sum, min, max, sorted, list with a list argument; handled false
 * for other calls. */
const kj_type *kj_list_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled);

/* ---- lowering ---- */
bool kj_list_lowers(const kj_node *n);
LLVMValueRef kj_list_lower(kj_lw *w, kj_node *n);
void kj_list_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
/* lst += other, lst *= n (statement s): the list itself extended or
 * repeated, as Python's. */
void kj_list_augassign(kj_lw *w, kj_node *s);
LLVMValueRef kj_list_len(kj_lw *w, LLVMValueRef list);
/* Item i (in range) of a list of elem. */
LLVMValueRef kj_list_get(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef i);
/* A new empty list of type t with room for cap items (a temporary of the
 * statement), and v (of type vt) appended to a list of elem, as Python's
 * `[]` and append: for NumPy calls that give lists (np_split.c). */
LLVMValueRef kj_list_make(kj_lw *w, const kj_type *t, LLVMValueRef cap);
/* The loop of comprehension n (LISTCOMP, DICTCOMP) over iterable it, set
 * up with length len: add(w, to, kids[0]) for each item the ifs keep. */
void kj_comprehension_loop(kj_lw *w, kj_node *n, kj_iter *it, LLVMValueRef len,
                           void (*add)(kj_lw *w, void *to, kj_node *item), void *to);
void kj_list_push(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef v, const kj_type *vt);

#endif
