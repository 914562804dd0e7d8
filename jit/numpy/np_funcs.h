/* np_funcs: what inference and lowering of NumPy calls share: the
 * arguments of a call split into positional and keyword ones, dtype
 * arguments, and which calls are elementwise. */
#ifndef KILN_JIT_NP_FUNCS_H
#define KILN_JIT_NP_FUNCS_H

#include "jit/core/callables.h"
#include "jit/core/ir.h"

#define KJ_NP_MAX_ARGS 8

/* Declares the registry entry of NumPy function np.<id> for any target,
 * typed by ty and lowered by lo (callables.h). */
#define KJ_NP_FUNCTION(id, ty, lo) \
    KJ_CALLABLE(id, .name = "np." #id, .targets = KJ_ON_ANY, .np_type = ty, .np_lower = lo)

typedef struct kj_np_args {
    kj_node *pos[KJ_NP_MAX_ARGS];
    int npos;
    kj_node *kw[KJ_NP_MAX_ARGS];   /* KJ_E_KEYWORD nodes */
    int nkw;
    bool too_many;
} kj_np_args;

/* Splits the kids of n from `first` on (1 for calls and methods). */
void kj_np_split(kj_node *n, int first, kj_np_args *a);
/* The argument at position pos or named name (its value node), or NULL. */
kj_node *kj_np_arg(const kj_np_args *a, int pos, const char *name);


/* The dtype a node names (np.float32, float, int, bool, complex), or NULL. */
const kj_type *kj_np_dtype_node(const kj_node *k);
/* Whether np.<m> reduces an array, whole or along an axis (sum, argmax,
 * cumsum, nanargmin...): one typing and lowering (np_reductions.c, with
 * lower_np_reduce.c) for all. As methods, the nan ones are not. */
bool kj_np_is_reduction(const char *m);
/* k is `x.dtype`: a dtype argument once x is typed as an array. */
bool kj_np_is_dtype_attr(const kj_node *k);

/* The axes a.transpose(...) (nothing, a tuple or one int per axis),
 * a.swapaxes(i, j) or np.moveaxis(a, source, destination) (m "moveaxis!",
 * the method the front end makes of it) names, as the permutation
 * perm[ndim] of an array of ndim dimensions; the arguments from `first` on
 * must be constant ints.
 * 0, or -1 with NumPy's complaint in why. */
int kj_np_axes_perm(const char *m, const kj_np_args *a, int first, int ndim, int *perm, char *why, size_t size);


/* The ufunc of a Python operator (a + b is "add"), NULL if none. */
const char *kj_np_op_ufunc(kj_op op, bool unary);

/* Whether n is an elementwise node of an array expression (its type is an
 * array and it is an operator or elementwise call with no out=). */
bool kj_np_is_ewise(const kj_node *n);

#endif
