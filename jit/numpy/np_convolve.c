/* np_convolve: typing and lowering of np.convolve(a, v, mode='full') and
 * np.correlate(a, v, mode='valid') of 1-d real arrays, as NumPy computes them: the longer
 * array slides along the shorter one, each output the sum, in order, of
 * the products where they overlap; mode says how far past the ends
 * ('valid': not at all, 'same': half the shorter length, 'full': all of
 * it). convolve reverses v first (swapping the two when v is longer);
 * correlate swaps when v is longer and then reverses its result. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef smax(kj_lw *w, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, x, y, ""), x, y, "");
}

static LLVMValueRef smin(kj_lw *w, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, x, y, ""), x, y, "");
}

/* One side of the product: data, length and byte stride, possibly run
 * backwards (data then at its last element, the stride negated). */
typedef struct {
    LLVMValueRef data, len, stride;
    const kj_type *elem;
} line;

static line line_of(kj_lw *w, LLVMValueRef arr, const kj_type *t) {
    return (line){kj_array_field(w, arr, 1, 0), kj_array_field(w, arr, 2, 0), kj_array_field(w, arr, 3, 0), t->elem};
}

static line reversed(kj_lw *w, line l) {
    LLVMValueRef last = LLVMBuildMul(w->b, LLVMBuildSub(w->b, l.len, c64(w, 1), ""), l.stride, "");
    return (line){LLVMBuildGEP2(w->b, w->i8, l.data, &last, 1, ""), l.len, LLVMBuildNeg(w->b, l.stride, ""), l.elem};
}

/* x or y, by a run-time choice. */
static line choose(kj_lw *w, LLVMValueRef pick_x, line x, line y) {
    return (line){LLVMBuildSelect(w->b, pick_x, x.data, y.data, ""), LLVMBuildSelect(w->b, pick_x, x.len, y.len, ""),
                  LLVMBuildSelect(w->b, pick_x, x.stride, y.stride, ""), x.elem};
}

static LLVMValueRef at(kj_lw *w, line l, LLVMValueRef i, const kj_type *rt) {
    LLVMValueRef off = LLVMBuildMul(w->b, i, l.stride, "");
    return kj_cast(w, kj_np_load(w, LLVMBuildGEP2(w->b, w->i8, l.data, &off, 1, ""), l.elem), l.elem, rt);
}

/* The mode's number (0 valid, 1 same, 2 full) from its constant name:
 * NumPy reads the first letter, in either case (typing checked it). */
static int mode_number(kj_node *mode, int dflt) {
    if (!mode)
        return dflt;
    int c = tolower((unsigned char)mode->str[0]);
    return c == 'v' ? 0 : c == 's' ? 1 : 2;
}

/* out[k] = sum over j of x[k - left + j] * y[j] where both exist (x the
 * longer), j ascending, for the mode's outputs; stored from the end when
 * backwards (an i1, or NULL for never). */
static LLVMValueRef slide(kj_lw *w, kj_node *n, line x, line y, int mode, LLVMValueRef backwards) {
    const kj_type *rt = n->type->elem;
    LLVMTypeRef lt = kj_lltype(w, rt);
    LLVMValueRef n1 = x.len, n2 = y.len;
    LLVMValueRef left = mode == 0 ? c64(w, 0) : mode == 1 ? LLVMBuildSDiv(w->b, n2, c64(w, 2), "") : LLVMBuildSub(w->b, n2, c64(w, 1), "");
    LLVMValueRef len = mode == 0 ? LLVMBuildAdd(w->b, LLVMBuildSub(w->b, n1, n2, ""), c64(w, 1), "")
                       : mode == 1 ? n1 : LLVMBuildSub(w->b, LLVMBuildAdd(w->b, n1, n2, ""), c64(w, 1), "");
    LLVMValueRef out = kj_np_alloc(w, n->type, &len, false), acc = kj_entry_alloca(w, lt, "acc");
    kj_np_loop outer, inner;
    LLVMValueRef k = kj_np_loop_begin(w, &outer, len);
    LLVMValueRef shift = LLVMBuildSub(w->b, k, left, "");   /* x's index for j = 0 */
    LLVMValueRef jlo = smax(w, c64(w, 0), LLVMBuildNeg(w->b, shift, ""));
    LLVMValueRef jhi = smin(w, n2, LLVMBuildSub(w->b, n1, shift, ""));
    LLVMBuildStore(w->b, LLVMConstNull(lt), acc);
    LLVMValueRef t = kj_np_loop_begin(w, &inner, smax(w, c64(w, 0), LLVMBuildSub(w->b, jhi, jlo, "")));
    LLVMValueRef j = LLVMBuildAdd(w->b, jlo, t, "");
    LLVMValueRef prod = kj_np_elem_op(w, n, "multiply", 2, (LLVMValueRef[]){at(w, x, LLVMBuildAdd(w->b, shift, j, ""), rt), at(w, y, j, rt)},
                                      (const kj_type *[]){rt, rt}, rt);
    LLVMValueRef sum = kj_np_elem_op(w, n, "add", 2, (LLVMValueRef[]){LLVMBuildLoad2(w->b, lt, acc, ""), prod},
                                     (const kj_type *[]){rt, rt}, rt);
    LLVMBuildStore(w->b, sum, acc);
    kj_np_loop_keep_scalar(&inner);   /* the products add in order, as NumPy's */
    kj_np_loop_end(w, &inner);
    LLVMValueRef slot = k;
    if (backwards)
        slot = LLVMBuildSelect(w->b, backwards, LLVMBuildSub(w->b, LLVMBuildSub(w->b, len, c64(w, 1), ""), k, ""), k, "");
    kj_np_store_elem(w, kj_np_ptr(w, out, 1, &slot), LLVMBuildLoad2(w->b, lt, acc, ""), rt, rt);
    kj_np_loop_end(w, &outer);
    return out;
}

