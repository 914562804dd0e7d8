/* lower_np_reduce: sum, prod, min, max, mean, var, std, argmin, argmax,
 * all, any, nanmin, nanmax over a whole array or along one axis, and
 * cumsum / cumprod.
 * A reduction runs over "lines": the whole array when it is contiguous (a
 * non-contiguous one is copied first), or each line along the axis. */
#include "jit/numpy/lower_np.h"
#include "jit/lower/pool_region.h"
#include "jit/runtime/rt_np.h"

#include <math.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

typedef struct {
    LLVMValueRef data, stride, count;   /* a line: count elements, stride bytes apart */
} line;

static LLVMValueRef line_elem(kj_lw *w, const line *ln, LLVMValueRef i, const kj_type *et) {
    LLVMValueRef off = LLVMBuildMul(w->b, i, ln->stride, "");
    return kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, ln->data, &off, 1, ""), et);
}

static bool is_float(const kj_type *t) { return t->kind == KJ_T_FLOAT; }

/* cur + x (cur * x) in t, as NumPy's add (multiply): integers wrap,
 * complex numbers are pairs. */
static LLVMValueRef combine(kj_lw *w, LLVMValueRef cur, LLVMValueRef x, const kj_type *t, bool prod) {
    return kj_np_elem_op(w, NULL, prod ? "multiply" : "add", 2, (LLVMValueRef[]){cur, x}, (const kj_type *[]){t, t}, t);
}

/* Elements cast to a wider float (np.mean of ints, bools or float32s)
 * are summed as NumPy's buffered reduction meets them: in blocks, each
 * cast into a buffer and summed pairwise (buffered_sum). */
static bool widened_to(const kj_type *et, const kj_type *at) {
    return et->kind == KJ_T_INT || et->kind == KJ_T_BOOL || (et->kind == KJ_T_FLOAT && et->bits < at->bits);
}

bool kj_np_sums_in_numpy_order(kj_lw *w, const kj_type *et, const kj_type *at) {
    return at->kind == KJ_T_FLOAT && (et == at || widened_to(et, at)) && !strcmp(w->u->target->name, "cpu") &&
           !(w->inst->opts.fastmath & LLVMFastMathAllowReassoc);
}

static LLVMValueRef runtime_pairwise_sum(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *ft) {
    return kj_call(w, ft->bits == 64 ? "kj_np_sum_f64" : "kj_np_sum_f32", kj_lltype(w, ft), 2,
                   (LLVMTypeRef[]){w->ptr, w->i64}, (LLVMValueRef[]){data, count});
}

/* What buffered_sum adds for element i of a line: its value in float type
 * ft, or (arg the mean) its squared deviation from the mean. */
typedef LLVMValueRef (*buffered_value)(kj_lw *w, const line *ln, LLVMValueRef i, const kj_type *et,
                                       const kj_type *ft, LLVMValueRef arg);

static LLVMValueRef cast_elem(kj_lw *w, const line *ln, LLVMValueRef i, const kj_type *et, const kj_type *ft,
                              LLVMValueRef unused) {
    (void)unused;
    return kj_cast(w, line_elem(w, ln, i, et), et, ft);
}

/* The sum of value(element) over a line in float type ft, as NumPy adds
 * what its reduction buffers: blocks of KJ_NP_SUM_BLOCK values written to
 * a buffer, each block summed pairwise and added to the total. */
static LLVMValueRef buffered_sum(kj_lw *w, const line *ln, const kj_type *et, const kj_type *ft,
                                 buffered_value value, LLVMValueRef arg) {
    LLVMTypeRef lt = kj_lltype(w, ft);
    LLVMValueRef acc = kj_entry_alloca(w, lt, "acc");
    LLVMBuildStore(w->b, LLVMConstNull(lt), acc);
    LLVMValueRef buf = kj_entry_alloca(w, LLVMArrayType2(lt, KJ_NP_SUM_BLOCK), "sum.buffer");
    LLVMValueRef size = c64(w, KJ_NP_SUM_BLOCK);
    kj_np_loop blocks;
    LLVMValueRef b = kj_np_loop_begin(w, &blocks, LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, ln->count, c64(w, KJ_NP_SUM_BLOCK - 1), ""), size, ""));
    LLVMValueRef first = LLVMBuildMul(w->b, b, size, ""), left = LLVMBuildSub(w->b, ln->count, first, "");
    LLVMValueRef n = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, left, size, ""), left, size, "");
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, n);
    LLVMBuildStore(w->b, value(w, ln, LLVMBuildAdd(w->b, first, i, ""), et, ft, arg), LLVMBuildGEP2(w->b, lt, buf, &i, 1, ""));
    kj_np_loop_end(w, &l);
    LLVMValueRef part = runtime_pairwise_sum(w, buf, n, ft);
    LLVMBuildStore(w->b, LLVMBuildFAdd(w->b, LLVMBuildLoad2(w->b, lt, acc, ""), part, ""), acc);
    kj_np_loop_end(w, &blocks);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

