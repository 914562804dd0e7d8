/* sets_lower: sets in the generated code (sets.h), on the dict table's
 * operations (dicts_lower.c) with values of no bytes. The operations
 * between sets loop over one and look items up in the other; an iterable
 * that is not a set is made into one first where lookups need it. */
#include "jit/core/kind_ops.h"
#include "jit/containers/dicts.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/lower/lower_nrt.h"
#include "jit/containers/sets.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef new_set(kj_lw *w, const kj_type *st) { return kj_dict_make(w, st, st->elem, NULL); }

/* x (type xt) added to set s of type st. */
static void add(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
    kj_dict_put_key(w, s, kj_dict_key_slot(w, x, xt, st->elem), st->elem, NULL, kj_entry_alloca(w, w->i32, "fresh"));
}

static LLVMValueRef has(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
    return kj_dict_contains(w, x, xt, s, st);
}

/* Removes x from s: an i1, whether it was there. */
static LLVMValueRef take(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
    if (!st->elem)   /* set() that never got items */
        return LLVMConstInt(w->i1, 0, 0);
    return kj_dict_take(w, s, x, xt, st->elem, kj_entry_alloca(w, w->i8, "none"));
}

LLVMValueRef kj_set_item(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef i) {
    return kj_np_load(w, kj_call(w, "kj_dict_entry_key", w->ptr, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                                 (LLVMValueRef[]){s, i}),
                      st->elem);
}

/* A loop over the items of set s: begin returns the item; the body
 * follows; set_loop_end closes it. */
typedef struct {
    kj_np_loop loop;
    bool open;
} set_loop;

static LLVMValueRef set_loop_begin(kj_lw *w, set_loop *l, LLVMValueRef s, const kj_type *st) {
    l->open = st->elem != NULL;   /* set() that never got items: no loop */
    if (!l->open)
        return NULL;
    LLVMValueRef i = kj_np_loop_begin(w, &l->loop, kj_dict_iter_setup(w, s));
    return kj_set_item(w, s, st, i);
}

static void set_loop_end(kj_lw *w, set_loop *l) {
    if (l->open)
        kj_np_loop_end(w, &l->loop);
}

/* Every item of set src (type srct) added to s (type st). */
static void add_set(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef src, const kj_type *srct) {
    set_loop l;
    LLVMValueRef x = set_loop_begin(w, &l, src, srct);
    if (x)
        add(w, s, st, x, srct->elem);
    set_loop_end(w, &l);
}

/* Every item of iterable node n added to s (of type st). */
static void add_all(kj_lw *w, LLVMValueRef s, const kj_type *st, kj_node *n) {
    if (n->type->kind == KJ_T_SET) {
        add_set(w, s, st, kj_lower_expr(w, n), n->type);
        return;
    }
    if (n->type->kind == KJ_T_TUPLE) {   /* its items one by one, as a loop over it is unrolled */
        LLVMValueRef t = kj_lower_expr(w, n);
        for (int i = 0; i < n->type->n; i++)
            add(w, s, st, LLVMBuildExtractValue(w->b, t, (unsigned)i, ""), n->type->elems[i]);
        return;
    }
    if (!kj_iter_elem(n->type)) {   /* `[]` or `{}` that never got items */
        kj_lower_expr(w, n);
        return;
    }
    kj_iter it = {0};
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, kj_iter_setup(w, n, &it));
    add(w, s, st, kj_iter_item(w, &it, i), kj_iter_elem(n->type));
    kj_np_loop_end(w, &l);
    kj_iter_free(&it);
}

/* The set of iterable node n's items, *t its type: n itself when a set. */
static LLVMValueRef as_set(kj_lw *w, kj_node *n, const kj_type **t) {
    if (n->type->kind == KJ_T_SET) {
        *t = n->type;
        return kj_lower_expr(w, n);
    }
    *t = kj_set(kj_iter_elem(n->type));
    LLVMValueRef s = new_set(w, *t);
    add_all(w, s, *t, n);
    return s;
}

