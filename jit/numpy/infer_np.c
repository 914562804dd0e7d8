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

/* ---- np.* ---- */

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

/* Infers every argument that is a value (dtypes are not), so lowering
 * finds them all typed. false when one has no type yet. */
static bool infer_values(kj_infer_ctx *c, const kj_np_args *a) {
    bool ok = true;
    for (int i = 0; i < a->npos; i++)
        if (!kj_np_dtype_typed(c, a->pos[i]))
            ok = kj_np_arg_type(c, a->pos[i]) && ok;
    for (int i = 0; i < a->nkw; i++)
        if (!kj_np_dtype_typed(c, a->kw[i]->kids[0]))
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
    const kj_callable *k = kj_np_callable(m);
    if (k)
        return k->np_type(c, n, m, &a);
    if (!strncmp(m, "random.", 7))
        FAIL(c, n,
             "Compiled code has seed, random, rand, randn, uniform, normal, randint, choice, shuffle, permutation, "
             "exponential, standard_exponential, lognormal, poisson, binomial and geometric.",
             "np.%s is not supported in compiled code", m);
    FAIL(c, n, "See the Kiln documentation for the NumPy functions compiled code supports.",
         "np.%s%s is not supported in compiled code", in_linalg_only(m) ? "linalg." : "", m);
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
    if (kj_np_is_reduction(m) && strncmp(m, "nan", 3) != 0)   /* np.nanmax is a function only */
        return kj_np_reduction_type(c, n, m, self, &a, 0);
    const kj_callable *k = kj_np_method(m);
    if (k)
        return k->np_type(c, n, m, &a);
    FAIL(c, n, NULL, "arrays have no method '%s' in compiled code (or not with these arguments)", m);
}

const kj_type *kj_np_attr_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled) {
    (void)c;
    const kj_type *t = kj_np_part_type(self, n->name);
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