/* The sum of value(element) over a line in float type ft: as NumPy adds
 * what it buffers (buffered_sum) on a contiguous line, else (a line along
 * an outer axis, which NumPy adds row after row) element after element;
 * element after element too where another order applies
 * (kj_np_sums_in_numpy_order). */
static LLVMValueRef ordered_sum(kj_lw *w, const line *ln, const kj_type *et, const kj_type *ft,
                                buffered_value value, LLVMValueRef arg) {
    LLVMTypeRef lt = kj_lltype(w, ft);
    LLVMValueRef acc = kj_entry_alloca(w, lt, "acc");
    LLVMBuildStore(w->b, LLVMConstNull(lt), acc);
    LLVMBasicBlockRef done = kj_new_bb(w, "sum.done"), serial = kj_new_bb(w, "sum.loop");
    if (kj_np_sums_in_numpy_order(w, ft, ft)) {
        LLVMBasicBlockRef blocks = kj_new_bb(w, "sum.blocks");
        LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, ln->stride, kj_np_itemsize(w, et), ""), blocks, serial);
        LLVMPositionBuilderAtEnd(w->b, blocks);
        LLVMBuildStore(w->b, buffered_sum(w, ln, et, ft, value, arg), acc);
        LLVMBuildBr(w->b, done);
    } else {
        LLVMBuildBr(w->b, serial);
    }
    LLVMPositionBuilderAtEnd(w->b, serial);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ln->count);
    LLVMBuildStore(w->b, kj_fm(w, LLVMBuildFAdd(w->b, LLVMBuildLoad2(w->b, lt, acc, ""), value(w, ln, i, et, ft, arg), "")), acc);
    kj_np_loop_end(w, &l);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

LLVMValueRef kj_np_pairwise_sum(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                const kj_type *ft) {
    if (et == ft)
        return runtime_pairwise_sum(w, data, count, ft);
    line ln = {data, kj_np_itemsize(w, et), count};
    return buffered_sum(w, &ln, et, ft, cast_elem, NULL);
}

LLVMValueRef kj_np_sum_in_numpy_order(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                      const kj_type *at) {
    return kj_np_sums_in_numpy_order(w, et, at) ? kj_np_pairwise_sum(w, data, count, et, at) : NULL;
}

/* Sum (or product) of a line in type at: a contiguous float line in
 * NumPy's order (kj_np_sum_in_numpy_order), else element after element,
 * the order NumPy adds along an outer axis. */
static LLVMValueRef fold(kj_lw *w, const line *ln, const kj_type *et, const kj_type *at, bool prod) {
    LLVMValueRef pairwise = NULL;
    LLVMBasicBlockRef join = NULL, from = NULL;
    if (!prod && et != at && kj_np_sums_in_numpy_order(w, et, at))   /* cast as NumPy casts */
        return ordered_sum(w, ln, et, at, cast_elem, NULL);
    if (!prod && kj_np_sums_in_numpy_order(w, et, at)) {
        LLVMBasicBlockRef call = kj_new_bb(w, "sum.pairwise"), loop_bb = kj_new_bb(w, "sum.loop");
        join = kj_new_bb(w, "sum.join");
        LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, ln->stride, kj_np_itemsize(w, et), ""), call, loop_bb);
        LLVMPositionBuilderAtEnd(w->b, call);
        pairwise = kj_np_sum_in_numpy_order(w, ln->data, ln->count, et, at);
        from = LLVMGetInsertBlock(w->b);
        LLVMBuildBr(w->b, join);
        LLVMPositionBuilderAtEnd(w->b, loop_bb);
    }
    LLVMValueRef acc = kj_entry_alloca(w, kj_lltype(w, at), "acc");
    LLVMBuildStore(w->b, kj_cast(w, c64(w, prod ? 1 : 0), KJ_I64, at), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ln->count);
    LLVMValueRef x = kj_cast(w, line_elem(w, ln, i, et), et, at), cur = LLVMBuildLoad2(w->b, kj_lltype(w, at), acc, "");
    LLVMBuildStore(w->b, combine(w, cur, x, at, prod), acc);
    kj_np_loop_end(w, &l);
    LLVMValueRef sequential = LLVMBuildLoad2(w->b, kj_lltype(w, at), acc, "");
    if (!pairwise)
        return sequential;
    LLVMBasicBlockRef loop_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef sum = LLVMBuildPhi(w->b, kj_lltype(w, at), "sum");
    LLVMAddIncoming(sum, (LLVMValueRef[]){pairwise, sequential}, (LLVMBasicBlockRef[]){from, loop_end}, 2);
    return sum;
}

