/* lists_lower: lists in the generated code. The header (lists.h) is read
 * inline (length, items); growing, inserting, slicing and sorting call
 * rt_list.c. Indices follow Python: negative ones count from the end, out
 * of range is IndexError. */
#include "jit/core/kind_ops.h"
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"
#include "jit/containers/sets.h"
#include "jit/lower/array_util.h"
#include "jit/lower/lower_elem.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_list.h"
#include "jit/lower/strings.h"

#include <stddef.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef field(kj_lw *w, LLVMValueRef list, int offset) {
    LLVMValueRef off = c64(w, KJ_NRT_HEADER - 1 + offset);
    return LLVMBuildGEP2(w->b, w->i8, list, &off, 1, "");
}

LLVMValueRef kj_list_len(kj_lw *w, LLVMValueRef list) {
    return LLVMBuildLoad2(w->b, w->i64, field(w, list, offsetof(kj_list_header, n)), "len");
}

static LLVMValueRef item_ptr(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef i) {
    LLVMValueRef items = LLVMBuildLoad2(w->b, w->ptr, field(w, list, offsetof(kj_list_header, items)), "items");
    return LLVMBuildGEP2(w->b, kj_llmemtype(w, elem), items, &i, 1, "");
}

LLVMValueRef kj_list_get(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef i) {
    return kj_np_load(w, item_ptr(w, list, elem, i), elem);
}

void kj_list_check_memory(kj_lw *w, LLVMValueRef status) {
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntNE, status, LLVMConstInt(w->i32, 0, 0), ""), PyExc_MemoryError, NULL);
}

bool kj_list_holds_owners(const kj_type *elem) { return elem && (elem->kind == KJ_T_ARRAY || elem->kind == KJ_T_LIST); }

/* Marks a list of arrays or lists as holding its items' owners (rt_list.c gives
 * them back with the list); said again at each append and insert, since
 * `[]` learns its item type only then. */
static void mark_owners(kj_lw *w, LLVMValueRef list, const kj_type *elem) {
    if (kj_list_holds_owners(elem))
        LLVMBuildStore(w->b, c64(w, 1), field(w, list, offsetof(kj_list_header, owners)));
}

/* A new empty list (a temporary of the statement). */
static LLVMValueRef new_list(kj_lw *w, const kj_type *t, LLVMValueRef cap) {
    if (!kj_nrt_host_only(w, NULL, "creating lists"))
        return LLVMGetUndef(w->ptr);
    LLVMValueRef size = t->elem ? kj_np_itemsize(w, t->elem) : c64(w, 0);
    LLVMValueRef l = kj_call(w, "kj_list_new", w->ptr, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){size, cap});
    kj_raise_if(w, LLVMBuildIsNull(w->b, l, ""), PyExc_MemoryError, NULL);
    mark_owners(w, l, t->elem);
    return kj_nrt_temp(w, l, t);
}

LLVMValueRef kj_list_item_slot(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef v, const kj_type *vt) {
    LLVMValueRef slot = kj_entry_alloca(w, kj_llmemtype(w, elem), "item");
    kj_np_store_elem(w, slot, v, vt, elem);
    if (kj_list_holds_owners(elem)) {
        mark_owners(w, list, elem);
        kj_nrt_incref_value(w, kj_cast(w, v, vt, elem), elem);
    }
    return slot;
}

static void append(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef v, const kj_type *vt) {
    LLVMValueRef slot = kj_list_item_slot(w, list, elem, v, vt);
    kj_list_check_memory(w, kj_call(w, "kj_list_append", w->i32, 3, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64},
                            (LLVMValueRef[]){list, slot, kj_np_itemsize(w, elem)}));
}

LLVMValueRef kj_list_index(kj_lw *w, LLVMValueRef i, const kj_type *it, LLVMValueRef n, const char *msg) {
    i = kj_cast(w, i, it, KJ_I64);
    i = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, i, c64(w, 0), ""), LLVMBuildAdd(w->b, i, n, ""), i, "");
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntUGE, i, n, ""), PyExc_IndexError, msg);
    return i;
}

LLVMValueRef kj_list_make(kj_lw *w, const kj_type *t, LLVMValueRef cap) { return new_list(w, t, cap); }

