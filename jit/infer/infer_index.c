/* infer_index: the types of subscripts, t[i]: a tuple's item at a
 * constant index, a list's or dict's item, an array's element or view
 * (slices, None, one ellipsis expanded to the slices it stands for, a tuple
 * of indices spread), or NumPy's fancy indexing (the kind's index_type:
 * kind_ops.h); and of `x in container`. */
#include "jit/core/kind_ops.h"
#include "jit/infer/infer_ctx.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

/* An array index's ... as the slices it stands for, in place: as many full
 * ones (reversed ones for np.flip's, ival -1) as the array has axes the
 * other indices leave. NumPy's IndexError for two. */
static bool expand_ellipsis(ti *c, kj_node *n, const kj_type *t) {
    int at = -1, named = 0;
    for (int k = 1; k < n->nkids; k++) {
        if (n->kids[k]->kind != KJ_E_ELLIPSIS) {
            named += !kj_is_newaxis(n->kids[k]);
            continue;
        }
        if (at >= 0) {
            kj_infer_problem(c, n, NULL, "an index can only have a single ellipsis ('...')");
            return false;
        }
        at = k;
    }
    if (at < 0)
        return true;
    int fill = t->ndim > named ? t->ndim - named : 0;
    kj_node **kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids - 1 + fill));
    if (!kids)
        return false;
    kj_node *dots = n->kids[at];
    int m = 0;
    for (int k = 0; k < n->nkids; k++) {
        if (k != at) {
            kids[m++] = n->kids[k];
            continue;
        }
        for (int i = 0; i < fill; i++) {
            kj_node *s = kj_new_node(c->f, KJ_E_SLICE, dots->line, dots->col, 3);
            if (!s)
                return false;
            if (dots->ival && !(s->kids[2] = kj_new_node(c->f, KJ_E_CONST, dots->line, dots->col, 0)))
                return false;
            if (dots->ival) {
                s->kids[2]->type = KJ_I64;
                s->kids[2]->ival = dots->ival;
            }
            kids[m++] = s;
        }
    }
    n->kids = kids;
    n->nkids = m;
    return true;
}

/* a[idx] with idx a local tuple of ints (np.ndindex's, a shape): the ints
 * it holds as the indices, in place: a[idx[0], idx[1], ...]. Only a local,
 * so that nothing is computed twice; a tuple written out is split already. */
static bool spread_tuple_index(ti *c, kj_node *n) {
    kj_node *i = n->nkids == 2 ? n->kids[1] : NULL;
    if (!i || i->kind != KJ_E_LOCAL)
        return true;
    const kj_type *it = kj_infer_sub(c, i);
    if (!it)
        return false;
    if (it->kind != KJ_T_TUPLE || it->n == 0)
        return true;
    for (int k = 0; k < it->n; k++)
        if (!kj_is_intlike(it->elems[k]))
            return true;
    kj_node **kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(1 + it->n));
    if (!kids)
        return false;
    kids[0] = n->kids[0];
    for (int k = 0; k < it->n; k++) {
        kj_node *item = kj_new_node(c->f, KJ_E_INDEX, i->line, i->col, 2);
        kj_node *local = kj_new_node(c->f, KJ_E_LOCAL, i->line, i->col, 0);
        kj_node *at = kj_new_node(c->f, KJ_E_CONST, i->line, i->col, 0);
        if (!item || !local || !at)
            return false;
        *local = *i;   /* a node of its own: each is typed and lowered apart */
        at->type = KJ_I64;
        at->ival = k;
        item->kids[0] = local;
        item->kids[1] = at;
        kids[1 + k] = item;
    }
    n->kids = kids;
    n->nkids = 1 + it->n;
    return true;
}

/* t[1:], t[:2], t[::-1] of a tuple of numbers (a.shape[:2]): the tuple of
 * the items the constant slice takes. */
static const kj_type *tuple_slice_type(ti *c, kj_node *n, const kj_type *t, kj_node *slice) {
    for (int s = 0; s < 3; s++)
        if (slice->kids[s] && !kj_infer_sub(c, slice->kids[s]))
            return NULL;
    int pos[t->n > 0 ? t->n : 1];
    int count = kj_const_slice_positions(slice, t->n, pos);
    if (count < 0)
        FAIL(c, n, "Slice a tuple with constant bounds and a nonzero step, such as t[1:] or t[::-1].",
             "cannot slice %s with bounds known only when it runs", t->name);
    const kj_type *elems[t->n > 0 ? t->n : 1];
    for (int k = 0; k < count; k++) {
        elems[k] = t->elems[pos[k]];
        if (!kj_is_number(elems[k]) && elems[k]->kind != KJ_T_BOOL)
            FAIL(c, n, "Index the items one by one: (t[0], t[1]).", "slicing is for tuples of numbers, and %s holds %s",
                 t->name, elems[k]->name);
    }
    return kj_tuple(count, elems);
}