/* sum / count, the mean, in t (float or complex). */
static LLVMValueRef mean_of(kj_lw *w, LLVMValueRef sum, LLVMValueRef count, const kj_type *t) {
    if (t->kind != KJ_T_COMPLEX)
        return kj_fm(w, LLVMBuildFDiv(w->b, sum, LLVMBuildSIToFP(w->b, count, kj_lltype(w, t), ""), ""));
    LLVMValueRef n = LLVMBuildSIToFP(w->b, count, LLVMTypeOf(LLVMBuildExtractValue(w->b, sum, 0, "")), "");
    for (unsigned k = 0; k < 2; k++)
        sum = LLVMBuildInsertValue(w->b, sum, kj_fm(w, LLVMBuildFDiv(w->b, LLVMBuildExtractValue(w->b, sum, k, ""), n, "")), k, "");
    return sum;
}

/* The minimum (maximum) of a line of count > 0 elements, in pt; a NaN
 * wins, as in NumPy, or (skip_nan: np.nanmin, np.nanmax, NumPy's fmin and
 * fmax) loses to any number. LLVM's min/max intrinsics (llvm.maximum
 * propagates a NaN, llvm.maxnum drops it) keep the loop a plain
 * reduction, which LLVM vectorizes where a loop tracking the best index
 * does not. */
static LLVMValueRef extreme_of(kj_lw *w, const line *ln, const kj_type *et, const kj_type *pt, bool is_max, bool skip_nan) {
    LLVMTypeRef lt = kj_lltype(w, pt);
    const char *op = is_float(pt) ? (skip_nan ? (is_max ? "llvm.maxnum" : "llvm.minnum") : (is_max ? "llvm.maximum" : "llvm.minimum"))
                     : pt->kind == KJ_T_INT && pt->is_signed ? (is_max ? "llvm.smax" : "llvm.smin")
                                                             : (is_max ? "llvm.umax" : "llvm.umin");
    LLVMValueRef best = kj_entry_alloca(w, lt, "best");
    LLVMBuildStore(w->b, kj_cast(w, line_elem(w, ln, c64(w, 0), et), et, pt), best);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ln->count);
    LLVMValueRef x = kj_cast(w, line_elem(w, ln, i, et), et, pt);
    LLVMBuildStore(w->b, kj_call_intrinsic(w, op, lt, 2, (LLVMValueRef[]){LLVMBuildLoad2(w->b, lt, best, ""), x}),
                   best);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, lt, best, "");
}

static LLVMValueRef extreme(kj_lw *w, const line *ln, const kj_type *et, const kj_type *pt, bool is_max) {
    return extreme_of(w, ln, et, pt, is_max, false);
}

LLVMValueRef kj_np_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                const kj_type *pt) {
    line ln = {data, kj_np_itemsize(w, et), count};
    return extreme(w, &ln, et, pt, is_max);
}

/* The index of the first element of a line of count > 0 equal to best (a
 * NaN: the first NaN), which is there: best is one of them. */
static LLVMValueRef first_equal(kj_lw *w, const line *ln, const kj_type *et, LLVMValueRef best) {
    LLVMValueRef j_p = kj_entry_alloca(w, w->i64, "argj");
    LLVMBuildStore(w->b, c64(w, 0), j_p);
    LLVMBasicBlockRef cond = kj_new_bb(w, "arg.cond"), test = kj_new_bb(w, "arg.test"), next = kj_new_bb(w, "arg.next"),
                      found = kj_new_bb(w, "arg.found");
    LLVMBuildBr(w->b, cond);
    LLVMPositionBuilderAtEnd(w->b, cond);
    LLVMValueRef j = LLVMBuildLoad2(w->b, w->i64, j_p, "");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, j, ln->count, ""), test, found);
    LLVMPositionBuilderAtEnd(w->b, test);
    LLVMValueRef x = line_elem(w, ln, j, et), hit;
    if (is_float(et))
        hit = LLVMBuildOr(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, x, best, ""),
                          LLVMBuildAnd(w->b, LLVMBuildFCmp(w->b, LLVMRealUNO, best, best, ""),
                                       LLVMBuildFCmp(w->b, LLVMRealUNO, x, x, ""), ""), "");
    else
        hit = LLVMBuildICmp(w->b, LLVMIntEQ, x, best, "");
    LLVMBuildCondBr(w->b, hit, found, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, j, c64(w, 1), ""), j_p);
    LLVMBuildBr(w->b, cond);
    LLVMPositionBuilderAtEnd(w->b, found);
    return LLVMBuildLoad2(w->b, w->i64, j_p, "");
}

/* Elements per block of argmin / argmax: 32 KiB of doubles, still in the
 * first-level cache when first_equal reads the block again. */
#define ARG_BLOCK 4096

/* Whether block extreme m beats the running best: strictly better, so that
 * the first block holding the extreme keeps it; a NaN beats any number and
 * then stays (NumPy's first NaN wins). */
