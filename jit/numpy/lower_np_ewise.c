/* lower_np_ewise: an array expression (operators, comparisons and ufuncs
 * on arrays and scalars) evaluated in one fused loop with NumPy's
 * broadcasting: every operand that is not itself elementwise (a variable,
 * a call, a scalar) is evaluated once before the loop; the loop computes
 * each element of the result from the operands' elements, with no
 * temporary arrays. When every operand has the result's shape and is
 * contiguous (checked at run time), the loop is flat with unit-stride
 * accesses, which LLVM vectorizes. */
#include "jit/numpy/lower_np.h"
#include "jit/lower/pool_region.h"
#include "jit/lower/stream_stores.h"

#include <string.h>

#define MAX_LEAVES 64

typedef struct {
    kj_node *node;                         /* the operand (a variable stands for all its uses) */
    const kj_type *t;
    LLVMValueRef v;                        /* the array, or the scalar */
    LLVMValueRef bstride[KJ_NP_MAXDIM];    /* per result axis; 0 where broadcast */
    LLVMValueRef elem;                     /* inside the loop */
} leaf;

typedef struct {
    leaf leaves[MAX_LEAVES];
    int n;
    bool overflow;
    kj_np_leaf_fn leaf_fn;                 /* set: the operands' elements come from it, not from leaves */
    void *leaf_arg;
} ew;

int kj_np_ewise_operands(kj_node *n, kj_node **ops) {
    switch (n->kind) {
    case KJ_E_BINOP:
    case KJ_E_COMPARE: ops[0] = n->kids[0]; ops[1] = n->kids[1]; return 2;
    case KJ_E_UNARY: ops[0] = n->kids[0]; return 1;
    default: {   /* a call: its positional arguments (out= is not an operand) */
        int k = 0;
        for (int i = 1; i < n->nkids && k < 3; i++)
            if (n->kids[i]->kind != KJ_E_KEYWORD)
                ops[k++] = n->kids[i];
        return k;
    }
    }
}

static const char *ufunc_of(kj_node *n) {
    switch (n->kind) {
    case KJ_E_BINOP: return kj_np_op_ufunc(n->op, false);
    case KJ_E_UNARY: return kj_np_op_ufunc(n->op, true);
    case KJ_E_COMPARE: return kj_np_op_ufunc(n->ops[0], false);
    default: return n->kids[0]->name + 3;
    }
}

/* The leaf of operand n, if collected. */
static leaf *find(ew *e, const kj_node *n) {
    for (int i = 0; i < e->n; i++) {
        const kj_node *m = e->leaves[i].node;
        if (m == n || (n->kind == KJ_E_LOCAL && m->kind == KJ_E_LOCAL && m->slot == n->slot))
            return &e->leaves[i];
    }
    return NULL;
}

/* The root is elementwise even when it is not fused into an outer
 * expression (a ufunc call with out=, an augmented assignment). */
static void collect(kj_lw *w, ew *e, kj_node *n, bool root) {
    if (root || kj_np_is_ewise(n)) {
        kj_node *ops[3];
        int k = kj_np_ewise_operands(n, ops);
        for (int i = 0; i < k; i++)
            collect(w, e, ops[i], false);
        return;
    }
    if (find(e, n))   /* a variable used twice is loaded once */
        return;
    if (e->n == MAX_LEAVES) {
        e->overflow = true;
        return;
    }
    leaf *l = &e->leaves[e->n++];
    l->node = n;
    l->t = n->type->kind == KJ_T_OPTIONAL ? n->type->elem : n->type;
    l->v = kj_cast(w, kj_lower_expr(w, n), n->type, l->t);
}

/* 2, 3 or 4 when e is that constant, else 0. */
static int small_exponent(const kj_node *e) {
    if (e->kind != KJ_E_CONST)
        return 0;
    double p = e->type->kind == KJ_T_FLOAT ? e->fval : kj_is_intlike(e->type) ? (double)e->ival : -1;
    return p == 2 || p == 3 || p == 4 ? (int)p : 0;
}

/* x ** 2, x ** 3 and x ** 4 with a constant exponent as multiplications
 * (NumPy's own fast path for squares; it keeps integer powers out of the
 * runtime's loop), else NULL. */
static LLVMValueRef small_power(kj_lw *w, const char *u, int k, kj_node **ops, LLVMValueRef *x,
                                const kj_type **xt, const kj_type *rt) {
    if (k != 2 || strcmp(u, "power") != 0 || rt->kind == KJ_T_BOOL)
        return NULL;
    kj_node *e = ops[1];
    int p = small_exponent(e);
    if (!p)
        return NULL;
    LLVMValueRef b = kj_cast(w, x[0], xt[0], rt), r = b;
    for (int i = 1; i < p; i++)   /* NumPy's multiply: floats, wrapping ints, complex pairs */
        r = kj_np_elem_op(w, e, "multiply", 2, (LLVMValueRef[]){r, b}, (const kj_type *[]){rt, rt}, rt);
    return r;
}

