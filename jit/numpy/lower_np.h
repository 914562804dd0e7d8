/* lower_np: what the lowerings of NumPy code (lower_np_*.c) share: making
 * arrays on owned memory, element pointers, counted loops, and the
 * elementwise operations with NumPy's semantics. */
#ifndef KILN_JIT_LOWER_NP_H
#define KILN_JIT_LOWER_NP_H

#include "jit/numpy/infer_np.h"
#include "jit/lower/lower_elem.h"
#include "jit/numpy/np_funcs.h"
#include "jit/parallel/parallel.h"

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


/* Evaluates the array expression n into a new array, or into `out` (an
 * array of type ot, a ufunc's out=) when out is not NULL; an operand that
 * overlaps out other than element for element is read before out is
 * written, as in NumPy (through a buffer, when a run-time check finds one). */
LLVMValueRef kj_np_ewise(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot);
/* The same into out, known not to overlap an operand but element for
 * element (a += b, once kj_np_augassign has ruled out a[1:] += a[:-1]). */
LLVMValueRef kj_np_ewise_in_place(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot);

/* The minimum (maximum) of count > 0 contiguous elements from data, in pt,
 * with NumPy's rules (a NaN wins); a loop LLVM vectorizes. parallel_reduce.c
 * reduces each chunk with it. */
LLVMValueRef kj_np_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                const kj_type *pt);

/* The index of the first minimum (maximum) of count > 0 contiguous
 * elements from data, its value in *value; a NaN wins, as in NumPy. One
 * pass over memory (argmin and argmax; parallel_reduce.c's chunks too). */
LLVMValueRef kj_np_arg_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                    LLVMValueRef *value);

/* The reduction m (np.sum's name: "sum", "min", ...) of count elements
 * stride bytes apart from data, as a value of type rt; raises as NumPy does
 * for an empty min or max (parallel_reduce.c reduces each chunk with it). */
LLVMValueRef kj_np_reduce_span(kj_lw *w, const char *m, LLVMValueRef data, LLVMValueRef stride, LLVMValueRef count,
                               const kj_type *et, const kj_type *rt);

/* Calls fn on every element of the array expression n, in C order,
 * without making the array (fused reductions); returns the number of
 * elements. With split (a parallel=True function, parallel_reduce.c), when
 * every operand is contiguous with the result's shape, the loop runs in
 * chunks on the pool instead: in the chunk function, begin runs before a
 * chunk's elements and end after them with the participant's pool slot;
 * both get `shared` (a parent value) as it reads there. Other layouts take
 * the serial strided loop. */
typedef void (*kj_np_elem_fn)(kj_lw *w, LLVMValueRef v, const kj_type *vt, void *ctx);
typedef struct {
    LLVMValueRef shared;
    void (*begin)(kj_lw *o, LLVMValueRef shared, void *ctx);
    void (*end)(kj_lw *o, LLVMValueRef shared, LLVMValueRef slot, void *ctx);
} kj_np_each_split;
LLVMValueRef kj_np_ewise_each(kj_lw *w, kj_node *n, kj_np_elem_fn fn, void *ctx, const kj_np_each_split *split);

/* The operands of elementwise node n (kj_np_is_ewise): two of an operator,
 * one of a unary one, a ufunc call's positional arguments; returns how many. */
int kj_np_ewise_operands(kj_node *n, kj_node **ops);
/* One element of the elementwise expression n, computed from its operands'
 * elements, which leaf_fn gives for every operand that is not elementwise
 * itself (a variable, a constant), with its element type in *type. The
 * result's element type goes in *type. */
typedef LLVMValueRef (*kj_np_leaf_fn)(kj_lw *w, kj_node *leaf, const kj_type **type, void *arg);
LLVMValueRef kj_np_ewise_element(kj_lw *w, kj_node *n, kj_np_leaf_fn leaf_fn, void *arg, const kj_type **type);

