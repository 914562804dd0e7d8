/* np_own: the NumPy functions compiled by a file of their own
 * (np_<name>.c), each a typing and a lowering, which infer_np.c and
 * lower_np_misc.c find here by name. */
#ifndef KILN_JIT_NP_OWN_H
#define KILN_JIT_NP_OWN_H

#include "jit/lower_np.h"

typedef struct {
    const char *name;
    const kj_type *(*type)(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a);
    LLVMValueRef (*lower)(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
} kj_np_own;

/* The entry of np.m, or NULL when m has no file of its own. */
const kj_np_own *kj_np_own_of(const char *m);

#define KJ_NP_OWN(name)                                                                             \
    const kj_type *kj_np_##name##_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a); \
    LLVMValueRef kj_np_lower_##name(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
KJ_NP_OWN(nan_to_num)
KJ_NP_OWN(cross)
KJ_NP_OWN(kron)
KJ_NP_OWN(atleast)
KJ_NP_OWN(frexp)
KJ_NP_OWN(trim_zeros)
KJ_NP_OWN(vander)
KJ_NP_OWN(delete)
KJ_NP_OWN(split)
KJ_NP_OWN(resize)
KJ_NP_OWN(indices)
KJ_NP_OWN(geomspace)
KJ_NP_OWN(polyval)
KJ_NP_OWN(unwrap)
KJ_NP_OWN(put)
#undef KJ_NP_OWN

#endif