static LLVMValueRef block_beats(kj_lw *w, const kj_type *et, bool is_max, LLVMValueRef m, LLVMValueRef best) {
    if (!is_float(et))
        return LLVMBuildICmp(w->b, is_max ? (et->is_signed ? LLVMIntSGT : LLVMIntUGT) : (et->is_signed ? LLVMIntSLT : LLVMIntULT),
                             m, best, "");
    LLVMValueRef better = LLVMBuildFCmp(w->b, is_max ? LLVMRealOGT : LLVMRealOLT, m, best, "");
    LLVMValueRef nan = LLVMBuildAnd(w->b, LLVMBuildFCmp(w->b, LLVMRealUNO, m, m, ""),
                                    LLVMBuildFCmp(w->b, LLVMRealORD, best, best, ""), "");
    return LLVMBuildOr(w->b, better, nan, "");
}

/* Block b of line ln: ARG_BLOCK elements, fewer at the end; *from is the
 * index of its first element. */
static line block_of(kj_lw *w, const line *ln, LLVMValueRef b, LLVMValueRef *from) {
    *from = LLVMBuildMul(w->b, b, c64(w, ARG_BLOCK), "");
    LLVMValueRef left = LLVMBuildSub(w->b, ln->count, *from, ""), off = LLVMBuildMul(w->b, *from, ln->stride, "");
    return (line){LLVMBuildGEP2(w->b, w->i8, ln->data, &off, 1, ""), ln->stride,
                  LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, left, c64(w, ARG_BLOCK), ""), left,
                                  c64(w, ARG_BLOCK), "")};
}

/* Index of the first minimum (maximum) of a line of count > 0, its value
 * in *value; a NaN wins, as in NumPy. One pass over memory: extreme()'s
 * loop, which vectorizes, per block, keeping the block where the running
 * best last improved, then first_equal in that block only. (One loop that
 * tracks the best index does not vectorize; extreme over the whole line,
 * then first_equal, reads a large array one and a half times:
 * bench/MEASURED.md.) */
static LLVMValueRef arg_extreme_line(kj_lw *w, const line *ln, const kj_type *et, bool is_max, LLVMValueRef *value) {
    LLVMTypeRef lt = kj_lltype(w, et);
    LLVMValueRef best_p = kj_entry_alloca(w, lt, "arg.best"), block_p = kj_entry_alloca(w, w->i64, "arg.block");
    LLVMBuildStore(w->b, line_elem(w, ln, c64(w, 0), et), best_p);
    LLVMBuildStore(w->b, c64(w, 0), block_p);
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, ln->count, c64(w, ARG_BLOCK - 1), ""), c64(w, ARG_BLOCK), "");
    kj_np_loop blocks;
    LLVMValueRef b = kj_np_loop_begin(w, &blocks, nblocks), from;
    line part = block_of(w, ln, b, &from);
    LLVMValueRef m = extreme(w, &part, et, et, is_max), best = LLVMBuildLoad2(w->b, lt, best_p, "");
    LLVMValueRef take = block_beats(w, et, is_max, m, best);
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, take, m, best, ""), best_p);
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, take, b, LLVMBuildLoad2(w->b, w->i64, block_p, ""), ""), block_p);
    kj_np_loop_keep_scalar(&blocks);
    kj_np_loop_end(w, &blocks);
    *value = LLVMBuildLoad2(w->b, lt, best_p, "");
    line found = block_of(w, ln, LLVMBuildLoad2(w->b, w->i64, block_p, ""), &from);
    return LLVMBuildAdd(w->b, from, first_equal(w, &found, et, *value), "");
}

LLVMValueRef kj_np_arg_extreme_span(kj_lw *w, bool is_max, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                    LLVMValueRef *value) {
    line ln = {data, kj_np_itemsize(w, et), count};
    return arg_extreme_line(w, &ln, et, is_max, value);
}

static LLVMValueRef arg_extreme(kj_lw *w, const line *ln, const kj_type *et, bool is_max, const char *what) {
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, ln->count, c64(w, 0), ""), PyExc_ValueError, what);
    LLVMValueRef value;
    return arg_extreme_line(w, ln, et, is_max, &value);
}

/* np.nanargmin (nanargmax) of a float line: the index of the first
 * minimum (maximum) of its numbers, in two passes (the extreme without
 * NaNs, then the first element equal to it). No number at all, an empty
 * line included, is NumPy's ValueError. */
static LLVMValueRef nan_arg_extreme(kj_lw *w, const line *ln, const kj_type *et, bool is_max) {
    LLVMBasicBlockRef scan = kj_new_bb(w, "nanarg.scan"), join = kj_new_bb(w, "nanarg.join");
    LLVMValueRef empty = LLVMBuildICmp(w->b, LLVMIntEQ, ln->count, c64(w, 0), "");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBuildCondBr(w->b, empty, join, scan);
    LLVMPositionBuilderAtEnd(w->b, scan);
    LLVMValueRef found = extreme_of(w, ln, et, et, is_max, true);
    LLVMBasicBlockRef scanned = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef best = LLVMBuildPhi(w->b, kj_lltype(w, et), "nanarg.best");
    LLVMAddIncoming(best, (LLVMValueRef[]){LLVMConstReal(kj_lltype(w, et), NAN), found},
                    (LLVMBasicBlockRef[]){from, scanned}, 2);
    kj_raise_if(w, LLVMBuildFCmp(w->b, LLVMRealUNO, best, best, ""), PyExc_ValueError, "All-NaN slice encountered");
    return first_equal(w, ln, et, best);
}

