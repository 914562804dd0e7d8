/* lower_elem: one element of a NumPy ufunc, or of a complex division or
 * ldexp, as scalars: what array expressions, reductions, containers and
 * builtins compute element by element (lower_elem.c). */
#ifndef KILN_JIT_LOWER_ELEM_H
#define KILN_JIT_LOWER_ELEM_H

#include "jit/lower/lower.h"

/* The elementwise operation `ufunc` (NumPy's name) on scalars x (types xt)
 * giving a value of type rt, with NumPy's rules (no exception for division
 * by zero; NaN propagates through maximum and minimum). */
LLVMValueRef kj_np_elem_op(kj_lw *w, kj_node *at, const char *ufunc, int n, LLVMValueRef *x,
                           const kj_type *const *xt, const kj_type *rt);
/* fn of libm ("hypot") through the target, at t's width (hypotf for
 * float32 on the CPU), on n arguments of type t; one the target lacks is
 * an error at `at`. In a loop it may widen to libmvec's version. */
LLVMValueRef kj_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x);
/* x / y of complex values of type t by Smith's method (scaled by the larger
 * part of the divisor, so that no square overflows or underflows), with
 * CPython's rounding (python: dividing) or NumPy's (multiplying by the
 * inverse); a zero divisor gives inf or nan parts, raising is the
 * caller's. */
LLVMValueRef kj_complex_divide(kj_lw *w, LLVMValueRef x, LLVMValueRef y, const kj_type *t, bool python);
/* x * 2**n (x of float type rt, n an integer of type nt) through libm's
 * ldexp, whose exponent is a C int: a wider one is clamped first, as
 * NumPy's loops for int64 do, so 2**40 overflows to inf rather than
 * wrapping (at places an error, or is NULL). */
LLVMValueRef kj_ldexp(kj_lw *w, kj_node *at, LLVMValueRef x, const kj_type *rt, LLVMValueRef n, const kj_type *nt);

#endif
