/* np_sort: NumPy's sorting, searching and counting functions in compiled
 * code: np.sort, a.sort(), argsort, partition and argpartition (sorted:
 * each side of kth in order, which a partition allows, NumPy leaving their
 * order unspecified), unique (with its return_* flags), median, percentile
 * and quantile (and nanpercentile, nanquantile), searchsorted, digitize,
 * isin and in1d, and histogram (bincount and interp: np_bins.c). The data
 * is made contiguous (a copy where NumPy returns a new array anyway) and
 * handed to rt_sort.c. */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"
#include "jit/runtime/rt_sort.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* ---- types ---- */

/* The arguments after the array of sort / argsort (np.sort(a, axis, kind)
 * from `first` on, a.sort(axis, kind)) ask for what Kiln does: the last
 * axis (-1, or its number) and any of NumPy's kinds, since Kiln's sort and
 * argsort are stable, which every kind allows. NULL, or why not. */
const char *kj_np_sort_args_refused(const kj_np_args *a, int first, int ndim) {
    static const char *const known[] = {"axis", "kind", NULL};
    if (a->npos > first + 2 || !kj_np_only_keywords(a, known))
        return "takes the array, axis and kind here";
    const kj_node *axis = kj_np_arg(a, first, "axis"), *kind = kj_np_arg(a, first + 1, "kind");
    if (axis && !(axis->kind == KJ_E_CONST && axis->type && kj_is_intlike(axis->type) &&
                  (axis->ival == -1 || axis->ival == ndim - 1)))
        return "sorts along the last axis only (axis=-1)";
    if (kind && !(kind->kind == KJ_E_CONST && kind->type && kind->type->kind == KJ_T_STR &&
                  (!strcmp(kind->str, "quicksort") || !strcmp(kind->str, "mergesort") ||
                   !strcmp(kind->str, "heapsort") || !strcmp(kind->str, "stable"))))
        return "takes kind='quicksort', 'mergesort', 'heapsort' or 'stable' (a constant)";
    return NULL;
}

/* np.unique(a, return_index, return_inverse, return_counts, axis=None,
 * equal_nan=True) with options: the flags constants, a tuple of the
 * values and the int64 arrays asked for (the values alone when none is). */
static const kj_type *unique_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a) {
    static const char *const known[] = {"ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "ar")), *items[4];
    if (!x)
        return NULL;
    bool ok = x->kind == KJ_T_ARRAY && x->elem->kind != KJ_T_COMPLEX && a->npos <= 6 && kj_np_only_keywords(a, known);
    int k = 1;
    items[0] = ok ? kj_array(x->elem, 1, KJ_LAYOUT_C, false) : NULL;
    for (int i = 1; ok && i <= 5; i++) {
        kj_node *f = kj_np_arg(a, i, known[i]);
        bool is_const = f && f->kind == KJ_E_CONST && f->type;
        if (i == 4)   /* axis: None only */
            ok = !f || (is_const && f->type->kind == KJ_T_NONE);
        else if (f)
            ok = is_const && f->type->kind == KJ_T_BOOL && (i != 5 || f->ival);
        if (ok && i <= 3 && f && f->ival)
            items[k++] = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    }
    if (!ok)
        FAIL(c, n, "Write the flags as the constants True or False; axis= and equal_nan=False are not supported.",
             "np.unique takes a real array and return_index=, return_inverse=, return_counts= here");
    return k == 1 ? items[0] : kj_tuple(k, items);
}

/* np.sort and np.partition copy their array as NumPy's order='K' does: a Fortran-ordered one stays
 * so (its later sums add in that order), any other is C-ordered. */
static const kj_type *sorted_copy_type(const kj_type *x) {
    return kj_array(x->elem, x->ndim, x->layout == KJ_LAYOUT_F ? KJ_LAYOUT_F : KJ_LAYOUT_C, false);
}

/* np.sort, argsort and unique along the last axis (unique flattens, or
 * returns what its flags ask for). */
static const kj_type *sort_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (m[0] == 'u' && a->npos + a->nkw > 1)
        return unique_type(c, n, a);
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    if (!x)
        return NULL;
    if (x->kind != KJ_T_ARRAY || (m[0] == 'u' && (a->npos > 1 || a->nkw > 0)))
        FAIL(c, n, "Sort along the last axis (the default).", "np.%s takes one array here, got %s", m, x->name);
    const char *refused = m[0] == 'u' ? NULL : kj_np_sort_args_refused(a, 1, x->ndim);
    if (refused)
        FAIL(c, n, "Sort along the last axis (the default).", "np.%s %s", m, refused);
    /* sort and argsort along the last axis; unique flattens */
    if (m[0] == 's')
        return sorted_copy_type(x);
    return m[0] == 'a' ? kj_array(KJ_I64, x->ndim, KJ_LAYOUT_C, false) : kj_array(x->elem, 1, KJ_LAYOUT_C, false);
}