static LLVMValueRef copy(kj_lw *w, LLVMValueRef s, const kj_type *st, const kj_type *t) {
    if (st != t) {   /* items of another type: added one by one */
        LLVMValueRef r = new_set(w, t);
        add_set(w, r, t, s, st);
        return r;
    }
    LLVMValueRef r = kj_call(w, "kj_dict_copy", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, &s);
    kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, r, t);
}

/* The items of a (type at) that the sets others[0..n) all have (keep) or
 * none has (!keep): added to r (type t), or with r NULL removed from a
 * (the in-place forms). */
static void filter(kj_lw *w, LLVMValueRef a, const kj_type *at, int n, LLVMValueRef *others, const kj_type **ots,
                   bool keep, LLVMValueRef r, const kj_type *t) {
    set_loop l;
    LLVMValueRef x = set_loop_begin(w, &l, a, at);
    if (x) {
        LLVMValueRef verdict = LLVMConstInt(w->i1, 1, 0);
        for (int i = 0; i < n; i++) {
            LLVMValueRef in = has(w, others[i], ots[i], x, at->elem);
            verdict = keep ? LLVMBuildAnd(w->b, verdict, in, "") : LLVMBuildAnd(w->b, verdict, LLVMBuildNot(w->b, in, ""), "");
        }
        LLVMBasicBlockRef yes = kj_new_bb(w, "set.yes"), no = kj_new_bb(w, "set.no");
        LLVMBuildCondBr(w->b, verdict, yes, no);
        LLVMPositionBuilderAtEnd(w->b, yes);
        if (r)
            add(w, r, t, x, at->elem);
        else
            take(w, a, at, x, at->elem);
        LLVMBuildBr(w->b, no);
        LLVMPositionBuilderAtEnd(w->b, no);
    }
    set_loop_end(w, &l);
}

/* Whether every item of a is in b (every), or any is. */
static LLVMValueRef in_other(kj_lw *w, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt, bool every) {
    LLVMValueRef acc = kj_entry_alloca(w, w->i1, every ? "every" : "any");
    LLVMBuildStore(w->b, LLVMConstInt(w->i1, every, 0), acc);
    set_loop l;
    LLVMValueRef x = set_loop_begin(w, &l, a, at);
    if (x) {
        LLVMValueRef was = LLVMBuildLoad2(w->b, w->i1, acc, ""), in = has(w, b, bt, x, at->elem);
        LLVMBuildStore(w->b, every ? LLVMBuildAnd(w->b, was, in, "") : LLVMBuildOr(w->b, was, in, ""), acc);
    }
    set_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, w->i1, acc, "");
}

static LLVMValueRef len(kj_lw *w, LLVMValueRef s, const kj_type *st) {
    return st->elem ? kj_dict_len(w, s) : c64(w, 0);
}

/* a OP b for sets: | & - ^, a new set of type t. */
static LLVMValueRef binop(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt,
                          const kj_type *t) {
    if (op == KJ_OP_BITAND || op == KJ_OP_SUB) {
        LLVMValueRef r = new_set(w, t);
        filter(w, a, at, 1, &b, &bt, op == KJ_OP_BITAND, r, t);
        return r;
    }
    if (op == KJ_OP_BITOR) {
        LLVMValueRef r = copy(w, a, at, t);
        add_set(w, r, t, b, bt);
        return r;
    }
    LLVMValueRef r = new_set(w, t);   /* ^: each side's items the other lacks */
    filter(w, a, at, 1, &b, &bt, false, r, t);
    filter(w, b, bt, 1, &a, &at, false, r, t);
    return r;
}

/* a CMP b for sets, as Python compares them (subsets). */
static LLVMValueRef compare(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt) {
    if (op == KJ_OP_GE || op == KJ_OP_GT)
        return compare(w, op == KJ_OP_GE ? KJ_OP_LE : KJ_OP_LT, b, bt, a, at);
    LLVMValueRef la = len(w, a, at), lb = len(w, b, bt), inside = in_other(w, a, at, b, bt, true);
    switch (op) {
    case KJ_OP_EQ: return LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, la, lb, ""), inside, "");
    case KJ_OP_NE: return LLVMBuildNot(w->b, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, la, lb, ""), inside, ""), "");
    case KJ_OP_LT: return LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, la, lb, ""), inside, "");
    default: return inside;   /* <= */
    }
}

