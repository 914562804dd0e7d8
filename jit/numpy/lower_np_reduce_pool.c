/* lower_np_reduce_pool: reductions in a parallel=True function, split across
 * the pool: a whole array's np.sum, np.prod, min, max, mean, var, std, all,
 * any, argmin and argmax, and the fused reductions of array expressions
 * (np.sum(x * y), (a - b).max()).
 *
 * A whole array is one contiguous line (lower_np_reduce.c copies a strided
 * one first). Each chunk [lo, hi) reduces its part with the serial code
 * (kj_np_reduce_span; for min and max kj_np_extreme_span, which skips the
 * empty check a chunk never needs) and folds the result into its pool
 * slot's partial; the parent then combines
 * the partials in slot order. var and std take NumPy's two passes, each
 * split. Integer results are exact (wrapping addition and multiplication
 * are associative). A float sum, mean, var or std in NumPy's order
 * (kj_np_sums_in_numpy_order) is the serial result to the last bit: its
 * chunks sum whole blocks into an array of block sums, added in order
 * (split_blocks); other float sums (fastmath) reassociate and
 * differ by rounding (chunk_value). A small line runs as one direct chunk
 * (kj_parallel_region_end), so it costs two short loops over the slots
 * more than the serial code.
 *
 * argmin / argmax: a chunk finds its first extreme in one pass
 * (kj_np_arg_extreme_span); partials are (value, index) pairs.
 * An array expression's reduction never makes the array: its contiguous
 * loop (kj_np_ewise_each) runs in chunks, each reducing the elements it
 * computes into a running value that starts at the operation's identity. */
#include "jit/numpy/lower_np.h"
#include "jit/lower/pool_region.h"
#include "jit/runtime/pool.h"
#include "jit/runtime/rt_np.h"

#include <math.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* What each chunk computes for method m (var and std: their first pass);
 * false when m is not split. */
static bool part_of(const char *m, kj_part_kind *k) {
    static const struct {
        const char *m;
        kj_part_kind k;
    } table[] = {{"sum", KJ_PART_SUM},  {"mean", KJ_PART_SUM}, {"prod", KJ_PART_PROD}, {"all", KJ_PART_ALL},
                 {"any", KJ_PART_ANY},  {"min", KJ_PART_MIN},  {"amin", KJ_PART_MIN},  {"max", KJ_PART_MAX},
                 {"amax", KJ_PART_MAX}, {"var", KJ_PART_SUM},  {"std", KJ_PART_SUM}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].m, m)) {
            *k = table[i].k;
            return true;
        }
    return false;
}

/* The serial reduction a chunk of KJ_PART_SUM .. KJ_PART_ANY runs. */
static const char *const chunk_method[] = {"sum", "prod", "all", "any"};

LLVMValueRef kj_part_combine(kj_lw *w, kj_node *at, kj_part_kind k, LLVMValueRef a, LLVMValueRef b,
                            const kj_type *pt) {
    static const char *const ufunc[] = {"add", "multiply", NULL, NULL, "minimum", "maximum", "add"};
    if (k == KJ_PART_ALL)
        return LLVMBuildAnd(w->b, a, b, "");
    if (k == KJ_PART_ANY)
        return LLVMBuildOr(w->b, a, b, "");
    return kj_np_elem_op(w, at, ufunc[k], 2, (LLVMValueRef[]){a, b}, (const kj_type *[]){pt, pt}, pt);
}

/* The value every partial starts from: the operation's identity, or for
 * min and max the line's first element (a candidate anyway). */
static LLVMValueRef start_value(kj_lw *w, kj_part_kind k, LLVMValueRef data, const kj_type *et, const kj_type *pt) {
    if (k == KJ_PART_ALL || k == KJ_PART_ANY)
        return LLVMConstInt(w->i1, k == KJ_PART_ALL, 0);
    if (k == KJ_PART_MIN || k == KJ_PART_MAX)
        return kj_cast(w, kj_np_load(w, data, et), et, pt);
    return kj_cast(w, c64(w, k == KJ_PART_PROD), KJ_I64, pt);
}

