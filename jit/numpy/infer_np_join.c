/* infer_np_join: the types of np.concatenate, np.stack, np.hstack,
 * np.vstack (np.row_stack) and np.column_stack, and their registry entries
 * (lowered in lower_np_join.c). */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* The number of dimensions np.<m> gives when it joins arrays of nd
 * dimensions. */
static int join_rank(const char *m, int nd) {
    if (!strcmp(m, "stack"))
        return nd + 1;
    if (!strcmp(m, "vstack") || !strcmp(m, "row_stack") || !strcmp(m, "column_stack"))
        return nd < 2 ? 2 : nd;
    return nd;   /* concatenate, hstack */
}

/* np.concatenate(arrays, axis), np.stack(arrays, axis), np.hstack(arrays),
 * np.vstack(arrays), np.column_stack(arrays): arrays is a tuple of arrays
 * of one number of dimensions (column_stack's 1-d ones count as 2-d), or
 * a list of arrays; the axis a constant; the result has the promoted
 * dtype. */
static const kj_type *join_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const axis_kw[] = {"axis", NULL};
    bool takes_axis = !strcmp(m, "concatenate") || !strcmp(m, "stack");
    kj_node *arrays = kj_np_arg(a, 0, NULL), *axis = takes_axis ? kj_np_arg(a, 1, "axis") : NULL;
    if (!arrays || a->npos > (takes_axis ? 2 : 1) || !kj_np_only_keywords(a, takes_axis ? axis_kw : NULL))
        FAIL(c, n, NULL, "np.%s takes a tuple of arrays%s here", m, takes_axis ? " and axis=" : "");
    if (arrays->kind == KJ_E_TUPLE)   /* a display: Optional arrays in it are their arrays */
        for (int i = 0; i < arrays->nkids; i++)
            kj_infer_value(c, arrays->kids[i]);
    const kj_type *t = kj_np_arg_type(c, arrays);
    if (!t)
        return NULL;
    bool list = t->kind == KJ_T_LIST && t->elem && t->elem->kind == KJ_T_ARRAY;   /* its arrays are of one type */
    if (!list && (t->kind != KJ_T_TUPLE || t->n == 0))
        FAIL(c, arrays, "Pass the arrays as a tuple, np.concatenate((a, b)), or a list of arrays.",
             "np.%s takes a tuple or a list of arrays, got %s", m, t->name);
    const kj_type *e = NULL;
    int nd = 0;
    bool columns = !strcmp(m, "column_stack");   /* its 1-d arrays are columns, beside 2-d ones */
    for (int i = 0; i < (list ? 1 : t->n); i++) {
        const kj_type *x = list ? t->elem : t->elems[i];
        int xnd = x->kind == KJ_T_ARRAY && columns && x->ndim == 1 ? 2 : x->ndim;
        if (x->kind != KJ_T_ARRAY || x->ndim == 0 || (i > 0 && xnd != nd))
            FAIL(c, arrays, "Give every array the same number of dimensions (a.reshape(1, -1) makes a row).",
                 "np.%s takes arrays of one number of dimensions (at least 1) here, got %s", m, t->name);
        nd = xnd;
        if (!e) {
            e = x->elem;
        } else {
            char why[300];
            const kj_type *pair[2] = {kj_array(e, 1, KJ_LAYOUT_C, false), x};
            if (!(e = kj_np_result_dtype("add", 2, pair, why, sizeof why)))
                FAIL(c, arrays, NULL, "np.%s: %s", m, why);
        }
    }
    int rank = join_rank(m, nd);
    if (axis) {
        const kj_type *at = kj_np_arg_type(c, axis);
        if (!at)
            return NULL;
        if (axis->kind != KJ_E_CONST || !kj_is_intlike(at))
            FAIL(c, axis, "Write the axis as a number.", "np.%s takes a constant int axis in compiled code", m);
        if (axis->ival < -rank || axis->ival >= rank)
            FAIL(c, axis, NULL, "axis %lld is out of bounds for array of dimension %d", (long long)axis->ival, rank);
    }
    return kj_array(e, rank, KJ_LAYOUT_C, false);
}

#define JOIN(id) KJ_NP_FUNCTION(id, join_type, kj_np_lower_join)
JOIN(concatenate);
JOIN(stack);
JOIN(hstack);
JOIN(vstack);
JOIN(row_stack);
JOIN(column_stack);
