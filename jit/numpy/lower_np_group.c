/* lower_np_group: whole-array reductions of one array in one statement
 * (np.sum(a) + a.max() + np.mean(a)) computed in one pass over it. The
 * array is read block by block, each block (64 KiB of doubles) staying in
 * the cache while every reduction folds it in turn, so the array
 * comes from memory once instead of once per reduction (Numba's parfor
 * fusion does this for its parallel code). In a parallel=True function
 * the pass is split across the pool (lower_np_reduce_pool.c), each chunk doing
 * the same over its part.
 *
 * Only statements that are pure expressions take part (numbers, locals,
 * operators, indexing, math and NumPy functions that write nothing, and
 * the reductions; no kiln function, no out=, nothing that skips part of
 * the expression), so computing every reduction where the first one is
 * met changes nothing a program can see: the pass raises nothing, and an
 * empty array's min or max raises where that reduction stands. A float sum
 * adds the same blocks in the same order as alone: the same result. */
#include "jit/core/kind_ops.h"
#include "jit/numpy/lower_np.h"
#include "jit/lower/pool_region.h"
#include "jit/runtime/rt_np.h"

#include <stdlib.h>
#include <string.h>

/* Elements per block: NumPy's (rt_np.h), so that a float sum adds the
 * blocks' pairwise sums as NumPy does; 8192 doubles are 64 KiB. */
#define BLOCK KJ_NP_SUM_BLOCK

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

typedef struct {
    kj_node *node;       /* the call or method */
    kj_part_kind kind;
    bool mean;           /* the sum, divided by the size */
    int slot;            /* the array's local */
    int acc;             /* its accumulator */
    LLVMValueRef value;  /* once computed */
} member;

struct kj_np_group {
    member members[KJ_PART_GROUP_MAX];
    int n;
    int slot;            /* the array the group reduces */
    kj_node *arr;        /* one of its uses, to lower */
    kj_part_acc accs[KJ_PART_GROUP_MAX];
    int nacc;
    bool computed;
    LLVMValueRef count;  /* the array's size, once computed */
    kj_np_group *outer;  /* w->group before this statement */
};

/* The reduction node n stands for, over which array, or false. */
static bool reduction_of(const kj_node *n, kj_part_kind *k, bool *mean, const kj_node **arr) {
    const char *m;
    if (n->kind == KJ_E_METHOD && n->nkids == 1) {
        m = n->name;
        *arr = n->kids[0];
    } else if (n->kind == KJ_E_CALL && n->nkids == 2 && n->kids[0]->kind == KJ_E_FUNC &&
               !strncmp(n->kids[0]->name, "np.", 3)) {
        m = n->kids[0]->name + 3;
        *arr = n->kids[1];
    } else {
        return false;
    }
    const kj_type *at = (*arr)->type;
    if ((*arr)->kind != KJ_E_LOCAL || !at || at->kind != KJ_T_ARRAY || !n->type || n->type->kind == KJ_T_ARRAY ||
        (at->elem->kind != KJ_T_INT && at->elem->kind != KJ_T_FLOAT))
        return false;
    static const struct {
        const char *m;
        kj_part_kind k;
    } table[] = {{"sum", KJ_PART_SUM}, {"mean", KJ_PART_SUM}, {"prod", KJ_PART_PROD}, {"min", KJ_PART_MIN},
                 {"amin", KJ_PART_MIN}, {"max", KJ_PART_MAX}, {"amax", KJ_PART_MAX}, {"all", KJ_PART_ALL},
                 {"any", KJ_PART_ANY}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].m, m)) {
            *k = table[i].k;
            *mean = !strcmp(m, "mean");
            return true;
        }
    return false;
}

