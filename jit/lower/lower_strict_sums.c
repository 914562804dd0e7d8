/* lower_strict_sums: innermost loops whose float sum gains nothing from
 * vector lanes.
 *
 * engine.c lets LLVM vectorize a loop that sums floats without fastmath
 * (-force-ordered-reductions): the body runs in vector lanes while the adds
 * stay in source order, one lane after the other, so the sum is the same
 * to the bit. That pays when the body does slow work besides the adds: a
 * square root, a division, a math function. When the rest is loads,
 * multiplies and adds, the chain of adds sets the pace either way; the
 * vector loop then only costs compile time and, on short rows, a slower
 * start (bench/MEASURED.md: ordered float reductions). lower.c leaves such
 * loops scalar, as they were before, and the unit gets remarks in LLVM's
 * shape saying why, since LLVM says nothing of a loop it was told to leave. */
#include "jit/lower/lower.h"

#include <string.h>

typedef struct {
    const kj_node *loop;   /* the for statement */
    const kj_node *sum;    /* the first float sum met, or NULL */
    bool slow;             /* something in the body worth vector lanes */
} scan_state;

/* e is the same value in every iteration: a constant, or a local that
 * neither the loop's target nor its body binds. */
static bool invariant(const kj_node *e, const kj_node *loop) {
    if (e->kind == KJ_E_CONST)
        return true;
    return e->kind == KJ_E_LOCAL && !kj_mentions_local(loop->kids[0], e->slot) &&
           !kj_binds_in_block(&loop->body, e->slot);
}

static bool is_float(const kj_node *e) { return e->type && e->type->kind == KJ_T_FLOAT; }

static bool accumulates(kj_op op) { return op == KJ_OP_ADD || op == KJ_OP_SUB || op == KJ_OP_MUL; }

/* `acc += x`, `acc = acc + x` or `c[i, j] += x` (the same element in every
 * iteration) on a float: a sum carried from one iteration to the next. */
static bool is_float_sum(const kj_node *n, const kj_node *loop) {
    if (n->kind == KJ_S_AUGASSIGN && accumulates(n->op) && is_float(n->kids[0])) {
        const kj_node *t = n->kids[0];
        if (t->kind == KJ_E_LOCAL)
            return true;
        if (t->kind != KJ_E_INDEX || !invariant(t->kids[0], loop))
            return false;
        for (int k = 1; k < t->nkids; k++)
            if (!invariant(t->kids[k], loop))
                return false;
        return true;
    }
    if (n->kind == KJ_S_ASSIGN && n->kids[0]->kind == KJ_E_LOCAL && is_float(n->kids[0])) {
        const kj_node *v = n->kids[1];
        return v->kind == KJ_E_BINOP && accumulates(v->op) &&
               ((v->kids[0]->kind == KJ_E_LOCAL && v->kids[0]->slot == n->kids[0]->slot) ||
                (v->kids[1]->kind == KJ_E_LOCAL && v->kids[1]->slot == n->kids[0]->slot));
    }
    return false;
}

/* Functions that cost about an add: anything else called (math, random,
 * another kiln function) is slow. */
static bool cheap_call(const char *name) {
    static const char *const cheap[] = {"abs", "fabs", "absolute", "min", "max", "minimum", "maximum",
                                        "fmin", "fmax", "floor", "ceil", "trunc", "copysign", "sign",
                                        "isnan", "isinf", "isfinite", "float", "int", "bool", "complex", "len"};
    if (!name)
        return false;
    if (strncmp(name, "cast:", 5) == 0)
        return true;
    if (strncmp(name, "np.", 3) == 0)
        name += 3;
    else if (strncmp(name, "math.", 5) == 0)
        name += 5;
    for (size_t i = 0; i < sizeof cheap / sizeof *cheap; i++)
        if (strcmp(name, cheap[i]) == 0)
            return true;
    return false;
}

/* A power the lowering turns into a few multiplies: x**2, x**3. */
static bool small_power(const kj_node *exponent) {
    if (exponent->kind != KJ_E_CONST || !exponent->type)
        return false;
    double e = exponent->type->kind == KJ_T_FLOAT ? exponent->fval : (double)exponent->ival;
    return e >= 0 && e <= 4 && e == (double)(int)e;
}

static bool is_slow(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_CALL:
        return n->kids[0]->kind != KJ_E_FUNC || !cheap_call(n->kids[0]->name);
    case KJ_E_METHOD:
        return true;
    case KJ_E_BINOP:
        if (n->op == KJ_OP_DIV || n->op == KJ_OP_FLOORDIV || n->op == KJ_OP_MOD)
            return n->kids[1]->kind != KJ_E_CONST;
        return n->op == KJ_OP_POW && !small_power(n->kids[1]);
    default:
        return false;
    }
}

static bool scan(const kj_node *n, void *arg) {
    scan_state *st = arg;
    if (!st->sum && is_float_sum(n, st->loop))
        st->sum = n;
    st->slow |= is_slow(n);
    return st->slow;   /* nothing more to learn */
}

static void add_remark(kj_unit *u, int line, const char *kind, const char *message) {
    if (!u->loop_remarks && !(u->loop_remarks = PyList_New(0))) {
        PyErr_Clear();
        return;
    }
    kj_remark_add(u->loop_remarks, line, kind, message);
}

bool kj_strict_sum_stays_scalar(kj_lw *w, const kj_node *s) {
    if (!w->u->target->vectorizes_ordered_sums || (w->inst->opts.fastmath & LLVMFastMathAllowReassoc))
        return false;
    scan_state st = {.loop = s};
    kj_visit_block(&s->body, scan, &st);
    if (!st.sum || st.slow)
        return false;
    /* as LLVM words it: the reason on the line that blocks, "not vectorized" on the loop */
    add_remark(w->u, st.sum->line, "analysis",
               "loop not vectorized: its float sum must add in source order (no fastmath), and nothing "
               "else in the loop is slow enough to gain from vector lanes");
    add_remark(w->u, s->line, "missed", "loop not vectorized");
    return true;
}
