/* dicts_lower: dicts in the generated code (dicts.h), and the table
 * operations sets share (sets_lower.c). Keys and values travel to
 * rt_dict.c through stack slots laid out as list items are
 * (kj_llmemtype); the length is read inline from the header. */
#include "jit/core/kind_ops.h"
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_dict.h"
#include "jit/lower/strings.h"

#include <stddef.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }


LLVMValueRef kj_dict_len(kj_lw *w, LLVMValueRef dict) {
    LLVMValueRef off = c64(w, KJ_NRT_HEADER - 1 + offsetof(kj_dict_header, n));
    return LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i8, dict, &off, 1, ""), "len");
}

LLVMValueRef kj_dict_key_slot(kj_lw *w, LLVMValueRef k, const kj_type *kt, const kj_type *key) {
    LLVMValueRef v = kj_cast(w, k, kt, key);
    if (key->kind == KJ_T_FLOAT)
        v = LLVMBuildFAdd(w->b, v, LLVMConstReal(kj_lltype(w, key), 0.0), "");
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, key), "key");
    kj_np_store_elem(w, slot, v, key, key);
    return slot;
}

/* Whether every value of number type from is one of number type to. */
static bool widens(const kj_type *from, const kj_type *to) {
    if (from == to || from->kind == KJ_T_BOOL)
        return true;
    if (from->kind == KJ_T_INT && to->kind == KJ_T_INT)
        return from->is_signed == to->is_signed ? from->bits <= to->bits : !from->is_signed && from->bits < to->bits;
    if (from->kind == KJ_T_INT && to->kind == KJ_T_FLOAT)
        return from->bits <= (to->bits == 64 ? 32 : 16);
    return from->kind == KJ_T_FLOAT && to->kind == KJ_T_FLOAT && from->bits <= to->bits;
}

/* Whether k (type kt) is a value of type key: true where key holds every
 * kt, else whether k comes back from key unchanged (1.5 is no int key,
 * 300 no int8 one). A key it is not cannot be in the table, as in Python,
 * where such a key would be another key. */
static LLVMValueRef representable(kj_lw *w, LLVMValueRef k, const kj_type *kt, const kj_type *key) {
    if (kt->kind == KJ_T_TUPLE) {
        LLVMValueRef all = LLVMConstInt(w->i1, 1, 0);
        for (int i = 0; i < kt->n; i++)
            all = LLVMBuildAnd(w->b, all, representable(w, LLVMBuildExtractValue(w->b, k, (unsigned)i, ""),
                                                         kt->elems[i], key->elems[i]), "");
        return all;
    }
    if (widens(kt, key))
        return LLVMConstInt(w->i1, 1, 0);
    /* both tests: the trip there and back misses a sign (uint64 2**63 is
     * int64 -2**63 and back), NumPy's == an int64 beyond 2**53 (it
     * compares as float64) */
    LLVMValueRef there = kj_cast(w, k, kt, key), back = kj_cast(w, there, key, kt);
    LLVMValueRef same = kj_np_elem_op(w, NULL, "equal", 2, (LLVMValueRef[]){back, k}, (const kj_type *[]){kt, kt}, kj_bool());
    LLVMValueRef equal = kj_np_elem_op(w, NULL, "equal", 2, (LLVMValueRef[]){k, there}, (const kj_type *[]){kt, key}, kj_bool());
    return LLVMBuildAnd(w->b, same, equal, "");
}

LLVMValueRef kj_dict_make(kj_lw *w, const kj_type *t, const kj_type *key, const kj_type *value) {
    if (!kj_nrt_host_only(w, NULL, t->kind == KJ_T_SET ? "creating sets" : "creating dicts"))
        return LLVMGetUndef(w->ptr);
    LLVMValueRef ks = key ? kj_np_itemsize(w, key) : c64(w, 0), vs = value ? kj_np_itemsize(w, value) : c64(w, 0);
    LLVMValueRef d = kj_call(w, "kj_dict_new", w->ptr, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){ks, vs});
    kj_raise_if(w, LLVMBuildIsNull(w->b, d, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, d, t);
}

static LLVMValueRef new_dict(kj_lw *w, const kj_type *dt) {
    return kj_dict_make(w, dt, dt->n ? kj_dict_key_type(dt) : NULL, dt->n ? kj_dict_value_type(dt) : NULL);
}

