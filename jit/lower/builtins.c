/* builtins: Python's builtins in compiled code, NumPy's scalar types called
 * as conversions, and the way in to every builtin entry (builtins.h): by
 * the name called, through the entry of a NumPy ufunc, or by its module's
 * entry when it has none of its own. */
#include "jit/lower/builtins.h"

#include <stdio.h>
#include <string.h>

bool kj_builtin_numbers(int n, const kj_type *const *a, bool real_only) {
    for (int i = 0; i < n; i++)
        if (!kj_is_number(a[i]) || (real_only && a[i]->kind == KJ_T_COMPLEX))
            return false;
    return true;
}

const kj_type *kj_builtin_float_result(const kj_type *t) {
    return t->kind == KJ_T_FLOAT && t->bits == 32 ? kj_float(32) : KJ_F64;
}

LLVMValueRef kj_builtin_intrinsic(kj_lw *w, const char *name, const kj_type *t, int n, LLVMValueRef *args) {
    return kj_fm(w, kj_call_intrinsic(w, name, kj_lltype(w, t), n, args));
}

LLVMValueRef kj_builtin_complex(kj_lw *w, LLVMValueRef re, LLVMValueRef im) {
    LLVMValueRef z = LLVMGetUndef(kj_lltype(w, kj_complex(128)));
    z = LLVMBuildInsertValue(w->b, z, re, 0, "");
    return LLVMBuildInsertValue(w->b, z, im, 1, "");
}

static const kj_callable *builtin_named(const char *name) {
    const kj_callable *k = name ? kj_callable_named(name) : NULL;
    return k && k->args_type ? k : NULL;
}

/* The entry of a call to `called` (builtins.h), or NULL. A NumPy ufunc of
 * numbers is the builtin its entry names (numpy/ufuncs.h), if any. */
static const kj_callable *builtin_entry(const char *called) {
    if (!strncmp(called, "np.", 3)) {
        const kj_callable *u = kj_np_ufunc(called + 3);
        return u ? builtin_named(u->scalar) : NULL;
    }
    const kj_callable *k = builtin_named(called);
    if (k)
        return k;
    const char *dot = strchr(called, '.');
    char module[128];
    if (!dot || (size_t)(dot - called) + 2 > sizeof module)
        return NULL;
    memcpy(module, called, (size_t)(dot - called) + 1);
    module[dot - called + 1] = '\0';
    return builtin_named(module);
}

/* A NumPy scalar type called as a conversion, spelt "cast:float32" by the
 * front end (globals.c): a type, not a named function, so not an entry. */
static const kj_type *cast_target(const char *called) {
    return strncmp(called, "cast:", 5) == 0 ? kj_number_type_named(called + 5) : NULL;
}

const kj_type *kj_builtin_type(const char *called, int n, const kj_type *const *a, char *why, size_t why_size) {
    if (strncmp(called, "np.", 3) == 0)
        for (int i = 0; i < n; i++)
            if (a[i]->kind == KJ_T_ARRAY) {
                snprintf(why, why_size, "NumPy functions on whole arrays come in a later version; "
                                        "loop over the elements and call it on each.");
                return NULL;
            }
    const kj_type *cast = cast_target(called);
    if (cast)
        return n == 1 && kj_is_number(a[0]) ? cast : NULL;
    const kj_callable *k = builtin_entry(called);
    return k ? k->args_type(k, n, a, why, why_size) : NULL;
}

LLVMValueRef kj_lower_builtin(kj_lw *w, kj_node *n, LLVMValueRef *args) {
    const char *called = n->kids[0]->name;
    int na = n->nkids - 1;
    const kj_type *at[na > 0 ? na : 1];
    for (int i = 0; i < na; i++) {
        at[i] = n->kids[i + 1]->type;
        if (at[i]->kind == KJ_T_OPTIONAL) {   /* typed as its value (infer.c) */
            args[i] = kj_cast(w, args[i], at[i], at[i]->elem);
            at[i] = at[i]->elem;
        }
    }
    if (cast_target(called))
        return kj_cast(w, args[0], at[0], n->type);
    const kj_callable *k = builtin_entry(called);
    if (k && k->args_lower)
        return k->args_lower(w, k, n, args, at);
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, NULL, "%s cannot be used as a value here",
            k ? k->name : called);
    return LLVMGetUndef(w->i8);
}

