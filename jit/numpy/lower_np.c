/* lower_np: the entry of NumPy lowering: routes a node inference gave to
 * infer_np.c to the part that lowers it, and lowers stores into views
 * (a[1:-1] = b), masks and index arrays, and in-place operators (a += b). */
#include "jit/core/kind_ops.h"
#include "jit/numpy/lower_np.h"

#include <string.h>

static LLVMValueRef lower_call(kj_lw *w, kj_node *n) {
    const char *m = n->kids[0]->name + 3;
    kj_np_args a;
    kj_np_split(n, 1, &a);
    const kj_callable *uf = kj_np_ufunc(m);
    if (uf) {
        kj_node *out = kj_np_arg(&a, -1, "out");
        if (out)
            return kj_np_ewise(w, n, kj_lower_expr(w, out), out->type);
        if (n->type->kind != KJ_T_ARRAY)
            return kj_np_ewise_scalar(w, n);
        return kj_np_ewise(w, n, NULL, NULL);
    }
    const kj_callable *k = kj_np_callable(m);   /* typing found it */
    return k->np_lower(w, n, m, &a);
}

LLVMValueRef kj_np_lower(kj_lw *w, kj_node *n) {
    kj_at(w, n);
    switch (n->kind) {
    case KJ_E_BINOP:
    case KJ_E_UNARY:
    case KJ_E_COMPARE: return n->type->kind == KJ_T_ARRAY ? kj_np_ewise(w, n, NULL, NULL) : kj_np_ewise_scalar(w, n);
    case KJ_E_CALL: return lower_call(w, n);
    case KJ_E_METHOD: return kj_np_lower_method(w, n);
    case KJ_E_ATTR: return kj_np_part(w, kj_lower_expr(w, n->kids[0]), n->kids[0]->type, !strcmp(n->name, "imag"), n->type);
    case KJ_E_INDEX: return kj_np_lower_fancy_index(w, n);
    default:
        kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "internal: not a NumPy node");
        return LLVMGetUndef(w->i8);
    }
}

bool kj_np_lowers_store(const kj_node *target) {
    return target->kind == KJ_E_INDEX && target->type && target->type->kind == KJ_T_ARRAY &&
           target->kids[0]->type->kind == KJ_T_ARRAY;   /* not lst[i] = array: the item is replaced */
}

/* Whether src and dst may share memory (the same owner): then src is
 * copied first, as NumPy does for overlapping assignments. */
static LLVMValueRef unaliased(kj_lw *w, LLVMValueRef dst, LLVMValueRef src, const kj_type *st) {
    LLVMValueRef same = LLVMBuildICmp(w->b, LLVMIntEQ, kj_array_field(w, dst, 0, 0), kj_array_field(w, src, 0, 0), "");
    LLVMBasicBlockRef copy = kj_new_bb(w, "assign.copy"), join = kj_new_bb(w, "assign.join");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b);
    LLVMBuildCondBr(w->b, same, copy, join);
    LLVMPositionBuilderAtEnd(w->b, copy);
    LLVMValueRef c = kj_np_copy(w, src, st, st->elem);
    LLVMBasicBlockRef copy_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef phi = LLVMBuildPhi(w->b, kj_lltype(w, st), "src");
    LLVMAddIncoming(phi, (LLVMValueRef[]){src, c}, (LLVMBasicBlockRef[]){from, copy_end}, 2);
    return phi;
}

void kj_np_store(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    if (kj_np_lowers(target)) {   /* a[mask] = v, a[idx] = v */
        kj_np_store_fancy(w, target, v, vt);
        return;
    }
    LLVMValueRef view = kj_lower_index(w, target);
    if (vt->kind == KJ_T_ARRAY) {
        const kj_type *st = kj_array(vt->elem, vt->ndim, KJ_LAYOUT_A, vt->readonly);
        v = unaliased(w, view, v, st);
        vt = st;
    }
    kj_np_assign(w, view, target->type, v, vt);
}

/* The local an array target is a view of (a in a, a[1:], a.T[0]), or -1. */
static int target_local(const kj_node *t) {
    while (t->kind == KJ_E_INDEX || t->kind == KJ_E_ATTR || t->kind == KJ_E_UNWRAP)
        t = t->kids[0];
    return t->kind == KJ_E_LOCAL ? t->slot : -1;
}

