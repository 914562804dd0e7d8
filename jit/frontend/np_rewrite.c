/* np_rewrite: see np_rewrite.h. The driver, which finds a call's rewrite
 * in the registry, and the builders rewrites write their code with. */
#include "jit/frontend/np_rewrite.h"

#include <stdio.h>
#include <string.h>

kj_node *kj_rw_node(kj_rewrite *r, kj_node_kind kind, int nkids) {
    kj_node *n = kj_new_node(r->f, kind, r->line, r->col, nkids);
    r->failed = r->failed || !n;
    return n;
}

static kj_node *func(kj_rewrite *r, const char *name) {
    kj_node *n = kj_rw_node(r, KJ_E_FUNC, 0);
    if (n && !(n->name = kj_strdup(r->f, name)))
        r->failed = true;
    return n;
}

kj_node *kj_rw_call(kj_rewrite *r, const char *name, int nargs, kj_node *a0, kj_node *a1, kj_node *a2) {
    kj_node *n = kj_rw_node(r, KJ_E_CALL, nargs + 1), *args[3] = {a0, a1, a2};
    if (!n)
        return NULL;
    n->kids[0] = func(r, name);
    for (int i = 0; i < nargs; i++)
        n->kids[i + 1] = args[i];
    return n;
}

kj_node *kj_rw_named(kj_rewrite *r, kj_node_kind kind, const char *name, kj_node *kid) {
    kj_node *n = kj_rw_node(r, kind, 1);
    if (n && !(n->name = kj_strdup(r->f, name)))
        r->failed = true;
    if (n)
        n->kids[0] = kid;
    return n;
}

void kj_rw_keyword(kj_rewrite *r, kj_node *c, const char *name, kj_node *value) {
    kj_node **kids = c ? kj_alloc(r->f, sizeof(kj_node *) * (size_t)(c->nkids + 1)) : NULL;
    if (!kids) {
        r->failed = true;
        return;
    }
    memcpy(kids, c->kids, sizeof(kj_node *) * (size_t)c->nkids);
    kids[c->nkids] = kj_rw_named(r, KJ_E_KEYWORD, name, value);
    c->kids = kids;
    c->nkids++;
}

static kj_node *two_kids(kj_rewrite *r, kj_node_kind kind, kj_node *a, kj_node *b) {
    kj_node *n = kj_rw_node(r, kind, 2);
    if (n) {
        n->kids[0] = a;
        n->kids[1] = b;
    }
    return n;
}

kj_node *kj_rw_op(kj_rewrite *r, kj_node_kind kind, kj_op op, kj_node *a, kj_node *b) {
    kj_node *n = two_kids(r, kind, a, b);
    if (n)
        n->op = op;
    return n;
}

kj_node *kj_rw_binop(kj_rewrite *r, kj_op op, kj_node *a, kj_node *b) { return kj_rw_op(r, KJ_E_BINOP, op, a, b); }

kj_node *kj_rw_compare(kj_rewrite *r, kj_op op, kj_node *a, kj_node *b) {
    kj_node *n = kj_rw_node(r, KJ_E_COMPARE, 2);
    if (n && !(n->ops = kj_alloc(r->f, sizeof(kj_op))))
        r->failed = true;
    if (n && n->ops) {
        n->ops[0] = op;
        n->kids[0] = a;
        n->kids[1] = b;
    }
    return n;
}

static kj_node *constant(kj_rewrite *r, const kj_type *t, int64_t i, double x) {
    kj_node *n = kj_rw_node(r, KJ_E_CONST, 0);
    if (n) {
        n->type = t;
        n->ival = i;
        n->fval = x;
    }
    return n;
}

kj_node *kj_rw_int(kj_rewrite *r, int64_t v) { return constant(r, KJ_I64, v, 0); }

kj_node *kj_rw_float(kj_rewrite *r, double v) { return constant(r, KJ_F64, 0, v); }

kj_node *kj_rw_none(kj_rewrite *r) { return constant(r, kj_none(), 0, 0); }

kj_node *kj_rw_slice(kj_rewrite *r, int64_t lo, int64_t hi, int64_t step) {
    kj_node *s = kj_rw_node(r, KJ_E_SLICE, 3);
    if (s && lo)
        s->kids[0] = kj_rw_int(r, lo);
    if (s && hi)
        s->kids[1] = kj_rw_int(r, hi);
    if (s && step)
        s->kids[2] = kj_rw_int(r, step);
    return s;
}

kj_node *kj_rw_column_or_row(kj_rewrite *r, kj_node *x, bool column) {
    kj_node *n = kj_rw_node(r, KJ_E_INDEX, 3), *all = kj_rw_slice(r, 0, 0, 0);
    if (n) {
        n->kids[0] = x;
        n->kids[column ? 1 : 2] = all;
        n->kids[column ? 2 : 1] = kj_rw_none(r);
    }
    return n;
}

kj_node *kj_rw_slice_axis(kj_rewrite *r, kj_node *a, int64_t axis, kj_node *one) {
    int before = axis >= 0 ? (int)axis : 0, after = axis >= 0 ? 0 : (int)(-axis - 1);
    kj_node *n = kj_rw_node(r, KJ_E_INDEX, 1 + before + (axis < 0) + 1 + after);
    if (!n)
        return NULL;
    int k = 0;
    n->kids[k++] = a;
    for (int i = 0; i < before; i++)
        n->kids[k++] = kj_rw_slice(r, 0, 0, 0);
    if (axis < 0)
        n->kids[k++] = kj_rw_node(r, KJ_E_ELLIPSIS, 0);
    n->kids[k++] = one;
    for (int i = 0; i < after; i++)
        n->kids[k++] = kj_rw_slice(r, 0, 0, 0);
    return n;
}