/* The reduction of one chunk of count elements from data. */
static LLVMValueRef chunk_value(kj_lw *o, kj_part_kind k, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *pt, LLVMValueRef mean) {
    if (k == KJ_PART_MIN || k == KJ_PART_MAX)
        return kj_np_extreme_span(o, k == KJ_PART_MAX, data, count, et, pt);
    /* a float sum or product may reassociate, so that LLVM keeps several
     * partials in vector lanes (as NumPy's pairwise sum does): the split
     * result already differs from the serial order by rounding */
    kj_instance *inst = o->inst, chunk = *inst;
    chunk.opts.fastmath |= LLVMFastMathAllowReassoc;
    o->inst = &chunk;
    LLVMValueRef v = k == KJ_PART_SQDEV ? kj_np_squared_deviations(o, data, count, et, pt, mean)
                                     : kj_np_reduce_span(o, chunk_method[k], data, kj_np_itemsize(o, et), count,
                                                         et, pt);
    o->inst = inst;
    return v;
}

/* One pass over the line on the pool: the partials of k combined, in pt.
 * mean: KJ_PART_SQDEV's, else NULL. */
static LLVMValueRef split_pass(kj_lw *w, kj_node *at, kj_part_kind k, LLVMValueRef data, LLVMValueRef count,
                               const kj_type *et, const kj_type *pt, LLVMValueRef mean) {
    bool truth = k == KJ_PART_ALL || k == KJ_PART_ANY;
    LLVMTypeRef lt = truth ? w->i1 : kj_lltype(w, pt), parts_t = LLVMArrayType2(lt, KJ_POOL_MAX_THREADS);
    LLVMValueRef parts = kj_entry_alloca(w, parts_t, "red.partials");
    LLVMValueRef start = start_value(w, k, data, et, pt);
    kj_np_loop init;
    LLVMValueRef s = kj_np_loop_begin(w, &init, c64(w, KJ_POOL_MAX_THREADS));
    LLVMBuildStore(w->b, start, LLVMBuildGEP2(w->b, parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""));
    kj_np_loop_end(w, &init);

    kj_par_region r;
    LLVMValueRef inside[3];
    LLVMValueRef vals[3] = {data, parts, mean ? mean : LLVMConstNull(lt)};
    kj_lw *o = kj_parallel_region_begin(w, &r, "red", at->line, 3, vals, inside);
    LLVMValueRef mine = chunk_value(o, k, LLVMBuildGEP2(o->b, kj_llmemtype(o, et), inside[0], &r.lo, 1, ""),
                                    LLVMBuildSub(o->b, r.hi, r.lo, ""), et, pt, inside[2]);
    /* a slot runs its chunks one after another: no other thread writes its partial */
    LLVMValueRef part = LLVMBuildGEP2(o->b, parts_t, inside[1],
                                      (LLVMValueRef[]){c64(o, 0), LLVMGetParam(r.fn, 3)}, 2, "");
    LLVMBuildStore(o->b, kj_part_combine(o, at, k, LLVMBuildLoad2(o->b, lt, part, ""), mine, pt), part);
    kj_parallel_region_end(w, &r, count);

    LLVMValueRef acc = kj_entry_alloca(w, lt, "red.total");
    LLVMBuildStore(w->b, start, acc);
    kj_np_loop fold;
    s = kj_np_loop_begin(w, &fold, c64(w, KJ_POOL_MAX_THREADS));
    LLVMValueRef p = LLVMBuildLoad2(w->b, lt, LLVMBuildGEP2(w->b, parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""), "");
    LLVMBuildStore(w->b, kj_part_combine(w, at, k, LLVMBuildLoad2(w->b, lt, acc, ""), p, pt), acc);
    kj_np_loop_end(w, &fold);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

/* The blocks [*first, *last) whose first element lies in the chunk [lo, hi):
 * a chunk reduces whole blocks of KJ_NP_SUM_BLOCK, so that a float sum's
 * blocks are NumPy's whatever the chunks (it may read past hi). */
static void chunk_blocks(kj_lw *o, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef *first, LLVMValueRef *last) {
    LLVMValueRef size = c64(o, KJ_NP_SUM_BLOCK), round = c64(o, KJ_NP_SUM_BLOCK - 1);
    *first = LLVMBuildSDiv(o->b, LLVMBuildAdd(o->b, lo, round, ""), size, "");
    *last = LLVMBuildSDiv(o->b, LLVMBuildAdd(o->b, hi, round, ""), size, "");
}

/* A float sum (KJ_PART_SUM) or sum of squared deviations (KJ_PART_SQDEV,
 * from mean) in NumPy's order, split: NumPy adds the pairwise sums of
 * blocks of KJ_NP_SUM_BLOCK one after another, so each chunk computes the
 * blocks that start in it (reading past its end when a block does) into
 * an array of block sums, which the caller then adds in order. The result
 * is the serial one to the last bit, whatever the number of threads. */
static LLVMValueRef split_blocks(kj_lw *w, kj_node *at, kj_part_kind k, LLVMValueRef data, LLVMValueRef count,
                                 const kj_type *et, const kj_type *pt, LLVMValueRef mean) {
    LLVMTypeRef lt = kj_lltype(w, pt);
    LLVMValueRef size = c64(w, KJ_NP_SUM_BLOCK);
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, count, c64(w, KJ_NP_SUM_BLOCK - 1), ""), size, "");
    LLVMValueRef sums = kj_array_field(w, kj_np_alloc(w, kj_array(pt, 1, KJ_LAYOUT_C, false), &nblocks, false), 1, 0);

    kj_par_region r;
    LLVMValueRef inside[4];
    LLVMValueRef vals[4] = {data, sums, count, mean ? mean : LLVMConstNull(lt)};
    kj_lw *o = kj_parallel_region_begin(w, &r, "red", at->line, 4, vals, inside);
    LLVMValueRef first, last;
    chunk_blocks(o, r.lo, r.hi, &first, &last);
    kj_np_loop blocks;
    LLVMValueRef b = LLVMBuildAdd(o->b, first, kj_np_loop_begin(o, &blocks, LLVMBuildSub(o->b, last, first, "")), "");
    LLVMValueRef start = LLVMBuildMul(o->b, b, size, ""), left = LLVMBuildSub(o->b, inside[2], start, "");
    LLVMValueRef n = LLVMBuildSelect(o->b, LLVMBuildICmp(o->b, LLVMIntSLT, left, size, ""), left, size, "");
    LLVMValueRef block = LLVMBuildGEP2(o->b, kj_llmemtype(o, et), inside[0], &start, 1, "");
    LLVMValueRef v = k == KJ_PART_SUM ? kj_np_pairwise_sum(o, block, n, et, pt)   /* the caller checked the order */
                                      : kj_np_squared_deviations(o, block, n, et, pt, inside[3]);
    LLVMBuildStore(o->b, v, LLVMBuildGEP2(o->b, lt, inside[1], &b, 1, ""));
    kj_np_loop_end(o, &blocks);
    kj_parallel_region_end(w, &r, count);

    LLVMValueRef acc = kj_entry_alloca(w, lt, "red.total");
    LLVMBuildStore(w->b, LLVMConstNull(lt), acc);
    kj_np_loop fold;
    LLVMValueRef i = kj_np_loop_begin(w, &fold, nblocks);
    LLVMValueRef part = LLVMBuildLoad2(w->b, lt, LLVMBuildGEP2(w->b, lt, sums, &i, 1, ""), "");
    LLVMBuildStore(w->b, kj_fm(w, LLVMBuildFAdd(w->b, LLVMBuildLoad2(w->b, lt, acc, ""), part, "")), acc);
    kj_np_loop_end(w, &fold);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