/* a ** 0.5 of a float array, the operator (not np.power): NumPy's
 * ndarray.__pow__ takes np.sqrt for it, which differs from pow at -inf
 * (nan, not inf) and -0.0 (-0.0, not 0.0). Else NULL. */
static LLVMValueRef operator_sqrt(kj_lw *w, kj_node *n, kj_node **ops, LLVMValueRef *x, const kj_type **xt,
                                  const kj_type *rt) {
    const kj_node *e = ops[1];
    const kj_type *base = ops[0]->type;
    if (n->kind != KJ_E_BINOP || n->op != KJ_OP_POW || e->kind != KJ_E_CONST || e->type->kind != KJ_T_FLOAT ||
        e->fval != 0.5 || !base || base->kind != KJ_T_ARRAY || base->elem->kind != KJ_T_FLOAT || rt->kind != KJ_T_FLOAT)
        return NULL;
    return kj_np_elem_op(w, n, "sqrt", 1, (LLVMValueRef[]){kj_cast(w, x[0], xt[0], rt)}, (const kj_type *[]){rt}, rt);
}

/* The element of n, from the leaves' current elements. */
static LLVMValueRef element(kj_lw *w, ew *e, kj_node *n, bool root, const kj_type **type) {
    if (!root && !kj_np_is_ewise(n)) {
        if (e->leaf_fn)
            return e->leaf_fn(w, n, type, e->leaf_arg);
        leaf *l = find(e, n);
        *type = l->t->kind == KJ_T_ARRAY ? l->t->elem : l->t;
        return l->elem;
    }
    kj_node *ops[3];
    int k = kj_np_ewise_operands(n, ops);
    LLVMValueRef x[3];
    const kj_type *xt[3];
    for (int i = 0; i < k; i++)
        x[i] = element(w, e, ops[i], false, &xt[i]);
    const kj_type *rt = n->type->kind == KJ_T_ARRAY ? n->type->elem : n->type;
    *type = rt;
    LLVMValueRef p = small_power(w, ufunc_of(n), k, ops, x, xt, rt);
    if (!p && k == 2)
        p = operator_sqrt(w, n, ops, x, xt, rt);
    return p ? p : kj_np_elem_op(w, n, ufunc_of(n), k, x, xt, rt);
}

LLVMValueRef kj_np_ewise_element(kj_lw *w, kj_node *n, kj_np_leaf_fn leaf_fn, void *arg, const kj_type **type) {
    ew e = {.leaf_fn = leaf_fn, .leaf_arg = arg};
    return element(w, &e, n, true, type);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* Inside the strided loop nest at index idx: every array leaf's current
 * element, through its (broadcast) byte strides; a scalar leaf is itself. */
static void load_leaves_strided(kj_lw *w, ew *e, int nd, LLVMValueRef *idx) {
    for (int k = 0; k < e->n; k++) {
        leaf *l = &e->leaves[k];
        if (l->t->kind != KJ_T_ARRAY) {
            l->elem = l->v;
            continue;
        }
        LLVMValueRef off = c64(w, 0);
        for (int d = 0; d < nd; d++)
            off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[d], l->bstride[d], ""), "");
        l->elem = kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, l->v, 1, 0), &off, 1, ""), l->t->elem);
    }
}

/* The shape of n's value (nd returned), checking as NumPy does, node by
 * node in evaluation order, that each operation's operands broadcast (the
 * first that does not raises NumPy's message with its operands' shapes). */
static int node_shape(kj_lw *w, ew *e, kj_node *n, bool root, LLVMValueRef *shape) {
    if (!root && !kj_np_is_ewise(n)) {
        leaf *l = find(e, n);
        if (l->t->kind != KJ_T_ARRAY)
            return 0;
        kj_np_shape(w, l->v, l->t->ndim, shape);
        return l->t->ndim;
    }
    kj_node *ops[3];
    int k = kj_np_ewise_operands(n, ops), ond[3], nd = 0;
    LLVMValueRef osh[3][KJ_NP_MAXDIM];
    for (int i = 0; i < k; i++) {
        ond[i] = node_shape(w, e, ops[i], false, osh[i]);
        nd = ond[i] > nd ? ond[i] : nd;
    }
    for (int d = 0; d < nd; d++) {
        LLVMValueRef s = c64(w, 1);
        for (int i = 0; i < k; i++)
            if (d >= nd - ond[i]) {
                LLVMValueRef ld = osh[i][d - (nd - ond[i])];
                s = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, s, c64(w, 1), ""), ld, s, "");
            }
        shape[d] = s;
    }
    LLVMValueRef bad = LLVMConstInt(w->i1, 0, 0);
    for (int i = 0; i < k; i++)
        for (int d = nd - ond[i]; d < nd; d++) {
            LLVMValueRef ld = osh[i][d - (nd - ond[i])];
            bad = LLVMBuildOr(w->b, bad, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, ld, c64(w, 1), ""),
                                                       LLVMBuildICmp(w->b, LLVMIntNE, ld, shape[d], ""), ""), "");
        }
    if (nd == 0)
        return 0;
    LLVMBasicBlockRef ok = kj_raise_begin(w, bad);
    LLVMValueRef nds[3], dims[3 * KJ_NP_MAXDIM];
    int ndims = 0;
    for (int i = 0; i < k; i++) {
        nds[i] = c64(w, ond[i]);
        for (int d = 0; d < ond[i]; d++)
            dims[ndims++] = osh[i][d];
    }
    kj_call(w, "kj_np_raise_broadcast", w->vd, 3, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr},
            (LLVMValueRef[]){c64(w, k), kj_np_i64_array(w, k, nds), kj_np_i64_array(w, ndims, dims)});
    kj_raise_end(w, ok);
    return nd;
}

