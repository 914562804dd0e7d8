/* lists_infer: the types of lists in compiled code. A list holds items
 * of one type: numbers, tuples of numbers, or arrays (of one dtype, number
 * of dimensions and layout, as in Numba); `[]` starts as list(undefined)
 * and takes the type of the first thing appended to it (the variable is
 * given the precise type, as an assignment would). */
#include "jit/containers/lists.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *value(kj_infer_ctx *c, kj_node *k) {
    const kj_type *t = k ? kj_infer_sub(c, k) : NULL;
    return t && t->kind == KJ_T_OPTIONAL ? t->elem : t;
}

/* A number or a bool, or a tuple of them (and of such tuples). */
static const kj_type *number_item(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!number_item(t->elems[i]))
                return NULL;
        return t->n > 0 ? t : NULL;
    }
    return t->kind == KJ_T_BOOL ? t : kj_is_number(t) ? t : NULL;
}

const kj_type *kj_list_item_type(const kj_type *t) {
    if (t->kind == KJ_T_LIST)
        return !t->elem || kj_list_item_type(t->elem) ? t : NULL;
    return t->kind == KJ_T_ARRAY ? t : number_item(t);
}

bool kj_list_orderable(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kj_list_orderable(t->elems[i]))
                return false;
        return true;
    }
    return t->kind != KJ_T_COMPLEX && t->kind != KJ_T_ARRAY && t->kind != KJ_T_LIST;
}

#define ARRAYS_HINT "Loop over the list, or stack its arrays first: np.stack((a, b))."

/* A comprehension's target: a name, or a tuple of targets like it. */
static bool names_only(const kj_node *t) {
    if (t->kind == KJ_E_LOCAL)
        return true;
    if (t->kind != KJ_E_TUPLE)
        return false;
    for (int i = 0; i < t->nkids; i++)
        if (!names_only(t->kids[i]))
            return false;
    return true;
}

const kj_type *kj_list_expr_type(kj_infer_ctx *c, kj_node *n) {
    if (n->kind == KJ_E_LIST) {
        const kj_type *u = NULL;
        for (int i = 0; i < n->nkids; i++) {
            const kj_type *t = value(c, n->kids[i]);
            if (!t)
                return NULL;
            if (!kj_list_item_type(t))
                FAIL(c, n->kids[i], KJ_LIST_ITEMS_HINT, KJ_LIST_ITEMS_WHAT, t->name);
            const kj_type *v = kj_unify(u, t);
            if (!v)
                FAIL(c, n, NULL, "a list holds one type of item; this one mixes %s and %s", u->name, t->name);
            u = v;
        }
        return kj_list(u);
    }
    const kj_type *t = kj_comprehension_item_type(c, n);
    if (!t)
        return NULL;
    if (t == kj_never())   /* an item never comes back: done, the list is empty, as `[]` */
        return kj_list(NULL);
    if (!kj_list_item_type(t))
        FAIL(c, n->kids[0], KJ_LIST_ITEMS_HINT, KJ_LIST_ITEMS_WHAT, t->name);
    return kj_list(t);
}

const kj_type *kj_comprehension_item_type(kj_infer_ctx *c, kj_node *n) {
    const kj_type *it = value(c, n->kids[2]);
    if (!it)
        return NULL;
    if (it == kj_never())   /* the loop never starts (infer.c marks n as never too); its names are typed as never */
        return kj_infer_assign_target(c, n->kids[1], it, n) < 0 ? NULL : it;
    const kj_type *e = kj_iter_elem(it);
    if (!e || it->kind == KJ_T_TUPLE)
        FAIL(c, n->kids[2], "Loop over range(), an array, a list, enumerate(), zip(), np.ndindex() or np.ndenumerate().",
             "a comprehension cannot loop over %s", it->name);
    if (!names_only(n->kids[1]))
        FAIL(c, n->kids[1], "Use a name, or a tuple of names to unpack.",
             "the target of a comprehension must be names");
    if (kj_infer_assign_target(c, n->kids[1], e, n) < 0)
        return NULL;
    for (int i = 3; i < n->nkids; i++)
        if (!value(c, n->kids[i]))
            return NULL;
    return value(c, n->kids[0]);
}

const kj_type *kj_list_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    if (n->nkids != 2)
        FAIL(c, n, NULL, "a list takes one index");
    kj_node *i = n->kids[1];
    if (!self->elem)
        FAIL(c, n, "Append to the list first.", "the items of this list have no type yet");
    if (i->kind == KJ_E_SLICE) {
        for (int s = 0; s < 3; s++) {
            const kj_type *st = i->kids[s] ? value(c, i->kids[s]) : kj_none();
            if (!st)
                return NULL;
            if (st->kind != KJ_T_NONE && !kj_is_intlike(st))
                FAIL(c, i, NULL, "slice bounds must be integers, got %s", st->name);
        }
        i->type = kj_none();
        return self;
    }
    const kj_type *it = value(c, i);
    if (!it)
        return NULL;
    if (!kj_is_intlike(it))
        FAIL(c, i, NULL, "list indices must be integers, not %s", it->name);
    return self->elem;
}

