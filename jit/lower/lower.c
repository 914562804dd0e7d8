/* lower: statements and loops (a function as a whole: lower_function.c).
 * Innermost loops over counted iterables are strip-mined into chunks so
 * that the interrupt flag is polled once per chunk, outside the inner loop
 * the vectorizer sees; a counted loop around other loops polls once per
 * iteration instead (its inner loops poll themselves), and while loops poll
 * at every back-edge. A ufunc kernel's counted loops leave it to the
 * ufunc's loop. */
#include "jit/core/kind_ops.h"
#include "jit/lower/lower.h"
#include "jit/lower/strings.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/runtime.h"

#include <stdio.h>
#include <string.h>

/* Iterations between two polls of the interrupt flag in counted loops:
 * long enough to cost nothing, short enough to stop within a millisecond. */
#define POLL_CHUNK 65536

LLVMTypeRef kj_lltype(kj_lw *w, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_NONE: return w->i8;
    case KJ_T_BOOL: return w->i1;
    case KJ_T_INT: return LLVMIntTypeInContext(w->ctx, t->bits);
    case KJ_T_FLOAT: return t->bits == 32 ? w->f32 : w->f64;
    case KJ_T_COMPLEX: {
        LLVMTypeRef f = t->bits == 64 ? w->f32 : w->f64;
        return LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){f, f}, 2, 0);
    }
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET:
    case KJ_T_DICTVIEW:   /* the dict it shows */
    case KJ_T_STR: return w->ptr;
    case KJ_T_ARRAY: {
        LLVMTypeRef dims = LLVMArrayType2(w->i64, t->ndim);
        return LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){w->ptr, w->ptr, dims, dims}, 4, 0);
    }
    case KJ_T_TUPLE: {
        LLVMTypeRef e[t->n > 0 ? t->n : 1];
        for (int i = 0; i < t->n; i++)
            e[i] = kj_lltype(w, t->elems[i]);
        return LLVMStructTypeInContext(w->ctx, e, t->n, 0);
    }
    case KJ_T_OPTIONAL:
        return LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){w->i1, kj_lltype(w, t->elem)}, 2, 0);
    default:
        return w->i8;
    }
}

/* A tuple in memory (a list item) is packed: its size is the sum of its
 * fields', which rt_list.c reads without LLVM's layout rules. */
LLVMTypeRef kj_llmemtype(kj_lw *w, const kj_type *t) {
    if (t->kind == KJ_T_TUPLE) {
        LLVMTypeRef e[t->n > 0 ? t->n : 1];
        for (int i = 0; i < t->n; i++)
            e[i] = kj_llmemtype(w, t->elems[i]);
        return LLVMStructTypeInContext(w->ctx, e, (unsigned)t->n, 1);
    }
    return t->kind == KJ_T_BOOL ? w->i8 : kj_lltype(w, t);
}

void kj_at(kj_lw *w, const kj_node *n) {
    if (!w->scope || !n)
        return;
    LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(w->ctx, (unsigned)n->line,
                                                           (unsigned)n->col + 1, w->scope, NULL);
    LLVMSetCurrentDebugLocation2(w->b, loc);
}

LLVMBasicBlockRef kj_new_bb(kj_lw *w, const char *name) {
    return LLVMAppendBasicBlockInContext(w->ctx, w->fn, name);
}

bool kj_terminated(kj_lw *w) {
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(w->b)) != NULL;
}

LLVMValueRef kj_fm(kj_lw *w, LLVMValueRef v) {
    if (w->inst->opts.fastmath && LLVMCanValueUseFastMathFlags(v))
        LLVMSetFastMathFlags(v, w->inst->opts.fastmath);
    return v;
}

LLVMValueRef kj_call(kj_lw *w, const char *name, LLVMTypeRef ret, int n, LLVMTypeRef *tys,
                     LLVMValueRef *args) {
    LLVMTypeRef ft = LLVMFunctionType(ret, tys, (unsigned)n, 0);
    LLVMValueRef f = LLVMGetNamedFunction(w->mod, name);
    if (!f)
        f = LLVMAddFunction(w->mod, name, ft);
    return LLVMBuildCall2(w->b, ft, f, args, (unsigned)n, "");
}

LLVMValueRef kj_call_intrinsic(kj_lw *w, const char *name, LLVMTypeRef overload, int n,
                               LLVMValueRef *args) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(w->mod, id, &overload, overload ? 1 : 0);
    LLVMTypeRef ft = LLVMIntrinsicGetType(w->ctx, id, &overload, overload ? 1 : 0);
    return LLVMBuildCall2(w->b, ft, f, args, (unsigned)n, "");
}