static void leaf_strides(kj_lw *w, ew *e, int nd);

/* The result's shape into shape, with every operand's strides along it;
 * when shape is given (out's), the expression's own shape must broadcast
 * into it, else `raise` (kj_np_raise_out or kj_np_raise_assign, the words
 * NumPy uses for out= and for a[...] = v) reports it. */
static void broadcast(kj_lw *w, ew *e, kj_node *n, int nd, LLVMValueRef *shape, const char *raise) {
    LLVMValueRef own[KJ_NP_MAXDIM];
    bool given = raise != NULL;
    int bnd = node_shape(w, e, n, true, given ? own : shape);
    if (given) {
        LLVMValueRef bad = LLVMConstInt(w->i1, bnd > nd, 0);
        for (int d = 0; d < bnd && bnd <= nd; d++) {
            LLVMValueRef od = shape[nd - bnd + d];
            bad = LLVMBuildOr(w->b, bad, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, own[d], c64(w, 1), ""),
                                                       LLVMBuildICmp(w->b, LLVMIntNE, own[d], od, ""), ""), "");
        }
        LLVMBasicBlockRef ok = kj_raise_begin(w, bad);
        LLVMValueRef out_shape[2] = {c64(w, nd), kj_np_i64_array(w, nd, shape)}, own_shape[2] = {c64(w, bnd), kj_np_i64_array(w, bnd, own)};
        bool assign = !strcmp(raise, "kj_np_raise_assign");   /* its arguments: the value's shape first */
        kj_call(w, raise, w->vd, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->i64, w->ptr},
                (LLVMValueRef[]){assign ? own_shape[0] : out_shape[0], assign ? own_shape[1] : out_shape[1],
                                 assign ? out_shape[0] : own_shape[0], assign ? out_shape[1] : own_shape[1]});
        kj_raise_end(w, ok);
    }
    leaf_strides(w, e, nd);
}

static void leaf_strides(kj_lw *w, ew *e, int nd) {
    for (int i = 0; i < e->n; i++) {
        leaf *l = &e->leaves[i];
        if (l->t->kind != KJ_T_ARRAY)
            continue;
        int off = nd - l->t->ndim;
        for (int d = 0; d < nd; d++) {
            if (d < off) {
                l->bstride[d] = c64(w, 0);
                continue;
            }
            LLVMValueRef one = LLVMBuildICmp(w->b, LLVMIntEQ, kj_array_field(w, l->v, 2, d - off), c64(w, 1), "");
            l->bstride[d] = LLVMBuildSelect(w->b, one, c64(w, 0), kj_array_field(w, l->v, 3, d - off), "");
        }
    }
}

/* Whether every operand has the result's shape and is contiguous. */
static LLVMValueRef flat_ok(kj_lw *w, ew *e, int nd, LLVMValueRef *shape, LLVMValueRef res, const kj_type *rt) {
    LLVMValueRef ok = res ? kj_np_is_contiguous(w, res, rt) : LLVMConstInt(w->i1, 1, 0);
    for (int i = 0; i < e->n; i++) {
        leaf *l = &e->leaves[i];
        if (l->t->kind != KJ_T_ARRAY)
            continue;
        if (l->t->ndim != nd)
            return LLVMConstInt(w->i1, 0, 0);
        ok = LLVMBuildAnd(w->b, ok, kj_np_is_contiguous(w, l->v, l->t), "");
        for (int d = 0; d < nd; d++)
            ok = LLVMBuildAnd(w->b, ok, LLVMBuildICmp(w->b, LLVMIntEQ, kj_array_field(w, l->v, 2, d), shape[d], ""), "");
    }
    return ok;
}

/* The flat loop over every element, on this thread or, in a parallel=True
 * function, in chunks on the pool (parallel.h): flat_begin returns the
 * lowering state to build the loop body in (the chunk function's, where the
 * leaves' values and `extra` are passed in; *extra_in is extra there),
 * flat_index opens the loop and loads every leaf's element i (returned),
 * flat_close_loop closes it, and flat_end, when split, runs the chunks. */