/* Types of index expressions: an element, or a view. */
const kj_type *kj_infer_index_type(ti *c, kj_node *n) {
    const kj_type *t = kj_infer_value(c, n->kids[0]);
    if (!t)
        return NULL;
    int nidx = n->nkids - 1;
    if (t->kind == KJ_T_TUPLE) {
        kj_node *i = n->kids[1];
        if (nidx == 1 && i->kind == KJ_E_SLICE)
            return tuple_slice_type(c, n, t, i);
        const kj_type *it = nidx == 1 ? kj_infer_sub(c, i) : NULL;
        if (nidx == 1 && i->kind == KJ_E_CONST && kj_is_intlike(i->type)) {
            int64_t k = i->ival < 0 ? i->ival + t->n : i->ival;
            if (k < 0 || k >= t->n)
                FAIL(c, n, NULL, "tuple index %lld out of range for %s", (long long)i->ival,
                               t->name);
            return t->elems[k];
        }
        if (nidx == 1 && it && kj_is_intlike(it) && kj_is_uniform_tuple(t))
            return t->elems[0];
        FAIL(c, n, "Index tuples of mixed types with a constant.",
                       "cannot index %s with this index", t->name);
    }
    const kj_kind_ops *ops = kj_kind_ops_of(t->kind);
    if (!ops->index_type)
        FAIL(c, n, NULL, "%s cannot be indexed", t->name);
    if (t->kind == KJ_T_ARRAY && (!spread_tuple_index(c, n) || !expand_ellipsis(c, n, t)))
        return NULL;
    bool handled;
    const kj_type *kind_t = ops->index_type(c, n, t, &handled);   /* a list's, a dict's; an array's fancy indexing */
    if (handled)
        return kind_t;
    nidx = n->nkids - 1;
    int newaxes = 0;
    for (int k = 1; k <= nidx; k++)
        newaxes += kj_is_newaxis(n->kids[k]);
    if (nidx - newaxes > t->ndim)
        FAIL(c, n, NULL, "too many indices (%d) for %s", nidx - newaxes, t->name);
    int ints = 0;
    bool leading_ints = true, sliced = false;
    for (int k = 1; k <= nidx; k++) {
        kj_node *i = n->kids[k];
        if (i->kind == KJ_E_SLICE) {
            for (int s = 0; s < 3; s++) {
                const kj_type *st = i->kids[s] ? kj_infer_sub(c, i->kids[s]) : kj_none();
                if (!st)
                    return NULL;
                if (st->kind != KJ_T_NONE && !kj_is_intlike(st))
                    FAIL(c, i, NULL, "slice bounds must be integers, got %s", st->name);
            }
            if (i->kids[2] || i->kids[0] || i->kids[1])
                sliced = true;
            leading_ints = leading_ints && false;
            i->type = kj_none();
            continue;
        }
        if (kj_is_newaxis(i)) {
            sliced = true;   /* the view keeps no layout */
            continue;
        }
        const kj_type *it = kj_infer_sub(c, i);
        if (!it)
            return NULL;
        if (!kj_is_intlike(it))
            FAIL(c, i, "Convert the index with int().",
                           "array index must be an integer, got %s", it->name);
        if (!leading_ints)
            leading_ints = false;
        ints++;
    }
    int nd = t->ndim - ints + newaxes;
    if (nd == 0)
        return t->elem;
    char layout = KJ_LAYOUT_A;
    /* A[i], A[i, :], A[i, j:k] keep C order only when ints lead and the
     * rest are full slices (or one slice on the first remaining axis). */
    bool ints_first = true;
    for (int k = 1; k <= nidx; k++) {
        kj_node *i = n->kids[k];
        if (i->kind != KJ_E_SLICE && k > ints)
            ints_first = false;
    }
    if (t->layout == KJ_LAYOUT_C && ints_first && !sliced)
        layout = KJ_LAYOUT_C;
    return kj_array(t->elem, nd, layout, t->readonly);
}

const kj_type *kj_infer_contains_type(ti *c, kj_node *n, const kj_type *x, const kj_type *container) {
    x = x->kind == KJ_T_OPTIONAL ? x->elem : x;
    if (container->kind == KJ_T_DICT || container->kind == KJ_T_SET) {   /* a key of the table's type, or none of its keys */
        const kj_type *key = container->kind == KJ_T_SET ? container->elem : container->n ? container->elems[0] : NULL;
        if (key && !kj_can_convert(x, key))
            FAIL(c, n, NULL, "`in` needs a %.200s key for a %.400s, got %.200s", key->name, container->name, x->name);
        return kj_bool();
    }
    if (x->kind == KJ_T_STR && container->kind == KJ_T_TUPLE && (container->n == 0 || (kj_is_uniform_tuple(container) && container->elems[0] == x)))
        return kj_bool();   /* method in ("linear", "nearest") */
    bool ok = kj_is_number(x) &&
              ((container->kind == KJ_T_LIST && (!container->elem || container->elem->kind != KJ_T_ARRAY)) || (container->kind == KJ_T_ARRAY && container->ndim == 1) ||
               (container->kind == KJ_T_TUPLE && kj_is_uniform_tuple(container) && kj_is_number(container->elems[0])) ||
               (container->kind == KJ_T_TUPLE && container->n == 0));
    if (!ok)
        FAIL(c, n, NULL, "`in` needs a number and a list, a 1-d array or a tuple of numbers, or a string and a tuple of strings, got %s and %s", x->name,
             container->name);
    return kj_bool();
}
