/* infer_np: the types of NumPy inside compiled code: np.* calls (array
 * creation, elementwise functions, reductions, linear algebra, sorting,
 * np.random), operators and comparisons with arrays, array methods, and
 * indexing with boolean masks and integer arrays. Element types come from
 * NumPy itself (np_dtype.c). */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"
#include "jit/core/callables.h"
#include "jit/numpy/np_funcs.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

const kj_type *kj_np_arg_type(kj_infer_ctx *c, kj_node *k) {
    if (!k)
        return NULL;
    return kj_infer_value(c, k);
}

/* The dtype node k names, typing the array of `a.dtype` first. */
static const kj_type *dtype_node(kj_infer_ctx *c, kj_node *k) {
    if (kj_np_is_dtype_attr(k))
        kj_np_arg_type(c, k->kids[0]);
    return kj_np_dtype_node(k);
}

/* A dtype= argument: NULL when absent (*bad false) or not a dtype (*bad). */
static const kj_type *dtype_arg(kj_infer_ctx *c, kj_node *k, bool *bad) {
    *bad = false;
    if (!k)
        return NULL;
    const kj_type *t = dtype_node(c, k);
    if (!t) {
        *bad = true;
        kj_infer_problem(c, k, "Write the type as np.float64, np.int32, float, int or bool, or as a.dtype of an array a.",
                         "this is not a dtype compiled code knows");
    }
    return t;
}

bool kj_np_const_bool(const kj_node *k) {
    return k->kind == KJ_E_CONST && k->type && k->type->kind == KJ_T_BOOL;
}

int kj_np_shape_ndim(const kj_type *t) {
    if (!t)
        return -1;
    if (kj_is_intlike(t))
        return 1;
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kj_is_intlike(t->elems[i]))
                return -1;
        return t->n;
    }
    return -1;
}