static const kj_type *partition_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *kth = a->npos > 1 ? a->pos[1] : NULL;
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *k = kth ? kj_np_arg_type(c, kth) : NULL;
    if (!x || !k)
        return NULL;
    bool ints = kj_is_intlike(k) || (k->kind == KJ_T_ARRAY && k->ndim == 1 && kj_is_intlike(k->elem)) ||
                (k->kind == KJ_T_TUPLE && kj_np_shape_ndim(k) >= 0);
    if (x->kind != KJ_T_ARRAY || x->ndim == 0 || x->elem->kind == KJ_T_COMPLEX || !ints || k->kind == KJ_T_BOOL)
        FAIL(c, n, NULL, "np.%s takes a real array and kth, an int or ints, here", m);
    const char *refused = kj_np_sort_args_refused(a, 2, x->ndim);
    if (refused)
        FAIL(c, n, "Partition along the last axis (the default).", "np.%s %s", m, refused);
    return m[0] == 'a' ? kj_array(KJ_I64, x->ndim, KJ_LAYOUT_C, false) : sorted_copy_type(x);
}

/* np.median, percentile and quantile, and the nan ones, of a whole array. */
static const kj_type *order_statistic_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool median = m[0] == 'm';
    kj_node *q = median ? NULL : kj_np_arg(a, 1, "q");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *qt = q ? kj_np_arg_type(c, q) : NULL;
    if (!x || (q && !qt))
        return NULL;
    if (a->npos + a->nkw != (median ? 1 : 2) || x->kind != KJ_T_ARRAY || x->elem->kind == KJ_T_COMPLEX ||
        x->elem->kind == KJ_T_BOOL || (q && (qt->kind == KJ_T_ARRAY || !kj_is_number(qt) || qt->kind == KJ_T_COMPLEX)))
        FAIL(c, n, "Pass the whole array (no axis=) and one number q; np.sort(a, axis) gives rows to index.",
             median ? "np.median takes one real array here" : "np.%s takes a real array and one number q here", m);
    return median && x->elem->kind == KJ_T_FLOAT && x->elem->bits == 32 ? x->elem : KJ_F64;
}

static const kj_type *search_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool search = m[0] == 's';
    static const char *const known_search[] = {"a", "v", "side", NULL}, *const known_digitize[] = {"x", "bins", "right", NULL};
    const char *const *known = search ? known_search : known_digitize;
    kj_node *sorted = kj_np_arg(a, search ? 0 : 1, known[search ? 0 : 1]), *vn = kj_np_arg(a, search ? 1 : 0, known[search ? 1 : 0]);
    kj_node *opt = kj_np_arg(a, 2, known[2]);
    const kj_type *x = kj_np_arg_type(c, sorted), *v = kj_np_arg_type(c, vn);
    if (!x || !v)
        return NULL;
    bool opt_ok = !opt || (search ? opt->kind == KJ_E_CONST && opt->str && (!strcmp(opt->str, "left") || !strcmp(opt->str, "right"))
                                  : kj_np_const_bool(opt));
    if (!opt_ok)
        FAIL(c, opt, search ? "Write side='left' or side='right'." : "Write right=True or right=False.",
             search ? "side= takes the constant 'left' or 'right' in compiled code" : "right= takes a constant bool in compiled code");
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim != 1 ||
        x->elem->kind == KJ_T_COMPLEX || (v->kind == KJ_T_ARRAY ? v->elem->kind == KJ_T_COMPLEX : !kj_is_number(v) || v->kind == KJ_T_COMPLEX))
        FAIL(c, n, NULL, search ? "np.searchsorted takes a sorted 1-d real array and real values"
                                : "np.digitize takes real values and a 1-d real array of bins");
    if (v->kind == KJ_T_ARRAY)
        return kj_array(KJ_I64, v->ndim, KJ_LAYOUT_C, false);
    return KJ_I64;
}

