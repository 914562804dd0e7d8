/* parallel_lower: a cleared prange loop becomes a call to kj_pool_run with
 * its body outlined into `i32 body(ptr ctx, i64 lo, i64 hi, i64 slot)`.
 *
 * ctx is an array of pointers: to the parent's slot of every local the body
 * uses, then to the range's start, step and length, then to each
 * reduction's partial results (KJ_POOL_MAX_THREADS of them, one per pool
 * slot, so no two threads write one). In the body every local has a private
 * slot: shared ones are copied in, private ones start empty, reductions
 * start at their identity (min/max: the value before the loop, which
 * changes neither). The chunk that ends the range writes the private ones
 * back, so after the loop they hold the last iteration's values, as in
 * Python. The parent combines the partials in slot order after the run. */
#include "jit/core/kind_ops.h"
#include "jit/parallel/parallel.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line of the prange loop whose body is being lowered (for the report
 * of a nested one). Only touched during a compile, which holds the GIL. */
static int outer_line;

PyObject *kj_parallel_warning;   /* kiln.ParallelSafetyWarning (parallel_module.c) */

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static const char *const red_names[] = {"+=", "-=", "*=", "min", "max"};

/* ---- the report ---- */

static PyObject *names_with(kj_function *f, const kj_ploop *p, kj_var_use use) {
    PyObject *l = PyList_New(0);
    for (int i = 0; l && i < f->nlocals; i++) {
        if (p->use[i] != use || i == p->index_slot)
            continue;
        PyObject *s = PyUnicode_FromString(f->locals[i].name);
        if (!s || PyList_Append(l, s) < 0)
            Py_CLEAR(l);
        Py_XDECREF(s);
    }
    return l;
}

/* Appends this loop's record to u->parallel_report and, for a loop that
 * stays serial, warns. Returns -1 with u->err filled if Python failed
 * (a warning turned into an error). */
static int report(kj_lw *w, const kj_ploop *p, const char *nested_why, const char *instead) {
    kj_unit *u = w->u;
    kj_function *f = w->f;
    if (!u->parallel_report && !(u->parallel_report = PyList_New(0)))
        return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "parallel report");
    PyObject *reds = PyList_New(0), *nested = PyList_New(0), *allocs = PyList_New(0);
    for (int r = 0; reds && r < p->nred; r++) {
        PyObject *t = Py_BuildValue("(ssi)", f->locals[p->red[r].slot].name, red_names[p->red[r].op],
                                    p->red[r].line);
        if (!t || PyList_Append(reds, t) < 0)
            Py_CLEAR(reds);
        Py_XDECREF(t);
    }
    for (int k = 0; nested && k < p->nnested; k++) {
        PyObject *t = PyLong_FromLong(p->nested[k]);
        if (!t || PyList_Append(nested, t) < 0)
            Py_CLEAR(nested);
        Py_XDECREF(t);
    }
    for (int k = 0; allocs && k < p->nallocs; k++) {
        PyObject *t = PyLong_FromLong(p->allocs[k]);
        if (!t || PyList_Append(allocs, t) < 0)
            Py_CLEAR(allocs);
        Py_XDECREF(t);
    }
    const char *why = nested_why ? nested_why : p->parallel ? NULL : p->why;
    /* kept in the record too, so that a cache hit warns the same (python/kiln/cache.py) */
    char msg[512];
    bool warn = why && !nested_why;
    if (warn)
        snprintf(msg, sizeof msg, "kiln: the prange loop of %s at line %d runs serially: %s%s", f->qualname,
                 p->loop->line, why, instead ? instead : "");
    PyObject *rec = NULL;
    if (reds && nested && allocs)
        rec = Py_BuildValue("{s:s,s:s,s:s,s:i,s:s,s:O,s:z,s:i,s:N,s:N,s:N,s:N,s:N,s:z}", "kind", "prange",
                            "function",
                            f->qualname, "filename", f->filename, "line", p->loop->line, "index",
                            p->index_slot >= 0 ? f->locals[p->index_slot].name : "(a tuple)",
                            "parallel", (p->parallel && !nested_why) ? Py_True : Py_False, "reason", why,
                            "reason_line", nested_why ? outer_line : p->why_line, "reductions", reds,
                            "private", names_with(f, p, KJ_VAR_PRIVATE), "shared",
                            names_with(f, p, KJ_VAR_SHARED), "nested", nested, "allocations", allocs, "warning",
                            warn ? msg : NULL);
    else {
        Py_XDECREF(reds);
        Py_XDECREF(nested);
        Py_XDECREF(allocs);
    }
    if (!rec || PyList_Append(u->parallel_report, rec) < 0) {
        Py_XDECREF(rec);
        return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "parallel report");
    }
    Py_DECREF(rec);
    if (warn) {
        if (PyErr_WarnExplicit(kj_parallel_warning ? kj_parallel_warning : PyExc_UserWarning, msg, f->filename,
                               p->loop->line, NULL, NULL) < 0)
            return kj_fail(&u->err, KJ_ERR_PYTHON, p->loop->line, 0, NULL, "warning");
    }
    return 0;
}

