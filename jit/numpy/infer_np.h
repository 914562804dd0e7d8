/* infer_np / lower_np*: NumPy inside compiled code. Inference (infer.c)
 * hands calls of np.* functions, arithmetic and comparisons with arrays,
 * array methods and attributes, and indexing with arrays to infer_np.c;
 * lowering (lower*.c) hands the same nodes to lower_np*.c. Element types of
 * array expressions are NumPy's own: the compiler asks NumPy which dtype a
 * ufunc gives for the operand types (np_dtype.c). */
#ifndef KILN_JIT_INFER_NP_H
#define KILN_JIT_INFER_NP_H

#include "jit/infer/infer.h"
#include "jit/lower/lower.h"
#include "jit/numpy/np_funcs.h"

/* ---- inference ---- */

/* np.* calls (any: scalar ufunc calls are passed on to the builtins). */
const kj_type *kj_np_call_type(kj_infer_ctx *c, kj_node *n);
/* a OP b, -a, a < b, with an array operand. */
const kj_type *kj_np_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b);
const kj_type *kj_np_unary_type(kj_infer_ctx *c, kj_node *n, const kj_type *a);
/* Methods and attributes of arrays (NULL with handled false when not an array). */
const kj_type *kj_np_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self);
const kj_type *kj_np_attr_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled);
/* a[mask], a[int_array], a[:, int_array] (one among slices), a[i, j] (an
 * integer array per axis, or a tuple of them): the type, or NULL with
 * handled false for other indices. */
const kj_type *kj_np_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *a, bool *handled);
/* Whether typed index node n is a[i, j] or a[t] of that kind (the points). */
bool kj_np_is_point_index(const kj_node *n);

/* What the typings of np.* calls share (infer_np_args.c): the type of an
 * argument that is a value (not a dtype); whether every keyword of a is
 * one of names (NULL-terminated). */
const kj_type *kj_np_arg_type(kj_infer_ctx *c, kj_node *k);
bool kj_np_only_keywords(const kj_np_args *a, const char *const *names);
/* The number of dimensions a shape of type t gives (an int: 1, a tuple of
 * ints: its length), or -1 when t is not a shape. */
int kj_np_shape_ndim(const kj_type *t);
/* k is a constant True or False (a flag compiled code needs to know). */
bool kj_np_const_bool(const kj_node *k);
/* A new C array of the products of arrays x and y's elements (NumPy's
 * multiply dtype) with the larger of their numbers of dimensions, or a
 * failure naming np.m. */
const kj_type *kj_np_product_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *x, const kj_type *y);
/* a.sum(axis) and the rest (args the method's arguments, first 0) and
 * np.sum(a, axis) (args the call's, first 1) (np_reductions.c). */
const kj_type *kj_np_reduction_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *a, const kj_np_args *args,
                                    int first);
/* The product np.dot / a.dot (name, for messages) of x and y (np_dot.c). */
const kj_type *kj_np_dot_type(kj_infer_ctx *c, kj_node *n, const char *name, const kj_type *x, const kj_type *y);
/* np.nonzero (a.nonzero()), flatnonzero or argwhere (m) of array x (np_nonzero.c). */
const kj_type *kj_np_nonzero_type(const char *m, const kj_type *x);
/* np.repeat(a, repeats, axis) and a.repeat(repeats, axis): repeats is
 * argument `at` (1 for the function, 0 for the method); x the array's
 * type (np_repeat.c). */
const kj_type *kj_np_repeat_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a, int at, const kj_type *x);
/* a.real, a.imag of array self (np_parts.c): the array itself for .real of
 * a real array, a view of a complex array's parts, read-only zeros for
 * .imag of a real array; NULL when m is neither. */
const kj_type *kj_np_part_type(const kj_type *self, const char *m);
/* The dtype node k names (NULL if none), typing the array of `a.dtype` first. */
const kj_type *kj_np_dtype_typed(kj_infer_ctx *c, kj_node *k);
/* A dtype= argument: NULL when absent (*bad false) or not a dtype (*bad
 * true, reported). */
const kj_type *kj_np_dtype_arg(kj_infer_ctx *c, kj_node *k, bool *bad);
/* The arguments after the array of sort / argsort from `first` on, when
 * they ask for what Kiln does not do (a message), or NULL. */
const char *kj_np_sort_args_refused(const kj_np_args *a, int first, int ndim);
/* np.linalg's functions (infer_np_linalg.c), by their own names (the
 * front end drops "linalg."). */
const kj_type *kj_np_linalg_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a);
/* np.linalg.norm's ord (cond's p), a constant or absent: its KJ_NORM_*
 * kind and number; false when it is neither. */
bool kj_np_norm_order(const kj_node *k, int32_t *kind, double *p);

/* ---- lowering ---- */

/* Whether lower_np handles this node (decided from the inferred types). */
bool kj_np_lowers(const kj_node *n);
LLVMValueRef kj_np_lower(kj_lw *w, kj_node *n);
/* target[...] = v where target is a view (slice assignment) or a masked /
 * integer-array index. */
bool kj_np_lowers_store(const kj_node *target);
void kj_np_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
/* target[...] = value where value is an array expression (a[1:-1] = b * c):
 * evaluated straight into the target's view, with no temporary array
 * unless the view overlaps an operand (checked at run time). */
bool kj_np_stores_ewise(const kj_node *target, const kj_node *value);
void kj_np_store_ewise(kj_lw *w, kj_node *target, kj_node *value);
/* A statement that is a pure expression holding several whole-array
 * reductions of one array (np.sum(a) + a.max() + np.mean(a)) computes them
 * in one pass over it (lower_np_group.c, around every statement). */
typedef struct kj_np_group kj_np_group;
/* target OP= value where target is an array: in place, as NumPy. */
void kj_np_augassign(kj_lw *w, kj_node *s);

#endif