static void poll_interrupt(kj_lw *w) {
    if (!w->u->target->poll_interrupts || w->inst->opts.no_interrupt_poll)
        return;
    LLVMValueRef set = kj_interrupt_set(w);
    /* one cold exit per function for every poll (a kj_lw copied for an
     * outlined function must not reach into its parent's blocks) */
    if (!w->interrupt_bb || LLVMGetBasicBlockParent(w->interrupt_bb) != w->fn) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(w->b);
        w->interrupt_bb = kj_new_bb(w, "interrupted");
        LLVMPositionBuilderAtEnd(w->b, w->interrupt_bb);
        kj_raise(w, PyExc_KeyboardInterrupt, NULL);
        LLVMBuildUnreachable(w->b);
        LLVMPositionBuilderAtEnd(w->b, here);
    }
    LLVMBasicBlockRef ok = kj_new_bb(w, "not.interrupted");
    set = kj_call_intrinsic(w, "llvm.expect", w->i1, 2, (LLVMValueRef[]){set, LLVMConstInt(w->i1, 0, 0)});
    LLVMBuildCondBr(w->b, set, w->interrupt_bb, ok);
    LLVMPositionBuilderAtEnd(w->b, ok);
}

/* ---- assignment ---- */

void kj_mark_bound(kj_lw *w, int slot, LLVMValueRef when) {
    if (!w->bound || !w->bound[slot])
        return;
    LLVMValueRef yes = LLVMConstInt(w->i1, 1, 0);
    if (when)
        yes = LLVMBuildOr(w->b, LLVMBuildLoad2(w->b, w->i1, w->bound[slot], ""), when, "");
    LLVMBuildStore(w->b, yes, w->bound[slot]);
}

static void store_local(kj_lw *w, int slot, LLVMValueRef v, const kj_type *vt) {
    const kj_type *lt = w->f->locals[slot].type;
    v = kj_cast(w, v, vt, lt);
    kj_nrt_replace(w, w->slots[slot], v, lt);
    LLVMBuildStore(w->b, v, w->slots[slot]);
    kj_mark_bound(w, slot, NULL);
}

/* `a, b = arr`: CPython's ValueError unless arr has k items; the message
 * for too few names how many there were, so it is picked at run time. */
static void check_unpack_length(kj_lw *w, LLVMValueRef n, int k) {
    char msg[96];
    snprintf(msg, sizeof msg, "too many values to unpack (expected %d)", k);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSGT, n, LLVMConstInt(w->i64, (unsigned)k, 0), ""),
                PyExc_ValueError, msg);
    LLVMBasicBlockRef few = kj_new_bb(w, "unpack.few"), ok = kj_new_bb(w, "unpack.ok");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, n, LLVMConstInt(w->i64, (unsigned)k, 0), ""), few, ok);
    LLVMPositionBuilderAtEnd(w->b, few);
    LLVMValueRef msgs[k];
    for (int got = 0; got < k; got++) {
        snprintf(msg, sizeof msg, "not enough values to unpack (expected %d, got %d)", k, got);
        msgs[got] = LLVMBuildGlobalStringPtr(w->b, msg, "msg");
    }
    LLVMTypeRef table_type = LLVMArrayType2(w->ptr, (uint64_t)k);
    LLVMValueRef table = LLVMAddGlobal(w->mod, table_type, "unpack.messages");
    LLVMSetInitializer(table, LLVMConstArray2(w->ptr, msgs, (uint64_t)k));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    LLVMValueRef at = LLVMBuildGEP2(w->b, table_type, table, (LLVMValueRef[]){LLVMConstInt(w->i64, 0, 0), n}, 2, "");
    kj_raise_message(w, PyExc_ValueError, LLVMBuildLoad2(w->b, w->ptr, at, ""));
    LLVMBuildUnreachable(w->b);
    LLVMPositionBuilderAtEnd(w->b, ok);
}

void kj_assign(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) {
    if (target->kind == KJ_E_LOCAL) {
        store_local(w, target->slot, v, vt);
    } else if (target->kind == KJ_E_INDEX) {
        int never = 0;   /* d[f()] = v: d and f() evaluated in order for what f() raises, no store */
        while (never < target->nkids && target->kids[never]->type != kj_never())
            never++;
        for (int i = 0; i <= never && never < target->nkids; i++)
            kj_lower_expr(w, target->kids[i]);
        if (never == target->nkids)
            kj_store_index(w, target, v, vt);
    } else if (target->kind == KJ_E_TUPLE) {
        /* The value's parts may be borrowed from the very locals the targets
         * rebind (`u, v = v, u`): storing u would give back the last
         * reference on the array v is still to receive. The statement holds
         * a reference on every part until it ends. */
        if (kj_nrt_counted(vt)) {
            kj_nrt_incref_value(w, v, vt);
            kj_nrt_temp(w, v, vt);
        }
        for (int i = 0; i < target->nkids; i++) {
            if (vt->kind == KJ_T_ARRAY) {   /* a, b = arr: unpack the first axis */
                if (i == 0)
                    check_unpack_length(w, kj_array_len(w, v), target->nkids);
                kj_assign(w, target->kids[i], kj_array_item(w, v, vt, LLVMConstInt(w->i64, i, 0)),
                       vt->elem);
            } else {
                kj_assign(w, target->kids[i], LLVMBuildExtractValue(w->b, v, (unsigned)i, ""),
                       vt->elems[i]);
            }
        }
    }
}