const kj_type *kj_np_product_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *x, const kj_type *y) {
    const kj_type *ops[2] = {x, y};
    char why[300];
    const kj_type *e = kj_np_result_dtype("multiply", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    return kj_array(e, x->ndim > y->ndim ? x->ndim : y->ndim, KJ_LAYOUT_C, false);
}

bool kj_np_only_keywords(const kj_np_args *a, const char *const *names) {
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (int j = 0; names && names[j]; j++)
            ok = ok || !strcmp(names[j], a->kw[i]->name);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- elementwise ---- */

/* opn: the operands' nodes (their constants' values matter to NumPy). */
static const kj_type *ewise_type(kj_infer_ctx *c, kj_node *n, const char *ufunc, int nops,
                                 const kj_type *const *ops, kj_node *const *opn) {
    char why[300];
    int nd = 0;
    for (int i = 0; i < nops; i++) {
        if (!ops[i])
            return NULL;
        if (ops[i]->kind == KJ_T_ARRAY && ops[i]->ndim > nd)
            nd = ops[i]->ndim;
        else if (ops[i]->kind != KJ_T_ARRAY && !kj_is_number(ops[i]))
            FAIL(c, n, NULL, "np.%s cannot take %s", ufunc, ops[i]->name);
    }
    /* only 0-d arrays and numbers: NumPy gives a number, typed as if each
     * 0-d array were a NumPy scalar of its dtype (NumPy 1.x promotes such
     * operands by type alone) */
    const kj_type *probe_ops[3] = {NULL, NULL, NULL};
    for (int i = 0; i < nops && i < 3; i++)
        probe_ops[i] = nd == 0 && ops[i]->kind == KJ_T_ARRAY ? ops[i]->elem : ops[i];
    if (nops == 2 && !strcmp(ufunc, "round")) {   /* NumPy's rule: the array's own dtype */
        const kj_type *e = probe_ops[0]->kind == KJ_T_ARRAY ? probe_ops[0]->elem : probe_ops[0];
        if (ops[1]->kind == KJ_T_ARRAY || !kj_is_intlike(ops[1]) || ops[1]->kind == KJ_T_BOOL)
            FAIL(c, opn[1], NULL, "np.round takes decimals as an int, got %s", ops[1]->name);
        if (e->kind == KJ_T_BOOL)
            FAIL(c, n, "Convert it first: a.astype(np.float64).", "np.round of booleans gives float16 in NumPy, which compiled code does not have");
        return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
    }
    kj_node *consts[3] = {NULL, NULL, NULL};
    for (int i = 0; i < nops && i < 3; i++)
        consts[i] = opn[i]->kind == KJ_E_CONST && kj_is_number(opn[i]->type) ? opn[i] : NULL;
    const kj_type *e = kj_np_result_dtype_c(ufunc, nops, probe_ops, consts, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", ufunc, why);
    return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
}

const kj_type *kj_np_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b) {
    const char *u = kj_np_op_ufunc(op, false);
    if (!u)
        FAIL(c, n, NULL, "this operator is not defined between %s and %s", a->name, b->name);
    const kj_type *ops[2] = {a, b};
    kj_node *e = n->kids[1];
    /* ndarray's ** squares a non-float array for the exponent 2 (2.0 too):
     * booleans square to int8, where np.power would give int64 */
    if (op == KJ_OP_POW && a->kind == KJ_T_ARRAY && a->elem->kind == KJ_T_BOOL && e->kind == KJ_E_CONST &&
        (e->type->kind == KJ_T_FLOAT ? e->fval == 2.0 : kj_is_intlike(e->type) && e->ival == 2))
        return ewise_type(c, n, "square", 1, ops, n->kids);
    return ewise_type(c, n, u, 2, ops, n->kids);
}

const kj_type *kj_np_unary_type(kj_infer_ctx *c, kj_node *n, const kj_type *a) {
    const char *u = kj_np_op_ufunc(n->op, true);
    if (!u)
        FAIL(c, n, "Use a.any() or a.all().", "the truth value of an array is ambiguous");
    return ewise_type(c, n, u, 1, &a, n->kids);
}

/* ---- reductions ---- */

/* np.<m>(a, axis) / a.<m>(axis): a scalar, or an array with one axis less
 * (cumsum keeps the shape, or flattens without an axis). args: the call's
 * arguments, the array's own among them when `first` is 1 (np.<m>(a)). */
static const kj_type *reduction_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *a,
                                     const kj_np_args *args, int first) {
    static const char *const known[] = {"a", "axis", NULL};
    if (args->npos > first + 1 || !kj_np_only_keywords(args, known + (first ? 0 : 1)))
        FAIL(c, n, "Convert first for another dtype (a.astype(np.float64).sum()); keepdims, out and initial are not supported.",
             "np.%s takes the array and axis here", m);
    kj_node *axis = kj_np_arg(args, first, "axis");
    if (kj_is_number(a) && !axis && (!strcmp(m, "all") || !strcmp(m, "any")))
        return kj_bool();   /* NumPy's all and any of a number: its truth */
    if (a->kind == KJ_T_TUPLE && first) {   /* np.prod(a.shape): the tuple as NumPy's array of it */
        static const char *const of_tuples[] = {"sum", "prod", "min", "max", "amin", "amax", "mean", "all", "any", NULL};
        const kj_type *u = NULL;
        for (int i = 0; i < a->n && (u = kj_unify(u, a->elems[i])); i++)
            ;
        bool known = false;
        for (int i = 0; of_tuples[i]; i++)
            known = known || !strcmp(of_tuples[i], m);
        if (!known || !u || axis || !(kj_is_number(u) || u->kind == KJ_T_BOOL))
            FAIL(c, n, "Make an array of it first: np.array(t).", "np.%s takes a non-empty tuple of numbers and no axis here", m);
        a = kj_array(u, 1, KJ_LAYOUT_C, false);
    }
    if (a->kind != KJ_T_ARRAY)
        FAIL(c, n, NULL, "np.%s needs an array here, got %s", m, a->name);
    if (a->elem->kind == KJ_T_COMPLEX && strcmp(m, "sum") && strcmp(m, "prod") && strcmp(m, "mean") &&
        strncmp(m, "cum", 3))   /* NumPy orders complex numbers by real part, then imaginary: not done yet */
        FAIL(c, n, "Reduce the real parts (a.real) or the magnitudes (np.abs(a)) instead.",
             "np.%s of a complex array is not supported yet", m);
    if (axis) {
        const kj_type *at = kj_np_arg_type(c, axis);
        if (!at)
            return NULL;
        if (!kj_is_intlike(at) && at->kind != KJ_T_NONE)
            FAIL(c, axis, "Reduce along one axis at a time.", "axis must be an integer, got %s", at->name);
        if (at->kind == KJ_T_NONE)
            axis = NULL;
    }
    const char *probe = !strcmp(m, "amin") ? "min" : !strcmp(m, "amax") ? "max" : m;
    char why[300];
    const kj_type *e = kj_np_result_dtype(probe, 1, &a, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    bool cumulative = !strncmp(m, "cum", 3);
    if (cumulative)
        return kj_array(e, axis ? a->ndim : 1, KJ_LAYOUT_C, false);
    if (!axis || a->ndim == 1)
        return e;
    return kj_array(e, a->ndim - 1, KJ_LAYOUT_C, false);
}

/* ---- np.* ---- */

static const kj_type *creation_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a,
                                    bool *handled) {
    *handled = true;
    bool bad;
    if (!strcmp(m, "empty") || !strcmp(m, "zeros") || !strcmp(m, "ones") || !strcmp(m, "full")) {
        bool full = m[0] == 'f';
        kj_node *shape = kj_np_arg(a, 0, "shape");
        int nd = kj_np_shape_ndim(kj_np_arg_type(c, shape));
        if (nd < 0)
            FAIL(c, n, NULL, "np.%s needs a shape: an int or a tuple of ints", m);
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, full ? 2 : 1, "dtype"), &bad);
        if (bad)
            return NULL;
        if (full) {
            const kj_type *fv = kj_np_arg_type(c, kj_np_arg(a, 1, "fill_value"));
            if (!fv || !kj_is_number(fv))
                FAIL(c, n, NULL, "np.full needs a number to fill with");
            if (!dt) {
                char why[300];
                dt = kj_np_result_dtype("array", 1, &fv, why, sizeof why);
                if (!dt)
                    return NULL;
            }
        }
        return kj_array(dt ? dt : KJ_F64, nd, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "empty_like") || !strcmp(m, "zeros_like") || !strcmp(m, "ones_like") ||
        !strcmp(m, "full_like")) {
        const kj_type *src = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
        if (!src || src->kind != KJ_T_ARRAY)
            FAIL(c, n, NULL, "np.%s needs an array", m);
        if (m[0] == 'f' && !kj_np_arg_type(c, kj_np_arg(a, 1, "fill_value")))
            return NULL;
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, m[0] == 'f' ? 2 : 1, "dtype"), &bad);
        if (bad)
            return NULL;
        return kj_array(dt ? dt : src->elem, src->ndim, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "arange")) {
        const kj_type *e = KJ_I64;
        for (int i = 0; i < a->npos; i++) {
            const kj_type *t = kj_np_arg_type(c, a->pos[i]);
            if (!t)
                return NULL;
            if (!kj_is_number(t) || t->kind == KJ_T_COMPLEX)
                FAIL(c, n, NULL, "np.arange takes real numbers, got %s", t->name);
            if (!kj_is_intlike(t))
                e = KJ_F64;
        }
        if (a->npos < 1 || a->npos > 3)
            FAIL(c, n, NULL, "np.arange([start,] stop[, step])");
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, -1, "dtype"), &bad);
        return bad ? NULL : kj_array(dt ? dt : e, 1, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "linspace")) {
        for (int i = 0; i < a->npos; i++) {
            const kj_type *t = kj_np_arg_type(c, a->pos[i]);
            if (!t)
                return NULL;
            if (!kj_is_number(t) || t->kind == KJ_T_COMPLEX || (i == 2 && !kj_is_intlike(t)))
                FAIL(c, n, NULL, "np.linspace(start, stop, num=50) takes real numbers and an int");
        }
        kj_node *ep = kj_np_arg(a, -1, "endpoint");
        if (ep && !kj_np_arg_type(c, ep))
            return NULL;
        if (a->npos < 2 || a->npos > 3)
            FAIL(c, n, NULL, "np.linspace(start, stop, num=50)");
        return kj_array(KJ_F64, 1, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "tri")) {
        static const char *const known[] = {"N", "M", "k", "dtype", NULL};
        for (int i = 0; i < 3; i++) {
            kj_node *arg = kj_np_arg(a, i, known[i]);
            const kj_type *t = arg ? kj_np_arg_type(c, arg) : NULL;
            if (arg && !t)
                return NULL;
            if ((i == 0 && !arg) || (arg && !kj_is_intlike(t) && !(i == 1 && t->kind == KJ_T_NONE)) || a->npos > 4 ||
                !kj_np_only_keywords(a, known))
                FAIL(c, n, NULL, "np.tri(N, M=None, k=0, dtype=float) takes ints and a dtype");
        }
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, 3, "dtype"), &bad);
        return bad ? NULL : kj_array(dt ? dt : KJ_F64, 2, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "eye") || !strcmp(m, "identity")) {
        for (int i = 0; i < a->npos && i < (m[0] == 'e' ? 2 : 1); i++) {
            const kj_type *t = kj_np_arg_type(c, a->pos[i]);
            if (!t)
                return NULL;
            if (!kj_is_intlike(t))
                FAIL(c, n, NULL, "np.%s takes integer sizes", m);
        }
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, m[0] == 'e' ? -1 : 1, "dtype"), &bad);
        return bad ? NULL : kj_array(dt ? dt : KJ_F64, 2, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "copy") || !strcmp(m, "array") || !strcmp(m, "asarray") ||
        !strcmp(m, "ascontiguousarray")) {
        const kj_type *src = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
        if (!src)
            return NULL;
        const kj_type *dt = dtype_arg(c, kj_np_arg(a, 1, "dtype"), &bad);
        if (bad)
            return NULL;
        if (src->kind == KJ_T_LIST && strcmp(m, "copy") != 0 && src->elem && src->elem->kind == KJ_T_TUPLE) {
            /* np.array(pairs): one row per tuple, the numbers promoted as NumPy does */
            const kj_type *u = NULL;
            for (int i = 0; i < src->elem->n && (u = kj_unify(u, src->elem->elems[i])); i++)
                if (!kj_is_number(u) && u->kind != KJ_T_BOOL)
                    u = NULL;
            if (!u)
                FAIL(c, n, "Build the array with np.empty and fill it.",
                     "np.%s takes a list of tuples of numbers only, got a list of %s", m, src->elem->name);
            return kj_array(dt ? dt : u, 2, KJ_LAYOUT_C, false);
        }
        if (src->kind == KJ_T_LIST && strcmp(m, "copy") != 0 && src->elem && src->elem->kind == KJ_T_ARRAY) {
            if (src->elem->ndim + 1 > KJ_NP_MAXDIM)
                FAIL(c, n, NULL, "np.%s of a list of %d-d arrays has too many dimensions", m, src->elem->ndim);
            return kj_array(dt ? dt : src->elem->elem, src->elem->ndim + 1, KJ_LAYOUT_C, false);   /* one array per row */
        }
        if (src->kind == KJ_T_LIST && strcmp(m, "copy") != 0 && src->elem && src->elem->kind == KJ_T_LIST) {
            /* np.array([[1., 2.], [3., 4.]]): a dimension per level of lists */
            int nd = 1;
            const kj_type *e = src->elem;
            for (; e && e->kind == KJ_T_LIST; e = e->elem)
                nd++;
            if (e && !kj_is_number(e) && e->kind != KJ_T_BOOL)
                FAIL(c, n, "Build the array with np.empty and fill it.",
                     "np.%s takes nested lists of numbers only, got lists of %s", m, e->name);
            if (nd > KJ_NP_MAXDIM)
                FAIL(c, n, NULL, "np.%s of lists nested %d deep has too many dimensions", m, nd);
            return kj_array(dt ? dt : e ? e : KJ_F64, nd, KJ_LAYOUT_C, false);
        }
        if (src->kind == KJ_T_LIST && strcmp(m, "copy") != 0)   /* np.array([1, 2, 3]) */
            return kj_array(dt ? dt : src->elem ? src->elem : KJ_F64, 1, KJ_LAYOUT_C, false);
        if (src->kind != KJ_T_ARRAY)
            FAIL(c, n, "Build the array with np.empty and fill it.", "np.%s needs an array or a list here, got %s", m,
                 src->name);
        if (!strcmp(m, "asarray") && (!dt || dt == src->elem))
            return src;
        return kj_array(dt ? dt : src->elem, src->ndim, KJ_LAYOUT_C, false);
    }
    *handled = false;
    return NULL;
}

