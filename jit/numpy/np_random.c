/* np_random: np.random.seed, random, random_sample, rand, randn,
 * standard_normal, uniform, normal, randint, choice, shuffle and
 * permutation, and the distributions drawn one deviate at a time from
 * scalar parameters (the entries with a `distribution` below). Without a
 * size a call gives a float, an int or None; a size makes an array of its
 * shape filled element by element from the generator (rt_random.c). */
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* Entries are named "np.random.<name>" and get m "random.<name>". */
#define SHORT(m) ((m) + sizeof "random." - 1)

/* A distribution beyond uniform and normal: its parameters' names in
 * NumPy's order, their defaults (none where required), which are
 * integers, and whether the deviates are counts (int64) rather than
 * float64. */
typedef struct {
    const char *name;
    int nparams;
    const char *params[2];
    double defaults[2];
    bool required[2], integer[2];
    bool counts;
} distribution;

/* ---- types ---- */

/* The positional arguments' types into t, and the number of dimensions
 * size= gives into nd (0 without); false when one has no type or size is
 * not a shape (reported). */
static bool arg_types(kj_infer_ctx *c, const kj_np_args *a, const kj_type **t, int *nd) {
    *nd = 0;
    for (int i = 0; i < a->npos; i++)
        if (!(t[i] = kj_np_arg_type(c, a->pos[i])))
            return false;
    kj_node *size = kj_np_arg(a, -1, "size");
    if (size && (*nd = kj_np_shape_ndim(kj_np_arg_type(c, size))) < 0) {
        kj_infer_problem(c, size, NULL, "size must be an int or a tuple of ints");
        return false;
    }
    return true;
}

/* Each typing below gets the positional arguments' types t and the number
 * of dimensions size= gives, nd; its entry, fn_entry, finds them first. */
#define TYPED(fn)                                                                                         \
    static const kj_type *fn##_entry(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {   \
        const kj_type *t[KJ_NP_MAX_ARGS];                                                                 \
        int nd;                                                                                           \
        return arg_types(c, a, t, &nd) ? fn(c, n, m, a, t, nd) : NULL;                                    \
    }

static const kj_type *seed_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m, (void)nd;
    if (a->npos != 1 || !kj_is_intlike(t[0]))
        FAIL(c, n, NULL, "np.random.seed takes one integer");
    return kj_none();
}

/* np.random.rand(d0, d1, ...), randn. */
static const kj_type *dims_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)nd;
    for (int i = 0; i < a->npos; i++)
        if (!kj_is_intlike(t[i]))
            FAIL(c, n, NULL, "np.%s takes integer dimensions", m);
    return a->npos ? kj_array(KJ_F64, a->npos, KJ_LAYOUT_C, false) : KJ_F64;
}

/* np.random.random(size), random_sample, standard_normal. */
static const kj_type *sample_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m;
    if (a->npos == 1 && (nd = kj_np_shape_ndim(t[0])) < 0)
        FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
    return nd ? kj_array(KJ_F64, nd, KJ_LAYOUT_C, false) : KJ_F64;
}

/* np.random.uniform(low, high, size), normal(loc, scale, size). */
static const kj_type *pair_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    for (int i = 0; i < a->npos && i < 2; i++)
        if (!kj_is_number(t[i]) || t[i]->kind == KJ_T_COMPLEX)
            FAIL(c, n, NULL, "np.%s takes real numbers", m);
    if (a->npos == 3 && (nd = kj_np_shape_ndim(t[2])) < 0)
        FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
    return nd ? kj_array(KJ_F64, nd, KJ_LAYOUT_C, false) : KJ_F64;
}

