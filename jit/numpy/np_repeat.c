/* np_repeat: np.repeat (and a.repeat) and np.tile, new C-order
 * arrays. repeat copies each element, or each slab along an axis, as many
 * times as repeats says (one count, or one per position along the axis);
 * tile repeats the whole array along each axis, as NumPy's, padding the
 * shape or reps with leading ones to the same length. */
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* np.repeat(a, repeats, axis=None) and a.repeat(repeats, axis=None):
 * repeats is argument `at` (1 for the function, 0 for the method), axis
 * the next; x is the array's type. */
const kj_type *kj_np_repeat_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a, int at, const kj_type *x) {
    static const char *const known[] = {"a", "repeats", "axis", NULL};
    kj_node *rn = kj_np_arg(a, at, "repeats"), *ax = kj_np_arg(a, at + 1, "axis");
    const kj_type *r = kj_np_arg_type(c, rn), *axt = ax ? kj_np_arg_type(c, ax) : kj_none();
    if (!x || !r || !axt)
        return NULL;
    bool counts = kj_is_intlike(r) || (r->kind == KJ_T_ARRAY && r->ndim == 1 && kj_is_intlike(r->elem));
    if (a->npos > at + 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || x->ndim == 0 || !counts ||
        (axt->kind != KJ_T_NONE && !kj_is_intlike(axt)))
        FAIL(c, n, "Give the counts as ints: an int, or a 1-d int array with one per position along the axis.",
             "repeat takes an array, an int or a 1-d int array of counts and an int axis here");
    return kj_array(x->elem, axt->kind == KJ_T_NONE ? 1 : x->ndim, KJ_LAYOUT_C, false);
}

static const kj_type *repeat_call_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    return kj_np_repeat_type(c, n, a, 1, kj_np_arg_type(c, kj_np_arg(a, 0, "a")));
}

/* np.tile(A, reps). */
static const kj_type *tile_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"A", "reps", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "A")), *r = kj_np_arg_type(c, kj_np_arg(a, 1, "reps"));
    if (!x || !r)
        return NULL;
    int nreps = kj_is_intlike(r) ? 1 : kj_np_shape_ndim(r);
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || nreps < 0)
        FAIL(c, n, "Make the number an array first: np.full(reps, x).", "np.tile takes an array and an int or a tuple of ints here");
    return kj_array(x->elem, x->ndim > nreps ? x->ndim : nreps, KJ_LAYOUT_C, false);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* v[k] for the run-time k among nd values. */
static LLVMValueRef pick(kj_lw *w, LLVMValueRef *v, int nd, LLVMValueRef k) {
    LLVMValueRef r = c64(w, 0);
    for (int i = 0; i < nd; i++)
        r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, k, c64(w, i), ""), v[i], r, "");
    return r;
}

/* Where copy 0 of position i along the axis goes, and how many copies:
 * from one count, or through the running sums of an array of counts. */
typedef struct {
    LLVMValueRef count;    /* one count for all, or NULL */
    LLVMValueRef starts;   /* i64 array of len + 1 running sums, or NULL */
    LLVMValueRef total;
} repeat_plan;

static repeat_plan plan(kj_lw *w, kj_node *rn, LLVMValueRef len) {
    repeat_plan p = {0};
    if (rn->type->kind != KJ_T_ARRAY) {
        p.count = kj_np_value(w, rn, KJ_I64);
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, p.count, c64(w, 0), ""), PyExc_ValueError,
                    "negative dimensions are not allowed");
        p.total = LLVMBuildMul(w->b, len, p.count, "");
        return p;
    }
    const kj_type *rt = rn->type;
    LLVMValueRef reps = kj_lower_expr(w, rn), nreps = kj_array_field(w, reps, 2, 0);
    LLVMValueRef one = LLVMBuildICmp(w->b, LLVMIntEQ, nreps, c64(w, 1), "");
    kj_np_raise_i64x2_if(w, LLVMBuildAnd(w->b, LLVMBuildNot(w->b, one, ""), LLVMBuildICmp(w->b, LLVMIntNE, nreps, len, ""), ""),
                         PyExc_ValueError, "operands could not be broadcast together with shape (%lld,) (%lld,)", len, nreps);
    LLVMValueRef n1 = LLVMBuildAdd(w->b, len, c64(w, 1), "");
    p.starts = kj_np_alloc(w, kj_array(KJ_I64, 1, KJ_LAYOUT_C, false), &n1, true);
    LLVMValueRef sums = kj_array_field(w, p.starts, 1, 0);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef at = LLVMBuildSelect(w->b, one, c64(w, 0), i, "");
    LLVMValueRef r = kj_cast(w, kj_np_load(w, kj_np_ptr(w, reps, 1, &at), rt->elem), rt->elem, KJ_I64);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, r, c64(w, 0), ""), PyExc_ValueError,
                "repeats may not contain negative values.");
    LLVMValueRef next = LLVMBuildAdd(w->b, i, c64(w, 1), "");
    LLVMValueRef before = LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i64, sums, &i, 1, ""), "");
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, before, r, ""), LLVMBuildGEP2(w->b, w->i64, sums, &next, 1, ""));
    kj_np_loop_end(w, &l);
    p.total = LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i64, sums, &len, 1, ""), "");
    return p;
}