/* a.real, a.imag (np.real(a), np.imag(a)): the array itself for .real of
 * a real array, a view of a complex array's parts (floats one complex
 * apart), or NULL. */
static const kj_type *part_type(const kj_type *self, const char *m) {
    if (strcmp(m, "real") != 0 && strcmp(m, "imag") != 0)
        return NULL;
    if (self->elem->kind == KJ_T_COMPLEX)
        return kj_array(kj_float(self->elem->bits / 2), self->ndim, KJ_LAYOUT_A, self->readonly);
    /* of a real array: itself, and NumPy's read-only zeros for the imaginary part */
    return m[0] == 'r' ? self : kj_array(self->elem, self->ndim, KJ_LAYOUT_C, true);
}

/* np.nonzero(a): a tuple of index arrays, one per axis; np.flatnonzero:
 * one of flat indices; np.argwhere: rows of indices. */
static const kj_type *nonzero_type(const char *m, const kj_type *x) {
    const kj_type *line = kj_array(KJ_I64, 1, KJ_LAYOUT_C, false);
    if (!strcmp(m, "argwhere"))
        return kj_array(KJ_I64, 2, KJ_LAYOUT_C, false);
    if (!strcmp(m, "flatnonzero"))
        return line;
    const kj_type *e[x->ndim];   /* ndim >= 1: checked by the callers */
    for (int k = 0; k < x->ndim; k++)
        e[k] = line;
    return kj_tuple(x->ndim, e);
}

