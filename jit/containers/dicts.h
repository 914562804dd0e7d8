/* dicts: Python dicts in compiled code, as Numba's typed dicts: keys are
 * numbers or tuples of ints, values numbers or tuples of numbers; `{}`,
 * `dict()` and literals, d[k] (KeyError as Python's), d[k] = v, `in`,
 * len, get, pop, setdefault, clear, copy, loops over the dict, keys(),
 * values() and items() in insertion order, and returning them to Python as
 * Python dicts. A dict value is an owner (nrt.h) of a block holding the
 * header; inference hands dict nodes to dicts_infer.c, lowering to
 * dicts_lower.c; methods are typed and lowered in dict_methods.c; the
 * runtime is rt_dict.c. */
#ifndef KILN_JIT_DICTS_H
#define KILN_JIT_DICTS_H

#include "jit/infer/infer.h"
#include "jit/lower/lower.h"
#include "jit/runtime/rt_dict.h"

/* ---- inference ---- */
const kj_type *kj_dict_expr_type(kj_infer_ctx *c, kj_node *n);   /* KJ_E_DICT, KJ_E_DICTCOMP */
const kj_type *kj_dict_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
/* d[k] = v: types the dict variable when it was `{}`; 0, or -1 when it
 * cannot hold them (reported). */
int kj_dict_store_type(kj_infer_ctx *c, kj_node *target, const kj_type *v, kj_node *at);
/* dict() and len(d); handled false for other calls. */
const kj_type *kj_dict_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled);

/* dict(key, value) for a store of k and v into a dict of type self; NULL
 * where it cannot hold them (reported at at). */
const kj_type *kj_dict_stored(kj_infer_ctx *c, kj_node *at, const kj_type *self, const kj_type *k, const kj_type *v);
/* Gives the dict variable (node d) type t when it was `{}` so far: t, or
 * NULL (reported at at). */
const kj_type *kj_dict_refine(kj_infer_ctx *c, kj_node *d, kj_node *at, const kj_type *self, const kj_type *t);

/* ---- lowering ---- */
/* The key and value types of a dict type. */
static inline const kj_type *kj_dict_key_type(const kj_type *dt) { return dt->elems[0]; }
static inline const kj_type *kj_dict_value_type(const kj_type *dt) { return dt->elems[1]; }
/* Whether the dict's values are arrays, whose owners it holds. */
bool kj_dict_holds_arrays(const kj_type *dt);
bool kj_dict_lowers(const kj_node *n);
LLVMValueRef kj_dict_lower(kj_lw *w, kj_node *n);
void kj_dict_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
/* k in d (the dict's key type decides the comparison). */
LLVMValueRef kj_dict_contains(kj_lw *w, LLVMValueRef key, const kj_type *kt, LLVMValueRef dict, const kj_type *dt);
/* Loops (lower_iter.c): the length after the entries are compacted, and
 * entry i as the loop's item (a key, a value or a (key, value) pair). */
LLVMValueRef kj_dict_iter_setup(kj_lw *w, LLVMValueRef dict);
LLVMValueRef kj_dict_iter_item(kj_lw *w, LLVMValueRef dict, const kj_type *dt, char which, LLVMValueRef i);

/* The table operations sets share (sets_lower.c). key is the table's key
 * type, k a key of type kt, converted to it. */
LLVMValueRef kj_dict_len(kj_lw *w, LLVMValueRef dict);
/* A new empty table of type t (a temporary of the statement); key and
 * value NULL: their sizes come with the first store. */
LLVMValueRef kj_dict_make(kj_lw *w, const kj_type *t, const kj_type *key, const kj_type *value);
/* k as a key, in a slot of its own (a float's -0.0 made 0.0, so that equal
 * keys have equal bytes). */
LLVMValueRef kj_dict_key_slot(kj_lw *w, LLVMValueRef k, const kj_type *kt, const kj_type *key);
/* The value slot of the key in kslot, added when absent (*fresh, an i32
 * slot, then 1); value NULL for a set. */
LLVMValueRef kj_dict_put_key(kj_lw *w, LLVMValueRef dict, LLVMValueRef kslot, const kj_type *key, const kj_type *value,
                             LLVMValueRef fresh);
/* The value slot of k, or a null pointer: also where k is no value of the
 * key type (1.5 in a table of ints), as such a key cannot be there. */
LLVMValueRef kj_dict_find(kj_lw *w, LLVMValueRef dict, LLVMValueRef k, const kj_type *kt, const kj_type *key);
/* Removes k, its value copied to out; an i1, whether it was there. */
LLVMValueRef kj_dict_take(kj_lw *w, LLVMValueRef dict, LLVMValueRef k, const kj_type *kt, const kj_type *key,
                          LLVMValueRef out);
/* The value slot of the key in kslot in a dict of type dt, added when
 * absent (*fresh then 1). */
LLVMValueRef kj_dict_value_slot(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef fresh);
/* Stores v (type vt) in the value slot p of a dict of type dt. Where the
 * values are arrays the dict takes a reference on v's owner, marks itself
 * as holding them (rt_dict.c gives them back), and gives back the one on
 * the value it replaces, unless the slot is fresh. */
void kj_dict_store_value(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef p, LLVMValueRef fresh,
                         LLVMValueRef v, const kj_type *vt);
/* d[k] = v for a key already in its slot. */
void kj_dict_store_at(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef v, const kj_type *vt);
/* KeyError(k) when cond holds, with k itself as its argument. */
void kj_dict_key_error_if(kj_lw *w, LLVMValueRef cond, LLVMValueRef k, const kj_type *kt);
/* Whether a dict or set can have keys of type t: numbers, and tuples of
 * ints (keys compare by their bytes). */
bool kj_dict_key_ok(const kj_type *t);

#endif