/* all / any of a line. */
static LLVMValueRef truth_fold(kj_lw *w, const line *ln, const kj_type *et, bool is_all) {
    LLVMValueRef acc = kj_entry_alloca(w, w->i1, "acc");
    LLVMBuildStore(w->b, LLVMConstInt(w->i1, is_all, 0), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ln->count);
    LLVMValueRef x = kj_truth(w, line_elem(w, ln, i, et), et), cur = LLVMBuildLoad2(w->b, w->i1, acc, "");
    LLVMBuildStore(w->b, is_all ? LLVMBuildAnd(w->b, cur, x, "") : LLVMBuildOr(w->b, cur, x, ""), acc);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, w->i1, acc, "");
}

/* (x - mean)**2 of element i of a line, in rt. */
static LLVMValueRef deviation2(kj_lw *w, const line *ln, LLVMValueRef i, const kj_type *et, const kj_type *rt,
                               LLVMValueRef mean) {
    LLVMValueRef d = kj_fm(w, LLVMBuildFSub(w->b, kj_cast(w, line_elem(w, ln, i, et), et, rt), mean, ""));
    return kj_fm(w, LLVMBuildFMul(w->b, d, d, ""));
}

LLVMValueRef kj_np_squared_deviations(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                      const kj_type *rt, LLVMValueRef mean) {
    line ln = {data, kj_np_itemsize(w, et), count};
    return ordered_sum(w, &ln, et, rt, deviation2, mean);   /* as NumPy's var adds its array of squares */
}

/* The reduction m of one line, a value of type rt. */
static LLVMValueRef reduce_line(kj_lw *w, const char *m, const line *ln, const kj_type *et, const kj_type *rt) {
    if (!strcmp(m, "sum") || !strcmp(m, "prod"))
        return fold(w, ln, et, rt, m[0] == 'p');
    if (!strcmp(m, "all") || !strcmp(m, "any"))
        return truth_fold(w, ln, et, m[1] == 'l');
    if (!strcmp(m, "argmin") || !strcmp(m, "argmax"))
        return arg_extreme(w, ln, et, m[4] == 'a', m[4] == 'a' ? "attempt to get argmax of an empty sequence"
                                                               : "attempt to get argmin of an empty sequence");
    if (!strcmp(m, "min") || !strcmp(m, "max") || !strcmp(m, "amin") || !strcmp(m, "amax")) {
        bool is_max = strstr(m, "max") != NULL;
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, ln->count, c64(w, 0), ""), PyExc_ValueError,
                    is_max ? "zero-size array to reduction operation maximum which has no identity"
                           : "zero-size array to reduction operation minimum which has no identity");
        return extreme(w, ln, et, rt, is_max);
    }
    if ((!strcmp(m, "nanargmin") || !strcmp(m, "nanargmax")) && is_float(et))
        return nan_arg_extreme(w, ln, et, m[7] == 'a');
    if (!strcmp(m, "nanargmin") || !strcmp(m, "nanargmax"))   /* ints and bools hold no NaN */
        return arg_extreme(w, ln, et, m[7] == 'a', m[7] == 'a' ? "attempt to get argmax of an empty sequence"
                                                               : "attempt to get argmin of an empty sequence");
    if (!strcmp(m, "nanmin") || !strcmp(m, "nanmax")) {
        bool is_max = m[4] == 'a';
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, ln->count, c64(w, 0), ""), PyExc_ValueError,
                    is_max ? "zero-size array to reduction operation fmax which has no identity"
                           : "zero-size array to reduction operation fmin which has no identity");
        return extreme_of(w, ln, et, rt, is_max, true);
    }
    /* mean, var, std: NumPy's two passes */
    LLVMValueRef mean = mean_of(w, fold(w, ln, et, rt, false), ln->count, rt);
    if (!strcmp(m, "mean"))
        return mean;
    LLVMValueRef nf = LLVMBuildSIToFP(w->b, ln->count, kj_lltype(w, rt), "");
    LLVMValueRef var = kj_fm(w, LLVMBuildFDiv(w->b, ordered_sum(w, ln, et, rt, deviation2, mean), nf, ""));
    if (!strcmp(m, "var"))
        return var;
    return kj_call_intrinsic(w, "llvm.sqrt", kj_lltype(w, rt), 1, &var);
}

LLVMValueRef kj_np_reduce_span(kj_lw *w, const char *m, LLVMValueRef data, LLVMValueRef stride, LLVMValueRef count,
                               const kj_type *et, const kj_type *rt) {
    line ln = {data, stride, count};
    return reduce_line(w, m, &ln, et, rt);
}

