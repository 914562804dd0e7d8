/* infer_np_index: the types of indexing an array with arrays (lower_np_fancy.c
 * lowers it): a boolean mask, an integer array along one axis, or a point
 * index (an integer array per axis, or np.nonzero's tuple). */
#include "jit/numpy/infer_np.h"

#define FAIL KJ_INFER_FAIL

/* Whether t is a 1-d array of integers: one axis's part of a point index. */
static bool point_coordinates(const kj_type *t) {
    return t && t->kind == KJ_T_ARRAY && t->ndim == 1 && t->elem->kind == KJ_T_INT;
}

/* a[idx, 0], a[0, idx], a[:, 0, idx]: one integer array among integers (and slices) is the
 * integers' view indexed by the array, a[:, 0][idx], when that puts the array's axis where NumPy
 * puts it: in place when the integers and the array stand together, and first (where the view
 * puts it too) when no slice comes before the array. n becomes view[slices and the array];
 * false when the index is not of that form. */
static bool integers_first(kj_infer_ctx *c, kj_node *n) {
    int nidx = n->nkids - 1, array = -1, ints = 0, first = nidx, last = -1;
    bool slice_before = false;
    for (int k = 1; k <= nidx; k++) {
        kj_node *i = n->kids[k];
        if (i->kind == KJ_E_SLICE || kj_is_newaxis(i)) {
            if (i->kind != KJ_E_SLICE || array < 0)
                slice_before |= array < 0;
            if (i->kind != KJ_E_SLICE)
                return false;
            continue;
        }
        const kj_type *t = i->type;
        if (point_coordinates(t) && array < 0)
            array = k;
        else if (t && t->kind == KJ_T_INT)
            ints++;
        else
            return false;
        if (k < first)
            first = k;
        last = k;
    }
    bool together = array > 0 && last - first + 1 == ints + 1;
    if (array < 0 || !ints || (!together && slice_before))
        return false;
    kj_node *view = kj_infer_new_node(c, KJ_E_INDEX, n->line, n->col, nidx + 1);
    if (!view)
        return false;
    view->kids[0] = n->kids[0];
    int kept = 0;
    for (int k = 1; k <= nidx; k++) {
        kj_node *i = n->kids[k];
        bool integer = k != array && i->kind != KJ_E_SLICE;
        view->kids[k] = integer ? i : kj_infer_new_node(c, KJ_E_SLICE, i->line, i->col, 3);
        if (!view->kids[k])
            return false;
        if (!integer)
            n->kids[1 + kept++] = i;
    }
    n->kids[0] = view;
    n->nkids = 1 + kept;
    return true;
}

const kj_type *kj_np_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *a, bool *handled) {
    *handled = false;
    int nidx = n->nkids - 1;
    /* a[i, j] with an integer array per axis, or a[np.nonzero(m)]: the points */
    bool plain = true;   /* no slice or newaxis among the indices */
    for (int k = 1; k <= nidx; k++)
        plain = plain && n->kids[k]->kind != KJ_E_SLICE && !kj_is_newaxis(n->kids[k]);
    const kj_type *tup = plain && nidx == 1 ? kj_infer_sub(c, n->kids[1]) : NULL;
    bool by_tuple = tup && tup->kind == KJ_T_TUPLE;
    int npoints = by_tuple ? tup->n : nidx;
    bool points = plain && npoints == a->ndim && npoints > 1;
    for (int k = 0; points && k < npoints; k++)
        points = point_coordinates(by_tuple ? tup->elems[k] : kj_infer_sub(c, n->kids[k + 1]));
    if (points) {
        *handled = true;
        return kj_array(a->elem, 1, KJ_LAYOUT_C, false);
    }
    /* a[:, idx], a[1:, ::2, idx]: one array among slices, positions along its axis */
    for (int k = 1; k <= nidx; k++)
        if (n->kids[k]->kind != KJ_E_SLICE)
            kj_infer_sub(c, n->kids[k]);
    int axis = kj_index_gather_axis(n);
    if (axis >= 0) {
        *handled = true;
        if (nidx > a->ndim)
            FAIL(c, n, NULL, "too many indices (%d) for %s", nidx, a->name);
        const kj_type *it = n->kids[axis + 1]->type;
        if (!point_coordinates(it) && !(it->ndim == 1 && it->elem->kind == KJ_T_BOOL))
            FAIL(c, n, "Beside slices, index with a 1-d integer array or a 1-d mask: a[:, idx], a[:, m].",
                 "beside slices, an array index must be a 1-d integer or boolean array, got %s", it->name);
        return kj_array(a->elem, a->ndim, KJ_LAYOUT_C, false);
    }
    for (int k = 1; k <= nidx; k++) {
        kj_node *i = n->kids[k];
        if (i->kind == KJ_E_SLICE)
            continue;
        const kj_type *it = kj_infer_sub(c, i);
        if (!it || it->kind != KJ_T_ARRAY)
            continue;
        *handled = true;
        if (nidx != 1 && integers_first(c, n)) {
            const kj_type *view = kj_infer_sub(c, n->kids[0]);
            return view ? kj_np_index_type(c, n, view, handled) : NULL;
        }
        if (nidx != 1)
            FAIL(c, n, "Index with one array (a[mask], a[idx]), one beside slices (a[:, idx]), or with a 1-d integer array for every axis (a[i, j]).",
                 "an array index mixed with other indices is not supported");
        if (it->elem->kind == KJ_T_BOOL) {
            if (it->ndim != a->ndim)
                FAIL(c, n, NULL, "a boolean mask must have the array's %d dimensions, got %d", a->ndim, it->ndim);
            return kj_array(a->elem, 1, KJ_LAYOUT_C, false);
        }
        if (!kj_is_intlike(it->elem) || it->ndim != 1)
            FAIL(c, n, NULL, "arrays index with a boolean mask or a 1-d integer array, got %s", it->name);
        return kj_array(a->elem, a->ndim, KJ_LAYOUT_C, false);
    }
    return NULL;
}

bool kj_np_is_point_index(const kj_node *n) {
    const kj_type *a = n->kids[0]->type, *t = n->nkids == 2 ? n->kids[1]->type : NULL;
    if (!a || a->kind != KJ_T_ARRAY || a->ndim < 2)
        return false;
    if (t && t->kind == KJ_T_TUPLE)
        return t->n == a->ndim && point_coordinates(t->elems[0]);
    return n->nkids - 1 == a->ndim && n->kids[1]->kind != KJ_E_SLICE && point_coordinates(n->kids[1]->type);
}
