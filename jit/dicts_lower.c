/* dicts_lower: dicts in the generated code (dicts.h). Keys and values
 * travel to rt_dict.c through stack slots laid out as list items are
 * (kj_llmemtype); the length is read inline from the header. */
#include "jit/dicts.h"
#include "jit/lower_np.h"
#include "jit/lower_nrt.h"
#include "jit/nrt.h"
#include "jit/rt_dict.h"
#include "jit/strings.h"

#include <stddef.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static const kj_type *key_type(const kj_type *dt) { return dt->elems[0]; }
static const kj_type *value_type(const kj_type *dt) { return dt->elems[1]; }

static LLVMValueRef length(kj_lw *w, LLVMValueRef dict) {
    LLVMValueRef off = c64(w, KJ_NRT_HEADER - 1 + offsetof(kj_dict_header, n));
    return LLVMBuildLoad2(w->b, w->i64, LLVMBuildGEP2(w->b, w->i8, dict, &off, 1, ""), "len");
}

/* Key k (type kt) as the dict's key type, in a slot of its own; a float
 * key's -0.0 becomes 0.0, so that equal keys have equal bytes. */
static LLVMValueRef key_slot(kj_lw *w, LLVMValueRef k, const kj_type *kt, const kj_type *dt) {
    const kj_type *t = key_type(dt);
    LLVMValueRef v = kj_cast(w, k, kt, t);
    if (t->kind == KJ_T_FLOAT)
        v = LLVMBuildFAdd(w->b, v, LLVMConstReal(kj_lltype(w, t), 0.0), "");
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, t), "key");
    kj_np_store_elem(w, slot, v, t, t);
    return slot;
}

static LLVMValueRef sizes(kj_lw *w, const kj_type *dt, int which) {
    return kj_np_itemsize(w, which ? value_type(dt) : key_type(dt));
}

/* A new empty dict of type dt (a temporary of the statement). */
static LLVMValueRef new_dict(kj_lw *w, const kj_type *dt) {
    if (!kj_nrt_host_only(w, NULL, "creating dicts"))
        return LLVMGetUndef(w->ptr);
    LLVMValueRef ks = dt->n ? sizes(w, dt, 0) : c64(w, 0), vs = dt->n ? sizes(w, dt, 1) : c64(w, 0);
    LLVMValueRef d = kj_call(w, "kj_dict_new", w->ptr, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){ks, vs});
    kj_raise_if(w, LLVMBuildIsNull(w->b, d, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, d, dt);
}

/* The value slot of a key already in its slot, the key added when absent
 * (*fresh, an i32 slot, then 1). */
static LLVMValueRef value_slot(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef fresh) {
    LLVMValueRef p = kj_call(w, "kj_dict_put", w->ptr, 5, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64, w->i64, w->ptr},
                             (LLVMValueRef[]){dict, kslot, sizes(w, dt, 0), sizes(w, dt, 1), fresh});
    kj_raise_if(w, LLVMBuildIsNull(w->b, p, ""), PyExc_MemoryError, NULL);
    return p;
}

/* d[k] = v for a key already in its slot. */
static void put(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef kslot, LLVMValueRef v, const kj_type *vt) {
    LLVMValueRef p = value_slot(w, dict, dt, kslot, kj_entry_alloca(w, w->i32, "fresh"));
    kj_np_store_elem(w, p, v, vt, value_type(dt));
}

/* The value slot of key k, or NULL. */
static LLVMValueRef find(kj_lw *w, LLVMValueRef dict, LLVMValueRef kslot) {
    return kj_call(w, "kj_dict_get", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){dict, kslot});
}

/* KeyError(k) when cond holds, with Python's text for the key. */
static void key_error_if(kj_lw *w, LLVMValueRef cond, LLVMValueRef kslot, const kj_type *dt) {
    LLVMBasicBlockRef ok = kj_np_fail_begin(w, cond);
    const kj_type *t = key_type(dt);
    kj_str_raise_value(w, PyExc_KeyError, kj_np_load(w, kslot, t), t);
    kj_np_fail_end(w, ok);
}