/* ---- loops ---- */

static void lower_block(kj_lw *w, kj_block *b);

LLVMValueRef kj_entry_alloca(kj_lw *w, LLVMTypeRef t, const char *name) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(w->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(w->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return a;
}

/* How many times a loop over tuples runs (a tuple, or enumerate / zip of
 * tuples; none over a container that holds nothing), known when compiling;
 * -1 for the other, counted loops. */
static int static_len(const kj_type *t) {
    if (kj_holds_nothing(t))   /* as inference, which typed no body for it */
        return 0;
    switch (t->kind) {
    case KJ_T_TUPLE: return t->n;
    case KJ_T_ENUMERATE: return static_len(t->elem);
    case KJ_T_ZIP: {
        int n = -1;
        for (int i = 0; i < t->n; i++) {
            int m = static_len(t->elems[i]);
            if (m < 0)
                return -1;
            n = n < 0 || m < n ? m : n;
        }
        return n;
    }
    default: return -1;
    }
}

/* An else block (of an if, or of a loop that ended without break) lowered
 * at block `at`, going on to `exit`, where lowering then continues. */
static void lower_else(kj_lw *w, kj_block *orelse, LLVMBasicBlockRef at, LLVMBasicBlockRef exit) {
    LLVMPositionBuilderAtEnd(w->b, at);
    lower_block(w, orelse);
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, exit);
    LLVMPositionBuilderAtEnd(w->b, exit);
}

/* Lowers a loop body in which `break` goes to brk and `continue` to cont;
 * a body that does not end in a jump falls through to cont. */
static void lower_loop_body(kj_lw *w, kj_block *body, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont) {
    LLVMBasicBlockRef saved_b = w->break_bb, saved_c = w->continue_bb;
    w->break_bb = brk;
    w->continue_bb = cont;
    lower_block(w, body);
    w->break_bb = saved_b;
    w->continue_bb = saved_c;
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, cont);
}

/* for target in <tuple>: the body once per element (the elements may have
 * different types, each converted to the loop variable's). */
static void lower_for_tuple(kj_lw *w, kj_node *s, int n) {
    kj_iter st = {0};
    kj_iter_setup(w, s->kids[1], &st);
    const kj_type *et = kj_iter_elem(st.type);
    LLVMBasicBlockRef orelse = kj_new_bb(w, "for.else"), exit = kj_new_bb(w, "for.exit");
    for (int i = 0; i < n; i++) {
        LLVMBasicBlockRef next = i + 1 < n ? kj_new_bb(w, "for.next") : orelse;
        kj_assign(w, s->kids[0], kj_iter_item(w, &st, LLVMConstInt(w->i64, (unsigned long long)i, 0)), et);
        lower_loop_body(w, &s->body, exit, next);
        LLVMPositionBuilderAtEnd(w->b, next);
    }
    if (n == 0)
        LLVMBuildBr(w->b, orelse);
    lower_else(w, &s->orelse, orelse, exit);
    kj_iter_free(&st);
}

/* Whether b runs a loop of its own (a tuple's unrolled loop does not count,
 * but what it holds does). */
static bool contains_loop(const kj_block *b) {
    for (int i = 0; i < b->n; i++) {
        const kj_node *s = b->items[i];
        if (s->kind == KJ_S_WHILE || (s->kind == KJ_S_FOR && static_len(s->kids[1]->type) < 0))
            return true;
        if (contains_loop(&s->body) || contains_loop(&s->orelse))
            return true;
        if (s->kind == KJ_S_TRY)
            for (int k = 0; k < s->nkids; k++)
                if (contains_loop(&s->kids[k]->body))
                    return true;
    }
    return false;
}

/* range(start, stop, step) with a step that is not a literal, on a GPU
 * target: a grid-stride loop. Its index steps from start while it has not
 * reached stop, with no trip count. The counted form (kj_lower_for_serial) divides by
 * the step for its count: on the H100 the driver's PTX JIT took longer over
 * it, and LLVM unrolled the counted loop, which then ran slower unchecked
 * (bench/MEASURED.md). */
static bool is_strided_range(kj_lw *w, kj_node *iter) {
    return w->u->target->step_strided_ranges && iter->type->kind == KJ_T_RANGE && iter->nkids == 4 &&
           iter->kids[3]->kind != KJ_E_CONST;
}