typedef struct {
    kj_par_region region;
    bool split;
    LLVMValueRef outer[MAX_LEAVES + 1];
    kj_np_loop loop;
} flat_split;

static kj_lw *flat_begin(kj_lw *w, ew *e, flat_split *sp, const char *what, int line, bool split,
                         LLVMValueRef extra, LLVMValueRef *extra_in) {
    sp->split = split;
    *extra_in = extra;
    if (!split)
        return w;
    LLVMValueRef inside[MAX_LEAVES + 1];
    for (int k = 0; k < e->n; k++)
        sp->outer[k] = e->leaves[k].v;
    sp->outer[e->n] = extra ? extra : LLVMConstNull(w->ptr);
    kj_lw *o = kj_parallel_region_begin(w, &sp->region, what, line, e->n + 1, sp->outer, inside);
    for (int k = 0; k < e->n; k++)
        e->leaves[k].v = inside[k];
    *extra_in = inside[e->n];
    return o;
}

static LLVMValueRef flat_index(kj_lw *lw, ew *e, flat_split *sp, LLVMValueRef size) {
    LLVMValueRef first = c64(lw, 0), count = size;
    if (sp->split) {
        first = sp->region.lo;
        count = LLVMBuildSub(lw->b, sp->region.hi, sp->region.lo, "");
    }
    LLVMValueRef i = LLVMBuildAdd(lw->b, first, kj_np_loop_begin(lw, &sp->loop, count), "");
    for (int k = 0; k < e->n; k++) {
        leaf *l = &e->leaves[k];
        l->elem = l->t->kind != KJ_T_ARRAY
                      ? l->v
                      : kj_np_load(lw, LLVMBuildGEP2(lw->b, kj_llmemtype(lw, l->t->elem), kj_array_field(lw, l->v, 1, 0), &i, 1, ""),
                                   l->t->elem);
    }
    return i;
}

static void flat_close_loop(kj_lw *w, flat_split *sp) { kj_np_loop_end(sp->split ? &sp->region.o : w, &sp->loop); }

static void flat_end(kj_lw *w, ew *e, flat_split *sp, LLVMValueRef size) {
    if (!sp->split)
        return;
    kj_parallel_region_end(w, &sp->region, size);
    for (int k = 0; k < e->n; k++)
        e->leaves[k].v = sp->outer[k];
}

/* Whether computing n's elements costs less than moving them: every
 * operation a cheap one (its ufunc entry says) on real numbers. Only then is the
 * streaming copy of a loop worth what it adds to the compile; sines,
 * exponentials and complex numbers spend their time in the arithmetic,
 * and seed 000's evaluate_functions compiled in half as much time again
 * with a copy of each of its six loops. */
static bool memory_bound(kj_node *n, bool root) {
    if (!root && !kj_np_is_ewise(n))
        return true;   /* an operand, computed before the loop */
    const kj_type *t = n->type->kind == KJ_T_ARRAY ? n->type->elem : n->type;
    if (t->kind == KJ_T_COMPLEX)
        return false;
    kj_node *ops[3];
    int k = kj_np_ewise_operands(n, ops);
    const char *u = ufunc_of(n);
    const kj_callable *uf = u ? kj_np_ufunc(u) : NULL;
    bool ok = uf && (uf->cheap || (strcmp(u, "power") == 0 && k == 2 && small_exponent(ops[1])));
    for (int i = 0; i < k && ok; i++)
        ok = memory_bound(ops[i], false);
    return ok;
}

/* The bytes one element of the result takes to compute: its own and
 * every array operand's. */
static LLVMValueRef touched_per_element(kj_lw *w, ew *e, const kj_type *rt) {
    LLVMValueRef bytes = kj_np_itemsize(w, rt->elem);
    for (int k = 0; k < e->n; k++)
        if (e->leaves[k].t->kind == KJ_T_ARRAY)
            bytes = LLVMBuildAdd(w->b, bytes, kj_np_itemsize(w, e->leaves[k].t->elem), "");
    return bytes;
}

/* The flat loop writing res, its stores marked to stream when asked. */
static void flat_loop(kj_lw *w, ew *e, kj_node *n, LLVMValueRef res, const kj_type *rt, LLVMValueRef size,
                      bool stream) {
    flat_split sp;
    LLVMValueRef res_in;
    kj_lw *lw = flat_begin(w, e, &sp, "ew", n->line, kj_parallel_wanted(w), res, &res_in);
    LLVMValueRef i = flat_index(lw, e, &sp, size);
    const kj_type *vt;
    LLVMValueRef v = element(lw, e, n, true, &vt);
    LLVMValueRef store = kj_np_store_elem(
        lw, LLVMBuildGEP2(lw->b, kj_llmemtype(lw, rt->elem), kj_array_field(lw, res_in, 1, 0), &i, 1, ""), v, vt, rt->elem);
    if (stream)
        kj_stream_mark(lw, store);
    kj_np_loop_elementwise(&sp.loop);
    flat_close_loop(w, &sp);
    flat_end(w, e, &sp, size);
}

