/* lower: typed Kiln IR -> LLVM IR, for any kj_target. Shared between the
 * statement (lower.c), expression (lower_expr.c), array (lower_array.c) and
 * builtin (builtins.c) lowerings.
 *
 * Every lowered function is `i32 sym(ptr ret, T0 a0, ...)`: it stores its
 * result through ret and returns 0, or returns 1 after recording an
 * exception with kj_rt_raise. Arrays are passed by value as the struct
 * { ptr owner, ptr data, [nd x i64] shape, [nd x i64] strides } (strides in
 * bytes); tuples as LLVM structs; optionals as { i1 present, T value }. */
#ifndef KILN_JIT_LOWER_H
#define KILN_JIT_LOWER_H

#include "jit/core/unit.h"

typedef struct kj_lw {
    kj_unit *u;
    kj_instance *inst;
    kj_function *f;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    LLVMValueRef ret_ptr;
    LLVMValueRef *slots;             /* alloca per local */
    LLVMValueRef *bound;             /* per local: an i1 alloca, set when it is assigned, where a read may
                                        find it unassigned (unbound.c); NULL entries elsewhere, or NULL */
    LLVMBasicBlockRef break_bb, continue_bb;
    LLVMBasicBlockRef interrupt_bb;  /* the function's exit for KeyboardInterrupt */
    LLVMBasicBlockRef handler_bb;    /* the enclosing try's handlers (kj_unwind), or NULL */
    LLVMValueRef caught;             /* the except clause's kept exception {cls, msg} (re-raise), or NULL */
    LLVMMetadataRef scope;           /* the function's DISubprogram */
    LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr, vd;
    struct kj_nrt_fn *nrt;           /* reference counting state (lower_nrt.c), NULL if none */
    struct kj_np_group *group;       /* the statement's reductions done in one pass (lower_np_group.c), or NULL */
    struct kj_loop_range *ranges;    /* loop copies whose range proves checks in their body, innermost first */
} kj_lw;

/* ---- walking a function's IR (lower_range_checks.c) ---- */

/* Visits every node of block b (statements and expressions, nested ones
 * too) until visit returns true; returns whether it did. */
typedef bool (*kj_visitor)(const kj_node *n, void *arg);
bool kj_visit_block(const kj_block *b, kj_visitor visit, void *arg);
/* Whether expression n reads local `slot`. */
bool kj_mentions_local(const kj_node *n, int slot);
/* Whether a statement of b, nested ones too, binds local `slot`. */
bool kj_binds_in_block(const kj_block *b, int slot);

/* `if test: s += e` with the update applied after the join, where that is
 * sound (lower_cond_accumulate.c); false, having done nothing, elsewhere. */
bool kj_lower_if_accumulates(kj_lw *w, kj_node *s);

/* ---- float sums left scalar (lower_strict_sums.c) ---- */

/* Whether innermost `for` loop s keeps a float sum (no fastmath) and has
 * nothing else slow enough to gain from vector lanes; if so, Kiln's own
 * remarks saying so are added to the unit. */
bool kj_strict_sum_stays_scalar(kj_lw *w, const kj_node *s);
/* Hints for the loop whose back edge is `back` (loop_hints.c).
 * keep_scalar: the vectorizer leaves it (engine.c drops LLVM's remark that
 * it did); keep_rolled: nor is it unrolled; vector: it may vectorize, and
 * the scalar remainder, shorter than a vector step, stays rolled;
 * one_step: the same, one vector per step (no interleaving). */
void kj_loop_keep_scalar_edge(kj_lw *w, LLVMValueRef back);
void kj_loop_keep_rolled_edge(kj_lw *w, LLVMValueRef back);
void kj_loop_vector_edge(kj_lw *w, LLVMValueRef back);
void kj_loop_one_step_edge(kj_lw *w, LLVMValueRef back);

/* ---- bounds checks a loop's range proves (lower_range_checks.c) ---- */

#define KJ_RANGE_CHECKS_MAX 8

