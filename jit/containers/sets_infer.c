/* sets_infer: the types of sets in compiled code (sets.h). set() starts as
 * set(undefined) and takes its item type from the first add, as `[]` does
 * from the first append (the variable is given the precise type, as an
 * assignment would). */
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"
#include "jit/containers/sets.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL
#define ITEMS_HINT "Set items are numbers or tuples of ints; use a NumPy array (np.unique) for anything else."

static const kj_type *value(kj_infer_ctx *c, kj_node *k) {
    const kj_type *t = k ? kj_infer_sub(c, k) : NULL;
    return t && t->kind == KJ_T_OPTIONAL ? t->elem : t;
}

/* The set a set of type self becomes when items of type t go in. */
static const kj_type *added(kj_infer_ctx *c, kj_node *at, const kj_type *self, const kj_type *t) {
    if (!kj_dict_key_ok(t))
        FAIL(c, at, ITEMS_HINT, "a set in compiled code cannot hold %s items", t->name);
    if (!self->elem)
        return kj_set(t);
    if (!kj_can_convert(t, self->elem))
        FAIL(c, at, NULL, "cannot add %.200s to a %.400s", t->name, self->name);
    return self;
}

/* Gives the set variable (node s) type t when it was set() so far. */
static const kj_type *refine(kj_infer_ctx *c, kj_node *s, kj_node *at, const kj_type *self, const kj_type *t) {
    if (self->elem || !t)
        return t;
    if (s->kind != KJ_E_LOCAL)
        FAIL(c, at, "Give the set a name first: s = set().", "the item type of this set is not known yet");
    return kj_infer_assign_local(c, s->slot, t, at) < 0 ? NULL : t;
}

/* The items of iterable t (a set, list, 1-d array, range, tuple or dict)
 * as a set's item type, in *e (NULL while nothing is in it yet); false
 * when it cannot give set items (reported). */
static bool items_of(kj_infer_ctx *c, kj_node *at, const kj_type *t, const kj_type **e) {
    *e = NULL;
    if (t->kind == KJ_T_SET || (t->kind == KJ_T_LIST && !t->elem) || (t->kind == KJ_T_DICT && !t->n)) {
        *e = t->kind == KJ_T_SET ? t->elem : NULL;
        return true;
    }
    const kj_type *it = t->kind == KJ_T_ZIP || t->kind == KJ_T_ENUMERATE ? NULL : kj_iter_elem(t);
    if (!it) {
        kj_infer_problem(c, at, NULL, "a set takes the items of a set, list, 1-d array, range, tuple or dict");
        return false;
    }
    if (!kj_dict_key_ok(it)) {
        char what[600];
        snprintf(what, sizeof what, "a set in compiled code cannot hold %s items", it->name);
        kj_infer_problem(c, at, ITEMS_HINT, what);
        return false;
    }
    *e = it;
    return true;
}

/* The set of a and b's items: their item types unified. */
static const kj_type *joined(kj_infer_ctx *c, kj_node *at, const kj_type *a, const kj_type *b) {
    if (!a || !b)
        return kj_set(a ? a : b);
    const kj_type *u = kj_unify(a, b);
    if (!u || !kj_dict_key_ok(u))
        FAIL(c, at, NULL, "cannot put %s and %s items in one set", a->name, b->name);
    return kj_set(u);
}

const kj_type *kj_set_expr_type(kj_infer_ctx *c, kj_node *n) {
    const kj_type *t = kj_set(NULL);
    for (int i = 0; i < n->nkids; i++) {
        const kj_type *e = value(c, n->kids[i]);
        if (!e)
            return NULL;
        if (!kj_dict_key_ok(e))
            FAIL(c, n->kids[i], ITEMS_HINT, "a set in compiled code cannot hold %s items", e->name);
        if (!(t = joined(c, n->kids[i], t->elem, e)))
            return NULL;
    }
    return t;
}

const kj_type *kj_set_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b) {
    if (a->kind != KJ_T_SET || b->kind != KJ_T_SET || (op != KJ_OP_BITOR && op != KJ_OP_BITAND && op != KJ_OP_SUB && op != KJ_OP_BITXOR))
        FAIL(c, n, "Sets take | & - ^ with sets; a.union(b) and the other methods take any iterable.",
             "unsupported operand types for this operator: %s and %s", a->name, b->name);
    /* & and -: a's items (those b has, or has not) */
    return op == KJ_OP_BITAND || op == KJ_OP_SUB ? a : joined(c, n, a->elem, b->elem);
}

const kj_type *kj_set_method_type(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    const char *m = n->name;
    int na = n->nkids - 1;
    const kj_type *a[na > 0 ? na : 1];
    for (int i = 0; i < na; i++) {
        if (n->kids[i + 1]->kind == KJ_E_KEYWORD)
            FAIL(c, n, NULL, "set.%s takes no keyword arguments", m);
        if (!(a[i] = value(c, n->kids[i + 1])))
            return NULL;
    }
    if (!strcmp(m, "add") && na == 1)
        return refine(c, n->kids[0], n, self, added(c, n, self, a[0])) ? kj_none() : NULL;
    if ((!strcmp(m, "clear") || !strcmp(m, "copy")) && na == 0)
        return m[1] == 'l' ? kj_none() : self;
    bool many = !strcmp(m, "update") || !strcmp(m, "union") || !strcmp(m, "intersection") || !strcmp(m, "difference");
    bool one = !strcmp(m, "symmetric_difference") || !strcmp(m, "issubset") || !strcmp(m, "issuperset") ||
               !strcmp(m, "isdisjoint");
    if ((many && na >= 1) || (one && na == 1)) {
        const kj_type *t = self;
        for (int i = 0; i < na && t; i++) {
            const kj_type *e;
            if (!items_of(c, n->kids[i + 1], a[i], &e))
                return NULL;
            if (m[0] == 'u' || m[0] == 's')   /* update, union, symmetric_difference: items join */
                t = joined(c, n, t->elem, e);
        }
        if (!t)
            return NULL;
        if (m[0] == 'i' && m[1] == 's')   /* issubset, issuperset, isdisjoint */
            return kj_bool();
        if (!strcmp(m, "update"))
            return refine(c, n->kids[0], n, self, t) ? kj_none() : NULL;
        return t;
    }
    if (!self->elem && (!strcmp(m, "discard") || !strcmp(m, "remove") || !strcmp(m, "pop")))
        FAIL(c, n, "Add to the set first.", "the item type of this set is not known yet");
    if ((!strcmp(m, "discard") || !strcmp(m, "remove")) && na == 1) {
        if (!kj_dict_key_ok(a[0]) || !kj_can_convert(a[0], self->elem))
            FAIL(c, n->kids[1], NULL, "a %s has no %s items", self->name, a[0]->name);
        return kj_none();
    }
    if (!strcmp(m, "pop") && na == 0)
        return self->elem;
    FAIL(c, n,
         "Sets in compiled code have add, discard, remove, pop, clear, copy, update, union, intersection, "
         "difference, symmetric_difference, issubset, issuperset and isdisjoint.",
         "set has no method '%s' with these arguments in compiled code", m);
}

const kj_type *kj_set_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                const kj_type *const *args, bool *handled) {
    *handled = (!strcmp(name, "set") && nargs <= 1) || (!strcmp(name, "len") && nargs == 1 && args[0]->kind == KJ_T_SET);
    if (!*handled)
        return NULL;
    if (name[0] == 'l')
        return KJ_I64;
    if (nargs == 0)
        return kj_set(NULL);
    const kj_type *e;
    return items_of(c, n->kids[1], args[0], &e) ? kj_set(e) : NULL;
}