const kj_type *kj_list_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b) {
    if (op == KJ_OP_MUL && (a->kind == KJ_T_LIST) != (b->kind == KJ_T_LIST) && kj_is_intlike(a->kind == KJ_T_LIST ? b : a))
        return a->kind == KJ_T_LIST ? a : b;   /* [0] * n */
    if (op == KJ_OP_ADD && a->kind == KJ_T_LIST && b->kind == KJ_T_LIST) {
        if (!a->elem || !b->elem)
            return a->elem ? a : b;
        const kj_type *u = kj_unify(a->elem, b->elem);
        if (u && (kj_is_number(u) || u == a->elem))   /* numbers promote; other items must match */
            return kj_list(u);
        FAIL(c, n, NULL, "cannot join a list of %s and a list of %s", a->elem->name, b->elem->name);
    }
    FAIL(c, n, "Lists take + with a list and * with an int.", "unsupported operand types for this operator: %s and %s",
         a->name, b->name);
}

const kj_type *kj_list_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled) {
    *handled = false;
    if (!strcmp(name, "list")) {
        *handled = true;
        if (nargs == 0)
            return kj_list(NULL);
        const kj_type *e = nargs == 1 ? kj_iter_elem(args[0]) : NULL;
        /* not list(m) of a 2-d array: a.tolist() is written as list(a), and NumPy's gives lists of numbers */
        if (!e || !number_item(e) || args[0]->kind == KJ_T_ZIP || args[0]->kind == KJ_T_ENUMERATE)
            FAIL(c, n, "a.tolist() is list(a) in compiled code: of a 1-d array only.",
                 "list() takes a range, a 1-d array, a tuple of numbers or a list here");
        return kj_list(e);
    }
    /* over a list, or over a 1-d array as Python iterates one (sum adds in
     * order from 0, min and max keep the first of equal items and let a NaN
     * through only from the front, as Python's do, unlike np.sum and np.max),
     * or over a set, a dict's keys or one of its views, in their order (sets.h, dicts.h) */
    bool table = nargs >= 1 && (args[0]->kind == KJ_T_SET || args[0]->kind == KJ_T_DICT || args[0]->kind == KJ_T_DICTVIEW);
    bool vector = nargs >= 1 && ((args[0]->kind == KJ_T_ARRAY && args[0]->ndim == 1) || table) && strcmp(name, "len") != 0;
    bool truth = !strcmp(name, "any") || !strcmp(name, "all");
    if (nargs < 1 || (args[0]->kind != KJ_T_LIST && !vector) ||
        (strcmp(name, "len") && strcmp(name, "sum") && strcmp(name, "min") && strcmp(name, "max") &&
         strcmp(name, "sorted") && !truth))
        return NULL;
    *handled = true;
    const kj_type *e = table ? kj_iter_elem(args[0]) : args[0]->elem;
    if (!strcmp(name, "len") && nargs == 1)
        return KJ_I64;
    if (truth && nargs == 1 && (!e || kj_is_number(e) || e->kind == KJ_T_BOOL))
        return kj_bool();   /* of `[]`: any is False, all is True */
    bool reverse = nargs == 2 && n->kids[2]->kind == KJ_E_KEYWORD && !strcmp(n->kids[2]->name, "reverse");
    if (!e && !strcmp(name, "sorted") && (nargs == 1 || reverse) && kj_holds_nothing(args[0]))
        return kj_list(NULL);   /* of what holds nothing: an empty list, as sorted(set()) */
    if (!e && !strcmp(name, "sum") && nargs == 1 && kj_holds_nothing(args[0]))
        return KJ_I64;   /* of what holds nothing: Python's start, 0 */
    if (!e)
        FAIL(c, n, "Add to it first.", "the items of this %s have no type yet", table ? "set or dict" : "list");
    if (!strcmp(name, "sorted") && (nargs == 1 || reverse) && kj_list_orderable(e))
        return vector ? kj_list(e) : args[0];   /* sorted(a): a list of a's numbers */
    if (e->kind == KJ_T_TUPLE)
        FAIL(c, n, "Loop over the list instead.", "%s() of a list of tuples is not supported in compiled code", name);
    if (e->kind == KJ_T_ARRAY)
        FAIL(c, n, ARRAYS_HINT, "%s() of a list of arrays is not supported in compiled code", name);
    if (e->kind == KJ_T_LIST)
        FAIL(c, n, "Loop over the list instead.", "%s() of a list of lists is not supported in compiled code", name);
    if (!strcmp(name, "sum") && nargs == 1)
        return kj_is_intlike(e) ? KJ_I64 : e;
    if ((!strcmp(name, "min") || !strcmp(name, "max")) && nargs == 1 && e->kind != KJ_T_COMPLEX)
        return e;
    FAIL(c, n, NULL, "%s() of a list is not supported in compiled code", name);
}