/* The key of d[k] (index node n) in its slot: d[i, j] is d[(i, j)]. */
static LLVMValueRef index_key(kj_lw *w, kj_node *n, const kj_type *dt) {
    if (n->nkids == 2)
        return key_slot(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type, dt);
    int m = n->nkids - 1;
    const kj_type *parts[m];
    LLVMValueRef items[m];
    for (int i = 0; i < m; i++) {
        parts[i] = n->kids[i + 1]->type;
        items[i] = kj_lower_expr(w, n->kids[i + 1]);
    }
    const kj_type *kt = kj_tuple(m, parts);
    return key_slot(w, kj_np_tuple(w, kt, m, items), kt, dt);
}

void kj_dict_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    const kj_type *dt = target->kids[0]->type;
    LLVMValueRef dict = kj_lower_expr(w, target->kids[0]);
    put(w, dict, dt, index_key(w, target, dt), v, vt);
}

LLVMValueRef kj_dict_contains(kj_lw *w, LLVMValueRef key, const kj_type *kt, LLVMValueRef dict, const kj_type *dt) {
    if (!dt->n)   /* `{}` that never got items */
        return LLVMConstInt(w->i1, 0, 0);
    return LLVMBuildIsNotNull(w->b, find(w, dict, key_slot(w, key, kt, dt)), "");
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
                                  (LLVMValueRef[]){dict, i}), key_type(dt));
    if (which != 'k')
        v = kj_np_load(w, kj_call(w, "kj_dict_entry_value", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                  (LLVMValueRef[]){dict, i}), value_type(dt));
    if (which != 'i')
        return k ? k : v;
    const kj_type *pair[2] = {key_type(dt), value_type(dt)};
    return kj_np_tuple(w, kj_tuple(2, pair), 2, (LLVMValueRef[]){k, v});
}

/* d.update(other): other's items stored in turn. */
static void update(kj_lw *w, LLVMValueRef dict, const kj_type *dt, LLVMValueRef other, const kj_type *ot) {
    if (!ot->n)
        return;
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, kj_dict_iter_setup(w, other));
    LLVMValueRef k = kj_dict_iter_item(w, other, ot, 'k', i), v = kj_dict_iter_item(w, other, ot, 'v', i);
    put(w, dict, dt, key_slot(w, k, key_type(ot), dt), v, value_type(ot));
    kj_np_loop_end(w, &l);
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
    put(w, d, dt, key_slot(w, LLVMBuildExtractValue(w->b, pair, 0, ""), pt->elems[0], dt),
        LLVMBuildExtractValue(w->b, pair, 1, ""), pt->elems[1]);
    kj_np_loop_end(w, &l);
    kj_iter_free(&it);
    return d;
}