/* ---- Python's builtins ---- */

static const kj_type *abs_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n != 1 || !kj_is_number(a[0]))
        return NULL;
    if (a[0]->kind == KJ_T_COMPLEX)
        return kj_float(a[0]->bits / 2);
    return a[0]->kind == KJ_T_BOOL ? KJ_I64 : a[0];
}

static LLVMValueRef abs_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    const kj_type *t = n->type;
    if (at[0]->kind == KJ_T_COMPLEX) {
        LLVMValueRef xy[2] = {LLVMBuildExtractValue(b, args[0], 0, ""), LLVMBuildExtractValue(b, args[0], 1, "")};
        return kj_libm(w, n, "hypot", t, 2, xy);
    }
    LLVMValueRef x = kj_cast(w, args[0], at[0], t);
    if (t->kind == KJ_T_FLOAT)
        return kj_builtin_intrinsic(w, "llvm.fabs", t, 1, &x);
    if (!t->is_signed)
        return x;
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
    return LLVMBuildSelect(b, neg, LLVMBuildNeg(b, x, ""), x, "abs");
}
KJ_BUILTIN(builtin_abs, "abs", abs_type, abs_lower, NULL);

static const kj_type *min_max_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    if (n < 2 || !kj_builtin_numbers(n, a, true)) {
        snprintf(why, why_size, "min and max take two or more numbers in compiled code.");
        return NULL;
    }
    const kj_type *u = NULL;
    for (int i = 0; i < n; i++)
        u = kj_unify(u, a[i]);
    return u;
}

static LLVMValueRef min_or_max(kj_lw *w, kj_node *n, LLVMValueRef *args, const kj_type *const *at, bool is_max) {
    const kj_type *t = n->type;
    LLVMValueRef r = kj_cast(w, args[0], at[0], t);
    for (int i = 1; i < n->nkids - 1; i++) {
        LLVMValueRef v = kj_cast(w, args[i], at[i], t), better;
        if (t->kind == KJ_T_FLOAT)
            better = kj_fm(w, LLVMBuildFCmp(w->b, is_max ? LLVMRealOGT : LLVMRealOLT, v, r, ""));
        else if (t->kind == KJ_T_INT && !t->is_signed)
            better = LLVMBuildICmp(w->b, is_max ? LLVMIntUGT : LLVMIntULT, v, r, "");
        else
            better = LLVMBuildICmp(w->b, is_max ? LLVMIntSGT : LLVMIntSLT, v, r, "");
        r = kj_fm(w, LLVMBuildSelect(w->b, better, v, r, is_max ? "max" : "min"));   /* floats: maxnum under fastmath */
    }
    /* Python's min and max of floats keep the first of equals and pass a NaN by its place
     * (min(nan, c) is nan, min(c, nan) is c); LLVM 19's InstCombine merges two such selects,
     * min(c, min(x, c)), into one that loses that (nan for c): frozen, the result is not taken
     * apart. Under fastmath (no NaN) the selects are LLVM's to merge and vectorize. */
    if (t->kind == KJ_T_FLOAT && !(w->inst->opts.fastmath & LLVMFastMathNoNaNs))
        r = LLVMBuildFreeze(w->b, r, "");
    return r;
}

static LLVMValueRef min_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    return min_or_max(w, n, args, at, false);
}

static LLVMValueRef max_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    return min_or_max(w, n, args, at, true);
}
KJ_BUILTIN(builtin_min, "min", min_max_type, min_lower, NULL);
KJ_BUILTIN(builtin_max, "max", min_max_type, max_lower, NULL);

/* Of arrays, tuples, strings and ranges; lists, dicts and sets answer for
 * themselves (kind_ops.h). */
static const kj_type *len_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n == 1 && ((a[0]->kind == KJ_T_ARRAY && a[0]->ndim > 0) || a[0]->kind == KJ_T_TUPLE || a[0]->kind == KJ_T_STR ||
                   a[0]->kind == KJ_T_RANGE))
        return KJ_I64;
    return NULL;
}

