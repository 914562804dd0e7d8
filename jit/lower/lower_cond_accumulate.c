/* lower_cond_accumulate: `if test: s += e`, and `if test: s += e else:
 * s -= f` (each branch only updates of number locals by +, - or *, and
 * assignments of numbers to other locals), lowered as
 *     t = e if test else f'      (the branch's value, or the identity)
 *     s = s + t
 * with each branch's expressions still evaluated only when it runs. A
 * branch that does not update s gives the operator's identity (-0.0 for a
 * float +, 1 for *, 0 for an int +), and s -= f gives s + (-f), which
 * IEEE 754 defines s - f to be: every value comes out as Python's; what
 * changes is the code. Lowered as written, LLVM turns the join into
 * `s = test ? s + e : s`, which puts a select on the chain of adds from
 * one iteration to the next (LLVM 19's instcombine no longer moves it off,
 * without nnan), and the loop of `if x > 0: s += x * x` ran almost three
 * times as long as Numba's (LLVM 11 moved it); with the add after the join,
 * as fast (bench/MEASURED.md).
 *
 * Deferring the updates to the join is only sound where nothing can see s
 * between: no statement reads or sets an updated local but its update,
 * none jumps (only updates and assignments), and no exception they raise
 * can be caught in this function (not inside try). */
#include "jit/lower/lower.h"
#include "jit/lower/lower_nrt.h"

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
    if (u->kids[0]->may_be_unbound)   /* the join reads it even when its branch does not run */
        return false;
    if (u->op != KJ_OP_ADD && u->op != KJ_OP_SUB && u->op != KJ_OP_MUL)
        return false;
    return same_number_type(u->type, u->kids[0]->type);
}

/* Whether statement u is `local = number`: a step a branch may take
 * before its updates (`v = x * x; s += v`, as an inlined generator
 * gives), lowered in place. */
static bool scalar_step(const kj_node *u) {
    return u->kind == KJ_S_ASSIGN && u->kids[0]->kind == KJ_E_LOCAL && u->kids[1]->type &&
           (kj_is_intlike(u->kids[1]->type) || u->kids[1]->type->kind == KJ_T_FLOAT);
}

/* One local the join updates: its type, its operator at the join (+ or
 * *), and the update of each branch (NULL where the branch has none). */
typedef struct {
    kj_node *target;
    const kj_type *type;
    kj_op op;
    kj_node *update[2];
} update;

typedef struct {
    update u[MAX_UPDATES];
    int n;
} plan;

static bool mentions_in(const kj_block *b, int slot, const kj_node *except) {
    for (int i = 0; i < b->n; i++) {
        const kj_node *o = b->items[i];
        if (kj_mentions_local(o->kids[1], slot) || (o != except && o->kids[0]->slot == slot))
            return true;
    }
    return false;
}

/* Adds branch k's updates to p; false if the branch holds anything else. */
static bool add_branch(plan *p, const kj_block *b, int k) {
    for (int i = 0; i < b->n; i++) {
        kj_node *s = b->items[i];
        if (!deferrable(s)) {
            if (!scalar_step(s))
                return false;
            continue;
        }
        kj_op op = s->op == KJ_OP_MUL ? KJ_OP_MUL : KJ_OP_ADD;
        update *u = NULL;
        for (int j = 0; j < p->n; j++)
            if (p->u[j].target->slot == s->kids[0]->slot)
                u = &p->u[j];
        if (!u) {
            if (p->n == MAX_UPDATES)
                return false;
            u = &p->u[p->n++];
            *u = (update){.target = s->kids[0], .type = s->type, .op = op};
        }
        if (u->update[k] || u->op != op || !same_number_type(u->type, s->type))
            return false;   /* twice in one branch, or + in one and * in the other */
        u->update[k] = s;
    }
    return true;
}

