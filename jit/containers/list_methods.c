/* list_methods: the methods of lists in compiled code, each a registry
 * entry "list.<name>" (callables.h) with its typing and its lowering:
 * append, extend, pop, insert, remove, sort, reverse, clear, copy, index
 * and count, as Python's. */
#include "jit/containers/lists.h"
#include "jit/containers/methods.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/lower/lower_nrt.h"

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }
/* Gives the list variable the item type t when it was `[]` so far; and
 * the variable holding a list of such lists (adj[u].append(v) on
 * adj = [[] for _ in range(n)]) a list of lists of t. */
static const kj_type *refine(kj_infer_ctx *c, kj_node *n, const kj_type *self, const kj_type *t) {
    if (self->elem)
        return self;
    kj_node *r = n->kids[0];
    if (r->kind == KJ_E_LOCAL && kj_infer_assign_local(c, r->slot, kj_list(t), n) < 0)
        return NULL;
    if (r->kind == KJ_E_INDEX && r->kids[0]->kind == KJ_E_LOCAL && r->kids[0]->type && r->kids[0]->type->kind == KJ_T_LIST &&
        r->kids[0]->type->elem == self && kj_infer_assign_local(c, r->kids[0]->slot, kj_list(kj_list(t)), n) < 0)
        return NULL;
    return kj_list(t);
}

/* Whether the list's items have a type, which every method but append
 * and extend needs; reported if not. */
static bool items_typed(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    if (self->elem)
        return true;
    kj_infer_problem(c, n, "Append to the list first, so its items have a type.", "the items of this list have no type yet");
    return false;
}

/* ---- growing ---- */

static const kj_type *append_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 1)
        return kj_method_refused(c, n, self);
    if (!kj_list_item_type(a[0]))
        FAIL(c, n, KJ_LIST_ITEMS_HINT, KJ_LIST_ITEMS_WHAT, a[0]->name);
    const kj_type *l = refine(c, n, self, a[0]);
    if (!l)
        return NULL;
    if (!kj_can_convert(a[0], l->elem))
        FAIL(c, n, NULL, "cannot append %s to a list of %s", a[0]->name, l->elem->name);
    return kj_none();
}

static LLVMValueRef append_lower(kj_lw *w, kj_node *n) {
    const kj_type *e = kj_method_self_type(n)->elem ? kj_method_self_type(n)->elem : n->kids[1]->type;
    LLVMValueRef list = kj_method_self(w, n), v = kj_lower_expr(w, n->kids[1]);   /* in Python's order */
    kj_list_push(w, list, e, v, n->kids[1]->type);
    return kj_method_none(w);
}

static const kj_type *extend_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 1)
        return kj_method_refused(c, n, self);
    if (a[0]->kind != KJ_T_LIST)
        FAIL(c, n, "Convert with list(...) first.", "extend takes a list here, got %s", a[0]->name);
    const kj_type *e = a[0]->elem;
    if (e && !refine(c, n, self, e))
        return NULL;
    if (e && self->elem && e != self->elem)
        FAIL(c, n, NULL, "cannot extend a list of %s with a list of %s", self->elem->name, e->name);
    return kj_none();
}

static LLVMValueRef extend_lower(kj_lw *w, kj_node *n) {
    const kj_type *ot = n->kids[1]->type;
    LLVMValueRef list = kj_method_self(w, n), other = kj_lower_expr(w, n->kids[1]);
    if (ot->elem)
        kj_list_check_memory(w, kj_call(w, "kj_list_extend", w->i32, 3, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64},
                                        (LLVMValueRef[]){list, other, kj_np_itemsize(w, ot->elem)}));
    return kj_method_none(w);
}

static const kj_type *insert_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (!items_typed(c, n, self))
        return NULL;
    if (na != 2 || !kj_is_intlike(a[0]) || !kj_list_item_type(a[1]) || !kj_can_convert(a[1], self->elem))
        return kj_method_refused(c, n, self);
    return kj_none();
}