/* The bytes of stack a block of the strided loop buffers its operands in. */
#define BLOCK_BYTES 16384

/* A new 1-d array from an expression of math functions whose operands'
 * types admit strides (`np.cos(a[::2])`), in blocks: an operand with unit
 * stride is read in place, any other one's elements are first copied into
 * a buffer on the stack, one at a time; then the expression runs over the
 * block, contiguous, as the flat loop does. Element by element, math
 * functions are called one value at a time; over the buffers LLVM calls
 * glibc's vector versions, several times faster (bench/MEASURED.md). This
 * one loop serves every layout: beside the flat loop, a second vectorized
 * copy of the expression would nearly double its compile. */
static void blocked_loop(kj_lw *w, ew *e, kj_node *n, LLVMValueRef res, const kj_type *rt, LLVMValueRef size) {
    long long row = 0;
    for (int k = 0; k < e->n; k++)
        if (e->leaves[k].t->kind == KJ_T_ARRAY)
            row += LLVMABISizeOfType(LLVMGetModuleDataLayout(w->mod), kj_llmemtype(w, e->leaves[k].t->elem));
    long long block = BLOCK_BYTES / row;   /* some operand is an array: its type admits strides */
    LLVMValueRef buf[MAX_LEAVES], at[MAX_LEAVES];
    for (int k = 0; k < e->n; k++)
        if (e->leaves[k].t->kind == KJ_T_ARRAY)
            buf[k] = kj_entry_alloca(w, LLVMArrayType2(kj_llmemtype(w, e->leaves[k].t->elem), (uint64_t)block), "ew.block");
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, size, c64(w, block - 1), ""), c64(w, block), "");
    kj_np_loop blocks;
    LLVMValueRef lo = LLVMBuildMul(w->b, kj_np_loop_begin(w, &blocks, nblocks), c64(w, block), "lo");
    LLVMValueRef left = LLVMBuildSub(w->b, size, lo, "");
    LLVMValueRef m = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, left, c64(w, block), ""), left,
                                     c64(w, block), "m");
    for (int k = 0; k < e->n; k++) {
        leaf *l = &e->leaves[k];
        if (l->t->kind != KJ_T_ARRAY)
            continue;
        LLVMTypeRef mt = kj_llmemtype(w, l->t->elem);
        LLVMValueRef data = kj_array_field(w, l->v, 1, 0);
        LLVMValueRef start = LLVMBuildMul(w->b, lo, l->bstride[0], "");
        LLVMValueRef unit = LLVMBuildICmp(w->b, LLVMIntEQ, l->bstride[0], kj_np_itemsize(w, l->t->elem), "");
        at[k] = LLVMBuildSelect(w->b, unit, LLVMBuildGEP2(w->b, w->i8, data, &start, 1, ""), buf[k], "");
        LLVMBasicBlockRef copy_bb = kj_new_bb(w, "ew.copy"), copied = kj_new_bb(w, "ew.copied");
        LLVMBuildCondBr(w->b, unit, copied, copy_bb);
        LLVMPositionBuilderAtEnd(w->b, copy_bb);
        kj_np_loop copy;
        LLVMValueRef j = kj_np_loop_begin(w, &copy, m);
        LLVMValueRef off = LLVMBuildMul(w->b, LLVMBuildAdd(w->b, lo, j, ""), l->bstride[0], "");
        LLVMValueRef from = LLVMBuildGEP2(w->b, w->i8, data, &off, 1, "");
        LLVMBuildStore(w->b, LLVMBuildLoad2(w->b, mt, from, ""), LLVMBuildGEP2(w->b, mt, buf[k], &j, 1, ""));
        kj_np_loop_keep_rolled(&copy);
        kj_np_loop_end(w, &copy);
        LLVMBuildBr(w->b, copied);
        LLVMPositionBuilderAtEnd(w->b, copied);
    }
    kj_np_loop body;
    LLVMValueRef j = kj_np_loop_begin(w, &body, m);
    for (int k = 0; k < e->n; k++) {
        leaf *l = &e->leaves[k];
        l->elem = l->t->kind != KJ_T_ARRAY ? l->v
                  : kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, l->t->elem), at[k], &j, 1, ""), l->t->elem);
    }
    const kj_type *vt;
    LLVMValueRef v = element(w, e, n, true, &vt);
    LLVMValueRef i = LLVMBuildAdd(w->b, lo, j, "");
    kj_np_store_elem(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, rt->elem), kj_array_field(w, res, 1, 0), &i, 1, ""),
                     v, vt, rt->elem);
    kj_np_loop_elementwise(&body);
    kj_np_loop_end(w, &body);
    kj_np_loop_end(w, &blocks);
}