LLVMValueRef kj_list_copy(kj_lw *w, LLVMValueRef l, const kj_type *t) {
    LLVMValueRef r = kj_call(w, "kj_list_slice", w->ptr, 5, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->i64},
                             (LLVMValueRef[]){l, c64(w, 0), kj_list_len(w, l), c64(w, 1), kj_np_itemsize(w, t->elem)});
    kj_raise_if(w, LLVMBuildIsNull(w->b, r, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, r, t);
}

/* A new list (type t) of what src gives a loop: list(range(...)),
 * list(array), sorted(array), as the comprehension [x for x in src]. */
static LLVMValueRef list_of(kj_lw *w, kj_node *src, const kj_type *t) {
    kj_iter it = {0};
    LLVMValueRef len = kj_iter_setup(w, src, &it), l = new_list(w, t, len);
    kj_np_loop lp;
    LLVMValueRef i = kj_np_loop_begin(w, &lp, len);
    append(w, l, t->elem, kj_iter_item(w, &it, i), kj_iter_elem(src->type));
    kj_np_loop_end(w, &lp);
    kj_iter_free(&it);
    return l;
}

void kj_list_push(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef v, const kj_type *vt) {
    append(w, list, elem, v, vt);
}

/* ---- comprehensions ---- */

void kj_comprehension_loop(kj_lw *w, kj_node *n, kj_iter *it, LLVMValueRef len,
                           void (*add)(kj_lw *w, void *to, kj_node *item), void *to) {
    kj_np_loop l;
    LLVMValueRef t = kj_np_loop_begin(w, &l, len);
    kj_assign(w, n->kids[1], kj_iter_item(w, it, t), kj_iter_elem(n->kids[2]->type));
    LLVMBasicBlockRef skip = kj_new_bb(w, "comp.skip");
    for (int i = 3; i < n->nkids; i++) {
        LLVMBasicBlockRef next = kj_new_bb(w, "comp.if");
        LLVMBuildCondBr(w->b, kj_truth(w, kj_lower_expr(w, n->kids[i]), n->kids[i]->type), next, skip);
        LLVMPositionBuilderAtEnd(w->b, next);
    }
    if (n->kids[0]->type == kj_never())   /* raises: nothing is added */
        kj_lower_expr(w, n->kids[0]);
    else
        add(w, to, n->kids[0]);
    LLVMBuildBr(w->b, skip);
    LLVMPositionBuilderAtEnd(w->b, skip);
    kj_np_loop_end(w, &l);
}

typedef struct {
    LLVMValueRef list;
    const kj_type *elem;
} list_target;

static void append_item(kj_lw *w, void *to, kj_node *item) {
    list_target *l = to;
    append(w, l->list, l->elem, kj_lower_expr(w, item), item->type);
}

static LLVMValueRef comprehension(kj_lw *w, kj_node *n) {
    kj_iter it = {0};
    LLVMValueRef len = kj_iter_setup(w, n->kids[2], &it);
    list_target to = {new_list(w, n->type, len), n->type->elem};
    kj_comprehension_loop(w, n, &it, len, append_item, &to);
    kj_iter_free(&it);
    return to.list;
}

/* ---- x in container ---- */