/* ---- reductions ---- */

static LLVMValueRef combine(kj_lw *w, kj_node *at, kj_red_op op, LLVMValueRef a, LLVMValueRef b,
                            const kj_type *t) {
    switch (op) {
    case KJ_RED_ADD:
    case KJ_RED_SUB:   /* partials of -= start at 0 and subtract: the total adds them */
        return kj_arith(w, at, KJ_OP_ADD, a, b, t);
    case KJ_RED_MUL:
        return kj_arith(w, at, KJ_OP_MUL, a, b, t);
    default: {
        LLVMValueRef less = t->kind == KJ_T_FLOAT ? LLVMBuildFCmp(w->b, LLVMRealOLT, b, a, "")
                                                  : LLVMBuildICmp(w->b, t->is_signed ? LLVMIntSLT : LLVMIntULT,
                                                                  b, a, "");
        return op == KJ_RED_MIN ? LLVMBuildSelect(w->b, less, b, a, "") : LLVMBuildSelect(w->b, less, a, b, "");
    }
    }
}

static LLVMValueRef identity(kj_lw *w, kj_red_op op, const kj_type *t, LLVMValueRef current) {
    if (op == KJ_RED_MIN || op == KJ_RED_MAX)
        return current;
    return kj_cast(w, c64(w, op == KJ_RED_MUL ? 1 : 0), KJ_I64, t);
}

/* for k in 0 .. KJ_POOL_MAX_THREADS-1: body(k), as an IR loop. */
typedef void (*slot_fn)(kj_lw *w, LLVMValueRef k, void *arg);

static void each_slot(kj_lw *w, slot_fn fn, void *arg) {
    LLVMValueRef k_p = kj_entry_alloca(w, w->i64, "k");
    LLVMBuildStore(w->b, c64(w, 0), k_p);
    LLVMBasicBlockRef cond = kj_new_bb(w, "slots"), body = kj_new_bb(w, "slot"), done = kj_new_bb(w, "slots.done");
    LLVMBuildBr(w->b, cond);
    LLVMPositionBuilderAtEnd(w->b, cond);
    LLVMValueRef k = LLVMBuildLoad2(w->b, w->i64, k_p, "");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, k, c64(w, KJ_POOL_MAX_THREADS), ""), body, done);
    LLVMPositionBuilderAtEnd(w->b, body);
    fn(w, k, arg);
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, k, c64(w, 1), ""), k_p);
    LLVMBuildBr(w->b, cond);
    LLVMPositionBuilderAtEnd(w->b, done);
}

typedef struct {
    LLVMTypeRef arr_t, elem_t;
    LLVMValueRef partials, value;   /* value: what to store, or the accumulator slot */
    kj_node *at;
    kj_red_op op;
    const kj_type *t;
} slot_arg;

static LLVMValueRef partial_ptr(kj_lw *w, slot_arg *a, LLVMValueRef k) {
    return LLVMBuildGEP2(w->b, a->arr_t, a->partials, (LLVMValueRef[]){c64(w, 0), k}, 2, "");
}

