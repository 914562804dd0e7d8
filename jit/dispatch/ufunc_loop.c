/* ufunc_loop: the inner loop NumPy calls for a kiln.vectorize or
 * kiln.guvectorize kernel, generated in LLVM IR next to the kernel so the
 * kernel inlines into it and, for contiguous operands, vectorizes.
 *
 * The loop is `i32 loop(ptr args, ptr dims, ptr steps, ptr unused)`:
 * NumPy's PyUFuncGenericFunction plus a status, 0 or the kernel's failure
 * (its exception pending on this thread). ufunc.c wraps it for NumPy. */
#include "jit/lower/pool_region.h"
#include "jit/lower/stream_stores.h"
#include "jit/dispatch/ufunc.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    kj_lw w;                       /* only ctx, builder and the basic types */
    LLVMValueRef fn, args, dims, steps;
    kj_instance *in;
    int nops;                      /* operands NumPy passes (inputs + outputs) */
} gen;

static LLVMValueRef at_index(gen *g, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
    LLVMValueRef p = LLVMBuildGEP2(g->w.b, t, base, &i, 1, "");
    return LLVMBuildLoad2(g->w.b, t, p, "");
}

static LLVMValueRef const64(gen *g, long long v) { return LLVMConstInt(g->w.i64, (unsigned long long)v, 1); }

/* The pointer to element i of operand k: base + i * step, with the step a
 * constant (the element size) on the contiguous path. */
static LLVMValueRef operand_ptr(gen *g, LLVMValueRef base, LLVMValueRef step, LLVMValueRef i) {
    LLVMValueRef off = LLVMBuildMul(g->w.b, i, step, "");
    return LLVMBuildGEP2(g->w.b, g->w.i8, base, &off, 1, "");
}

static LLVMValueRef load_scalar(gen *g, LLVMValueRef p, const kj_type *t) {
    LLVMValueRef v = LLVMBuildLoad2(g->w.b, kj_llmemtype(&g->w, t), p, "");
    if (t->kind == KJ_T_BOOL)
        v = LLVMBuildICmp(g->w.b, LLVMIntNE, v, LLVMConstInt(g->w.i8, 0, 0), "");
    return v;
}

static LLVMValueRef store_scalar(gen *g, LLVMValueRef p, LLVMValueRef v, const kj_type *t) {
    if (t->kind == KJ_T_BOOL)
        v = LLVMBuildZExt(g->w.b, v, g->w.i8, "");
    return LLVMBuildStore(g->w.b, v, p);
}

static long long elem_size(const kj_type *t) { return t->kind == KJ_T_BOOL ? 1 : t->bits / 8; }

/* An array operand of a gufunc kernel over the core dimensions `core`
 * (sizes in dims[1 + core[j]], strides in steps[*stride_at + j]); a scalar
 * core `()` declared as a 1-d array (Numba's way to write a scalar output)
 * is one element. */
static LLVMValueRef core_array(gen *g, LLVMValueRef data, const kj_type *at, const int *core, int ncore,
                               int *stride_at) {
    LLVMBuilderRef b = g->w.b;
    LLVMValueRef v = LLVMGetUndef(kj_lltype(&g->w, at));
    v = LLVMBuildInsertValue(b, v, LLVMConstNull(g->w.ptr), 0, "");
    v = LLVMBuildInsertValue(b, v, data, 1, "");
    LLVMValueRef shape = LLVMGetUndef(LLVMArrayType2(g->w.i64, at->ndim)), strides = shape;
    for (int j = 0; j < at->ndim; j++) {
        LLVMValueRef size = ncore ? at_index(g, g->w.i64, g->dims, const64(g, 1 + core[j])) : const64(g, 1);
        LLVMValueRef stride = ncore ? at_index(g, g->w.i64, g->steps, const64(g, *stride_at + j))
                                    : const64(g, elem_size(at->elem));
        shape = LLVMBuildInsertValue(b, shape, size, (unsigned)j, "");
        strides = LLVMBuildInsertValue(b, strides, stride, (unsigned)j, "");
    }
    v = LLVMBuildInsertValue(b, v, shape, 2, "");
    v = LLVMBuildInsertValue(b, v, strides, 3, "");
    *stride_at += ncore;
    return v;
}

/* Outer elements (gufunc rows) between two polls of the interrupt flag:
 * the kernel's counted loops do not poll (kj_options.loops_polled_outside).
 * A row may be long (a core dimension of millions), an element is short. */
