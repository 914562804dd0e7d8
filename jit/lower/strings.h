/* strings: string constants, f-strings and print() in compiled code.
 * A str value is a pointer to NUL-terminated UTF-8: a constant of the
 * module, or text an f-string formatted into one of the runtime's
 * per-thread buffers (rt_print.c), valid until a few more f-strings are
 * made on the thread: long enough for print and raise, which use it at
 * once. Strings can be printed, raised, compared with == and !=, and held
 * in variables; not stored in arrays, lists or tuples, nor returned. */
#ifndef KILN_JIT_STRINGS_H
#define KILN_JIT_STRINGS_H

#include "jit/lower/lower.h"

/* Whether an f-string's format spec asks for a float presentation (e, f
 * or g): an int is then formatted as a float. */
bool kj_str_float_spec(const char *spec);
bool kj_str_lowers(const kj_node *n);
LLVMValueRef kj_str_lower(kj_lw *w, kj_node *n);
/* a == b of two strings, as an i1. */
LLVMValueRef kj_str_equal(kj_lw *w, LLVMValueRef a, LLVMValueRef b);
/* print(...) on a target with printf_symbol (lower_printf.c). */
LLVMValueRef kj_lower_printf(kj_lw *w, kj_node *n);
/* raise E(f"...") */
void kj_str_raise(kj_lw *w, kj_node *s);
/* Raises cls(v) for v a number or a tuple of numbers of type t, as Python
 * would (KeyError(5) reads 5, not '5'): v's repr goes to the runtime,
 * marked, and becomes the value again (runtime.c). */
void kj_str_raise_value(kj_lw *w, PyObject *cls, LLVMValueRef v, const kj_type *t);

#endif
