/* dicts: Python dicts in compiled code, as Numba's typed dicts: keys are
 * numbers or tuples of ints, values numbers or tuples of numbers; `{}`,
 * `dict()` and literals, d[k] (KeyError as Python's), d[k] = v, `in`,
 * len, get, pop, setdefault, clear, copy, loops over the dict, keys(),
 * values() and items() in insertion order, and returning them to Python as
 * Python dicts. A dict value is an owner (nrt.h) of a block holding the
 * header; inference hands dict nodes to dicts_infer.c, lowering to
 * dicts_lower.c; the runtime is rt_dict.c. */
#ifndef KILN_JIT_DICTS_H
#define KILN_JIT_DICTS_H

#include "jit/infer_np.h"

/* The header inside a dict's block (rt_dict.c). */
typedef struct {
    int64_t n;                  /* live items */
    int64_t used, cap;          /* entries made (live or removed), and room */
    int64_t keysize, valsize;   /* bytes of a key and of a value */
    int64_t mask;               /* slots - 1 */
    int64_t *slots;             /* entry indices, -1 where empty */
    char *entries;
} kj_dict_header;

/* ---- inference ---- */
const kj_type *kj_dict_expr_type(kj_infer_ctx *c, kj_node *n);   /* KJ_E_DICT */
const kj_type *kj_dict_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
const kj_type *kj_dict_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
/* d[k] = v: types the dict variable when it was `{}`; 0, or -1 when it
 * cannot hold them (reported). */
int kj_dict_store_type(kj_infer_ctx *c, kj_node *target, const kj_type *v, kj_node *at);
/* dict() and len(d); handled false for other calls. */
const kj_type *kj_dict_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled);

/* ---- lowering ---- */
bool kj_dict_lowers(const kj_node *n);
LLVMValueRef kj_dict_lower(kj_lw *w, kj_node *n);
void kj_dict_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
/* k in d (the dict's key type decides the comparison). */
LLVMValueRef kj_dict_contains(kj_lw *w, LLVMValueRef key, const kj_type *kt, LLVMValueRef dict, const kj_type *dt);
/* Loops (lower_iter.c): the length after the entries are compacted, and
 * entry i as the loop's item (a key, a value or a (key, value) pair). */
LLVMValueRef kj_dict_iter_setup(kj_lw *w, LLVMValueRef dict);
LLVMValueRef kj_dict_iter_item(kj_lw *w, LLVMValueRef dict, const kj_type *dt, char which, LLVMValueRef i);

/* ---- boxing (dispatch.c) ---- */
/* A Python dict of the dict's items; takes over the reference on owner. */
PyObject *kj_dict_box(void *owner, const kj_type *t);

#endif
