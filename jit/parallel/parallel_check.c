/* parallel_check: the dependence checker for prange loops.
 *
 * One walk over the loop body, in statement order, keeps the set of locals
 * definitely assigned so far in the iteration (an `if` keeps what both
 * branches assign; an inner loop's assignments do not escape it, since it
 * may run zero times). A read of a local outside that set, of a local the
 * body also assigns, reads the previous iteration's value: a loop-carried
 * dependence. Array elements are cleared when every access to a written
 * array indexes one axis with the prange variable plus one and the same
 * loop-invariant offset (a[i], a[i + 1], a[i - k]), so two iterations never
 * touch the same element. What the walk cannot prove unsafe it allows
 * (two names for one array, writes inside called functions): the checker
 * reports races it can prove, as the issue asks, and says so. */
#include "jit/parallel/parallel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Axes an index may have (arrays have at most this many dimensions). */
#define MAX_AXES 32

typedef struct {
    int slot, line;
    bool write;
    kj_node *index;          /* the KJ_E_INDEX node (kids[1..]: one per axis) */
} elem_access;

typedef struct {
    kj_function *f;
    kj_ploop *p;
    int n;
    bool *written;           /* assigned other than by its reduction statements */
    int *exposed;            /* line of a read before any assignment in the iteration */
    int *other_read;         /* line of a read outside its reduction statements */
    int *whole;              /* line where an array is used as a whole value */
    int *red_count, *red_line;
    kj_red_op *red_op;
    bool *red_mixed;
    elem_access *acc;
    int nacc, cap;
    kj_node *allocs[16];     /* calls making new arrays, kept if their sizes turn out invariant */
    int nallocs;
    int depth;               /* loops nested inside the body */
    bool failed;
} ck;

static void fail(ck *c, int line, const char *fmt, ...) {
    if (c->failed)
        return;
    c->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->p->why, sizeof c->p->why, fmt, ap);
    va_end(ap);
    c->p->why_line = line;
}

static const char *name_of(ck *c, int slot) { return c->f->locals[slot].name; }

static bool is_array(ck *c, int slot) {
    const kj_type *t = c->f->locals[slot].type;
    return t && t->kind == KJ_T_ARRAY;
}

static void note_read(ck *c, int slot, int line, const bool *defs, bool whole) {
    if (!defs[slot] && !c->exposed[slot])
        c->exposed[slot] = line;
    if (!c->other_read[slot])
        c->other_read[slot] = line;
    if (whole && is_array(c, slot) && !c->whole[slot])
        c->whole[slot] = line;
}

static void add_access(ck *c, int slot, kj_node *index, bool write) {
    if (c->nacc == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        elem_access *a = realloc(c->acc, sizeof *a * (size_t)cap);
        if (!a) {
            fail(c, index->line, "out of memory while checking the loop");
            return;
        }
        c->acc = a;
        c->cap = cap;
    }
    c->acc[c->nacc++] = (elem_access){.slot = slot, .line = index->line, .write = write, .index = index};
}

static bool mentions(const kj_node *n, int slot) {
    if (!n)
        return false;
    if (n->kind == KJ_E_LOCAL && n->slot == slot)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (mentions(n->kids[i], slot))
            return true;
    return false;
}

static void expr(ck *c, kj_node *n, bool *defs);

/* np.zeros(shape), np.empty(...), ...: a new array each time it runs. */
static bool is_allocation(const kj_node *n) {
    static const char *const makers[] = {"np.zeros", "np.empty", "np.ones", "np.full"};
    if (n->kids[0]->kind != KJ_E_FUNC || !n->kids[0]->name)
        return false;
    for (size_t i = 0; i < sizeof makers / sizeof *makers; i++)
        if (strcmp(n->kids[0]->name, makers[i]) == 0)
            return true;
    return false;
}

/* Whether n reads a local the iteration changes (or the prange variable). */
static bool varies(ck *c, const kj_node *n) {
    if (!n)
        return false;
    if (n->kind == KJ_E_LOCAL && (c->written[n->slot] || c->red_count[n->slot] || n->slot == c->p->index_slot))
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (varies(c, n->kids[i]))
            return true;
    return false;
}

