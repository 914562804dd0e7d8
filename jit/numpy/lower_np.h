/* lower_np: what the lowerings of NumPy code (lower_np_*.c) share beyond
 * the array basics of lower/array_util.h: array expressions, reductions,
 * creation, sorting and the other families of NumPy functions. */
#ifndef KILN_JIT_LOWER_NP_H
#define KILN_JIT_LOWER_NP_H

#include "jit/numpy/infer_np.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/numpy/np_funcs.h"
#include "jit/lower/pool_region.h"

/* Evaluates the array expression n into a new array, or into `out` (an
 * array of type ot, a ufunc's out=) when out is not NULL; an operand that
 * overlaps out other than element for element is read before out is
 * written, as in NumPy (through a buffer, when a run-time check finds one). */
LLVMValueRef kj_np_ewise(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot);
/* The same into out, known not to overlap an operand but element for
 * element (a += b, once kj_np_augassign has ruled out a[1:] += a[:-1]). */
LLVMValueRef kj_np_ewise_in_place(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot);

/* The minimum (maximum) of count > 0 contiguous elements from data, in pt,
 * with NumPy's rules (a NaN wins); a loop LLVM vectorizes. lower_np_reduce_pool.c
 * reduces each chunk with it. */
LLVMValueRef kj_np_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                const kj_type *pt);

/* The index of the first minimum (maximum) of count > 0 contiguous
 * elements from data, its value in *value; a NaN wins, as in NumPy. One
 * pass over memory (argmin and argmax; lower_np_reduce_pool.c's chunks too). */
LLVMValueRef kj_np_arg_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                    LLVMValueRef *value);

/* The reduction m (np.sum's name: "sum", "min", ...) of count elements
 * stride bytes apart from data, as a value of type rt; raises as NumPy does
 * for an empty min or max (lower_np_reduce_pool.c reduces each chunk with it). */
LLVMValueRef kj_np_reduce_span(kj_lw *w, const char *m, LLVMValueRef data, LLVMValueRef stride, LLVMValueRef count,
                               const kj_type *et, const kj_type *rt);

/* Calls fn on every element of the array expression n, in C order,
 * without making the array (fused reductions); returns the number of
 * elements. With split (a parallel=True function, lower_np_reduce_pool.c), when
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
/* ---- reductions split across the pool in a parallel=True function
 * (lower_np_reduce_pool.c) ---- */

/* What a split reduction's chunks compute; KJ_PART_SQDEV: the sum of
 * squared deviations from a mean (var and std's second pass). */
typedef enum { KJ_PART_SUM, KJ_PART_PROD, KJ_PART_ALL, KJ_PART_ANY, KJ_PART_MIN, KJ_PART_MAX, KJ_PART_SQDEV } kj_part_kind;
/* The value a running k-reduction in pt starts from and that changes
 * nothing: 0, 1, true, false, or for min and max the far end of pt (an
 * infinity for floats, so that a NaN still wins). */
LLVMValueRef kj_part_identity(kj_lw *w, kj_part_kind k, const kj_type *pt);
/* Two partial results as one, with NumPy's rules (a NaN wins min and max). */
LLVMValueRef kj_part_combine(kj_lw *w, kj_node *at, kj_part_kind k, LLVMValueRef a, LLVMValueRef b,
                             const kj_type *pt);

/* A running reduction of a group (lower_np_group.c): its kind, type, and
 * the alloca holding it. */
#define KJ_PART_GROUP_MAX 8
typedef struct {
    kj_part_kind kind;
    const kj_type *pt;
    LLVMValueRef acc;
    LLVMValueRef block_sums;   /* a split float sum in NumPy's order: each block's sum, by index (else NULL) */
} kj_part_acc;
/* The group's pass over count contiguous elements from data, split across
 * the pool in a parallel=True function: each chunk folds its part into
 * partials starting from the identity, which are then combined into the
 * accumulators. False when it is not split; the caller runs the pass. */
bool kj_parallel_reduce_group(kj_lw *w, kj_node *at, kj_part_acc *accs, int n, LLVMValueRef data, LLVMValueRef count,
                              const kj_type *et);

