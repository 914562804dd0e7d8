/* lower_function: a compiled function as LLVM functions: its declaration
 * and attributes (the host CPU's features, fastmath's float flags), its
 * body with the reference-counting prologue and epilogue, the entry the
 * dispatcher calls (arguments unpacked from an array of pointers), and
 * the lowering of a whole compile unit. Statements and loops: lower.c. */
#include "jit/lower/unbound.h"
#include "jit/lower/lower.h"
#include "jit/lower/lower_nrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void declare(kj_unit *u, kj_instance *in, kj_lw *w) {
    LLVMTypeRef params[in->f->nargs + 1];
    params[0] = w->ptr;
    for (int i = 0; i < in->f->nargs; i++)
        params[i + 1] = kj_lltype(w, in->args[i]);
    LLVMTypeRef ft = LLVMFunctionType(w->i32, params, (unsigned)in->f->nargs + 1, 0);
    in->llfn = LLVMAddFunction(u->mod, in->symbol, ft);
    LLVMSetLinkage(in->llfn, LLVMInternalLinkage);
}

static void set_cpu_attributes(kj_unit *u, LLVMValueRef fn) {
    LLVMTargetMachineRef tm = u->target->target_machine ? u->target->target_machine(u->target) : NULL;
    if (!tm)
        return;
    char *cpu = LLVMGetTargetMachineCPU(tm), *features = LLVMGetTargetMachineFeatureString(tm);
    LLVMAddTargetDependentFunctionAttr(fn, "target-cpu", cpu);
    LLVMAddTargetDependentFunctionAttr(fn, "target-features", features);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
}

/* fastmath's no-NaNs and no-signed-zeros flags said of the whole function
 * as well: the loop vectorizer takes a float running min or max (`m =
 * max(m, a[i])`, `if a[i] < m: m = a[i]`) as a reduction only then, since
 * the selects LLVM makes of such ifs carry no flags of their own. The
 * inliner keeps an attribute only where caller and callee both have it. */
static void set_fp_math_attributes(LLVMValueRef fn, unsigned fastmath) {
    static const struct {
        unsigned flag;
        const char *key;
    } attrs[] = {{LLVMFastMathNoNaNs, "no-nans-fp-math"},
                 {LLVMFastMathNoInfs, "no-infs-fp-math"},
                 {LLVMFastMathNoSignedZeros, "no-signed-zeros-fp-math"}};
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
        if (fastmath & attrs[i].flag)
            LLVMAddTargetDependentFunctionAttr(fn, attrs[i].key, "true");
}

static void define(kj_unit *u, kj_instance *in, kj_lw *w) {
    kj_function *f = in->f;
    w->inst = in;
    w->f = f;
    w->fn = in->llfn;
    set_cpu_attributes(u, w->fn);
    set_fp_math_attributes(w->fn, in->opts.fastmath);
    LLVMMetadataRef ftype = LLVMDIBuilderCreateSubroutineType(u->di, u->di_file, NULL, 0, 0);
    w->scope = LLVMDIBuilderCreateFunction(u->di, u->di_file, f->qualname, strlen(f->qualname),
                                           in->symbol, strlen(in->symbol), u->di_file,
                                           (unsigned)f->first_line, ftype, 1, 1,
                                           (unsigned)f->first_line, LLVMDIFlagZero, 1);
    LLVMSetSubprogram(w->fn, w->scope);
    LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "entry"));
    kj_at(w, &(kj_node){.line = f->first_line});
    w->ret_ptr = LLVMGetParam(w->fn, 0);
    w->interrupt_bb = NULL;
    w->slots = calloc((size_t)f->nlocals + 1, sizeof *w->slots);
    for (int i = 0; i < f->nlocals; i++) {
        const kj_type *t = f->locals[i].type ? f->locals[i].type : kj_none();
        w->slots[i] = LLVMBuildAlloca(w->b, kj_lltype(w, t), f->locals[i].name);
    }
    /* UnboundLocalError needs the host runtime; a GPU kernel reads as before */
    w->bound = u->target->has_runtime && kj_find_unbound_reads(f) ? calloc((size_t)f->nlocals + 1, sizeof *w->bound)
                                                                    : NULL;
    for (int i = 0; w->bound && i < f->nlocals; i++)
        if (f->locals[i].may_be_unbound) {
            w->bound[i] = LLVMBuildAlloca(w->b, w->i1, "bound");
            LLVMBuildStore(w->b, LLVMConstInt(w->i1, i < f->nargs || i == f->vararg - 1, 0), w->bound[i]);
        }
    for (int i = 0; i < f->nargs; i++)
        LLVMBuildStore(w->b, kj_cast(w, LLVMGetParam(w->fn, (unsigned)i + 1), in->args[i],
                                     f->locals[i].type), w->slots[i]);
    kj_nrt_function_begin(w);
    kj_lower_block(w, &f->body);
    if (!kj_terminated(w)) {
        if (in->ret->kind == KJ_T_NONE || in->ret->kind == KJ_T_OPTIONAL)
            LLVMBuildStore(w->b, kj_cast(w, LLVMConstInt(w->i8, 0, 0), kj_none(), in->ret), w->ret_ptr);
        kj_nrt_ret(w, LLVMConstInt(w->i32, 0, 0));
    }
    kj_nrt_function_end(w);
    /* blocks left open after a return or raise are unreachable */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(w->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (!LLVMGetBasicBlockTerminator(bb)) {
            LLVMPositionBuilderAtEnd(w->b, bb);
            LLVMBuildUnreachable(w->b);
        }
    free(w->slots);
    w->slots = NULL;
    free(w->bound);
    w->bound = NULL;
    if (u->target->finish_function)
        u->target->finish_function(u->target, u->mod, w->fn, KJ_FN_INTERNAL);
}