#define POLL_ROWS 64
#define POLL_ELEMENTS 65536

/* Raises KeyboardInterrupt, returning 1, when the flag is set. */
static void poll_interrupt(gen *g) {
    LLVMBuilderRef b = g->w.b;
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "interrupted"),
                      go = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "not.interrupted");
    LLVMBuildCondBr(b, kj_interrupt_set(&g->w), stop, go);
    LLVMPositionBuilderAtEnd(b, stop);
    kj_call(&g->w, "kj_rt_raise", g->w.vd, 2, (LLVMTypeRef[]){g->w.ptr, g->w.ptr},
            (LLVMValueRef[]){LLVMConstIntToPtr(LLVMConstInt(g->w.i64, (uintptr_t)PyExc_KeyboardInterrupt, 0), g->w.ptr),
                             LLVMConstNull(g->w.ptr)});
    LLVMBuildRet(b, LLVMConstInt(g->w.i32, 1, 0));
    LLVMPositionBuilderAtEnd(b, go);
}

/* Which outer elements one loop covers, and how. */
typedef struct {
    bool contiguous;     /* every step is the element size, known to LLVM */
    bool scalar;         /* kept one element at a time (never vectorized) */
    bool stream;         /* output stores become non-temporal (stream_stores.h) */
    LLVMValueRef first;  /* the first element, or NULL for 0 */
    LLVMValueRef count;  /* how many, or NULL for all (dims[0]) */
} loop_part;

/* One pass over a part of the outer elements, in chunks with a poll before
 * each, ending in the builder's current block; on the contiguous path the
 * loop within a chunk can vectorize. */
static void emit_loop(gen *g, const kj_ufunc_layout *lay, loop_part part, LLVMValueRef i_p,
                      LLVMValueRef ret_slot) {
    LLVMBuilderRef b = g->w.b;
    kj_instance *in = g->in;
    int nparams = in->f->nargs;
    bool contiguous = part.contiguous;
    LLVMValueRef n = part.count ? part.count : at_index(g, g->w.i64, g->dims, const64(g, 0));
    LLVMValueRef base[KJ_UFUNC_MAX_OPS], step[KJ_UFUNC_MAX_OPS];
    for (int k = 0; k < g->nops; k++) {
        base[k] = at_index(g, g->w.ptr, g->args, const64(g, k));
        const kj_type *t = k < nparams ? in->args[k] : in->ret;
        step[k] = contiguous ? const64(g, elem_size(t)) : at_index(g, g->w.i64, g->steps, const64(g, k));
        if (part.first)
            base[k] = operand_ptr(g, base[k], step[k], part.first);
    }
    if (part.stream)
        kj_stream_assume_aligned(&g->w, base[nparams]);
    LLVMBasicBlockRef chunk = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "chunk"),
                      poll = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "poll"),
                      cond = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "cond"),
                      body = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "body"),
                      fail = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "fail"),
                      next = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "next"),
                      done = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "done");
    LLVMBuildStore(b, const64(g, 0), i_p);
    LLVMBuildBr(b, chunk);
    LLVMPositionBuilderAtEnd(b, chunk);
    LLVMValueRef start = LLVMBuildLoad2(b, g->w.i64, i_p, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, start, n, ""), poll, done);
    LLVMPositionBuilderAtEnd(b, poll);
    poll_interrupt(g);
    /* Every chunk starts at a multiple of POLL_ELEMENTS: said, so that LLVM
     * finds the streaming loop's vector stores aligned as the output is. */
    if (part.stream)
        kj_call_intrinsic(&g->w, "llvm.assume", NULL, 1,
                          (LLVMValueRef[]){LLVMBuildICmp(b, LLVMIntEQ,
                                                         LLVMBuildAnd(b, start, const64(g, POLL_ELEMENTS - 1), ""),
                                                         const64(g, 0), "")});
    LLVMValueRef lim = LLVMBuildAdd(b, start, const64(g, lay->generalized ? POLL_ROWS : POLL_ELEMENTS), "");
    LLVMValueRef end = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, lim, n, ""), lim, n, "end");
    LLVMBuildBr(b, cond);
    LLVMPositionBuilderAtEnd(b, cond);
    LLVMValueRef i = LLVMBuildLoad2(b, g->w.i64, i_p, "i");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, i, end, ""), body, chunk);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef call_args[KJ_UFUNC_MAX_OPS + 1];
    call_args[0] = ret_slot;
    int stride_at = g->nops;
    for (int k = 0; k < nparams; k++) {
        LLVMValueRef p = operand_ptr(g, base[k], step[k], i);
        const kj_type *t = in->args[k];
        call_args[k + 1] = t->kind == KJ_T_ARRAY
                               ? core_array(g, p, t, lay->core[k], lay->ncore[k], &stride_at)
                               : load_scalar(g, p, t);
    }
    LLVMValueRef st = LLVMBuildCall2(b, LLVMGlobalGetValueType(in->llfn), in->llfn, call_args,
                                     (unsigned)nparams + 1, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, st, LLVMConstInt(g->w.i32, 0, 0), ""), fail, next);
    LLVMPositionBuilderAtEnd(b, fail);
    LLVMBuildRet(b, st);
    LLVMPositionBuilderAtEnd(b, next);
    if (!lay->generalized) {
        LLVMValueRef store = store_scalar(g, operand_ptr(g, base[nparams], step[nparams], i),
                                          LLVMBuildLoad2(b, kj_lltype(&g->w, in->ret), ret_slot, ""), in->ret);
        if (part.stream)
            kj_stream_mark(&g->w, store);
    }
    LLVMBuildStore(b, LLVMBuildAdd(b, i, const64(g, 1), ""), i_p);
    LLVMValueRef back = LLVMBuildBr(b, cond);
    if (part.scalar)
        kj_loop_keep_rolled_edge(&g->w, back);
    else if (part.stream)
        kj_loop_one_step_edge(&g->w, back);
    else if (contiguous)
        kj_loop_vector_edge(&g->w, back);
    LLVMPositionBuilderAtEnd(b, done);
}