LLVMValueRef kj_dict_put_key(kj_lw *w, LLVMValueRef dict, LLVMValueRef kslot, const kj_type *key, const kj_type *value,
                             LLVMValueRef fresh) {
    LLVMValueRef vs = value ? kj_np_itemsize(w, value) : c64(w, 0);
    LLVMValueRef p = kj_call(w, "kj_dict_put", w->ptr, 5, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64, w->i64, w->ptr},
                             (LLVMValueRef[]){dict, kslot, kj_np_itemsize(w, key), vs, fresh});
    kj_raise_if(w, LLVMBuildIsNull(w->b, p, ""), PyExc_MemoryError, NULL);
    return p;
}

LLVMValueRef kj_dict_value_slot(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef fresh) {
    return kj_dict_put_key(w, dict, kslot, kj_dict_key_type(dt), kj_dict_value_type(dt), fresh);
}

bool kj_dict_holds_arrays(const kj_type *dt) { return dt->n && kj_dict_value_type(dt)->kind == KJ_T_ARRAY; }

void kj_dict_store_value(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef p, LLVMValueRef fresh,
                        LLVMValueRef v, const kj_type *vt) {
    const kj_type *t = kj_dict_value_type(dt);
    if (!kj_dict_holds_arrays(dt)) {
        kj_np_store_elem(w, p, v, vt, t);
        return;
    }
    v = kj_cast(w, v, vt, t);
    kj_nrt_incref_value(w, v, t);   /* before the old one goes: d[k] = d[k] */
    LLVMValueRef off = c64(w, KJ_NRT_HEADER - 1 + offsetof(kj_dict_header, owners));
    LLVMBuildStore(w->b, c64(w, 1), LLVMBuildGEP2(w->b, w->i8, dict, &off, 1, ""));
    LLVMBasicBlockRef drop = kj_new_bb(w, "put.drop"), done = kj_new_bb(w, "put.done");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, LLVMBuildLoad2(w->b, w->i32, fresh, ""), LLVMConstInt(w->i32, 0, 0), ""),
                    drop, done);
    LLVMPositionBuilderAtEnd(w->b, drop);
    kj_nrt_decref_value(w, kj_np_load(w, p, t), t);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    kj_np_store_elem(w, p, v, t, t);
}

void kj_dict_store_at(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef v, const kj_type *vt) {
    LLVMValueRef fresh = kj_entry_alloca(w, w->i32, "fresh"), p = kj_dict_value_slot(w, dict, dt, kslot, fresh);
    kj_dict_store_value(w, dict, dt, p, fresh, v, vt);
}

LLVMValueRef kj_dict_find(kj_lw *w, LLVMValueRef dict, LLVMValueRef k, const kj_type *kt, const kj_type *key) {
    LLVMValueRef ok = representable(w, k, kt, key), kslot = kj_dict_key_slot(w, k, kt, key);
    LLVMValueRef p = kj_call(w, "kj_dict_get", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){dict, kslot});
    return LLVMIsAConstantInt(ok) ? p : LLVMBuildSelect(w->b, ok, p, LLVMConstNull(w->ptr), "");
}

LLVMValueRef kj_dict_take(kj_lw *w, LLVMValueRef dict, LLVMValueRef k, const kj_type *kt, const kj_type *key,
                          LLVMValueRef out) {
    LLVMValueRef ok = representable(w, k, kt, key), kslot = kj_dict_key_slot(w, k, kt, key);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b), take = kj_new_bb(w, "take"), done = kj_new_bb(w, "take.done");
    LLVMBuildCondBr(w->b, ok, take, done);
    LLVMPositionBuilderAtEnd(w->b, take);
    LLVMValueRef found = LLVMBuildICmp(w->b, LLVMIntNE, kj_call(w, "kj_dict_pop", w->i32, 3,
                                                                (LLVMTypeRef[]){w->ptr, w->ptr, w->ptr},
                                                                (LLVMValueRef[]){dict, kslot, out}),
                                       LLVMConstInt(w->i32, 0, 0), "");
    LLVMBasicBlockRef took = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMValueRef r = LLVMBuildPhi(w->b, w->i1, "taken");
    LLVMAddIncoming(r, (LLVMValueRef[]){LLVMConstInt(w->i1, 0, 0), found}, (LLVMBasicBlockRef[]){from, took}, 2);
    return r;
}