static LLVMValueRef contains(kj_lw *w, kj_node *n) {
    const kj_type *xt = n->kids[0]->type, *ct = n->kids[1]->type;
    LLVMValueRef x = kj_lower_expr(w, n->kids[0]), c = kj_lower_expr(w, n->kids[1]);
    bool negate = n->ops[0] == KJ_OP_NOTIN;
    if (ct->kind == KJ_T_DICT || ct->kind == KJ_T_SET) {
        LLVMValueRef r = kj_dict_contains(w, x, xt, c, ct);
        return negate ? LLVMBuildNot(w->b, r, "") : r;
    }
    LLVMValueRef found = kj_entry_alloca(w, w->i1, "found");
    LLVMBuildStore(w->b, LLVMConstInt(w->i1, 0, 0), found);
    const kj_type *et;
    if (ct->kind == KJ_T_TUPLE) {
        for (int i = 0; i < ct->n; i++) {
            LLVMValueRef y = LLVMBuildExtractValue(w->b, c, (unsigned)i, "");
            LLVMValueRef hit = xt->kind == KJ_T_STR ? kj_str_equal(w, x, y)
                                                    : kj_np_elem_op(w, n, "equal", 2, (LLVMValueRef[]){x, y}, (const kj_type *[]){xt, ct->elems[i]}, kj_bool());
            LLVMBuildStore(w->b, LLVMBuildOr(w->b, LLVMBuildLoad2(w->b, w->i1, found, ""), hit, ""), found);
        }
    } else {
        et = ct->elem;
        LLVMValueRef len = ct->kind == KJ_T_LIST ? kj_list_len(w, c) : kj_array_len(w, c);
        if (!et)   /* `[]` that never got items */
            return LLVMConstInt(w->i1, negate, 0);
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, len);
        LLVMValueRef y = ct->kind == KJ_T_LIST ? kj_list_get(w, c, et, i) : kj_array_item(w, c, ct, i);
        LLVMValueRef hit = kj_np_elem_op(w, n, "equal", 2, (LLVMValueRef[]){x, y}, (const kj_type *[]){xt, et}, kj_bool());
        LLVMBuildStore(w->b, LLVMBuildOr(w->b, LLVMBuildLoad2(w->b, w->i1, found, ""), hit, ""), found);
        kj_np_loop_end(w, &l);
    }
    LLVMValueRef r = LLVMBuildLoad2(w->b, w->i1, found, "");
    return negate ? LLVMBuildNot(w->b, r, "") : r;
}

/* ---- a == b, a < b, ... of two lists of numbers ---- */

/* As Python compares them: the first position where the items differ
 * decides (by the operator, on those items); where none does, the lengths. */
static LLVMValueRef compare_lists(kj_lw *w, kj_node *n) {
    kj_node *an = n->kids[0], *bn = n->kids[1];
    const kj_type *at = an->type, *bt = bn->type;
    LLVMValueRef a = kj_lower_expr(w, an), b = kj_lower_expr(w, bn);
    LLVMValueRef alen = kj_list_len(w, a), blen = kj_list_len(w, b);
    kj_op op = n->ops[0];
    /* where no item differs: the operator on the lengths */
    LLVMIntPredicate by_len = op == KJ_OP_EQ ? LLVMIntEQ : op == KJ_OP_NE ? LLVMIntNE : op == KJ_OP_LT ? LLVMIntSLT
                            : op == KJ_OP_LE ? LLVMIntSLE : op == KJ_OP_GT ? LLVMIntSGT : LLVMIntSGE;
    LLVMValueRef result = kj_entry_alloca(w, w->i1, "lists.cmp");
    LLVMBuildStore(w->b, LLVMBuildICmp(w->b, by_len, alen, blen, ""), result);
    if (!at->elem || !bt->elem)   /* one never held an item: only the lengths tell */
        return LLVMBuildLoad2(w->b, w->i1, result, "");
    LLVMValueRef shorter = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, alen, blen, ""), alen, blen, "");
    LLVMBasicBlockRef differ = kj_new_bb(w, "lists.differ"), same = kj_new_bb(w, "lists.same"),
                      done = kj_new_bb(w, "lists.done");
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, shorter);
    kj_np_loop_keep_scalar(&l);
    LLVMValueRef x = kj_list_get(w, a, at->elem, i), y = kj_list_get(w, b, bt->elem, i);
    const kj_type *pair[2] = {at->elem, bt->elem};
    LLVMValueRef equal = kj_np_elem_op(w, n, "equal", 2, (LLVMValueRef[]){x, y}, pair, kj_bool());
    LLVMBuildCondBr(w->b, equal, same, differ);
    LLVMPositionBuilderAtEnd(w->b, differ);   /* the first items that differ decide */
    const char *ufunc = op == KJ_OP_EQ ? NULL : op == KJ_OP_NE ? NULL : op == KJ_OP_LT ? "less" : op == KJ_OP_LE ? "less_equal"
                      : op == KJ_OP_GT ? "greater" : "greater_equal";
    LLVMValueRef decided = ufunc ? kj_np_elem_op(w, n, ufunc, 2, (LLVMValueRef[]){x, y}, pair, kj_bool())
                                 : LLVMConstInt(w->i1, op == KJ_OP_NE, 0);
    LLVMBuildStore(w->b, decided, result);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, same);
    kj_np_loop_end(w, &l);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    return LLVMBuildLoad2(w->b, w->i1, result, "");
}