static LLVMValueRef insert_lower(kj_lw *w, kj_node *n) {
    const kj_type *e = kj_method_self_type(n)->elem;
    LLVMValueRef list = kj_method_self(w, n), i = kj_np_value(w, n->kids[1], KJ_I64);
    LLVMValueRef slot = kj_list_item_slot(w, list, e, kj_lower_expr(w, n->kids[2]), n->kids[2]->type);
    kj_list_check_memory(w, kj_call(w, "kj_list_insert", w->i32, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->ptr, w->i64},
                                    (LLVMValueRef[]){list, i, slot, kj_np_itemsize(w, e)}));
    return kj_method_none(w);
}

/* ---- shrinking ---- */

static const kj_type *pop_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (!items_typed(c, n, self))
        return NULL;
    if (na > 1 || (na == 1 && !kj_is_intlike(a[0])))
        return kj_method_refused(c, n, self);
    return self->elem;
}

static LLVMValueRef pop_lower(kj_lw *w, kj_node *n) {
    const kj_type *e = kj_method_self_type(n)->elem;
    LLVMValueRef list = kj_method_self(w, n);
    /* the index first: Python evaluates the argument (and its errors) before pop looks at the list */
    LLVMValueRef at = n->nkids > 1 ? kj_lower_expr(w, n->kids[1]) : NULL, len = kj_list_len(w, list);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), ""), PyExc_IndexError, "pop from empty list");
    LLVMValueRef i = at ? kj_list_index(w, at, n->kids[1]->type, len, "pop index out of range")
                        : LLVMBuildSub(w->b, len, c64(w, 1), "");
    LLVMValueRef v = kj_list_get(w, list, e, i);
    kj_call(w, "kj_list_remove_at", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->i64}, (LLVMValueRef[]){list, i});
    return kj_list_holds_owners(e) ? kj_nrt_temp(w, v, e) : v;   /* the list's reference passes to the statement */
}

/* reverse() and clear(): no arguments, nothing back. */
static const kj_type *in_place_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    if (!items_typed(c, n, self))
        return NULL;
    return na == 0 ? kj_none() : kj_method_refused(c, n, self);
}

/* The runtime's function fn of the list alone. */
static LLVMValueRef call_on_list(kj_lw *w, kj_node *n, const char *fn) {
    LLVMValueRef list = kj_method_self(w, n);
    kj_call(w, fn, w->vd, 1, (LLVMTypeRef[]){w->ptr}, &list);
    return kj_method_none(w);
}

static LLVMValueRef reverse_lower(kj_lw *w, kj_node *n) { return call_on_list(w, n, "kj_list_reverse"); }
static LLVMValueRef clear_lower(kj_lw *w, kj_node *n) { return call_on_list(w, n, "kj_list_clear"); }

/* ---- order ---- */

static const kj_type *sort_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    if (!items_typed(c, n, self))
        return NULL;
    if (na != 0)
        return kj_method_refused(c, n, self);
    if (self->elem->kind == KJ_T_ARRAY || self->elem->kind == KJ_T_LIST)
        FAIL(c, n, "Sort by a key you compute: a list of (key, index) tuples.", "a list of %s cannot be sorted",
             self->elem->kind == KJ_T_ARRAY ? "arrays" : "lists");
    if (!kj_list_orderable(self->elem))
        FAIL(c, n, NULL, "complex numbers cannot be ordered");
    return kj_none();
}

static LLVMValueRef sort_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef list = kj_method_self(w, n), reverse = LLVMConstInt(w->i1, 0, 0);
    if (n->nkids > 1)   /* reverse=, the one keyword typing let through */
        reverse = kj_truth(w, kj_lower_expr(w, n->kids[1]->kids[0]), n->kids[1]->kids[0]->type);
    kj_list_sort_items(w, n, list, kj_method_self_type(n)->elem, LLVMBuildZExt(w->b, reverse, w->i64, ""));
    return kj_method_none(w);
}

/* ---- copies and searches ---- */

static const kj_type *copy_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    if (!items_typed(c, n, self))
        return NULL;
    return na == 0 ? self : kj_method_refused(c, n, self);
}