static long long touched_per_element(gen *g) {
    long long bytes = 0;
    for (int k = 0; k < g->nops; k++)
        bytes += elem_size(k < g->in->f->nargs ? g->in->args[k] : g->in->ret);
    return bytes;
}

/* Whether the kernel is cheap next to moving its operands: it calls
 * nothing but LLVM intrinsics a few instructions long. A kernel calling
 * cos or exp keeps the processor busier than memory, and streaming would
 * only add a loop to compile. */
static bool kernel_is_cheap(LLVMValueRef fn) {
    static const char *const cheap[] = {"llvm.fabs.", "llvm.copysign.", "llvm.minnum.", "llvm.maxnum.",
                                        "llvm.minimum.", "llvm.maximum.", "llvm.sqrt.", "llvm.fma.",
                                        "llvm.fmuladd.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.",
                                        "llvm.rint.", "llvm.round", "llvm.nearbyint.", "llvm.smax.",
                                        "llvm.smin.", "llvm.umax.", "llvm.umin.", "llvm.abs.",
                                        "llvm.assume", "llvm.expect.", "llvm.lifetime.", "llvm.dbg."};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsACallInst(in))
                continue;
            LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(in));
            size_t len;
            const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
            bool ok = false;
            for (size_t k = 0; k < sizeof cheap / sizeof *cheap && !ok; k++)
                ok = strncmp(name, cheap[k], strlen(cheap[k])) == 0;
            if (!ok)
                return false;
        }
    return true;
}

/* The contiguous elementwise loop. When its operands are too large to stay
 * in the last-level cache, the output is written with streaming stores:
 * the plain loop runs up to the first output element on a 64-byte
 * boundary, a streaming copy of it runs the rest: faster into an existing
 * output, a little into a fresh one as NumPy allocates it (the kernel
 * zeroes its pages first; bench/MEASURED.md). An output not aligned to its
 * element size never streams (np.frombuffer at an odd offset makes one). */