static void index_expr(ck *c, kj_node *n, bool *defs, bool write) {
    kj_node *base = n->kids[0];
    if (base->kind == KJ_E_LOCAL) {
        note_read(c, base->slot, n->line, defs, false);
        add_access(c, base->slot, n, write);
    } else {
        expr(c, base, defs);
    }
    for (int i = 1; i < n->nkids; i++)
        expr(c, n->kids[i], defs);
}

static void expr(ck *c, kj_node *n, bool *defs) {
    if (!n)
        return;
    switch (n->kind) {
    case KJ_E_LOCAL:
        note_read(c, n->slot, n->line, defs, true);
        return;
    case KJ_E_INDEX:
        index_expr(c, n, defs, false);
        return;
    case KJ_E_ATTR:   /* a.shape, a.size: the array's header, not its elements */
        if (n->kids[0]->kind == KJ_E_LOCAL) {
            note_read(c, n->kids[0]->slot, n->line, defs, false);
            return;
        }
        break;
    case KJ_E_CALL:
        if (is_allocation(n) && c->nallocs < 16)
            c->allocs[c->nallocs++] = n;
        if (n->kids[0]->kind == KJ_E_FUNC && n->kids[0]->name && strcmp(n->kids[0]->name, "len") == 0 &&
            n->nkids == 2 && n->kids[1]->kind == KJ_E_LOCAL) {
            note_read(c, n->kids[1]->slot, n->line, defs, false);
            return;
        }
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++)
        expr(c, n->kids[i], defs);
}

static void assign_target(ck *c, kj_node *t, bool *defs) {
    if (t->kind == KJ_E_LOCAL) {
        c->written[t->slot] = true;
        defs[t->slot] = true;
    } else if (t->kind == KJ_E_INDEX) {
        index_expr(c, t, defs, true);
    } else {
        for (int i = 0; i < t->nkids; i++)
            assign_target(c, t->kids[i], defs);
    }
}

static void reduction(ck *c, int slot, kj_red_op op, int line) {
    if (c->red_count[slot]++ == 0) {
        c->red_op[slot] = op;
        c->red_line[slot] = line;
    } else if (c->red_op[slot] != op) {
        c->red_mixed[slot] = true;
    }
}

static bool number_local(ck *c, int slot) {
    const kj_type *t = c->f->locals[slot].type;
    return t && (t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_COMPLEX);
}

/* x = x + e, x = e + x, x = x - e, x = x * e, x = e * x: the e, or NULL. */
static kj_node *binop_reduction(ck *c, kj_node *s, kj_red_op *op) {
    kj_node *t = s->kids[0], *v = s->kids[1];
    if (t->kind != KJ_E_LOCAL || v->kind != KJ_E_BINOP || !number_local(c, t->slot) ||
        (v->op != KJ_OP_ADD && v->op != KJ_OP_SUB && v->op != KJ_OP_MUL))
        return NULL;
    *op = v->op == KJ_OP_ADD ? KJ_RED_ADD : v->op == KJ_OP_SUB ? KJ_RED_SUB : KJ_RED_MUL;
    for (int k = 0; k <= (v->op == KJ_OP_SUB ? 0 : 1); k++) {
        kj_node *self = v->kids[k], *other = v->kids[1 - k];
        if (self->kind == KJ_E_LOCAL && self->slot == t->slot && !mentions(other, t->slot))
            return other;
    }
    return NULL;
}

/* x = min(x, e) / max(x, e) / min(e, x) / max(e, x): the e, or NULL. */
static kj_node *minmax_reduction(ck *c, kj_node *s, kj_red_op *op) {
    kj_node *t = s->kids[0], *v = s->kids[1];
    if (t->kind != KJ_E_LOCAL || v->kind != KJ_E_CALL || v->nkids != 3 || v->kids[0]->kind != KJ_E_FUNC ||
        !v->kids[0]->name || !number_local(c, t->slot) || c->f->locals[t->slot].type->kind == KJ_T_COMPLEX)
        return NULL;
    const char *fn = v->kids[0]->name;
    if (strcmp(fn, "min") != 0 && strcmp(fn, "max") != 0)
        return NULL;
    *op = fn[1] == 'i' ? KJ_RED_MIN : KJ_RED_MAX;
    for (int k = 1; k <= 2; k++) {
        kj_node *self = v->kids[k], *other = v->kids[3 - k];
        if (self->kind == KJ_E_LOCAL && self->slot == t->slot && !mentions(other, t->slot))
            return other;
    }
    return NULL;
}