static LLVMValueRef len_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    if (at[0]->kind == KJ_T_RANGE) {   /* len(range(a, b, c)): the count a loop over it would take */
        kj_iter it = {0};
        LLVMValueRef count = kj_iter_setup(w, n->kids[1], &it);
        /* past 2**63 - 1 items the count wraps negative; CPython's len() raises */
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, count, LLVMConstInt(w->i64, 0, 0), ""), PyExc_OverflowError,
                    "Python int too large to convert to C ssize_t");
        return count;
    }
    if (at[0]->kind == KJ_T_TUPLE)
        return LLVMConstInt(w->i64, (unsigned)at[0]->n, 0);
    if (at[0]->kind == KJ_T_STR)
        return kj_call(w, "kj_str_len", w->i64, 1, (LLVMTypeRef[]){w->ptr}, args);
    return kj_array_len(w, args[0]);
}
KJ_BUILTIN(builtin_len, "len", len_type, len_lower, NULL);

/* ---- iterables: typed here, lowered by the loop over them (lower.c) ---- */

static const kj_type *range_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    if (n < 1 || n > 3)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!kj_is_intlike(a[i])) {
            snprintf(why, why_size, "range() takes integers; convert with int().");
            return NULL;
        }
    return kj_range();
}
KJ_BUILTIN(builtin_range, "range", range_type, NULL, NULL);
KJ_BUILTIN(builtin_prange, "prange", range_type, NULL, NULL);   /* kiln.prange: parallel.h */

static const kj_type *enumerate_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n != 1 && !(n == 2 && kj_is_intlike(a[1])))
        return NULL;
    return kj_iter_elem(a[0]) || kj_holds_nothing(a[0]) ? kj_enumerate(a[0]) : NULL;
}
KJ_BUILTIN(builtin_enumerate, "enumerate", enumerate_type, NULL, NULL);

static const kj_type *reversed_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n == 1 && (a[0]->kind == KJ_T_RANGE || (a[0]->kind == KJ_T_ARRAY && a[0]->ndim > 0) ||
                   a[0]->kind == KJ_T_LIST))
        return kj_reversed(a[0]);
    return NULL;
}
KJ_BUILTIN(builtin_reversed, "reversed", reversed_type, NULL, NULL);

/* over tuples the loop is unrolled (lower.c), over the others counted: one
 * zip is one or the other */
static const kj_type *zip_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    if (n < 1)
        return NULL;
    int tuples = 0;
    for (int i = 0; i < n; i++)
        tuples += a[i]->kind == KJ_T_TUPLE;
    for (int i = 0; i < n; i++)
        if ((!kj_iter_elem(a[i]) && !kj_holds_nothing(a[i])) || (tuples > 0 && tuples < n)) {
            snprintf(why, why_size, "zip() takes tuples only, or ranges, arrays and lists, in compiled code.");
            return NULL;
        }
    return kj_zip(n, a);
}
KJ_BUILTIN(builtin_zip, "zip", zip_type, NULL, NULL);

/* ---- conversions ---- */

static LLVMValueRef convert_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                  const kj_type *const *at) {
    (void)k;
    if (!kj_is_number(at[0]))   /* bool() of a container: not empty */
        return kj_truth(w, args[0], at[0]);
    return kj_cast(w, args[0], at[0], n->type);
}

static const kj_type *int_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    return n == 1 && kj_builtin_numbers(1, a, true) ? KJ_I64 : NULL;
}
KJ_BUILTIN(builtin_int, "int", int_type, convert_lower, NULL);

static const kj_type *float_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    return n == 1 && kj_builtin_numbers(1, a, true) ? KJ_F64 : NULL;
}
KJ_BUILTIN(builtin_float, "float", float_type, convert_lower, NULL);

static const kj_type *bool_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n == 1 && (kj_is_number(a[0]) || a[0]->kind == KJ_T_LIST || a[0]->kind == KJ_T_DICT || a[0]->kind == KJ_T_SET))
        return kj_bool();
    return NULL;
}
KJ_BUILTIN(builtin_bool, "bool", bool_type, convert_lower, NULL);

static const kj_type *complex_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    return (n == 1 || n == 2) && kj_builtin_numbers(n, a, n == 2) ? kj_complex(128) : NULL;
}

static LLVMValueRef complex_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                  const kj_type *const *at) {
    if (n->nkids - 1 == 1)
        return convert_lower(w, k, n, args, at);
    return kj_builtin_complex(w, kj_cast(w, args[0], at[0], KJ_F64), kj_cast(w, args[1], at[1], KJ_F64));
}
KJ_BUILTIN(builtin_complex, "complex", complex_type, complex_lower, NULL);