/* Whether writing the result into out element by element could change an
 * operand before it is read: an array operand shares bytes with out and is
 * not out itself (the same data, shape and strides, where element i is
 * read just before element i is written). NumPy then computes into a
 * buffer first (a[1:] = a[:-1] * 2, np.add(a[1:], a[:-1], out=a[:-1])).
 * A call per operand (rt_np.c): the same test inline made a quarter more
 * to optimize in a one-line function. */
static LLVMValueRef out_overlaps(kj_lw *w, ew *e, LLVMValueRef out, const kj_type *ot) {
    LLVMValueRef any = LLVMConstInt(w->i1, 0, 0), at_out = kj_entry_alloca(w, LLVMTypeOf(out), "out");
    LLVMBuildStore(w->b, out, at_out);
    for (int i = 0; i < e->n; i++) {
        leaf *l = &e->leaves[i];
        if (l->t->kind != KJ_T_ARRAY)
            continue;
        LLVMValueRef at = kj_entry_alloca(w, LLVMTypeOf(l->v), "operand");
        LLVMBuildStore(w->b, l->v, at);
        LLVMValueRef o = kj_call(w, "kj_np_overlaps", w->i32, 6, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->ptr, w->i64, w->i64},
                                 (LLVMValueRef[]){at, c64(w, l->t->ndim), kj_np_itemsize(w, l->t->elem), at_out,
                                                  c64(w, ot->ndim), kj_np_itemsize(w, ot->elem)});
        any = LLVMBuildOr(w->b, any, LLVMBuildICmp(w->b, LLVMIntNE, o, LLVMConstInt(w->i32, 0, 0), ""), "");
    }
    return any;
}

/* When out may overlap an operand (out_overlaps, checked at run time):
 * a new C-contiguous array of out's shape to compute into, else out
 * itself; *overlap is the check. */
static LLVMValueRef buffer_if_overlapping(kj_lw *w, ew *e, LLVMValueRef out, const kj_type *ot, LLVMValueRef *shape,
                                          LLVMValueRef *overlap) {
    *overlap = out_overlaps(w, e, out, ot);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(w->b), buffer = kj_new_bb(w, "ew.buffer"), join = kj_new_bb(w, "ew.into");
    LLVMBuildCondBr(w->b, *overlap, buffer, join);
    LLVMPositionBuilderAtEnd(w->b, buffer);
    LLVMValueRef tmp = kj_np_alloc(w, kj_array(ot->elem, ot->ndim, KJ_LAYOUT_C, false), shape, false);
    LLVMBasicBlockRef buffer_end = LLVMGetInsertBlock(w->b);
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef res = LLVMBuildPhi(w->b, LLVMTypeOf(out), "res");
    LLVMAddIncoming(res, (LLVMValueRef[]){out, tmp}, (LLVMBasicBlockRef[]){from, buffer_end}, 2);
    return res;
}

/* After the loops: the buffer, if one was used, into out. */
static void copy_buffer(kj_lw *w, LLVMValueRef overlap, LLVMValueRef out, const kj_type *ot, LLVMValueRef res) {
    LLVMBasicBlockRef copy = kj_new_bb(w, "ew.copy"), done = kj_new_bb(w, "ew.copied");
    LLVMBuildCondBr(w->b, overlap, copy, done);
    LLVMPositionBuilderAtEnd(w->b, copy);
    LLVMValueRef shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM];
    kj_np_shape(w, out, ot->ndim, shape);
    kj_np_strides(w, out, ot->ndim, strides);
    kj_call(w, "kj_np_unbuffer", w->vd, 6, (LLVMTypeRef[]){w->ptr, w->ptr, w->ptr, w->i64, w->ptr, w->i64},
            (LLVMValueRef[]){kj_array_field(w, out, 1, 0), kj_np_i64_array(w, ot->ndim, shape),
                             kj_np_i64_array(w, ot->ndim, strides), c64(w, ot->ndim), kj_array_field(w, res, 1, 0),
                             kj_np_itemsize(w, ot->elem)});
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

/* How the result reaches its array. */
typedef enum {
    EW_NEW,        /* a new array */
    EW_OUT,        /* out, which cannot overlap an operand other than element for element */
    EW_OUT_GUARD,  /* out (a ufunc's out=), which may */
    EW_ASSIGN,     /* out is the view of `a[...] = expression`, which may */
} ew_into;

static LLVMValueRef ewise(kj_lw *w, ew *e, kj_node *n, LLVMValueRef out, const kj_type *ot, ew_into into);

LLVMValueRef kj_np_ewise(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot) {
    ew e = {.n = 0};
    collect(w, &e, n, true);
    return ewise(w, &e, n, out, ot, out ? EW_OUT_GUARD : EW_NEW);
}