static LLVMValueRef method(kj_lw *w, kj_node *n) {
    const kj_type *dt = n->kids[0]->type, *t = n->type;
    const char *m = n->name;
    LLVMValueRef dict = kj_lower_expr(w, n->kids[0]);
    if (!strcmp(m, "clear")) {
        kj_call(w, "kj_dict_clear", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &dict);
        return LLVMConstInt(w->i8, 0, 0);
    }
    if (!strcmp(m, "copy")) {
        LLVMValueRef r = kj_call(w, "kj_dict_copy", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, &dict);
        kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
        return kj_nrt_temp(w, r, dt);
    }
    if (!strcmp(m, "update")) {
        update(w, dict, dt, kj_lower_expr(w, n->kids[1]), n->kids[1]->type);
        return LLVMConstInt(w->i8, 0, 0);
    }
    if (!strcmp(m, "keys") || !strcmp(m, "values") || !strcmp(m, "items"))
        return dict;   /* a view is its dict: loops read it (lower_iter.c) */
    const kj_type *st = dt, *vt = value_type(st);   /* typing refined a `{}` variable already */
    LLVMValueRef kslot = key_slot(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type, st);
    LLVMValueRef fallback = n->nkids == 3 ? kj_cast(w, kj_lower_expr(w, n->kids[2]), n->kids[2]->type, vt) : NULL;
    if (!strcmp(m, "setdefault")) {   /* one lookup: the default goes in only where the key was added */
        LLVMValueRef fresh = kj_entry_alloca(w, w->i32, "fresh"), p = value_slot(w, dict, st, kslot, fresh);
        LLVMBasicBlockRef add = kj_new_bb(w, "setdefault.add"), done = kj_new_bb(w, "setdefault.done");
        LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildLoad2(w->b, w->i32, fresh, ""), LLVMConstInt(w->i32, 0, 0), ""),
                        add, done);
        LLVMPositionBuilderAtEnd(w->b, add);
        kj_np_store_elem(w, p, fallback, vt, vt);
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, done);
        return kj_np_load(w, p, vt);
    }
    if (!strcmp(m, "pop")) {
        LLVMValueRef out = kj_entry_alloca(w, kj_llmemtype(w, vt), "popped");
        LLVMValueRef found = LLVMBuildICmp(w->b, LLVMIntNE, kj_call(w, "kj_dict_pop", w->i32, 3,
                                                                    (LLVMTypeRef[]){w->ptr, w->ptr, w->ptr},
                                                                    (LLVMValueRef[]){dict, kslot, out}),
                                           LLVMConstInt(w->i32, 0, 0), "");
        if (!fallback) {
            key_error_if(w, LLVMBuildNot(w->b, found, ""), kslot, st);
            return kj_np_load(w, out, vt);
        }
        LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b), read = kj_new_bb(w, "pop.read"), done = kj_new_bb(w, "pop.done");
        LLVMBuildCondBr(w->b, found, read, done);
        LLVMPositionBuilderAtEnd(w->b, read);
        LLVMValueRef got = kj_np_load(w, out, vt);
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, done);
        LLVMValueRef r = LLVMBuildPhi(w->b, kj_lltype(w, vt), "pop");
        LLVMAddIncoming(r, (LLVMValueRef[]){fallback, got}, (LLVMBasicBlockRef[]){from, read}, 2);
        return r;
    }
    /* get: the value, or the default (None without one) */
    LLVMValueRef p = find(w, dict, kslot), here = LLVMBuildIsNotNull(w->b, p, "");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b), read = kj_new_bb(w, "get.read"), done = kj_new_bb(w, "get.done");
    LLVMBuildCondBr(w->b, here, read, done);
    LLVMPositionBuilderAtEnd(w->b, read);
    LLVMValueRef got = kj_cast(w, kj_np_load(w, p, vt), vt, t);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMValueRef absent = fallback ? kj_cast(w, fallback, vt, t) : kj_cast(w, LLVMConstInt(w->i8, 0, 0), kj_none(), t);
    LLVMValueRef r = LLVMBuildPhi(w->b, kj_lltype(w, t), "get");
    LLVMAddIncoming(r, (LLVMValueRef[]){absent, got}, (LLVMBasicBlockRef[]){from, read}, 2);
    return r;
}

bool kj_dict_lowers(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_DICT: return true;
    case KJ_E_METHOD:
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
            put(w, d, n->type, key_slot(w, k, n->kids[i]->type, n->type), v, n->kids[i + 1]->type);
        }
        return d;
    }
    case KJ_E_METHOD: return method(w, n);
    case KJ_E_CALL:
        if (n->kids[0]->name[0] == 'l')
            return length(w, kj_lower_expr(w, n->kids[1]));
        return n->nkids == 1 ? new_dict(w, n->type) : from_pairs(w, n->type, n->kids[1]);
    default: {   /* KJ_E_INDEX: d[k] */
        const kj_type *dt = n->kids[0]->type;
        LLVMValueRef dict = kj_lower_expr(w, n->kids[0]);
        LLVMValueRef kslot = index_key(w, n, dt), p = find(w, dict, kslot);
        key_error_if(w, LLVMBuildIsNull(w->b, p, ""), kslot, dt);
        return kj_np_load(w, p, value_type(dt));
    }
    }
}