static void lower_for_strided_range(kj_lw *w, kj_node *s) {
    kj_node *r = s->kids[1];
    LLVMValueRef a[3];
    for (int i = 0; i < 3; i++)
        a[i] = kj_cast(w, kj_lower_expr(w, r->kids[i + 1]), r->kids[i + 1]->type, KJ_I64);
    LLVMValueRef start = a[0], stop = a[1], step = a[2], zero = LLVMConstInt(w->i64, 0, 0);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, step, zero, ""), PyExc_ValueError, "range() arg 3 must not be zero");
    LLVMValueRef up = LLVMBuildICmp(w->b, LLVMIntSGT, step, zero, "up");
    /* what is left to stop, and the step's size, as unsigned numbers: exact
     * for any i short of stop, so that i + step is formed only when it does
     * not pass stop (it cannot overflow) */
    LLVMValueRef size = LLVMBuildSelect(w->b, up, step, LLVMBuildNeg(w->b, step, ""), "");
    LLVMValueRef i_p = kj_entry_alloca(w, w->i64, "i");
    LLVMBuildStore(w->b, start, i_p);
    LLVMBasicBlockRef body = kj_new_bb(w, "for.body"), latch = kj_new_bb(w, "for.latch"),
                      next = kj_new_bb(w, "for.next"), orelse = kj_new_bb(w, "for.else"), exit = kj_new_bb(w, "for.exit");
    LLVMValueRef nonempty = LLVMBuildSelect(w->b, up, LLVMBuildICmp(w->b, LLVMIntSLT, start, stop, ""),
                                            LLVMBuildICmp(w->b, LLVMIntSGT, start, stop, ""), "");
    LLVMBuildCondBr(w->b, nonempty, body, orelse);
    LLVMPositionBuilderAtEnd(w->b, body);
    poll_interrupt(w);   /* the simulator: no chunks to poll between */
    LLVMValueRef i = LLVMBuildLoad2(w->b, w->i64, i_p, "i");
    /* i lies between start and stop: counting up from a start known
     * non-negative (cuda.grid), LLVM then drops x[i]'s negative-index
     * wraparound, which without this hint doubled the add's loop */
    LLVMValueRef inside = LLVMBuildSelect(
        w->b, up,
        LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntSGE, i, start, ""), LLVMBuildICmp(w->b, LLVMIntSLT, i, stop, ""), ""),
        LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntSLE, i, start, ""), LLVMBuildICmp(w->b, LLVMIntSGT, i, stop, ""), ""),
        "");
    kj_call_intrinsic(w, "llvm.assume", NULL, 1, &inside);
    kj_assign(w, s->kids[0], i, KJ_I64);
    lower_loop_body(w, &s->body, exit, latch);
    LLVMPositionBuilderAtEnd(w->b, latch);
    i = LLVMBuildLoad2(w->b, w->i64, i_p, "");
    LLVMValueRef left = LLVMBuildSelect(w->b, up, LLVMBuildSub(w->b, stop, i, ""), LLVMBuildSub(w->b, i, stop, ""), "");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntUGT, left, size, ""), next, orelse);
    LLVMPositionBuilderAtEnd(w->b, next);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, i, step, ""), i_p);
    LLVMBuildBr(w->b, body);
    lower_else(w, &s->orelse, orelse, exit);
}

static void lower_for_once(kj_lw *w, kj_node *s);

/* if d < best: best = d ... in a loop, best a float: a search for the
 * smallest or largest, whose test holds rarely. Said so (llvm.expect), the
 * loop's usual path runs straight through: the bench's closest pair got
 * that code only by chance of block placement, and lost it once a change
 * elsewhere moved the blocks (bench/MEASURED.md).
 * Floats without fastmath only: over ints, a search of this shape is a
 * min/max reduction LLVM vectorizes through a select, which a branch known
 * to be rare forbids, and over floats it can be once LLVM may assume no
 * NaNs (fastmath); strict float compares keep it a scalar loop anyway. */
static bool searches_for_a_float_best(const kj_node *s) {
    const kj_node *c = s->kids[0];
    if (c->kind != KJ_E_COMPARE || c->nkids != 2 ||
        (c->ops[0] != KJ_OP_LT && c->ops[0] != KJ_OP_LE && c->ops[0] != KJ_OP_GT && c->ops[0] != KJ_OP_GE))
        return false;
    for (int i = 0; i < s->body.n; i++) {
        const kj_node *a = s->body.items[i];
        if (a->kind != KJ_S_ASSIGN || a->kids[0]->kind != KJ_E_LOCAL)
            continue;
        for (int k = 0; k < 2; k++)
            if (c->kids[k]->kind == KJ_E_LOCAL && c->kids[k]->slot == a->kids[0]->slot &&
                c->kids[k]->type->kind == KJ_T_FLOAT)
                return true;
    }
    return false;
}

/* Loop s twice: where its range proves the bounds checks r names, a copy
 * without them; else the loop as written. The range's bounds are
 * evaluated once more for the condition (kj_range_checks_scan allows only
 * bounds for which that changes nothing). */