LLVMValueRef kj_np_ewise_in_place(kj_lw *w, kj_node *n, LLVMValueRef out, const kj_type *ot) {
    ew e = {.n = 0};
    collect(w, &e, n, true);
    return ewise(w, &e, n, out, ot, EW_OUT);
}

void kj_np_store_ewise(kj_lw *w, kj_node *target, kj_node *value) {
    ew e = {.n = 0};
    collect(w, &e, value, true);   /* the value first, then the target, as Python does */
    ewise(w, &e, value, kj_lower_index(w, target), target->type, EW_ASSIGN);
}

static LLVMValueRef ewise(kj_lw *w, ew *e, kj_node *n, LLVMValueRef out, const kj_type *ot, ew_into into) {
    if (e->overflow) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, "Split the expression over two lines.",
                "this array expression has more than %d operands", MAX_LEAVES);
        return LLVMGetUndef(kj_lltype(w, out ? ot : n->type));
    }
    const kj_type *rt = out ? ot : n->type;
    int nd = rt->ndim;
    LLVMValueRef shape[KJ_NP_MAXDIM];
    if (out)
        kj_np_shape(w, out, nd, shape);
    broadcast(w, e, n, nd, shape, !out ? NULL : into == EW_ASSIGN ? "kj_np_raise_assign" : "kj_np_raise_out");
    LLVMValueRef overlap = NULL, res = out;
    if (!out)
        res = kj_np_alloc(w, rt, shape, false);
    else if (into != EW_OUT)
        res = buffer_if_overlapping(w, e, out, ot, shape, &overlap);
    /* one C-contiguous array and scalars into a new array: always flat, so
     * the strided loop is not generated (less to compile) */
    int arrays = 0;
    bool c_layouts = true;
    for (int k = 0; k < e->n; k++)
        if (e->leaves[k].t->kind == KJ_T_ARRAY) {
            arrays++;
            c_layouts = c_layouts && e->leaves[k].t->layout == KJ_LAYOUT_C && e->leaves[k].t->ndim == nd;
        }
    bool flat_only = !out && c_layouts && arrays == 1;
    if (nd == 1 && !out && !c_layouts && !kj_parallel_wanted(w) && rt->elem->kind != KJ_T_COMPLEX &&
        !memory_bound(n, true)) {
        blocked_loop(w, e, n, res, rt, shape[0]);
        return res;
    }
    LLVMBasicBlockRef flat = kj_new_bb(w, "ew.flat"), strided = flat_only ? NULL : kj_new_bb(w, "ew.strided"),
                      done = kj_new_bb(w, "ew.done");
    if (flat_only)
        LLVMBuildBr(w->b, flat);
    else
        LLVMBuildCondBr(w->b, flat_ok(w, e, nd, shape, res, rt), flat, strided);

    /* contiguous: one loop, element i of everything; a new array too large
     * for the cache, of cheap elements, is written with streaming stores
     * (stream_stores.h), in a copy of the loop; in a parallel=True function
     * the range is split across the thread pool instead (parallel.h) */
    LLVMPositionBuilderAtEnd(w->b, flat);
    LLVMValueRef size = kj_np_size(w, res, nd);
    if (!out && !kj_parallel_wanted(w) && kj_stream_possible(w) && memory_bound(n, true)) {
        LLVMBasicBlockRef streamed = kj_new_bb(w, "ew.stream"), cached = kj_new_bb(w, "ew.cached");
        LLVMBuildCondBr(w->b, kj_stream_wanted(w, LLVMBuildMul(w->b, size, touched_per_element(w, e, rt), "")),
                        streamed, cached);
        LLVMPositionBuilderAtEnd(w->b, streamed);
        kj_stream_assume_aligned(w, kj_array_field(w, res, 1, 0));
        flat_loop(w, e, n, res, rt, size, true);
        kj_stream_fence(w);
        LLVMBuildBr(w->b, done);
        LLVMPositionBuilderAtEnd(w->b, cached);
    }
    flat_loop(w, e, n, res, rt, size, false);
    LLVMBuildBr(w->b, done);
    if (flat_only) {
        LLVMPositionBuilderAtEnd(w->b, done);
        return res;   /* a new array */
    }

    /* any layout, broadcasting: nested loops through the strides */
    LLVMPositionBuilderAtEnd(w->b, strided);
    LLVMValueRef idx[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    if (nd == 1)   /* the flat loop took unit strides: here some are not */
        kj_np_loop_keep_scalar(&nest.loops[0]);
    load_leaves_strided(w, e, nd, idx);
    const kj_type *vt;
    LLVMValueRef v = element(w, e, n, true, &vt);
    kj_np_store_elem(w, kj_np_ptr(w, res, nd, idx), v, vt, rt->elem);
    kj_np_nest_end(w, &nest);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    if (overlap)
        copy_buffer(w, overlap, out, ot, res);
    return out ? out : res;
}

