/* lower_range_checks: bounds checks that a loop's range proves.
 *
 * In `for k in range(start, stop)` counting up, with k and the array not
 * rebound in the body, the check of a[..., k, ...] on axis d cannot fail
 * when 0 <= start and stop <= a.shape[d]. On the GPU targets lower.c then
 * emits the loop twice behind that condition: one copy without those
 * checks, one with them. LLVM's IRCE and unswitching would do this, but on
 * NVPTX they do not: the optimizer merges the checks of one access into a
 * single branch that neither reads. Naive matmul's B[k, col] was the case
 * (bench/MEASURED.md). */
#include "jit/lower/lower.h"

#include <string.h>

static bool visit_node(const kj_node *n, kj_visitor visit, void *arg);

bool kj_visit_block(const kj_block *b, kj_visitor visit, void *arg) {
    for (int i = 0; i < b->n; i++)
        if (visit_node(b->items[i], visit, arg))
            return true;
    return false;
}

static bool visit_node(const kj_node *n, kj_visitor visit, void *arg) {
    if (!n)
        return false;
    if (visit(n, arg))
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (visit_node(n->kids[i], visit, arg))
            return true;
    return kj_visit_block(&n->body, visit, arg) || kj_visit_block(&n->orelse, visit, arg);
}

bool kj_mentions_local(const kj_node *n, int slot) {
    if (!n)
        return false;
    if (n->kind == KJ_E_LOCAL)
        return n->slot == slot;
    for (int i = 0; i < n->nkids; i++)
        if (kj_mentions_local(n->kids[i], slot))
            return true;
    return false;
}

/* n binds local *slot: as an assignment's, a for loop's or a
 * comprehension's target. */
static bool binds(const kj_node *n, void *slot) {
    int s = *(const int *)slot;
    if ((n->kind == KJ_S_ASSIGN || n->kind == KJ_S_AUGASSIGN || n->kind == KJ_S_FOR) && n->nkids > 0 &&
        n->kids[0] && n->kids[0]->kind != KJ_E_INDEX)
        return kj_mentions_local(n->kids[0], s);
    return (n->kind == KJ_E_LISTCOMP || n->kind == KJ_E_DICTCOMP) && n->nkids > 1 && kj_mentions_local(n->kids[1], s);
}

bool kj_binds_in_block(const kj_block *b, int slot) { return kj_visit_block(b, binds, &slot); }

/* n is a barrier: cuda.syncthreads(), or a call to a device function that
 * may hold one. The copy of a loop is chosen per thread (the condition can
 * read thread indices), and the threads of a block must meet at one
 * barrier, so a loop with one is not copied. */
static bool syncs(const kj_node *n, void *unused) {
    (void)unused;
    return n->kind == KJ_E_CALL && n->kids[0]->kind == KJ_E_FUNC && n->kids[0]->name &&
           (strcmp(n->kids[0]->name, "cuda.syncthreads") == 0 || strcmp(n->kids[0]->name, "dispatcher") == 0);
}

static void note(kj_loop_range *r, kj_node *array, int axis, kj_node *index) {
    for (int i = 0; i < r->n; i++)
        if (r->arrays[i]->slot == array->slot && r->axes[i] == axis && r->indices[i]->slot == index->slot)
            return;
    if (r->n < KJ_RANGE_CHECKS_MAX) {
        r->arrays[r->n] = array;
        r->indices[r->n] = index;
        r->axes[r->n++] = axis;
    }
}

typedef struct {
    const kj_block *body;
    kj_loop_range *r;
} scan_state;

/* Notes n if it reads or writes a[i, j, ...] of a local array the body
 * leaves alone with local indices: the loop variable, or locals the body
 * leaves alone too (matmul's row and col). Never stops the walk. */
