/* unbound: which reads of a local may find it unassigned, as CPython's
 * UnboundLocalError would (`for i in range(n): ...; return i` with n == 0;
 * a variable set in one branch of an `if` only).
 *
 * One forward walk over the function keeps the set of locals assigned on
 * every path so far. A read of a local outside the set is marked, and
 * lowering checks a flag there that every assignment sets (lower.c). The
 * walk may mark more reads than need it, never fewer: a loop's body starts
 * from the set before the loop (plus its target), and what the loop
 * assigns does not count after it, since it may run zero times or leave by
 * break; an except clause starts from the set before its try. LLVM drops
 * the flags where the paths prove them. */
#include "jit/lower/unbound.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    kj_function *f;
    bool any;
} walk;

/* The locals assigned on every path to here; dead after a return, raise,
 * break or continue (then any set will do: nothing runs). */
typedef struct {
    bool *bound;
    bool dead;
} state;

static state copy_of(walk *k, const state *s) {
    state c = {malloc((size_t)k->f->nlocals + 1), s->dead};
    memcpy(c.bound, s->bound, (size_t)k->f->nlocals + 1);
    return c;
}

/* Where both paths join: what both assigned, or the live one's set. */
static void join(walk *k, state *into, const state *other) {
    if (other->dead)
        return;
    if (into->dead) {
        memcpy(into->bound, other->bound, (size_t)k->f->nlocals + 1);
        into->dead = false;
        return;
    }
    for (int i = 0; i < k->f->nlocals; i++)
        into->bound[i] = into->bound[i] && other->bound[i];
}

static void expr(walk *k, kj_node *n, const state *s);

static void bind_target(walk *k, kj_node *t, state *s) {
    if (t->kind == KJ_E_LOCAL)
        s->bound[t->slot] = true;
    else if (t->kind == KJ_E_TUPLE)
        for (int i = 0; i < t->nkids; i++)
            bind_target(k, t->kids[i], s);
    else
        expr(k, t, s);   /* a[i] = ...: reads a and i */
}

static void expr(walk *k, kj_node *n, const state *s) {
    if (!n)
        return;
    if (n->kind == KJ_E_LOCAL) {
        if (!s->dead && !s->bound[n->slot]) {
            n->may_be_unbound = true;
            k->f->locals[n->slot].may_be_unbound = true;
            k->any = true;
        }
        return;
    }
    if (n->kind == KJ_E_LISTCOMP || n->kind == KJ_E_DICTCOMP) {   /* [kids[0] for kids[1] in kids[2] if kids[3] ...] */
        expr(k, n->kids[2], s);
        state in = copy_of(k, s);
        bind_target(k, n->kids[1], &in);
        expr(k, n->kids[0], &in);
        for (int i = 3; i < n->nkids; i++)
            expr(k, n->kids[i], &in);
        free(in.bound);
        return;
    }
    for (int i = 0; i < n->nkids; i++)
        expr(k, n->kids[i], s);
}

static void block(walk *k, kj_block *b, state *s);

/* A loop body (or an else clause, or a handler) from a copy of s: what it
 * assigns does not count after it. */
static void branch(walk *k, kj_block *b, const state *s, kj_node *target) {
    state in = copy_of(k, s);
    if (target)
        bind_target(k, target, &in);
    block(k, b, &in);
    free(in.bound);
}

static void stmt(walk *k, kj_node *n, state *s) {
    switch (n->kind) {
    case KJ_S_ASSIGN:
        expr(k, n->kids[1], s);
        bind_target(k, n->kids[0], s);
        break;
    case KJ_S_AUGASSIGN:
        expr(k, n->kids[1], s);
        expr(k, n->kids[0], s);   /* x += 1 reads x */
        bind_target(k, n->kids[0], s);
        break;
    case KJ_S_IF: {
        expr(k, n->kids[0], s);
        state other = copy_of(k, s);
        block(k, &n->body, s);
        block(k, &n->orelse, &other);
        join(k, s, &other);
        free(other.bound);
        break;
    }
    case KJ_S_WHILE:
        expr(k, n->kids[0], s);
        branch(k, &n->body, s, NULL);
        branch(k, &n->orelse, s, NULL);
        break;
    case KJ_S_FOR:
        expr(k, n->kids[1], s);
        branch(k, &n->body, s, n->kids[0]);
        branch(k, &n->orelse, s, NULL);
        break;
    case KJ_S_TRY: {
        /* the body, then else; or a handler, from what held before the try */
        state before = copy_of(k, s);
        block(k, &n->body, s);
        block(k, &n->orelse, s);
        kj_node *fin = NULL;
        for (int i = 0; i < n->nkids; i++) {
            if (n->kids[i]->kind == KJ_S_FINALLY) {
                fin = n->kids[i];
                continue;
            }
            state h = copy_of(k, &before);
            block(k, &n->kids[i]->body, &h);
            join(k, s, &h);
            free(h.bound);
        }
        if (fin) {   /* it also runs when the body raised: its reads count from before the try */
            branch(k, &fin->body, &before, NULL);
            block(k, &fin->body, s);
        }
        free(before.bound);
        break;
    }
    case KJ_S_RETURN:
    case KJ_S_RAISE:
        for (int i = 0; i < n->nkids; i++)
            expr(k, n->kids[i], s);
        s->dead = true;
        break;
    case KJ_S_BREAK:
    case KJ_S_CONTINUE:
        s->dead = true;
        break;
    default:
        for (int i = 0; i < n->nkids; i++)
            expr(k, n->kids[i], s);
        break;
    }
}

static void block(walk *k, kj_block *b, state *s) {
    for (int i = 0; i < b->n; i++)
        stmt(k, b->items[i], s);
}

bool kj_find_unbound_reads(kj_function *f) {
    walk k = {f, false};
    state s = {calloc((size_t)f->nlocals + 1, 1), false};
    if (!s.bound)
        return false;
    for (int i = 0; i < f->nargs; i++)
        s.bound[i] = true;
    if (f->vararg)
        s.bound[f->vararg - 1] = true;
    block(&k, &f->body, &s);
    free(s.bound);
    return k.any;
}