static LLVMValueRef copy_lower(kj_lw *w, kj_node *n) { return kj_list_copy(w, kj_method_self(w, n), kj_method_self_type(n)); }

/* index(x) and count(x) of a number, among items that are numbers; and
 * remove(x), which gives None. */
static const kj_type *search_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (!items_typed(c, n, self))
        return NULL;
    kj_kind e = self->elem->kind;
    if (na != 1 || !kj_is_number(a[0]) || e == KJ_T_TUPLE || e == KJ_T_ARRAY || e == KJ_T_LIST)
        return kj_method_refused(c, n, self);
    return KJ_I64;
}

static const kj_type *remove_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return search_type(c, n, self, na, a) ? kj_none() : NULL;
}

/* The first index of the argument among the items of list (is_index;
 * ValueError(missing) where none equals it), or how many items equal it. */
static LLVMValueRef search(kj_lw *w, kj_node *n, LLVMValueRef list, bool is_index, const char *missing) {
    const kj_type *e = kj_method_self_type(n)->elem;
    LLVMValueRef len = kj_list_len(w, list), x = kj_lower_expr(w, n->kids[1]);
    LLVMValueRef acc = kj_entry_alloca(w, w->i64, "acc");
    LLVMBuildStore(w->b, c64(w, is_index ? -1 : 0), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef hit = kj_np_elem_op(w, n, "equal", 2, (LLVMValueRef[]){kj_list_get(w, list, e, i), x},
                                     (const kj_type *[]){e, n->kids[1]->type}, kj_bool());
    LLVMValueRef cur = LLVMBuildLoad2(w->b, w->i64, acc, "");
    if (is_index)   /* the first hit */
        LLVMBuildStore(w->b, LLVMBuildSelect(w->b, LLVMBuildAnd(w->b, hit, LLVMBuildICmp(w->b, LLVMIntSLT, cur, c64(w, 0), ""), ""), i, cur, ""), acc);
    else
        LLVMBuildStore(w->b, LLVMBuildAdd(w->b, cur, LLVMBuildZExt(w->b, hit, w->i64, ""), ""), acc);
    kj_np_loop_end(w, &l);
    LLVMValueRef r = LLVMBuildLoad2(w->b, w->i64, acc, "");
    if (is_index)
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, r, c64(w, 0), ""), PyExc_ValueError, missing);
    return r;
}

static LLVMValueRef index_lower(kj_lw *w, kj_node *n) {
    return search(w, n, kj_method_self(w, n), true, "list.index(x): x not in list");
}

static LLVMValueRef count_lower(kj_lw *w, kj_node *n) { return search(w, n, kj_method_self(w, n), false, NULL); }

static LLVMValueRef remove_lower(kj_lw *w, kj_node *n) {   /* the first item equal to the argument */
    LLVMValueRef list = kj_method_self(w, n), i = search(w, n, list, true, "list.remove(x): x not in list");
    kj_call(w, "kj_list_remove_at", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->i64}, (LLVMValueRef[]){list, i});
    return kj_method_none(w);
}

KJ_METHOD(append, "list.append", append_type, append_lower);
KJ_METHOD(extend, "list.extend", extend_type, extend_lower);
KJ_METHOD(insert, "list.insert", insert_type, insert_lower);
KJ_METHOD(pop, "list.pop", pop_type, pop_lower);
KJ_METHOD(reverse, "list.reverse", in_place_type, reverse_lower);
KJ_METHOD(clear, "list.clear", in_place_type, clear_lower);
KJ_CALLABLE(sort, .name = "list.sort", .targets = KJ_ON_HOST, .method_type = sort_type, .lower = sort_lower,
            .keyword = "reverse");
KJ_METHOD(copy, "list.copy", copy_type, copy_lower);
KJ_METHOD(index, "list.index", search_type, index_lower);
KJ_METHOD(count, "list.count", search_type, count_lower);
KJ_METHOD(remove, "list.remove", remove_type, remove_lower);