/* Argument `i` of an entry: args[i] points at it, laid out as its LLVM type. */
static LLVMValueRef entry_arg(kj_lw *w, LLVMValueRef args, int i, const kj_type *t) {
    LLVMValueRef slot = LLVMBuildGEP2(w->b, w->ptr, args, (LLVMValueRef[]){LLVMConstInt(w->i64, (unsigned)i, 0)}, 1, "");
    return LLVMBuildLoad2(w->b, kj_lltype(w, t), LLVMBuildLoad2(w->b, w->ptr, slot, ""), "");
}

/* The entry the dispatcher calls: i32 entry(ptr ret, ptr args), where
 * args[i] points at argument i laid out as its LLVM type. The arguments a
 * *args parameter collects arrive one by one (the dispatcher types each)
 * and are packed into its tuple here. */
static void define_entry(kj_unit *u, kj_instance *in, kj_lw *w) {
    char name[160];
    snprintf(name, sizeof name, "%s_entry", in->symbol);
    LLVMTypeRef ft = LLVMFunctionType(w->i32, (LLVMTypeRef[]){w->ptr, w->ptr}, 2, 0);
    LLVMValueRef fn = LLVMAddFunction(u->mod, name, ft);
    set_cpu_attributes(u, fn);
    set_fp_math_attributes(fn, in->opts.fastmath);
    /* inlined before the optimizer's function passes, so the body is
     * optimized once (inside the entry) rather than twice */
    unsigned kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(in->llfn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(w->ctx, kind, 0));
    LLVMBuilderRef b = w->b;
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    LLVMSetCurrentDebugLocation2(b, NULL);
    int n = in->f->nargs;
    LLVMValueRef args[n + 1];
    LLVMTypeRef tys[n + 1];
    args[0] = LLVMGetParam(fn, 0);
    tys[0] = w->ptr;
    for (int i = 0, flat = 0; i < n; i++) {
        const kj_type *t = in->args[i];
        tys[i + 1] = kj_lltype(w, t);
        if (in->f->vararg != i + 1) {
            args[i + 1] = entry_arg(w, LLVMGetParam(fn, 1), flat++, t);
            continue;
        }
        args[i + 1] = LLVMGetUndef(tys[i + 1]);
        for (int j = 0; j < t->n; j++)
            args[i + 1] = LLVMBuildInsertValue(b, args[i + 1], entry_arg(w, LLVMGetParam(fn, 1), flat++, t->elems[j]),
                                               (unsigned)j, "");
    }
    LLVMValueRef st = LLVMBuildCall2(b, LLVMGlobalGetValueType(in->llfn), in->llfn, args,
                                     (unsigned)n + 1, "");
    LLVMBuildRet(b, st);
    if (u->target->finish_function)
        u->target->finish_function(u->target, u->mod, fn, KJ_FN_ENTRY);
}

void kj_lw_init(kj_lw *w, kj_unit *u) {
    *w = (kj_lw){.u = u, .ctx = u->ctx, .mod = u->mod};
    w->i1 = LLVMInt1TypeInContext(u->ctx);
    w->i8 = LLVMInt8TypeInContext(u->ctx);
    w->i32 = LLVMInt32TypeInContext(u->ctx);
    w->i64 = LLVMInt64TypeInContext(u->ctx);
    w->f32 = LLVMFloatTypeInContext(u->ctx);
    w->f64 = LLVMDoubleTypeInContext(u->ctx);
    w->ptr = LLVMPointerTypeInContext(u->ctx, 0);
    w->vd = LLVMVoidTypeInContext(u->ctx);
}

int kj_lower_unit(kj_unit *u) {
    kj_lw w;
    kj_lw_init(&w, u);
    w.b = LLVMCreateBuilderInContext(u->ctx);
    for (kj_instance *in = u->instances; in; in = in->next)
        declare(u, in, &w);
    for (kj_instance *in = u->instances; in && u->err.kind == KJ_ERR_NONE; in = in->next) {
        u->err_function = in->f;
        define(u, in, &w);
    }
    if (u->err.kind == KJ_ERR_NONE)
        define_entry(u, u->instances, &w);
    LLVMDisposeBuilder(w.b);
    return u->err.kind == KJ_ERR_NONE ? 0 : -1;
}
