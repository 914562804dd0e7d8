/* dicts_infer: the types of dicts in compiled code (dicts.h). `{}` and
 * dict() start as dict(undefined) and take their types from the first
 * store, as `[]` does from the first append (the variable is given the
 * precise type, as an assignment would). */
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL
#define KEYS_HINT "Keys are numbers or tuples of ints; use a NumPy array for anything else."
#define VALUES_HINT "Values are numbers, tuples of numbers or arrays; use a NumPy array for anything else."

static const kj_type *value(kj_infer_ctx *c, kj_node *k) {
    const kj_type *t = k ? kj_infer_sub(c, k) : NULL;
    return t && t->kind == KJ_T_OPTIONAL ? t->elem : t;
}

/* Keys compare by their bytes (rt_dict.c): numbers (floats with -0.0
 * made 0.0) and tuples of ints, whose bytes are equal exactly when they are. */
bool kj_dict_key_ok(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kj_is_intlike(t->elems[i]))
                return false;
        return t->n > 0;
    }
    return kj_is_intlike(t) || t->kind == KJ_T_FLOAT;
}

static bool value_ok(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!value_ok(t->elems[i]))
                return false;
        return t->n > 0;
    }
    return kj_is_number(t) || t->kind == KJ_T_BOOL;
}

/* A value stored whole: also an array, of one dtype, dimension count and
 * layout for the whole dict, as in Numba's typed dicts. */
static bool whole_value_ok(const kj_type *t) {
    return value_ok(t) || (t->kind == KJ_T_ARRAY && t->ndim > 0);
}

const kj_type *kj_dict_stored(kj_infer_ctx *c, kj_node *at, const kj_type *self, const kj_type *k, const kj_type *v) {
    if (!kj_dict_key_ok(k))
        FAIL(c, at, KEYS_HINT, "a dict in compiled code cannot have %s keys", k->name);
    if (!whole_value_ok(v))
        FAIL(c, at, VALUES_HINT, "a dict in compiled code cannot hold %s values", v->name);
    if (!self->n)
        return kj_dict(k, v);
    if (!kj_can_convert(k, self->elems[0]) || !kj_can_convert(v, self->elems[1]))
        FAIL(c, at, v->kind == KJ_T_ARRAY && self->elems[1]->kind == KJ_T_ARRAY ? "A dict's arrays share one type; .copy() gives a C-contiguous array." : NULL,
             "cannot store %.200s: %.200s in a %.400s", k->name, v->name, self->name);
    return self;
}

const kj_type *kj_dict_refine(kj_infer_ctx *c, kj_node *d, kj_node *at, const kj_type *self, const kj_type *t) {
    if (self->n || !t)
        return t;
    if (d->kind != KJ_E_LOCAL)
        FAIL(c, at, "Give the dict a name first: d = {}.", "the types of this dict are not known yet");
    return kj_infer_assign_local(c, d->slot, t, at) < 0 ? NULL : t;
}

const kj_type *kj_dict_expr_type(kj_infer_ctx *c, kj_node *n) {
    if (n->kind == KJ_E_DICTCOMP) {   /* its items are (k, v) displays */
        const kj_type *kv = kj_comprehension_item_type(c, n);
        if (!kv)
            return NULL;
        if (kv == kj_never())   /* an item never comes back: done, the dict is empty, as `{}` */
            return kj_dict(NULL, NULL);
        if (!kj_dict_key_ok(kv->elems[0]))
            FAIL(c, n->kids[0]->kids[0], KEYS_HINT, "a dict in compiled code cannot have %s keys", kv->elems[0]->name);
        if (!whole_value_ok(kv->elems[1]))
            FAIL(c, n->kids[0]->kids[1], VALUES_HINT, "a dict in compiled code cannot hold %s values", kv->elems[1]->name);
        return kj_dict(kv->elems[0], kv->elems[1]);
    }
    const kj_type *kt = NULL, *vt = NULL;
    for (int i = 0; i + 1 < n->nkids; i += 2) {
        const kj_type *k = value(c, n->kids[i]), *v = value(c, n->kids[i + 1]);
        if (!k || !v)
            return NULL;
        if (!kj_dict_key_ok(k))
            FAIL(c, n->kids[i], KEYS_HINT, "a dict in compiled code cannot have %s keys", k->name);
        if (!whole_value_ok(v))
            FAIL(c, n->kids[i + 1], VALUES_HINT, "a dict in compiled code cannot hold %s values", v->name);
        const kj_type *uk = kj_unify(kt, k), *uv = kj_unify(vt, v);
        if (!uk || !uv)
            FAIL(c, n, NULL, "a dict holds one type of key and one of value; this one mixes %s and %s",
                 uk ? vt->name : kt->name, uk ? v->name : k->name);
        kt = uk;
        vt = uv;
    }
    return kj_dict(kt, vt);
}

/* The key of d[k] (node n, an index): one value, or d[i, j] as the
 * tuple (i, j), as Python reads it. */
static const kj_type *index_key(kj_infer_ctx *c, kj_node *n) {
    const kj_type *parts[n->nkids];
    for (int i = 1; i < n->nkids; i++) {
        if (n->kids[i]->kind == KJ_E_SLICE)
            FAIL(c, n, NULL, "a dict takes a key, not a slice");
        if (!(parts[i - 1] = value(c, n->kids[i])))
            return NULL;
    }
    return n->nkids == 2 ? parts[0] : kj_tuple(n->nkids - 1, parts);
}

const kj_type *kj_dict_index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self) {
    const kj_type *k = index_key(c, n);
    if (!k)
        return NULL;
    if (!self->n)
        FAIL(c, n, "Store into the dict first.", "the types of this dict are not known yet");
    if (!kj_can_convert(k, self->elems[0]))
        FAIL(c, n->kids[1], NULL, "a %s has no %s keys", self->name, k->name);
    return self->elems[1];
}

int kj_dict_store_type(kj_infer_ctx *c, kj_node *target, const kj_type *v, kj_node *at) {
    const kj_type *self = value(c, target->kids[0]), *k = self ? index_key(c, target) : NULL;
    const kj_type *t = k ? kj_dict_stored(c, at, self, k, v) : NULL;
    return t && kj_dict_refine(c, target->kids[0], at, self, t) ? 0 : -1;
}

const kj_type *kj_dict_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                 const kj_type *const *args, bool *handled) {
    *handled = (!strcmp(name, "dict") && nargs <= 1) || (!strcmp(name, "len") && nargs == 1 && args[0]->kind == KJ_T_DICT);
    if (!*handled)
        return NULL;
    if (name[0] == 'l')
        return KJ_I64;
    if (nargs == 0)
        return kj_dict(NULL, NULL);
    if (args[0]->kind == KJ_T_DICT)   /* dict(d): a copy */
        return args[0];
    /* dict(pairs), dict(zip(keys, values)), and {k: v for ...} (frontend.c) */
    const kj_type *e = kj_iter_elem(args[0]);
    if (!e || e->kind != KJ_T_TUPLE || e->n != 2)
        FAIL(c, n, "Give dict() (key, value) pairs: dict(zip(keys, values)).",
             "dict() takes pairs of a key and a value here, got %s", args[0]->name);
    return kj_dict_stored(c, n, kj_dict(NULL, NULL), e->elems[0], e->elems[1]);
}