/* np.repeat(a, repeats, axis=None) and a.repeat(repeats, axis=None):
 * repeats is argument `at` (1 for the function, 0 for the method), axis
 * the next; x is the array's type. */
static const kj_type *repeat_type(kj_infer_ctx *c, kj_node *n, const kj_np_args *a, int at, const kj_type *x) {
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

/* Whether m is a function of numpy.linalg and not of numpy (the front end
 * names np.linalg.eig "eig"): for the message that refuses it. */
static bool in_linalg_only(const char *m) {
    PyObject *np = PyImport_ImportModule("numpy"), *la = PyImport_ImportModule("numpy.linalg");
    bool only = np && la && PyObject_HasAttrString(la, m) && !PyObject_HasAttrString(np, m);
    Py_XDECREF(np);
    Py_XDECREF(la);
    PyErr_Clear();
    return only;
}

/* np.ndindex(shape) or np.ndindex(n0, n1, ...) with ints; np.ndenumerate(a)
 * of an array of one dimension or more. Loops over them only. */
static const kj_type *nd_iteration_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (a->nkw)
        FAIL(c, n, NULL, "np.%s takes no keywords", m);
    if (m[2] == 'e') {
        const kj_type *x = a->npos == 1 ? kj_np_arg_type(c, a->pos[0]) : NULL;
        if (!x || x->kind != KJ_T_ARRAY || x->ndim == 0)
            FAIL(c, n, "Loop over a.flat positions with np.ndindex(a.shape), or index a 0-d array with a[()].",
                 "np.ndenumerate takes one array of one dimension or more%s%s", x ? ", got " : "", x ? x->name : "");
        return kj_ndenumerate(x);
    }
    int nd = 0;
    for (int i = 0; i < a->npos; i++) {
        const kj_type *t = kj_np_arg_type(c, a->pos[i]);
        bool shape = a->npos == 1 && t && t->kind == KJ_T_TUPLE;
        for (int k = 0; shape && k < t->n; k++)
            shape = kj_is_intlike(t->elems[k]);
        if (!t || (!shape && !kj_is_intlike(t)))
            FAIL(c, n, "Give it a.shape, or the lengths as ints: np.ndindex(3, 4).",
                 "np.ndindex takes a tuple of ints or ints%s%s", t ? ", got " : "", t ? t->name : "");
        nd += shape ? t->n : 1;
    }
    return kj_ndindex(nd);
}