static LLVMValueRef start_of(kj_lw *w, const repeat_plan *p, LLVMValueRef i) {
    if (p->count)
        return LLVMBuildMul(w->b, i, p->count, "");
    return LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i64, kj_array_field(w, p->starts, 1, 0), &i, 1, ""), "");
}

static LLVMValueRef count_of(kj_lw *w, const repeat_plan *p, LLVMValueRef i) {
    if (p->count)
        return p->count;
    return LLVMBuildSub(w->b, start_of(w, p, LLVMBuildAdd(w->b, i, c64(w, 1), "")), start_of(w, p, i), "");
}

/* np.repeat(a, repeats, axis=None); a.repeat(...) arrives as np.repeat(a, ...). */
static LLVMValueRef lower_repeat(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "a"), *rn = kj_np_arg(a, 1, "repeats"), *axn = kj_np_arg(a, 2, "axis");
    const kj_type *at = an->type, *et = at->elem;
    LLVMValueRef src = kj_lower_expr(w, an), axis = c64(w, 0), shape[KJ_NP_MAXDIM];
    int nd = at->ndim;
    if (!axn || axn->type->kind == KJ_T_NONE) {   /* the elements in C order, as one line */
        LLVMValueRef size = kj_np_size(w, src, nd);
        src = kj_np_make(w, kj_array(et, 1, KJ_LAYOUT_C, at->readonly), kj_array_field(w, src, 0, 0),
                         kj_np_whole_line(w, src, at), &size, NULL);
        nd = 1;
    } else {
        axis = kj_np_axis(w, kj_np_value(w, axn, KJ_I64), nd);
    }
    kj_np_shape(w, src, nd, shape);
    LLVMValueRef len = pick(w, shape, nd, axis);
    repeat_plan p = plan(w, rn, len);
    LLVMValueRef out_shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM], to[KJ_NP_MAXDIM];
    for (int k = 0; k < nd; k++)
        out_shape[k] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), ""), p.total, shape[k], "");
    LLVMValueRef out = kj_np_alloc(w, n->type, out_shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef i = pick(w, idx, nd, axis), first = start_of(w, &p, i);
    LLVMValueRef x = kj_np_load(w, kj_np_ptr(w, src, nd, idx), et);
    kj_np_loop copies;
    LLVMValueRef c = kj_np_loop_begin(w, &copies, count_of(w, &p, i));
    for (int k = 0; k < nd; k++)
        to[k] = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, axis, c64(w, k), ""), LLVMBuildAdd(w->b, first, c, ""),
                                idx[k], "");
    kj_np_store_elem(w, kj_np_ptr(w, out, nd, to), x, et, et);
    kj_np_loop_end(w, &copies);
    kj_np_nest_end(w, &nest);
    return out;
}

/* np.tile(A, reps): reps an int or a tuple of ints. */
static LLVMValueRef lower_tile(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *an = kj_np_arg(a, 0, "A"), *rn = kj_np_arg(a, 1, "reps");
    const kj_type *at = an->type, *et = at->elem, *rt = rn->type;
    int nd = at->ndim, d = n->type->ndim, nreps = rt->kind == KJ_T_TUPLE ? rt->n : 1;
    LLVMValueRef arr = kj_lower_expr(w, an), r = kj_lower_expr(w, rn);
    LLVMValueRef ashape[KJ_NP_MAXDIM], reps[KJ_NP_MAXDIM], out_shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM], from[KJ_NP_MAXDIM];
    LLVMValueRef own[KJ_NP_MAXDIM], negative = LLVMConstInt(w->i1, 0, 0);
    kj_np_shape(w, arr, nd, own);
    for (int k = 0; k < d; k++) {   /* both padded with leading ones to d axes */
        int ka = k - (d - nd), kr = k - (d - nreps);
        ashape[k] = ka >= 0 ? own[ka] : c64(w, 1);
        reps[k] = kr < 0 ? c64(w, 1)
                  : rt->kind == KJ_T_TUPLE ? kj_cast(w, LLVMBuildExtractValue(w->b, r, (unsigned)kr, ""), rt->elems[kr], KJ_I64)
                                           : kj_cast(w, r, rt, KJ_I64);
        negative = LLVMBuildOr(w->b, negative, LLVMBuildICmp(w->b, LLVMIntSLT, reps[k], c64(w, 0), ""), "");
        out_shape[k] = LLVMBuildMul(w->b, ashape[k], reps[k], "");
    }
    kj_raise_if(w, negative, PyExc_ValueError, "negative dimensions are not allowed");
    LLVMValueRef out = kj_np_alloc(w, n->type, out_shape, false);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, d, out_shape, idx);
    for (int k = d - nd; k < d; k++)   /* an axis with copies has a nonzero length */
        from[k - (d - nd)] = LLVMBuildSRem(w->b, idx[k], ashape[k], "");
    kj_np_store_elem(w, kj_np_ptr(w, out, d, idx), kj_np_load(w, kj_np_ptr(w, arr, nd, from), et), et, et);
    kj_np_nest_end(w, &nest);
    return out;
}

KJ_CALLABLE(repeat, .name = "np.repeat", .targets = KJ_ON_ANY, .np_type = repeat_call_type, .np_lower = lower_repeat);
KJ_CALLABLE(tile, .name = "np.tile", .targets = KJ_ON_ANY, .np_type = tile_type, .np_lower = lower_tile);