/* ---- argmin, argmax ---- */

/* Whether (vb, ib) beats (va, ia): NumPy's first NaN wins, then the
 * better value, then the smaller index (a slot's chunks lie anywhere in the
 * line, so the index settles ties across slots). */
static LLVMValueRef arg_beats(kj_lw *w, bool is_max, const kj_type *et, LLVMValueRef va, LLVMValueRef ia,
                              LLVMValueRef vb, LLVMValueRef ib) {
    LLVMValueRef earlier = LLVMBuildICmp(w->b, LLVMIntSLT, ib, ia, "");
    if (et->kind != KJ_T_FLOAT) {
        bool s = et->is_signed;
        LLVMValueRef better = LLVMBuildICmp(w->b, is_max ? (s ? LLVMIntSGT : LLVMIntUGT) : (s ? LLVMIntSLT : LLVMIntULT),
                                            vb, va, "");
        LLVMValueRef tie = LLVMBuildICmp(w->b, LLVMIntEQ, vb, va, "");
        return LLVMBuildOr(w->b, better, LLVMBuildAnd(w->b, tie, earlier, ""), "");
    }
    LLVMValueRef a_nan = LLVMBuildFCmp(w->b, LLVMRealUNO, va, va, ""), b_nan = LLVMBuildFCmp(w->b, LLVMRealUNO, vb, vb, "");
    LLVMValueRef better = LLVMBuildFCmp(w->b, is_max ? LLVMRealOGT : LLVMRealOLT, vb, va, "");
    LLVMValueRef tie = LLVMBuildFCmp(w->b, LLVMRealOEQ, vb, va, "");
    LLVMValueRef numbers = LLVMBuildOr(w->b, better, LLVMBuildAnd(w->b, tie, earlier, ""), "");
    LLVMValueRef nans = LLVMBuildAnd(w->b, b_nan, LLVMBuildOr(w->b, LLVMBuildNot(w->b, a_nan, ""), earlier, ""), "");
    return LLVMBuildOr(w->b, nans, LLVMBuildAnd(w->b, LLVMBuildNot(w->b, a_nan, ""), numbers, ""), "");
}