/* np.random.randint(low, high=None, size=None). */
static const kj_type *randint_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m;
    if (a->npos < 1 || a->npos > 3)
        FAIL(c, n, NULL, "np.random.randint(low, high=None, size=None)");
    for (int i = 0; i < a->npos && i < 2; i++)
        if (!kj_is_intlike(t[i]))
            FAIL(c, n, NULL, "np.random.randint takes integers");
    if (a->npos == 3 && (nd = kj_np_shape_ndim(t[2])) < 0)
        FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
    return nd ? kj_array(KJ_I64, nd, KJ_LAYOUT_C, false) : KJ_I64;
}

/* np.random.choice(a, size=None, replace=True), without p=. */
static const kj_type *choice_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m;
    if (a->npos < 1 || (t[0]->kind != KJ_T_ARRAY && !kj_is_intlike(t[0])) ||
        (t[0]->kind == KJ_T_ARRAY && t[0]->ndim != 1))
        FAIL(c, n, NULL, "np.random.choice takes a 1-d array or an int");
    const kj_type *e = t[0]->kind == KJ_T_ARRAY ? t[0]->elem : KJ_I64;
    if (a->npos >= 2 && (nd = kj_np_shape_ndim(t[1])) < 0)
        FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
    kj_node *replace = kj_np_arg(a, 2, "replace");
    const kj_type *rt = replace ? kj_np_arg_type(c, replace) : NULL;
    if (replace && (!rt || !kj_is_intlike(rt)))
        FAIL(c, replace, NULL, "np.random.choice's replace must be a bool");
    if (kj_np_arg(a, 3, "p"))
        FAIL(c, n, "Draw from np.cumsum(p) with np.searchsorted and np.random.random.",
             "np.random.choice with p= is not supported in compiled code");
    return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
}

static const kj_type *shuffle_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m, (void)nd;
    if (a->npos != 1 || t[0]->kind != KJ_T_ARRAY || t[0]->readonly)
        FAIL(c, n, NULL, "np.random.shuffle takes one writeable array");
    return kj_none();
}

static const kj_type *permutation_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t, int nd) {
    (void)m, (void)nd;
    if (a->npos != 1 || !(kj_is_intlike(t[0]) || (t[0]->kind == KJ_T_ARRAY && t[0]->ndim == 1)))
        FAIL(c, n, "Permute an index array and take rows with it.", "np.random.permutation takes an int or a 1-d array");
    return kj_array(t[0]->kind == KJ_T_ARRAY ? t[0]->elem : KJ_I64, 1, KJ_LAYOUT_C, false);
}

static const kj_type *distribution_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a, const kj_type **t,
                                       int nd) {
    const distribution *d = kj_np_callable(m)->data;
    for (int i = 0; i < d->nparams; i++) {
        kj_node *k = kj_np_arg(a, i, d->params[i]);
        const kj_type *pt = k ? kj_np_arg_type(c, k) : NULL;
        if (!k && d->required[i])
            FAIL(c, n, NULL, "np.%s needs %s", m, d->params[i]);
        if (k && (!pt || !kj_is_number(pt) || pt->kind == KJ_T_COMPLEX || (d->integer[i] && !kj_is_intlike(pt))))
            FAIL(c, k, NULL, "np.%s takes %s numbers for %s", m, d->integer[i] ? "integer" : "real",
                 d->params[i]);
    }
    if (a->npos == d->nparams + 1 && (nd = kj_np_shape_ndim(t[d->nparams])) < 0)
        FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
    const kj_type *e = d->counts ? KJ_I64 : KJ_F64;
    return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
}

TYPED(seed_type)
TYPED(dims_type)
TYPED(sample_type)
TYPED(pair_type)
TYPED(randint_type)
TYPED(choice_type)
TYPED(shuffle_type)
TYPED(permutation_type)
TYPED(distribution_type)

/* ---- lowering ---- */

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

typedef struct {
    const char *m;
    LLVMValueRef p0, p1;   /* low/high, loc/scale, a distribution's parameters, or the choice's array */
    const kj_type *src;    /* choice: the array's type, or NULL for range(n) */
    const kj_type *vt;     /* the type of a deviate */
} gen;

