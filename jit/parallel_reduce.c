/* parallel_reduce: a whole-array reduction (np.sum, np.prod, min, max,
 * mean, var, std, all, any) in a parallel=True function, split across the
 * pool.
 *
 * The array is one contiguous line (lower_np_reduce.c copies a strided one
 * first). Each chunk [lo, hi) reduces its part with the serial code
 * (kj_np_reduce_span; for min and max kj_np_extreme_span, which skips the
 * empty check a chunk never needs) and folds the result into its pool
 * slot's partial; the parent then combines
 * the partials in slot order. var and std take NumPy's two passes, each
 * split. Integer results are exact (wrapping addition and multiplication
 * are associative); float sums differ from the serial order only by
 * rounding (chunk_value). A small line runs as one direct chunk
 * (kj_parallel_region_end), so it costs two short loops over the slots
 * more than the serial code. */
#include "jit/lower_np.h"
#include "jit/parallel.h"
#include "jit/pool.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* PART_SQDEV: the sum of squared deviations from a mean (var and std's
 * second pass). */
typedef enum { PART_SUM, PART_PROD, PART_ALL, PART_ANY, PART_MIN, PART_MAX, PART_SQDEV } part_kind;

/* What each chunk computes for method m (var and std: their first pass);
 * false when m is not split. */
static bool part_of(const char *m, part_kind *k) {
    static const struct {
        const char *m;
        part_kind k;
    } table[] = {{"sum", PART_SUM},  {"mean", PART_SUM}, {"prod", PART_PROD}, {"all", PART_ALL},
                 {"any", PART_ANY},  {"min", PART_MIN},  {"amin", PART_MIN},  {"max", PART_MAX},
                 {"amax", PART_MAX}, {"var", PART_SUM},  {"std", PART_SUM}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].m, m)) {
            *k = table[i].k;
            return true;
        }
    return false;
}

/* The serial reduction a chunk of PART_SUM .. PART_ANY runs. */
static const char *const chunk_method[] = {"sum", "prod", "all", "any"};

/* Two partial results as one, with NumPy's rules (a NaN wins min and max). */
static LLVMValueRef combine(kj_lw *w, kj_node *at, part_kind k, LLVMValueRef a, LLVMValueRef b,
                            const kj_type *pt) {
    static const char *const ufunc[] = {"add", "multiply", NULL, NULL, "minimum", "maximum", "add"};
    if (k == PART_ALL)
        return LLVMBuildAnd(w->b, a, b, "");
    if (k == PART_ANY)
        return LLVMBuildOr(w->b, a, b, "");
    return kj_np_elem_op(w, at, ufunc[k], 2, (LLVMValueRef[]){a, b}, (const kj_type *[]){pt, pt}, pt);
}

/* The value every partial starts from: the operation's identity, or for
 * min and max the line's first element (a candidate anyway). */
static LLVMValueRef start_value(kj_lw *w, part_kind k, LLVMValueRef data, const kj_type *et, const kj_type *pt) {
    if (k == PART_ALL || k == PART_ANY)
        return LLVMConstInt(w->i1, k == PART_ALL, 0);
    if (k == PART_MIN || k == PART_MAX)
        return kj_cast(w, kj_np_load(w, data, et), et, pt);
    return kj_cast(w, c64(w, k == PART_PROD), KJ_I64, pt);
}

/* The sum of (x - mean)**2 over count contiguous elements, in pt (a float). */
static LLVMValueRef squared_deviations(kj_lw *w, LLVMValueRef data, LLVMValueRef count, const kj_type *et,
                                       const kj_type *pt, LLVMValueRef mean) {
    LLVMTypeRef lt = kj_lltype(w, pt);
    LLVMValueRef acc = kj_entry_alloca(w, lt, "sqdev");
    LLVMBuildStore(w->b, LLVMConstNull(lt), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, count);
    LLVMValueRef x = kj_cast(w, kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, et), data, &i, 1, ""), et), et, pt);
    LLVMValueRef d = kj_fm(w, LLVMBuildFSub(w->b, x, mean, ""));
    LLVMValueRef sum = kj_fm(w, LLVMBuildFAdd(w->b, LLVMBuildLoad2(w->b, lt, acc, ""), kj_fm(w, LLVMBuildFMul(w->b, d, d, "")), ""));
    LLVMBuildStore(w->b, sum, acc);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

