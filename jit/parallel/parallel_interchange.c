/* parallel_interchange: a prange loop that must stay serial because arrays
 * carry from one iteration to the next, yet whose every statement is
 * `name = <array expression>` (seed 000's evaluate_functions:
 * vector2 = np.sin(vector1); vector1 = np.arcsin(vector2); ...).
 *
 * Element j of each array then depends only on element j of the arrays
 * before it, so the loop nest can be turned inside out without changing a
 * bit of the result: the elements are split across the pool, and each
 * element goes through all the iterations in order. The iterations of the
 * prange loop still run one after the other, as the dependence demands;
 * what runs in parallel is the elementwise work inside them.
 *
 * The arrays live in fresh contiguous buffers (in Fortran order where an
 * assigned array is Fortran-ordered, else in C order) padded to whole blocks of
 * BLOCK elements (the padding repeats the last element, so it computes
 * what a real element does and raises nothing new), and a chunk of blocks
 * runs every iteration over its lanes in a loop LLVM vectorizes: a chunk
 * stays in the first-level cache across the iterations. Arrays the body
 * reads but never assigns (the same in every iteration) are copied into
 * such buffers too. Each array the body assigns ends up bound to its
 * buffer, as it would to the last iteration's new array.
 *
 * When the arrays read before an assignment do not all have one shape (a
 * body that would broadcast and grow them), the loop runs as written,
 * serially. */
#include "jit/numpy/lower_np.h"
#include "jit/lower/lower_nrt.h"
#include "jit/parallel/parallel.h"

#include <stdio.h>
#include <string.h>

/* Lanes per block: one AVX-512 vector of doubles. */
#define BLOCK 8
/* Blocks a chunk holds at most, so that its arrays stay in the L1 cache
 * across the iterations (64 blocks of 8 doubles: 4 KiB per array). */
#define CHUNK_BLOCKS_MAX 64

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* ---- which loops ---- */

static int array_index(const kj_interchange *pl, int slot) {
    for (int k = 0; k < pl->narrays; k++)
        if (pl->arrays[k] == slot)
            return k;
    return -1;
}

static int add_array(kj_interchange *pl, int slot) {
    int k = array_index(pl, slot);
    if (k >= 0 || pl->narrays == KJ_INTERCHANGE_MAX)
        return k;
    pl->arrays[pl->narrays] = slot;
    return pl->narrays++;
}

static bool assigned_in_loop(const kj_interchange *pl, int slot) {
    int k = array_index(pl, slot);
    return slot == pl->index_slot || (k >= 0 && pl->assigned[k]);
}

/* A scalar operand computed the same in every iteration: numbers and
 * operators over locals the loop does not assign. */
static bool invariant_scalar(const kj_interchange *pl, const kj_node *n) {
    if (!n->type || !kj_is_number(n->type))
        return false;
    switch (n->kind) {
    case KJ_E_CONST: return true;
    case KJ_E_LOCAL: return !assigned_in_loop(pl, n->slot);
    case KJ_E_BINOP: return invariant_scalar(pl, n->kids[0]) && invariant_scalar(pl, n->kids[1]);
    case KJ_E_UNARY: return invariant_scalar(pl, n->kids[0]);
    default: return false;
    }
}

/* Checks the operands of expression n: an array is a local of the loop's
 * shape (read first when no earlier statement of the iteration assigned
 * it: carried in, or the same in every iteration), anything else an
 * invariant scalar, kept once. */
static bool operands_fit(kj_interchange *pl, kj_node *n, const bool *assigned_now) {
    if (kj_np_is_ewise(n)) {
        kj_node *ops[3];
        int k = kj_np_ewise_operands(n, ops);
        for (int i = 0; i < k; i++)
            if (!operands_fit(pl, ops[i], assigned_now))
                return false;
        return true;
    }
    if (n->kind == KJ_E_LOCAL && n->type->kind == KJ_T_ARRAY) {
        int k = add_array(pl, n->slot);
        if (k < 0 || n->type->ndim != pl->nd)
            return false;
        if (!assigned_now[k])
            pl->read_first[k] = true;
        return true;
    }
    if (!invariant_scalar(pl, n))
        return false;
    if (n->kind != KJ_E_CONST) {
        if (pl->nscalars == KJ_INTERCHANGE_MAX)
            return false;
        pl->scalars[pl->nscalars++] = n;
    }
    return true;
}