/* ---- slices: Python's rules for start, stop, step over n items ---- */

static LLVMValueRef slice(kj_lw *w, kj_node *sl, LLVMValueRef list, const kj_type *t) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef n = kj_list_len(w, list), zero = c64(w, 0), one = c64(w, 1), m1 = c64(w, -1);
    LLVMValueRef v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++)
        if (sl->kids[k] && sl->kids[k]->type->kind != KJ_T_NONE)
            v[k] = kj_np_value(w, sl->kids[k], KJ_I64);
    LLVMValueRef step = v[2] ? v[2] : one;
    if (v[2])
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, step, zero, ""), PyExc_ValueError, "slice step cannot be zero");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, step, zero, "");
    LLVMValueRef bound[2];
    for (int k = 0; k < 2; k++) {
        if (!v[k]) {
            bound[k] = k == 0 ? LLVMBuildSelect(b, neg, LLVMBuildSub(b, n, one, ""), zero, "")
                              : LLVMBuildSelect(b, neg, m1, n, "");
            continue;
        }
        LLVMValueRef x = v[k], lo = LLVMBuildSelect(b, neg, m1, zero, ""), hi = LLVMBuildSelect(b, neg, LLVMBuildSub(b, n, one, ""), n, "");
        LLVMValueRef xn = LLVMBuildAdd(b, x, n, "");
        xn = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, xn, zero, ""), lo, xn, "");
        LLVMValueRef xp = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGE, x, n, ""), hi, x, "");
        bound[k] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, x, zero, ""), xn, xp, "");
    }
    LLVMValueRef lo = LLVMBuildSelect(b, neg, bound[1], bound[0], ""), hi = LLVMBuildSelect(b, neg, bound[0], bound[1], "");
    LLVMValueRef mag = LLVMBuildSelect(b, neg, LLVMBuildNeg(b, step, ""), step, "");
    LLVMValueRef len = LLVMBuildAdd(b, LLVMBuildSDiv(b, LLVMBuildSub(b, LLVMBuildSub(b, hi, lo, ""), one, ""), mag, ""), one, "");
    len = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, lo, hi, ""), len, zero, "");
    LLVMValueRef r = kj_call(w, "kj_list_slice", w->ptr, 5, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64, w->i64},
                             (LLVMValueRef[]){list, bound[0], len, step, kj_np_itemsize(w, t->elem)});
    kj_raise_if(w, LLVMBuildIsNull(b, r, ""), PyExc_MemoryError, NULL);
    return kj_nrt_temp(w, r, t);
}

/* ---- sorting ---- */

/* The numbers in an item of type e, in order, as KJ_LIST_FIELDs from
 * *offset on, appended to fields while *n < max; *n counts them all. */
static void item_fields(kj_lw *w, const kj_type *e, int64_t *fields, int max, int *n, int64_t *offset) {
    if (e->kind == KJ_T_TUPLE) {
        for (int i = 0; i < e->n; i++)
            item_fields(w, e->elems[i], fields, max, n, offset);
        return;
    }
    int64_t size = (int64_t)LLVMConstIntGetZExtValue(kj_np_itemsize(w, e));
    if (*n < max)
        fields[*n] = KJ_LIST_FIELD(e->kind == KJ_T_FLOAT ? 'f' : (e->kind == KJ_T_INT && e->is_signed) ? 'i' : 'u', size,
                                   *offset);
    (*n)++;
    *offset += size;
}