static bool listed(const char *name, const char *const *names) {
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* Whether call or method n changes nothing (its arguments aside): no
 * kiln function (it may write the array), no out=. */
static bool pure_call(const kj_node *n) {
    static const char *const reductions[] = {"sum", "mean", "prod", "min", "max", "amin", "amax", "all", "any",
                                             "var", "std", "argmin", "argmax", NULL};
    static const char *const builtins[] = {"abs", "min", "max", "len", "float", "int", "bool", "round", "pow", NULL};
    if (n->kind == KJ_E_METHOD)
        return listed(n->name, reductions);
    const kj_node *f = n->kids[0];
    if (f->kind != KJ_E_FUNC || f->pyobj || !f->name)
        return false;
    for (int i = 1; i < n->nkids; i++)
        if (n->kids[i]->kind == KJ_E_KEYWORD)
            return false;
    if (!strncmp(f->name, "math.", 5) || !strncmp(f->name, "cmath.", 6))
        return true;
    if (!strncmp(f->name, "np.", 3))
        return kj_np_ufunc(f->name + 3) || listed(f->name + 3, reductions);
    return listed(f->name, builtins);
}

/* The reductions in e, or false when e is not a pure expression or could
 * skip part of itself (and, or, x if c else y, a < b < c): the group's
 * values, computed at its first member, must reach every later one. */
static bool collect(kj_node *e, kj_np_group *g) {
    kj_part_kind k;
    bool mean;
    const kj_node *arr;
    if (!e)
        return true;   /* an omitted slice bound */
    switch (e->kind) {
    case KJ_E_CONST:
    case KJ_E_LOCAL: return true;
    case KJ_E_COMPARE:
        if (e->nkids != 2)
            return false;
        /* fall through */
    case KJ_E_BINOP:
    case KJ_E_UNARY:
    case KJ_E_TUPLE:
    case KJ_E_ATTR:
    case KJ_E_INDEX:
    case KJ_E_SLICE:
        for (int i = 0; i < e->nkids; i++)
            if (!collect(e->kids[i], g))
                return false;
        return true;
    case KJ_E_CALL:
    case KJ_E_METHOD:
        if (reduction_of(e, &k, &mean, &arr)) {
            if (g->n == KJ_PART_GROUP_MAX)
                return false;
            g->members[g->n++] = (member){.node = e, .kind = k, .mean = mean, .slot = arr->slot};
            return true;
        }
        if (!pure_call(e))
            return false;
        for (int i = e->kind == KJ_E_CALL ? 1 : 0; i < e->nkids; i++)
            if (!collect(e->kids[i]->kind == KJ_E_KEYWORD ? e->kids[i]->kids[0] : e->kids[i], g))
                return false;
        return true;
    default: return false;
    }
}

/* The expressions statement s evaluates, when it is only that. */
static int expressions(kj_node *s, kj_node **out) {
    switch (s->kind) {
    case KJ_S_ASSIGN:
    case KJ_S_AUGASSIGN:
        if (s->kids[0]->kind != KJ_E_LOCAL)
            return 0;   /* a subscript target is evaluated too */
        out[0] = s->kids[1];
        return 1;
    case KJ_S_EXPR:
    case KJ_S_RETURN:
        out[0] = s->kids[0];
        return s->nkids && s->kids[0] ? 1 : 0;
    default: return 0;
    }
}

static void *group_begin(kj_lw *w, kj_node *s) {
    kj_np_group g = {.n = 0};
    kj_node *e[1];
    if (!w->nrt || expressions(s, e) != 1 || !collect(e[0], &g))
        return NULL;   /* not on the host (no copies there), or not a pure expression */
    /* the array with the most reductions, if two or more */
    int best = 0;
    for (int i = 0; i < g.n; i++) {
        int same = 0;
        for (int j = 0; j < g.n; j++)
            same += g.members[j].slot == g.members[i].slot;
        if (same > best) {
            best = same;
            g.slot = g.members[i].slot;
            kj_node *n = g.members[i].node;
            g.arr = n->kind == KJ_E_METHOD ? n->kids[0] : n->kids[1];
        }
    }
    kj_np_group *kept = best >= 2 ? malloc(sizeof *kept) : NULL;
    if (!kept)
        return NULL;
    *kept = g;
    kept->outer = w->group;
    w->group = kept;
    return kept;
}

static void group_end(kj_lw *w, void *state) {
    kj_np_group *g = state;
    if (!g)
        return;
    w->group = g->outer;
    free(g);
}

KJ_STMT_LOWERING(group, .begin = group_begin, .end = group_end);

/* Accumulators: one per kind and result type (np.sum(a) and np.mean(a) of
 * a float array share theirs). */
static int accumulator(kj_np_group *g, kj_part_kind k, const kj_type *pt) {
    for (int i = 0; i < g->nacc; i++)
        if (g->accs[i].kind == k && g->accs[i].pt == pt)
            return i;
    g->accs[g->nacc] = (kj_part_acc){.kind = k, .pt = pt};
    return g->nacc++;
}

/* acc (k, in pt) folded with x, NumPy's way: integers wrap, a NaN wins min
 * and max (LLVM's intrinsics, so that the loop vectorizes). */
static LLVMValueRef step(kj_lw *w, kj_part_kind k, const kj_type *pt, LLVMValueRef acc, LLVMValueRef x) {
    if (k == KJ_PART_ALL || k == KJ_PART_ANY)
        return k == KJ_PART_ALL ? LLVMBuildAnd(w->b, acc, x, "") : LLVMBuildOr(w->b, acc, x, "");
    if (k == KJ_PART_SUM || k == KJ_PART_PROD)
        return kj_np_elem_op(w, NULL, k == KJ_PART_SUM ? "add" : "multiply", 2, (LLVMValueRef[]){acc, x},
                             (const kj_type *[]){pt, pt}, pt);
    bool mx = k == KJ_PART_MAX, s = pt->kind == KJ_T_INT && pt->is_signed;
    const char *op = pt->kind == KJ_T_FLOAT ? (mx ? "llvm.maximum" : "llvm.minimum")
                     : s ? (mx ? "llvm.smax" : "llvm.smin") : (mx ? "llvm.umax" : "llvm.umin");
    return kj_call_intrinsic(w, op, kj_lltype(w, pt), 2, (LLVMValueRef[]){acc, x});
}

void kj_np_group_pass(kj_lw *w, kj_part_acc *accs, int nacc, LLVMValueRef data, LLVMValueRef count,
                      const kj_type *et, LLVMValueRef first_block) {
    kj_np_loop blocks;
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, count, c64(w, BLOCK - 1), ""), c64(w, BLOCK), "");
    LLVMValueRef b = kj_np_loop_begin(w, &blocks, nblocks);
    LLVMValueRef first = LLVMBuildMul(w->b, b, c64(w, BLOCK), "");
    LLVMValueRef left = LLVMBuildSub(w->b, count, first, "");
    LLVMValueRef n = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, left, c64(w, BLOCK), ""), left, c64(w, BLOCK), "");
    LLVMValueRef block = LLVMBuildGEP2(w->b, kj_llmemtype(w, et), data, &first, 1, "block");
    for (int a = 0; a < nacc; a++) {   /* each reduction over the block, in the cache now */
        LLVMTypeRef lt = kj_lltype(w, accs[a].pt);
        if (accs[a].block_sums) {   /* split: the block's sum, for the caller to add in order */
            LLVMValueRef at = LLVMBuildAdd(w->b, first_block, b, "");
            LLVMBuildStore(w->b, kj_np_pairwise_sum(w, block, n, et, accs[a].pt), LLVMBuildGEP2(w->b, lt, accs[a].block_sums, &at, 1, ""));
            continue;
        }
        LLVMValueRef sum = accs[a].kind == KJ_PART_SUM ? kj_np_sum_in_numpy_order(w, block, n, et, accs[a].pt) : NULL;
        if (sum) {   /* a float sum: the block's pairwise sum, added as NumPy adds its blocks */
            LLVMValueRef cur = LLVMBuildLoad2(w->b, lt, accs[a].acc, "");
            LLVMBuildStore(w->b, kj_fm(w, LLVMBuildFAdd(w->b, cur, sum, "")), accs[a].acc);
            continue;
        }
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, n);
        LLVMValueRef x = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, et), block, &i, 1, ""), et);
        bool truth = accs[a].kind == KJ_PART_ALL || accs[a].kind == KJ_PART_ANY;
        x = truth ? kj_truth(w, x, et) : kj_cast(w, x, et, accs[a].pt);
        LLVMBuildStore(w->b, step(w, accs[a].kind, accs[a].pt, LLVMBuildLoad2(w->b, lt, accs[a].acc, ""), x),
                       accs[a].acc);
        kj_np_loop_end(w, &l);
    }
    kj_np_loop_end(w, &blocks);
}