static const kj_type *other_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (!strcmp(m, "ndindex") || !strcmp(m, "ndenumerate"))
        return nd_iteration_type(c, n, m, a);
    const kj_callable *own = kj_np_callable(m);   /* a function in a file of its own */
    if (own)
        return own->np_type(c, n, m, a);
    if ((!strcmp(m, "real") || !strcmp(m, "imag")) && a->npos == 1 && a->nkw == 0) {
        const kj_type *x = kj_np_arg_type(c, a->pos[0]);
        if (x && kj_is_number(x))   /* of a number: a number, the part of a complex one */
            return x->kind == KJ_T_COMPLEX ? kj_float(x->bits / 2) : x;
        const kj_type *t = x && x->kind == KJ_T_ARRAY ? part_type(x, m) : NULL;
        if (!t && x)
            FAIL(c, n, NULL, "np.%s takes an array or a number, got %s", m, x->name);
        return t;
    }
    if (kj_np_is_reduction(m)) {
        const kj_type *t = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
        return t ? reduction_type(c, n, m, t, a, 1) : NULL;
    }
    if (kj_np_join_rank(m, 1) > 0)
        return kj_np_join_type(c, n, m, a);
    if (!strcmp(m, "dot") || !strcmp(m, "matmul")) {
        const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *y = kj_np_arg_type(c, kj_np_arg(a, 1, "b"));
        if (!x || !y)
            return NULL;
        if (x->kind != KJ_T_ARRAY || y->kind != KJ_T_ARRAY || x->ndim > 2 || y->ndim > 2)
            FAIL(c, n, NULL, "np.%s takes 1-d or 2-d arrays, got %s and %s", m, x->name, y->name);
        const kj_type *ops[2] = {x, y};
        char why[300];
        const kj_type *e = kj_np_result_dtype("dot", 2, ops, why, sizeof why);
        if (!e)
            FAIL(c, n, NULL, "np.%s: %s", m, why);
        int nd = x->ndim + y->ndim - 2;
        return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
    }
    if (!strcmp(m, "nonzero") || !strcmp(m, "flatnonzero") || !strcmp(m, "argwhere")) {
        const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
        if (!x)
            return NULL;
        if (a->npos + a->nkw != 1 || x->kind != KJ_T_ARRAY || x->ndim == 0)
            FAIL(c, n, NULL, "np.%s takes one array of at least one dimension", m);
        return nonzero_type(m, x);
    }
    if (!strcmp(m, "repeat"))
        return repeat_type(c, n, a, 1, kj_np_arg_type(c, kj_np_arg(a, 0, "a")));
    if (!strcmp(m, "tile")) {
        static const char *const known[] = {"A", "reps", NULL};
        const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "A")), *r = kj_np_arg_type(c, kj_np_arg(a, 1, "reps"));
        if (!x || !r)
            return NULL;
        int nreps = kj_is_intlike(r) ? 1 : kj_np_shape_ndim(r);
        if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || nreps < 0)
            FAIL(c, n, "Make the number an array first: np.full(reps, x).", "np.tile takes an array and an int or a tuple of ints here");
        return kj_array(x->elem, x->ndim > nreps ? x->ndim : nreps, KJ_LAYOUT_C, false);
    }
    FAIL(c, n, "See the Kiln documentation for the NumPy functions compiled code supports.",
         "np.%s%s is not supported in compiled code", in_linalg_only(m) ? "linalg." : "", m);
}

