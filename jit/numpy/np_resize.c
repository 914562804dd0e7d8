/* np_resize: np.resize(a, new_shape) in compiled code, typing and
 * lowering: a new C-ordered array of new_shape (an int or a tuple of ints)
 * filled with a's elements in C order, repeated as often as it takes; an
 * empty a gives zeros, as NumPy's does, and a negative dimension NumPy's
 * ValueError. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *resize_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    static const char *const known[] = {"a", "new_shape", NULL};
    kj_node *shape = kj_np_arg(a, 1, "new_shape");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *st = shape ? kj_np_arg_type(c, shape) : NULL;
    if (!x || !st)
        return NULL;
    int nd = kj_np_shape_ndim(st);
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || x->kind != KJ_T_ARRAY || nd < 0)
        FAIL(c, n, NULL, "np.resize takes an array and a shape (an int or a tuple of ints) here");
    return kj_array(x->elem, nd, KJ_LAYOUT_C, false);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef lower_resize(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *xn = kj_np_arg(a, 0, "a");
    const kj_type *xt = xn->type, *t = n->type, *et = xt->elem;
    LLVMValueRef x = kj_lower_expr(w, xn), shape[KJ_NP_MAXDIM];
    kj_np_shape_arg(w, kj_np_arg(a, 1, "new_shape"), shape);
    LLVMValueRef total = c64(w, 1);
    for (int d = 0; d < t->ndim; d++) {
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, shape[d], c64(w, 0), ""), PyExc_ValueError,
                    "all elements of `new_shape` must be non-negative");
        total = LLVMBuildMul(w->b, total, shape[d], "");
    }
    LLVMValueRef size = kj_np_size(w, x, xt->ndim), empty = LLVMBuildICmp(w->b, LLVMIntEQ, size, c64(w, 0), "");
    LLVMValueRef out = kj_np_alloc(w, t, shape, false), dst = kj_array_field(w, out, 1, 0);
    LLVMTypeRef mt = kj_llmemtype(w, et);
    LLVMBasicBlockRef zeros = kj_new_bb(w, "resize.zeros"), fill = kj_new_bb(w, "resize.fill"), done = kj_new_bb(w, "resize.done");
    LLVMBuildCondBr(w->b, empty, zeros, fill);
    LLVMPositionBuilderAtEnd(w->b, zeros);
    LLVMBuildMemSet(w->b, dst, LLVMConstInt(w->i8, 0, 0), LLVMBuildMul(w->b, total, kj_np_itemsize(w, et), ""), 1);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, fill);
    LLVMValueRef line = kj_np_whole_line(w, x, xt), from = kj_entry_alloca(w, w->i64, "from");
    LLVMBuildStore(w->b, c64(w, 0), from);
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, total), k = LLVMBuildLoad2(w->b, w->i64, from, "");
    LLVMValueRef v = LLVMBuildLoad2(w->b, mt, LLVMBuildGEP2(w->b, mt, line, &k, 1, ""), "");
    LLVMBuildStore(w->b, v, LLVMBuildGEP2(w->b, mt, dst, &i, 1, ""));
    LLVMValueRef next = LLVMBuildAdd(w->b, k, c64(w, 1), "");   /* a's next element, back to its first after its last */
    LLVMBuildStore(w->b, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, next, size, ""), c64(w, 0), next, ""), from);
    kj_np_loop_end(w, &l);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    return out;
}

KJ_CALLABLE(resize, .name = "np.resize", .targets = KJ_ON_ANY, .np_type = resize_type, .np_lower = lower_resize);