static const kj_type *histogram_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    kj_node *bins = kj_np_arg(a, 1, "bins"), *range = kj_np_arg(a, 2, "range");
    if (!x)
        return NULL;
    const kj_type *bt = bins ? kj_np_arg_type(c, bins) : KJ_I64, *rt = range ? kj_np_arg_type(c, range) : NULL;
    if (!bt || (range && !rt))
        return NULL;
    if (x->kind != KJ_T_ARRAY || !kj_is_intlike(bt) || x->elem->kind == KJ_T_COMPLEX ||
        (rt && (rt->kind != KJ_T_TUPLE || rt->n != 2 || !kj_is_number(rt->elems[0]) ||
                !kj_is_number(rt->elems[1]))))
        FAIL(c, n, "Pass the number of bins as an int.",
             "np.histogram(a, bins=10, range=None) takes an array, an int and a (lo, hi) tuple");
    const kj_type *e[2] = {kj_array(KJ_I64, 1, KJ_LAYOUT_C, false), kj_array(KJ_F64, 1, KJ_LAYOUT_C, false)};
    return kj_tuple(2, e);
}

static const kj_type *isin_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool flat = m[1] == 'n';
    static const char *const known_isin[] = {"element", "test_elements", "assume_unique", "invert", NULL},
                             *const known_in1d[] = {"ar1", "ar2", "assume_unique", "invert", NULL};
    const char *const *known = flat ? known_in1d : known_isin;
    const kj_type *ops[2] = {kj_np_arg_type(c, kj_np_arg(a, 0, known[0])), kj_np_arg_type(c, kj_np_arg(a, 1, known[1]))};
    kj_node *opt[2] = {kj_np_arg(a, 2, known[2]), kj_np_arg(a, 3, known[3])};
    if (!ops[0] || !ops[1] || (opt[0] && !kj_np_arg_type(c, opt[0])) || (opt[1] && !kj_np_arg_type(c, opt[1])))
        return NULL;
    bool ok = a->npos <= 4 && kj_np_only_keywords(a, known);
    for (int i = 0; i < 2; i++)
        ok = ok && ops[i]->kind == KJ_T_ARRAY && ops[i]->elem->kind != KJ_T_COMPLEX && (!opt[i] || kj_is_number(opt[i]->type));
    char why[300];
    const kj_type *e = ok ? kj_np_result_dtype("add", 2, ops, why, sizeof why) : NULL;
    if (!e || e->kind == KJ_T_COMPLEX)
        FAIL(c, n, "Make the values an array first: np.array([...]).", "np.%s takes two real arrays, assume_unique and invert here", m);
    return kj_array(kj_bool(), flat ? 1 : ops[0]->ndim, KJ_LAYOUT_C, false);
}

/* ---- lowering ---- */

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

static LLVMValueRef histogram(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
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
static LLVMValueRef searchsorted(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "a"), *side = kj_np_arg(a, 2, "side");
    return search(w, n, kj_lower_expr(w, an), an->type, kj_np_arg(a, 1, "v"), side && !strcmp(side->str, "right"), NULL);
}

/* np.digitize(x, bins, right=False): the bins' side of each x, through
 * searchsorted as NumPy's (the sides swapped), from the end for bins that
 * decrease; ValueError for bins that do neither. */
static LLVMValueRef digitize(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
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

/* np.sort, argsort, partition, argpartition and unique; a.sort() with m
 * "sort!". */
LLVMValueRef kj_np_lower_sort(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
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

KJ_NP_FUNCTION(sort, sort_type, kj_np_lower_sort);
KJ_NP_FUNCTION(argsort, sort_type, kj_np_lower_sort);
KJ_NP_FUNCTION(unique, sort_type, kj_np_lower_sort);
KJ_NP_FUNCTION(partition, partition_type, kj_np_lower_sort);
KJ_NP_FUNCTION(argpartition, partition_type, kj_np_lower_sort);
KJ_NP_FUNCTION(median, order_statistic_type, order_statistic);
KJ_NP_FUNCTION(percentile, order_statistic_type, order_statistic);
KJ_NP_FUNCTION(quantile, order_statistic_type, order_statistic);
KJ_NP_FUNCTION(nanpercentile, order_statistic_type, order_statistic);
KJ_NP_FUNCTION(nanquantile, order_statistic_type, order_statistic);
KJ_NP_FUNCTION(searchsorted, search_type, searchsorted);
KJ_NP_FUNCTION(digitize, search_type, digitize);
KJ_NP_FUNCTION(histogram, histogram_type, histogram);
KJ_NP_FUNCTION(isin, isin_type, isin);
KJ_NP_FUNCTION(in1d, isin_type, isin);