/* Infers every argument that is a value (dtypes are not), so lowering
 * finds them all typed. false when one has no type yet. */
static bool infer_values(kj_infer_ctx *c, const kj_np_args *a) {
    bool ok = true;
    for (int i = 0; i < a->npos; i++)
        if (!dtype_node(c, a->pos[i]))
            ok = kj_np_arg_type(c, a->pos[i]) && ok;
    for (int i = 0; i < a->nkw; i++)
        if (!dtype_node(c, a->kw[i]->kids[0]))
            ok = kj_np_arg_type(c, a->kw[i]->kids[0]) && ok;
    return ok;
}

const kj_type *kj_np_call_type(kj_infer_ctx *c, kj_node *n) {
    const char *m = n->kids[0]->name + 3;
    kj_np_args a;
    kj_np_split(n, 1, &a);
    if (a.too_many)
        FAIL(c, n, NULL, "too many arguments for np.%s", m);
    if (!infer_values(c, &a))
        return NULL;
    if (!strncmp(m, "random.", 7))
        return kj_np_random_type(c, n, m + 7, &a);
    const kj_callable *uf = kj_np_ufunc(m);
    if (uf) {
        static const char *const out_kw[] = {"out", NULL};
        if (a.npos != uf->nin || !kj_np_only_keywords(&a, out_kw))
            FAIL(c, n, NULL, "np.%s takes %d operand%s (and out=)", m, uf->nin, uf->nin > 1 ? "s" : "");
        const kj_type *ops[3];
        bool any_array = false;
        for (int i = 0; i < uf->nin; i++) {
            if (!(ops[i] = kj_np_arg_type(c, a.pos[i])))
                return NULL;
            any_array = any_array || ops[i]->kind == KJ_T_ARRAY;
        }
        kj_node *out = kj_np_arg(&a, -1, "out");
        if (!any_array && !out) {
            /* numbers: the builtin the ufunc's entry names, if any */
            char why[300] = "";
            const kj_type *t = kj_builtin_type(n->kids[0]->name, uf->nin, ops, why, sizeof why);
            if (t)
                return t;
        }
        const kj_type *r = ewise_type(c, n, m, uf->nin, ops, a.pos);
        if (!r || !out)
            return r;
        const kj_type *ot = kj_np_arg_type(c, out);
        if (!ot)
            return NULL;
        if (ot->kind != KJ_T_ARRAY || ot->readonly || r->kind != KJ_T_ARRAY || ot->ndim < r->ndim)
            FAIL(c, out, NULL, "out= must be a writeable array of the result's shape (%s), got %s", r->name,
                 ot->name);
        return ot;
    }
    bool handled;
    const kj_type *t = creation_type(c, n, m, &a, &handled);
    if (!handled)
        t = kj_np_linalg_type(c, n, m, &a, &handled);
    if (!handled)
        t = kj_np_sorting_type(c, n, m, &a, &handled);
    if (!handled)
        t = kj_np_place_type(c, n, m, &a, &handled);
    return handled ? t : other_type(c, n, m, &a);
}