static void lower_for_versioned(kj_lw *w, kj_node *s, kj_loop_range *r) {
    kj_node *range = s->kids[1];
    int na = range->nkids - 1;
    LLVMValueRef zero = LLVMConstInt(w->i64, 0, 0), a[3] = {zero, zero, zero};
    for (int i = 0; i < na && i < 3; i++)
        a[i] = kj_cast(w, kj_lower_expr(w, range->kids[i + 1]), range->kids[i + 1]->type, KJ_I64);
    LLVMValueRef hold = kj_range_checks_hold(w, r, na == 1 ? zero : a[0], na == 1 ? a[0] : a[1]);
    if (na == 3)   /* counting up */
        hold = LLVMBuildAnd(w->b, hold, LLVMBuildICmp(w->b, LLVMIntSGT, a[2], zero, ""), "");
    LLVMBasicBlockRef proven = kj_new_bb(w, "for.proven"), checked = kj_new_bb(w, "for.checked"),
                      join = kj_new_bb(w, "for.join");
    LLVMBuildCondBr(w->b, hold, proven, checked);
    LLVMPositionBuilderAtEnd(w->b, proven);
    r->outer = w->ranges;
    w->ranges = r;
    lower_for_once(w, s);
    w->ranges = r->outer;
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, checked);
    lower_for_once(w, s);
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
}

void kj_lower_for_serial(kj_lw *w, kj_node *s) {
    /* A grid-stride loop runs a few iterations per thread, memory-bound:
     * its checks cost less than a second copy adds to its compile, which
     * its first call pays (bench/MEASURED.md). */
    kj_loop_range proven;
    if (!is_strided_range(w, s->kids[1]) && kj_range_checks_scan(w, s, &proven) > 0)
        lower_for_versioned(w, s, &proven);
    else
        lower_for_once(w, s);
}

static void lower_for_once(kj_lw *w, kj_node *s) {
    if (is_strided_range(w, s->kids[1])) {
        lower_for_strided_range(w, s);
        return;
    }
    int unrolled = static_len(s->kids[1]->type);
    if (unrolled >= 0) {
        lower_for_tuple(w, s, unrolled);
        return;
    }
    kj_iter st = {0};
    LLVMValueRef n = kj_iter_setup(w, s->kids[1], &st);
    /* a loop around loops polls per iteration, without chunks: chunks of it
     * would give each loop nest twice the loops, a third of the
     * machine-code time of a triple loop, and nothing that vectorizes; so
     * does a target that does not poll (GPU). Such a loop is written
     * without the chunk loop, which the optimizer would otherwise have to
     * find runs once. */
    bool outer = contains_loop(&s->body), polled = !w->inst->opts.loops_polled_outside;
    bool chunks = w->u->target->poll_interrupts && !w->inst->opts.no_interrupt_poll && !outer && polled;
    LLVMValueRef t_p = kj_entry_alloca(w, w->i64, "t"), base_p = NULL, end_p = NULL;
    /* range(start, stop, step) with a step known only at run time: its item
     * steps by itself (item += step) rather than being start + t * step.
     * The two are the same numbers, but LLVM's vectorizer widens the
     * product into a vector multiply per step, where it makes an induction
     * of the sum: the sieve's `for j in range(i * i, n + 1, i): is_p[j] =
     * False` trailed Numba's until it stepped this way (bench/MEASURED.md). */
    LLVMValueRef item_p = st.type->kind == KJ_T_RANGE && !LLVMIsAConstantInt(st.step)
                              ? kj_entry_alloca(w, w->i64, "item")
                              : NULL;
    LLVMBasicBlockRef ocond = NULL, olatch = NULL;
    LLVMBasicBlockRef icond = kj_new_bb(w, "for.cond"), ibody = kj_new_bb(w, "for.body"),
                      ilatch = kj_new_bb(w, "for.latch"), orelse = kj_new_bb(w, "for.else"),
                      exit = kj_new_bb(w, "for.exit");
    if (chunks) {   /* for base in chunks: poll; for t in [base, min(base + POLL_CHUNK, n)) */
        base_p = kj_entry_alloca(w, w->i64, "chunk");
        end_p = kj_entry_alloca(w, w->i64, "chunk.end");
        ocond = kj_new_bb(w, "for.chunk");
        olatch = kj_new_bb(w, "for.chunk.latch");
        LLVMBasicBlockRef obody = kj_new_bb(w, "for.chunk.body");
        LLVMBuildStore(w->b, LLVMConstInt(w->i64, 0, 0), base_p);
        LLVMBuildBr(w->b, ocond);
        LLVMPositionBuilderAtEnd(w->b, ocond);
        LLVMValueRef base = LLVMBuildLoad2(w->b, w->i64, base_p, "");
        LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, base, n, ""), obody, orelse);
        LLVMPositionBuilderAtEnd(w->b, obody);
        poll_interrupt(w);
        base = LLVMBuildLoad2(w->b, w->i64, base_p, "");
        LLVMValueRef lim = LLVMBuildAdd(w->b, base, LLVMConstInt(w->i64, POLL_CHUNK, 0), "");
        LLVMBuildStore(w->b, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, lim, n, ""), lim, n, ""),
                       end_p);
        LLVMBuildStore(w->b, base, t_p);
    } else {
        LLVMBuildStore(w->b, LLVMConstInt(w->i64, 0, 0), t_p);
    }
    if (item_p)
        LLVMBuildStore(w->b, kj_iter_item(w, &st, LLVMBuildLoad2(w->b, w->i64, t_p, "")), item_p);
    LLVMBuildBr(w->b, icond);
    LLVMPositionBuilderAtEnd(w->b, icond);
    LLVMValueRef t = LLVMBuildLoad2(w->b, w->i64, t_p, "");
    LLVMValueRef end = chunks ? LLVMBuildLoad2(w->b, w->i64, end_p, "") : n;
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, t, end, ""), ibody, chunks ? olatch : orelse);
    LLVMPositionBuilderAtEnd(w->b, ibody);
    if (outer && polled)
        poll_interrupt(w);
    LLVMValueRef item = item_p ? LLVMBuildLoad2(w->b, w->i64, item_p, "")
                               : kj_iter_item(w, &st, LLVMBuildLoad2(w->b, w->i64, t_p, ""));
    kj_assign(w, s->kids[0], item, kj_iter_elem(st.type));
    lower_loop_body(w, &s->body, exit, ilatch);
    LLVMPositionBuilderAtEnd(w->b, ilatch);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, LLVMBuildLoad2(w->b, w->i64, t_p, ""),
                                      LLVMConstInt(w->i64, 1, 0), ""), t_p);
    if (item_p)   /* past the last item this add may wrap (no nsw): that item is never used */
        LLVMBuildStore(w->b, LLVMBuildAdd(w->b, LLVMBuildLoad2(w->b, w->i64, item_p, ""), st.step, ""), item_p);
    LLVMValueRef back = LLVMBuildBr(w->b, icond);
    if (!outer && kj_strict_sum_stays_scalar(w, s))
        kj_loop_keep_scalar_edge(w, back);
    if (chunks) {
        LLVMPositionBuilderAtEnd(w->b, olatch);
        LLVMBuildStore(w->b, LLVMBuildLoad2(w->b, w->i64, end_p, ""), base_p);
        LLVMBuildBr(w->b, ocond);
    }
    lower_else(w, &s->orelse, orelse, exit);
    kj_iter_free(&st);
}