/* A scalar-only elementwise call (np.where on numbers, np.sign(x)), or an
 * operation on 0-d arrays and numbers, which gives a number as in NumPy. */
LLVMValueRef kj_np_ewise_scalar(kj_lw *w, kj_node *n);
/* dst[...] = src with src broadcast to dst's shape (src may be a scalar). */
void kj_np_assign(kj_lw *w, LLVMValueRef dst, const kj_type *dt, LLVMValueRef src, const kj_type *st);

/* The data of array arr (type at) as one contiguous line of its size:
 * its own, or a C-ordered copy when it is not contiguous. */
LLVMValueRef kj_np_whole_line(kj_lw *w, LLVMValueRef arr, const kj_type *at);
/* The same in memory order: a Fortran-contiguous array's own data too, for
 * reductions whose order is NumPy's memory order (its float sums) or no
 * matter (min, max, all, any, integer sums). */
LLVMValueRef kj_np_memory_line(kj_lw *w, LLVMValueRef arr, const kj_type *at);
/* The axis a run-time int names in an array of nd dimensions (negative
 * from the end), after raising NumPy's AxisError when there is none. */
LLVMValueRef kj_np_axis(kj_lw *w, LLVMValueRef asked, int nd);

/* Whether a sum of et elements in float type at goes in NumPy's order,
 * through the runtime's pairwise sum (rt_np.h), of the elements or (a cast
 * to a wider float) of blocks of them cast into a buffer, as NumPy's
 * buffered reduction casts them: not on the GPU, nor where fastmath allows
 * reassociation (then the loop vectorizes). */
bool kj_np_sums_in_numpy_order(kj_lw *w, const kj_type *et, const kj_type *at);
/* The sum of count contiguous elements of type et from data in float
 * type ft, in NumPy's order whatever the fastmath flags: the runtime's
 * pairwise sum (rt_np.h's kj_np_sum_f64 / kj_np_sum_f32), of a buffer of
 * each block cast to ft where et is another type. */
LLVMValueRef kj_np_pairwise_sum(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                const kj_type *ft);
/* The same for elements of type et summed in type at (cast block by
 * block), or NULL when another order applies (kj_np_sums_in_numpy_order). */
LLVMValueRef kj_np_sum_in_numpy_order(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                      const kj_type *at);
/* The sum of (x - mean)**2 over count contiguous elements (type et) from
 * data, in rt: in NumPy's order (np.var's array of squares, summed) where
 * kj_np_sums_in_numpy_order(rt, rt), else element after element. */
LLVMValueRef kj_np_squared_deviations(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                      const kj_type *rt, LLVMValueRef mean);
/* Folds count contiguous elements (type et) from data into every
 * accumulator, block by block (lower_np_group.c); data starts at block
 * first_block of the array (KJ_NP_SUM_BLOCK elements each). A float sum in
 * NumPy's order adds each block's pairwise sum to its accumulator, or,
 * with block_sums set (a split pass), stores it there at the block's index. */
void kj_np_group_pass(kj_lw *w, kj_part_acc *accs, int nacc, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                      LLVMValueRef first_block);
/* The value of reduction n when the statement's group computes it (at its
 * first member), else NULL. */
LLVMValueRef kj_np_group_value(kj_lw *w, const kj_node *n);

