/* np_delete: np.delete(arr, obj) without an axis in compiled code, typing
 * and lowering: arr flattened in C order, without the positions obj names
 * (an int, or a 1-d array of ints, repeated ones deleted once; negative
 * from the end), NumPy's IndexError for one out of range. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *delete_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"arr", "obj", NULL};
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "arr")), *o = kj_np_arg_type(c, kj_np_arg(a, 1, "obj"));
    if (!x || !o)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known))
        FAIL(c, n, "Along an axis, index what to keep: a[:, keep] with keep = np.ones(n, np.bool_), keep[obj] = False.",
             "np.%s takes an array and the positions, without an axis, here", m);
    if (x->kind != KJ_T_ARRAY)
        FAIL(c, n, NULL, "np.delete takes an array, got %s", x->name);
    if (!(kj_is_intlike(o) && o->kind != KJ_T_BOOL) && !(o->kind == KJ_T_ARRAY && o->ndim == 1 && o->elem->kind == KJ_T_INT))
        FAIL(c, n, "Index what to keep with a mask instead: a[~mask].", "np.delete takes an int or a 1-d array of ints, got %s",
             o->name);
    return kj_array(x->elem, 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef lower_delete(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "arr"), *on = kj_np_arg(a, 1, "obj");
    const kj_type *xt = xn->type, *ot = on->type, *et = xt->elem;
    LLVMValueRef x = kj_lower_expr(w, xn), obj = kj_lower_expr(w, on);
    LLVMValueRef line = kj_np_whole_line(w, x, xt), size = kj_np_size(w, x, xt->ndim);
    LLVMTypeRef mt = kj_llmemtype(w, et);
    /* which positions go: one byte each, then how many stay */
    const kj_type *flags_t = kj_array(kj_bool(), 1, KJ_LAYOUT_C, false);
    LLVMValueRef gone = kj_np_alloc(w, flags_t, &size, true), flags = kj_array_field(w, gone, 1, 0);
    LLVMValueRef count = ot->kind == KJ_T_ARRAY ? kj_array_len(w, obj) : c64(w, 1), kept = kj_entry_alloca(w, w->i64, "kept");
    LLVMBuildStore(w->b, size, kept);
    kj_np_loop marking;
    LLVMValueRef j = kj_np_loop_begin(w, &marking, count);
    LLVMValueRef asked = ot->kind == KJ_T_ARRAY ? kj_array_item(w, obj, ot, j) : obj;
    LLVMValueRef k = kj_np_checked_index(w, asked, ot->kind == KJ_T_ARRAY ? ot->elem : ot, size, 0);
    LLVMValueRef flag = LLVMBuildGEP2(w->b, w->i8, flags, &k, 1, "");
    LLVMValueRef was = LLVMBuildZExt(w->b, LLVMBuildLoad2(w->b, w->i8, flag, ""), w->i64, "");
    LLVMBuildStore(w->b, LLVMBuildSub(w->b, LLVMBuildLoad2(w->b, w->i64, kept, ""), LLVMBuildSub(w->b, c64(w, 1), was, ""), ""), kept);
    LLVMBuildStore(w->b, LLVMConstInt(w->i8, 1, 0), flag);
    kj_np_loop_end(w, &marking);
    LLVMValueRef left = LLVMBuildLoad2(w->b, w->i64, kept, "");
    LLVMValueRef out = kj_np_alloc(w, n->type, &left, false), dst = kj_array_field(w, out, 1, 0);
    LLVMValueRef at = kj_entry_alloca(w, w->i64, "at");
    LLVMBuildStore(w->b, c64(w, 0), at);
    kj_np_loop copying;
    LLVMValueRef i = kj_np_loop_begin(w, &copying, size);
    LLVMValueRef stays = LLVMBuildICmp(w->b, LLVMIntEQ, LLVMBuildLoad2(w->b, w->i8, LLVMBuildGEP2(w->b, w->i8, flags, &i, 1, ""), ""),
                                       LLVMConstInt(w->i8, 0, 0), "");
    LLVMBasicBlockRef copy = kj_new_bb(w, "delete.keep"), next = kj_new_bb(w, "delete.next");
    LLVMBuildCondBr(w->b, stays, copy, next);
    LLVMPositionBuilderAtEnd(w->b, copy);
    LLVMValueRef to = LLVMBuildLoad2(w->b, w->i64, at, "");
    LLVMValueRef v = LLVMBuildLoad2(w->b, mt, LLVMBuildGEP2(w->b, mt, line, &i, 1, ""), "");
    LLVMBuildStore(w->b, v, LLVMBuildGEP2(w->b, mt, dst, &to, 1, ""));
    LLVMBuildStore(w->b, LLVMBuildAdd(w->b, to, c64(w, 1), ""), at);
    LLVMBuildBr(w->b, next);
    LLVMPositionBuilderAtEnd(w->b, next);
    kj_np_loop_end(w, &copying);
    return out;
}

KJ_CALLABLE(delete, .name = "np.delete", .targets = KJ_ON_ANY, .np_type = delete_type, .np_lower = lower_delete);