void kj_list_sort_items(kj_lw *w, kj_node *at, LLVMValueRef list, const kj_type *e, LLVMValueRef reverse) {
    enum { MAX = 64 };
    int64_t fields[MAX], offset = 0;
    int n = 0;
    item_fields(w, e, fields, MAX, &n, &offset);
    if (n > MAX) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL, "cannot sort items of more than %d numbers", MAX);
        return;
    }
    LLVMValueRef v[MAX];
    for (int i = 0; i < n; i++)
        v[i] = c64(w, fields[i]);
    LLVMValueRef table = LLVMAddGlobal(w->mod, LLVMArrayType2(w->i64, (uint64_t)n), "list.sort.fields");
    LLVMSetInitializer(table, LLVMConstArray2(w->i64, v, (uint64_t)n));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    kj_list_check_memory(w, kj_call(w, "kj_list_sort", w->i32, 4, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64, w->i64},
                            (LLVMValueRef[]){list, table, c64(w, n), reverse}));
}

/* The length and item i of seq, a list or a 1-d array (type st). */
static LLVMValueRef seq_len(kj_lw *w, LLVMValueRef seq, const kj_type *st) {
    if (st->kind == KJ_T_SET || st->kind == KJ_T_DICT || st->kind == KJ_T_DICTVIEW)   /* its items made the first ones of its table */
        return kj_iter_elem(st) ? kj_dict_iter_setup(w, seq) : c64(w, 0);
    return st->kind == KJ_T_LIST ? kj_list_len(w, seq) : kj_array_len(w, seq);
}

static LLVMValueRef seq_get(kj_lw *w, LLVMValueRef seq, const kj_type *st, LLVMValueRef i) {
    if (st->kind == KJ_T_SET)
        return kj_set_item(w, seq, st, i);
    if (st->kind == KJ_T_DICT)   /* its keys */
        return kj_dict_iter_item(w, seq, st, 'k', i);
    if (st->kind == KJ_T_DICTVIEW)   /* the view's value is its dict */
        return kj_dict_iter_item(w, seq, st->elem, (char)st->bits, i);
    return st->kind == KJ_T_LIST ? kj_list_get(w, seq, st->elem, i) : kj_array_item(w, seq, st, i);
}

/* sum, min or max (op "add", "min", "max") of a list, 1-d array, set or
 * dict (its keys) seq of type st, in rt, as Python's builtins go through it. */
static LLVMValueRef fold(kj_lw *w, kj_node *n, const char *op, LLVMValueRef seq, const kj_type *st, const kj_type *rt) {
    const kj_type *e = kj_iter_elem(st);
    LLVMValueRef len = seq_len(w, seq, st);
    if (strcmp(op, "add") != 0)
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, len, c64(w, 0), ""), PyExc_ValueError,
                    op[1] == 'i' ? "min() arg is an empty sequence" : "max() arg is an empty sequence");
    LLVMValueRef acc = kj_entry_alloca(w, kj_lltype(w, rt), "acc");
    LLVMBuildStore(w->b, strcmp(op, "add") == 0 ? LLVMConstNull(kj_lltype(w, rt)) : kj_cast(w, seq_get(w, seq, st, c64(w, 0)), e, rt), acc);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, len);
    LLVMValueRef x = seq_get(w, seq, st, i), cur = LLVMBuildLoad2(w->b, kj_lltype(w, rt), acc, "");
    LLVMValueRef r;
    if (!strcmp(op, "add"))
        r = kj_np_elem_op(w, n, "add", 2, (LLVMValueRef[]){cur, x}, (const kj_type *[]){rt, e}, rt);
    else {   /* Python's min/max: the first of equal items, NaN compares false */
        LLVMValueRef better = kj_np_elem_op(w, n, op[1] == 'i' ? "less" : "greater", 2, (LLVMValueRef[]){x, cur},
                                            (const kj_type *[]){e, rt}, kj_bool());
        r = LLVMBuildSelect(w->b, better, kj_cast(w, x, e, rt), cur, "");
    }
    LLVMBuildStore(w->b, r, acc);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, kj_lltype(w, rt), acc, "");
}