/* Array node k as a line. The two operands are picked between at run time
 * (the longer slides), so they must share an element type: of different
 * ones, each is first copied in the result's, as NumPy converts them. */
static line operand(kj_lw *w, kj_node *k, const kj_type *rt, const kj_type *other_elem) {
    LLVMValueRef arr = kj_lower_expr(w, k);
    if (k->type->elem == other_elem)
        return line_of(w, arr, k->type);
    const kj_type *ct = kj_array(rt, 1, KJ_LAYOUT_C, false);
    return line_of(w, kj_np_copy(w, arr, k->type, rt), ct);
}

static const kj_type *convolve_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    static const char *const known[] = {"a", "v", "mode", NULL};
    kj_node *mode = kj_np_arg(a, 2, "mode");
    const kj_type *ops[2] = {kj_np_arg_type(c, kj_np_arg(a, 0, "a")), kj_np_arg_type(c, kj_np_arg(a, 1, "v"))};
    if (!ops[0] || !ops[1])
        return NULL;
    bool mode_ok = !mode || (mode->kind == KJ_E_CONST && mode->str && strchr("vsfVSF", mode->str[0]) && mode->str[0]);
    for (int i = 0; i < 2; i++)
        if (ops[i]->kind != KJ_T_ARRAY || ops[i]->ndim != 1 || ops[i]->elem->kind == KJ_T_COMPLEX)
            mode_ok = false;
    if (a->npos > 3 || !kj_np_only_keywords(a, known) || !mode_ok)
        FAIL(c, n, "Write mode as the constant 'valid', 'same' or 'full'.",
             "np.%s takes two 1-d real arrays and a mode here", m);
    char why[300];
    const kj_type *e = kj_np_result_dtype("multiply", 2, ops, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    return kj_array(e, 1, KJ_LAYOUT_C, false);
}

static LLVMValueRef lower_convolve(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *an = kj_np_arg(a, 0, "a"), *vn = kj_np_arg(a, 1, "v");
    bool convolve = m[0] == 'c' && m[2] == 'n';
    int mode = mode_number(kj_np_arg(a, 2, "mode"), convolve ? 2 : 0);
    line x = operand(w, an, n->type->elem, vn->type->elem), y = operand(w, vn, n->type->elem, an->type->elem);
    LLVMValueRef swap = LLVMBuildICmp(w->b, LLVMIntSLT, x.len, y.len, "");
    line longer = choose(w, swap, y, x), shorter = choose(w, swap, x, y);
    if (convolve) {
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, longer.len, c64(w, 0), ""), PyExc_ValueError, "a cannot be empty");
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, shorter.len, c64(w, 0), ""), PyExc_ValueError, "v cannot be empty");
        return slide(w, n, longer, reversed(w, shorter), mode, NULL);
    }
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, x.len, c64(w, 0), ""), PyExc_ValueError, "first array argument cannot be empty");
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, y.len, c64(w, 0), ""), PyExc_ValueError, "second array argument cannot be empty");
    /* swapped, the outputs come out in the reverse order: NumPy reverses them */
    return slide(w, n, longer, shorter, mode, swap);
}

KJ_CALLABLE(convolve, .name = "np.convolve", .targets = KJ_ON_ANY, .np_type = convolve_type, .np_lower = lower_convolve);
KJ_CALLABLE(correlate, .name = "np.correlate", .targets = KJ_ON_ANY, .np_type = convolve_type, .np_lower = lower_convolve);
