/* dict_methods: the methods of dicts in compiled code, each a registry
 * entry "dict.<name>" (callables.h) with its typing and its lowering: get,
 * pop, popitem, setdefault, update, clear, copy, keys, values and items,
 * as Python's. */
#include "jit/containers/dicts.h"
#include "jit/containers/methods.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/lower/lower_nrt.h"

#define FAIL KJ_INFER_FAIL

/* Whether the dict's keys and values have types; reported if not. */
static bool items_typed(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    if (self->n)
        return true;
    kj_infer_problem(c, n, "Store into the dict first.", "the types of this dict are not known yet");
    return false;
}

/* A value taken out of the dict for the statement: where values are
 * arrays, the dict's reference passes to the statement. */
static LLVMValueRef taken(kj_lw *w, const kj_type *dt, LLVMValueRef v, const kj_type *vt) {
    return kj_dict_holds_arrays(dt) ? kj_nrt_temp(w, v, vt) : v;
}

/* ---- the whole dict ---- */

static const kj_type *clear_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    return na == 0 ? kj_none() : kj_method_refused(c, n, self);
}

static LLVMValueRef clear_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef dict = kj_method_self(w, n);
    kj_call(w, "kj_dict_clear", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &dict);
    return kj_method_none(w);
}

static const kj_type *copy_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    return na == 0 ? self : kj_method_refused(c, n, self);
}

static LLVMValueRef copy_lower(kj_lw *w, kj_node *n) {
    LLVMValueRef dict = kj_method_self(w, n);
    LLVMValueRef r = kj_call(w, "kj_dict_copy", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, &dict);
    kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, r, kj_method_self_type(n));
}

static const kj_type *update_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 1)
        return kj_method_refused(c, n, self);
    if (a[0]->kind != KJ_T_DICT)
        FAIL(c, n, "Store the items one by one.", "dict.update takes a dict here, got %s", a[0]->name);
    return !a[0]->n || kj_dict_refine(c, n->kids[0], n, self, kj_dict_stored(c, n, self, a[0]->elems[0], a[0]->elems[1]))
               ? kj_none() : NULL;
}

static LLVMValueRef update_lower(kj_lw *w, kj_node *n) {   /* other's items stored in turn */
    const kj_type *dt = kj_method_self_type(n), *ot = n->kids[1]->type;
    LLVMValueRef dict = kj_method_self(w, n), other = kj_lower_expr(w, n->kids[1]);
    if (!ot->n)
        return kj_method_none(w);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, kj_dict_iter_setup(w, other));
    LLVMValueRef k = kj_dict_iter_item(w, other, ot, 'k', i), v = kj_dict_iter_item(w, other, ot, 'v', i);
    kj_dict_store_at(w, dict, dt, kj_dict_key_slot(w, k, kj_dict_key_type(ot), kj_dict_key_type(dt)), v, kj_dict_value_type(ot));
    kj_np_loop_end(w, &l);
    return kj_method_none(w);
}

/* keys(), values() and items(): views, each its dict, which loops read
 * (lower_iter.c). */
static const kj_type *view_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a,
                                char which) {
    (void)a;   /* a view of a dict that holds nothing is empty too: a loop over it never runs */
    return na == 0 ? kj_dictview(self, which) : kj_method_refused(c, n, self);
}

static const kj_type *keys_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return view_type(c, n, self, na, a, 'k');
}
static const kj_type *values_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return view_type(c, n, self, na, a, 'v');
}
static const kj_type *items_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return view_type(c, n, self, na, a, 'i');
}

static LLVMValueRef view_lower(kj_lw *w, kj_node *n) { return kj_method_self(w, n); }

/* ---- one key ---- */

/* get(k[, default]) and pop(k[, default]); on `{}`, a default types the
 * dict, as d[x] = d.get(x, 0) + 1 would. */
