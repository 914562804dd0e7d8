/* infer_np_sort: the types of NumPy's sorting, searching and counting
 * functions in compiled code: np.sort, argsort, partition and argpartition
 * (sorted: a partition whose sides are in order), unique (with its
 * return_* flags), median, percentile and quantile (and nanpercentile,
 * nanquantile), searchsorted, digitize, isin and in1d, and histogram
 * (bincount and interp: np_bins.c). */
#include "jit/numpy/infer_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

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

const kj_type *kj_np_sorting_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, bool *handled) {
    *handled = true;
    if (!strcmp(m, "unique") && a->npos + a->nkw > 1)
        return unique_type(c, n, a);
    if (!strcmp(m, "sort") || !strcmp(m, "argsort") || !strcmp(m, "unique")) {
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
    if (!strcmp(m, "partition") || !strcmp(m, "argpartition")) {
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
    const char *plain = strncmp(m, "nan", 3) ? m : m + 3;   /* np.nanpercentile: np.percentile of the numbers */
    if (!strcmp(m, "median") || !strcmp(plain, "percentile") || !strcmp(plain, "quantile")) {
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
    if (!strcmp(m, "searchsorted") || !strcmp(m, "digitize")) {
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
    if (!strcmp(m, "histogram")) {
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
    if (!strcmp(m, "isin") || !strcmp(m, "in1d")) {
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
    *handled = false;
    return NULL;
}