/* The parts (lower_np_create.c, lower_np_reduce.c, lower_np_misc.c). */
LLVMValueRef kj_np_lower_create(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a, bool *handled);
LLVMValueRef kj_np_lower_method(kj_lw *w, kj_node *n);
LLVMValueRef kj_np_lower_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arr, kj_node *axis);
LLVMValueRef kj_np_lower_other(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
LLVMValueRef kj_np_lower_random(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
LLVMValueRef kj_np_lower_fancy_index(kj_lw *w, kj_node *n);
/* An index i (of integer type it) along axis of length len, negative from
 * the end, after NumPy's IndexError when out of range (lower_np_fancy.c). */
LLVMValueRef kj_np_checked_index(kj_lw *w, LLVMValueRef i, const kj_type *it, LLVMValueRef len, int axis);
/* np.take_along_axis, np.fill_diagonal and np.broadcast_to (lower_np_place.c). */
bool kj_np_is_place(const char *m);
LLVMValueRef kj_np_lower_place(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
void kj_np_store_fancy(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
LLVMValueRef kj_np_lower_sorting(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
/* A global NumPy array frozen at compile time (n: its constant node, the
 * C-ordered copy in n->pyobj): its bytes become read-only data of the
 * module, so that the machine code (and the disk cache) holds them. */
LLVMValueRef kj_np_frozen(kj_lw *w, kj_node *n);
/* np.array(list) of a list (type lt) of arrays: one array of type rt with
 * a first axis along the list, NumPy's ValueError for arrays of other
 * shapes (an empty list gives zeros for the arrays' axes). */
LLVMValueRef kj_np_array_of_list(kj_lw *w, LLVMValueRef list, const kj_type *lt, const kj_type *rt);
LLVMValueRef kj_np_lower_join(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
LLVMValueRef kj_np_lower_nonzero(kj_lw *w, kj_node *n, const char *m, kj_node *arr);
/* The same of the array value a (type at), the result of type t (for m
 * "flatnonzero" a 1-d int64 array). */
LLVMValueRef kj_np_nonzero_of(kj_lw *w, const kj_type *t, const char *m, LLVMValueRef a, const kj_type *at);
/* Diagonal k of the 2-d arr as a view of type t (k > 0 above the main
 * one): np.diag, np.diagonal (np_diag.c) and a.diagonal() (lower_np_create.c). */
LLVMValueRef kj_np_diagonal(kj_lw *w, const kj_type *t, LLVMValueRef arr, LLVMValueRef k);
/* np.repeat (a.repeat) and np.tile (lower_np_repeat.c). */
LLVMValueRef kj_np_lower_repeat(kj_lw *w, kj_node *n, const kj_np_args *a);
LLVMValueRef kj_np_lower_tile(kj_lw *w, kj_node *n, const kj_np_args *a);
/* np.tri (lower_np_tri.c, beside np.triu and np.tril). */
LLVMValueRef kj_np_lower_tri(kj_lw *w, kj_node *n, const kj_np_args *a);
/* np.linalg's functions (lower_np_linalg.c). */
LLVMValueRef kj_np_lower_linalg(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
/* How many elements of a (any dtype) are nonzero (true). */
LLVMValueRef kj_np_count_true(kj_lw *w, LLVMValueRef a, const kj_type *at);

/* a.real / a.imag of arr (type at) as t: of a complex array, a view of its
 * real or imaginary parts (the array's strides); .real of a real array is
 * the array itself, .imag new zeros (read-only, as NumPy's); np.real and
 * np.imag of a number (at a number type) are numbers. */
LLVMValueRef kj_np_part(kj_lw *w, LLVMValueRef arr, const kj_type *at, bool imag, const kj_type *t);

/* np.linspace's elements, NumPy's arithmetic: i * step + start (through
 * the difference where the step underflows, times it where there is no
 * step), the last exactly stop with endpoint. Setup raises NumPy's
 * ValueError for a negative num; start and stop are doubles. */
typedef struct {
    LLVMValueRef start, stop, num, delta, div, step, has_div, step_zero, ends_at_stop;
} kj_np_linspace;
void kj_np_linspace_setup(kj_lw *w, kj_np_linspace *ls, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef num,
                          LLVMValueRef endpoint);
LLVMValueRef kj_np_linspace_item(kj_lw *w, const kj_np_linspace *ls, LLVMValueRef i);

/* A shape argument (int or tuple of ints) as nd i64 values. */
void kj_np_shape_arg(kj_lw *w, kj_node *k, LLVMValueRef *shape);
/* A value node lowered and converted to t. */
LLVMValueRef kj_np_value(kj_lw *w, kj_node *k, const kj_type *t);

#endif