/* any(seq) / all(seq) of what fold takes: the truth of its items. */
static LLVMValueRef truth_fold(kj_lw *w, LLVMValueRef seq, const kj_type *st, bool is_all) {
    const kj_type *e = kj_iter_elem(st);
    LLVMValueRef acc = kj_entry_alloca(w, w->i1, "truth");
    LLVMBuildStore(w->b, LLVMConstInt(w->i1, is_all, 0), acc);
    if (!e)   /* `[]`, `{}`, set() */
        return LLVMBuildLoad2(w->b, w->i1, acc, "");
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, seq_len(w, seq, st));
    LLVMValueRef x = kj_truth(w, seq_get(w, seq, st, i), e), cur = LLVMBuildLoad2(w->b, w->i1, acc, "");
    LLVMBuildStore(w->b, is_all ? LLVMBuildAnd(w->b, cur, x, "") : LLVMBuildOr(w->b, cur, x, ""), acc);
    kj_np_loop_end(w, &l);
    return LLVMBuildLoad2(w->b, w->i1, acc, "");
}

static LLVMValueRef call(kj_lw *w, kj_node *n) {
    const char *name = n->kids[0]->name;
    const kj_type *t = n->type;
    if (!strcmp(name, "list")) {
        if (n->nkids == 1)
            return new_list(w, t, c64(w, 0));
        kj_node *src = n->kids[1];
        const kj_type *st = src->type;
        if (st->kind == KJ_T_LIST)
            return kj_list_copy(w, kj_lower_expr(w, src), t);
        if (st->kind == KJ_T_TUPLE) {
            LLVMValueRef tup = kj_lower_expr(w, src), l = new_list(w, t, c64(w, st->n));
            for (int i = 0; i < st->n; i++)
                append(w, l, t->elem, LLVMBuildExtractValue(w->b, tup, (unsigned)i, ""), st->elems[i]);
            return l;
        }
        return list_of(w, src, t);   /* list(range(...)), list(array), list(reversed(...)) */
    }
    if (!strcmp(name, "sorted")) {   /* a new list of the items, sorted */
        kj_node *src = n->kids[1];
        if (kj_holds_nothing(src->type)) {   /* it is empty: so is the new list */
            kj_lower_expr(w, src);
            if (n->nkids == 3)   /* reverse= is still evaluated */
                kj_lower_expr(w, n->kids[2]->kids[0]);
            return new_list(w, t, c64(w, 0));
        }
        LLVMValueRef r = src->type->kind == KJ_T_LIST ? kj_list_copy(w, kj_lower_expr(w, src), t) : list_of(w, src, t);
        LLVMValueRef reverse = n->nkids == 3 ? kj_truth(w, kj_lower_expr(w, n->kids[2]->kids[0]), n->kids[2]->kids[0]->type)
                                             : LLVMConstInt(w->i1, 0, 0);
        kj_list_sort_items(w, n, r, t->elem, LLVMBuildZExt(w->b, reverse, w->i64, ""));
        return r;
    }
    LLVMValueRef seq = kj_lower_expr(w, n->kids[1]);
    const kj_type *st = n->kids[1]->type;
    if (!strcmp(name, "len"))
        return kj_list_len(w, seq);
    if (!strcmp(name, "any") || !strcmp(name, "all"))
        return truth_fold(w, seq, st, name[1] == 'l');
    if (!strcmp(name, "sum"))   /* of what holds nothing, the start 0 */
        return kj_holds_nothing(st) ? c64(w, 0) : fold(w, n, "add", seq, st, t);
    return fold(w, n, name, seq, st, t);   /* min, max */
}

/* ---- + and * ---- */

/* Appends to list (items of type elem) `times` copies of the first len
 * items of src (type st): the length is read before, so that a list
 * repeated or extended with itself takes its items once per copy. */
static void append_copies(kj_lw *w, LLVMValueRef list, const kj_type *elem, LLVMValueRef src, const kj_type *st,
                          LLVMValueRef len, LLVMValueRef times) {
    if (!st->elem)   /* `[]`: nothing to copy */
        return;
    kj_np_loop copies, items;
    kj_np_loop_begin(w, &copies, times);
    LLVMValueRef i = kj_np_loop_begin(w, &items, len);
    append(w, list, elem, kj_list_get(w, src, st->elem, i), st->elem);
    kj_np_loop_end(w, &items);
    kj_np_loop_end(w, &copies);
}

/* a + b, a * n or n * a: a new list. */
/* len * times (times >= 0), raising MemoryError where that many items
 * cannot be counted, as Python's [0] * 2**70 does. */
