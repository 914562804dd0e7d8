/* np_reductions: NumPy's reductions called as functions, np.sum(a, axis)
 * and the rest of the names below, one typing for all of them (and for
 * the methods a.sum(axis), but the nan ones) and one lowering
 * (lower_np_reduce.c, with tuples of numbers here). */
#include "jit/numpy/lower_np.h"
#include "jit/core/np_dtype.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* np.<m>(a, axis) / a.<m>(axis): a scalar, or an array with one axis less
 * (cumsum keeps the shape, or flattens without an axis). args: the call's
 * arguments, the array's own among them when `first` is 1 (np.<m>(a)). */
const kj_type *kj_np_reduction_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_type *a, const kj_np_args *args,
                                    int first) {
    static const char *const known[] = {"a", "axis", NULL};
    if (args->npos > first + 1 || !kj_np_only_keywords(args, known + (first ? 0 : 1)))
        FAIL(c, n, "Convert first for another dtype (a.astype(np.float64).sum()); keepdims, out and initial are not supported.",
             "np.%s takes the array and axis here", m);
    kj_node *axis = kj_np_arg(args, first, "axis");
    if (kj_is_number(a) && !axis && (!strcmp(m, "all") || !strcmp(m, "any")))
        return kj_bool();   /* NumPy's all and any of a number: its truth */
    if (a->kind == KJ_T_TUPLE && first) {   /* np.prod(a.shape): the tuple as NumPy's array of it */
        static const char *const of_tuples[] = {"sum", "prod", "min", "max", "amin", "amax", "mean", "all", "any", NULL};
        const kj_type *u = NULL;
        for (int i = 0; i < a->n && (u = kj_unify(u, a->elems[i])); i++)
            ;
        bool known = false;
        for (int i = 0; of_tuples[i]; i++)
            known = known || !strcmp(of_tuples[i], m);
        if (!known || !u || axis || !(kj_is_number(u) || u->kind == KJ_T_BOOL))
            FAIL(c, n, "Make an array of it first: np.array(t).", "np.%s takes a non-empty tuple of numbers and no axis here", m);
        a = kj_array(u, 1, KJ_LAYOUT_C, false);
    }
    if (a->kind != KJ_T_ARRAY)
        FAIL(c, n, NULL, "np.%s needs an array here, got %s", m, a->name);
    if (a->elem->kind == KJ_T_COMPLEX && strcmp(m, "sum") && strcmp(m, "prod") && strcmp(m, "mean") &&
        strncmp(m, "cum", 3))   /* NumPy orders complex numbers by real part, then imaginary: not done yet */
        FAIL(c, n, "Reduce the real parts (a.real) or the magnitudes (np.abs(a)) instead.",
             "np.%s of a complex array is not supported yet", m);
    if (axis) {
        const kj_type *at = kj_np_arg_type(c, axis);
        if (!at)
            return NULL;
        if (!kj_is_intlike(at) && at->kind != KJ_T_NONE)
            FAIL(c, axis, "Reduce along one axis at a time.", "axis must be an integer, got %s", at->name);
        if (at->kind == KJ_T_NONE)
            axis = NULL;
    }
    const char *probe = !strcmp(m, "amin") ? "min" : !strcmp(m, "amax") ? "max" : m;
    char why[300];
    const kj_type *e = kj_np_result_dtype(probe, 1, &a, why, sizeof why);
    if (!e)
        FAIL(c, n, NULL, "np.%s: %s", m, why);
    bool cumulative = !strncmp(m, "cum", 3);
    if (cumulative)
        return kj_array(e, axis ? a->ndim : 1, KJ_LAYOUT_C, false);
    if (!axis || a->ndim == 1)
        return e;
    return kj_array(e, a->ndim - 1, KJ_LAYOUT_C, false);
}

static const kj_type *reduction_call_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    const kj_type *t = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    return t ? kj_np_reduction_type(c, n, m, t, a, 1) : NULL;
}

/* np.sum, prod, min, max, mean, all or any of a tuple of numbers, element
 * after element (the order NumPy adds fewer than eight numbers in), in
 * the result's type. */
static LLVMValueRef tuple_reduce(kj_lw *w, kj_node *n, const char *m, kj_node *arr) {
    const kj_type *tt = arr->type, *rt = n->type;
    LLVMValueRef t = kj_lower_expr(w, arr), acc = NULL;
    bool truth = !strcmp(m, "all") || !strcmp(m, "any");
    const char *op = truth ? (m[1] == 'l' ? "logical_and" : "logical_or")
                     : !strcmp(m, "prod") ? "multiply"
                     : strstr(m, "min") ? "minimum"
                     : strstr(m, "max") ? "maximum" : "add";   /* sum, mean */
    const kj_type *at = !strcmp(m, "mean") && rt->kind != KJ_T_FLOAT ? KJ_F64 : rt;
    for (int i = 0; i < tt->n; i++) {
        LLVMValueRef x = LLVMBuildExtractValue(w->b, t, (unsigned)i, "");
        x = truth ? kj_truth(w, x, tt->elems[i]) : kj_cast(w, x, tt->elems[i], at);
        acc = !acc ? x : kj_np_elem_op(w, n, op, 2, (LLVMValueRef[]){acc, x}, (const kj_type *[]){at, at}, at);
    }
    if (!strcmp(m, "mean"))
        acc = kj_np_elem_op(w, n, "true_divide", 2, (LLVMValueRef[]){acc, LLVMConstReal(kj_lltype(w, at), tt->n)},
                            (const kj_type *[]){at, at}, at);
    return kj_cast(w, acc, at, rt);
}

static LLVMValueRef lower_reduction_call(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    kj_node *arr = kj_np_arg(a, 0, "a");
    if (arr->type->kind == KJ_T_TUPLE)
        return tuple_reduce(w, n, m, arr);
    if (arr->type->kind != KJ_T_ARRAY)   /* all or any of a number */
        return kj_truth(w, kj_lower_expr(w, arr), arr->type);
    return kj_np_lower_reduce(w, n, m, arr, kj_np_arg(a, 1, "axis"));
}

bool kj_np_is_reduction(const char *m) {
    const kj_callable *k = kj_np_callable(m);
    return k && k->np_type == reduction_call_type;
}

#define REDUCTION(id) KJ_NP_FUNCTION(id, reduction_call_type, lower_reduction_call)
REDUCTION(sum);
REDUCTION(prod);
REDUCTION(min);
REDUCTION(max);
REDUCTION(amin);
REDUCTION(amax);
REDUCTION(mean);
REDUCTION(var);
REDUCTION(std);
REDUCTION(argmin);
REDUCTION(argmax);
REDUCTION(all);
REDUCTION(any);
REDUCTION(cumsum);
REDUCTION(cumprod);
REDUCTION(nanmin);
REDUCTION(nanmax);
REDUCTION(nanargmin);
REDUCTION(nanargmax);