static const kj_type *lookup_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a,
                                  bool get) {
    if (na < 1 || na > 2)
        return kj_method_refused(c, n, self);
    if (!self->n && na == 2 && !(self = kj_dict_refine(c, n->kids[0], n, self, kj_dict_stored(c, n, self, a[0], a[1]))))
        return NULL;
    if (!items_typed(c, n, self))
        return NULL;
    const kj_type *kt = self->elems[0], *vt = self->elems[1];
    if (!kj_can_convert(a[0], kt))
        FAIL(c, n->kids[1], NULL, "a %s has no %s keys", self->name, a[0]->name);
    if (na == 2 && !kj_can_convert(a[1], vt))
        FAIL(c, n->kids[2], NULL, "the default must be a %s, as the dict's values, got %s", vt->name, a[1]->name);
    return get && na == 1 ? kj_optional(vt) : vt;   /* d.get(k): None when absent */
}

static const kj_type *get_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return lookup_type(c, n, self, na, a, true);
}
static const kj_type *pop_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    return lookup_type(c, n, self, na, a, false);
}

/* The default of get(k, default) or pop(k, default) at the values' type, or NULL. */
static LLVMValueRef default_of(kj_lw *w, kj_node *n) {
    if (n->nkids < 3)
        return NULL;
    return kj_cast(w, kj_lower_expr(w, n->kids[2]), n->kids[2]->type, kj_dict_value_type(kj_method_self_type(n)));
}

static LLVMValueRef get_lower(kj_lw *w, kj_node *n) {   /* the value, or the default (None without one) */
    const kj_type *dt = kj_method_self_type(n), *vt = kj_dict_value_type(dt), *t = n->type, *kt = n->kids[1]->type;
    LLVMValueRef dict = kj_method_self(w, n), k = kj_lower_expr(w, n->kids[1]), fallback = default_of(w, n);
    LLVMValueRef p = kj_dict_find(w, dict, k, kt, kj_dict_key_type(dt)), here = LLVMBuildIsNotNull(w->b, p, "");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b), read = kj_new_bb(w, "get.read"), done = kj_new_bb(w, "get.done");
    LLVMBuildCondBr(w->b, here, read, done);
    LLVMPositionBuilderAtEnd(w->b, read);
    LLVMValueRef got = kj_cast(w, kj_np_load(w, p, vt), vt, t);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMValueRef absent = fallback ? kj_cast(w, fallback, vt, t) : kj_cast(w, kj_method_none(w), kj_none(), t);
    LLVMValueRef r = LLVMBuildPhi(w->b, kj_lltype(w, t), "get");
    LLVMAddIncoming(r, (LLVMValueRef[]){absent, got}, (LLVMBasicBlockRef[]){from, read}, 2);
    return r;
}

static LLVMValueRef pop_lower(kj_lw *w, kj_node *n) {
    const kj_type *dt = kj_method_self_type(n), *vt = kj_dict_value_type(dt), *kt = n->kids[1]->type;
    LLVMValueRef dict = kj_method_self(w, n), k = kj_lower_expr(w, n->kids[1]), fallback = default_of(w, n);
    LLVMValueRef out = kj_entry_alloca(w, kj_llmemtype(w, vt), "popped");
    LLVMValueRef found = kj_dict_take(w, dict, k, kt, kj_dict_key_type(dt), out);
    if (!fallback) {
        kj_dict_key_error_if(w, LLVMBuildNot(w->b, found, ""), k, kt);
        return taken(w, dt, kj_np_load(w, out, vt), vt);
    }
    LLVMBasicBlockRef read = kj_new_bb(w, "pop.read"), absent = kj_new_bb(w, "pop.absent"), done = kj_new_bb(w, "pop.done");
    LLVMBuildCondBr(w->b, found, read, absent);
    LLVMPositionBuilderAtEnd(w->b, absent);
    if (kj_dict_holds_arrays(dt))   /* one reference either way: the default's is taken */
        kj_nrt_incref_value(w, fallback, vt);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, read);
    LLVMValueRef got = kj_np_load(w, out, vt);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMValueRef r = LLVMBuildPhi(w->b, kj_lltype(w, vt), "pop");
    LLVMAddIncoming(r, (LLVMValueRef[]){fallback, got}, (LLVMBasicBlockRef[]){from, read}, 2);
    return taken(w, dt, r, vt);
}