/* ---- methods and attributes ---- */

const kj_type *kj_np_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    const char *m = n->name;
    kj_np_args a;
    kj_np_split(n, 1, &a);
    if (a.too_many)
        FAIL(c, n, NULL, "too many arguments for %s", m);
    if (!infer_values(c, &a))
        return NULL;
    bool bad;
    if (kj_np_is_reduction(m) && strncmp(m, "nan", 3) != 0)   /* np.nanmax is a function only */
        return reduction_type(c, n, m, self, &a, 0);
    if (!strcmp(m, "copy") && a.npos == 0 && a.nkw == 0)
        return kj_array(self->elem, self->ndim, KJ_LAYOUT_C, false);
    if (!strcmp(m, "astype")) {
        const kj_type *dt = dtype_arg(c, kj_np_arg(&a, 0, "dtype"), &bad);
        if (bad)
            return NULL;
        if (!dt)
            FAIL(c, n, NULL, "astype needs a dtype");
        return kj_array(dt, self->ndim, KJ_LAYOUT_C, false);
    }
    if (!strcmp(m, "reshape")) {
        int nd = 0;
        for (int i = 0; i < a.npos; i++) {
            const kj_type *t = kj_np_arg_type(c, a.pos[i]);
            int k = kj_np_shape_ndim(t);
            if (k < 0 || (a.npos > 1 && !kj_is_intlike(t)))
                FAIL(c, n, NULL, "reshape takes ints or one tuple of ints");
            nd += k;
        }
        if (nd == 0)
            FAIL(c, n, NULL, "reshape needs the new shape");
        if (self->layout != KJ_LAYOUT_C)
            FAIL(c, n, "Call .copy() first: it makes a C-contiguous array.",
                 "reshape needs a C-contiguous array, and %s may not be", self->name);
        return kj_array(self->elem, nd, KJ_LAYOUT_C, self->readonly);
    }
    if ((!strcmp(m, "ravel") || !strcmp(m, "flatten")) && a.npos == 0)
        return kj_array(self->elem, 1, KJ_LAYOUT_C, m[0] == 'r' && self->layout == KJ_LAYOUT_C && self->readonly);
    if (!strcmp(m, "transpose") || !strcmp(m, "swapaxes") || !strcmp(m, "moveaxis!")) {
        int perm[self->ndim > 0 ? self->ndim : 1];
        char why[200];
        if (kj_np_axes_perm(m, &a, 0, self->ndim, perm, why, sizeof why) < 0)
            FAIL(c, n, "Name the axes with constant ints.", "%s", why);
        bool same = true, reversed = true;
        for (int k = 0; k < self->ndim; k++) {
            same = same && perm[k] == k;
            reversed = reversed && perm[k] == self->ndim - 1 - k;
        }
        char layout = same ? self->layout
                      : reversed && self->layout == KJ_LAYOUT_C ? KJ_LAYOUT_F
                      : reversed && self->layout == KJ_LAYOUT_F ? KJ_LAYOUT_C : KJ_LAYOUT_A;
        return kj_array(self->elem, self->ndim, layout, self->readonly);
    }
    if (!strcmp(m, "diagonal")) {
        static const char *const known[] = {"offset", NULL};
        kj_node *k = kj_np_arg(&a, 0, "offset");
        if (self->ndim != 2 || a.npos > 1 || !kj_np_only_keywords(&a, known) || (k && !kj_is_intlike(kj_np_arg_type(c, k))))
            FAIL(c, n, "Take the diagonal of a 2-d array, with an int offset.", "diagonal takes a 2-d array and an int offset here");
        return kj_array(self->elem, 1, KJ_LAYOUT_A, true);   /* NumPy's diagonal is a read-only view */
    }
    if (!strcmp(m, "fill") && a.npos == 1) {
        const kj_type *t = kj_np_arg_type(c, a.pos[0]);
        if (!t)
            return NULL;
        if (!kj_is_number(t) || self->readonly)
            FAIL(c, n, NULL, "fill takes a number, on a writeable array");
        return kj_none();
    }
    if (!strcmp(m, "nonzero") && a.npos == 0 && a.nkw == 0 && self->ndim > 0)
        return nonzero_type(m, self);
    if (!strcmp(m, "item") && a.nkw == 0 && a.npos <= 1) {   /* a.item(), a.item(flat_index) */
        if (a.npos == 1 && !kj_is_intlike(kj_np_arg_type(c, a.pos[0])))
            FAIL(c, a.pos[0], NULL, "item takes a flat index (an int)");
        return self->elem;
    }
    if (!strcmp(m, "repeat"))
        return repeat_type(c, n, &a, 0, self);
    if (!strcmp(m, "dot") && a.npos == 1) {
        const kj_type *y = kj_np_arg_type(c, a.pos[0]);
        if (!y)
            return NULL;
        if (y->kind != KJ_T_ARRAY || self->ndim > 2 || y->ndim > 2)
            FAIL(c, n, NULL, "dot takes 1-d or 2-d arrays");
        const kj_type *ops[2] = {self, y};
        char why[300];
        const kj_type *e = kj_np_result_dtype("dot", 2, ops, why, sizeof why);
        if (!e)
            FAIL(c, n, NULL, "dot: %s", why);
        int nd = self->ndim + y->ndim - 2;
        return nd ? kj_array(e, nd, KJ_LAYOUT_C, false) : e;
    }
    if (!strcmp(m, "sort") || !strcmp(m, "argsort")) {   /* along the last axis */
        const char *refused = kj_np_sort_args_refused(&a, 0, self->ndim);
        if (refused)
            FAIL(c, n, "Sort along the last axis (the default).", "%s() %s", m, refused);
        if (m[0] == 's' && self->readonly)
            FAIL(c, n, NULL, "cannot sort a read-only array in place");
        return m[0] == 's' ? kj_none() : kj_array(KJ_I64, self->ndim, KJ_LAYOUT_C, false);
    }
    FAIL(c, n, NULL, "arrays have no method '%s' in compiled code (or not with these arguments)", m);
}