static bool applies(kj_lw *w, const kj_node *s, plan *p) {
    p->n = 0;
    if (s->body.n == 0 || w->handler_bb || !add_branch(p, &s->body, 0) || !add_branch(p, &s->orelse, 1))
        return false;
    bool any_float = false;
    for (int j = 0; j < p->n; j++) {   /* nothing else reads or sets an updated local */
        update *u = &p->u[j];
        if (mentions_in(&s->body, u->target->slot, u->update[0]) ||
            mentions_in(&s->orelse, u->target->slot, u->update[1]))
            return false;
        any_float |= u->type->kind == KJ_T_FLOAT;
    }
    return any_float;   /* ints gain nothing: LLVM adds a zero-extended test already */
}

/* The operand that leaves a value of type t as it is under op (+ or *). */
static LLVMValueRef identity(kj_lw *w, kj_op op, const kj_type *t) {
    LLVMTypeRef lt = kj_lltype(w, t);
    if (t->kind == KJ_T_FLOAT)
        return LLVMConstReal(lt, op == KJ_OP_MUL ? 1.0 : -0.0);
    return LLVMConstInt(lt, op == KJ_OP_MUL ? 1 : 0, 0);
}

/* Lowers branch k in place but for its updates, whose operands (negated
 * for -=) go to operand[j][k]; leaves the builder where the branch ends. */
static void lower_branch(kj_lw *w, const kj_block *b, plan *p, int k, LLVMValueRef operand[][2]) {
    for (int j = 0; j < p->n; j++)
        operand[j][k] = identity(w, p->u[j].op, p->u[j].type);
    for (int i = 0; i < b->n; i++) {
        kj_node *s = b->items[i];
        kj_at(w, s);
        int mark = kj_nrt_mark(w);   /* as lower_stmt does for each statement */
        LLVMValueRef v = kj_lower_expr(w, s->kids[1]);
        if (deferrable(s)) {
            v = kj_cast(w, v, s->kids[1]->type, s->type);
            if (s->op == KJ_OP_SUB)
                v = s->type->kind == KJ_T_FLOAT ? kj_fm(w, LLVMBuildFNeg(w->b, v, "")) : LLVMBuildNeg(w->b, v, "");
            for (int j = 0; j < p->n; j++)
                if (p->u[j].update[k] == s)
                    operand[j][k] = v;
        } else {
            kj_assign(w, s->kids[0], v, s->kids[1]->type);
        }
        kj_nrt_release(w, mark);
    }
}

bool kj_lower_if_accumulates(kj_lw *w, kj_node *s) {
    plan p;
    if (!applies(w, s, &p))
        return false;
    LLVMValueRef test = kj_truth(w, kj_lower_expr(w, s->kids[0]), s->kids[0]->type);
    LLVMBasicBlockRef then = kj_new_bb(w, "if.then"), other = kj_new_bb(w, "if.else"),
                      join = kj_new_bb(w, "if.join"), from[2];
    LLVMBuildCondBr(w->b, test, then, other);
    LLVMValueRef operand[MAX_UPDATES][2];
    const kj_block *branch[2] = {&s->body, &s->orelse};
    LLVMBasicBlockRef start[2] = {then, other};
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(w->b, start[k]);
        lower_branch(w, branch[k], &p, k, operand);
        from[k] = LLVMGetInsertBlock(w->b);
        LLVMBuildBr(w->b, join);
    }
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef joined[MAX_UPDATES];
    for (int j = 0; j < p.n; j++) {   /* the block's phis first, as LLVM requires */
        joined[j] = LLVMBuildPhi(w->b, kj_lltype(w, p.u[j].type), "");
        LLVMAddIncoming(joined[j], operand[j], from, 2);
    }
    for (int j = 0; j < p.n; j++) {
        update *u = &p.u[j];
        kj_node *at = u->update[0] ? u->update[0] : u->update[1];
        kj_at(w, at);
        LLVMValueRef cur = kj_lower_expr(w, u->target);
        kj_assign(w, u->target, kj_arith(w, at, u->op, cur, joined[j], u->type), u->type);
    }
    return true;
}
