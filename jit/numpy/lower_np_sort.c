/* lower_np_sort: np.sort, a.sort(), argsort, partition and argpartition
 * (sorted: each side of kth in order, which a partition allows, NumPy
 * leaving their order unspecified), unique, searchsorted, digitize, isin,
 * histogram, median, percentile and quantile (nanpercentile, nanquantile): the data is made contiguous (a copy where NumPy returns a
 * new array anyway) and handed to rt_sort.c. */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"
#include "jit/runtime/rt_sort.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef kind_of(kj_lw *w, const kj_type *e) {
    return c64(w, e->kind == KJ_T_FLOAT ? 'f' : e->kind == KJ_T_INT && e->is_signed ? 'i' : 'u');
}

static LLVMValueRef data_of(kj_lw *w, LLVMValueRef a) { return kj_array_field(w, a, 1, 0); }

/* A contiguous 1-d copy of a (any shape, C order). */
static LLVMValueRef flat_copy(kj_lw *w, LLVMValueRef a, const kj_type *at, const kj_type *et) {
    LLVMValueRef c = kj_np_copy(w, a, at, et);
    LLVMValueRef size = kj_np_size(w, a, at->ndim);
    return kj_np_make(w, kj_array(et, 1, KJ_LAYOUT_C, false), kj_array_field(w, c, 0, 0), data_of(w, c), &size, NULL);
}

static void sort_data(kj_lw *w, LLVMValueRef data, LLVMValueRef n, const kj_type *e) {
    kj_call(w, "kj_np_sort", w->vd, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64},
            (LLVMValueRef[]){data, n, kind_of(w, e), kj_np_itemsize(w, e)});
}

static LLVMValueRef histogram(kj_lw *w, kj_node *n, const kj_np_args *a) {
    kj_node *xn = kj_np_arg(a, 0, "a"), *bn = kj_np_arg(a, 1, "bins"), *rn = kj_np_arg(a, 2, "range");
    LLVMValueRef x = flat_copy(w, kj_lower_expr(w, xn), xn->type, KJ_F64);
    LLVMValueRef bins = bn ? kj_np_value(w, bn, KJ_I64) : c64(w, 10);
    LLVMValueRef lo = LLVMConstReal(w->f64, 0), hi = LLVMConstReal(w->f64, 0);
    if (rn) {
        LLVMValueRef r = kj_lower_expr(w, rn);
        lo = kj_cast(w, LLVMBuildExtractValue(w->b, r, 0, ""), rn->type->elems[0], KJ_F64);
        hi = kj_cast(w, LLVMBuildExtractValue(w->b, r, 1, ""), rn->type->elems[1], KJ_F64);
    }
    /* allocate at least one bin so a refused count still has memory */
    LLVMValueRef nb = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, bins, c64(w, 0), ""), bins, c64(w, 1), "");
    LLVMValueRef ne = LLVMBuildAdd(w->b, nb, c64(w, 1), "");
    const kj_type *ct = n->type->elems[0], *et = n->type->elems[1];
    LLVMValueRef counts = kj_np_alloc(w, ct, &nb, false), edges = kj_np_alloc(w, et, &ne, false);
    LLVMValueRef bad_lo = kj_entry_alloca(w, w->f64, "lo"), bad_hi = kj_entry_alloca(w, w->f64, "hi");
    LLVMValueRef st = kj_call(w, "kj_np_histogram", w->i32, 10,
                              (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->f64, w->f64, w->ptr, w->ptr, w->ptr, w->ptr},
                              (LLVMValueRef[]){data_of(w, x), kj_array_len(w, x), bins, c64(w, rn != NULL), lo, hi,
                                               data_of(w, counts), data_of(w, edges), bad_lo, bad_hi});
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, st, LLVMConstInt(w->i32, 0, 0), ""));
    kj_call(w, "kj_np_raise_histogram", w->vd, 3, (LLVMTypeRef[]){w->i32, w->f64, w->f64},
            (LLVMValueRef[]){st, LLVMBuildLoad2(w->b, w->f64, bad_lo, ""), LLVMBuildLoad2(w->b, w->f64, bad_hi, "")});
    kj_raise_end(w, ok);
    return kj_np_tuple(w, n->type, 2, (LLVMValueRef[]){counts, edges});
}