/* try / except / else: a raise in the body (here or in a callee, which
 * returns a failed status) jumps to the handlers with the exception
 * pending in the runtime; the first clause whose class matches clears it
 * and runs, and when none does it goes on to the enclosing handlers or out
 * of the function. KeyboardInterrupt is never caught, so Ctrl-C always
 * stops compiled code. */
static void lower_try_except(kj_lw *w, kj_node *s, int nhandlers) {
    LLVMBasicBlockRef handlers = kj_new_bb(w, "try.except"), exit = kj_new_bb(w, "try.end");
    LLVMBasicBlockRef outer = w->handler_bb;
    w->handler_bb = handlers;
    lower_block(w, &s->body);
    w->handler_bb = outer;
    if (!kj_terminated(w))
        lower_block(w, &s->orelse);
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, exit);
    LLVMPositionBuilderAtEnd(w->b, handlers);
    for (int i = 0; i < nhandlers; i++) {
        kj_node *h = s->kids[i];
        kj_at(w, h);
        LLVMValueRef match = LLVMConstInt(w->i1, 0, 0);
        for (int k = 0; k < (h->nkids ? h->nkids : 1); k++) {
            PyObject *cls = h->nkids ? h->kids[k]->pyobj : PyExc_Exception;   /* bare: any but Ctrl-C */
            LLVMValueRef arg = LLVMConstIntToPtr(LLVMConstInt(w->i64, (uintptr_t)cls, 0), w->ptr);
            LLVMValueRef m = kj_call(w, "kj_rt_error_matches", w->i32, 1, (LLVMTypeRef[]){w->ptr}, &arg);
            match = LLVMBuildOr(w->b, match, LLVMBuildICmp(w->b, LLVMIntNE, m, LLVMConstInt(w->i32, 0, 0), ""), "");
        }
        LLVMBasicBlockRef yes = kj_new_bb(w, "except"), no = kj_new_bb(w, "except.next");
        LLVMBuildCondBr(w->b, match, yes, no);
        LLVMPositionBuilderAtEnd(w->b, yes);
        LLVMValueRef caught = w->caught;
        if (h->ival) {   /* the clause re-raises: keep the exception, {cls, msg} as the C struct is returned */
            LLVMTypeRef pair = LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){w->ptr, w->ptr}, 2, 0);
            w->caught = kj_entry_alloca(w, pair, "caught");
            LLVMBuildStore(w->b, kj_call(w, "kj_rt_take_error", pair, 0, NULL, NULL), w->caught);
        } else {
            kj_call(w, "kj_rt_clear_error", w->vd, 0, NULL, NULL);
        }
        lower_block(w, &h->body);
        w->caught = caught;
        if (!kj_terminated(w))
            LLVMBuildBr(w->b, exit);
        LLVMPositionBuilderAtEnd(w->b, no);
    }
    kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, exit);
}

/* finally runs after the rest ends normally, and, with the exception still
 * pending, before it goes on (the front end refuses return, break and
 * continue inside, so those are the only two ways out). */
