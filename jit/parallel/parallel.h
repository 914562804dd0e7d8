/* parallel: prange loops of parallel=True functions.
 *
 * parallel_check.c decides, from the typed IR alone, whether a prange loop
 * may run its iterations on several threads: which locals each iteration
 * keeps private, which are only read, which are reductions (+=, -=, *=,
 * x = x + e and the like, x = min(x, e), x = max(x, e) on numbers; +=,
 * -=, *= in place on a whole array, acc += a[i]), and which
 * dependence between iterations
 * it can prove (a local or an array element written in one iteration and
 * read in another, a write every iteration makes to the same element).
 * A loop it cannot clear runs serially, and the report says why.
 *
 * parallel_lower.c outlines a cleared loop's body into a function the
 * thread pool (pool.h) calls on chunks of the iteration space, and records
 * the report of every prange loop on the unit (u->parallel_report). */
#ifndef KILN_JIT_PARALLEL_H
#define KILN_JIT_PARALLEL_H

#include <stdbool.h>

#include "jit/lower/pool_region.h"

#define KJ_PAR_MAX_REDUCTIONS 16

typedef enum { KJ_RED_ADD, KJ_RED_SUB, KJ_RED_MUL, KJ_RED_MIN, KJ_RED_MAX } kj_red_op;

/* What one iteration does with a local. */
typedef enum {
    KJ_VAR_UNUSED,
    KJ_VAR_SHARED,      /* only read: each thread reads the value from before the loop */
    KJ_VAR_PRIVATE,     /* assigned before any read in every iteration */
    KJ_VAR_REDUCTION,
} kj_var_use;

typedef struct {
    int slot;
    kj_red_op op;
    int line;
} kj_reduction;

typedef struct {
    kj_node *loop;                 /* the `for ... in prange(...)` statement */
    int index_slot;                /* -1 when the target is not one local */
    bool parallel;                 /* the verdict */
    char why[320];                 /* why it stays serial */
    int why_line;
    kj_var_use *use;               /* per local (malloc'd, nlocals entries) */
    kj_reduction red[KJ_PAR_MAX_REDUCTIONS];
    int nred;
    int nested[16];                /* lines of prange loops inside, run serially */
    int nnested;
    int allocs[16];                /* lines allocating an array of the same size every iteration */
    int nallocs;
} kj_ploop;

/* Whether s is `for ... in prange(...)` (the analysis checks the rest). */
bool kj_is_prange_loop(const kj_node *s);

/* Analyses the prange loop s of f (typed). Fills *out (free with
 * kj_ploop_free); never fails: a loop it cannot clear gets parallel =
 * false and a reason. */
void kj_parallel_analyze(kj_function *f, kj_node *s, kj_ploop *out);
void kj_ploop_free(kj_ploop *p);

/* The length of prange loop s's range, its start and step in *start and
 * *step (i64), evaluated where the builder is. */
LLVMValueRef kj_prange_len(kj_lw *w, kj_node *s, LLVMValueRef *start, LLVMValueRef *step);

/* A prange loop kept serial whose statements are all `array = array
 * expression` (parallel_interchange.c): its elements run in parallel,
 * each through the iterations in order. */
#define KJ_INTERCHANGE_MAX 16
typedef struct {
    int index_slot, nd;
    int arrays[KJ_INTERCHANGE_MAX];        /* the array locals the body reads or assigns */
    bool assigned[KJ_INTERCHANGE_MAX];     /* the body assigns it; else it is the same in every iteration */
    bool read_first[KJ_INTERCHANGE_MAX];   /* an iteration reads its value from before (carried in, or never assigned) */
    int narrays;
    kj_node *scalars[KJ_INTERCHANGE_MAX];  /* operands that are the same numbers in every iteration */
    int nscalars;
    bool fortran;                          /* the buffers are in Fortran order (an assigned array is) */
    char names[200];                       /* "`a`, `b`": the assigned arrays, for the report */
} kj_interchange;
/* Whether loop s (index in local index_slot) has that shape; fills *pl. */
bool kj_interchange_plan(kj_function *f, kj_node *s, int index_slot, kj_interchange *pl);
/* Lowers s that way where the arrays carried in have one shape, else as
 * written on this thread. */
void kj_interchange_lower(kj_lw *w, kj_node *s, const kj_interchange *pl);

/* Every `for` statement is offered to parallel_lower.c first (a statement
 * lowering: kind_ops.h): it lowers s as a parallel loop when s is a prange
 * loop of a parallel=True function that the analysis clears; otherwise it
 * records why (for prange loops), and lower.c lowers s serially. */

/* Array reductions of prange loops (parallel_array.c). `partials` is the
 * parent's [KJ_POOL_MAX_THREADS x array] of per-slot arrays, all null before
 * the run. In the body, before the first iteration: kj_par_array_partial
 * makes slot `slot`'s array if this is its first chunk (acc's shape, filled
 * with op's identity) and stores it in the local's slot `local`. After the
 * run, kj_par_array_fold combines every made array into the array held in
 * acc_slot and gives it back. */
void kj_par_array_partial(kj_lw *o, kj_red_op op, const kj_type *t, LLVMValueRef acc, LLVMValueRef partials,
                          LLVMValueRef slot, LLVMValueRef local);
void kj_par_array_fold(kj_lw *w, kj_node *at, kj_red_op op, const kj_type *t, LLVMValueRef partials,
                       LLVMValueRef acc_slot);


#endif
