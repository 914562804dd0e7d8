/* pool_region: code lowered into a function of its own that the worker
 * pool runs in chunks (`i32 fn(ptr ctx, i64 lo, i64 hi, i64 slot)`): the
 * body of a prange loop (parallel_lower.c), or the flat loop of an array
 * expression or a whole-array reduction in a parallel=True function
 * (numpy/), see pool_region.h. */
#include "jit/lower/pool_region.h"

#include <stdio.h>
#include <string.h>

int kj_outline_depth;

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

void kj_copy_codegen_attributes(LLVMValueRef from, LLVMValueRef to) {
    static const char *const keys[] = {"target-cpu", "target-features", "no-nans-fp-math", "no-infs-fp-math",
                                       "no-signed-zeros-fp-math"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(from, LLVMAttributeFunctionIndex, keys[i],
                                                           (unsigned)strlen(keys[i]));
        if (a)
            LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, a);
    }
}

void kj_outline_enter(kj_lw *w, kj_lw *o, LLVMValueRef fn, const char *name, int line) {
    kj_unit *u = w->u;
    *o = *w;
    o->handler_bb = NULL;   /* a try around the loop is in the parent function */
    o->fn = fn;
    o->b = LLVMCreateBuilderInContext(w->ctx);
    o->nrt = NULL;
    o->bound = NULL;   /* the parent's flags are not this function's: reads here are not checked */
    o->break_bb = o->continue_bb = NULL;
    o->interrupt_bb = NULL;
    LLVMMetadataRef ftype = LLVMDIBuilderCreateSubroutineType(u->di, u->di_file, NULL, 0, 0);
    o->scope = LLVMDIBuilderCreateFunction(u->di, u->di_file, name, strlen(name), name, strlen(name), u->di_file,
                                           (unsigned)line, ftype, 1, 1, (unsigned)line, LLVMDIFlagZero, 1);
    LLVMSetSubprogram(fn, o->scope);
    LLVMPositionBuilderAtEnd(o->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
}

LLVMValueRef kj_outline_function(kj_lw *w, const char *what, int line, char *name, size_t size) {
    snprintf(name, size, "%s_%s%d", w->inst->symbol, what, line);
    LLVMTypeRef ft = LLVMFunctionType(w->i32, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->i64}, 4, 0);
    LLVMValueRef fn = LLVMAddFunction(w->mod, name, ft);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    kj_copy_codegen_attributes(w->fn, fn);
    return fn;
}

LLVMValueRef kj_outline_ctx_item(kj_lw *o, LLVMValueRef ctx, int index) {
    LLVMValueRef p = LLVMBuildGEP2(o->b, o->ptr, ctx, (LLVMValueRef[]){c64(o, index)}, 1, "");
    return LLVMBuildLoad2(o->b, o->ptr, p, "");
}

/* Elements below which a split loop runs on the calling thread: waking the
 * workers costs about what this many simple elements do. */
#define REGION_MIN 32768

bool kj_parallel_wanted(kj_lw *w) {
    return w->inst->opts.parallel && kj_outline_depth == 0 && w->u->target->has_runtime;
}

/* The report's record of a split loop of another lowering: an array
 * expression, or a whole-array reduction (lower_np_reduce_pool.c, what "red"). */
static void report_region(kj_lw *w, const char *what, int line) {
    kj_unit *u = w->u;
    if (!u->parallel_report && !(u->parallel_report = PyList_New(0))) {
        PyErr_Clear();   /* the report is a courtesy: the loop still runs split */
        return;
    }
    const char *kind = !strcmp(what, "red")           ? "whole-array reduction"
                       : !strcmp(what, "group")       ? "whole-array reductions in one pass"   /* lower_np_group.c */
                       : !strcmp(what, "interchange") ? "elements through the iterations"   /* parallel_interchange.c */
                                                      : "array expression";
    PyObject *rec = Py_BuildValue("{s:s,s:s,s:s,s:i,s:O,s:O,s:z,s:i,s:[],s:[],s:[],s:[],s:[],s:i}", "kind",
                                  kind, "function", w->f->qualname, "filename", w->f->filename,
                                  "line", line, "index", Py_None, "parallel", Py_True, "reason", NULL,
                                  "reason_line", 0, "reductions", "private", "shared", "nested", "allocations",
                                  "min_elements",
                                  REGION_MIN);
    if (!rec || PyList_Append(u->parallel_report, rec) < 0)
        PyErr_Clear();
    Py_XDECREF(rec);
}

