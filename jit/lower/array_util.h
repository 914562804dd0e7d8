/* array_util: arrays on owned memory, element access through strides, and
 * the counted loops that the lowerings of NumPy code, lists, dicts, sets
 * and parallel loops are built from (array_util.c). */
#ifndef KILN_JIT_ARRAY_UTIL_H
#define KILN_JIT_ARRAY_UTIL_H

#include "jit/lower/lower.h"

#define KJ_NP_MAXDIM 32

/* A new contiguous array of type t (in Fortran order for a Fortran-ordered t, else in C
 * order) and the given shape (nd values, i64),
 * uninitialized or zero-filled, registered as a temporary of the statement.
 * Raises ValueError for a negative dimension, MemoryError when out of memory. */
LLVMValueRef kj_np_alloc(kj_lw *w, const kj_type *t, LLVMValueRef *shape, bool zeroed);
/* The tuple of type t made of its n items. */
LLVMValueRef kj_np_tuple(kj_lw *w, const kj_type *t, int n, const LLVMValueRef *items);
/* An array value from its parts (strides NULL: contiguous from the shape, in Fortran order
 * for a Fortran-ordered type t, else in C order). */
LLVMValueRef kj_np_make(kj_lw *w, const kj_type *t, LLVMValueRef owner, LLVMValueRef data,
                        LLVMValueRef *shape, LLVMValueRef *strides);
/* The shape / strides of arr (nd values). */
void kj_np_shape(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *shape);
void kj_np_strides(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *strides);
LLVMValueRef kj_np_size(kj_lw *w, LLVMValueRef arr, int nd);
LLVMValueRef kj_np_itemsize(kj_lw *w, const kj_type *elem);
/* Pointer to element idx (nd indices, in range) through the byte strides. */
LLVMValueRef kj_np_ptr(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *idx);
LLVMValueRef kj_np_load(kj_lw *w, LLVMValueRef p, const kj_type *et);
/* Stores v (of type vt) as an element of type et at p; the store. */
LLVMValueRef kj_np_store_elem(kj_lw *w, LLVMValueRef p, LLVMValueRef v, const kj_type *vt, const kj_type *et);
/* Whether arr is C-contiguous (an i1 computed from its strides). */
LLVMValueRef kj_np_is_contiguous(kj_lw *w, LLVMValueRef arr, const kj_type *t);
/* Whether arr's elements lie in Fortran order, without gaps (an i1). */
LLVMValueRef kj_np_is_fortran(kj_lw *w, LLVMValueRef arr, const kj_type *t);

/* Raises cls with fmt (one %lld) formatted with v when cond holds; x2: two
 * %lld, v then v2; x3: three. */
void kj_np_raise_i64_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v);
void kj_np_raise_i64x2_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v,
                          LLVMValueRef v2);
void kj_np_raise_i64x3_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v,
                          LLVMValueRef v2, LLVMValueRef v3);
/* n i64 values in a stack array (for the runtime); its address. */
LLVMValueRef kj_np_i64_array(kj_lw *w, int n, LLVMValueRef *vals);

/* for i in range(n): kj_np_loop_begin returns i; the body follows; end
 * closes it. Loops nest. */
typedef struct {
    LLVMBasicBlockRef cond, body, exit;
    LLVMValueRef slot, n;
    bool scalar;   /* set by kj_np_loop_keep_scalar */
    bool one_step; /* set by kj_np_loop_elementwise */
    bool rolled;   /* set by kj_np_loop_keep_rolled */
} kj_np_loop;
LLVMValueRef kj_np_loop_begin(kj_lw *w, kj_np_loop *l, LLVMValueRef n);
void kj_np_loop_end(kj_lw *w, kj_np_loop *l);
/* Asks LLVM not to vectorize (nor interleave) l, before its end: for a loop
 * whose accesses go through strides known at run time not to be all unit
 * ones, where the vectorizer would only make gathers, behind run-time
 * checks and beside a scalar copy: much more to compile for little gain. */
void kj_np_loop_keep_scalar(kj_np_loop *l);
/* Tells LLVM that l's iterations are independent element for element (an
 * array expression, no running value), before its end: one vector step per
 * iteration, not four interleaved. Nothing carries from one iteration to
 * the next, so the out-of-order core overlaps the steps anyway, and a row
 * of 500 doubles leaves 4 elements to the scalar loop instead of 20
 * (bench/MEASURED.md). */
void kj_np_loop_elementwise(kj_np_loop *l);
/* Neither vectorized nor unrolled, before its end: for a short copy loop
 * beside the real work, where unrolled copies were only more to compile. */
void kj_np_loop_keep_rolled(kj_np_loop *l);

/* Nested loops over a shape in C order: begin fills idx[0..nd-1]. */
typedef struct {
    kj_np_loop loops[KJ_NP_MAXDIM];
    int nd;
} kj_np_nest;
void kj_np_nest_begin(kj_lw *w, kj_np_nest *s, int nd, LLVMValueRef *shape, LLVMValueRef *idx);
void kj_np_nest_end(kj_lw *w, kj_np_nest *s);

/* Copies src (type st) into dst (type dt, same shape), converting elements. */
void kj_np_copy_into(kj_lw *w, LLVMValueRef dst, const kj_type *dt, LLVMValueRef src, const kj_type *st);
/* A new C-contiguous copy of src with element type et. */
LLVMValueRef kj_np_copy(kj_lw *w, LLVMValueRef src, const kj_type *st, const kj_type *et);
/* Fills arr with the scalar v. */
void kj_np_fill(kj_lw *w, LLVMValueRef arr, const kj_type *t, LLVMValueRef v, const kj_type *vt);

/* The axis a run-time int names in an array of nd dimensions (negative
 * from the end), after raising NumPy's AxisError when there is none. */
LLVMValueRef kj_np_axis(kj_lw *w, LLVMValueRef asked, int nd);
/* A shape argument (int or tuple of ints) as nd i64 values. */
void kj_np_shape_arg(kj_lw *w, kj_node *k, LLVMValueRef *shape);
/* A value node lowered and converted to t. */
LLVMValueRef kj_np_value(kj_lw *w, kj_node *k, const kj_type *t);

#endif