static LLVMValueRef uniform01(kj_lw *w) { return kj_call(w, "kj_rt_random", w->f64, 0, NULL, NULL); }

/* One deviate. */
static LLVMValueRef draw(kj_lw *w, const gen *g) {
    LLVMBuilderRef b = w->b;
    if (!strcmp(g->m, "uniform"))
        return LLVMBuildFAdd(b, g->p0, LLVMBuildFMul(b, LLVMBuildFSub(b, g->p1, g->p0, ""), uniform01(w), ""), "");
    if (!strcmp(g->m, "normal"))
        return LLVMBuildFAdd(b, g->p0, LLVMBuildFMul(b, g->p1, kj_call(w, "kj_np_normal", w->f64, 0, NULL, NULL), ""), "");
    if (!strcmp(g->m, "randn") || !strcmp(g->m, "standard_normal"))
        return kj_call(w, "kj_np_normal", w->f64, 0, NULL, NULL);
    if (!strcmp(g->m, "randint"))
        return kj_call(w, "kj_rt_randint", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64},
                       (LLVMValueRef[]){g->p0, LLVMBuildSub(b, g->p1, c64(w, 1), "")});
    if (!strcmp(g->m, "exponential") || !strcmp(g->m, "standard_exponential")) {
        LLVMValueRef e = kj_call(w, "kj_np_exponential", w->f64, 0, NULL, NULL);
        return g->p0 ? LLVMBuildFMul(b, g->p0, e, "") : e;
    }
    if (!strcmp(g->m, "lognormal")) {
        LLVMValueRef x = LLVMBuildFAdd(b, g->p0, LLVMBuildFMul(b, g->p1, kj_call(w, "kj_np_normal", w->f64, 0, NULL, NULL), ""), "");
        return kj_call(w, "exp", w->f64, 1, &w->f64, &x);
    }
    if (!strcmp(g->m, "poisson") || !strcmp(g->m, "geometric"))
        return kj_call(w, g->m[0] == 'p' ? "kj_np_poisson" : "kj_np_geometric", w->i64, 1, &w->f64,
                       (LLVMValueRef[]){g->p0});
    if (!strcmp(g->m, "binomial"))
        return kj_call(w, "kj_np_binomial", w->i64, 2, (LLVMTypeRef[]){w->i64, w->f64}, (LLVMValueRef[]){g->p0, g->p1});
    if (!strcmp(g->m, "choice")) {
        LLVMValueRef n = g->src ? kj_array_len(w, g->p0) : g->p0;
        LLVMValueRef i = kj_call(w, "kj_rt_randint", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64},
                                 (LLVMValueRef[]){c64(w, 0), LLVMBuildSub(b, n, c64(w, 1), "")});
        return g->src ? kj_array_item(w, g->p0, g->src, i) : i;
    }
    return uniform01(w);   /* random, random_sample, rand */
}

/* The size argument (int or tuple) as a shape, or 0 dimensions. */
static int size_arg(kj_lw *w, kj_node *k, LLVMValueRef *shape) {
    if (!k || k->type->kind == KJ_T_NONE)
        return 0;
    kj_np_shape_arg(w, k, shape);
    return k->type->kind == KJ_T_TUPLE ? k->type->n : 1;
}

/* A distribution's parameters into g (defaults where NumPy has them),
 * checked with NumPy's messages. */