/* A range loop's variable (local `slot`) and the element accesses of its
 * body whose checks a condition before the loop can prove: arrays[i] (a
 * local array) on axes[i], indexed by local indices[i], the loop variable
 * (proven by the range) or a local the body does not rebind (proven by its
 * value). */
typedef struct kj_loop_range {
    int slot, n;
    kj_node *arrays[KJ_RANGE_CHECKS_MAX], *indices[KJ_RANGE_CHECKS_MAX];
    int axes[KJ_RANGE_CHECKS_MAX];
    struct kj_loop_range *outer;
} kj_loop_range;

/* Fills r for `for` statement s when its range could prove checks of its
 * body (boundscheck on, a target that versions loops, a range loop whose
 * variable and arrays the body does not rebind, bounds that may be
 * evaluated twice); returns r->n, 0 if none. */
int kj_range_checks_scan(kj_lw *w, const kj_node *s, kj_loop_range *r);
/* 0 <= start, stop <= the length of each array r indexes by the loop
 * variable, and 0 <= i < the length for each other index i. */
LLVMValueRef kj_range_checks_hold(kj_lw *w, const kj_loop_range *r, LLVMValueRef start, LLVMValueRef stop);
/* Whether the check of arr[..., in, ...] on `axis` is proven by the loop
 * copy being lowered. */
bool kj_range_check_proven(const kj_lw *w, const kj_node *arr, const kj_node *in, int axis);

/* The LLVM type holding values of t. */
LLVMTypeRef kj_lltype(kj_lw *w, const kj_type *t);
/* The LLVM type of an array's element in memory (bool is a byte). */
LLVMTypeRef kj_llmemtype(kj_lw *w, const kj_type *t);

/* Sets the current debug location (line of n) for what follows. */
void kj_at(kj_lw *w, const kj_node *n);

LLVMValueRef kj_lower_expr(kj_lw *w, kj_node *n);
/* v of type from, converted to type to (numbers, optionals, tuples). */
LLVMValueRef kj_cast(kj_lw *w, LLVMValueRef v, const kj_type *from, const kj_type *to);
/* The truth of v (an i1). */
LLVMValueRef kj_truth(kj_lw *w, LLVMValueRef v, const kj_type *t);
/* Arithmetic on numbers already of type t (both operands), Python's rules. */
LLVMValueRef kj_arith(kj_lw *w, kj_node *at, kj_op op, LLVMValueRef a, LLVMValueRef b,
                      const kj_type *t);

/* Branches to a new block that raises `cls` (a Python exception class)
 * with msg when cond is true; continues in the other block. */
void kj_raise_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *msg);
/* Raises now (records the exception, returns 1 from the function) and
 * continues in a fresh unreachable block. */
void kj_raise(kj_lw *w, PyObject *cls, const char *msg);
/* kj_raise with the message chosen at run time (msg: a pointer to a C string). */
void kj_raise_message(kj_lw *w, PyObject *cls, LLVMValueRef msg);
/* Calls an internal function returning a status; propagates a failure. */
void kj_check_status(kj_lw *w, LLVMValueRef status);
/* With an exception pending (kj_rt_raise done): jumps to the handlers of
 * the enclosing try statement, or returns status from the function. The
 * builder is left at the end of a terminated block. */
void kj_unwind(kj_lw *w, LLVMValueRef status);
/* Raising with a message the runtime formats: kj_raise_begin branches to a
 * new block when cond holds and returns the block to continue in; the
 * caller calls the runtime's raiser there; kj_raise_end leaves the function
 * (or goes to the handlers) with the failure. */
LLVMBasicBlockRef kj_raise_begin(kj_lw *w, LLVMValueRef cond);
void kj_raise_end(kj_lw *w, LLVMBasicBlockRef ok);
/* Raises again the exception the innermost except clause kept (w->caught). */
void kj_reraise(kj_lw *w);

/* Applies the function's fast-math flags to a floating-point instruction. */
LLVMValueRef kj_fm(kj_lw *w, LLVMValueRef v);
/* A call to an LLVM intrinsic or external function by name. */
LLVMValueRef kj_call(kj_lw *w, const char *name, LLVMTypeRef ret, int n, LLVMTypeRef *tys,
                     LLVMValueRef *args);
