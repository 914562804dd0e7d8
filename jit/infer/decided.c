/* decided: what the types of a call's arguments decide before typing, as
 * Numba's branch pruning and isinstance do. For a parameter that still
 * holds the argument where it is tested (no statement before assigns it;
 * in a loop, none at all):
 *   - isinstance(x, C) becomes the constant it is for x's type;
 *   - `if` on a test these decide (x is None, x is not None, isinstance,
 *     not / and / or of them, True, False) keeps only the branch taken, and
 *     where that branch always returns or raises, nothing after it.
 * So `if scale is None: return x` then `return x * scale` compiles for a
 * scale of None, and a type-dispatching function for each type it gets.
 * Runs once per instance (the IR is the instance's own), before kj_infer's
 * rounds. */
#include "jit/infer/infer.h"

#include <string.h>

/* Counts in assigned[] the stores of each local, by statement or comprehension. */
static void mark_target(const kj_node *t, int *assigned) {
    if (!t)
        return;
    if (t->kind == KJ_E_LOCAL)
        assigned[t->slot]++;
    else if (t->kind == KJ_E_TUPLE)
        for (int i = 0; i < t->nkids; i++)
            mark_target(t->kids[i], assigned);
}

static void mark_block(const kj_block *b, int *assigned);

static void mark_node(const kj_node *n, int *assigned) {
    if (!n)
        return;
    if (n->kind == KJ_S_ASSIGN || n->kind == KJ_S_AUGASSIGN || n->kind == KJ_S_FOR)
        mark_target(n->kids[0], assigned);
    if (n->kind == KJ_E_LISTCOMP || n->kind == KJ_E_DICTCOMP)
        mark_target(n->kids[1], assigned);
    for (int i = 0; i < n->nkids; i++)
        mark_node(n->kids[i], assigned);
    mark_block(&n->body, assigned);
    mark_block(&n->orelse, assigned);
}

static void mark_block(const kj_block *b, int *assigned) {
    for (int i = 0; i < b->n; i++)
        mark_node(b->items[i], assigned);
}

typedef struct {
    kj_function *f;
    const kj_type *const *args;
    const int *assigned;        /* stores of each local in the whole function */
    int *before;                /* stores of each local in the statements met so far, in order */
    bool in_loop;               /* in a loop, which may come back after any of its stores */
} decided;

/* The type of parameter x where it still holds the argument: no statement
 * before this one assigns it, and no statement at all when this one is in a
 * loop; else NULL. */
static const kj_type *fixed_type(const decided *d, const kj_node *x) {
    if (x->kind != KJ_E_LOCAL || x->slot >= d->f->nargs)
        return NULL;
    int seen = d->in_loop ? d->assigned[x->slot] : d->before[x->slot];
    return seen == 0 ? d->args[x->slot] : NULL;
}

/* Whether a value of type t is an instance of the class node cls (a
 * builtin type, one of NumPy's, or a tuple of those): 1 or 0; -1 for a
 * class this does not know. As in Python, NumPy's float64 and complex128
 * are float and complex, and its narrower scalars are not. A Python int and
 * a NumPy int64 both arrive as int64: both count as int (Python says a
 * NumPy int64 is not one) and as np.integer (Python says a Python int is not). */
static int instance_of(const kj_type *t, const kj_node *cls) {
    if (cls->kind == KJ_E_TUPLE) {
        int any = 0;
        for (int i = 0; i < cls->nkids; i++) {
            int r = instance_of(t, cls->kids[i]);
            if (r < 0)
                return -1;
            any |= r;
        }
        return any;
    }
    if (cls->kind != KJ_E_FUNC || !cls->name)
        return -1;
    const char *c = cls->name;
    kj_kind k = t->kind;
    if (!strncmp(c, "cast:", 5))   /* np.float32, np.int64, ...: that exact type */
        return strcmp(t->name, c + 5) == 0;
    static const struct { const char *cls; kj_kind kind; int bits; } simple[] = {
        {"float", KJ_T_FLOAT, 64}, {"complex", KJ_T_COMPLEX, 128}, {"bool", KJ_T_BOOL, 0},
        {"str", KJ_T_STR, 0}, {"tuple", KJ_T_TUPLE, 0}, {"list", KJ_T_LIST, 0}, {"dict", KJ_T_DICT, 0},
        {"set", KJ_T_SET, 0}, {"np.ndarray", KJ_T_ARRAY, 0}, {"np.integer", KJ_T_INT, 0},
        {"np.floating", KJ_T_FLOAT, 0}, {"np.complexfloating", KJ_T_COMPLEX, 0},
    };
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (!strcmp(c, simple[i].cls))
            return k == simple[i].kind && (!simple[i].bits || t->bits == simple[i].bits);
    if (!strcmp(c, "int"))   /* bool is an int in Python; NumPy's narrower ints are not */
        return (k == KJ_T_INT && t->bits == 64) || k == KJ_T_BOOL;
    if (!strcmp(c, "np.number"))
        return k == KJ_T_INT || k == KJ_T_FLOAT || k == KJ_T_COMPLEX;
    return -1;
}

static bool is_call_of(const kj_node *n, const char *name) {
    return n->kind == KJ_E_CALL && n->nkids >= 1 && n->kids[0]->kind == KJ_E_FUNC && n->kids[0]->name &&
           !strcmp(n->kids[0]->name, name);
}