static void block(ck *c, kj_block *b, bool *defs);

static bool *copy_defs(ck *c, const bool *defs) {
    bool *d = malloc((size_t)c->n + 1);
    if (d)
        memcpy(d, defs, (size_t)c->n);
    else
        fail(c, 0, "out of memory while checking the loop");
    return d;
}

static void stmt(ck *c, kj_node *s, bool *defs) {
    switch (s->kind) {
    case KJ_S_ASSIGN: {
        kj_red_op op;
        kj_node *e = minmax_reduction(c, s, &op);
        if (!e)
            e = binop_reduction(c, s, &op);
        if (e && !defs[s->kids[0]->slot]) {   /* not assigned yet in this iteration: it accumulates across them */
            expr(c, e, defs);
            reduction(c, s->kids[0]->slot, op, s->line);
            return;
        }
        expr(c, s->kids[1], defs);
        assign_target(c, s->kids[0], defs);
        return;
    }
    case KJ_S_AUGASSIGN: {
        kj_node *t = s->kids[0];
        /* on a number, or in place on a whole array (acc += a[i]: per-thread arrays, parallel_array.c) */
        if (t->kind == KJ_E_LOCAL && (s->op == KJ_OP_ADD || s->op == KJ_OP_SUB || s->op == KJ_OP_MUL) &&
            (number_local(c, t->slot) || is_array(c, t->slot)) && !mentions(s->kids[1], t->slot) &&
            !defs[t->slot]) {
            expr(c, s->kids[1], defs);
            reduction(c, t->slot, s->op == KJ_OP_ADD ? KJ_RED_ADD : s->op == KJ_OP_SUB ? KJ_RED_SUB : KJ_RED_MUL,
                      s->line);
            return;
        }
        if (t->kind == KJ_E_LOCAL)
            note_read(c, t->slot, s->line, defs, true);
        else if (t->kind == KJ_E_INDEX)
            index_expr(c, t, defs, false);
        expr(c, s->kids[1], defs);
        assign_target(c, t, defs);
        return;
    }
    case KJ_S_EXPR:
        expr(c, s->kids[0], defs);
        return;
    case KJ_S_IF: {
        expr(c, s->kids[0], defs);
        bool *d1 = copy_defs(c, defs), *d2 = copy_defs(c, defs);
        if (d1 && d2) {
            block(c, &s->body, d1);
            block(c, &s->orelse, d2);
            for (int i = 0; i < c->n; i++)
                defs[i] = d1[i] && d2[i];
        }
        free(d1);
        free(d2);
        return;
    }
    case KJ_S_WHILE:
    case KJ_S_FOR: {
        if (s->kind == KJ_S_FOR && kj_is_prange_loop(s) && c->p->nnested < 16)
            c->p->nested[c->p->nnested++] = s->line;
        expr(c, s->kids[s->kind == KJ_S_FOR ? 1 : 0], defs);
        bool *d = copy_defs(c, defs);
        if (d) {
            if (s->kind == KJ_S_FOR)
                assign_target(c, s->kids[0], d);
            c->depth++;
            block(c, &s->body, d);
            c->depth--;
            memcpy(d, defs, (size_t)c->n);
            block(c, &s->orelse, d);
        }
        free(d);
        return;
    }
    case KJ_S_TRY:
        fail(c, s->line, "try inside the prange loop is not checked for parallel safety; only a serial loop runs it");
        return;
    case KJ_S_BREAK:
        if (c->depth == 0)
            fail(c, s->line, "`break` leaves the prange loop early, which only a serial loop can do");
        return;
    case KJ_S_RETURN:
        fail(c, s->line, "`return` inside the prange loop ends the function from one iteration; "
                         "only a serial loop can do that");
        return;
    default:
        for (int i = 0; i < s->nkids; i++)
            expr(c, s->kids[i], defs);
        return;
    }
}

static void block(ck *c, kj_block *b, bool *defs) {
    for (int i = 0; i < b->n; i++)
        stmt(c, b->items[i], defs);
}

bool kj_is_prange_loop(const kj_node *s) {
    if (s->kind != KJ_S_FOR)
        return false;
    const kj_node *it = s->kids[1];
    return it->kind == KJ_E_CALL && it->kids[0]->kind == KJ_E_FUNC && it->kids[0]->name &&
           strcmp(it->kids[0]->name, "prange") == 0;
}