LLVMValueRef kj_np_ewise_scalar(kj_lw *w, kj_node *n) {
    ew e = {.n = 0};
    collect(w, &e, n, true);
    for (int k = 0; k < e.n; k++) {   /* a number, or a 0-d array's one element */
        leaf *l = &e.leaves[k];
        l->elem = l->t->kind == KJ_T_ARRAY ? kj_np_load(w, kj_array_field(w, l->v, 1, 0), l->t->elem) : l->v;
    }
    const kj_type *vt;
    LLVMValueRef v = element(w, &e, n, true, &vt);
    return kj_cast(w, v, vt, n->type);
}

void kj_np_assign(kj_lw *w, LLVMValueRef dst, const kj_type *dt, LLVMValueRef src, const kj_type *st) {
    int nd = dt->ndim;
    if (st->kind != KJ_T_ARRAY) {
        kj_np_fill(w, dst, dt, src, st);
        return;
    }
    ew e = {.n = 1};
    e.leaves[0].t = st;
    e.leaves[0].v = src;
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, dst, nd, shape);
    /* src's shape must broadcast into dst's */
    LLVMValueRef sshape[KJ_NP_MAXDIM];
    kj_np_shape(w, src, st->ndim, sshape);
    LLVMValueRef bad = LLVMConstInt(w->i1, st->ndim > nd, 0);
    for (int d = 0; d < st->ndim && st->ndim <= nd; d++)
        bad = LLVMBuildOr(w->b, bad, LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntNE, sshape[d], c64(w, 1), ""),
                                                   LLVMBuildICmp(w->b, LLVMIntNE, sshape[d], shape[nd - st->ndim + d], ""), ""), "");
    LLVMBasicBlockRef ok = kj_raise_begin(w, bad);
    kj_call(w, "kj_np_raise_assign", w->vd, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->i64, w->ptr},
            (LLVMValueRef[]){c64(w, st->ndim), kj_np_i64_array(w, st->ndim, sshape), c64(w, nd), kj_np_i64_array(w, nd, shape)});
    kj_raise_end(w, ok);
    leaf_strides(w, &e, nd);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    LLVMValueRef off = c64(w, 0);
    for (int d = 0; d < nd; d++)
        off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[d], e.leaves[0].bstride[d], ""), "");
    LLVMValueRef v = kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, src, 1, 0), &off, 1, ""), st->elem);
    kj_np_store_elem(w, kj_np_ptr(w, dst, nd, idx), v, st->elem, dt->elem);
    kj_np_nest_end(w, &nest);
}

LLVMValueRef kj_np_ewise_each(kj_lw *w, kj_node *n, kj_np_elem_fn fn, void *ctx, const kj_np_each_split *split) {
    ew e = {.n = 0};
    collect(w, &e, n, true);
    if (e.overflow) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, "Split the expression over two lines.",
                "this array expression has more than %d operands", MAX_LEAVES);
        return c64(w, 0);
    }
    int nd = n->type->ndim;
    LLVMValueRef shape[KJ_NP_MAXDIM], size = c64(w, 1);
    broadcast(w, &e, n, nd, shape, NULL);
    for (int d = 0; d < nd; d++)
        size = LLVMBuildMul(w->b, size, shape[d], "");
    LLVMBasicBlockRef flat = kj_new_bb(w, "each.flat"), strided = kj_new_bb(w, "each.strided"),
                      done = kj_new_bb(w, "each.done");
    LLVMBuildCondBr(w->b, flat_ok(w, &e, nd, shape, NULL, NULL), flat, strided);
    /* contiguous operands: one flat loop the vectorizer sees whole, split
     * into chunks when asked */
    LLVMPositionBuilderAtEnd(w->b, flat);
    flat_split sp;
    LLVMValueRef shared_in;
    kj_lw *lw = flat_begin(w, &e, &sp, "red", n->line, split && kj_parallel_wanted(w), split ? split->shared : NULL,
                           &shared_in);
    if (sp.split)
        split->begin(lw, shared_in, ctx);
    flat_index(lw, &e, &sp, size);
    const kj_type *vt;
    LLVMValueRef v = element(lw, &e, n, true, &vt);
    fn(lw, v, vt, ctx);
    flat_close_loop(w, &sp);
    if (sp.split)
        split->end(lw, shared_in, LLVMGetParam(sp.region.fn, 3), ctx);
    flat_end(w, &e, &sp, size);
    LLVMBuildBr(w->b, done);
    /* otherwise the strides, in C order */
    LLVMPositionBuilderAtEnd(w->b, strided);
    LLVMValueRef idx[KJ_NP_MAXDIM];
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, nd, shape, idx);
    if (nd == 1)   /* the flat loop took unit strides: here some are not */
        kj_np_loop_keep_scalar(&nest.loops[0]);
    load_leaves_strided(w, &e, nd, idx);
    v = element(w, &e, n, true, &vt);
    fn(w, v, vt, ctx);
    kj_np_nest_end(w, &nest);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    return size;
}
