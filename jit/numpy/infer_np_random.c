/* infer_np_random: the types of np.random's functions in compiled code
 * (lower_np_random.c lowers them): a float, an int or None for a call
 * without a size, an array of the size's shape with one. */
#include "jit/numpy/infer_np.h"
#include "jit/numpy/np_funcs.h"

#include <string.h>

#define FAIL KJ_INFER_FAIL

const kj_type *kj_np_random_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    int nd = 0;
    const kj_type *t[KJ_NP_MAX_ARGS];
    for (int i = 0; i < a->npos; i++)
        if (!(t[i] = kj_np_arg_type(c, a->pos[i])))
            return NULL;
    kj_node *size = kj_np_arg(a, -1, "size");
    if (size) {
        if ((nd = kj_np_shape_ndim(kj_np_arg_type(c, size))) < 0)
            FAIL(c, size, NULL, "size must be an int or a tuple of ints");
    }
    if (!strcmp(m, "seed")) {
        if (a->npos != 1 || !kj_is_intlike(t[0]))
            FAIL(c, n, NULL, "np.random.seed takes one integer");
        return kj_none();
    }
    if (!strcmp(m, "rand") || !strcmp(m, "randn")) {
        for (int i = 0; i < a->npos; i++)
            if (!kj_is_intlike(t[i]))
                FAIL(c, n, NULL, "np.random.%s takes integer dimensions", m);
        return a->npos ? kj_array(KJ_F64, a->npos, KJ_LAYOUT_C, false) : KJ_F64;
    }
    if (!strcmp(m, "random") || !strcmp(m, "random_sample") || !strcmp(m, "standard_normal")) {
        if (a->npos == 1 && (nd = kj_np_shape_ndim(t[0])) < 0)
            FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
        return nd ? kj_array(KJ_F64, nd, KJ_LAYOUT_C, false) : KJ_F64;
    }
    if (!strcmp(m, "uniform") || !strcmp(m, "normal")) {
        for (int i = 0; i < a->npos && i < 2; i++)
            if (!kj_is_number(t[i]) || t[i]->kind == KJ_T_COMPLEX)
                FAIL(c, n, NULL, "np.random.%s takes real numbers", m);
        if (a->npos == 3 && (nd = kj_np_shape_ndim(t[2])) < 0)
            FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
        return nd ? kj_array(KJ_F64, nd, KJ_LAYOUT_C, false) : KJ_F64;
    }
    if (!strcmp(m, "randint")) {
        if (a->npos < 1 || a->npos > 3)
            FAIL(c, n, NULL, "np.random.randint(low, high=None, size=None)");
        for (int i = 0; i < a->npos && i < 2; i++)
            if (!kj_is_intlike(t[i]))
                FAIL(c, n, NULL, "np.random.randint takes integers");
        if (a->npos == 3 && (nd = kj_np_shape_ndim(t[2])) < 0)
            FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
        return nd ? kj_array(KJ_I64, nd, KJ_LAYOUT_C, false) : KJ_I64;
    }
    if (!strcmp(m, "choice")) {
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
    if (!strcmp(m, "shuffle")) {
        if (a->npos != 1 || t[0]->kind != KJ_T_ARRAY || t[0]->readonly)
            FAIL(c, n, NULL, "np.random.shuffle takes one writeable array");
        return kj_none();
    }
    if (!strcmp(m, "permutation")) {
        if (a->npos != 1 || !(kj_is_intlike(t[0]) || (t[0]->kind == KJ_T_ARRAY && t[0]->ndim == 1)))
            FAIL(c, n, "Permute an index array and take rows with it.", "np.random.permutation takes an int or a 1-d array");
        return kj_array(t[0]->kind == KJ_T_ARRAY ? t[0]->elem : KJ_I64, 1, KJ_LAYOUT_C, false);
    }
    const kj_np_distribution *d = kj_np_distribution_of(m);
    if (d) {
        for (int i = 0; i < d->nparams; i++) {
            kj_node *k = kj_np_arg(a, i, d->params[i]);
            const kj_type *pt = k ? kj_np_arg_type(c, k) : NULL;
            if (!k && d->required[i])
                FAIL(c, n, NULL, "np.random.%s needs %s", m, d->params[i]);
            if (k && (!pt || !kj_is_number(pt) || pt->kind == KJ_T_COMPLEX || (d->integer[i] && !kj_is_intlike(pt))))
                FAIL(c, k, NULL, "np.random.%s takes %s numbers for %s", m, d->integer[i] ? "integer" : "real",
                     d->params[i]);
        }
        if (a->npos == d->nparams + 1 && (nd = kj_np_shape_ndim(t[d->nparams])) < 0)
            FAIL(c, n, NULL, "the size must be an int or a tuple of ints");
        const kj_type *e = d->counts ? KJ_I64 : KJ_F64;
        return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
    }
    FAIL(c, n,
         "Compiled code has seed, random, rand, randn, uniform, normal, randint, choice, shuffle, permutation, "
         "exponential, standard_exponential, lognormal, poisson, binomial and geometric.",
         "np.random.%s is not supported in compiled code", m);
}
