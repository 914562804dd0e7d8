/* cfunc: the C-callable wrapper of a kiln.cfunc (cfunc.h). */
#define PY_SSIZE_T_CLEAN
#include "jit/dispatch/cfunc.h"
#include "jit/lower/lower.h"
#include "jit/lower/pool_region.h"
#include "jit/runtime/runtime.h"

#include <stdio.h>

/* Whether C passes values of t: numbers but complex ones, and bools. */
static bool c_passes(const kj_type *t) { return t->kind == KJ_T_BOOL || t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT; }

/* The C type of t: a bool as a byte, as C's _Bool. */
static LLVMTypeRef c_type(kj_lw *w, const kj_type *t) { return t->kind == KJ_T_BOOL ? w->i8 : kj_lltype(w, t); }

int kj_cfunc_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size) {
    PyObject *flag = PyObject_GetAttrString(top->dispatcher, "_kiln_cfunc");
    int is_cfunc = flag ? PyObject_IsTrue(flag) : 0;
    Py_XDECREF(flag);
    PyErr_Clear();
    if (is_cfunc <= 0)
        return 0;
    kj_function *f = top->f;
    for (int i = 0; i < f->nargs; i++)
        if (!c_passes(top->args[i]))
            return kj_fail(&u->err, KJ_ERR_TYPING, f->first_line, 0, "Pass numbers: ints, floats or bools.",
                           "a cfunc's argument '%s' is %s, which a C caller cannot pass", f->locals[i].name, top->args[i]->name);
    bool returns = top->ret->kind != KJ_T_NONE;
    if (returns && !c_passes(top->ret))
        return kj_fail(&u->err, KJ_ERR_TYPING, f->first_line, 0, "Return a number, or nothing.",
                       "a cfunc returns %s, which C cannot receive", top->ret->name);
    kj_lw w;
    kj_lw_init(&w, u);
    LLVMTypeRef params[f->nargs > 0 ? f->nargs : 1];
    for (int i = 0; i < f->nargs; i++)
        params[i] = c_type(&w, top->args[i]);
    LLVMTypeRef rt = returns ? c_type(&w, top->ret) : w.vd;
    snprintf(entry_name, size, "%s_cfunc", top->symbol);
    LLVMValueRef fn = LLVMAddFunction(u->mod, entry_name, LLVMFunctionType(rt, params, (unsigned)f->nargs, 0));
    kj_copy_codegen_attributes(top->llfn, fn);
    LLVMBuilderRef b = w.b = LLVMCreateBuilderInContext(u->ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(u->ctx, fn, "entry"));
    LLVMValueRef ret_slot = LLVMBuildAlloca(b, kj_lltype(&w, top->ret), "ret");
    LLVMValueRef args[f->nargs + 1];
    args[0] = ret_slot;
    for (int i = 0; i < f->nargs; i++) {
        LLVMValueRef v = LLVMGetParam(fn, (unsigned)i);
        args[i + 1] = top->args[i]->kind == KJ_T_BOOL ? LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(w.i8, 0, 0), "") : v;
    }
    LLVMValueRef st = LLVMBuildCall2(b, LLVMGlobalGetValueType(top->llfn), top->llfn, args, (unsigned)f->nargs + 1, "");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(u->ctx, fn, "ok"), failed = LLVMAppendBasicBlockInContext(u->ctx, fn, "failed");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st, LLVMConstInt(w.i32, 0, 0), ""), ok, failed);
    LLVMPositionBuilderAtEnd(b, failed);
    LLVMValueRef name = LLVMBuildGlobalStringPtr(b, f->qualname, "cfunc.name");
    kj_call(&w, "kj_cfunc_report", w.vd, 1, &w.ptr, &name);
    if (returns)
        LLVMBuildRet(b, LLVMConstNull(rt));
    else
        LLVMBuildRetVoid(b);
    LLVMPositionBuilderAtEnd(b, ok);
    if (LLVMGetNamedFunction(u->mod, "kj_fmt_keep"))   /* strings it kept: a C caller calls again and again */
        kj_call(&w, "kj_fmt_forget_kept", w.vd, 0, NULL, NULL);
    if (returns) {
        LLVMValueRef r = LLVMBuildLoad2(b, kj_lltype(&w, top->ret), ret_slot, "");
        LLVMBuildRet(b, top->ret->kind == KJ_T_BOOL ? LLVMBuildZExt(b, r, w.i8, "") : r);
    } else {
        LLVMBuildRetVoid(b);
    }
    LLVMDisposeBuilder(b);
    return 0;
}
