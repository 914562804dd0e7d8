/* set_methods: the methods of sets in compiled code, each a registry entry
 * "set.<name>" (callables.h) with its typing and its lowering: add,
 * discard, remove, pop, clear, copy, update, union, intersection,
 * difference, symmetric_difference, issubset, issuperset and isdisjoint,
 * as Python's. The methods that take iterables take any a set can be made
 * of (sets.h). */
#include "jit/containers/dicts.h"
#include "jit/containers/sets.h"
#include "jit/containers/methods.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"

#define FAIL KJ_INFER_FAIL

/* Gives the set variable (node s) type t when it was set() so far. */
static const kj_type *refine(kj_infer_ctx *c, kj_node *s, kj_node *at, const kj_type *self, const kj_type *t) {
    if (self->elem || !t)
        return t;
    if (s->kind != KJ_E_LOCAL)
        FAIL(c, at, "Give the set a name first: s = set().", "the item type of this set is not known yet");
    return kj_infer_assign_local(c, s->slot, t, at) < 0 ? NULL : t;
}

/* Whether the set's items have a type, which taking items out needs;
 * reported if not. */
static bool items_typed(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    if (self->elem)
        return true;
    kj_infer_problem(c, n, "Add to the set first.", "the item type of this set is not known yet");
    return false;
}

/* ---- one item ---- */

static const kj_type *add_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 1)
        return kj_method_refused(c, n, self);
    const kj_type *t = self;
    if (!kj_dict_key_ok(a[0]))
        FAIL(c, n, KJ_SET_ITEMS_HINT, "a set in compiled code cannot hold %s items", a[0]->name);
    if (!self->elem)
        t = kj_set(a[0]);
    else if (!kj_can_convert(a[0], self->elem))
        FAIL(c, n, NULL, "cannot add %.200s to a %.400s", a[0]->name, self->name);
    return refine(c, n->kids[0], n, self, t) ? kj_none() : NULL;
}

static LLVMValueRef add_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef s = kj_method_self(w, n), x = kj_lower_expr(w, n->kids[1]);   /* in Python's order */
    kj_set_add(w, s, kj_method_self_type(n), x, n->kids[1]->type);
    return kj_method_none(w);
}

/* discard(x) and remove(x), which raises KeyError where x is absent. */
static const kj_type *discard_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (!items_typed(c, n, self))
        return NULL;
    if (na != 1)
        return kj_method_refused(c, n, self);
    if (!kj_dict_key_ok(a[0]) || !kj_can_convert(a[0], self->elem))
        FAIL(c, n->kids[1], NULL, "a %s has no %s items", self->name, a[0]->name);
    return kj_none();
}

/* Takes the argument out of the set, raising KeyError where it was absent if must. */
static LLVMValueRef take_out(kj_lw *w, kj_node *n, bool must) {
    kj_node *arg = n->kids[1];
    LLVMValueRef s = kj_method_self(w, n), x = kj_lower_expr(w, arg), there = kj_set_take(w, s, kj_method_self_type(n), x, arg->type);
    if (must)
        kj_dict_key_error_if(w, LLVMBuildNot(w->b, there, ""), x, arg->type);
    return kj_method_none(w);
}

static LLVMValueRef discard_lower(kj_lw *w, kj_node *n) { return take_out(w, n, false); }
static LLVMValueRef remove_lower(kj_lw *w, kj_node *n) { return take_out(w, n, true); }

static const kj_type *pop_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    if (!items_typed(c, n, self))
        return NULL;
    return na == 0 ? self->elem : kj_method_refused(c, n, self);
}

static LLVMValueRef pop_lower(kj_lw *w, kj_node *n) {   /* the first item, as a loop gives it */
    const kj_type *st = kj_method_self_type(n);
    LLVMValueRef s = kj_method_self(w, n), out = kj_entry_alloca(w, kj_llmemtype(w, st->elem), "popped");
    LLVMValueRef got = kj_call(w, "kj_set_pop_first", w->i32, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){s, out});
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, got, LLVMConstInt(w->i32, 0, 0), ""), PyExc_KeyError,
                "pop from an empty set");
    return kj_np_load(w, out, st->elem);
}

/* ---- the whole set ---- */

static const kj_type *clear_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    return na == 0 ? kj_none() : kj_method_refused(c, n, self);
}

static const kj_type *copy_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    return na == 0 ? self : kj_method_refused(c, n, self);
}

static LLVMValueRef clear_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef s = kj_method_self(w, n);
    kj_call(w, "kj_dict_clear", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &s);
    return kj_method_none(w);
}

static LLVMValueRef copy_lower(kj_lw *w, kj_node *n) {
    const kj_type *st = kj_method_self_type(n);
    return kj_set_copy(w, kj_method_self(w, n), st, st);
}

/* ---- with other iterables ---- */

/* The type of the set of self's items and those of the other iterables
 * typed a (join), or of self's alone (!join); NULL after reporting. */
static const kj_type *with_others(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a,
                                  bool join) {
    const kj_type *t = self;
    for (int i = 0; i < na && t; i++) {
        const kj_type *e;
        if (!kj_set_items_of(c, n->kids[i + 1], a[i], &e))
            return NULL;
        if (join)
            t = kj_set_joined(c, n, t->elem, e);
    }
    return t;
}

