/* builtins: the functions compiled code may call that are neither kiln
 * functions nor NumPy's array functions. Each is a registry entry
 * (callables.h, typed from its arguments' types and lowered from their
 * values) in the file of its module: Python's builtins and NumPy's scalar
 * types as conversions (builtins.c), math and cmath (builtins_math.c),
 * random (builtins_random.c). A NumPy ufunc of numbers is the builtin its
 * entry names, if any (numpy/ufuncs.h). Inference and lowering reach
 * them through lower.h's kj_builtin_type and kj_lower_builtin; this header is
 * what the three files share. */
#ifndef KILN_JIT_BUILTINS_H
#define KILN_JIT_BUILTINS_H

#include "jit/core/callables.h"
#include "jit/lower/lower_elem.h"

/* Declares builtin `name` on every target: typed by type_fn, lowered by
 * lower_fn, with data for them (callables.h). */
#define KJ_BUILTIN(id, name_, type_fn, lower_fn, data_)                                          \
    KJ_CALLABLE(id, .name = name_, .targets = KJ_ON_ANY, .args_type = type_fn, .args_lower = lower_fn, \
                .data = data_)

/* An entry named for a module ("cmath.") stands for the module's functions
 * that have no entry of their own: its typing refuses them, saying what the
 * module does support. */

/* Whether the n types a are numbers (real ones only, if real_only). */
bool kj_builtin_numbers(int n, const kj_type *const *a, bool real_only);
/* The float type a math function of t gives: float32 of float32, else
 * float64. */
const kj_type *kj_builtin_float_result(const kj_type *t);
/* The LLVM intrinsic name ("llvm.fabs") at type t, under the function's
 * fast-math flags. */
LLVMValueRef kj_builtin_intrinsic(kj_lw *w, const char *name, const kj_type *t, int n, LLVMValueRef *args);
/* The complex128 re + im*j of two doubles. */
LLVMValueRef kj_builtin_complex(kj_lw *w, LLVMValueRef re, LLVMValueRef im);

#endif