kj_node *kj_rw_ravel(kj_rewrite *r, kj_node *x) { return kj_rw_named(r, KJ_E_METHOD, "ravel", x); }

kj_node *kj_rw_index(kj_rewrite *r, kj_node *x, kj_node *i) { return two_kids(r, KJ_E_INDEX, x, i); }

kj_node *kj_rw_tuple2(kj_rewrite *r, kj_node *a, kj_node *b) { return two_kids(r, KJ_E_TUPLE, a, b); }

kj_node *kj_rw_invert(kj_rewrite *r, kj_node *x) {
    kj_node *n = kj_rw_node(r, KJ_E_UNARY, 1);
    if (n) {
        n->op = KJ_OP_INVERT;
        n->kids[0] = x;
    }
    return n;
}

kj_node *kj_rw_swap01(kj_rewrite *r, kj_node *x) {
    kj_node *n = kj_rw_node(r, KJ_E_METHOD, 3);
    if (n && !(n->name = kj_strdup(r->f, "swapaxes")))
        r->failed = true;
    if (n) {
        n->kids[0] = x;
        n->kids[1] = kj_rw_int(r, 0);
        n->kids[2] = kj_rw_int(r, 1);
    }
    return n;
}

void kj_rw_bind(const kj_node *n, const char *const *params, kj_rw_args *a) {
    memset(a, 0, sizeof *a);
    int np = 0;
    while (params[np])
        np++;
    for (int i = 1, pos = 0; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind != KJ_E_KEYWORD) {
            if (pos < np)
                a->arg[pos++] = k;
            else
                a->too_many = true;
            continue;
        }
        int at = 0;
        while (at < np && strcmp(params[at], k->name) != 0)
            at++;
        if (at == np || a->arg[at])
            a->unknown = k->name;
        else
            a->arg[at] = k->kids[0];
    }
}

bool kj_rw_args_of(kj_rewrite *r, const kj_node *n, const char *const *params, int required, kj_rw_args *a,
                   const char *hint, const char *fmt, const char *name) {
    kj_rw_bind(n, params, a);
    bool given = !a->unknown && !a->too_many;
    for (int i = 0; given && i < required; i++)
        given = a->arg[i] != NULL;
    if (!given)
        kj_rw_refuse(r, hint, fmt, name);
    return given;
}

/* A function whose calls give the same for the same arguments and do nothing else. */
static bool pure_function(const kj_node *fn) {
    if (fn->kind != KJ_E_FUNC || !fn->name)
        return false;
    if (!strncmp(fn->name, "np.", 3))
        return strncmp(fn->name, "np.random", 9) != 0 && strncmp(fn->name, "np.empty", 8) != 0;
    static const char *const builtins[] = {"abs", "min", "max", "len", "float", "int", "bool", "complex", "round", NULL};
    for (int i = 0; builtins[i]; i++)
        if (!strcmp(fn->name, builtins[i]))
            return true;
    return !strncmp(fn->name, "math.", 5) || !strncmp(fn->name, "cmath.", 6) || !strncmp(fn->name, "cast:", 5);
}

bool kj_rw_plain(const kj_node *k) {
    if (!k)
        return true;   /* an omitted slice bound */
    switch (k->kind) {
    case KJ_E_LOCAL:
    case KJ_E_CONST:
        return true;
    case KJ_E_CALL:
        if (!pure_function(k->kids[0]))
            return false;
        for (int i = 1; i < k->nkids; i++)
            if (!kj_rw_plain(k->kids[i]->kind == KJ_E_KEYWORD ? k->kids[i]->kids[0] : k->kids[i]))
                return false;
        return true;
    case KJ_E_BINOP:
    case KJ_E_UNARY:
    case KJ_E_COMPARE:
    case KJ_E_BOOLOP:
    case KJ_E_IFEXP:
    case KJ_E_ATTR:
    case KJ_E_INDEX:
    case KJ_E_SLICE:
    case KJ_E_TUPLE:
        for (int i = 0; i < k->nkids; i++)
            if (!kj_rw_plain(k->kids[i]))
                return false;
        return true;
    default:
        return false;
    }
}

kj_node *kj_rw_refuse(kj_rewrite *r, const char *hint, const char *fmt, const char *name) {
    kj_fail(r->e, KJ_ERR_TYPING, r->line, r->col, hint, fmt, name);
    r->refused = true;
    return NULL;
}

int kj_np_rewrite_call(kj_function *f, kj_error *e, kj_node *n) {
    bool method = n->kind == KJ_E_METHOD;
    char name[64];
    if (method ? snprintf(name, sizeof name, "ndarray.%s", n->name) >= (int)sizeof name
               : n->kids[0]->kind != KJ_E_FUNC || strncmp(n->kids[0]->name, "np.", 3) ||
                     snprintf(name, sizeof name, "%s", n->kids[0]->name) >= (int)sizeof name)
        return 0;   /* not NumPy's, or a name no entry has */
    const kj_callable *k = kj_callable_named(name);
    if (!k || !k->rewrite)
        return 0;
    kj_rewrite r = {f, e, n->line, n->col, method, false, false};
    kj_node *out = k->rewrite(&r, n, strchr(name, '.') + 1);
    if (out == n)
        return 0;
    if (r.refused)
        return -1;
    if (r.failed || !out)
        return kj_fail(e, KJ_ERR_INTERNAL, n->line, n->col, NULL, "out of memory");
    *n = *out;   /* the call becomes its rewrite, in place */
    return 0;
}