bool kj_interchange_plan(kj_function *f, kj_node *s, int index_slot, kj_interchange *pl) {
    memset(pl, 0, sizeof *pl);
    pl->index_slot = index_slot;
    const kj_block *b = &s->body;
    if (index_slot < 0 || s->orelse.n > 0 || b->n == 0)
        return false;
    for (int i = 0; i < b->n; i++) {   /* every statement: array local = array expression */
        const kj_node *st = b->items[i];
        if (st->kind != KJ_S_ASSIGN || st->kids[0]->kind != KJ_E_LOCAL || !kj_np_is_ewise(st->kids[1]))
            return false;
        const kj_type *lt = f->locals[st->kids[0]->slot].type, *vt = st->kids[1]->type;
        if (!lt || lt->kind != KJ_T_ARRAY || lt->elem != vt->elem || lt->ndim != vt->ndim)
            return false;
        if (pl->nd && lt->ndim != pl->nd)
            return false;
        pl->nd = lt->ndim;
        int k = add_array(pl, st->kids[0]->slot);
        if (k < 0)
            return false;
        pl->assigned[k] = true;
    }
    bool assigned_now[KJ_INTERCHANGE_MAX] = {false};
    for (int i = 0; i < b->n; i++) {
        kj_node *st = b->items[i];
        if (!operands_fit(pl, st->kids[1], assigned_now))
            return false;
        assigned_now[array_index(pl, st->kids[0]->slot)] = true;
    }
    /* every buffer is contiguous in one order, so that lane j is the same element of each; an
     * assigned array ends bound to its buffer, which its type's order must then describe */
    bool c_typed = false;
    for (int k = 0; k < pl->narrays; k++) {
        if (!pl->assigned[k])
            continue;
        kj_layout l = f->locals[pl->arrays[k]].type->layout;
        pl->fortran = pl->fortran || l == KJ_LAYOUT_F;
        c_typed = c_typed || l == KJ_LAYOUT_C;
    }
    if (pl->fortran && c_typed)
        return false;
    bool carried = false;
    int pos = 0;
    for (int k = 0; k < pl->narrays && pos < (int)sizeof pl->names; k++) {
        if (!pl->assigned[k])
            continue;
        carried = carried || pl->read_first[k];
        pos += snprintf(pl->names + pos, sizeof pl->names - (size_t)pos, "%s`%s`", pos ? ", " : "",
                        f->locals[pl->arrays[k]].name);
    }
    return carried;
}

/* ---- the loop nest turned inside out ---- */

typedef struct {
    const kj_interchange *pl;
    kj_function *f;
    LLVMValueRef elem[KJ_INTERCHANGE_MAX];       /* each array's element in the current lane */
    LLVMValueRef scalar[KJ_INTERCHANGE_MAX];     /* the invariant scalars, inside the chunk function */
} lane_state;

static const kj_type *elem_type(const lane_state *ls, int k) { return ls->f->locals[ls->pl->arrays[k]].type->elem; }

static LLVMValueRef lane_ptr(kj_lw *o, const lane_state *ls, LLVMValueRef *data, int k, LLVMValueRef l) {
    return LLVMBuildGEP2(o->b, kj_llmemtype(o, elem_type(ls, k)), data[k], &l, 1, "");
}

static LLVMValueRef operand_element(kj_lw *o, kj_node *leaf, const kj_type **type, void *arg) {
    lane_state *ls = arg;
    if (leaf->kind == KJ_E_LOCAL && leaf->type->kind == KJ_T_ARRAY) {
        *type = leaf->type->elem;
        return ls->elem[array_index(ls->pl, leaf->slot)];
    }
    *type = leaf->type;
    for (int k = 0; k < ls->pl->nscalars; k++)
        if (ls->pl->scalars[k] == leaf)
            return ls->scalar[k];
    return kj_lower_expr(o, leaf);   /* a constant */
}

/* Lane l of every array through one iteration of the body. */
static void one_iteration(kj_lw *o, kj_node *s, lane_state *ls, LLVMValueRef *data, LLVMValueRef l) {
    const kj_interchange *pl = ls->pl;
    for (int k = 0; k < pl->narrays; k++)
        ls->elem[k] = pl->read_first[k] ? kj_np_load(o, lane_ptr(o, ls, data, k, l), elem_type(ls, k)) : NULL;
    for (int i = 0; i < s->body.n; i++) {
        kj_node *st = s->body.items[i];
        kj_at(o, st);
        const kj_type *vt;
        LLVMValueRef v = kj_np_ewise_element(o, st->kids[1], operand_element, ls, &vt);
        ls->elem[array_index(pl, st->kids[0]->slot)] = v;
    }
    for (int k = 0; k < pl->narrays; k++)
        if (pl->assigned[k])
            kj_np_store_elem(o, lane_ptr(o, ls, data, k, l), ls->elem[k], elem_type(ls, k), elem_type(ls, k));
}

/* Values the chunk function reads, in order. */
enum { V_COUNT, V_SIZE, V_GRAIN, V_NBLOCKS, V_DATA };

