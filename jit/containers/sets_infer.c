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

static const kj_type *value(kj_infer_ctx *c, kj_node *k) {
    const kj_type *t = k ? kj_infer_sub(c, k) : NULL;
    return t && t->kind == KJ_T_OPTIONAL ? t->elem : t;
}

bool kj_set_items_of(kj_infer_ctx *c, kj_node *at, const kj_type *t, const kj_type **e) {
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
        kj_infer_problem(c, at, KJ_SET_ITEMS_HINT, what);
        return false;
    }
    *e = it;
    return true;
}

const kj_type *kj_set_joined(kj_infer_ctx *c, kj_node *at, const kj_type *a, const kj_type *b) {
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
            FAIL(c, n->kids[i], KJ_SET_ITEMS_HINT, "a set in compiled code cannot hold %s items", e->name);
        if (!(t = kj_set_joined(c, n->kids[i], t->elem, e)))
            return NULL;
    }
    return t;
}

const kj_type *kj_set_binop_type(kj_infer_ctx *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b) {
    if (a->kind != KJ_T_SET || b->kind != KJ_T_SET || (op != KJ_OP_BITOR && op != KJ_OP_BITAND && op != KJ_OP_SUB && op != KJ_OP_BITXOR))
        FAIL(c, n, "Sets take | & - ^ with sets; a.union(b) and the other methods take any iterable.",
             "unsupported operand types for this operator: %s and %s", a->name, b->name);
    /* & and -: a's items (those b has, or has not) */
    return op == KJ_OP_BITAND || op == KJ_OP_SUB ? a : kj_set_joined(c, n, a->elem, b->elem);
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
    return kj_set_items_of(c, n->kids[1], args[0], &e) ? kj_set(e) : NULL;
}