static void distribution_parameters(kj_lw *w, const distribution *d, const kj_np_args *a, gen *g) {
    LLVMValueRef p[2] = {NULL, NULL};
    for (int i = 0; i < d->nparams; i++) {
        kj_node *k = kj_np_arg(a, i, d->params[i]);
        p[i] = k ? kj_np_value(w, k, d->integer[i] ? KJ_I64 : KJ_F64) : LLVMConstReal(w->f64, d->defaults[i]);
    }
    g->p0 = p[0];
    g->p1 = p[1];
    g->vt = d->counts ? KJ_I64 : KJ_F64;
    LLVMBuilderRef b = w->b;
    LLVMValueRef zero = LLVMConstReal(w->f64, 0.0), one = LLVMConstReal(w->f64, 1.0);
    if (!strcmp(d->name, "exponential"))
        kj_raise_if(w, LLVMBuildFCmp(b, LLVMRealOLT, p[0], zero, ""), PyExc_ValueError, "scale < 0");
    else if (!strcmp(d->name, "lognormal"))
        kj_raise_if(w, LLVMBuildFCmp(b, LLVMRealOLT, p[1], zero, ""), PyExc_ValueError, "sigma < 0");
    else if (!strcmp(d->name, "poisson")) {
        kj_raise_if(w, LLVMBuildFCmp(b, LLVMRealULT, p[0], zero, ""), PyExc_ValueError, "lam < 0 or lam is NaN");
        /* NumPy's largest lam: INT64_MAX less ten of its square roots */
        kj_raise_if(w, LLVMBuildFCmp(b, LLVMRealOGT, p[0], LLVMConstReal(w->f64, 9.223372006484771e18), ""),
                    PyExc_ValueError, "lam value too large");
    } else if (!strcmp(d->name, "binomial")) {
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntSLT, p[0], c64(w, 0), ""), PyExc_ValueError, "n < 0");
        kj_raise_if(w, LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealULT, p[1], zero, ""), LLVMBuildFCmp(b, LLVMRealOGT, p[1], one, ""), ""),
                    PyExc_ValueError, "p < 0, p > 1 or p is NaN");
    } else if (!strcmp(d->name, "geometric")) {
        kj_raise_if(w, LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealULE, p[0], zero, ""), LLVMBuildFCmp(b, LLVMRealOGT, p[0], one, ""), ""),
                    PyExc_ValueError, "p <= 0, p > 1 or p contains NaNs");
    }
}

/* np.random.permutation(n): a shuffled np.arange(n); of an array: a
 * shuffled copy (t: the 1-d result's type). */
static LLVMValueRef permutation(kj_lw *w, const kj_type *t, kj_node *src) {
    LLVMValueRef out;
    if (src->type->kind == KJ_T_ARRAY) {
        out = kj_np_copy(w, kj_lower_expr(w, src), src->type, t->elem);
    } else {
        LLVMValueRef len = kj_np_value(w, src, KJ_I64);
        len = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, len, c64(w, 0), ""), c64(w, 0), len, "");
        out = kj_np_alloc(w, t, &len, false);
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, len);
        LLVMBuildStore(w->b, i, LLVMBuildGEP2(w->b, w->i64, kj_array_field(w, out, 1, 0), &i, 1, ""));
        kj_np_loop_end(w, &l);
    }
    kj_call(w, "kj_np_shuffle", w->vd, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64},
            (LLVMValueRef[]){kj_array_field(w, out, 1, 0), kj_array_len(w, out), kj_np_itemsize(w, t->elem),
                             kj_np_itemsize(w, t->elem)});
    return out;
}

/* np.random.choice(src, size, replace=False) into out (size items of type
 * elem): the first items of a permutation, as NumPy takes them. */
static void choose_distinct(kj_lw *w, kj_node *src, LLVMValueRef out, LLVMValueRef size, const kj_type *elem) {
    LLVMValueRef pool = permutation(w, kj_array(elem, 1, KJ_LAYOUT_C, false), src);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSGT, size, kj_array_len(w, pool), ""), PyExc_ValueError,
                "Cannot take a larger sample than population when 'replace=False'");
    LLVMTypeRef et = kj_llmemtype(w, elem);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, size);
    LLVMValueRef v = LLVMBuildLoad2(w->b, et, LLVMBuildGEP2(w->b, et, kj_array_field(w, pool, 1, 0), &i, 1, ""), "");
    LLVMBuildStore(w->b, v, LLVMBuildGEP2(w->b, et, kj_array_field(w, out, 1, 0), &i, 1, ""));
    kj_np_loop_end(w, &l);
}

