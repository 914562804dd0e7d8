/* vecmath: lets LLVM's loop vectorizer call glibc's SIMD math (libmvec)
 * for the math functions of array expressions.
 *
 * LLVM's own LIBMVEC-X86 table (engine.c) maps only sin, cos, tan, exp, log
 * and pow, and at most four lanes, so a chain like the seed's
 * sin -> arcsin -> cos -> arccos -> tan -> arctan ran arcsin, arccos and
 * arctan one element at a time while NumPy runs all six eight at a time.
 * libmvec has vector versions of about twenty more functions, for SSE, AVX2
 * and AVX-512; a call site names them in its "vector-function-abi-variant"
 * attribute, and the vectorizer picks the width its cost model prefers. */
#ifndef KILN_JIT_VECMATH_H
#define KILN_JIT_VECMATH_H

#include "jit/lower/lower.h"

/* Offers the vectorizer libmvec's versions of `call`, a scalar call (an
 * llvm.* intrinsic or the libm function) computing C's math function fn
 * ("asin", "atan2"; the double name) on floats of `bits` 32 or 64 with
 * nargs 1 or 2 arguments. Does nothing off the host CPU, where libmvec
 * cannot be loaded, or for a function libmvec lacks. */
void kj_np_vector_variants(kj_lw *w, LLVMValueRef call, const char *fn, int bits, int nargs);

/* For NumPy's functions: `call` replaced by one that computes every element
 * with the same libmvec version, in the vector lanes of a widened loop and
 * in its scalar remainder alike (NumPy too runs one SIMD algorithm for
 * every element, tail included). With libm in the remainder, equal inputs
 * gave results an ulp apart, and np.argmax broke their tie otherwise than
 * NumPy. Returns the new call, or `call` where nothing is offered. */
LLVMValueRef kj_np_simd_math(kj_lw *w, LLVMValueRef call, const char *fn, int bits, int nargs);

#endif