static LLVMValueRef method(kj_lw *w, kj_node *n) {
    const kj_type *st = n->kids[0]->type, *t = n->type;
    const char *m = n->name;
    LLVMValueRef s = kj_lower_expr(w, n->kids[0]), none = LLVMConstInt(w->i8, 0, 0);
    kj_node *arg = n->nkids > 1 ? n->kids[1] : NULL;
    if (!strcmp(m, "add")) {
        add(w, s, st, kj_lower_expr(w, arg), arg->type);
        return none;
    }
    if (!strcmp(m, "discard") || !strcmp(m, "remove")) {
        LLVMValueRef x = kj_lower_expr(w, arg), there = take(w, s, st, x, arg->type);
        if (m[0] == 'r')
            kj_dict_key_error_if(w, LLVMBuildNot(w->b, there, ""), x, arg->type);
        return none;
    }
    if (!strcmp(m, "pop")) {
        LLVMValueRef out = kj_entry_alloca(w, kj_llmemtype(w, st->elem), "popped");
        LLVMValueRef got = kj_call(w, "kj_set_pop_first", w->i32, 2, (LLVMTypeRef[]){w->ptr, w->ptr},
                                   (LLVMValueRef[]){s, out});
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, got, LLVMConstInt(w->i32, 0, 0), ""), PyExc_KeyError,
                    "pop from an empty set");
        return kj_np_load(w, out, st->elem);
    }
    if (!strcmp(m, "clear")) {
        kj_call(w, "kj_dict_clear", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &s);
        return none;
    }
    if (!strcmp(m, "copy"))
        return copy(w, s, st, st);
    if (!strcmp(m, "update")) {
        for (int i = 1; i < n->nkids; i++)
            add_all(w, s, st, n->kids[i]);
        return none;
    }
    if (!strcmp(m, "union")) {
        LLVMValueRef r = copy(w, s, st, t);
        for (int i = 1; i < n->nkids; i++)
            add_all(w, r, t, n->kids[i]);
        return r;
    }
    int k = n->nkids - 1;
    LLVMValueRef others[k];
    const kj_type *ots[k];
    for (int i = 0; i < k; i++)
        others[i] = as_set(w, n->kids[i + 1], &ots[i]);
    if (!strcmp(m, "intersection") || !strcmp(m, "difference")) {
        LLVMValueRef r = new_set(w, t);
        filter(w, s, st, k, others, ots, m[0] == 'i', r, t);
        return r;
    }
    if (!strcmp(m, "symmetric_difference"))
        return binop(w, KJ_OP_BITXOR, s, st, others[0], ots[0], t);
    if (!strcmp(m, "issubset"))
        return in_other(w, s, st, others[0], ots[0], true);
    if (!strcmp(m, "issuperset"))
        return in_other(w, others[0], ots[0], s, st, true);
    return LLVMBuildNot(w->b, in_other(w, s, st, others[0], ots[0], false), "");   /* isdisjoint */
}