static void chunk_body(kj_lw *o, kj_par_region *r, kj_node *s, lane_state *ls, const LLVMValueRef *in) {
    const kj_interchange *pl = ls->pl;
    LLVMValueRef data[KJ_INTERCHANGE_MAX];
    for (int k = 0; k < pl->narrays; k++)
        data[k] = in[V_DATA + k];
    for (int k = 0; k < pl->nscalars; k++)
        ls->scalar[k] = in[V_DATA + pl->narrays + k];
    LLVMValueRef count = in[V_COUNT], size = in[V_SIZE], grain = in[V_GRAIN], nblocks = in[V_NBLOCKS];
    /* units of `grain` blocks [r->lo, r->hi) -> lanes [first, first + lanes) */
    LLVMValueRef b0 = LLVMBuildMul(o->b, r->lo, grain, ""), b1 = LLVMBuildMul(o->b, r->hi, grain, "");
    b1 = LLVMBuildSelect(o->b, LLVMBuildICmp(o->b, LLVMIntSLT, b1, nblocks, ""), b1, nblocks, "");
    LLVMValueRef first = LLVMBuildMul(o->b, b0, c64(o, BLOCK), "");
    LLVMValueRef lanes = LLVMBuildMul(o->b, LLVMBuildSub(o->b, b1, b0, ""), c64(o, BLOCK), "");
    /* the padding after the last element repeats it */
    LLVMValueRef last = LLVMBuildSub(o->b, size, c64(o, 1), "");
    kj_np_loop pad;
    LLVMValueRef l = LLVMBuildAdd(o->b, first, kj_np_loop_begin(o, &pad, lanes), "");
    LLVMBasicBlockRef fill = kj_new_bb(o, "pad.fill"), next = kj_new_bb(o, "pad.next");
    LLVMBuildCondBr(o->b, LLVMBuildICmp(o->b, LLVMIntSGT, l, last, ""), fill, next);
    LLVMPositionBuilderAtEnd(o->b, fill);
    for (int k = 0; k < pl->narrays; k++)
        if (pl->read_first[k]) {
            LLVMTypeRef mt = kj_llmemtype(o, elem_type(ls, k));
            LLVMBuildStore(o->b, LLVMBuildLoad2(o->b, mt, lane_ptr(o, ls, data, k, last), ""), lane_ptr(o, ls, data, k, l));
        }
    LLVMBuildBr(o->b, next);
    LLVMPositionBuilderAtEnd(o->b, next);
    kj_np_loop_keep_scalar(&pad);
    kj_np_loop_end(o, &pad);
    /* the iterations in order, each over the chunk's lanes */
    kj_np_loop iters, lane_loop;
    kj_np_loop_begin(o, &iters, count);
    kj_poll_interrupt(o);
    l = LLVMBuildAdd(o->b, first, kj_np_loop_begin(o, &lane_loop, lanes), "");
    one_iteration(o, s, ls, data, l);
    kj_np_loop_end(o, &lane_loop);
    kj_np_loop_keep_scalar(&iters);
    kj_np_loop_end(o, &iters);
}

static LLVMValueRef local_value(kj_lw *w, int slot) {
    return LLVMBuildLoad2(w->b, kj_lltype(w, w->f->locals[slot].type), w->slots[slot], "");
}