/* ---- arithmetic ---- */

static const kj_type *round_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (!kj_builtin_numbers(n, a, true))
        return NULL;
    if (n == 1)
        return KJ_I64;
    if (n == 2 && kj_is_intlike(a[1]))
        return kj_is_intlike(a[0]) ? KJ_I64 : kj_builtin_float_result(a[0]);
    return NULL;
}

/* halves to even, as Python rounds */
static LLVMValueRef round_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    if (kj_is_intlike(at[0]))
        return kj_cast(w, args[0], at[0], KJ_I64);
    const kj_type *ft = at[0];
    if (n->nkids - 1 == 1)
        return LLVMBuildFPToSI(b, kj_builtin_intrinsic(w, "llvm.roundeven", ft, 1, args), w->i64, "");
    LLVMValueRef nd = kj_cast(w, args[1], at[1], ft);
    LLVMValueRef scale = kj_builtin_intrinsic(w, "llvm.pow", ft, 2, (LLVMValueRef[]){LLVMConstReal(kj_lltype(w, ft), 10.0), nd});
    LLVMValueRef y = LLVMBuildFMul(b, args[0], scale, "");
    return LLVMBuildFDiv(b, kj_builtin_intrinsic(w, "llvm.roundeven", ft, 1, &y), scale, "");
}
KJ_BUILTIN(builtin_round, "round", round_type, round_lower, NULL);

static const kj_type *divmod_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if (n != 2 || !kj_builtin_numbers(2, a, true))
        return NULL;
    const kj_type *t = kj_promote(a[0], a[1]);
    const kj_type *e[2] = {t, t};
    return kj_tuple(2, e);
}

static LLVMValueRef divmod_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                 const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    const kj_type *t = n->type, *e = t->elems[0];
    LLVMValueRef x = kj_cast(w, args[0], at[0], e), y = kj_cast(w, args[1], at[1], e);
    /* divmod has its own messages for a zero divisor */
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(y));
    if (e->kind == KJ_T_FLOAT)
        kj_raise_if(w, LLVMBuildFCmp(b, LLVMRealOEQ, y, zero, ""), PyExc_ZeroDivisionError, "float divmod()");
    else
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, y, zero, ""), PyExc_ZeroDivisionError,
                    "integer division or modulo by zero");
    LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
    tup = LLVMBuildInsertValue(b, tup, kj_arith(w, n, KJ_OP_FLOORDIV, x, y, e), 0, "");
    return LLVMBuildInsertValue(b, tup, kj_arith(w, n, KJ_OP_MOD, x, y, e), 1, "");
}
KJ_BUILTIN(builtin_divmod, "divmod", divmod_type, divmod_lower, NULL);

static const kj_type *pow_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)why, (void)why_size;
    if ((n != 2 && n != 3) || !kj_builtin_numbers(n, a, n == 3))
        return NULL;
    if (n == 3)
        return kj_is_intlike(a[0]) && kj_is_intlike(a[1]) && kj_is_intlike(a[2]) ? KJ_I64 : NULL;
    return kj_promote(a[0], a[1]);
}

static LLVMValueRef pow_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    const kj_type *t = n->type;
    if (n->nkids - 1 == 3) {
        LLVMValueRef x[3];
        for (int i = 0; i < 3; i++)
            x[i] = kj_cast(w, args[i], at[i], KJ_I64);
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntEQ, x[2], LLVMConstInt(w->i64, 0, 0), ""), PyExc_ValueError,
                    "pow() 3rd argument cannot be 0");
        kj_raise_if(w, LLVMBuildICmp(b, LLVMIntSLT, x[1], LLVMConstInt(w->i64, 0, 0), ""), PyExc_ValueError,
                    "pow() with a negative exponent and a modulus is not supported in compiled code");
        return kj_call(w, "kj_rt_powmod", w->i64, 3, (LLVMTypeRef[]){w->i64, w->i64, w->i64}, x);
    }
    LLVMValueRef x = kj_cast(w, args[0], at[0], t);
    LLVMValueRef y = kj_cast(w, args[1], at[1], kj_is_intlike(at[1]) && t->kind != KJ_T_FLOAT ? KJ_I64 : t);
    return kj_arith(w, n, KJ_OP_POW, x, y, t);
}
KJ_BUILTIN(builtin_pow, "pow", pow_type, pow_lower, NULL);
