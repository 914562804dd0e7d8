/* pool_region: lowering onto the worker pool (pool_region.c). A body is
 * lowered into a function of its own, `i32 fn(ptr ctx, i64 lo, i64 hi,
 * i64 slot)`, that the pool (runtime/pool.h) runs over chunks [lo, hi) of
 * a range: a prange loop's body (parallel/), or a loop another lowering
 * builds (numpy/: array expressions, whole-array reductions). */
#ifndef KILN_JIT_POOL_REGION_H
#define KILN_JIT_POOL_REGION_H

#include "jit/lower/lower.h"

/* Bodies being lowered into outlined functions now: a loop inside one
 * runs serially there (the pool would run it inline anyway). Touched only
 * during a compile, which holds the GIL. */
extern int kj_outline_depth;

/* A new internal function for a body (named after the instance, what and
 * the line, into name), with the parent's codegen attributes. */
LLVMValueRef kj_outline_function(kj_lw *w, const char *what, int line, char *name, size_t size);
/* The lowering state o for code in fn, copied from the parent's w (no
 * handlers, no reference counting, no unbound-read flags of its own). */
void kj_outline_enter(kj_lw *w, kj_lw *o, LLVMValueRef fn, const char *name, int line);
/* Item `index` of the ctx array of pointers fn receives. */
LLVMValueRef kj_outline_ctx_item(kj_lw *o, LLVMValueRef ctx, int index);

/* The kernel's CPU and features on another function, so that LLVM may
 * inline between them (it only inlines into at least the callee's
 * features), and its fastmath attributes (lower.c), so that its loops
 * vectorize as the kernel's own would. */
void kj_copy_codegen_attributes(LLVMValueRef from, LLVMValueRef to);

/* A loop another lowering builds (the flat loop of an array expression)
 * split across the pool in a parallel=True function. Between begin and end,
 * code goes into r->o, the lowering state of `i32 fn(ptr ctx, i64 lo,
 * i64 hi, i64 slot)`, which covers iterations [r->lo, r->hi): values of the
 * parent the loop needs are passed in `vals` and read back as `inside`.
 * end() returns 0 from it and calls it from the parent over [0, n): on the
 * pool when n is large enough to pay for waking threads, else directly. */
typedef struct {
    kj_lw o;
    LLVMValueRef fn, ctx, lo, hi;
} kj_par_region;

/* Whether loops lowered now should be split: a parallel=True function on
 * the host, outside any parallel loop body. */
bool kj_parallel_wanted(kj_lw *w);
kj_lw *kj_parallel_region_begin(kj_lw *w, kj_par_region *r, const char *what, int line, int nvals,
                                const LLVMValueRef *vals, LLVMValueRef *inside);
void kj_parallel_region_end(kj_lw *w, kj_par_region *r, LLVMValueRef n);
/* The same where `work`, not n, says whether waking the workers pays (n
 * units of many elements each). */
void kj_parallel_region_end_work(kj_lw *w, kj_par_region *r, LLVMValueRef n, LLVMValueRef work);

#endif
