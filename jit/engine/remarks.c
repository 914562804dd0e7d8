/* remarks: what LLVM says of a compile's loops, kept for the notebook:
 * the loop vectorizer's remarks by source line, and Kiln's own "ordered"
 * remark for a float sum vectorized without reordering its adds. */
#include "jit/engine/engine.h"

#include <stdio.h>
#include <string.h>

/* "file:line:col: message" -> dict {line, kind, message} */
void kj_remarks_on_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    PyObject *list = *(PyObject **)opaque;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSRemark || !list)
        return;
    char *desc = LLVMGetDiagInfoDescription(info);
    const char *msg = desc;
    long line = 0;
    /* skip "file:" then read "line:col: " (the file name may hold ':' only
     * in odd cases; take the last "N:N: " before the message) */
    for (const char *p = desc; *p; p++) {
        long l, c;
        int used = 0;
        if (*p == ':' && sscanf(p, ":%ld:%ld: %n", &l, &c, &used) == 2 && used > 0) {
            line = l;
            msg = p + used;
            break;
        }
    }
    /* the callback sees every pass's remarks once any is enabled: keep the
     * loop vectorizer's, which are the ones the notebook explains */
    /* ...but not "explicitly disabled": Kiln's own hint on a loop it keeps
     * scalar (kj_np_loop_keep_scalar), nothing the user wrote; nor "interleaving
     * is not beneficial", which LLVM also says of a loop it vectorized with
     * interleave count 1 (its "vectorized loop" remark says that already) */
    if ((strncmp(msg, "vectorized loop", 15) != 0 && strncmp(msg, "loop not vectorized", 19) != 0 &&
         strncmp(msg, "the cost-model indicates", 24) != 0) ||
        strstr(msg, "explicitly disabled") || strstr(msg, "interleaving is not beneficial")) {
        LLVMDisposeMessage(desc);
        return;
    }
    const char *kind = strncmp(msg, "vectorized loop", 15) == 0        ? "vectorized"
                       : strncmp(msg, "loop not vectorized:", 20) == 0 ? "analysis"
                                                                       : "missed";
    /* the pipeline runs without the GIL (engine.c) */
    PyGILState_STATE gil = PyGILState_Ensure();
    kj_remark_add(list, line, kind, msg);
    PyGILState_Release(gil);
    LLVMDisposeMessage(desc);
}

/* LLVM says "vectorized loop" of a float sum kept in source order, the
 * same words as for one whose adds were spread over the lanes. The reduce
 * intrinsics of the optimized module tell them apart: one without the
 * reassoc flag adds lane after lane. Each such line gets an "ordered"
 * remark, so that the notebook can say why fastmath=True still runs the
 * loop faster. */
void kj_remarks_add_ordered(LLVMModuleRef mod, PyObject *list) {
    long lines[16];
    int n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
                size_t len;
                const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
                if (strncmp(name, "llvm.vector.reduce.fadd", 23) != 0 &&
                    strncmp(name, "llvm.vector.reduce.fmul", 23) != 0)
                    continue;
                if (LLVMGetFastMathFlags(in) & LLVMFastMathAllowReassoc)
                    continue;
                long line = (long)LLVMGetDebugLocLine(in);
                bool seen = line <= 0;   /* 0: no source line (Kiln's own code) */
                for (int i = 0; i < n; i++)
                    seen |= lines[i] == line;
                if (seen || n == (int)(sizeof lines / sizeof *lines))
                    continue;
                lines[n++] = line;
                kj_remark_add(list, line, "ordered",
                              "floating-point reduction kept in source order: the loop runs in vector "
                              "lanes, but its adds wait for one another (fastmath=True lets them reorder)");
            }
}
