/* np_dtype: the element type NumPy gives an operation (np_dtype.c). */
#ifndef KILN_JIT_NP_DTYPE_H
#define KILN_JIT_NP_DTYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "jit/core/types.h"

/* The dtype of numpy.<func>(operands) where each operand is an array
 * (KJ_T_ARRAY: its dtype) or a scalar of that type; NULL with NumPy's
 * reason in why when NumPy refuses. */
const kj_type *kj_np_result_dtype(const char *func, int n, const kj_type *const *ops, char *why,
                                  size_t why_size);
/* Same, where consts[i] (or NULL) is the constant node of a scalar operand:
 * NumPy 1.x's value-based casting sees its value (uint8 array - 3 is int16). */
struct kj_node;
const kj_type *kj_np_result_dtype_c(const char *func, int n, const kj_type *const *ops,
                                    struct kj_node *const *consts, char *why, size_t why_size);

#endif