/* The truth value test n has for these argument types: 1, 0, or -1 when
 * it is not decided before the call runs (or evaluating it has effects
 * that pruning would drop). */
static int decided_test(const decided *d, const kj_node *n) {
    if (n->kind == KJ_E_CONST && n->type && n->type->kind == KJ_T_BOOL)
        return n->ival != 0;
    if (n->kind == KJ_E_UNARY && n->op == KJ_OP_NOT) {
        int r = decided_test(d, n->kids[0]);
        return r < 0 ? -1 : !r;
    }
    if (n->kind == KJ_E_BOOLOP && n->nkids > 0) {   /* decided by its first operand, or by all of them */
        bool and = n->op == KJ_OP_AND;
        int first = decided_test(d, n->kids[0]);
        if (first == (and ? 0 : 1))
            return first;
        for (int i = 0; i < n->nkids; i++) {
            int r = decided_test(d, n->kids[i]);
            if (r < 0)
                return -1;
            if (r == (and ? 0 : 1))
                return r;
        }
        return and ? 1 : 0;
    }
    if (n->kind == KJ_E_COMPARE && n->nkids == 2 && (n->ops[0] == KJ_OP_IS || n->ops[0] == KJ_OP_ISNOT)) {
        const kj_node *x = n->kids[0], *none = n->kids[1];
        if (kj_is_newaxis(x)) {   /* None is x */
            x = n->kids[1];
            none = n->kids[0];
        }
        const kj_type *t = kj_is_newaxis(none) ? fixed_type(d, x) : NULL;
        if (!t || t->kind == KJ_T_OPTIONAL)
            return -1;
        bool is_none = t->kind == KJ_T_NONE;
        return n->ops[0] == KJ_OP_IS ? is_none : !is_none;
    }
    return -1;
}

static int decide_block(decided *d, kj_block *b);

/* isinstance(x, C) of a parameter x, anywhere in n, into its constant. */
static void decide_isinstance(decided *d, kj_node *n) {
    if (!n)
        return;
    for (int i = 0; i < n->nkids; i++)
        decide_isinstance(d, n->kids[i]);
    if (!is_call_of(n, "isinstance") || n->nkids != 3)
        return;
    const kj_type *t = fixed_type(d, n->kids[1]);
    int r = t && t->kind != KJ_T_OPTIONAL ? instance_of(t, n->kids[2]) : -1;
    if (r < 0)
        return;   /* left for inference to refuse, with its reason */
    n->kind = KJ_E_CONST;
    n->type = kj_bool();
    n->ival = r;
    n->nkids = 0;
}

/* Replaces b's item i by the statements of the branch taken, and drops
 * what follows when that branch always returns or raises. */
static int splice(decided *d, kj_block *b, int i, const kj_block *taken) {
    bool ends = kj_block_terminates(taken);
    int keep_after = ends ? 0 : b->n - i - 1;
    int n = i + taken->n + keep_after;
    kj_node **items = kj_alloc(d->f, sizeof(kj_node *) * (size_t)(n > 0 ? n : 1));
    if (!items)
        return -1;
    memcpy(items, b->items, sizeof(kj_node *) * (size_t)i);
    memcpy(items + i, taken->items, sizeof(kj_node *) * (size_t)taken->n);
    memcpy(items + i + taken->n, b->items + i + 1, sizeof(kj_node *) * (size_t)keep_after);
    b->items = items;
    b->n = b->cap = n;
    return 0;
}

static int decide_block(decided *d, kj_block *b) {
    for (int i = 0; i < b->n; i++) {
        kj_node *s = b->items[i];
        decide_isinstance(d, s);
        /* an if's test is decided by the stores before it, before its branches are looked into */
        int r = s->kind == KJ_S_IF ? decided_test(d, s->kids[0]) : -1;
        if (r >= 0) {
            if (splice(d, b, i, r ? &s->body : &s->orelse) < 0)
                return -1;
            i--;   /* the branch's first statement now stands at i, to be decided in turn */
            continue;
        }
        bool was_in_loop = d->in_loop;
        d->in_loop = was_in_loop || s->kind == KJ_S_FOR || s->kind == KJ_S_WHILE;
        int nested = decide_block(d, &s->body) < 0 || decide_block(d, &s->orelse) < 0 ? -1 : 0;
        for (int k = 0; nested == 0 && k < s->nkids; k++)   /* a try statement's handlers */
            if (s->kids[k] && (decide_block(d, &s->kids[k]->body) < 0 || decide_block(d, &s->kids[k]->orelse) < 0))
                nested = -1;
        d->in_loop = was_in_loop;
        if (nested < 0)
            return -1;
        mark_node(s, d->before);   /* what it stores comes before the statements after it */
    }
    return 0;
}

int kj_decide_by_argument_types(kj_function *f, const kj_type *const *args) {
    int assigned[f->nlocals > 0 ? f->nlocals : 1], before[f->nlocals > 0 ? f->nlocals : 1];
    memset(assigned, 0, sizeof assigned);
    memset(before, 0, sizeof before);
    mark_block(&f->body, assigned);
    decided d = {.f = f, .args = args, .assigned = assigned, .before = before};
    return decide_block(&d, &f->body);
}