/* Running sums (products) of a line into out (stride ostride). */
static void cumulate(kj_lw *w, const line *ln, const kj_type *et, LLVMValueRef out, LLVMValueRef ostride,
                     const kj_type *rt, bool prod) {
    LLVMValueRef acc = kj_entry_alloca(w, kj_lltype(w, rt), "acc");
    LLVMBuildStore(w->b, kj_cast(w, c64(w, prod ? 1 : 0), KJ_I64, rt), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, ln->count);
    LLVMValueRef x = kj_cast(w, line_elem(w, ln, i, et), et, rt), cur = LLVMBuildLoad2(w->b, kj_lltype(w, rt), acc, "");
    LLVMValueRef r = combine(w, cur, x, rt, prod);
    LLVMBuildStore(w->b, r, acc);
    LLVMValueRef off = LLVMBuildMul(w->b, i, ostride, "");
    kj_np_store_elem(w, LLVMBuildGEP2(w->b, w->i8, out, &off, 1, ""), r, rt, rt);
    kj_np_loop_end(w, &l);
}

/* ---- reductions of array expressions, fused: no array is made ---- */

typedef struct {
    const char *m;
    kj_node *at;
    const kj_type *rt;
    LLVMValueRef acc, count;   /* allocas */
} fused;

static void fused_step(kj_lw *w, LLVMValueRef v, const kj_type *vt, void *ctx) {
    fused *f = ctx;
    LLVMTypeRef lt = kj_lltype(w, f->rt);
    LLVMValueRef cur = LLVMBuildLoad2(w->b, lt, f->acc, ""), n = LLVMBuildLoad2(w->b, w->i64, f->count, "");
    LLVMValueRef x = kj_cast(w, v, vt, f->rt), r;
    const char *m = f->m;
    if (!strcmp(m, "all") || !strcmp(m, "any")) {
        LLVMValueRef t = kj_truth(w, v, vt);
        r = m[1] == 'l' ? LLVMBuildAnd(w->b, cur, t, "") : LLVMBuildOr(w->b, cur, t, "");
    } else if (strstr(m, "min") || strstr(m, "max")) {
        LLVMValueRef better = kj_np_elem_op(w, f->at, strstr(m, "max") ? "maximum" : "minimum", 2,
                                            (LLVMValueRef[]){cur, x}, (const kj_type *[]){f->rt, f->rt}, f->rt);
        r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, n, LLVMConstInt(w->i64, 0, 0), ""), x, better, "");
    } else {
        r = kj_np_elem_op(w, f->at, m[0] == 'p' ? "multiply" : "add", 2, (LLVMValueRef[]){cur, x},
                          (const kj_type *[]){f->rt, f->rt}, f->rt);
    }
    LLVMBuildStore(w->b, r, f->acc);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, n, LLVMConstInt(w->i64, 1, 0), ""), f->count);
}

static bool fusable(const char *m) {
    static const char *const names[] = {"sum", "prod", "mean", "min", "max", "amin", "amax", "all", "any", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], m))
            return true;
    return false;
}

static LLVMValueRef fused_reduce(kj_lw *w, kj_node *arrn, const char *m, const kj_type *rt) {
    fused f = {.m = m, .at = arrn, .rt = rt};
    LLVMTypeRef lt = kj_lltype(w, rt);
    f.acc = kj_entry_alloca(w, lt, "acc");
    f.count = kj_entry_alloca(w, w->i64, "count");
    LLVMValueRef init = !strcmp(m, "all") ? LLVMConstInt(w->i1, 1, 0)
                        : m[0] == 'p' ? kj_cast(w, c64(w, 1), KJ_I64, rt) : LLVMConstNull(lt);
    LLVMBuildStore(w->b, init, f.acc);
    LLVMBuildStore(w->b, c64(w, 0), f.count);
    kj_np_ewise_each(w, arrn, fused_step, &f, NULL);
    LLVMValueRef acc = LLVMBuildLoad2(w->b, lt, f.acc, ""), n = LLVMBuildLoad2(w->b, w->i64, f.count, "");
    if (strstr(m, "min") || strstr(m, "max")) {
        bool is_max = strstr(m, "max") != NULL;
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, n, c64(w, 0), ""), PyExc_ValueError,
                    is_max ? "zero-size array to reduction operation maximum which has no identity"
                           : "zero-size array to reduction operation minimum which has no identity");
    }
    if (!strcmp(m, "mean"))
        acc = mean_of(w, acc, n, rt);
    return acc;
}

/* arr's data where `contiguous` holds, else a C-ordered copy's. */
static LLVMValueRef one_line(kj_lw *w, LLVMValueRef arr, const kj_type *at, LLVMValueRef contiguous) {
    LLVMBasicBlockRef copy = kj_new_bb(w, "red.copy"), join = kj_new_bb(w, "red.join");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMValueRef d0 = kj_array_field(w, arr, 1, 0);
    LLVMBuildCondBr(w->b, contiguous, join, copy);
    LLVMPositionBuilderAtEnd(w->b, copy);
    LLVMValueRef dc = kj_array_field(w, kj_np_copy(w, arr, at, at->elem), 1, 0);
    LLVMBasicBlockRef copy_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef data = LLVMBuildPhi(w->b, w->ptr, "data");
    LLVMAddIncoming(data, (LLVMValueRef[]){d0, dc}, (LLVMBasicBlockRef[]){from, copy_end}, 2);
    return data;
}