static const kj_type *setdefault_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    if (na != 2)
        return kj_method_refused(c, n, self);
    const kj_type *t = kj_dict_refine(c, n->kids[0], n, self, kj_dict_stored(c, n, self, a[0], a[1]));
    return t ? t->elems[1] : NULL;
}

static LLVMValueRef setdefault_lower(kj_lw *w, kj_node *n) {   /* one lookup: the default goes in only where the key was added */
    const kj_type *dt = kj_method_self_type(n), *vt = kj_dict_value_type(dt);
    LLVMValueRef dict = kj_method_self(w, n), k = kj_lower_expr(w, n->kids[1]), fallback = default_of(w, n);
    LLVMValueRef kslot = kj_dict_key_slot(w, k, n->kids[1]->type, kj_dict_key_type(dt));
    LLVMValueRef fresh = kj_entry_alloca(w, w->i32, "fresh"), p = kj_dict_value_slot(w, dict, dt, kslot, fresh);
    LLVMBasicBlockRef add = kj_new_bb(w, "setdefault.add"), done = kj_new_bb(w, "setdefault.done");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildLoad2(w->b, w->i32, fresh, ""), LLVMConstInt(w->i32, 0, 0), ""),
                    add, done);
    LLVMPositionBuilderAtEnd(w->b, add);
    kj_dict_store_value(w, dict, dt, p, fresh, fallback, vt);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    return kj_np_load(w, p, vt);
}

static const kj_type *popitem_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a) {
    (void)a;
    if (!items_typed(c, n, self))
        return NULL;
    return na == 0 ? kj_tuple(2, (const kj_type *const *)self->elems) : kj_method_refused(c, n, self);
}

static LLVMValueRef popitem_lower(kj_lw *w, kj_node *n) {   /* the last item stored, as Python's */
    const kj_type *dt = kj_method_self_type(n), *pt = n->type, *kt = pt->elems[0], *vt = pt->elems[1];
    LLVMValueRef dict = kj_method_self(w, n);
    LLVMValueRef kout = kj_entry_alloca(w, kj_llmemtype(w, kt), "key"), vout = kj_entry_alloca(w, kj_llmemtype(w, vt), "value");
    LLVMValueRef got = kj_call(w, "kj_dict_pop_last", w->i32, 3, (LLVMTypeRef[]){w->ptr, w->ptr, w->ptr},
                               (LLVMValueRef[]){dict, kout, vout});
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, got, LLVMConstInt(w->i32, 0, 0), ""), PyExc_KeyError,
                "popitem(): dictionary is empty");
    return taken(w, dt, kj_np_tuple(w, pt, 2, (LLVMValueRef[]){kj_np_load(w, kout, kt), kj_np_load(w, vout, vt)}), pt);
}

KJ_METHOD(get, "dict.get", get_type, get_lower);
KJ_METHOD(pop, "dict.pop", pop_type, pop_lower);
KJ_METHOD(popitem, "dict.popitem", popitem_type, popitem_lower);
KJ_METHOD(setdefault, "dict.setdefault", setdefault_type, setdefault_lower);
KJ_METHOD(update, "dict.update", update_type, update_lower);
KJ_METHOD(clear, "dict.clear", clear_type, clear_lower);
KJ_METHOD(copy, "dict.copy", copy_type, copy_lower);
KJ_METHOD(keys, "dict.keys", keys_type, view_lower);
KJ_METHOD(values, "dict.values", values_type, view_lower);
KJ_METHOD(items, "dict.items", items_type, view_lower);