/* Whether evaluating v straight into the target (the local `slot`, bare or
 * a view of it) could read elements the same loop already wrote: the local
 * appears in v other than as the bare whole array, element for element,
 * under operators (a += a * 2 is safe; a[1:] += a[:-1] and a += a[::-1]
 * are not). A view held in another local is not seen. */
static bool reads_what_it_writes(const kj_node *v, int slot, bool bare_target, bool elementwise) {
    if (v->kind == KJ_E_LOCAL)
        return v->slot == slot && !(bare_target && elementwise);
    bool kids_elementwise = elementwise && (v->kind == KJ_E_BINOP || v->kind == KJ_E_UNARY || v->kind == KJ_E_UNWRAP);
    for (int i = 0; i < v->nkids; i++)
        if (v->kids[i] && reads_what_it_writes(v->kids[i], slot, bare_target, kids_elementwise))
            return true;
    return false;
}

/* Whether the arrays v reads, under elementwise operators, are only the
 * local `slot` itself (a *= 2, a += a * a): then no operand can overlap
 * the target other than element for element. */
static bool reads_no_other_array(const kj_node *v, int slot) {
    if (!v->type || v->type->kind != KJ_T_ARRAY)
        return true;   /* a number: read before the loop */
    if (v->kind == KJ_E_LOCAL)
        return v->slot == slot;
    if (v->kind != KJ_E_BINOP && v->kind != KJ_E_UNARY && v->kind != KJ_E_COMPARE)
        return false;
    for (int i = 0; i < v->nkids; i++)
        if (!reads_no_other_array(v->kids[i], slot))
            return false;
    return true;
}

void kj_np_augassign(kj_lw *w, kj_node *s) {
    kj_node *target = s->kids[0];
    int slot = target_local(target);
    kj_node *optional[1] = {target}, value_of_target;
    if (target->type->kind == KJ_T_OPTIONAL) {   /* `if a is not None: a += b` (None raises TypeError) */
        value_of_target = (kj_node){.kind = KJ_E_UNWRAP, .line = target->line, .col = target->col,
                                    .kids = optional, .nkids = 1, .type = target->type->elem};
        target = &value_of_target;
    }
    kj_node root = {.kind = KJ_E_BINOP, .line = s->line, .col = s->col, .op = s->op,
                    .kids = (kj_node *[]){target, s->kids[1]}, .nkids = 2, .type = s->type};   /* stored cast to target's */
    bool overlap = slot >= 0 && reads_what_it_writes(s->kids[1], slot, target->kind == KJ_E_LOCAL, true);
    if (overlap && !kj_np_lowers(target)) {   /* NumPy buffers: the whole result, then the store */
        root.type = kj_array(s->type->elem, target->type->ndim, KJ_LAYOUT_C, false);
        kj_np_assign(w, kj_lower_expr(w, target), target->type, kj_np_ewise(w, &root, NULL, NULL), root.type);
        return;
    }
    if (kj_np_lowers(target)) {   /* a[mask] += v: a[mask] = a[mask] + v, as NumPy */
        root.type = s->type;
        kj_np_store(w, target, kj_np_ewise(w, &root, NULL, NULL), s->type);
        return;
    }
    if (target->kind == KJ_E_LOCAL && reads_no_other_array(s->kids[1], target->slot))
        kj_np_ewise_in_place(w, &root, kj_lower_expr(w, target), target->type);
    else   /* b may be a view of a held elsewhere (v = a[::-1]; a += v): checked at run time, as NumPy */
        kj_np_ewise(w, &root, kj_lower_expr(w, target), target->type);
}

bool kj_np_stores_ewise(const kj_node *target, const kj_node *value) {
    return kj_np_lowers_store(target) && !kj_np_lowers(target) && kj_np_is_ewise(value);
}

static bool assign_ewise(kj_lw *w, kj_node *s) {   /* a[1:-1] = b * c: no temporary */
    if (!kj_np_stores_ewise(s->kids[0], s->kids[1]))
        return false;
    kj_np_store_ewise(w, s->kids[0], s->kids[1]);
    return true;
}
KJ_STMT_LOWERING(assign_ewise, .stmt = KJ_S_ASSIGN, .lower = assign_ewise);
