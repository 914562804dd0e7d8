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

LLVMValueRef kj_set_new(kj_lw *w, const kj_type *st) { return kj_dict_make(w, st, st->elem, NULL); }

void kj_set_add(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
    kj_dict_put_key(w, s, kj_dict_key_slot(w, x, xt, st->elem), st->elem, NULL, kj_entry_alloca(w, w->i32, "fresh"));
}

static LLVMValueRef has(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
    return kj_dict_contains(w, x, xt, s, st);
}

LLVMValueRef kj_set_take(kj_lw *w, LLVMValueRef s, const kj_type *st, LLVMValueRef x, const kj_type *xt) {
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
        kj_set_add(w, s, st, x, srct->elem);
    set_loop_end(w, &l);
}

void kj_set_add_all(kj_lw *w, LLVMValueRef s, const kj_type *st, kj_node *n) {
    if (n->type->kind == KJ_T_SET) {
        add_set(w, s, st, kj_lower_expr(w, n), n->type);
        return;
    }
    if (n->type->kind == KJ_T_TUPLE) {   /* its items one by one, as a loop over it is unrolled */
        LLVMValueRef t = kj_lower_expr(w, n);
        for (int i = 0; i < n->type->n; i++)
            kj_set_add(w, s, st, LLVMBuildExtractValue(w->b, t, (unsigned)i, ""), n->type->elems[i]);
        return;
    }
    if (!kj_iter_elem(n->type)) {   /* `[]` or `{}` that never got items */
        kj_lower_expr(w, n);
        return;
    }
    kj_iter it = {0};
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, kj_iter_setup(w, n, &it));
    kj_set_add(w, s, st, kj_iter_item(w, &it, i), kj_iter_elem(n->type));
    kj_np_loop_end(w, &l);
    kj_iter_free(&it);
}

LLVMValueRef kj_set_copy(kj_lw *w, LLVMValueRef s, const kj_type *st, const kj_type *t) {
    if (st != t) {   /* items of another type: added one by one */
        LLVMValueRef r = kj_set_new(w, t);
        add_set(w, r, t, s, st);
        return r;
    }
    LLVMValueRef r = kj_call(w, "kj_dict_copy", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, &s);
    kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, r, t);
}

void kj_set_filter(kj_lw *w, LLVMValueRef a, const kj_type *at, int n, LLVMValueRef *others, const kj_type **ots,
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
            kj_set_add(w, r, t, x, at->elem);
        else
            kj_set_take(w, a, at, x, at->elem);
        LLVMBuildBr(w->b, no);
        LLVMPositionBuilderAtEnd(w->b, no);
    }
    set_loop_end(w, &l);
}

LLVMValueRef kj_set_in_other(kj_lw *w, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt, bool every) {
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

LLVMValueRef kj_set_binop(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt,
                          const kj_type *t) {
    if (op == KJ_OP_BITAND || op == KJ_OP_SUB) {
        LLVMValueRef r = kj_set_new(w, t);
        kj_set_filter(w, a, at, 1, &b, &bt, op == KJ_OP_BITAND, r, t);
        return r;
    }
    if (op == KJ_OP_BITOR) {
        LLVMValueRef r = kj_set_copy(w, a, at, t);
        add_set(w, r, t, b, bt);
        return r;
    }
    LLVMValueRef r = kj_set_new(w, t);   /* ^: each side's items the other lacks */
    kj_set_filter(w, a, at, 1, &b, &bt, false, r, t);
    kj_set_filter(w, b, bt, 1, &a, &at, false, r, t);
    return r;
}

/* a CMP b for sets, as Python compares them (subsets). */
static LLVMValueRef compare(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *at, LLVMValueRef b, const kj_type *bt) {
    if (op == KJ_OP_GE || op == KJ_OP_GT)
        return compare(w, op == KJ_OP_GE ? KJ_OP_LE : KJ_OP_LT, b, bt, a, at);
    LLVMValueRef la = len(w, a, at), lb = len(w, b, bt), inside = kj_set_in_other(w, a, at, b, bt, true);
    switch (op) {
    case KJ_OP_EQ: return LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, la, lb, ""), inside, "");
    case KJ_OP_NE: return LLVMBuildNot(w->b, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, la, lb, ""), inside, ""), "");
    case KJ_OP_LT: return LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, la, lb, ""), inside, "");
    default: return inside;   /* <= */
    }
}

void kj_set_augassign(kj_lw *w, kj_node *st) {
    kj_node *target = st->kids[0], *other = st->kids[1];
    const kj_type *t = target->type, *ot = other->type;
    LLVMValueRef s = kj_lower_expr(w, target), o = kj_lower_expr(w, other);
    set_loop l;
    switch (st->op) {
    case KJ_OP_BITAND:   /* s's items o lacks leave */
        kj_set_filter(w, s, t, 1, &o, &ot, false, NULL, t);
        return;
    case KJ_OP_SUB: {   /* o's items leave */
        LLVMValueRef x = set_loop_begin(w, &l, o, ot);
        if (x)
            kj_set_take(w, s, t, x, ot->elem);
        break;
    }
    case KJ_OP_BITXOR: {   /* o's items leave s where it has them, and come in where not */
        LLVMValueRef x = set_loop_begin(w, &l, o, ot);
        if (x) {
            LLVMBasicBlockRef in = kj_new_bb(w, "xor.add"), done = kj_new_bb(w, "xor.done");
            LLVMBuildCondBr(w->b, kj_set_take(w, s, t, x, ot->elem), done, in);
            LLVMPositionBuilderAtEnd(w->b, in);
            kj_set_add(w, s, t, x, ot->elem);
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
        LLVMValueRef s = kj_set_new(w, n->type);
        for (int i = 0; i < n->nkids; i++)
            kj_set_add(w, s, n->type, kj_lower_expr(w, n->kids[i]), n->kids[i]->type);
        return s;
    }
    case KJ_E_BINOP: {
        LLVMValueRef a = kj_lower_expr(w, n->kids[0]), b = kj_lower_expr(w, n->kids[1]);   /* left first, as Python */
        return kj_set_binop(w, n->op, a, n->kids[0]->type, b, n->kids[1]->type, n->type);
    }
    case KJ_E_COMPARE: {
        LLVMValueRef a = kj_lower_expr(w, n->kids[0]), b = kj_lower_expr(w, n->kids[1]);
        return compare(w, n->ops[0], a, n->kids[0]->type, b, n->kids[1]->type);
    }
    default: {   /* KJ_E_CALL: len(s), set(), set(iterable) */
        if (n->kids[0]->name[0] == 'l')
            return len(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type);
        if (n->nkids == 2 && n->kids[1]->type->kind == KJ_T_SET)
            return kj_set_copy(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type, n->type);
        LLVMValueRef s = kj_set_new(w, n->type);
        if (n->nkids == 2)
            kj_set_add_all(w, s, n->type, n->kids[1]);
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
            .methods = "set",
            .display_type = kj_set_expr_type,
            .builtin_call_type = kj_set_call_type,
            .lowers = kj_set_lowers,
            .lower = kj_set_lower,
            .augassign = kj_set_augassign,
            .len = kj_dict_len,   /* a set is a dict of keys alone (sets.h) */
            .iter_setup = iter_setup,
            .iter_item = iter_item);