/* (value, index) of slot s in the partials pv, pi: the element pointers. */
static void arg_slot(kj_lw *w, LLVMTypeRef vt, LLVMValueRef pv, LLVMValueRef pi, LLVMValueRef s, LLVMValueRef *v,
                     LLVMValueRef *i) {
    LLVMTypeRef it = LLVMArrayType2(w->i64, KJ_POOL_MAX_THREADS);
    *v = LLVMBuildGEP2(w->b, vt, pv, (LLVMValueRef[]){c64(w, 0), s}, 2, "");
    *i = LLVMBuildGEP2(w->b, it, pi, (LLVMValueRef[]){c64(w, 0), s}, 2, "");
}

/* (cur_v, cur_i) = the better of them and (v, i), through the pointers. */
static void arg_keep_better(kj_lw *w, bool is_max, const kj_type *et, LLVMValueRef cur_v, LLVMValueRef cur_i,
                            LLVMValueRef v, LLVMValueRef i) {
    LLVMTypeRef lt = kj_lltype(w, et);
    LLVMValueRef ov = LLVMBuildLoad2(w->b, lt, cur_v, ""), oi = LLVMBuildLoad2(w->b, w->i64, cur_i, "");
    LLVMValueRef take = arg_beats(w, is_max, et, ov, oi, v, i);
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, take, v, ov, ""), cur_v);
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, take, i, oi, ""), cur_i);
}

static LLVMValueRef split_arg(kj_lw *w, kj_node *at, bool is_max, LLVMValueRef data, LLVMValueRef count,
                              const kj_type *et) {
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError,
                is_max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence");
    LLVMTypeRef lt = kj_lltype(w, et), vt = LLVMArrayType2(lt, KJ_POOL_MAX_THREADS);
    LLVMValueRef pv = kj_entry_alloca(w, vt, "arg.values"), pi = kj_entry_alloca(w, LLVMArrayType2(w->i64, KJ_POOL_MAX_THREADS), "arg.indices");
    LLVMValueRef first = kj_np_load(w, data, et), sv, si;   /* element 0: a candidate anyway */
    kj_np_loop init;
    LLVMValueRef s = kj_np_loop_begin(w, &init, c64(w, KJ_POOL_MAX_THREADS));
    arg_slot(w, vt, pv, pi, s, &sv, &si);
    LLVMBuildStore(w->b, first, sv);
    LLVMBuildStore(w->b, c64(w, 0), si);
    kj_np_loop_end(w, &init);

    kj_par_region r;
    LLVMValueRef inside[3];
    kj_lw *o = kj_parallel_region_begin(w, &r, "red", at->line, 3, (LLVMValueRef[]){data, pv, pi}, inside);
    LLVMValueRef chunk = LLVMBuildGEP2(o->b, kj_llmemtype(o, et), inside[0], &r.lo, 1, "");
    LLVMValueRef n = LLVMBuildSub(o->b, r.hi, r.lo, "");
    LLVMValueRef best, where = LLVMBuildAdd(o->b, r.lo, kj_np_arg_extreme_span(o, is_max, chunk, n, et, &best), "");
    arg_slot(o, vt, inside[1], inside[2], LLVMGetParam(r.fn, 3), &sv, &si);
    arg_keep_better(o, is_max, et, sv, si, best, where);
    kj_parallel_region_end(w, &r, count);

    LLVMValueRef bv = kj_entry_alloca(w, lt, "arg.best"), bi = kj_entry_alloca(w, w->i64, "arg.besti");
    LLVMBuildStore(w->b, first, bv);
    LLVMBuildStore(w->b, c64(w, 0), bi);
    kj_np_loop fold;
    s = kj_np_loop_begin(w, &fold, c64(w, KJ_POOL_MAX_THREADS));
    arg_slot(w, vt, pv, pi, s, &sv, &si);
    arg_keep_better(w, is_max, et, bv, bi, LLVMBuildLoad2(w->b, lt, sv, ""), LLVMBuildLoad2(w->b, w->i64, si, ""));
    kj_np_loop_end(w, &fold);
    return LLVMBuildLoad2(w->b, w->i64, bi, "");
}