void kj_dict_key_error_if(kj_lw *w, LLVMValueRef cond, LLVMValueRef k, const kj_type *kt) {
    LLVMBasicBlockRef ok = kj_raise_begin(w, cond);
    kj_str_raise_value(w, PyExc_KeyError, k, kt);
    kj_raise_end(w, ok);
}

/* The key of d[k] (index node n), typed *kt: d[i, j] is d[(i, j)]. */
static LLVMValueRef index_key(kj_lw *w, kj_node *n, const kj_type **kt) {
    if (n->nkids == 2) {
        *kt = n->kids[1]->type;
        return kj_lower_expr(w, n->kids[1]);
    }
    int m = n->nkids - 1;
    const kj_type *parts[m];
    LLVMValueRef items[m];
    for (int i = 0; i < m; i++) {
        parts[i] = n->kids[i + 1]->type;
        items[i] = kj_lower_expr(w, n->kids[i + 1]);
    }
    *kt = kj_tuple(m, parts);
    return kj_np_tuple(w, *kt, m, items);
}

void kj_dict_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    const kj_type *dt = target->kids[0]->type, *kt;
    LLVMValueRef dict = kj_lower_expr(w, target->kids[0]), k = index_key(w, target, &kt);
    kj_dict_store_at(w, dict, dt, kj_dict_key_slot(w, k, kt, kj_dict_key_type(dt)), v, vt);
}

LLVMValueRef kj_dict_contains(kj_lw *w, LLVMValueRef key, const kj_type *kt, LLVMValueRef dict, const kj_type *dt) {
    const kj_type *t = dt->kind == KJ_T_SET ? dt->elem : dt->n ? kj_dict_key_type(dt) : NULL;
    if (!t)   /* `{}` or set() that never got items */
        return LLVMConstInt(w->i1, 0, 0);
    return LLVMBuildIsNotNull(w->b, kj_dict_find(w, dict, key, kt, t), "");
}

LLVMValueRef kj_dict_iter_setup(kj_lw *w, LLVMValueRef dict) {
    LLVMValueRef len = kj_call(w, "kj_dict_compact", w->i64, 1, (LLVMTypeRef[]){w->ptr}, &dict);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, len, c64(w, 0), ""), PyExc_MemoryError, NULL);
    return len;
}

LLVMValueRef kj_dict_iter_item(kj_lw *w, LLVMValueRef dict, const kj_type *dt, char which, LLVMValueRef i) {
    LLVMValueRef k = NULL, v = NULL;
    if (which != 'v')
        k = kj_np_load(w, kj_call(w, "kj_dict_entry_key", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                  (LLVMValueRef[]){dict, i}), kj_dict_key_type(dt));
    if (which != 'k')
        v = kj_np_load(w, kj_call(w, "kj_dict_entry_value", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                  (LLVMValueRef[]){dict, i}), kj_dict_value_type(dt));
    if (which != 'i')
        return k ? k : v;
    const kj_type *pair[2] = {kj_dict_key_type(dt), kj_dict_value_type(dt)};
    return kj_np_tuple(w, kj_tuple(2, pair), 2, (LLVMValueRef[]){k, v});
}

/* dict(src): a copy of a dict, or the (key, value) pairs src gives. */
static LLVMValueRef from_pairs(kj_lw *w, const kj_type *dt, kj_node *src) {
    if (src->type->kind == KJ_T_DICT) {
        LLVMValueRef d = kj_lower_expr(w, src);
        LLVMValueRef r = kj_call(w, "kj_dict_copy", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, &d);
        kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
        return kj_nrt_temp(w, r, dt);
    }
    LLVMValueRef d = new_dict(w, dt);
    const kj_type *pt = kj_iter_elem(src->type);
    kj_iter it = {0};
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, kj_iter_setup(w, src, &it)), pair = kj_iter_item(w, &it, i);
    kj_dict_store_at(w, d, dt, kj_dict_key_slot(w, LLVMBuildExtractValue(w->b, pair, 0, ""), pt->elems[0], kj_dict_key_type(dt)),
        LLVMBuildExtractValue(w->b, pair, 1, ""), pt->elems[1]);
    kj_np_loop_end(w, &l);
    kj_iter_free(&it);
    return d;
}

typedef struct {
    LLVMValueRef dict;
    const kj_type *type;
} dict_target;