static void init_slot(kj_lw *w, LLVMValueRef k, void *arg) {
    slot_arg *a = arg;
    LLVMBuildStore(w->b, a->value, partial_ptr(w, a, k));
}

static void fold_slot(kj_lw *w, LLVMValueRef k, void *arg) {
    slot_arg *a = arg;
    LLVMValueRef acc = LLVMBuildLoad2(w->b, a->elem_t, a->value, "");
    LLVMValueRef part = LLVMBuildLoad2(w->b, a->elem_t, partial_ptr(w, a, k), "");
    LLVMBuildStore(w->b, combine(w, a->at, a->op, acc, part, a->t), a->value);
}

enum { CTX_START, CTX_STEP, CTX_LEN, CTX_EXTRA };

static const kj_type *type_of(kj_function *f, int i) { return f->locals[i].type ? f->locals[i].type : kj_none(); }

/* The reduction updates of float locals in the body (`s += x`, `s = s * x`)
 * may reassociate: the chunks already sum in another order than the serial
 * loop, and reassociating inside a chunk lets LLVM keep partial sums in
 * vector lanes (the body vectorizes where the serial loop cannot), as the
 * split whole-array sums do (lower_np_reduce_pool.c). */
static void reassociate_reductions(kj_lw *o, LLVMValueRef fn, const kj_ploop *p) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (LLVMGetInstructionOpcode(in) != LLVMStore)
                continue;
            LLVMValueRef v = LLVMGetOperand(in, 0), to = LLVMGetOperand(in, 1);
            if (!LLVMIsAInstruction(v))
                continue;
            LLVMOpcode op = LLVMGetInstructionOpcode(v);
            if (op != LLVMFAdd && op != LLVMFSub && op != LLVMFMul)
                continue;
            for (int r = 0; r < p->nred; r++)
                if (to == o->slots[p->red[r].slot] && p->red[r].op <= KJ_RED_MUL)
                    LLVMSetFastMathFlags(v, LLVMGetFastMathFlags(v) | LLVMFastMathAllowReassoc);
        }
}

/* pstart, pstep: the range's start and step in the parent; constants are
 * built into the body (so LLVM knows i's direction and sign, as for a
 * serial range loop), others are read from ctx. */