static void emit_contiguous(gen *g, const kj_ufunc_layout *lay, LLVMValueRef i_p, LLVMValueRef ret_slot) {
    LLVMBuilderRef b = g->w.b;
    if (!kj_stream_possible(&g->w) || !kernel_is_cheap(g->in->llfn)) {
        emit_loop(g, lay, (loop_part){.contiguous = true}, i_p, ret_slot);
        return;
    }
    int nparams = g->in->f->nargs;
    long long esize = elem_size(g->in->ret);
    LLVMValueRef n = at_index(g, g->w.i64, g->dims, const64(g, 0));
    LLVMValueRef addr = LLVMBuildPtrToInt(b, at_index(g, g->w.ptr, g->args, const64(g, nparams)), g->w.i64, "");
    LLVMValueRef elem_aligned = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, addr, const64(g, esize - 1), ""),
                                              const64(g, 0), "");
    LLVMValueRef to_line = LLVMBuildUDiv(b, LLVMBuildAnd(b, LLVMBuildNeg(b, addr, ""), const64(g, 63), ""),
                                         const64(g, esize), "");
    LLVMValueRef big = kj_stream_wanted(&g->w, LLVMBuildMul(b, n, const64(g, touched_per_element(g)), ""));
    LLVMValueRef stream = LLVMBuildAnd(b, LLVMBuildAnd(b, big, elem_aligned, ""),
                                       LLVMBuildICmp(b, LLVMIntSLT, to_line, n, ""), "");
    LLVMValueRef first = LLVMBuildSelect(b, stream, to_line, n, "stream.first");
    emit_loop(g, lay, (loop_part){.contiguous = true, .count = first}, i_p, ret_slot);
    emit_loop(g, lay, (loop_part){.contiguous = true, .stream = true, .first = first,
                                  .count = LLVMBuildSub(b, n, first, "")}, i_p, ret_slot);
    LLVMBasicBlockRef fence = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "stream.fence"),
                      done = LLVMAppendBasicBlockInContext(g->w.ctx, g->fn, "contiguous.done");
    LLVMBuildCondBr(b, stream, fence, done);
    LLVMPositionBuilderAtEnd(b, fence);
    kj_stream_fence(&g->w);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
}

int kj_ufunc_define_loop(kj_unit *u, kj_instance *in, const kj_ufunc_layout *lay, char *name,
                         size_t name_size) {
    gen g = {.in = in};
    kj_lw_init(&g.w, u);
    g.nops = in->f->nargs + (lay->generalized ? 0 : 1);
    if (g.nops > KJ_UFUNC_MAX_OPS)
        return kj_fail(&u->err, KJ_ERR_TYPING, in->f->first_line, 0, NULL,
                       "a ufunc kernel takes at most %d arguments", KJ_UFUNC_MAX_OPS - 1);
    snprintf(name, name_size, "%s_ufunc", in->symbol);
    LLVMTypeRef ptr = g.w.ptr;
    LLVMTypeRef ft = LLVMFunctionType(g.w.i32, (LLVMTypeRef[]){ptr, ptr, ptr, ptr}, 4, 0);
    g.fn = LLVMAddFunction(u->mod, name, ft);
    kj_copy_codegen_attributes(in->llfn, g.fn);
    g.args = LLVMGetParam(g.fn, 0);
    g.dims = LLVMGetParam(g.fn, 1);
    g.steps = LLVMGetParam(g.fn, 2);
    g.w.b = LLVMCreateBuilderInContext(u->ctx);
    LLVMBuilderRef b = g.w.b;
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(u->ctx, g.fn, "entry"));
    LLVMValueRef i_p = LLVMBuildAlloca(b, g.w.i64, "i");
    LLVMValueRef ret_slot = LLVMBuildAlloca(b, kj_lltype(&g.w, in->ret), "ret");
    if (lay->generalized) {
        emit_loop(&g, lay, (loop_part){0}, i_p, ret_slot);
    } else {
        /* contiguous when every step is its element size */
        LLVMValueRef all = LLVMConstInt(g.w.i1, 1, 0);
        for (int k = 0; k < g.nops; k++) {
            const kj_type *t = k < in->f->nargs ? in->args[k] : in->ret;
            LLVMValueRef s = at_index(&g, g.w.i64, g.steps, const64(&g, k));
            all = LLVMBuildAnd(b, all, LLVMBuildICmp(b, LLVMIntEQ, s, const64(&g, elem_size(t)), ""), "");
        }
        LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(u->ctx, g.fn, "contiguous"),
                          slow = LLVMAppendBasicBlockInContext(u->ctx, g.fn, "strided");
        LLVMBuildCondBr(b, all, fast, slow);
        LLVMPositionBuilderAtEnd(b, fast);
        emit_contiguous(&g, lay, i_p, ret_slot);
        LLVMBuildRet(b, LLVMConstInt(g.w.i32, 0, 0));
        LLVMPositionBuilderAtEnd(b, slow);
        /* elementwise on strided operands: one element at a time (ufunc.c
         * says why), and rolled, as the contiguous loop's remainder is: with
         * both unrolled, seed 001's maximum compiled half as long again and
         * ran no faster (bench/MEASURED.md) */
        emit_loop(&g, lay, (loop_part){.scalar = true}, i_p, ret_slot);
    }
    LLVMBuildRet(b, LLVMConstInt(g.w.i32, 0, 0));
    LLVMDisposeBuilder(b);
    return 0;
}
