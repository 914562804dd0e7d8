/* parallel_reduce: a whole-array reduction (np.sum, np.prod, min, max,
 * mean, all, any) in a parallel=True function, split across the pool.
 *
 * The array is one contiguous line (lower_np_reduce.c copies a strided one
 * first). Each chunk [lo, hi) reduces its part with the serial code
 * (kj_np_reduce_span) and folds the result into its pool slot's partial;
 * the parent then combines the partials in slot order. Integer results are
 * exact (wrapping addition and multiplication are associative); float sums
 * differ from the serial order only by rounding. A small line runs as one
 * direct chunk (kj_parallel_region_end), so it costs two short loops over
 * the slots more than the serial code. */
#include "jit/lower_np.h"
#include "jit/parallel.h"
#include "jit/pool.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

typedef enum { PART_SUM, PART_PROD, PART_ALL, PART_ANY, PART_MIN, PART_MAX } part_kind;

/* What each chunk computes for method m; false when m is not split. */
static bool part_of(const char *m, part_kind *k) {
    static const struct {
        const char *m;
        part_kind k;
    } table[] = {{"sum", PART_SUM},  {"mean", PART_SUM}, {"prod", PART_PROD}, {"all", PART_ALL},
                 {"any", PART_ANY},  {"min", PART_MIN},  {"amin", PART_MIN},  {"max", PART_MAX},
                 {"amax", PART_MAX}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].m, m)) {
            *k = table[i].k;
            return true;
        }
    return false;
}

static const char *const chunk_method[] = {"sum", "prod", "all", "any", "min", "max"};

/* Two partial results as one, with NumPy's rules (a NaN wins min and max). */
static LLVMValueRef combine(kj_lw *w, kj_node *at, part_kind k, LLVMValueRef a, LLVMValueRef b,
                            const kj_type *pt) {
    static const char *const ufunc[] = {"add", "multiply", NULL, NULL, "minimum", "maximum"};
    if (k == PART_ALL)
        return LLVMBuildAnd(w->b, a, b, "");
    if (k == PART_ANY)
        return LLVMBuildOr(w->b, a, b, "");
    return kj_np_elem_op(w, at, ufunc[k], 2, (LLVMValueRef[]){a, b}, (const kj_type *[]){pt, pt}, pt);
}

/* The value every partial starts from: the operation's identity, or for
 * min and max the line's first element (a candidate anyway; an empty line
 * raises in its chunk, as serially). */
static LLVMValueRef start_value(kj_lw *w, part_kind k, LLVMValueRef data, LLVMValueRef count,
                                const kj_type *et, const kj_type *pt, LLVMTypeRef lt) {
    if (k == PART_ALL || k == PART_ANY)
        return LLVMConstInt(w->i1, k == PART_ALL, 0);
    if (k == PART_SUM || k == PART_PROD)
        return kj_cast(w, c64(w, k == PART_PROD), KJ_I64, pt);
    LLVMValueRef first = kj_entry_alloca(w, lt, "red.first");
    LLVMBuildStore(w->b, LLVMConstNull(lt), first);
    LLVMBasicBlockRef load = kj_new_bb(w, "red.load"), join = kj_new_bb(w, "red.start");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, count, c64(w, 0), ""), load, join);
    LLVMPositionBuilderAtEnd(w->b, load);
    LLVMBuildStore(w->b, kj_cast(w, kj_np_load(w, data, et), et, pt), first);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    return LLVMBuildLoad2(w->b, lt, first, "");
}

LLVMValueRef kj_parallel_reduce(kj_lw *w, kj_node *at, const char *m, LLVMValueRef data, LLVMValueRef stride,
                                LLVMValueRef count, const kj_type *et, const kj_type *rt) {
    part_kind k;
    if (!kj_parallel_wanted(w) || !part_of(m, &k) || et->kind == KJ_T_COMPLEX || rt->kind == KJ_T_COMPLEX)
        return NULL;
    bool truth = k == PART_ALL || k == PART_ANY;
    const kj_type *pt = truth ? kj_bool() : rt;
    LLVMTypeRef lt = truth ? w->i1 : kj_lltype(w, pt), parts_t = LLVMArrayType2(lt, KJ_POOL_MAX_THREADS);
    LLVMValueRef parts = kj_entry_alloca(w, parts_t, "red.partials");
    LLVMValueRef start = start_value(w, k, data, count, et, pt, lt);
    kj_np_loop init;
    LLVMValueRef s = kj_np_loop_begin(w, &init, c64(w, KJ_POOL_MAX_THREADS));
    LLVMBuildStore(w->b, start, LLVMBuildGEP2(w->b, parts_t, parts, (LLVMValueRef[]){c64(w, 0), s}, 2, ""));
    kj_np_loop_end(w, &init);

    kj_par_region r;
    LLVMValueRef inside[3];
    kj_lw *o = kj_parallel_region_begin(w, &r, "red", at->line, 3, (LLVMValueRef[]){data, stride, parts}, inside);
    LLVMValueRef off = LLVMBuildMul(o->b, r.lo, inside[1], "");
    LLVMValueRef mine = kj_np_reduce_span(o, chunk_method[k], LLVMBuildGEP2(o->b, o->i8, inside[0], &off, 1, ""),
                                          inside[1], LLVMBuildSub(o->b, r.hi, r.lo, ""), et, pt);
    /* a slot runs its chunks one after another: no other thread writes its partial */
    LLVMValueRef part = LLVMBuildGEP2(o->b, parts_t, inside[2],
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
    LLVMValueRef total = LLVMBuildLoad2(w->b, lt, acc, "");
    if (!strcmp(m, "mean"))
        return kj_fm(w, LLVMBuildFDiv(w->b, total, LLVMBuildSIToFP(w->b, count, lt, ""), ""));
    return total;
}