kj_lw *kj_parallel_region_begin(kj_lw *w, kj_par_region *r, const char *what, int line, int nvals,
                                const LLVMValueRef *vals, LLVMValueRef *inside) {
    report_region(w, what, line);
    r->ctx = kj_entry_alloca(w, LLVMArrayType2(w->ptr, (unsigned)(nvals > 0 ? nvals : 1)), "region.ctx");
    for (int k = 0; k < nvals; k++) {
        LLVMValueRef slot = kj_entry_alloca(w, LLVMTypeOf(vals[k]), "region.val");
        LLVMBuildStore(w->b, vals[k], slot);
        LLVMBuildStore(w->b, slot, LLVMBuildGEP2(w->b, w->ptr, r->ctx, (LLVMValueRef[]){c64(w, k)}, 1, ""));
    }
    char name[200];
    r->fn = kj_outline_function(w, what, line, name, sizeof name);
    /* the direct call for small sizes inlines it, so that path is the
     * plain loop it would have been without parallel=True */
    unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(r->fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(w->ctx, inl, 0));
    kj_outline_enter(w, &r->o, r->fn, name, line);
    r->o.slots = NULL;   /* the loop reads the values passed in, never the parent's locals */
    kj_at(&r->o, &(kj_node){.line = line});
    LLVMValueRef ctx = LLVMGetParam(r->fn, 0);
    for (int k = 0; k < nvals; k++)
        inside[k] = LLVMBuildLoad2(r->o.b, LLVMTypeOf(vals[k]), kj_outline_ctx_item(&r->o, ctx, k), "");
    r->lo = LLVMGetParam(r->fn, 1);
    r->hi = LLVMGetParam(r->fn, 2);
    kj_outline_depth++;
    return &r->o;
}

void kj_parallel_region_end(kj_lw *w, kj_par_region *r, LLVMValueRef n) { kj_parallel_region_end_work(w, r, n, n); }

void kj_parallel_region_end_work(kj_lw *w, kj_par_region *r, LLVMValueRef n, LLVMValueRef work) {
    kj_outline_depth--;
    kj_lw *o = &r->o;
    if (!kj_terminated(o))
        LLVMBuildRet(o->b, LLVMConstInt(o->i32, 0, 0));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(r->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (!LLVMGetBasicBlockTerminator(bb)) {
            LLVMPositionBuilderAtEnd(o->b, bb);
            LLVMBuildUnreachable(o->b);
        }
    LLVMDisposeBuilder(o->b);
    if (w->u->target->finish_function)
        w->u->target->finish_function(w->u->target, w->mod, r->fn, KJ_FN_INTERNAL);
    /* small: one direct call; large: the pool */
    LLVMBasicBlockRef direct = kj_new_bb(w, "region.direct"), pooled = kj_new_bb(w, "region.pool"),
                      join = kj_new_bb(w, "region.join");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, work, c64(w, REGION_MIN), ""), direct, pooled);
    LLVMPositionBuilderAtEnd(w->b, direct);
    LLVMValueRef st1 = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(r->fn), r->fn,
                                      (LLVMValueRef[]){r->ctx, c64(w, 0), n, c64(w, 0)}, 4, "");
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, pooled);
    LLVMValueRef st2 = kj_call(w, "kj_pool_run", w->i32, 3, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr},
                               (LLVMValueRef[]){n, r->fn, r->ctx});
    LLVMBuildBr(w->b, join);
    LLVMPositionBuilderAtEnd(w->b, join);
    LLVMValueRef st = LLVMBuildPhi(w->b, w->i32, "region.status");
    LLVMAddIncoming(st, (LLVMValueRef[]){st1, st2}, (LLVMBasicBlockRef[]){direct, pooled}, 2);
    kj_check_status(w, st);
}