static void lower_try(kj_lw *w, kj_node *s) {
    if (strcmp(w->u->target->name, "cpu") != 0) {   /* the pending error lives in the host runtime */
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, s->line, s->col, "Check the condition with if instead.",
                "try / except is not supported on the %s target", w->u->target->name);
        return;
    }
    kj_node *fin = s->nkids > 0 && s->kids[s->nkids - 1]->kind == KJ_S_FINALLY ? s->kids[s->nkids - 1] : NULL;
    if (!fin) {
        lower_try_except(w, s, s->nkids);
        return;
    }
    LLVMBasicBlockRef raised = kj_new_bb(w, "finally.raised"), outer = w->handler_bb;
    w->handler_bb = raised;
    lower_try_except(w, s, s->nkids - 1);
    w->handler_bb = outer;
    lower_block(w, &fin->body);
    LLVMBasicBlockRef exit = kj_new_bb(w, "finally.end");
    if (!kj_terminated(w))
        LLVMBuildBr(w->b, exit);
    LLVMPositionBuilderAtEnd(w->b, raised);
    lower_block(w, &fin->body);
    if (!kj_terminated(w))
        kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, exit);
}

static void lower_while(kj_lw *w, kj_node *s) {
    LLVMBasicBlockRef cond = kj_new_bb(w, "while.cond"), body = kj_new_bb(w, "while.body"),
                      orelse = kj_new_bb(w, "while.else"), exit = kj_new_bb(w, "while.exit");
    LLVMBuildBr(w->b, cond);
    LLVMPositionBuilderAtEnd(w->b, cond);
    poll_interrupt(w);
    kj_at(w, s);
    LLVMValueRef test = kj_truth(w, kj_lower_expr(w, s->kids[0]), s->kids[0]->type);
    LLVMBuildCondBr(w->b, test, body, orelse);
    LLVMPositionBuilderAtEnd(w->b, body);
    lower_loop_body(w, &s->body, exit, cond);
    lower_else(w, &s->orelse, orelse, exit);
}

static void lower_return(kj_lw *w, kj_node *s) {
    const kj_type *rt = w->inst->ret;
    LLVMValueRef v = s->kids[0] ? kj_lower_expr(w, s->kids[0]) : LLVMConstInt(w->i8, 0, 0);
    const kj_type *vt = s->kids[0] ? s->kids[0]->type : kj_none();
    if (vt->kind == KJ_T_OPTIONAL && rt->kind != KJ_T_OPTIONAL && rt->kind != KJ_T_NONE) {
        kj_raise_if(w, LLVMBuildNot(w->b, LLVMBuildExtractValue(w->b, v, 0, ""), ""),
                    PyExc_TypeError, "the function returned None where its signature declares a value");
    }
    kj_nrt_incref_value(w, v, vt);   /* the caller's reference */
    LLVMBuildStore(w->b, kj_cast(w, v, vt, rt), w->ret_ptr);
    kj_nrt_ret(w, LLVMConstInt(w->i32, 0, 0));
    LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "after.return"));
}

static void lower_stmt_inner(kj_lw *w, kj_node *s);

/* A statement gives back the temporaries its expressions made. What
 * works around statements (np.sum(a) + a.max(): one pass over a) begins
 * before and ends after it. */