static LLVMValueRef repeated_length(kj_lw *w, LLVMValueRef len, LLVMValueRef times) {
    LLVMValueRef total = LLVMBuildMul(w->b, len, times, "");
    LLVMValueRef wrapped = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, times, c64(w, 0), ""),
                                        LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildSDiv(w->b, total, times, ""), len, ""), "");
    kj_raise_if(w, wrapped, PyExc_MemoryError, NULL);
    return total;
}

static LLVMValueRef binop(kj_lw *w, kj_node *n) {
    const kj_type *t = n->type;
    kj_node *ln = n->kids[0]->type->kind == KJ_T_LIST ? n->kids[0] : n->kids[1], *other = ln == n->kids[0] ? n->kids[1] : n->kids[0];
    LLVMValueRef a = kj_lower_expr(w, ln), b = kj_lower_expr(w, other), alen = kj_list_len(w, a);
    if (n->op == KJ_OP_MUL) {
        LLVMValueRef times = kj_cast(w, b, other->type, KJ_I64);
        times = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, times, c64(w, 0), ""), times, c64(w, 0), "");
        LLVMValueRef list = new_list(w, t, repeated_length(w, alen, times));
        append_copies(w, list, t->elem, a, ln->type, alen, times);
        return list;
    }
    LLVMValueRef blen = kj_list_len(w, b), list = new_list(w, t, LLVMBuildAdd(w->b, alen, blen, ""));
    append_copies(w, list, t->elem, a, ln->type, alen, c64(w, 1));
    append_copies(w, list, t->elem, b, other->type, blen, c64(w, 1));
    return list;
}

void kj_list_augassign(kj_lw *w, kj_node *s) {
    const kj_type *t = s->type, *vt = s->kids[1]->type;
    LLVMValueRef list = kj_lower_expr(w, s->kids[0]), v = kj_lower_expr(w, s->kids[1]), len = kj_list_len(w, list);
    if (s->op == KJ_OP_ADD) {
        append_copies(w, list, t->elem, v, vt, kj_list_len(w, v), c64(w, 1));
        return;
    }
    /* lst *= n: n - 1 more copies, or none left for n <= 0 */
    LLVMValueRef times = kj_cast(w, v, vt, KJ_I64);
    LLVMBasicBlockRef clear = kj_new_bb(w, "repeat.clear"), more = kj_new_bb(w, "repeat.more"), done = kj_new_bb(w, "repeat.done");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLE, times, c64(w, 0), ""), clear, more);
    LLVMPositionBuilderAtEnd(w->b, clear);
    kj_call(w, "kj_list_clear", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &list);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, more);
    /* room for all of them first: a repeat too large for memory raises before it fills it */
    LLVMValueRef room = kj_call(w, "kj_list_reserve", w->i32, 3, (LLVMTypeRef[]){w->ptr, w->i64, w->i64},
                                (LLVMValueRef[]){list, repeated_length(w, len, times), t->elem ? kj_np_itemsize(w, t->elem) : c64(w, 0)});
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, room, LLVMConstInt(w->i32, 0, 0), ""), PyExc_MemoryError, NULL);
    append_copies(w, list, t->elem, list, t, len, LLVMBuildSub(w->b, times, c64(w, 1), ""));
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

bool kj_list_lowers(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_BINOP: return n->type && n->type->kind == KJ_T_LIST;
    case KJ_E_LIST:
    case KJ_E_LISTCOMP: return true;
    case KJ_E_INDEX: return n->kids[0]->type && n->kids[0]->type->kind == KJ_T_LIST;
    case KJ_E_COMPARE:
        return n->nkids == 2 && (n->ops[0] == KJ_OP_IN || n->ops[0] == KJ_OP_NOTIN ||
                                 (n->kids[0]->type->kind == KJ_T_LIST && n->kids[1]->type->kind == KJ_T_LIST));
    case KJ_E_CALL: {
        const kj_node *fn = n->kids[0];
        if (fn->kind != KJ_E_FUNC || n->aux)
            return false;
        if (!strcmp(fn->name, "list"))
            return true;
        const kj_type *st = n->nkids >= 2 ? n->kids[1]->type : NULL;
        if (!st || (st->kind != KJ_T_LIST && st->kind != KJ_T_SET && st->kind != KJ_T_DICT && st->kind != KJ_T_DICTVIEW &&
                    (st->kind != KJ_T_ARRAY || st->ndim != 1)))
            return false;
        if (n->nkids == 3)   /* sorted(x, reverse=...) */
            return !strcmp(fn->name, "sorted");
        return n->nkids == 2 && ((!strcmp(fn->name, "len") && st->kind == KJ_T_LIST) || !strcmp(fn->name, "sum") ||
                                 !strcmp(fn->name, "min") || !strcmp(fn->name, "max") || !strcmp(fn->name, "sorted") ||
                                 !strcmp(fn->name, "any") || !strcmp(fn->name, "all"));
    }
    default: return false;
    }
}