/* The insertion points of vn's values (a number or an array) in the
 * sorted 1-d arr (type at): np.searchsorted(arr, v, side), right for
 * side='right'. With decreasing (an i1, or NULL) arr is searched from its
 * end and a point p becomes len - p, as np.digitize does with bins that
 * decrease. */
static LLVMValueRef search(kj_lw *w, kj_node *n, LLVMValueRef arr, const kj_type *at, kj_node *vn, bool right,
                           LLVMValueRef decreasing) {
    const kj_type *e = at->elem, *vt = vn->type;
    LLVMValueRef v = kj_lower_expr(w, vn);
    /* both sides compared in NumPy's common type (3.5 in an int array) */
    const kj_type *ops[2] = {at, vt};
    kj_node *consts[2] = {NULL, vn->kind == KJ_E_CONST ? vn : NULL};
    char why[200];
    const kj_type *ct = kj_np_result_dtype_c("add", 2, ops, consts, why, sizeof why);
    if (ct && ct != e && ct->kind != KJ_T_COMPLEX) {
        arr = flat_copy(w, arr, at, ct);
        e = ct;
    }
    LLVMValueRef len = kj_array_len(w, arr), data = data_of(w, arr), stride = kj_array_field(w, arr, 3, 0);
    if (decreasing) {   /* arr[::-1]: from the last element, stepping back */
        LLVMValueRef last = LLVMBuildMul(w->b, LLVMBuildSub(w->b, len, c64(w, 1), ""), stride, "");
        data = LLVMBuildSelect(w->b, decreasing, LLVMBuildGEP2(w->b, w->i8, data, &last, 1, ""), data, "");
        stride = LLVMBuildSelect(w->b, decreasing, LLVMBuildNeg(w->b, stride, ""), stride, "");
    }
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, e), "needle");
    LLVMValueRef args[7] = {data, len, stride, kind_of(w, e), kj_np_itemsize(w, e), slot, c64(w, right)};
    LLVMTypeRef tys[7] = {w->ptr, w->i64, w->i64, w->i64, w->i64, w->ptr, w->i64};
    if (vt->kind != KJ_T_ARRAY) {
        kj_np_store_elem(w, slot, v, vt, e);
        LLVMValueRef r = kj_call(w, "kj_np_searchsorted", w->i64, 7, tys, args);
        return decreasing ? LLVMBuildSelect(w->b, decreasing, LLVMBuildSub(w->b, len, r, ""), r, "") : r;
    }
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, v, vt->ndim, shape);
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, vt->ndim, shape, idx);
    kj_np_store_elem(w, slot, kj_np_load(w, kj_np_ptr(w, v, vt->ndim, idx), vt->elem), vt->elem, e);
    LLVMValueRef r = kj_call(w, "kj_np_searchsorted", w->i64, 7, tys, args);
    if (decreasing)
        r = LLVMBuildSelect(w->b, decreasing, LLVMBuildSub(w->b, len, r, ""), r, "");
    kj_np_store_elem(w, kj_np_ptr(w, out, vt->ndim, idx), r, KJ_I64, KJ_I64);
    kj_np_nest_end(w, &nest);
    return out;
}

/* np.searchsorted(a, v, side='left'): side a constant (typing saw to it). */
static LLVMValueRef searchsorted(kj_lw *w, kj_node *n, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a"), *side = kj_np_arg(a, 2, "side");
    return search(w, n, kj_lower_expr(w, an), an->type, kj_np_arg(a, 1, "v"), side && !strcmp(side->str, "right"), NULL);
}

/* np.digitize(x, bins, right=False): the bins' side of each x, through
 * searchsorted as NumPy's (the sides swapped), from the end for bins that
 * decrease; ValueError for bins that do neither. */