/* ---- reductions of array expressions ---- */

LLVMValueRef kj_part_identity(kj_lw *w, kj_part_kind k, const kj_type *pt) {
    LLVMTypeRef lt = kj_lltype(w, pt);
    if (k == KJ_PART_ALL || k == KJ_PART_ANY)
        return LLVMConstInt(w->i1, k == KJ_PART_ALL, 0);
    if (k != KJ_PART_MIN && k != KJ_PART_MAX)
        return kj_cast(w, c64(w, k == KJ_PART_PROD), KJ_I64, pt);
    if (pt->kind == KJ_T_FLOAT)
        return LLVMConstReal(lt, k == KJ_PART_MIN ? INFINITY : -INFINITY);
    unsigned bits = LLVMGetIntTypeWidth(lt);
    unsigned long long top = 1ULL << (bits - 1);   /* the sign bit */
    bool s = pt->kind == KJ_T_INT && pt->is_signed;
    if (k == KJ_PART_MAX)
        return LLVMConstInt(lt, s ? top : 0, 0);
    return s ? LLVMConstInt(lt, top - 1, 0) : LLVMConstAllOnes(lt);
}

typedef struct {
    kj_part_kind k;
    kj_node *at;
    const kj_type *pt;
    LLVMTypeRef lt, parts_t;
    LLVMValueRef acc;      /* the running value: the parent's, or inside a chunk the chunk's */
    LLVMValueRef parent;   /* the parent's (the strided loop runs there) */
} expr_red;

static void expr_start(kj_lw *w, expr_red *e, const char *name) {
    e->acc = kj_entry_alloca(w, e->lt, name);
    LLVMBuildStore(w->b, kj_part_identity(w, e->k, e->pt), e->acc);
}

/* acc = acc op element v: a float sum or product may reassociate (the
 * chunks already change its order), and min / max use LLVM's intrinsics,
 * so that the chunk's loop vectorizes (llvm.maximum lets a NaN win). */
static void expr_step(kj_lw *w, LLVMValueRef v, const kj_type *vt, void *ctx) {
    expr_red *e = ctx;
    LLVMValueRef cur = LLVMBuildLoad2(w->b, e->lt, e->acc, ""), r;
    if (e->k == KJ_PART_ALL || e->k == KJ_PART_ANY) {
        LLVMValueRef t = kj_truth(w, v, vt);
        r = e->k == KJ_PART_ALL ? LLVMBuildAnd(w->b, cur, t, "") : LLVMBuildOr(w->b, cur, t, "");
    } else if (e->k == KJ_PART_MIN || e->k == KJ_PART_MAX) {
        bool mx = e->k == KJ_PART_MAX, s = e->pt->kind == KJ_T_INT && e->pt->is_signed;
        const char *op = e->pt->kind == KJ_T_FLOAT ? (mx ? "llvm.maximum" : "llvm.minimum")
                         : s ? (mx ? "llvm.smax" : "llvm.smin") : (mx ? "llvm.umax" : "llvm.umin");
        r = kj_call_intrinsic(w, op, e->lt, 2, (LLVMValueRef[]){cur, kj_cast(w, v, vt, e->pt)});
    } else {
        LLVMValueRef x = kj_cast(w, v, vt, e->pt);
        bool mul = e->k == KJ_PART_PROD;
        if (e->pt->kind == KJ_T_FLOAT) {
            r = kj_fm(w, mul ? LLVMBuildFMul(w->b, cur, x, "") : LLVMBuildFAdd(w->b, cur, x, ""));
            LLVMSetFastMathFlags(r, LLVMGetFastMathFlags(r) | LLVMFastMathAllowReassoc);
        } else
            r = mul ? LLVMBuildMul(w->b, cur, x, "") : LLVMBuildAdd(w->b, cur, x, "");
    }
    LLVMBuildStore(w->b, r, e->acc);
}