/* An index of the form i + k, k a constant or a local the loop only reads
 * (sign -1 for i - k). Distinct iterations give distinct elements. */
typedef struct {
    bool symbolic;
    int64_t constant;
    int slot, sign;
} offset;

static bool invariant_offset(ck *c, const kj_node *k, int sign, offset *o) {
    if (k->kind == KJ_E_CONST && k->type && k->type->kind == KJ_T_INT) {
        *o = (offset){.constant = sign * k->ival};
        return true;
    }
    if (k->kind == KJ_E_LOCAL && k->slot != c->p->index_slot && !c->written[k->slot] && !c->red_count[k->slot]) {
        *o = (offset){.symbolic = true, .slot = k->slot, .sign = sign};
        return true;
    }
    return false;
}

static bool affine(ck *c, const kj_node *n, offset *o) {
    int idx = c->p->index_slot;
    if (n->kind == KJ_E_LOCAL && n->slot == idx) {
        *o = (offset){0};
        return true;
    }
    if (n->kind != KJ_E_BINOP || (n->op != KJ_OP_ADD && n->op != KJ_OP_SUB))
        return false;
    const kj_node *a = n->kids[0], *b = n->kids[1];
    if (a->kind == KJ_E_LOCAL && a->slot == idx)
        return invariant_offset(c, b, n->op == KJ_OP_ADD ? 1 : -1, o);
    if (n->op == KJ_OP_ADD && b->kind == KJ_E_LOCAL && b->slot == idx)
        return invariant_offset(c, a, 1, o);
    return false;
}

/* Access a's index on axis `axis` as i + k, if it has that form. */
static bool by_index(ck *c, const elem_access *a, int axis, offset *o) {
    kj_node *in = kj_index_of_axis(a->index, axis);
    return in && affine(c, in, o);
}

static bool same_offset(const offset *a, const offset *b) {
    return a->symbolic == b->symbolic && a->constant == b->constant && a->slot == b->slot && a->sign == b->sign;
}

static void check_arrays(ck *c) {
    int idx = c->p->index_slot;
    for (int k = 0; k < c->nacc && !c->failed; k++) {
        elem_access *w = &c->acc[k];
        int slot = w->slot;
        /* one verdict per array: at its first write; arrays the body assigns
         * (a view made per iteration) are private, not provably shared */
        if (!w->write || c->written[slot])
            continue;
        bool first = true;
        for (int j = 0; j < k; j++)
            if (c->acc[j].slot == slot && c->acc[j].write)
                first = false;
        if (!first)
            continue;
        if (c->whole[slot]) {
            fail(c, c->whole[slot],
                 "array `%s` is written by iterations (line %d) and used whole at line %d, so one "
                 "iteration reads what others write",
                 name_of(c, slot), w->line, c->whole[slot]);
            return;
        }
        /* safe when on some axis every access is i + k with one and the same k */
        bool safe = false;
        offset want, o;
        for (int axis = 0; axis < MAX_AXES && !safe && !c->written[idx]; axis++) {
            safe = by_index(c, w, axis, &want);
            for (int j = 0; j < c->nacc && safe; j++)
                if (c->acc[j].slot == slot && !(by_index(c, &c->acc[j], axis, &o) && same_offset(&o, &want)))
                    safe = false;
        }
        if (safe)
            continue;
        bool write_by_index = false;
        for (int axis = 0; axis < MAX_AXES && !write_by_index; axis++)
            write_by_index = !c->written[idx] && by_index(c, w, axis, &o);
        const elem_access *other = NULL;
        for (int j = 0; j < c->nacc && !other && write_by_index; j++)
            if (c->acc[j].slot == slot && &c->acc[j] != w && !c->acc[j].write)
                other = &c->acc[j];
        if (other)
            fail(c, other->line,
                 "array `%s` is written at line %d and read at line %d at an element another iteration "
                 "may write (index it with `%s` on one axis in both places): iterations depend on each other",
                 name_of(c, slot), w->line, other->line, name_of(c, idx));
        else
            fail(c, w->line,
                 "different iterations may write the same element of array `%s` (line %d): index it with "
                 "`%s` on one axis, or accumulate into a scalar reduction or into the whole array in place "
                 "(`%s += row`), which Kiln combines across threads",
                 name_of(c, slot), w->line, name_of(c, idx), name_of(c, slot));
    }
}

