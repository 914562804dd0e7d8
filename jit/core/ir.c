/* ir: the arena that holds a function's IR, and the function record. */
#include "jit/core/ir.h"

#include <stdlib.h>
#include <string.h>


struct kj_chunk {
    struct kj_chunk *next;
    size_t used, size;
    _Alignas(16) char data[];
};

void *kj_alloc(kj_function *f, size_t size) {
    size = (size + 15) & ~(size_t)15;
    struct kj_chunk *c = f->chunks;
    if (!c || c->used + size > c->size) {
        size_t cap = size > 65536 ? size : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = f->chunks;
        c->used = 0;
        c->size = cap;
        f->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

kj_node *kj_new_node(kj_function *f, kj_node_kind kind, int line, int col, int nkids) {
    kj_node *n = kj_alloc(f, sizeof *n);
    if (!n)
        return NULL;
    n->kind = kind;
    n->line = line;
    n->col = col;
    n->nkids = nkids;
    if (nkids > 0 && !(n->kids = kj_alloc(f, sizeof(kj_node *) * nkids)))
        return NULL;
    return n;
}

int kj_block_push(kj_function *f, kj_block *b, kj_node *n) {
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 8;
        kj_node **items = kj_alloc(f, sizeof(kj_node *) * cap);
        if (!items)
            return -1;
        if (b->n)
            memcpy(items, b->items, sizeof(kj_node *) * b->n);
        b->items = items;
        b->cap = cap;
    }
    b->items[b->n++] = n;
    return 0;
}

void kj_function_free(kj_function *f) {
    if (!f)
        return;
    while (f->chunks) {
        struct kj_chunk *c = f->chunks;
        f->chunks = c->next;
        free(c);
    }
    Py_XDECREF(f->py_func);
    Py_XDECREF(f->source_lines);
    Py_XDECREF(f->keep);
    free(f->locals);
    free(f->qualname);
    free(f->filename);
    free(f);
}

char *kj_strdup(kj_function *f, const char *s) {
    size_t n = strlen(s) + 1;
    char *p = kj_alloc(f, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

kj_node *kj_index_of_axis(const kj_node *n, int axis) {
    for (int p = 1; p < n->nkids; p++)
        if (!kj_is_newaxis(n->kids[p]) && axis-- == 0)
            return n->kids[p];
    return NULL;
}

int kj_index_gather_axis(const kj_node *n) {
    int axis = -1;
    for (int k = 1; k < n->nkids; k++) {
        const kj_node *i = n->kids[k];
        if (i->kind == KJ_E_SLICE)
            continue;
        if (axis >= 0 || !i->type || i->type->kind != KJ_T_ARRAY)
            return -1;
        axis = k - 1;
    }
    return n->nkids > 2 ? axis : -1;
}

bool kj_const_int(const kj_node *k, int64_t def, int64_t *v) {
    if (!k) {
        *v = def;
        return true;
    }
    if (k->kind != KJ_E_CONST || !k->type || (k->type->kind != KJ_T_INT && k->type->kind != KJ_T_BOOL))
        return false;
    *v = k->ival;
    return true;
}

/* A bound of a slice as slice.indices clamps it, for step's direction. */
static int64_t clamp_bound(int64_t v, int n, int64_t lower, int64_t upper) {
    if (v < 0)
        v += n;
    return v < lower ? lower : v > upper ? upper : v;
}

int kj_const_slice_positions(const kj_node *s, int n, int *out) {
    int64_t start, stop, step;
    if (!kj_const_int(s->kids[2], 1, &step) || step == 0)
        return -1;
    int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
    if (!kj_const_int(s->kids[0], step > 0 ? lower : upper, &start) ||
        !kj_const_int(s->kids[1], step > 0 ? upper : lower, &stop))
        return -1;
    if (s->kids[0])
        start = clamp_bound(start, n, lower, upper);
    if (s->kids[1])
        stop = clamp_bound(stop, n, lower, upper);
    int count = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        out[count++] = (int)i;
    return count;
}

bool kj_kid_always_evaluated(const kj_node *n, int k) {
    switch (n->kind) {
    case KJ_E_BOOLOP:
    case KJ_E_IFEXP:
        return k == 0;
    case KJ_E_COMPARE:
        return k <= 1;
    case KJ_E_LISTCOMP:
    case KJ_E_DICTCOMP:
        return k == 2;
    default:
        return true;
    }
}

bool kj_const_number(const kj_node *k, double *v) {
    bool neg = k->kind == KJ_E_UNARY && k->op == KJ_OP_NEG;
    if (neg)
        k = k->kids[0];
    if (k->kind != KJ_E_CONST || !k->type || (k->type->kind != KJ_T_INT && k->type->kind != KJ_T_FLOAT))
        return false;
    *v = k->type->kind == KJ_T_INT ? (double)k->ival : k->fval;
    *v = neg ? -*v : *v;
    return true;
}