/* One item of {k: v for ...}: its (k, v) display, stored. */
static void put_item(kj_lw *w, void *to, kj_node *item) {
    dict_target *d = to;
    kj_node *k = item->kids[0], *v = item->kids[1];
    LLVMValueRef kslot = kj_dict_key_slot(w, kj_lower_expr(w, k), k->type, kj_dict_key_type(d->type));
    kj_dict_store_at(w, d->dict, d->type, kslot, kj_lower_expr(w, v), v->type);
}

static LLVMValueRef comprehension(kj_lw *w, kj_node *n) {
    kj_iter it = {0};
    LLVMValueRef len = kj_iter_setup(w, n->kids[2], &it);
    dict_target to = {new_dict(w, n->type), n->type};
    kj_comprehension_loop(w, n, &it, len, put_item, &to);
    kj_iter_free(&it);
    return to.dict;
}

bool kj_dict_lowers(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_DICT:
    case KJ_E_DICTCOMP: return true;
    case KJ_E_INDEX: return n->kids[0]->type && n->kids[0]->type->kind == KJ_T_DICT;
    case KJ_E_CALL: {
        const kj_node *fn = n->kids[0];
        if (fn->kind != KJ_E_FUNC || n->aux)
            return false;
        return (!strcmp(fn->name, "dict") && n->nkids <= 2) ||
               (!strcmp(fn->name, "len") && n->nkids == 2 && n->kids[1]->type && n->kids[1]->type->kind == KJ_T_DICT);
    }
    default: return false;
    }
}

LLVMValueRef kj_dict_lower(kj_lw *w, kj_node *n) {
    switch (n->kind) {
    case KJ_E_DICT: {
        LLVMValueRef d = new_dict(w, n->type);
        for (int i = 0; i + 1 < n->nkids; i += 2) {
            LLVMValueRef k = kj_lower_expr(w, n->kids[i]), v = kj_lower_expr(w, n->kids[i + 1]);
            kj_dict_store_at(w, d, n->type, kj_dict_key_slot(w, k, n->kids[i]->type, kj_dict_key_type(n->type)), v, n->kids[i + 1]->type);
        }
        return d;
    }
    case KJ_E_DICTCOMP: return comprehension(w, n);
    case KJ_E_CALL:
        if (n->kids[0]->name[0] == 'l')
            return kj_dict_len(w, kj_lower_expr(w, n->kids[1]));
        return n->nkids == 1 ? new_dict(w, n->type) : from_pairs(w, n->type, n->kids[1]);
    default: {   /* KJ_E_INDEX: d[k] */
        const kj_type *dt = n->kids[0]->type, *kt;
        LLVMValueRef dict = kj_lower_expr(w, n->kids[0]), k = index_key(w, n, &kt);
        LLVMValueRef p = kj_dict_find(w, dict, k, kt, kj_dict_key_type(dt));
        kj_dict_key_error_if(w, LLVMBuildIsNull(w->b, p, ""), k, kt);
        return kj_np_load(w, p, kj_dict_value_type(dt));
    }
    }
}

/* ---- what inference and lowering ask of dicts and their views (kind_ops.h) ---- */

static const kj_type *index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled) {
    *handled = true;
    return kj_dict_index_type(c, n, self);
}

/* A loop over a dict (its keys) or a view of one (a method call on it). */
static LLVMValueRef iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    bool view = n->type->kind == KJ_T_DICTVIEW;
    s->value = kj_lower_expr(w, view ? n->kids[0] : n);
    return (view ? n->type->elem : n->type)->n ? kj_dict_iter_setup(w, s->value) : LLVMConstInt(w->i64, 0, 0);
}

static LLVMValueRef iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) {
    if (s->type->kind == KJ_T_DICTVIEW)
        return kj_dict_iter_item(w, s->value, s->type->elem, (char)s->type->bits, t);
    return kj_dict_iter_item(w, s->value, s->type, 'k', t);
}

KJ_KIND_OPS(dict, .kind = KJ_T_DICT,
            .methods = "dict",
            .index_type = index_type,
            .store_type = kj_dict_store_type,
            .display_type = kj_dict_expr_type,
            .builtin_call_type = kj_dict_call_type,
            .lowers = kj_dict_lowers,
            .lower = kj_dict_lower,
            .store = kj_dict_store,
            .len = kj_dict_len,
            .iter_setup = iter_setup,
            .iter_item = iter_item);
KJ_KIND_OPS(dictview, .kind = KJ_T_DICTVIEW, .iter_setup = iter_setup, .iter_item = iter_item);