static void expr_chunk_begin(kj_lw *o, LLVMValueRef parts, void *ctx) {
    (void)parts;
    expr_start(o, ctx, "chunk.acc");
}

/* a slot runs its chunks one after another: no other thread writes its partial */
static void expr_chunk_end(kj_lw *o, LLVMValueRef parts, LLVMValueRef slot, void *ctx) {
    expr_red *e = ctx;
    LLVMValueRef part = LLVMBuildGEP2(o->b, e->parts_t, parts, (LLVMValueRef[]){c64(o, 0), slot}, 2, "");
    LLVMValueRef mine = LLVMBuildLoad2(o->b, e->lt, e->acc, "");
    LLVMBuildStore(o->b, kj_part_combine(o, e->at, e->k, LLVMBuildLoad2(o->b, e->lt, part, ""), mine, e->pt), part);
    e->acc = e->parent;
}

LLVMValueRef kj_parallel_reduce_expr(kj_lw *w, kj_node *at, const char *m, kj_node *arrn, const kj_type *rt) {
    kj_part_kind k;
    if (!kj_parallel_wanted(w) || !part_of(m, &k) || !strcmp(m, "var") || !strcmp(m, "std") ||
        rt->kind == KJ_T_COMPLEX || arrn->type->elem->kind == KJ_T_COMPLEX)
        return NULL;
    expr_red e = {.k = k, .at = at, .pt = k == KJ_PART_ALL || k == KJ_PART_ANY ? kj_bool() : rt};
    e.lt = k == KJ_PART_ALL || k == KJ_PART_ANY ? w->i1 : kj_lltype(w, e.pt);
    e.parts_t = LLVMArrayType2(e.lt, KJ_POOL_MAX_THREADS);
    LLVMValueRef id = kj_part_identity(w, k, e.pt), parts = kj_entry_alloca(w, e.parts_t, "red.partials");
    kj_np_loop init;
    LLVMValueRef s = kj_np_loop_begin(w, &init, c64(w, KJ_POOL_MAX_THREADS));
    LLVMBuildStore(w->b, id, LLVMBuildGEP2(w->b, e.parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""));
    kj_np_loop_end(w, &init);
    expr_start(w, &e, "red.acc");
    e.parent = e.acc;

    kj_np_each_split split = {.shared = parts, .begin = expr_chunk_begin, .end = expr_chunk_end};
    LLVMValueRef count = kj_np_ewise_each(w, arrn, expr_step, &e, &split);

    /* the strided loop's value (the identity when the chunks ran), then the slots' */
    LLVMValueRef total = kj_entry_alloca(w, e.lt, "red.total");
    LLVMBuildStore(w->b, LLVMBuildLoad2(w->b, e.lt, e.parent, ""), total);
    kj_np_loop fold;
    s = kj_np_loop_begin(w, &fold, c64(w, KJ_POOL_MAX_THREADS));
    LLVMValueRef p = LLVMBuildLoad2(w->b, e.lt, LLVMBuildGEP2(w->b, e.parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""), "");
    LLVMBuildStore(w->b, kj_part_combine(w, at, k, LLVMBuildLoad2(w->b, e.lt, total, ""), p, e.pt), total);
    kj_np_loop_end(w, &fold);
    LLVMValueRef v = LLVMBuildLoad2(w->b, e.lt, total, "");
    if (k == KJ_PART_MIN || k == KJ_PART_MAX)
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError,
                    k == KJ_PART_MAX ? "zero-size array to reduction operation maximum which has no identity"
                                  : "zero-size array to reduction operation minimum which has no identity");
    if (!strcmp(m, "mean"))
        v = kj_fm(w, LLVMBuildFDiv(w->b, v, LLVMBuildSIToFP(w->b, count, e.lt, ""), ""));
    return v;
}