static LLVMValueRef outline(kj_lw *w, kj_node *s, const kj_ploop *p, LLVMValueRef pstart, LLVMValueRef pstep) {
    kj_unit *u = w->u;
    kj_function *f = w->f;
    int nl = f->nlocals;
    char name[200];
    LLVMValueRef fn = kj_outline_function(w, "prange", s->line, name, sizeof name);
    kj_lw o;
    kj_outline_enter(w, &o, fn, name, s->line);
    kj_at(&o, s);
    LLVMValueRef ctx = LLVMGetParam(fn, 0), lo = LLVMGetParam(fn, 1), hi = LLVMGetParam(fn, 2),
                 slot = LLVMGetParam(fn, 3);
    o.slots = calloc((size_t)nl + 1, sizeof *o.slots);
    LLVMValueRef *shared = calloc((size_t)nl + 1, sizeof *shared);
    for (int i = 0; i < nl; i++)
        o.slots[i] = LLVMBuildAlloca(o.b, kj_lltype(&o, type_of(f, i)), f->locals[i].name);
    for (int i = 0; i < nl; i++)
        if (p->use[i] != KJ_VAR_UNUSED || i < f->nargs)
            shared[i] = kj_outline_ctx_item(&o, ctx, CTX_EXTRA + p->nred + i);
    /* arguments first: the reference counting set-up takes a reference on each */
    for (int i = 0; i < f->nargs; i++)
        LLVMBuildStore(o.b, LLVMBuildLoad2(o.b, kj_lltype(&o, type_of(f, i)), shared[i], ""), o.slots[i]);
    kj_nrt_function_begin(&o);
    for (int i = f->nargs; i < nl; i++)
        if (p->use[i] == KJ_VAR_SHARED) {
            LLVMValueRef v = LLVMBuildLoad2(o.b, kj_lltype(&o, type_of(f, i)), shared[i], "");
            kj_nrt_replace(&o, o.slots[i], v, type_of(f, i));
            LLVMBuildStore(o.b, v, o.slots[i]);
        }
    for (int r = 0; r < p->nred; r++) {
        int v = p->red[r].slot;
        const kj_type *t = type_of(f, v);
        LLVMValueRef cur = LLVMBuildLoad2(o.b, kj_lltype(&o, t), shared[v], "");
        if (t->kind == KJ_T_ARRAY) {
            kj_par_array_partial(&o, p->red[r].op, t, cur, kj_outline_ctx_item(&o, ctx, CTX_EXTRA + r), slot, o.slots[v]);
            continue;
        }
        LLVMBuildStore(o.b, identity(&o, p->red[r].op, t, cur), o.slots[v]);
    }
    LLVMValueRef start = LLVMIsAConstantInt(pstart) ? pstart : LLVMBuildLoad2(o.b, o.i64, kj_outline_ctx_item(&o, ctx, CTX_START), "start");
    LLVMValueRef step = LLVMIsAConstantInt(pstep) ? pstep : LLVMBuildLoad2(o.b, o.i64, kj_outline_ctx_item(&o, ctx, CTX_STEP), "step");
    LLVMValueRef len = LLVMBuildLoad2(o.b, o.i64, kj_outline_ctx_item(&o, ctx, CTX_LEN), "len");
    kj_poll_interrupt(&o);

    LLVMValueRef t_p = kj_entry_alloca(&o, o.i64, "t");
    LLVMBuildStore(o.b, lo, t_p);
    LLVMBasicBlockRef cond = kj_new_bb(&o, "prange.cond"), body = kj_new_bb(&o, "prange.body"),
                      latch = kj_new_bb(&o, "prange.latch"), done = kj_new_bb(&o, "prange.done");
    LLVMBuildBr(o.b, cond);
    LLVMPositionBuilderAtEnd(o.b, cond);
    LLVMValueRef t = LLVMBuildLoad2(o.b, o.i64, t_p, "");
    LLVMBuildCondBr(o.b, LLVMBuildICmp(o.b, LLVMIntSLT, t, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(o.b, body);
    /* nsw and the assumptions: what lower.c's range loop tells LLVM, so that
     * a[i] keeps unit-stride loads without the negative-index wraparound */
    LLVMValueRef iv = LLVMBuildNSWAdd(o.b, start, LLVMBuildNSWMul(o.b, t, step, ""), "i");
    if (LLVMIsAConstantInt(step) && LLVMConstIntGetSExtValue(step) > 0) {
        LLVMValueRef above = LLVMBuildICmp(o.b, LLVMIntSGE, iv, start, "");
        kj_call_intrinsic(&o, "llvm.assume", NULL, 1, &above);
        if (LLVMIsAConstantInt(start) && LLVMConstIntGetSExtValue(start) >= 0) {
            LLVMValueRef nonneg = LLVMBuildICmp(o.b, LLVMIntSGE, iv, c64(&o, 0), "");
            kj_call_intrinsic(&o, "llvm.assume", NULL, 1, &nonneg);
        }
    }
    LLVMBuildStore(o.b, kj_cast(&o, iv, KJ_I64, type_of(f, p->index_slot)), o.slots[p->index_slot]);
    o.continue_bb = latch;
    kj_outline_depth++;
    kj_lower_block(&o, &s->body);
    kj_outline_depth--;
    if (!kj_terminated(&o))
        LLVMBuildBr(o.b, latch);
    LLVMPositionBuilderAtEnd(o.b, latch);
    LLVMBuildStore(o.b, LLVMBuildNSWAdd(o.b, LLVMBuildLoad2(o.b, o.i64, t_p, ""), c64(&o, 1), ""), t_p);
    LLVMBuildBr(o.b, cond);

    LLVMPositionBuilderAtEnd(o.b, done);
    kj_at(&o, s);
    for (int r = 0; r < p->nred; r++) {
        int v = p->red[r].slot;
        const kj_type *vt = type_of(f, v);
        if (vt->kind == KJ_T_ARRAY)   /* updated in place */
            continue;
        LLVMTypeRef et = kj_lltype(&o, vt), at = LLVMArrayType2(et, KJ_POOL_MAX_THREADS);
        LLVMValueRef part = LLVMBuildGEP2(o.b, at, kj_outline_ctx_item(&o, ctx, CTX_EXTRA + r), (LLVMValueRef[]){c64(&o, 0), slot},
                                          2, "");
        LLVMValueRef mine = LLVMBuildLoad2(o.b, et, o.slots[v], "");
        LLVMBuildStore(o.b, combine(&o, s, p->red[r].op, LLVMBuildLoad2(o.b, et, part, ""), mine, vt), part);
    }
    /* the last chunk leaves the private locals as the last iteration did */
    LLVMBasicBlockRef last = kj_new_bb(&o, "prange.last"), out = kj_new_bb(&o, "prange.out");
    LLVMBuildCondBr(o.b, LLVMBuildICmp(o.b, LLVMIntEQ, hi, len, ""), last, out);
    LLVMPositionBuilderAtEnd(o.b, last);
    for (int i = 0; i < nl; i++)
        if (p->use[i] == KJ_VAR_PRIVATE) {
            LLVMValueRef v = LLVMBuildLoad2(o.b, kj_lltype(&o, type_of(f, i)), o.slots[i], "");
            kj_nrt_replace(&o, shared[i], v, type_of(f, i));
            LLVMBuildStore(o.b, v, shared[i]);
        }
    LLVMBuildBr(o.b, out);
    LLVMPositionBuilderAtEnd(o.b, out);
    kj_nrt_ret(&o, LLVMConstInt(o.i32, 0, 0));
    kj_nrt_function_end(&o);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (!LLVMGetBasicBlockTerminator(bb)) {
            LLVMPositionBuilderAtEnd(o.b, bb);
            LLVMBuildUnreachable(o.b);
        }
    reassociate_reductions(&o, fn, p);
    LLVMDisposeBuilder(o.b);
    free(o.slots);
    free(shared);
    if (u->target->finish_function)
        u->target->finish_function(u->target, u->mod, fn, KJ_FN_INTERNAL);
    return fn;
}

/* ---- the loop in its function ---- */

LLVMValueRef kj_prange_len(kj_lw *w, kj_node *s, LLVMValueRef *start, LLVMValueRef *step) {
    kj_at(w, s);
    kj_node *it = s->kids[1];
    int na = it->nkids - 1;
    LLVMValueRef a[3] = {c64(w, 0), c64(w, 0), c64(w, 1)};
    for (int k = 0; k < na; k++)
        a[k] = kj_cast(w, kj_lower_expr(w, it->kids[k + 1]), it->kids[k + 1]->type, KJ_I64);
    *start = na == 1 ? c64(w, 0) : a[0];
    *step = na == 3 ? a[2] : c64(w, 1);
    return kj_range_len(w, *start, na == 1 ? a[0] : a[1], *step);
}

static bool lower_prange(kj_lw *w, kj_node *s) {
    if (!w->inst->opts.parallel || !kj_is_prange_loop(s) || !w->u->target->has_runtime)
        return false;
    kj_ploop p;
    kj_parallel_analyze(w->f, s, &p);
    if (kj_outline_depth > 0) {
        char why[200];
        snprintf(why, sizeof why,
                 "it is nested in the parallel loop at line %d: only the outermost prange runs in parallel, "
                 "inner ones run serially on each thread", outer_line);
        report(w, &p, why, NULL);
        kj_ploop_free(&p);
        return false;
    }
    kj_interchange ix;
    bool inside_out = !p.parallel && !w->handler_bb && kj_interchange_plan(w->f, s, p.index_slot, &ix);
    char instead[400];
    if (inside_out)
        snprintf(instead, sizeof instead,
                 ". Every statement of its body is elementwise, so Kiln splits the elements of %s across threads "
                 "instead, each element taking the iterations in order",
                 ix.names);
    if (report(w, &p, NULL, inside_out ? instead : NULL) < 0) {
        kj_ploop_free(&p);
        return false;
    }
    if (!p.parallel) {
        kj_ploop_free(&p);
        if (inside_out)
            kj_interchange_lower(w, s, &ix);
        return inside_out;
    }
    kj_function *f = w->f;
    int nl = f->nlocals;
    kj_at(w, s);
    LLVMValueRef start, step, len = kj_prange_len(w, s, &start, &step);

    int nctx = CTX_EXTRA + p.nred + nl;
    LLVMValueRef ctx = kj_entry_alloca(w, LLVMArrayType2(w->ptr, (unsigned)nctx), "prange.ctx");
    LLVMValueRef nums[3] = {start, step, len};
    for (int k = 0; k < CTX_EXTRA + p.nred + nl; k++) {
        LLVMValueRef target;
        if (k < CTX_EXTRA) {
            target = kj_entry_alloca(w, w->i64, "prange.arg");
            LLVMBuildStore(w->b, nums[k], target);
        } else if (k < CTX_EXTRA + p.nred) {
            int r = k - CTX_EXTRA, v = p.red[r].slot;
            const kj_type *vt = type_of(f, v);
            LLVMTypeRef et = kj_lltype(w, vt);
            slot_arg sa = {.arr_t = LLVMArrayType2(et, KJ_POOL_MAX_THREADS), .elem_t = et, .op = p.red[r].op,
                           .t = vt, .at = s};
            target = sa.partials = kj_entry_alloca(w, sa.arr_t, "prange.partials");
            sa.value = vt->kind == KJ_T_ARRAY ? LLVMConstNull(et)   /* made by each slot's first chunk */
                                              : identity(w, p.red[r].op, vt, LLVMBuildLoad2(w->b, et, w->slots[v], ""));
            each_slot(w, init_slot, &sa);
        } else {
            int i = k - CTX_EXTRA - p.nred;
            /* locals the body never touches stay out, so LLVM may keep them in registers */
            target = p.use[i] != KJ_VAR_UNUSED || i < f->nargs ? w->slots[i] : LLVMConstNull(w->ptr);
        }
        LLVMBuildStore(w->b, target, LLVMBuildGEP2(w->b, w->ptr, ctx, (LLVMValueRef[]){c64(w, k)}, 1, ""));
    }
    int saved_line = outer_line;
    outer_line = s->line;
    LLVMValueRef body = outline(w, s, &p, start, step);
    outer_line = saved_line;
    kj_at(w, s);
    LLVMValueRef st = kj_call(w, "kj_pool_run", w->i32, 3, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr},
                              (LLVMValueRef[]){len, body, ctx});
    /* array partials are given back before an exception leaves */
    for (int r = 0; r < p.nred; r++)
        if (type_of(f, p.red[r].slot)->kind == KJ_T_ARRAY)
            kj_par_array_fold(w, s, p.red[r].op, type_of(f, p.red[r].slot), kj_outline_ctx_item(w, ctx, CTX_EXTRA + r),
                              w->slots[p.red[r].slot]);
    kj_check_status(w, st);
    /* the last chunk left the body's locals as the last iteration did */
    LLVMValueRef ran = LLVMBuildICmp(w->b, LLVMIntSGT, len, c64(w, 0), "");
    for (int i = 0; i < nl; i++)
        if (i == p.index_slot || kj_binds_in_block(&s->body, i))
            kj_mark_bound(w, i, ran);
    for (int r = 0; r < p.nred; r++) {
        int v = p.red[r].slot;
        const kj_type *vt = type_of(f, v);
        if (vt->kind == KJ_T_ARRAY)
            continue;
        LLVMTypeRef et = kj_lltype(w, vt);
        LLVMValueRef partials = kj_outline_ctx_item(w, ctx, CTX_EXTRA + r);
        slot_arg sa = {.arr_t = LLVMArrayType2(et, KJ_POOL_MAX_THREADS), .elem_t = et, .partials = partials,
                       .value = w->slots[v], .op = p.red[r].op, .t = vt, .at = s};
        each_slot(w, fold_slot, &sa);
    }
    kj_ploop_free(&p);
    return true;
}

KJ_STMT_LOWERING(prange, .stmt = KJ_S_FOR, .lower = lower_prange);