static LLVMValueRef digitize(kj_lw *w, kj_node *n, const kj_np_args *a) {
    kj_node *bn = kj_np_arg(a, 1, "bins"), *rn = kj_np_arg(a, 2, "right");
    LLVMValueRef bins = kj_lower_expr(w, bn);
    LLVMValueRef edges = flat_copy(w, bins, bn->type, KJ_F64);   /* NumPy tests them as doubles */
    LLVMValueRef mono = kj_call(w, "kj_np_monotonic", w->i64, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                (LLVMValueRef[]){data_of(w, edges), kj_array_len(w, edges)});
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, mono, c64(w, 0), ""), PyExc_ValueError,
                "bins must be monotonically increasing or decreasing");
    bool right = rn && rn->ival != 0;
    return search(w, n, bins, bn->type, kj_np_arg(a, 0, "x"), !right, LLVMBuildICmp(w->b, LLVMIntEQ, mono, c64(w, -1), ""));
}

/* The number of values before the first NaN of len sorted doubles (NaNs
 * sort last). */
static LLVMValueRef numbers_in(kj_lw *w, LLVMValueRef data, LLVMValueRef len) {
    LLVMValueRef count = kj_entry_alloca(w, w->i64, "numbers");
    LLVMBuildStore(w->b, c64(w, 0), count);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef x = LLVMBuildLoad2(w->b, w->f64, LLVMBuildGEP2(w->b, w->f64, data, &i, 1, ""), "");
    LLVMValueRef number = LLVMBuildZExt(w->b, LLVMBuildFCmp(w->b, LLVMRealORD, x, x, ""), w->i64, "");
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, LLVMBuildLoad2(w->b, w->i64, count, ""), number, ""), count);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, w->i64, count, "");
}

/* np.median(a), np.percentile(a, q), np.quantile(a, q): over a sorted
 * float64 copy of the whole array, in rt_sort.c. np.nanpercentile and
 * np.nanquantile: over its numbers only, NaN when there is none. */
static LLVMValueRef order_statistic(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a");
    bool skip_nan = !strncmp(m, "nan", 3);
    m += skip_nan ? 3 : 0;
    LLVMValueRef c = flat_copy(w, kj_lower_expr(w, an), an->type, KJ_F64), len = kj_array_len(w, c);
    sort_data(w, data_of(w, c), len, KJ_F64);
    if (skip_nan)
        len = numbers_in(w, data_of(w, c), len);
    LLVMValueRef empty = LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), "");
    LLVMValueRef q = NULL;
    if (m[0] != 'm') {
        bool percent = m[0] == 'p';
        q = kj_np_value(w, kj_np_arg(a, 1, "q"), KJ_F64);
        if (percent)
            q = LLVMBuildFDiv(w->b, q, LLVMConstReal(w->f64, 100.0), "");
        LLVMValueRef inside = LLVMBuildAnd(w->b, LLVMBuildFCmp(w->b, LLVMRealOGE, q, LLVMConstReal(w->f64, 0), ""),
                                           LLVMBuildFCmp(w->b, LLVMRealOLE, q, LLVMConstReal(w->f64, 1), ""), "");
        kj_raise_if(w, LLVMBuildNot(w->b, inside, ""), PyExc_ValueError,
                    percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
        if (!skip_nan)
            kj_raise_if(w, empty, PyExc_IndexError, "cannot do a non-empty take from an empty axes.");
    }
    /* of nothing: NaN, as NumPy's median (the mean of no values) and nanpercentile give */
    LLVMBasicBlockRef some = kj_new_bb(w, "order.some"), done = kj_new_bb(w, "order.done");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBuildCondBr(w->b, empty, done, some);
    LLVMPositionBuilderAtEnd(w->b, some);
    LLVMValueRef v = q ? kj_call(w, "kj_np_quantile", w->f64, 3, (LLVMTypeRef[]){w->ptr, w->i64, w->f64},
                                 (LLVMValueRef[]){data_of(w, c), len, q})
                       : kj_call(w, "kj_np_median", w->f64, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                 (LLVMValueRef[]){data_of(w, c), len});
    LLVMBasicBlockRef some_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMValueRef r = LLVMBuildPhi(w->b, w->f64, "order");
    LLVMAddIncoming(r, (LLVMValueRef[]){LLVMConstReal(w->f64, __builtin_nan("")), v}, (LLVMBasicBlockRef[]){from, some_end}, 2);
    return kj_cast(w, r, KJ_F64, n->type);
}