void kj_interchange_lower(kj_lw *w, kj_node *s, const kj_interchange *pl) {
    kj_function *f = w->f;
    int nd = pl->nd;
    LLVMValueRef start, step, count = kj_prange_len(w, s, &start, &step);
    /* every array read before an assignment has one shape */
    LLVMValueRef shape[KJ_NP_MAXDIM], other[KJ_NP_MAXDIM];
    bool have_shape = false;
    LLVMValueRef same = LLVMBuildICmp(w->b, LLVMIntSGT, count, c64(w, 0), "");
    for (int k = 0; k < pl->narrays; k++) {
        if (!pl->read_first[k])
            continue;
        kj_np_shape(w, local_value(w, pl->arrays[k]), nd, have_shape ? other : shape);
        for (int d = 0; have_shape && d < nd; d++)
            same = LLVMBuildAnd(w->b, same, LLVMBuildICmp(w->b, LLVMIntEQ, shape[d], other[d], ""), "");
        have_shape = true;
    }
    LLVMBasicBlockRef split = kj_new_bb(w, "interchange"), serial = kj_new_bb(w, "interchange.serial"),
                      done = kj_new_bb(w, "interchange.done");
    LLVMBuildCondBr(w->b, same, split, serial);
    LLVMPositionBuilderAtEnd(w->b, serial);
    /* the report describes the loop turned inside out: the split array
     * expressions of this rare copy would read as if they were the plan */
    PyObject *records = w->u->parallel_report;
    Py_ssize_t before = records ? PyList_GET_SIZE(records) : 0;
    kj_lower_for_serial(w, s);
    if (records && PyList_SetSlice(records, before, PY_SSIZE_T_MAX, NULL) < 0)
        PyErr_Clear();
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, done);

    LLVMPositionBuilderAtEnd(w->b, split);
    kj_at(w, s);
    LLVMValueRef size = c64(w, 1);
    for (int d = 0; d < nd; d++)
        size = LLVMBuildMul(w->b, size, shape[d], "");
    LLVMValueRef nblocks = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, size, c64(w, BLOCK - 1), ""), c64(w, BLOCK), "");
    /* a chunk per thread, of at most CHUNK_BLOCKS_MAX blocks */
    LLVMValueRef threads = kj_call(w, "kj_pool_threads", w->i32, 0, NULL, NULL);
    threads = LLVMBuildSExt(w->b, threads, w->i64, "");
    LLVMValueRef grain = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, nblocks, LLVMBuildSub(w->b, threads, c64(w, 1), ""), ""),
                                       threads, "");
    grain = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, grain, c64(w, CHUNK_BLOCKS_MAX), ""),
                            c64(w, CHUNK_BLOCKS_MAX), grain, "");
    grain = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, grain, c64(w, 1), ""), c64(w, 1), grain, "");
    LLVMValueRef units = LLVMBuildSDiv(w->b, LLVMBuildAdd(w->b, nblocks, LLVMBuildSub(w->b, grain, c64(w, 1), ""), ""),
                                       grain, "");

    /* each array: a padded buffer, seen as an array of the shape, starting
     * as a copy of its value before the loop where an iteration reads that */
    LLVMValueRef vals[V_DATA + 2 * KJ_INTERCHANGE_MAX], arrays[KJ_INTERCHANGE_MAX];
    LLVMValueRef padded = LLVMBuildMul(w->b, nblocks, c64(w, BLOCK), "");
    for (int k = 0; k < pl->narrays; k++) {
        const kj_type *lt = f->locals[pl->arrays[k]].type;
        const kj_type *vt = kj_array(lt->elem, lt->ndim, pl->fortran ? KJ_LAYOUT_F : KJ_LAYOUT_C, false);
        LLVMValueRef line = kj_np_alloc(w, kj_array(lt->elem, 1, KJ_LAYOUT_C, false), &padded, false);
        arrays[k] = kj_np_make(w, vt, kj_array_field(w, line, 0, 0), kj_array_field(w, line, 1, 0), shape, NULL);
        if (pl->read_first[k])
            kj_np_copy_into(w, arrays[k], vt, local_value(w, pl->arrays[k]), lt);
        vals[V_DATA + k] = kj_array_field(w, line, 1, 0);
    }
    for (int k = 0; k < pl->nscalars; k++)
        vals[V_DATA + pl->narrays + k] = kj_lower_expr(w, pl->scalars[k]);
    vals[V_COUNT] = count;
    vals[V_SIZE] = size;
    vals[V_GRAIN] = grain;
    vals[V_NBLOCKS] = nblocks;

    kj_par_region r;
    LLVMValueRef in[V_DATA + 2 * KJ_INTERCHANGE_MAX];
    lane_state ls = {.pl = pl, .f = f};
    kj_lw *o = kj_parallel_region_begin(w, &r, "interchange", s->line, V_DATA + pl->narrays + pl->nscalars, vals, in);
    chunk_body(o, &r, s, &ls, in);
    kj_parallel_region_end_work(w, &r, units, LLVMBuildMul(w->b, size, count, ""));

    for (int k = 0; k < pl->narrays; k++) {   /* the assigned arrays end bound to their buffers */
        if (!pl->assigned[k])
            continue;
        const kj_type *lt = f->locals[pl->arrays[k]].type;
        kj_nrt_replace(w, w->slots[pl->arrays[k]], arrays[k], lt);
        LLVMBuildStore(w->b, arrays[k], w->slots[pl->arrays[k]]);
        kj_mark_bound(w, pl->arrays[k], NULL);
    }
    /* the loop variable keeps the last iteration's value, as after the loop */
    LLVMValueRef last = LLVMBuildAdd(w->b, start, LLVMBuildMul(w->b, LLVMBuildSub(w->b, count, c64(w, 1), ""), step, ""), "");
    LLVMBuildStore(w->b, kj_cast(w, last, KJ_I64, f->locals[pl->index_slot].type), w->slots[pl->index_slot]);
    kj_mark_bound(w, pl->index_slot, NULL);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}
