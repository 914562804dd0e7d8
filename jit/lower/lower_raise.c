/* lower_raise: raising from compiled code. An exception is recorded by the
 * runtime (kj_rt_raise) and the function returns a failed status, or, inside
 * a try statement, jumps to its handlers; every raising path goes through
 * kj_unwind. Also the read of the interrupt flag that counted loops poll
 * (lower.c). */
#include "jit/lower/lower.h"
#include "jit/lower/lower_nrt.h"

void kj_raise_message(kj_lw *w, PyObject *cls, LLVMValueRef msg) {
    LLVMValueRef args[2] = {LLVMConstIntToPtr(LLVMConstInt(w->i64, (uintptr_t)cls, 0), w->ptr), msg};
    kj_call(w, "kj_rt_raise", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, args);
    kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "dead"));
}

void kj_raise(kj_lw *w, PyObject *cls, const char *msg) {
    kj_raise_message(w, cls, msg ? LLVMBuildGlobalStringPtr(w->b, msg, "msg") : LLVMConstNull(w->ptr));
}

void kj_reraise(kj_lw *w) {
    LLVMTypeRef pair = LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){w->ptr, w->ptr}, 2, 0);
    LLVMValueRef e = LLVMBuildLoad2(w->b, pair, w->caught, "");
    kj_call(w, "kj_rt_raise", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->ptr},
            (LLVMValueRef[]){LLVMBuildExtractValue(w->b, e, 0, ""), LLVMBuildExtractValue(w->b, e, 1, "")});
    kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "dead"));
}

void kj_unwind(kj_lw *w, LLVMValueRef status) {
    if (w->handler_bb)
        LLVMBuildBr(w->b, w->handler_bb);
    else
        kj_nrt_ret(w, status);
}

void kj_raise_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *msg) {
    LLVMBasicBlockRef bad = kj_new_bb(w, "raise"), ok = kj_new_bb(w, "ok");
    LLVMValueRef expect = kj_call_intrinsic(w, "llvm.expect", w->i1, 2,
                                            (LLVMValueRef[]){cond, LLVMConstInt(w->i1, 0, 0)});
    LLVMBuildCondBr(w->b, expect, bad, ok);
    LLVMPositionBuilderAtEnd(w->b, bad);
    kj_raise(w, cls, msg);
    LLVMBuildUnreachable(w->b);
    LLVMPositionBuilderAtEnd(w->b, ok);
}

void kj_check_status(kj_lw *w, LLVMValueRef status) {
    LLVMBasicBlockRef bad = kj_new_bb(w, "propagate"), ok = kj_new_bb(w, "ok");
    LLVMValueRef failed = LLVMBuildICmp(w->b, LLVMIntNE, status, LLVMConstInt(w->i32, 0, 0), "");
    LLVMBuildCondBr(w->b, failed, bad, ok);
    LLVMPositionBuilderAtEnd(w->b, bad);
    kj_unwind(w, status);
    LLVMPositionBuilderAtEnd(w->b, ok);
}

/* Polls the interrupt flag (set by the SIGINT handler) and raises
 * KeyboardInterrupt when it is set. */
LLVMValueRef kj_interrupt_set(kj_lw *w) {
    LLVMValueRef flag = LLVMGetNamedGlobal(w->mod, "kj_interrupt_flag");
    if (!flag) {
        flag = LLVMAddGlobal(w->mod, w->i32, "kj_interrupt_flag");
        LLVMSetLinkage(flag, LLVMExternalLinkage);
    }
    /* a relaxed atomic load: read anew at every poll (the signal handler
     * writes it), yet no fence and no barrier to other optimizations */
    LLVMValueRef v = LLVMBuildLoad2(w->b, w->i32, flag, "interrupt");
    LLVMSetOrdering(v, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(v, 4);
    return LLVMBuildICmp(w->b, LLVMIntNE, v, LLVMConstInt(w->i32, 0, 0), "");
}

LLVMBasicBlockRef kj_raise_begin(kj_lw *w, LLVMValueRef cond) {
    LLVMBasicBlockRef bad = kj_new_bb(w, "fail"), ok = kj_new_bb(w, "ok");
    LLVMValueRef expect = kj_call_intrinsic(w, "llvm.expect", w->i1, 2, (LLVMValueRef[]){cond, LLVMConstInt(w->i1, 0, 0)});
    LLVMBuildCondBr(w->b, expect, bad, ok);
    LLVMPositionBuilderAtEnd(w->b, bad);
    return ok;
}

void kj_raise_end(kj_lw *w, LLVMBasicBlockRef ok) {
    kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, ok);
}