LLVMValueRef kj_call_intrinsic(kj_lw *w, const char *name, LLVMTypeRef overload, int n,
                               LLVMValueRef *args);
/* An alloca in the entry block (so mem2reg/SROA promote it). */
LLVMValueRef kj_entry_alloca(kj_lw *w, LLVMTypeRef t, const char *name);
/* A new block in the current function. */
LLVMBasicBlockRef kj_new_bb(kj_lw *w, const char *name);
bool kj_terminated(kj_lw *w);

/* Arrays (lower_array.c). */
LLVMValueRef kj_array_field(kj_lw *w, LLVMValueRef arr, int field, int dim);  /* 0 owner 1 data 2 shape 3 strides */
LLVMValueRef kj_lower_index(kj_lw *w, kj_node *n);               /* load an element, or make a view */
/* The view index node n makes of arr, its index at axis `whole` read as
 * `:` (the part of a[:, idx] that slices); whole -1 for none. */
LLVMValueRef kj_lower_view(kj_lw *w, kj_node *n, LLVMValueRef arr, int whole);
void kj_store_index(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
LLVMValueRef kj_array_len(kj_lw *w, LLVMValueRef arr);
/* Element t (0-based, already in range) of the first axis: a scalar or a view. */
LLVMValueRef kj_array_item(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef t);
/* The element at idx (one index per axis, each already in range). */
LLVMValueRef kj_array_load(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef *idx);

/* Builtins (builtins.h): the call n to the known function n->kids[0]. */
LLVMValueRef kj_lower_builtin(kj_lw *w, kj_node *n, LLVMValueRef *args);
/* The result type of a known function called with these argument types,
 * or NULL with a reason in why (builtins.h). */
const kj_type *kj_builtin_type(const char *name, int nargs, const kj_type *const *args,
                               char *why, size_t why_size);

/* For parallel_lower.c: a block of statements, the interrupt poll of
 * counted loops, and range()'s length (raising on step 0). */
void kj_lower_block(kj_lw *w, kj_block *b);
/* Records that local `slot` holds a value now (when `when`, an i1, is
 * true; NULL: always), for the reads that check it. */
void kj_mark_bound(kj_lw *w, int slot, LLVMValueRef when);
/* A `for` statement as a loop on this thread (a prange loop kept serial). */
void kj_lower_for_serial(kj_lw *w, kj_node *s);

/* A counted iterable being looped over (range, array, list, enumerate,
 * zip, np.ndindex, np.ndenumerate; a tuple only in unrolled loops):
 * kj_iter_setup lowers it and returns its length, kj_iter_item gives its
 * element t (0 <= t < length; taken once per t, in turn from 0, as np.ndindex's
 * counter assumes), kj_iter_free frees what setup allocated. */
typedef struct kj_iter {
    kj_node *node;
    const kj_type *type;
    LLVMValueRef value, start, step, enum_start;
    LLVMValueRef position;   /* np.ndindex, np.ndenumerate: the index counter (np_ndindex.c) */
    struct kj_iter *subs;
    int nsubs;
} kj_iter;
LLVMValueRef kj_iter_setup(kj_lw *w, kj_node *n, kj_iter *s);
LLVMValueRef kj_iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t);
void kj_iter_free(kj_iter *s);

/* Stores v, of type vt, into an assignment's target: a local, an item, or
 * a tuple of those (unpacking a tuple or a 1-d array). */
void kj_assign(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt);
void kj_poll_interrupt(kj_lw *w);
/* An i1: whether the SIGINT handler set the interrupt flag (read with a
 * relaxed atomic load); for loops that leave some other way (ufunc_loop.c). */
LLVMValueRef kj_interrupt_set(kj_lw *w);
LLVMValueRef kj_range_len(kj_lw *w, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step);

/* Lowers every instance of the unit into u->mod (lower.c). */
int kj_lower_unit(kj_unit *u);
/* w for emitting into u's module: its context, module and common types;
 * no builder yet. */
void kj_lw_init(kj_lw *w, kj_unit *u);

#endif
