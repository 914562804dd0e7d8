/* ufuncs: NumPy's ufuncs as registry entries (core/callables.h), one
 * family to a file: arithmetic (ufunc_arith.c), floating-point functions
 * (ufunc_math.c), comparisons, logic and bits (ufunc_logic.c), rounding to
 * decimals (ufunc_round.c). An entry computes one element; array
 * expressions, reductions and containers reach it by NumPy's name through
 * lower/lower_elem.h's kj_np_elem_op, inference through kj_np_ufunc
 * (core/callables.h), and NumPy itself types it (core/np_dtype.c). Adding
 * np.foo is its element function and one KJ_UFUNC line in the file of its
 * family, plus its test. */
#ifndef KILN_JIT_UFUNCS_H
#define KILN_JIT_UFUNCS_H

#include "jit/lower/lower_elem.h"

/* Declares ufunc np.<name_> of nin_ operands; the rest are kj_callable's
 * fields (.elem, .elem_complex, .scalar, .cheap, .data). */
#define KJ_UFUNC(id, name_, nin_, ...) \
    KJ_CALLABLE(id, .name = "np." name_, .targets = KJ_ON_ANY, .nin = nin_, __VA_ARGS__)

static inline bool kj_elem_is_float(const kj_type *t) { return t->kind == KJ_T_FLOAT; }
static inline bool kj_elem_is_signed(const kj_type *t) { return t->kind == KJ_T_INT && t->is_signed; }

#endif