void kj_set_augassign(kj_lw *w, kj_node *st) {
    kj_node *target = st->kids[0], *other = st->kids[1];
    const kj_type *t = target->type, *ot = other->type;
    LLVMValueRef s = kj_lower_expr(w, target), o = kj_lower_expr(w, other);
    set_loop l;
    switch (st->op) {
    case KJ_OP_BITAND:   /* s's items o lacks leave */
        filter(w, s, t, 1, &o, &ot, false, NULL, t);
        return;
    case KJ_OP_SUB: {   /* o's items leave */
        LLVMValueRef x = set_loop_begin(w, &l, o, ot);
        if (x)
            take(w, s, t, x, ot->elem);
        break;
    }
    case KJ_OP_BITXOR: {   /* o's items leave s where it has them, and come in where not */
        LLVMValueRef x = set_loop_begin(w, &l, o, ot);
        if (x) {
            LLVMBasicBlockRef in = kj_new_bb(w, "xor.add"), done = kj_new_bb(w, "xor.done");
            LLVMBuildCondBr(w->b, take(w, s, t, x, ot->elem), done, in);
            LLVMPositionBuilderAtEnd(w->b, in);
            add(w, s, t, x, ot->elem);
            LLVMBuildBr(w->b, done);
            LLVMPositionBuilderAtEnd(w->b, done);
        }
        break;
    }
    default:   /* |= */
        add_set(w, s, t, o, ot);
        return;
    }
    set_loop_end(w, &l);
}

bool kj_set_lowers(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_SET: return true;
    case KJ_E_BINOP: return n->type && n->type->kind == KJ_T_SET;
    case KJ_E_METHOD: return n->kids[0]->type && n->kids[0]->type->kind == KJ_T_SET;
    case KJ_E_COMPARE:
        return n->nkids == 2 && n->ops[0] != KJ_OP_IN && n->ops[0] != KJ_OP_NOTIN && n->kids[0]->type &&
               n->kids[0]->type->kind == KJ_T_SET;
    case KJ_E_CALL: {
        const kj_node *fn = n->kids[0];
        if (fn->kind != KJ_E_FUNC || n->aux)
            return false;
        return (!strcmp(fn->name, "set") && n->nkids <= 2) ||
               (!strcmp(fn->name, "len") && n->nkids == 2 && n->kids[1]->type && n->kids[1]->type->kind == KJ_T_SET);
    }
    default: return false;
    }
}

LLVMValueRef kj_set_lower(kj_lw *w, kj_node *n) {
    switch (n->kind) {
    case KJ_E_SET: {
        LLVMValueRef s = new_set(w, n->type);
        for (int i = 0; i < n->nkids; i++)
            add(w, s, n->type, kj_lower_expr(w, n->kids[i]), n->kids[i]->type);
        return s;
    }
    case KJ_E_BINOP:
        return binop(w, n->op, kj_lower_expr(w, n->kids[0]), n->kids[0]->type, kj_lower_expr(w, n->kids[1]),
                     n->kids[1]->type, n->type);
    case KJ_E_COMPARE:
        return compare(w, n->ops[0], kj_lower_expr(w, n->kids[0]), n->kids[0]->type, kj_lower_expr(w, n->kids[1]),
                       n->kids[1]->type);
    case KJ_E_METHOD: return method(w, n);
    default: {   /* KJ_E_CALL: len(s), set(), set(iterable) */
        if (n->kids[0]->name[0] == 'l')
            return len(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type);
        if (n->nkids == 2 && n->kids[1]->type->kind == KJ_T_SET)
            return copy(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type, n->type);
        LLVMValueRef s = new_set(w, n->type);
        if (n->nkids == 2)
            add_all(w, s, n->type, n->kids[1]);
        return s;
    }
    }
}

/* ---- what inference and lowering ask of sets (kind_ops.h) ---- */

static LLVMValueRef iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    s->value = kj_lower_expr(w, n);
    return n->type->elem ? kj_dict_iter_setup(w, s->value) : LLVMConstInt(w->i64, 0, 0);
}

static LLVMValueRef iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) { return kj_set_item(w, s->value, s->type, t); }

KJ_KIND_OPS(set, .kind = KJ_T_SET,
            .binop_type = kj_set_binop_type,
            .method_type = kj_set_method_type,
            .display_type = kj_set_expr_type,
            .builtin_call_type = kj_set_call_type,
            .lowers = kj_set_lowers,
            .lower = kj_set_lower,
            .augassign = kj_set_augassign,
            .len = kj_dict_len,   /* a set is a dict of keys alone (sets.h) */
            .iter_setup = iter_setup,
            .iter_item = iter_item);