/* The reduction of one chunk of count elements from data. */
static LLVMValueRef chunk_value(kj_lw *o, part_kind k, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *pt, LLVMValueRef mean) {
    if (k == PART_MIN || k == PART_MAX)
        return kj_np_extreme_span(o, k == PART_MAX, data, count, et, pt);
    /* a float sum or product may reassociate, so that LLVM keeps several
     * partials in vector lanes (as NumPy's pairwise sum does): the split
     * result already differs from the serial order by rounding */
    kj_instance *inst = o->inst, chunk = *inst;
    chunk.opts.fastmath |= LLVMFastMathAllowReassoc;
    o->inst = &chunk;
    LLVMValueRef v = k == PART_SQDEV ? squared_deviations(o, data, count, et, pt, mean)
                                     : kj_np_reduce_span(o, chunk_method[k], data, kj_np_itemsize(o, et), count,
                                                         et, pt);
    o->inst = inst;
    return v;
}

/* One pass over the line on the pool: the partials of k combined, in pt.
 * mean: PART_SQDEV's, else NULL. */
static LLVMValueRef split_pass(kj_lw *w, kj_node *at, part_kind k, LLVMValueRef data, LLVMValueRef count,
                               const kj_type *et, const kj_type *pt, LLVMValueRef mean) {
    bool truth = k == PART_ALL || k == PART_ANY;
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
    LLVMBuildStore(o->b, combine(o, at, k, LLVMBuildLoad2(o->b, lt, part, ""), mine, pt), part);
    kj_parallel_region_end(w, &r, count);

    LLVMValueRef acc = kj_entry_alloca(w, lt, "red.total");
    LLVMBuildStore(w->b, start, acc);
    kj_np_loop fold;
    s = kj_np_loop_begin(w, &fold, c64(w, KJ_POOL_MAX_THREADS));
    LLVMValueRef p = LLVMBuildLoad2(w->b, lt, LLVMBuildGEP2(w->b, parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""), "");
    LLVMBuildStore(w->b, combine(w, at, k, LLVMBuildLoad2(w->b, lt, acc, ""), p, pt), acc);
    kj_np_loop_end(w, &fold);
    return LLVMBuildLoad2(w->b, lt, acc, "");
}

LLVMValueRef kj_parallel_reduce(kj_lw *w, kj_node *at, const char *m, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *rt) {
    part_kind k;
    if (!kj_parallel_wanted(w) || !part_of(m, &k) || et->kind == KJ_T_COMPLEX || rt->kind == KJ_T_COMPLEX)
        return NULL;
    if (k == PART_MIN || k == PART_MAX)   /* NumPy's words, as the serial code says them */
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, count, c64(w, 0), ""), PyExc_ValueError,
                    k == PART_MAX ? "zero-size array to reduction operation maximum which has no identity"
                                  : "zero-size array to reduction operation minimum which has no identity");
    const kj_type *pt = k == PART_ALL || k == PART_ANY ? kj_bool() : rt;
    LLVMValueRef total = split_pass(w, at, k, data, count, et, pt, NULL);
    if (strcmp(m, "mean") && strcmp(m, "var") && strcmp(m, "std"))
        return total;
    /* NumPy's two passes: the mean, then the squared deviations from it */
    LLVMValueRef nf = LLVMBuildSIToFP(w->b, count, kj_lltype(w, rt), "");
    LLVMValueRef mean = kj_fm(w, LLVMBuildFDiv(w->b, total, nf, ""));
    if (!strcmp(m, "mean"))
        return mean;
    LLVMValueRef var = kj_fm(w, LLVMBuildFDiv(w->b, split_pass(w, at, PART_SQDEV, data, count, et, rt, mean), nf, ""));
    return m[0] == 'v' ? var : kj_call_intrinsic(w, "llvm.sqrt", kj_lltype(w, rt), 1, &var);
}