static LLVMValueRef lower_seed(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)n, (void)m;
    LLVMValueRef s = kj_np_value(w, a->pos[0], KJ_I64);
    kj_call(w, "kj_np_seed", w->vd, 1, (LLVMTypeRef[]){w->i64}, &s);
    return LLVMConstInt(w->i8, 0, 0);
}

static LLVMValueRef lower_shuffle(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    const kj_type *t = a->pos[0]->type;
    LLVMValueRef arr = kj_lower_expr(w, a->pos[0]);
    if (t->ndim != 1) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, "Shuffle an index array and take rows with it.",
                "np.random.shuffle of a %d-d array is not supported yet", t->ndim);
        return LLVMConstInt(w->i8, 0, 0);
    }
    kj_call(w, "kj_np_shuffle", w->vd, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64},
            (LLVMValueRef[]){kj_array_field(w, arr, 1, 0), kj_array_len(w, arr), kj_array_field(w, arr, 3, 0),
                             kj_np_itemsize(w, t->elem)});
    return LLVMConstInt(w->i8, 0, 0);
}

static LLVMValueRef lower_permutation(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    return permutation(w, n->type, a->pos[0]);
}

/* The functions that draw deviates: one, or an array of size's shape. */
static LLVMValueRef lower_draws(kj_lw *w, kj_node *n, const char *full, const kj_np_args *a) {
    const char *m = SHORT(full);
    gen g = {.m = m, .vt = !strcmp(m, "randint") || !strcmp(m, "choice") ? KJ_I64 : KJ_F64};
    LLVMValueRef shape[KJ_NP_MAXDIM];
    int nd = 0;
    const kj_callable *k = kj_np_callable(full);
    const distribution *d = k->np_type == distribution_type_entry ? k->data : NULL;
    if (!strcmp(m, "rand") || !strcmp(m, "randn")) {
        for (int i = 0; i < a->npos; i++)
            shape[nd++] = kj_np_value(w, a->pos[i], KJ_I64);
    } else if (!strcmp(m, "uniform") || !strcmp(m, "normal")) {
        kj_node *lo = kj_np_arg(a, 0, m[0] == 'u' ? "low" : "loc"), *hi = kj_np_arg(a, 1, m[0] == 'u' ? "high" : "scale");
        g.p0 = lo ? kj_np_value(w, lo, KJ_F64) : LLVMConstReal(w->f64, 0.0);
        g.p1 = hi ? kj_np_value(w, hi, KJ_F64) : LLVMConstReal(w->f64, 1.0);
        if (m[0] == 'n')
            kj_raise_if(w, LLVMBuildFCmp(w->b, LLVMRealOLT, g.p1, LLVMConstReal(w->f64, 0.0), ""), PyExc_ValueError,
                        "scale < 0");
        nd = size_arg(w, kj_np_arg(a, 2, "size"), shape);
    } else if (!strcmp(m, "randint")) {
        kj_node *hi = kj_np_arg(a, 1, "high");
        bool has_hi = hi && hi->type->kind != KJ_T_NONE;
        LLVMValueRef lo = kj_np_value(w, a->pos[0], KJ_I64);
        g.p0 = has_hi ? lo : c64(w, 0);
        g.p1 = has_hi ? kj_np_value(w, hi, KJ_I64) : lo;
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSGE, g.p0, g.p1, ""), PyExc_ValueError, "low >= high");
        nd = size_arg(w, kj_np_arg(a, 2, "size"), shape);
    } else if (!strcmp(m, "choice")) {
        kj_node *src = a->pos[0];
        g.src = src->type->kind == KJ_T_ARRAY ? src->type : NULL;
        g.p0 = g.src ? kj_lower_expr(w, src) : kj_np_value(w, src, KJ_I64);
        LLVMValueRef len = g.src ? kj_array_len(w, g.p0) : g.p0;
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLE, len, c64(w, 0), ""), PyExc_ValueError,
                    g.src ? "'a' cannot be empty unless no samples are taken" : "a must be greater than 0 unless no samples are taken");
        nd = size_arg(w, kj_np_arg(a, 1, "size"), shape);
    } else if (d) {
        nd = size_arg(w, kj_np_arg(a, d->nparams, "size"), shape);
        distribution_parameters(w, d, a, &g);
    } else {   /* random, random_sample, standard_normal */
        nd = size_arg(w, kj_np_arg(a, 0, "size"), shape);
    }
    const kj_type *t = n->type;
    if (nd == 0)   /* one item: with or without replacement alike */
        return kj_cast(w, draw(w, &g), g.src ? g.src->elem : t, t);
    LLVMValueRef out = kj_np_alloc(w, t, shape, false);
    LLVMValueRef size = kj_np_size(w, out, nd);
    kj_node *replace = !strcmp(m, "choice") ? kj_np_arg(a, 2, "replace") : NULL;
    LLVMBasicBlockRef done = NULL;
    if (replace && !(replace->kind == KJ_E_CONST && replace->ival)) {
        LLVMBasicBlockRef distinct = kj_new_bb(w, "choice.distinct"), drawn = kj_new_bb(w, "choice.drawn");
        done = kj_new_bb(w, "choice.done");
        LLVMBuildCondBr(w->b, kj_np_value(w, replace, kj_bool()), drawn, distinct);
        LLVMPositionBuilderAtEnd(w->b, distinct);
        choose_distinct(w, a->pos[0], out, size, t->elem);
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, drawn);
    }
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, size);
    LLVMValueRef v = draw(w, &g);
    kj_np_store_elem(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, t->elem), kj_array_field(w, out, 1, 0), &i, 1, ""), v,
                     g.src ? g.src->elem : g.vt, t->elem);
    kj_np_loop_end(w, &l);
    if (done) {
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, done);
    }
    return out;
}