LLVMValueRef kj_np_whole_line(kj_lw *w, LLVMValueRef arr, const kj_type *at) {
    return one_line(w, arr, at, kj_np_is_contiguous(w, arr, at));
}

LLVMValueRef kj_np_memory_line(kj_lw *w, LLVMValueRef arr, const kj_type *at) {
    return one_line(w, arr, at, LLVMBuildOr(w->b, kj_np_is_contiguous(w, arr, at), kj_np_is_fortran(w, arr, at), ""));
}

/* NumPy's ValueError for reduction m along an axis of length 0, or NULL
 * when m has an identity (nanargmin and nanargmax keep their own). */
static const char *empty_axis_error(const char *m) {
    if (!strcmp(m, "argmin") || !strcmp(m, "argmax"))
        return m[4] == 'a' ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence";
    if (!strcmp(m, "nanmin") || !strcmp(m, "nanmax"))
        return m[4] == 'a' ? "zero-size array to reduction operation fmax which has no identity"
                           : "zero-size array to reduction operation fmin which has no identity";
    if (!strcmp(m, "min") || !strcmp(m, "max") || !strcmp(m, "amin") || !strcmp(m, "amax"))
        return strstr(m, "max") ? "zero-size array to reduction operation maximum which has no identity"
                                : "zero-size array to reduction operation minimum which has no identity";
    return NULL;
}

/* Whether reduction m of a whole array (a local, an Optional argument's value, or an attribute
 * of either: arrn) gives another float result in memory order than in C order (a
 * Fortran-ordered array: NumPy adds and multiplies in memory order). */
static bool order_sensitive(const char *m, const kj_node *arrn, const kj_type *t, kj_node *axisn) {
    static const char *const names[] = {"sum", "prod", "mean", "var", "std", "nansum", "nanmean",
                                        "nanvar", "nanstd", NULL};
    const kj_type *at = arrn->type;
    /* the array is lowered on both paths: only where that costs nothing and runs nothing twice
     * (an Optional argument's value is checked again, which raises nothing new) */
    const kj_node *base = arrn->kind == KJ_E_ATTR ? arrn->kids[0] : arrn;
    if (base->kind == KJ_E_UNWRAP)
        base = base->kids[0];
    if (base->kind != KJ_E_LOCAL)
        return false;
    if ((axisn && axisn->type->kind != KJ_T_NONE) || at->kind != KJ_T_ARRAY || at->ndim < 2 ||
        at->layout == KJ_LAYOUT_C || (t->kind != KJ_T_FLOAT && t->kind != KJ_T_COMPLEX))
        return false;
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], m))
            return true;
    return false;
}

static LLVMValueRef lower_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arrn, kj_node *axisn);

LLVMValueRef kj_np_lower_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arrn, kj_node *axisn) {
    LLVMValueRef grouped = kj_np_group_value(w, n);   /* computed with the statement's other reductions of arrn */
    if (grouped)
        return grouped;
    if (!order_sensitive(m, arrn, n->type, axisn))
        return lower_reduce(w, n, m, arrn, axisn);
    /* a Fortran-ordered array (not also C-ordered) is one line in memory */
    const kj_type *at = arrn->type;
    LLVMValueRef arr = kj_lower_expr(w, arrn);
    LLVMValueRef fortran = LLVMBuildAnd(w->b, kj_np_is_fortran(w, arr, at),
                                        LLVMBuildNot(w->b, kj_np_is_contiguous(w, arr, at), ""), "");
    LLVMBasicBlockRef mem = kj_new_bb(w, "red.memory"), usual = kj_new_bb(w, "red.c_order"), join = kj_new_bb(w, "red.join");
    LLVMBuildCondBr(w->b, fortran, mem, usual);
    LLVMPositionBuilderAtEnd(w->b, mem);
    line ln = {kj_array_field(w, arr, 1, 0), kj_np_itemsize(w, at->elem), kj_np_size(w, arr, at->ndim)};
    LLVMValueRef by_memory = reduce_line(w, m, &ln, at->elem, n->type);
    LLVMBasicBlockRef mem_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, usual);
    LLVMValueRef by_c = lower_reduce(w, n, m, arrn, axisn);
    LLVMBasicBlockRef usual_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef r = LLVMBuildPhi(w->b, kj_lltype(w, n->type), "reduced");
    LLVMAddIncoming(r, (LLVMValueRef[]){by_memory, by_c}, (LLVMBasicBlockRef[]){mem_end, usual_end}, 2);
    return r;
}