/* ---- several reductions of one array in one pass (lower_np_group.c) ---- */

bool kj_parallel_reduce_group(kj_lw *w, kj_node *at, kj_part_acc *accs, int n, LLVMValueRef data, LLVMValueRef count,
                              const kj_type *et) {
    if (!kj_parallel_wanted(w))
        return false;
    /* a float sum in NumPy's order keeps each block's sum (added in order
     * below); the other reductions keep one partial per pool slot */
    LLVMValueRef size = c64(w, KJ_NP_SUM_BLOCK);
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, count, c64(w, KJ_NP_SUM_BLOCK - 1), ""), size, "");
    LLVMTypeRef lt[KJ_PART_GROUP_MAX], parts_t[KJ_PART_GROUP_MAX];
    LLVMValueRef vals[KJ_PART_GROUP_MAX + 2] = {data, count}, inside[KJ_PART_GROUP_MAX + 2];
    bool ordered[KJ_PART_GROUP_MAX];
    for (int a = 0; a < n; a++) {
        lt[a] = kj_lltype(w, accs[a].pt);
        parts_t[a] = LLVMArrayType2(lt[a], KJ_POOL_MAX_THREADS);
        ordered[a] = accs[a].kind == KJ_PART_SUM && kj_np_sums_in_numpy_order(w, et, accs[a].pt);
        vals[a + 2] = ordered[a] ? kj_array_field(w, kj_np_alloc(w, kj_array(accs[a].pt, 1, KJ_LAYOUT_C, false), &nblocks, false), 1, 0)
                                 : kj_entry_alloca(w, parts_t[a], "group.partials");
    }
    kj_np_loop init;
    LLVMValueRef s = kj_np_loop_begin(w, &init, c64(w, KJ_POOL_MAX_THREADS));
    for (int a = 0; a < n; a++)
        if (!ordered[a])
            LLVMBuildStore(w->b, kj_part_identity(w, accs[a].kind, accs[a].pt),
                           LLVMBuildGEP2(w->b, parts_t[a], vals[a + 2], (LLVMValueRef[]){c64(w, 0), s}, 2, ""));
    kj_np_loop_end(w, &init);

    kj_par_region r;
    kj_lw *o = kj_parallel_region_begin(w, &r, "group", at->line, n + 2, vals, inside);
    kj_part_acc mine[KJ_PART_GROUP_MAX];
    for (int a = 0; a < n; a++) {
        mine[a] = accs[a];
        mine[a].acc = kj_entry_alloca(o, lt[a], "chunk.acc");
        mine[a].block_sums = ordered[a] ? inside[a + 2] : NULL;
        LLVMBuildStore(o->b, kj_part_identity(o, accs[a].kind, accs[a].pt), mine[a].acc);
    }
    LLVMValueRef first, last;
    chunk_blocks(o, r.lo, r.hi, &first, &last);
    LLVMValueRef start = LLVMBuildMul(o->b, first, size, "");
    LLVMValueRef end = LLVMBuildMul(o->b, last, size, "");
    end = LLVMBuildSelect(o->b, LLVMBuildICmp(o->b, LLVMIntSLT, end, inside[1], ""), end, inside[1], "");
    LLVMValueRef len = LLVMBuildSub(o->b, end, start, "");
    len = LLVMBuildSelect(o->b, LLVMBuildICmp(o->b, LLVMIntSGT, len, c64(o, 0), ""), len, c64(o, 0), "");
    /* the other float sums and products may reassociate in a chunk, as chunk_value's */
    kj_instance *inst = o->inst, chunk = *inst;
    chunk.opts.fastmath |= LLVMFastMathAllowReassoc;
    o->inst = &chunk;
    kj_np_group_pass(o, mine, n, LLVMBuildGEP2(o->b, kj_llmemtype(o, et), inside[0], &start, 1, ""), len, et, first);
    o->inst = inst;
    /* a slot runs its chunks one after another: no other thread writes its partials */
    for (int a = 0; a < n; a++) {
        if (ordered[a])
            continue;
        LLVMValueRef part = LLVMBuildGEP2(o->b, parts_t[a], inside[a + 2], (LLVMValueRef[]){c64(o, 0), LLVMGetParam(r.fn, 3)}, 2, "");
        LLVMValueRef v = kj_part_combine(o, at, accs[a].kind, LLVMBuildLoad2(o->b, lt[a], part, ""),
                                         LLVMBuildLoad2(o->b, lt[a], mine[a].acc, ""), accs[a].pt);
        LLVMBuildStore(o->b, v, part);
    }
    kj_parallel_region_end(w, &r, count);

    kj_np_loop fold;
    s = kj_np_loop_begin(w, &fold, c64(w, KJ_POOL_MAX_THREADS));
    for (int a = 0; a < n; a++) {
        if (ordered[a])
            continue;
        LLVMValueRef p = LLVMBuildLoad2(w->b, lt[a], LLVMBuildGEP2(w->b, parts_t[a], vals[a + 2], (LLVMValueRef[]){c64(w, 0), s}, 2, ""), "");
        LLVMBuildStore(w->b, kj_part_combine(w, at, accs[a].kind, LLVMBuildLoad2(w->b, lt[a], accs[a].acc, ""), p, accs[a].pt),
                       accs[a].acc);
    }
    kj_np_loop_end(w, &fold);
    for (int a = 0; a < n; a++) {   /* the blocks' sums in order, as NumPy adds them */
        if (!ordered[a])
            continue;
        kj_np_loop blocks;
        LLVMValueRef b = kj_np_loop_begin(w, &blocks, nblocks);
        LLVMValueRef part = LLVMBuildLoad2(w->b, lt[a], LLVMBuildGEP2(w->b, lt[a], vals[a + 2], &b, 1, ""), "");
        LLVMBuildStore(w->b, kj_fm(w, LLVMBuildFAdd(w->b, LLVMBuildLoad2(w->b, lt[a], accs[a].acc, ""), part, "")), accs[a].acc);
        kj_np_loop_end(w, &blocks);
    }
    return true;
}

