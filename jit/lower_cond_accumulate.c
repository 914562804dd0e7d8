/* lower_cond_accumulate: `if test: s += e` (no else; the body only such
 * updates of number locals, by +, - or *, and assignments of numbers to
 * other locals) lowered as
 *     t = e if test else <identity of the operator>;  s = s + t
 * with e still evaluated only when test holds. The identities (-0.0 for a
 * float +, +0.0 for -, 1 for *, 0 for an int + and -) leave every value
 * as it is, so the result is Python's; what changes is the code. Lowered
 * as written, LLVM turns the join into `s = test ? s + e : s`, which puts
 * a select on the chain of adds from one iteration to the next (LLVM 19's
 * instcombine no longer moves it off, without nnan), and the loop of
 * `if x > 0: s += x * x` over 1e6 doubles took 1.2 ms against Numba's
 * 0.44 (LLVM 11 moved it); with the add after the join, 0.47 ms.
 *
 * Deferring the updates to the join is only sound where nothing can see s
 * between: no statement of the body reads or sets an updated local but
 * its update, none jumps (only updates and assignments), and no exception
 * they raise can be caught in this function (not inside try). */
#include "jit/lower.h"
#include "jit/lower_nrt.h"

#define MAX_UPDATES 8

static bool same_number_type(const kj_type *a, const kj_type *b) {
    return a && b && a->kind == b->kind && a->bits == b->bits && a->is_signed == b->is_signed &&
           (a->kind == KJ_T_INT || a->kind == KJ_T_FLOAT);
}

/* Whether statement u is `local op= e` that the join may apply: a number
 * local of the operation's own type, op +, - or *. */
static bool deferrable(const kj_node *u) {
    if (u->kind != KJ_S_AUGASSIGN || u->kids[0]->kind != KJ_E_LOCAL)
        return false;
    if (u->kids[0]->may_be_unbound)   /* the join reads it even when the test is false */
        return false;
    if (u->op != KJ_OP_ADD && u->op != KJ_OP_SUB && u->op != KJ_OP_MUL)
        return false;
    return same_number_type(u->type, u->kids[0]->type);
}

/* Whether statement u is `local = number`: a step the body may take
 * before its updates (`v = x * x; s += v`, as an inlined generator
 * gives), lowered in place. */
static bool scalar_step(const kj_node *u) {
    return u->kind == KJ_S_ASSIGN && u->kids[0]->kind == KJ_E_LOCAL && u->kids[1]->type &&
           (kj_is_intlike(u->kids[1]->type) || u->kids[1]->type->kind == KJ_T_FLOAT);
}

static bool applies(kj_lw *w, const kj_node *s) {
    if (s->orelse.n > 0 || s->body.n == 0 || s->body.n > MAX_UPDATES || w->handler_bb)
        return false;
    bool any_float = false;
    for (int i = 0; i < s->body.n; i++) {
        const kj_node *u = s->body.items[i];
        if (!deferrable(u)) {
            if (!scalar_step(u))
                return false;
            continue;
        }
        any_float |= u->type->kind == KJ_T_FLOAT;
        int slot = u->kids[0]->slot;
        for (int j = 0; j < s->body.n; j++) {   /* nothing else reads or sets the target */
            const kj_node *o = s->body.items[j];
            if (kj_mentions_local(o->kids[1], slot) || (j != i && o->kids[0]->slot == slot))
                return false;
        }
    }
    return any_float;   /* ints gain nothing: LLVM adds a zero-extended test already */
}

/* The operand that leaves a value of type t as it is under op. */
static LLVMValueRef identity(kj_lw *w, kj_op op, const kj_type *t) {
    LLVMTypeRef lt = kj_lltype(w, t);
    if (t->kind == KJ_T_FLOAT)
        return LLVMConstReal(lt, op == KJ_OP_MUL ? 1.0 : op == KJ_OP_ADD ? -0.0 : 0.0);
    return LLVMConstInt(lt, op == KJ_OP_MUL ? 1 : 0, 0);
}

bool kj_lower_if_accumulates(kj_lw *w, kj_node *s) {
    if (!applies(w, s))
        return false;
    int n = s->body.n;
    LLVMValueRef test = kj_truth(w, kj_lower_expr(w, s->kids[0]), s->kids[0]->type);
    LLVMBasicBlockRef skip = LLVMGetInsertBlock(w->b), then = kj_new_bb(w, "if.then"),
                      join = kj_new_bb(w, "if.join");
    LLVMBuildCondBr(w->b, test, then, join);
    LLVMPositionBuilderAtEnd(w->b, then);
    LLVMValueRef values[MAX_UPDATES];
    for (int i = 0; i < n; i++) {
        kj_node *u = s->body.items[i];
        kj_at(w, u);
        int mark = kj_nrt_mark(w);   /* as lower_stmt does for each statement */
        LLVMValueRef v = kj_lower_expr(w, u->kids[1]);
        if (deferrable(u))
            values[i] = kj_cast(w, v, u->kids[1]->type, u->type);
        else
            kj_assign(w, u->kids[0], v, u->kids[1]->type);
        kj_nrt_release(w, mark);
    }
    LLVMBasicBlockRef then_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef operands[MAX_UPDATES];
    for (int i = 0; i < n; i++) {   /* the block's phis first, as LLVM requires */
        kj_node *u = s->body.items[i];
        if (!deferrable(u))
            continue;
        operands[i] = LLVMBuildPhi(w->b, kj_lltype(w, u->type), "");
        LLVMValueRef in[2] = {values[i], identity(w, u->op, u->type)};
        LLVMBasicBlockRef from[2] = {then_end, skip};
        LLVMAddIncoming(operands[i], in, from, 2);
    }
    for (int i = 0; i < n; i++) {
        kj_node *u = s->body.items[i];
        if (!deferrable(u))
            continue;
        kj_at(w, u);
        LLVMValueRef cur = kj_lower_expr(w, u->kids[0]);
        kj_assign(w, u->kids[0], kj_arith(w, u, u->op, cur, operands[i], u->type), u->type);
    }
    return true;
}