LLVMValueRef kj_list_lower(kj_lw *w, kj_node *n) {
    switch (n->kind) {
    case KJ_E_LIST: {
        LLVMValueRef l = new_list(w, n->type, c64(w, n->nkids));
        for (int i = 0; i < n->nkids; i++)
            append(w, l, n->type->elem, kj_lower_expr(w, n->kids[i]), n->kids[i]->type);
        return l;
    }
    case KJ_E_LISTCOMP: return comprehension(w, n);
    case KJ_E_BINOP: return binop(w, n);
    case KJ_E_COMPARE: return n->ops[0] == KJ_OP_IN || n->ops[0] == KJ_OP_NOTIN ? contains(w, n) : compare_lists(w, n);
    case KJ_E_CALL: return call(w, n);
    default: {   /* KJ_E_INDEX */
        LLVMValueRef list = kj_lower_expr(w, n->kids[0]);
        const kj_type *t = n->kids[0]->type;
        if (n->kids[1]->kind == KJ_E_SLICE)
            return slice(w, n->kids[1], list, t);
        LLVMValueRef i = kj_list_index(w, kj_lower_expr(w, n->kids[1]), n->kids[1]->type, kj_list_len(w, list),
                                  "list index out of range");
        return kj_list_get(w, list, t->elem, i);
    }
    }
}

void kj_list_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    const kj_type *t = target->kids[0]->type;
    LLVMValueRef list = kj_lower_expr(w, target->kids[0]);
    LLVMValueRef i = kj_list_index(w, kj_lower_expr(w, target->kids[1]), target->kids[1]->type, kj_list_len(w, list),
                              "list assignment index out of range");
    LLVMValueRef p = item_ptr(w, list, t->elem, i);
    if (!kj_list_holds_owners(t->elem)) {
        kj_np_store_elem(w, p, v, vt, t->elem);
        return;
    }
    LLVMValueRef old = kj_np_load(w, p, t->elem), item = kj_cast(w, v, vt, t->elem);
    kj_nrt_incref_value(w, item, t->elem);   /* before the old one goes: lst[i] = lst[i] */
    kj_np_store_elem(w, p, item, t->elem, t->elem);
    kj_nrt_decref_value(w, old, t->elem);
}

/* ---- what inference and lowering ask of lists (kind_ops.h) ---- */

static const kj_type *index_type(kj_infer_ctx *c, kj_node *n, const kj_type *self, bool *handled) {
    *handled = true;
    return kj_list_index_type(c, n, self);
}

static LLVMValueRef iter_setup(kj_lw *w, kj_node *n, kj_iter *s) {
    s->value = kj_lower_expr(w, n);
    return kj_list_len(w, s->value);
}

static LLVMValueRef iter_item(kj_lw *w, kj_iter *s, LLVMValueRef t) { return kj_list_get(w, s->value, s->type->elem, t); }

KJ_KIND_OPS(list, .kind = KJ_T_LIST,
            .binop_type = kj_list_binop_type,
            .methods = "list",
            .index_type = index_type,
            .display_type = kj_list_expr_type,
            .builtin_call_type = kj_list_call_type,
            .lowers = kj_list_lowers,
            .lower = kj_list_lower,
            .augassign = kj_list_augassign,
            .store = kj_list_store,
            .len = kj_list_len,
            .iter_setup = iter_setup,
            .iter_item = iter_item);