const kj_type *kj_np_attr_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled) {
    (void)c;
    *handled = false;
    const kj_type *t = part_type(self, n->name);
    *handled = t != NULL;
    return t;
}

bool kj_np_lowers(const kj_node *n) {
    if (!n->type)
        return false;
    switch (n->kind) {
    case KJ_E_BINOP:
    case KJ_E_UNARY:
    case KJ_E_COMPARE: {   /* arrays, or numbers computed from 0-d arrays by a ufunc (not `x in a`) */
        if (n->type->kind == KJ_T_ARRAY)
            return true;
        const char *u = n->kind == KJ_E_COMPARE ? (n->nkids == 2 ? kj_np_op_ufunc(n->ops[0], false) : NULL)
                                                : kj_np_op_ufunc(n->op, n->kind == KJ_E_UNARY);
        for (int i = 0; u && i < n->nkids; i++)
            if (n->kids[i]->type && n->kids[i]->type->kind == KJ_T_ARRAY && n->kids[i]->type->ndim == 0)
                return true;
        return false;
    }
    case KJ_E_CALL: {
        const kj_node *fn = n->kids[0];
        if (fn->kind != KJ_E_FUNC || strncmp(fn->name, "np.", 3) != 0)
            return false;
        /* scalar calls the builtins type are theirs to lower */
        const kj_callable *uf = kj_np_ufunc(fn->name + 3);
        if (!uf || n->nkids - 1 != uf->nin || n->type->kind == KJ_T_ARRAY)
            return true;
        const kj_type *ops[3];
        for (int i = 0; i < uf->nin; i++)
            if (!(ops[i] = n->kids[i + 1]->type) || ops[i]->kind == KJ_T_ARRAY ||
                n->kids[i + 1]->kind == KJ_E_KEYWORD)
                return true;
        char why[300];
        return kj_builtin_type(fn->name, uf->nin, ops, why, sizeof why) == NULL;
    }
    case KJ_E_METHOD: return n->kids[0]->type && n->kids[0]->type->kind == KJ_T_ARRAY;
    case KJ_E_ATTR:
        return n->kids[0]->type && n->kids[0]->type->kind == KJ_T_ARRAY && (!strcmp(n->name, "real") || !strcmp(n->name, "imag"));
    case KJ_E_INDEX:
        if (kj_np_is_point_index(n))
            return true;
        for (int i = 1; i < n->nkids; i++)
            if (n->kids[i]->kind != KJ_E_SLICE && n->kids[i]->type && n->kids[i]->type->kind == KJ_T_ARRAY)
                return true;
        return false;
    default: return false;
    }
}