static const kj_type *update_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na == 0)
        return kj_method_refused(c, n, self);
    const kj_type *t = with_others(c, n, self, na, a, true);
    return t && refine(c, n->kids[0], n, self, t) ? kj_none() : NULL;
}

static const kj_type *union_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return na == 0 ? kj_method_refused(c, n, self) : with_others(c, n, self, na, a, true);
}

/* intersection and difference: some of self's items */
static const kj_type *narrowing_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return na == 0 ? kj_method_refused(c, n, self) : with_others(c, n, self, na, a, false);
}

static const kj_type *symmetric_difference_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na,
                                                const kj_type *const *a) {
    return na != 1 ? kj_method_refused(c, n, self) : with_others(c, n, self, na, a, true);
}

/* issubset, issuperset and isdisjoint */
static const kj_type *test_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 1)
        return kj_method_refused(c, n, self);
    return with_others(c, n, self, na, a, false) ? kj_bool() : NULL;
}

static LLVMValueRef update_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef s = kj_method_self(w, n);
    for (int i = 1; i < n->nkids; i++)
        kj_set_add_all(w, s, kj_method_self_type(n), n->kids[i]);
    return kj_method_none(w);
}

static LLVMValueRef union_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef r = kj_set_copy(w, kj_method_self(w, n), kj_method_self_type(n), n->type);
    for (int i = 1; i < n->nkids; i++)
        kj_set_add_all(w, r, n->type, n->kids[i]);
    return r;
}

/* The set of iterable node n's items, *t its type: n itself when a set. */
static LLVMValueRef as_set(kj_lw *w, kj_node *n, const kj_type **t) {
    if (n->type->kind == KJ_T_SET) {
        *t = n->type;
        return kj_lower_expr(w, n);
    }
    *t = kj_set(kj_iter_elem(n->type));
    LLVMValueRef s = kj_set_new(w, *t);
    kj_set_add_all(w, s, *t, n);
    return s;
}

/* The items of self that all other iterables have (keep), or none has. */
static LLVMValueRef filtered(kj_lw *w, kj_node *n, bool keep) {
    const kj_type *st = kj_method_self_type(n), *t = n->type;
    LLVMValueRef s = kj_method_self(w, n);
    int k = n->nkids - 1;
    LLVMValueRef others[k];
    const kj_type *ots[k];
    for (int i = 0; i < k; i++)
        others[i] = as_set(w, n->kids[i + 1], &ots[i]);
    LLVMValueRef r = kj_set_new(w, t);
    kj_set_filter(w, s, st, k, others, ots, keep, r, t);
    return r;
}

static LLVMValueRef intersection_lower(kj_lw *w, kj_node *n) { return filtered(w, n, true); }
static LLVMValueRef difference_lower(kj_lw *w, kj_node *n) { return filtered(w, n, false); }

/* The set and the one other iterable of a method, as sets. */
typedef struct {
    LLVMValueRef s, o;
    const kj_type *st, *ot;
} set_pair;

static set_pair pair_of(kj_lw *w, kj_node *n) {
    set_pair p = {.s = kj_method_self(w, n), .st = kj_method_self_type(n)};
    p.o = as_set(w, n->kids[1], &p.ot);
    return p;
}

static LLVMValueRef symmetric_difference_lower(kj_lw *w, kj_node *n) {
    set_pair p = pair_of(w, n);
    return kj_set_binop(w, KJ_OP_BITXOR, p.s, p.st, p.o, p.ot, n->type);
}

static LLVMValueRef issubset_lower(kj_lw *w, kj_node *n) {
    set_pair p = pair_of(w, n);
    return kj_set_in_other(w, p.s, p.st, p.o, p.ot, true);
}

static LLVMValueRef issuperset_lower(kj_lw *w, kj_node *n) {
    set_pair p = pair_of(w, n);
    return kj_set_in_other(w, p.o, p.ot, p.s, p.st, true);
}

static LLVMValueRef isdisjoint_lower(kj_lw *w, kj_node *n) {
    set_pair p = pair_of(w, n);
    return LLVMBuildNot(w->b, kj_set_in_other(w, p.s, p.st, p.o, p.ot, false), "");
}

KJ_METHOD(add, "set.add", add_type, add_lower);
KJ_METHOD(discard, "set.discard", discard_type, discard_lower);
KJ_METHOD(remove, "set.remove", discard_type, remove_lower);
KJ_METHOD(pop, "set.pop", pop_type, pop_lower);
KJ_METHOD(clear, "set.clear", clear_type, clear_lower);
KJ_METHOD(copy, "set.copy", copy_type, copy_lower);
KJ_METHOD(update, "set.update", update_type, update_lower);
KJ_METHOD(union, "set.union", union_type, union_lower);
KJ_METHOD(intersection, "set.intersection", narrowing_type, intersection_lower);
KJ_METHOD(difference, "set.difference", narrowing_type, difference_lower);
KJ_METHOD(symmetric_difference, "set.symmetric_difference", symmetric_difference_type, symmetric_difference_lower);
KJ_METHOD(issubset, "set.issubset", test_type, issubset_lower);
KJ_METHOD(issuperset, "set.issuperset", test_type, issuperset_lower);
KJ_METHOD(isdisjoint, "set.isdisjoint", test_type, isdisjoint_lower);