#define RANDOM(id, ty, lo) KJ_CALLABLE(id, .name = "np.random." #id, .targets = KJ_ON_ANY, .np_type = ty, .np_lower = lo)
RANDOM(seed, seed_type_entry, lower_seed);
RANDOM(rand, dims_type_entry, lower_draws);
RANDOM(randn, dims_type_entry, lower_draws);
RANDOM(random, sample_type_entry, lower_draws);
RANDOM(random_sample, sample_type_entry, lower_draws);
RANDOM(standard_normal, sample_type_entry, lower_draws);
RANDOM(uniform, pair_type_entry, lower_draws);
RANDOM(normal, pair_type_entry, lower_draws);
RANDOM(randint, randint_type_entry, lower_draws);
RANDOM(choice, choice_type_entry, lower_draws);
RANDOM(shuffle, shuffle_type_entry, lower_shuffle);
RANDOM(permutation, permutation_type_entry, lower_permutation);

#define DISTRIBUTION(id, ...)                                                                          \
    static const distribution id##_d = {#id, __VA_ARGS__};                                             \
    KJ_CALLABLE(id, .name = "np.random." #id, .targets = KJ_ON_ANY, .np_type = distribution_type_entry,      \
                .np_lower = lower_draws, .data = &id##_d)
DISTRIBUTION(exponential, 1, {"scale"}, {1.0}, {false}, {false}, false);
DISTRIBUTION(standard_exponential, 0, {NULL}, {0.0}, {false}, {false}, false);
DISTRIBUTION(lognormal, 2, {"mean", "sigma"}, {0.0, 1.0}, {false, false}, {false, false}, false);
DISTRIBUTION(poisson, 1, {"lam"}, {1.0}, {false}, {false}, true);
DISTRIBUTION(binomial, 2, {"n", "p"}, {0.0, 0.0}, {true, true}, {true, false}, true);
DISTRIBUTION(geometric, 1, {"p"}, {0.0}, {false}, {false}, true);
