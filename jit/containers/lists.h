/* lists: Python lists in compiled code, of numbers, tuples of numbers or
 * arrays: `[]`, literals and comprehensions, methods (list_methods.c),
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
const kj_type *kj_list_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
/* a + b and a * n (n * a) with a list: a new list, as Python's. */
const kj_type *kj_list_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
/* len, sum, min, max, sorted, list with a list argument; handled false
 * for other calls. */
const kj_type *kj_list_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled);

/* The item type of a list holding values of type t: a number item, an
 * array (not inside a tuple), or a list of such items; else NULL, which
 * is reported with these words. */
const kj_type *kj_list_item_type(const kj_type *t);
#define KJ_LIST_ITEMS_HINT "Use a NumPy array for anything else."
#define KJ_LIST_ITEMS_WHAT "lists in compiled code hold numbers, tuples of numbers, arrays and lists of those, not %s"
/* Whether Python can order items of type t (complex numbers and arrays it cannot). */
bool kj_list_orderable(const kj_type *t);

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

/* What the methods (list_methods.c) share with the rest of lists_lower.c. */
/* MemoryError where a runtime call's status is not 0. */
void kj_list_check_memory(kj_lw *w, LLVMValueRef status);
/* Whether items of type elem are references the list holds: arrays
 * (their owner) and lists. */
bool kj_list_holds_owners(const kj_type *elem);
/* v as an item of type elem in a slot of its own; for an owner, the
 * reference the list will hold is taken. */
LLVMValueRef kj_list_item_slot(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef v, const kj_type *vt);
/* i (of type it) as an index into a list of length n: negative from the
 * end; IndexError (msg) outside. */
LLVMValueRef kj_list_index(kj_lw *w, LLVMValueRef i, const kj_type *it, LLVMValueRef n, const char *msg);
/* A new list (type t) of list l's items. */
LLVMValueRef kj_list_copy(kj_lw *w, LLVMValueRef l, const kj_type *t);
/* Sorts list (items of type e) as Python does, reverse an i64 0 or 1;
 * at: where a failure is reported. */
void kj_list_sort_items(kj_lw *w, kj_node *at, LLVMValueRef list, const kj_type *e, LLVMValueRef reverse);

#endif