static LLVMValueRef lower_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arrn, kj_node *axisn) {
    const kj_type *at = arrn->type, *t = n->type;
    bool complex = at->elem->kind == KJ_T_COMPLEX || t->kind == KJ_T_COMPLEX;   /* never split: pairs */
    if ((!axisn || axisn->type->kind == KJ_T_NONE) && kj_np_is_ewise(arrn) && fusable(m)) {
        /* in a parallel=True function, split across the pool when it can be */
        LLVMValueRef r = complex ? NULL : kj_parallel_reduce_expr(w, n, m, arrn, t);
        return r ? r : fused_reduce(w, arrn, m, t);
    }
    LLVMValueRef arr = kj_lower_expr(w, arrn);
    const kj_type *et = at->elem;
    bool cumulative = !strncmp(m, "cum", 3);
    const kj_type *rt = t->kind == KJ_T_ARRAY ? t->elem : t;
    if (axisn && axisn->type->kind == KJ_T_NONE)
        axisn = NULL;
    if (!axisn) {
        line ln = {kj_np_whole_line(w, arr, at), kj_np_itemsize(w, et), kj_np_size(w, arr, at->ndim)};
        if (!cumulative) {   /* in a parallel=True function, split across the pool when it can be */
            LLVMValueRef r = complex ? NULL : kj_parallel_reduce(w, n, m, ln.data, ln.count, et, rt);
            return r ? r : reduce_line(w, m, &ln, et, rt);
        }
        LLVMValueRef out = kj_np_alloc(w, t, &ln.count, false);
        cumulate(w, &ln, et, kj_array_field(w, out, 1, 0), kj_np_itemsize(w, rt), rt, m[3] == 'p');
        return out;
    }
    /* along an axis: one line per element of the result */
    int nd = at->ndim;
    LLVMValueRef asked = kj_np_value(w, axisn, KJ_I64);
    LLVMValueRef axis = kj_np_axis(w, asked, nd);
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM], oshape[KJ_NP_MAXDIM], ostrides[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, nd, shape);
    kj_np_strides(w, arr, nd, strides);
    /* the array's axes without `axis`, as shapes and strides (selects: the
     * axis is a run-time value) */
    LLVMValueRef len = c64(w, 0), lstride = c64(w, 0);
    for (int k = 0; k < nd; k++) {
        LLVMValueRef is = LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), "");
        len = LLVMBuildSelect(w->b, is, shape[k], len, "");
        lstride = LLVMBuildSelect(w->b, is, strides[k], lstride, "");
    }
    for (int k = 0; k < nd - 1; k++) {
        LLVMValueRef past = LLVMBuildICmp(w->b, LLVMIntSLE, axis, c64(w, k), "");
        oshape[k] = LLVMBuildSelect(w->b, past, shape[k + 1], shape[k], "");
        ostrides[k] = LLVMBuildSelect(w->b, past, strides[k + 1], strides[k], "");
    }
    if (cumulative) {
        LLVMValueRef out = kj_np_alloc(w, t, shape, false);
        LLVMValueRef outst[KJ_NP_MAXDIM], olst = c64(w, 0), oost[KJ_NP_MAXDIM];
        kj_np_strides(w, out, nd, outst);
        for (int k = 0; k < nd; k++)
            olst = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), ""), outst[k], olst, "");
        for (int k = 0; k < nd - 1; k++)
            oost[k] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLE, axis, c64(w, k), ""), outst[k + 1], outst[k], "");
        LLVMValueRef idx[KJ_NP_MAXDIM];
        kj_np_nest nest;
        kj_np_nest_begin(w, &nest, nd - 1, oshape, idx);
        LLVMValueRef off = c64(w, 0), ooff = c64(w, 0);
        for (int k = 0; k < nd - 1; k++) {
            off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[k], ostrides[k], ""), "");
            ooff = LLVMBuildAdd(w->b, ooff, LLVMBuildMul(w->b, idx[k], oost[k], ""), "");
        }
        line ln = {LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, ""), lstride, len};
        cumulate(w, &ln, et, LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, out, 1, 0), &ooff, 1, ""), olst, rt, m[3] == 'p');
        kj_np_nest_end(w, &nest);
        return out;
    }
    const char *empty = empty_axis_error(m);
    if (empty)   /* NumPy raises for an empty axis even when the result itself is empty */
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), ""), PyExc_ValueError, empty);
    LLVMValueRef out = t->kind == KJ_T_ARRAY ? kj_np_alloc(w, t, oshape, false) : NULL;
    LLVMValueRef idx[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd - 1, oshape, idx);
    LLVMValueRef off = c64(w, 0);
    for (int k = 0; k < nd - 1; k++)
        off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[k], ostrides[k], ""), "");
    line ln = {LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, ""), lstride, len};
    LLVMValueRef r = reduce_line(w, m, &ln, et, rt);
    if (!out) {   /* a 1-d array along axis 0: a scalar */
        kj_np_nest_end(w, &nest);
        return r;
    }
    kj_np_store_elem(w, kj_np_ptr(w, out, nd - 1, idx), r, rt, rt);
    kj_np_nest_end(w, &nest);
    return out;
}