/* A whole-array reduction m (sum, prod, mean, var, std, min, max, all, any,
 * argmin, argmax) of count
 * contiguous elements from data, split across the pool in a parallel=True
 * function; NULL when it is not split, and the caller
 * reduces serially. at: the call, for its line. */
LLVMValueRef kj_parallel_reduce(kj_lw *w, kj_node *at, const char *m, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *rt);

/* A fused reduction m (sum, prod, mean, min, max, all, any) of the array
 * expression arrn (np.sum(x * y), (a - b).max()), split across the pool in
 * a parallel=True function without making the array: each chunk reduces
 * the elements it computes from the operands into its slot's partial
 * NULL when it is not split; the caller fuses it
 * serially. at: the call, for its line; rt: the result's type. */
LLVMValueRef kj_parallel_reduce_expr(kj_lw *w, kj_node *at, const char *m, kj_node *arrn, const kj_type *rt);

/* ---- grouped reductions (lower_np_group.c) and the families of functions ---- */

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

/* The parts: NumPy functions and array methods are lowered by their
 * registry entries (np_method.c for methods); reductions of arrays by
 * lower_np_reduce.c. */
LLVMValueRef kj_np_lower_method(kj_lw *w, kj_node *n);
LLVMValueRef kj_np_lower_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arr, kj_node *axis);
LLVMValueRef kj_np_lower_fancy_index(kj_lw *w, kj_node *n);
/* An index i (of integer type it) along axis of length len, negative from
 * the end, after NumPy's IndexError when out of range (lower_np_fancy.c). */
LLVMValueRef kj_np_checked_index(kj_lw *w, LLVMValueRef i, const kj_type *it, LLVMValueRef len, int axis);
void kj_np_store_fancy(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
/* np.sort, argsort, partition, argpartition and unique (np_sort.c); m
 * "sort!" sorts the array in place (a.sort()). */
LLVMValueRef kj_np_lower_sort(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
/* A global NumPy array frozen at compile time (n: its constant node, the
 * C-ordered copy in n->pyobj): its bytes become read-only data of the
 * module, so that the machine code (and the disk cache) holds them. */
LLVMValueRef kj_np_frozen(kj_lw *w, kj_node *n);
/* np.array(list) of a list (type lt) of arrays: one array of type rt with
 * a first axis along the list, NumPy's ValueError for arrays of other
 * shapes (an empty list gives zeros for the arrays' axes). */
LLVMValueRef kj_np_array_of_list(kj_lw *w, LLVMValueRef list, const kj_type *lt, const kj_type *rt);
/* np.array(list) of nested lists of numbers (type lt, as deep as rt has
 * dimensions): NumPy's ValueError when lists at one depth differ in length. */
LLVMValueRef kj_np_array_of_nested(kj_lw *w, LLVMValueRef list, const kj_type *lt, const kj_type *rt);
/* np.concatenate and the stacks (lower_np_join.c, their entries in
 * infer_np_join.c). */
LLVMValueRef kj_np_lower_join(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
/* np.nonzero, np.flatnonzero or np.argwhere (m) of the array value a (type at), the result of type t (for m
 * "flatnonzero" a 1-d int64 array). */
LLVMValueRef kj_np_nonzero_of(kj_lw *w, const kj_type *t, const char *m, LLVMValueRef a, const kj_type *at);
/* Diagonal k of the 2-d arr as a view of type t (k > 0 above the main
 * one): np.diag, np.diagonal (np_diag.c) and a.diagonal() (lower_np_method.c). */
LLVMValueRef kj_np_diagonal(kj_lw *w, const kj_type *t, LLVMValueRef arr, LLVMValueRef k);
/* np.linalg's functions (lower_np_linalg.c, their entries in
 * infer_np_linalg.c). */
LLVMValueRef kj_np_lower_linalg(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
/* How many elements of a (any dtype) are nonzero (true). */
LLVMValueRef kj_np_count_true(kj_lw *w, LLVMValueRef a, const kj_type *at);

/* a.real / a.imag of arr (np_parts.c) (type at) as t: of a complex array, a view of its
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

#endif