/* Every member's value, at the first member's place. */
static void compute(kj_lw *w, kj_np_group *g) {
    const kj_type *at = g->arr->type, *et = at->elem;
    LLVMValueRef arr = kj_lower_expr(w, g->arr);
    LLVMValueRef data = kj_np_memory_line(w, arr, at), count = kj_np_size(w, arr, at->ndim);
    for (int i = 0; i < g->n; i++) {
        member *m = &g->members[i];
        if (m->slot != g->slot)
            continue;
        m->acc = accumulator(g, m->kind, m->node->type);   /* the sum of a mean in the mean's type, as alone */
    }
    g->count = count;
    for (int a = 0; a < g->nacc; a++) {
        g->accs[a].acc = kj_entry_alloca(w, kj_lltype(w, g->accs[a].pt), "group.acc");
        LLVMBuildStore(w->b, kj_part_identity(w, g->accs[a].kind, g->accs[a].pt), g->accs[a].acc);
    }
    if (!kj_parallel_reduce_group(w, g->arr, g->accs, g->nacc, data, count, et))
        kj_np_group_pass(w, g->accs, g->nacc, data, count, et, c64(w, 0));
    for (int i = 0; i < g->n; i++) {
        member *m = &g->members[i];
        if (m->slot != g->slot)
            continue;
        const kj_part_acc *a = &g->accs[m->acc];
        m->value = LLVMBuildLoad2(w->b, kj_lltype(w, a->pt), a->acc, "");
        if (m->mean)
            m->value = kj_fm(w, LLVMBuildFDiv(w->b, m->value, LLVMBuildSIToFP(w->b, count, kj_lltype(w, a->pt), ""), ""));
    }
    g->computed = true;
}

LLVMValueRef kj_np_group_value(kj_lw *w, const kj_node *n) {
    kj_np_group *g = w->group;
    if (!g)
        return NULL;
    for (int i = 0; i < g->n; i++) {
        member *m = &g->members[i];
        if (m->node != n || m->slot != g->slot)
            continue;
        if (!g->computed)
            compute(w, g);
        /* an empty array's min or max raises here, where it would alone */
        if (m->kind == KJ_PART_MIN || m->kind == KJ_PART_MAX)
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, g->count, c64(w, 0), ""), PyExc_ValueError,
                        m->kind == KJ_PART_MAX ? "zero-size array to reduction operation maximum which has no identity"
                                               : "zero-size array to reduction operation minimum which has no identity");
        return m->value;
    }
    return NULL;
}