/* np.isin(element, test_elements, invert=False) and np.in1d (the same,
 * flat): the test elements sorted (in the common type of both), then each
 * element looked up by binary search; NaN is in nothing, as NumPy's. */
static LLVMValueRef isin(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    bool flat = m[1] == 'n';
    kj_node *en = kj_np_arg(a, 0, flat ? "ar1" : "element"), *tn = kj_np_arg(a, 1, flat ? "ar2" : "test_elements");
    kj_node *inv = kj_np_arg(a, 3, "invert");
    const kj_type *et = en->type, *tt = tn->type;
    const kj_type *ops[2] = {et, tt};
    char why[200];
    const kj_type *ct = kj_np_result_dtype("add", 2, ops, why, sizeof why);   /* typing saw it exists */
    LLVMValueRef elems = kj_lower_expr(w, en), tests = flat_copy(w, kj_lower_expr(w, tn), tt, ct);
    LLVMValueRef count = kj_array_len(w, tests);
    sort_data(w, data_of(w, tests), count, ct);
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, ct), "needle");
    LLVMValueRef args[7] = {data_of(w, tests), count, kj_np_itemsize(w, ct), kind_of(w, ct), kj_np_itemsize(w, ct), slot, c64(w, 0)};
    LLVMTypeRef tys[7] = {w->ptr, w->i64, w->i64, w->i64, w->i64, w->ptr, w->i64};
    LLVMValueRef invert = inv ? kj_truth(w, kj_lower_expr(w, inv), inv->type) : LLVMConstInt(w->i1, 0, 0);
    int nd = et->ndim;
    if (flat) {   /* in1d: the elements in C order, as one line */
        LLVMValueRef size = kj_np_size(w, elems, nd);
        elems = kj_np_make(w, kj_array(et->elem, 1, KJ_LAYOUT_C, true), kj_array_field(w, elems, 0, 0),
                           kj_np_whole_line(w, elems, et), &size, NULL);
        nd = 1;
    }
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, elems, nd, shape);
    LLVMValueRef out = kj_np_alloc(w, n->type, shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef x = kj_cast(w, kj_np_load(w, kj_np_ptr(w, elems, nd, idx), et->elem), et->elem, ct);
    kj_np_store_elem(w, slot, x, ct, ct);
    LLVMValueRef at = kj_call(w, "kj_np_searchsorted", w->i64, 7, tys, args);
    LLVMValueRef inside = LLVMBuildICmp(w->b, LLVMIntSLT, at, count, "");
    /* outside the tests (none at all, when they are empty) the needle is compared with itself */
    LLVMValueRef there = kj_np_load(w, LLVMBuildSelect(w->b, inside, kj_np_ptr(w, tests, 1, &at), slot, ""), ct);
    LLVMValueRef equal = kj_np_elem_op(w, n, "equal", 2, (LLVMValueRef[]){there, x}, (const kj_type *[]){ct, ct}, kj_bool());
    LLVMValueRef found = LLVMBuildXor(w->b, LLVMBuildAnd(w->b, inside, equal, ""), invert, "");
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, idx), found, kj_bool(), kj_bool());
    kj_np_nest_end(w, &nest);
    return out;
}

/* np.unique(a, return_index, return_inverse, return_counts) with one of
 * them asked for (constants): a tuple of the distinct values and what was
 * asked, in NumPy's order; c is the flat copy of a, len its length. */