static void lower_stmt(kj_lw *w, kj_node *s) {
    /* what follows s (a loop's step, the implicit return None) is not on
     * s's lines: the optimizer's remarks and unused_loops.c read them */
    LLVMMetadataRef loc = LLVMGetCurrentDebugLocation2(w->b);
    int mark = kj_nrt_mark(w), n;
    const kj_stmt_lowering *const *around = kj_stmt_lowerings(&n);
    void *state[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        state[i] = around[i]->begin ? around[i]->begin(w, s) : NULL;
    lower_stmt_inner(w, s);
    for (int i = n - 1; i >= 0; i--)
        if (around[i]->end)
            around[i]->end(w, state[i]);
    kj_nrt_release(w, mark);
    LLVMSetCurrentDebugLocation2(w->b, loc);
}

/* Whether a feature lowered statement s its own way (a prange loop across
 * the pool, a[1:-1] = b * c with no temporary: kind_ops.h). */
static bool lowered_elsewhere(kj_lw *w, kj_node *s) {
    int n;
    const kj_stmt_lowering *const *l = kj_stmt_lowerings(&n);
    for (int i = 0; i < n; i++)
        if (l[i]->lower && l[i]->stmt == s->kind && l[i]->lower(w, s))
            return true;
    return false;
}

/* The expression of statement s that never comes back (a call of a
 * function that always raises, types.h's kj_never): its value, test or
 * iterable, or the target an augmented assignment reads first; NULL if none. */
static kj_node *never_part(const kj_node *s) {
    if (s->kind == KJ_S_AUGASSIGN && s->kids[0]->type == kj_never())
        return s->kids[0];
    int k = s->kind == KJ_S_ASSIGN || s->kind == KJ_S_AUGASSIGN || s->kind == KJ_S_FOR ? 1
            : s->kind == KJ_S_IF || s->kind == KJ_S_WHILE || s->kind == KJ_S_RETURN    ? 0
                                                                                        : -1;
    return k >= 0 && k < s->nkids && s->kids[k] && s->kids[k]->type == kj_never() ? s->kids[k] : NULL;
}

static void lower_stmt_inner(kj_lw *w, kj_node *s) {
    kj_at(w, s);
    kj_node *never = never_part(s);
    if (never) {   /* evaluated for what it raises; the rest of s is never reached */
        kj_lower_expr(w, never);
        return;
    }
    if (lowered_elsewhere(w, s))
        return;
    switch (s->kind) {
    case KJ_S_ASSIGN: {
        LLVMValueRef v = kj_lower_expr(w, s->kids[1]);
        kj_assign(w, s->kids[0], v, s->kids[1]->type);
        break;
    }
    case KJ_S_AUGASSIGN: {
        if (s->type && kj_kind_ops_of(s->type->kind)->augassign) {   /* a += b, lst += other, s |= other: in place */
            kj_kind_ops_of(s->type->kind)->augassign(w, s);
            break;
        }
        const kj_type *rt = s->type;
        LLVMValueRef cur = kj_lower_expr(w, s->kids[0]);
        LLVMValueRef v = kj_lower_expr(w, s->kids[1]);
        LLVMValueRef r;
        if (s->op == KJ_OP_DIV && kj_is_intlike(s->kids[0]->type) && kj_is_intlike(s->kids[1]->type)) {
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, v, LLVMConstNull(LLVMTypeOf(v)), ""),
                        PyExc_ZeroDivisionError, "division by zero");
            r = kj_arith(w, s, s->op, kj_cast(w, cur, s->kids[0]->type, rt),
                         kj_cast(w, v, s->kids[1]->type, rt), rt);
        } else if (s->op == KJ_OP_LSHIFT || s->op == KJ_OP_RSHIFT || s->op == KJ_OP_POW)
            r = kj_arith(w, s, s->op, kj_cast(w, cur, s->kids[0]->type, rt),
                         kj_cast(w, v, s->kids[1]->type,
                                 s->op == KJ_OP_POW && kj_is_intlike(s->kids[1]->type) ? KJ_I64 : rt),
                         rt);
        else
            r = kj_arith(w, s, s->op, kj_cast(w, cur, s->kids[0]->type, rt),
                         kj_cast(w, v, s->kids[1]->type, rt), rt);
        kj_assign(w, s->kids[0], r, rt);
        break;
    }
    case KJ_S_EXPR:
        kj_lower_expr(w, s->kids[0]);
        break;
    case KJ_S_IF: {
        if (kj_lower_if_accumulates(w, s))   /* if x > 0: s += x * x */
            break;
        LLVMValueRef test = kj_truth(w, kj_lower_expr(w, s->kids[0]), s->kids[0]->type);
        if (w->break_bb && !w->inst->opts.fastmath && searches_for_a_float_best(s))   /* in a loop */
            test = kj_call_intrinsic(w, "llvm.expect", w->i1, 2, (LLVMValueRef[]){test, LLVMConstInt(w->i1, 0, 0)});
        LLVMBasicBlockRef then = kj_new_bb(w, "if.then"), other = kj_new_bb(w, "if.else"),
                          exit = kj_new_bb(w, "if.exit");
        LLVMBuildCondBr(w->b, test, then, other);
        LLVMPositionBuilderAtEnd(w->b, then);
        lower_block(w, &s->body);
        if (!kj_terminated(w))
            LLVMBuildBr(w->b, exit);
        lower_else(w, &s->orelse, other, exit);
        break;
    }
    case KJ_S_WHILE:
        lower_while(w, s);
        break;
    case KJ_S_TRY:
        lower_try(w, s);
        break;
    case KJ_S_FOR:
        kj_lower_for_serial(w, s);
        break;
    case KJ_S_BREAK:
    case KJ_S_CONTINUE:
        LLVMBuildBr(w->b, s->kind == KJ_S_BREAK ? w->break_bb : w->continue_bb);
        LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "after.jump"));
        break;
    case KJ_S_RETURN:
        lower_return(w, s);
        break;
    case KJ_S_RAISE:
        if (s->nkids == 0)   /* raise / raise e inside except: the caught exception again */
            kj_reraise(w);
        else if (s->nkids > 1)
            kj_str_raise(w, s);   /* raise E(f"...") */
        else
            kj_raise(w, s->kids[0]->pyobj, s->str);
        break;
    default:
        break;
    }
}

static void lower_block(kj_lw *w, kj_block *b) {
    for (int i = 0; i < b->n && w->u->err.kind == KJ_ERR_NONE; i++)
        lower_stmt(w, b->items[i]);
}

void kj_lower_block(kj_lw *w, kj_block *b) { lower_block(w, b); }
void kj_poll_interrupt(kj_lw *w) { poll_interrupt(w); }