static bool scan(const kj_node *n, void *arg) {
    scan_state *st = arg;
    if (n->kind != KJ_E_INDEX || n->kids[0]->kind != KJ_E_LOCAL || n->kids[0]->type->kind != KJ_T_ARRAY ||
        n->nkids - 1 != n->kids[0]->type->ndim || kj_binds_in_block(st->body, n->kids[0]->slot))
        return false;
    for (int k = 1; k < n->nkids; k++)
        if (kj_is_newaxis(n->kids[k]))   /* a view, not an element: its positions are not axes */
            return false;
    for (int k = 1; k < n->nkids; k++) {
        kj_node *in = n->kids[k];
        if (in->kind == KJ_E_LOCAL && in->type->kind == KJ_T_INT &&
            (in->slot == st->r->slot || !kj_binds_in_block(st->body, in->slot)))
            note(st->r, n->kids[0], k - 1, in);
    }
    return false;
}

/* Expressions that may be evaluated twice with the same result and no
 * effect but a raise the first evaluation would make: what a range's
 * bounds usually are (n, x.shape[0], cuda.grid(1), len(a) - 1). */
static bool repeatable(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_CONST:
    case KJ_E_LOCAL:
        return true;
    case KJ_E_ATTR:
    case KJ_E_INDEX:
    case KJ_E_BINOP:
    case KJ_E_UNARY:
        for (int i = 0; i < n->nkids; i++)
            if (n->kids[i] && !repeatable(n->kids[i]))
                return false;
        return true;
    case KJ_E_CALL: {
        static const char *const pure[] = {"len", "min", "max", "abs", "int", "cuda.grid", "cuda.gridsize"};
        if (n->kids[0]->kind != KJ_E_FUNC || !n->kids[0]->name)
            return false;
        bool known = false;
        for (size_t i = 0; i < sizeof pure / sizeof *pure; i++)
            known |= strcmp(n->kids[0]->name, pure[i]) == 0;
        for (int i = 1; known && i < n->nkids; i++)
            known = repeatable(n->kids[i]);
        return known;
    }
    default:
        return false;
    }
}

int kj_range_checks_scan(kj_lw *w, const kj_node *s, kj_loop_range *r) {
    r->n = 0;
    const kj_node *target = s->kids[0], *range = s->kids[1];
    if (!w->inst->opts.boundscheck || !w->u->target->version_checked_loops || target->kind != KJ_E_LOCAL ||
        range->type->kind != KJ_T_RANGE || kj_binds_in_block(&s->body, target->slot) || kj_visit_block(&s->body, syncs, NULL))
        return 0;
    for (int i = 1; i < range->nkids; i++)
        if (!repeatable(range->kids[i]))
            return 0;
    r->slot = target->slot;
    scan_state st = {&s->body, r};
    kj_visit_block(&s->body, scan, &st);
    return r->n;
}

LLVMValueRef kj_range_checks_hold(kj_lw *w, const kj_loop_range *r, LLVMValueRef start, LLVMValueRef stop) {
    LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0);
    LLVMValueRef hold = LLVMBuildICmp(w->b, LLVMIntSGE, start, zero, "");
    for (int i = 0; i < r->n; i++) {
        LLVMValueRef len = kj_array_field(w, kj_lower_expr(w, r->arrays[i]), 2, r->axes[i]);
        if (r->indices[i]->slot == r->slot) {
            hold = LLVMBuildAnd(w->b, hold, LLVMBuildICmp(w->b, LLVMIntSLE, stop, len, ""), "");
            continue;
        }
        kj_node *in = r->indices[i];
        LLVMValueRef v = LLVMBuildIntCast2(w->b, kj_lower_expr(w, in), w->i64, in->type->is_signed, "");
        hold = LLVMBuildAnd(w->b, hold, LLVMBuildICmp(w->b, LLVMIntULT, v, len, ""), "");   /* 0 <= v < len */
    }
    return hold;
}

bool kj_range_check_proven(const kj_lw *w, const kj_node *arr, const kj_node *in, int axis) {
    if (!arr || arr->kind != KJ_E_LOCAL || !in || in->kind != KJ_E_LOCAL)
        return false;
    for (const kj_loop_range *r = w->ranges; r; r = r->outer)
        for (int i = 0; i < r->n; i++)
            if (r->arrays[i]->slot == arr->slot && r->axes[i] == axis && r->indices[i]->slot == in->slot)
                return true;
    return false;
}