/* ---- the entry of lower_np_reduce.c's whole-array reductions ---- */

LLVMValueRef kj_parallel_reduce(kj_lw *w, kj_node *at, const char *m, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *rt) {
    if (kj_parallel_wanted(w) && (!strcmp(m, "argmin") || !strcmp(m, "argmax")) &&
        (et->kind == KJ_T_INT || et->kind == KJ_T_FLOAT))
        return kj_cast(w, split_arg(w, at, m[4] == 'a', data, count, et), KJ_I64, rt);
    kj_part_kind k;
    if (!kj_parallel_wanted(w) || !part_of(m, &k) || et->kind == KJ_T_COMPLEX || rt->kind == KJ_T_COMPLEX)
        return NULL;
    if (k == KJ_PART_MIN || k == KJ_PART_MAX)   /* NumPy's words, as the serial code says them */
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError,
                    k == KJ_PART_MAX ? "zero-size array to reduction operation maximum which has no identity"
                                  : "zero-size array to reduction operation minimum which has no identity");
    const kj_type *pt = k == KJ_PART_ALL || k == KJ_PART_ANY ? kj_bool() : rt;
    bool numpy_order = k == KJ_PART_SUM && kj_np_sums_in_numpy_order(w, et, pt);
    LLVMValueRef total = numpy_order ? split_blocks(w, at, k, data, count, et, pt, NULL)
                                     : split_pass(w, at, k, data, count, et, pt, NULL);
    if (strcmp(m, "mean") && strcmp(m, "var") && strcmp(m, "std"))
        return total;
    /* NumPy's two passes: the mean, then the squared deviations from it */
    LLVMValueRef nf = LLVMBuildSIToFP(w->b, count, kj_lltype(w, rt), "");
    LLVMValueRef mean = kj_fm(w, LLVMBuildFDiv(w->b, total, nf, ""));
    if (!strcmp(m, "mean"))
        return mean;
    LLVMValueRef sqdev = kj_np_sums_in_numpy_order(w, rt, rt) ? split_blocks(w, at, KJ_PART_SQDEV, data, count, et, rt, mean)
                                                              : split_pass(w, at, KJ_PART_SQDEV, data, count, et, rt, mean);
    LLVMValueRef var = kj_fm(w, LLVMBuildFDiv(w->b, sqdev, nf, ""));
    return m[0] == 'v' ? var : kj_call_intrinsic(w, "llvm.sqrt", kj_lltype(w, rt), 1, &var);
}
