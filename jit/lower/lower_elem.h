/* lower_elem: one element of a NumPy ufunc, as scalars: the way in for
 * array expressions, reductions, containers and builtins (kj_np_elem_op,
 * which finds the ufunc's registry entry by name: numpy/ufuncs.h), and
 * what the entries' element functions share. */
#ifndef KILN_JIT_LOWER_ELEM_H
#define KILN_JIT_LOWER_ELEM_H

#include "jit/core/callables.h"
#include "jit/lower/lower.h"

/* The elementwise operation `ufunc` (NumPy's name) on scalars x (types xt)
 * giving a value of type rt, with NumPy's rules (no exception for division
 * by zero; NaN propagates through maximum and minimum). One it does not
 * compute for these types is an error at `at`. */
LLVMValueRef kj_np_elem_op(kj_lw *w, kj_node *at, const char *ufunc, int n, LLVMValueRef *x,
                           const kj_type *const *xt, const kj_type *rt);

/* ---- for the entries' element functions ---- */

/* e's operands converted to its result type, into v[e->n]. */
void kj_elem_operands(const kj_elem *e, LLVMValueRef *v);
/* The intrinsic name ("llvm.sin") on n values of LLVM type t, under the
 * function's fast-math flags; a math one runs libmvec's version for every
 * element (kj_elem_libm). */
LLVMValueRef kj_elem_intrinsic(kj_lw *w, const char *name, LLVMTypeRef t, int n, LLVMValueRef *x);
/* The type both operands of a comparison are converted to: for integers
 * one that holds both exactly, otherwise NumPy's common type. */
const kj_type *kj_elem_compare_type(const kj_type *a, const kj_type *b);
/* Part i (0 real, 1 imaginary) of complex value z, and the complex value
 * of type t with parts re and im. */
LLVMValueRef kj_elem_part(kj_lw *w, LLVMValueRef z, unsigned i);
LLVMValueRef kj_elem_pair(kj_lw *w, const kj_type *t, LLVMValueRef re, LLVMValueRef im);
/* C99's complex function c ("csqrt", "cpow") of the C library on n
 * complex values z of type t, as NumPy's complex math calls it; NULL where
 * the target cannot call it. */
LLVMValueRef kj_elem_complex_libm(kj_lw *w, const char *c, int n, LLVMValueRef *z, const kj_type *t);

/* fn of libm ("hypot") through the target, at t's width (hypotf for
 * float32 on the CPU), on n arguments of type t; one the target lacks is
 * an error at `at`. In a loop it may widen to libmvec's version. */
LLVMValueRef kj_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x);
/* The same for an element of a NumPy function: where libmvec has fn, every
 * element runs its version (vecmath.h: kj_np_simd_math). */
LLVMValueRef kj_elem_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x);
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