static void verdict(ck *c) {
    kj_ploop *p = c->p;
    for (int s = 0; s < c->n && !c->failed; s++) {
        if (c->red_count[s] > 0) {
            if (c->written[s] || c->other_read[s] || c->red_mixed[s]) {
                fail(c, c->other_read[s] ? c->other_read[s] : c->red_line[s],
                     "`%s` is accumulated across iterations (line %d) but also %s in the loop, so it is "
                     "no reduction Kiln can combine across threads",
                     name_of(c, s), c->red_line[s],
                     c->red_mixed[s] ? "updated with another operator" : c->written[s] ? "assigned" : "read");
                return;
            }
            if (p->nred == KJ_PAR_MAX_REDUCTIONS) {
                fail(c, c->red_line[s], "more than %d reductions in one loop", KJ_PAR_MAX_REDUCTIONS);
                return;
            }
            p->red[p->nred++] = (kj_reduction){.slot = s, .op = c->red_op[s], .line = c->red_line[s]};
            p->use[s] = KJ_VAR_REDUCTION;
        } else if (c->written[s] || s == p->index_slot) {
            if (c->exposed[s] && s != p->index_slot) {
                fail(c, c->exposed[s],
                     "`%s` is assigned in one iteration and read at line %d before it is assigned in the "
                     "next, so each iteration depends on the one before",
                     name_of(c, s), c->exposed[s]);
                return;
            }
            p->use[s] = KJ_VAR_PRIVATE;
        } else if (c->other_read[s]) {
            p->use[s] = KJ_VAR_SHARED;
        }
    }
    check_arrays(c);
    /* allocations whose sizes every iteration repeats: the report suggests
     * making them once (Kiln does not move them, so their cost stays visible) */
    for (int k = 0; k < c->nallocs; k++) {
        bool invariant = true;
        for (int a = 1; a < c->allocs[k]->nkids && invariant; a++)
            invariant = !varies(c, c->allocs[k]->kids[a]);
        if (invariant)
            p->allocs[p->nallocs++] = c->allocs[k]->line;
    }
}

void kj_parallel_analyze(kj_function *f, kj_node *s, kj_ploop *out) {
    memset(out, 0, sizeof *out);
    out->loop = s;
    out->index_slot = s->kids[0]->kind == KJ_E_LOCAL ? s->kids[0]->slot : -1;
    int n = f->nlocals;
    ck c = {.f = f, .p = out, .n = n};
    size_t sz = (size_t)n + 1;
    out->use = calloc(sz, sizeof *out->use);
    c.written = calloc(sz, sizeof *c.written);
    c.exposed = calloc(sz, sizeof *c.exposed);
    c.other_read = calloc(sz, sizeof *c.other_read);
    c.whole = calloc(sz, sizeof *c.whole);
    c.red_count = calloc(sz, sizeof *c.red_count);
    c.red_line = calloc(sz, sizeof *c.red_line);
    c.red_op = calloc(sz, sizeof *c.red_op);
    c.red_mixed = calloc(sz, sizeof *c.red_mixed);
    bool *defs = calloc(sz, sizeof *defs);
    if (!out->use || !c.written || !c.exposed || !c.other_read || !c.whole || !c.red_count || !c.red_line ||
        !c.red_op || !c.red_mixed || !defs) {
        fail(&c, s->line, "out of memory while checking the loop");
    } else if (out->index_slot < 0) {
        fail(&c, s->line, "the loop target is not one variable; loop over the index and unpack inside the loop");
    } else if (s->orelse.n > 0) {
        fail(&c, s->line, "the loop has an `else` clause, which runs after the last iteration in order");
    } else {
        defs[out->index_slot] = true;
        block(&c, &s->body, defs);
        if (!c.failed)
            verdict(&c);
    }
    out->parallel = !c.failed;
    free(c.written);
    free(c.exposed);
    free(c.other_read);
    free(c.whole);
    free(c.red_count);
    free(c.red_line);
    free(c.red_op);
    free(c.red_mixed);
    free(c.acc);
    free(defs);
}

void kj_ploop_free(kj_ploop *p) {
    free(p->use);
    p->use = NULL;
}