static LLVMValueRef unique_with(kj_lw *w, kj_node *n, const kj_np_args *a, LLVMValueRef c, LLVMValueRef len, const kj_type *e) {
    static const char *const flags[] = {"return_index", "return_inverse", "return_counts"};
    const kj_type *it = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    LLVMValueRef extra[3] = {NULL, NULL, NULL}, ptrs[3];
    for (int i = 0; i < 3; i++) {
        kj_node *f = kj_np_arg(a, i + 1, flags[i]);
        extra[i] = f && f->ival ? kj_np_alloc(w, it, &len, false) : NULL;
        ptrs[i] = extra[i] ? data_of(w, extra[i]) : LLVMConstNull(w->ptr);
    }
    LLVMValueRef count = kj_call(w, "kj_np_unique_with", w->i64, 7,
                                 (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->ptr, w->ptr, w->ptr},
                                 (LLVMValueRef[]){data_of(w, c), len, kind_of(w, e), kj_np_itemsize(w, e), ptrs[0], ptrs[1], ptrs[2]});
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, count, c64(w, 0), ""), PyExc_MemoryError, NULL);
    LLVMValueRef items[4];
    int k = 0;
    items[k++] = kj_np_make(w, n->type->elems[0], kj_array_field(w, c, 0, 0), data_of(w, c), &count, NULL);
    for (int i = 0; i < 3; i++)   /* index and counts: one per distinct value; inverse: one per element */
        if (extra[i])
            items[k++] = i == 1 ? extra[i] : kj_np_make(w, it, kj_array_field(w, extra[i], 0, 0), data_of(w, extra[i]), &count, NULL);
    return kj_np_tuple(w, n->type, k, items);
}

/* NumPy's ValueError for a kth of np.partition (node k) outside the last
 * axis of arr (type at), negative ones counted from the end; an empty
 * array takes any. */
static void check_kth(kj_lw *w, kj_node *k, LLVMValueRef arr, const kj_type *at) {
    LLVMValueRef len = kj_array_field(w, arr, 2, at->ndim - 1), empty = LLVMBuildICmp(w->b, LLVMIntEQ, kj_np_size(w, arr, at->ndim), c64(w, 0), "");
    const kj_type *kt = k->type;
    LLVMValueRef kv = kj_lower_expr(w, k);
    int count = kt->kind == KJ_T_TUPLE ? kt->n : 1;
    kj_np_loop l;
    LLVMValueRef i = kt->kind == KJ_T_ARRAY ? kj_np_loop_begin(w, &l, kj_array_len(w, kv)) : NULL;
    for (int j = 0; j < count; j++) {
        LLVMValueRef v = kt->kind == KJ_T_ARRAY ? kj_cast(w, kj_array_item(w, kv, kt, i), kt->elem, KJ_I64)
                         : kt->kind == KJ_T_TUPLE ? kj_cast(w, LLVMBuildExtractValue(w->b, kv, (unsigned)j, ""), kt->elems[j], KJ_I64)
                                                  : kj_cast(w, kv, kt, KJ_I64);
        v = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, v, c64(w, 0), ""), LLVMBuildAdd(w->b, v, len, ""), v, "");
        LLVMValueRef out = LLVMBuildOr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, v, c64(w, 0), ""), LLVMBuildICmp(w->b, LLVMIntSGE, v, len, ""), "");
        kj_np_raise_i64x2_if(w, LLVMBuildAnd(w->b, out, LLVMBuildNot(w->b, empty, ""), ""), PyExc_ValueError,
                             "kth(=%lld) out of bounds (%lld)", v, len);
    }
    if (i)
        kj_np_loop_end(w, &l);
}

LLVMValueRef kj_np_lower_sorting(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    if (!strcmp(m, "histogram"))
        return histogram(w, n, a);
    if (!strcmp(m, "median") || !strcmp(m, "percentile") || !strcmp(m, "quantile") || !strcmp(m, "nanpercentile") ||
        !strcmp(m, "nanquantile"))
        return order_statistic(w, n, m, a);
    if (!strcmp(m, "searchsorted"))
        return searchsorted(w, n, a);
    if (!strcmp(m, "digitize"))
        return digitize(w, n, a);
    if (!strcmp(m, "isin") || !strcmp(m, "in1d"))
        return isin(w, n, m, a);
    kj_node *an = kj_np_arg(a, 0, "a");
    const kj_type *at = an->type, *e = at->elem;
    if (e->kind == KJ_T_COMPLEX) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, NULL, "sorting complex arrays is not supported yet");
        return LLVMGetUndef(kj_lltype(w, n->type));
    }
    LLVMValueRef arr = kj_lower_expr(w, an);
    if (!strcmp(m, "partition") || !strcmp(m, "argpartition")) {
        check_kth(w, a->pos[1], arr, at);
        m = m[0] == 'a' ? "argsort" : "sort";
    }
    if (strcmp(m, "unique") != 0) {
        /* sort, argsort, a.sort(): each row along the last axis of a C copy */
        const kj_type *copy_t = kj_array(e, at->ndim, KJ_LAYOUT_C, false);
        LLVMValueRef c = kj_np_copy(w, arr, at, e), size = kj_np_size(w, c, at->ndim);
        LLVMValueRef len = kj_array_field(w, c, 2, at->ndim - 1), isz = kj_np_itemsize(w, e);
        LLVMValueRef rows = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), ""), c64(w, 0),
                                            LLVMBuildSDiv(w->b, size, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), ""), c64(w, 1), len, ""), ""), "rows");
        LLVMValueRef out = NULL;
        if (!strcmp(m, "argsort")) {
            LLVMValueRef shape[KJ_NP_MAXDIM];
            kj_np_shape(w, c, at->ndim, shape);
            out = kj_np_alloc(w, n->type, shape, false);
        }
        kj_np_loop l;
        LLVMValueRef r = kj_np_loop_begin(w, &l, rows);
        LLVMValueRef first = LLVMBuildMul(w->b, r, len, "");
        LLVMValueRef off = LLVMBuildMul(w->b, first, isz, "");
        LLVMValueRef row = LLVMBuildGEP2(w->b, w->i8, data_of(w, c), &off, 1, "");
        if (out) {
            LLVMValueRef dst = LLVMBuildGEP2(w->b, w->i64, data_of(w, out), &first, 1, "");
            LLVMValueRef st = kj_call(w, "kj_np_argsort", w->i32, 5, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->ptr},
                                      (LLVMValueRef[]){row, len, kind_of(w, e), isz, dst});
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntNE, st, LLVMConstInt(w->i32, 0, 0), ""), PyExc_MemoryError, NULL);
        } else {
            sort_data(w, row, len, e);
        }
        kj_np_loop_end(w, &l);
        if (out)
            return out;
        if (n->type->kind == KJ_T_ARRAY && n->type->layout == KJ_LAYOUT_F) {   /* np.sort: a Fortran-ordered result */
            LLVMValueRef shape[KJ_NP_MAXDIM];
            kj_np_shape(w, c, at->ndim, shape);
            LLVMValueRef f = kj_np_alloc(w, n->type, shape, false);
            kj_np_copy_into(w, f, n->type, c, copy_t);
            return f;
        }
        if (!strcmp(m, "sort"))
            return c;
        kj_np_copy_into(w, arr, at, c, copy_t);   /* a.sort() */
        return LLVMConstInt(w->i8, 0, 0);
    }
    LLVMValueRef c = flat_copy(w, arr, at, e), len = kj_array_len(w, c);
    /* unique: sorted distinct values, a view of the front of the copy */
    if (n->type->kind != KJ_T_TUPLE) {
        LLVMValueRef m_ = kj_call(w, "kj_np_unique", w->i64, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64},
                                  (LLVMValueRef[]){data_of(w, c), len, kind_of(w, e), kj_np_itemsize(w, e)});
        return kj_np_make(w, n->type, kj_array_field(w, c, 0, 0), data_of(w, c), &m_, NULL);
    }
    return unique_with(w, n, a, c, len, e);
}
