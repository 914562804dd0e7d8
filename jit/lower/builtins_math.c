/* builtins_math: math's and cmath's functions in compiled code, and NumPy's
 * floor, ceil and trunc of scalars (builtins.h). Most of math is one table
 * entry each: a function of floats to a float, int or bool, going to an LLVM
 * intrinsic where LLVM can vectorize it, otherwise to the target's libm;
 * the rest have typings and lowerings of their own. */
#include "jit/lower/builtins.h"

#include <stdio.h>
#include <string.h>

typedef enum {
    M_UNARY,       /* float -> float (float32 stays float32) */
    M_BINARY,      /* (float, float) -> float */
    M_TO_INT,      /* math.floor, ceil, trunc -> int64 */
    M_ROUND,       /* np.floor, ceil, trunc of a scalar: float -> float */
    M_PREDICATE,   /* isnan ... -> bool */
} math_kind;

typedef struct {
    math_kind kind;
    const char *impl;   /* libm's name (of the double version), "llvm.x" for an intrinsic, or one lowered here */
} math_func;

static const kj_type *math_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    const math_func *f = k->data;
    int arity = f->kind == M_BINARY ? 2 : 1;
    if (n != arity || !kj_builtin_numbers(n, a, true)) {
        snprintf(why, why_size, "It takes %d real number%s.", arity, arity > 1 ? "s" : "");
        return NULL;
    }
    switch (f->kind) {
    case M_TO_INT: return KJ_I64;
    case M_PREDICATE: return kj_bool();
    default: return kj_builtin_float_result(arity == 2 ? kj_unify(a[0], a[1]) : a[0]);
    }
}

static LLVMValueRef fconst(kj_lw *w, const kj_type *t, double v) { return LLVMConstReal(kj_lltype(w, t), v); }

static LLVMValueRef predicate(kj_lw *w, const char *impl, const kj_type *ft, LLVMValueRef x) {
    LLVMBuilderRef b = w->b;
    if (!strcmp(impl, "isnan"))
        return LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
    LLVMValueRef a = kj_builtin_intrinsic(w, "llvm.fabs", ft, 1, &x);
    LLVMValueRef inf = fconst(w, ft, 1.0 / 0.0);
    return LLVMBuildFCmp(b, !strcmp(impl, "isinf") ? LLVMRealOEQ : LLVMRealOLT, a, inf, "");
}

static LLVMValueRef math_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                               const kj_type *const *at) {
    const math_func *f = k->data;
    LLVMBuilderRef b = w->b;
    int arity = f->kind == M_BINARY ? 2 : 1;
    if (f->kind == M_TO_INT && kj_is_intlike(at[0]))   /* floor/ceil/trunc of an int is the int */
        return kj_cast(w, args[0], at[0], KJ_I64);
    const kj_type *ft = kj_builtin_float_result(arity == 2 ? kj_unify(at[0], at[1]) : at[0]);
    LLVMValueRef x[2];
    for (int i = 0; i < arity; i++)
        x[i] = kj_cast(w, args[i], at[i], ft);
    switch (f->kind) {
    case M_TO_INT: return LLVMBuildFPToSI(b, kj_builtin_intrinsic(w, f->impl, ft, 1, x), w->i64, "");
    case M_ROUND: return kj_builtin_intrinsic(w, f->impl, ft, 1, x);
    case M_PREDICATE: return predicate(w, f->impl, ft, x[0]);
    default: break;
    }
    if (!strcmp(f->impl, "degrees"))
        return kj_fm(w, LLVMBuildFMul(b, x[0], fconst(w, ft, 57.29577951308232), ""));
    if (!strcmp(f->impl, "radians"))
        return kj_fm(w, LLVMBuildFMul(b, x[0], fconst(w, ft, 0.017453292519943295), ""));
    if (!strcmp(f->impl, "fmod"))
        return kj_fm(w, LLVMBuildFRem(b, x[0], x[1], ""));
    if (!strncmp(f->impl, "llvm.", 5))
        return kj_builtin_intrinsic(w, f->impl, ft, arity, x);
    return kj_libm(w, n, f->impl, ft, arity, x);
}

/* One entry of the table: the function called as `called`. */
#define MATH(id, called, kind, impl)                                                               \
    static const math_func math_func_##id = {kind, impl};                                         \
    KJ_BUILTIN(id, called, math_type, math_lower, &math_func_##id)

MATH(math_sqrt, "math.sqrt", M_UNARY, "llvm.sqrt");
MATH(math_fabs, "math.fabs", M_UNARY, "llvm.fabs");
MATH(math_exp, "math.exp", M_UNARY, "exp");
MATH(math_log10, "math.log10", M_UNARY, "log10");
MATH(math_log2, "math.log2", M_UNARY, "log2");
MATH(math_log1p, "math.log1p", M_UNARY, "log1p");
MATH(math_expm1, "math.expm1", M_UNARY, "expm1");
MATH(math_exp2, "math.exp2", M_UNARY, "exp2");
MATH(math_cbrt, "math.cbrt", M_UNARY, "cbrt");
MATH(math_sin, "math.sin", M_UNARY, "sin");
MATH(math_cos, "math.cos", M_UNARY, "cos");
MATH(math_tan, "math.tan", M_UNARY, "tan");
MATH(math_asin, "math.asin", M_UNARY, "asin");
MATH(math_acos, "math.acos", M_UNARY, "acos");
MATH(math_atan, "math.atan", M_UNARY, "atan");
MATH(math_sinh, "math.sinh", M_UNARY, "sinh");
MATH(math_cosh, "math.cosh", M_UNARY, "cosh");
MATH(math_tanh, "math.tanh", M_UNARY, "tanh");
MATH(math_asinh, "math.asinh", M_UNARY, "asinh");
MATH(math_acosh, "math.acosh", M_UNARY, "acosh");
MATH(math_atanh, "math.atanh", M_UNARY, "atanh");
MATH(math_erf, "math.erf", M_UNARY, "erf");
MATH(math_erfc, "math.erfc", M_UNARY, "erfc");
MATH(math_gamma, "math.gamma", M_UNARY, "tgamma");
MATH(math_lgamma, "math.lgamma", M_UNARY, "lgamma");
MATH(math_degrees, "math.degrees", M_UNARY, "degrees");
MATH(math_radians, "math.radians", M_UNARY, "radians");
MATH(math_atan2, "math.atan2", M_BINARY, "atan2");
MATH(math_pow, "math.pow", M_BINARY, "llvm.pow");
MATH(math_hypot, "math.hypot", M_BINARY, "hypot");
MATH(math_copysign, "math.copysign", M_BINARY, "llvm.copysign");
MATH(math_fmod, "math.fmod", M_BINARY, "fmod");
MATH(math_remainder, "math.remainder", M_BINARY, "remainder");
MATH(math_floor, "math.floor", M_TO_INT, "llvm.floor");
MATH(math_ceil, "math.ceil", M_TO_INT, "llvm.ceil");
MATH(math_trunc, "math.trunc", M_TO_INT, "llvm.trunc");
/* np.floor, np.ceil and np.trunc of a number keep a float (their ufunc
 * entries name these: numpy/ufunc_math.c) */
MATH(np_floor, "number:np.floor", M_ROUND, "llvm.floor");
MATH(np_ceil, "number:np.ceil", M_ROUND, "llvm.ceil");
MATH(np_trunc, "number:np.trunc", M_ROUND, "llvm.trunc");
MATH(math_isnan, "math.isnan", M_PREDICATE, "isnan");
MATH(math_isinf, "math.isinf", M_PREDICATE, "isinf");
MATH(math_isfinite, "math.isfinite", M_PREDICATE, "isfinite");

/* math.log(x) is the table's; math.log(x, base) divides two. */
static const math_func log_func = {M_UNARY, "log"};

static const kj_type *log_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    if (n == 2 && kj_builtin_numbers(2, a, true))
        return KJ_F64;
    return math_type(k, n, a, why, why_size);
}

static LLVMValueRef log_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    if (n->nkids - 1 != 2)
        return math_lower(w, k, n, args, at);
    LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64), base = kj_cast(w, args[1], at[1], KJ_F64);
    return kj_fm(w, LLVMBuildFDiv(w->b, kj_libm(w, n, "log", KJ_F64, 1, &x), kj_libm(w, n, "log", KJ_F64, 1, &base), ""));
}
KJ_BUILTIN(math_log, "math.log", log_type, log_lower, &log_func);

/* Whether the n arguments are the `want` real numbers of a function, the
 * ints among them at the places in ints (a bit each); if not, why. */
static bool takes(int n, const kj_type *const *a, int want, unsigned ints, char *why, size_t why_size) {
    bool ok = n == want && kj_builtin_numbers(n, a, true);
    for (int i = 0; ok && i < n; i++)
        ok = !(ints >> i & 1) || kj_is_intlike(a[i]);
    if (!ok)
        snprintf(why, why_size, "It takes %d %s.", want,
                 ints == 0 ? (want > 1 ? "real numbers" : "real number")
                 : ints == (1u << want) - 1 ? (want > 1 ? "integers" : "integer")
                                             : "real numbers, an integer last");
    return ok;
}

static const kj_type *pair_of(const kj_type *x, const kj_type *y) {
    const kj_type *e[2] = {x, y};
    return kj_tuple(2, e);
}

static LLVMValueRef make_pair(kj_lw *w, const kj_type *t, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
    tup = LLVMBuildInsertValue(w->b, tup, x, 0, "");
    return LLVMBuildInsertValue(w->b, tup, y, 1, "");
}

static const kj_type *gcd_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, 3, why, why_size) ? KJ_I64 : NULL;
}

static LLVMValueRef gcd_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k, (void)n;
    LLVMValueRef x[2] = {kj_cast(w, args[0], at[0], KJ_I64), kj_cast(w, args[1], at[1], KJ_I64)};
    return kj_call(w, "kj_rt_gcd", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, x);
}
KJ_BUILTIN(math_gcd, "math.gcd", gcd_type, gcd_lower, NULL);

static const kj_type *ldexp_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, 2, why, why_size) ? KJ_F64 : NULL;
}

static LLVMValueRef ldexp_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    return kj_ldexp(w, n, kj_cast(w, args[0], at[0], KJ_F64), KJ_F64, args[1], at[1]);
}
KJ_BUILTIN(math_ldexp, "math.ldexp", ldexp_type, ldexp_lower, NULL);

static const kj_type *modf_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 1, 0, why, why_size) ? pair_of(KJ_F64, KJ_F64) : NULL;
}

/* the fraction keeps x's sign; of inf it is 0.0 */
static LLVMValueRef modf_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
    LLVMValueRef ip = kj_builtin_intrinsic(w, "llvm.trunc", KJ_F64, 1, &x);
    LLVMValueRef fp = kj_fm(w, LLVMBuildFSub(b, x, ip, ""));
    LLVMValueRef inf = LLVMBuildFCmp(b, LLVMRealOEQ, kj_builtin_intrinsic(w, "llvm.fabs", KJ_F64, 1, &x),
                                     LLVMConstReal(w->f64, 1.0 / 0.0), "");
    fp = LLVMBuildSelect(b, inf, LLVMConstReal(w->f64, 0.0), fp, "");
    fp = kj_builtin_intrinsic(w, "llvm.copysign", KJ_F64, 2, (LLVMValueRef[]){fp, x});
    return make_pair(w, n->type, fp, ip);
}
KJ_BUILTIN(math_modf, "math.modf", modf_type, modf_lower, NULL);

static const kj_type *frexp_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 1, 0, why, why_size) ? pair_of(KJ_F64, KJ_I64) : NULL;
}

static LLVMValueRef frexp_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
    LLVMValueRef e = kj_entry_alloca(w, w->i32, "exp");
    LLVMValueRef mant = kj_call(w, "frexp", w->f64, 2, (LLVMTypeRef[]){w->f64, w->ptr}, (LLVMValueRef[]){x, e});
    return make_pair(w, n->type, mant, LLVMBuildSExt(b, LLVMBuildLoad2(b, w->i32, e, ""), w->i64, ""));
}
KJ_BUILTIN(math_frexp, "math.frexp", frexp_type, frexp_lower, NULL);

/* math.nextafter(x, y) and math.ulp(x): float64 only */
static const kj_type *nextafter_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, 0, why, why_size) ? KJ_F64 : NULL;
}

static const kj_type *ulp_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 1, 0, why, why_size) ? KJ_F64 : NULL;
}

static LLVMValueRef nextafter_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                    const kj_type *const *at) {
    (void)k;
    LLVMValueRef x[2] = {kj_cast(w, args[0], at[0], KJ_F64), kj_cast(w, args[1], at[1], KJ_F64)};
    return kj_libm(w, n, "nextafter", KJ_F64, 2, x);
}
KJ_BUILTIN(math_nextafter, "math.nextafter", nextafter_type, nextafter_lower, NULL);

/* the gap from |x| to the next float up */
static LLVMValueRef ulp_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
    LLVMValueRef ax = kj_builtin_intrinsic(w, "llvm.fabs", KJ_F64, 1, &x);
    LLVMValueRef up[2] = {ax, fconst(w, KJ_F64, 1.0 / 0.0)};
    LLVMValueRef next = kj_libm(w, n, "nextafter", KJ_F64, 2, up);
    LLVMValueRef gap = LLVMBuildFSub(b, next, ax, "");
    LLVMValueRef inf = LLVMBuildFCmp(b, LLVMRealOEQ, ax, up[1], "");
    LLVMValueRef max_finite = LLVMBuildFCmp(b, LLVMRealOEQ, next, up[1], "");
    /* ulp(max float) is the gap below it; ulp(inf) is inf; nan stays nan */
    LLVMValueRef down[2] = {ax, fconst(w, KJ_F64, 0.0)};
    LLVMValueRef below = LLVMBuildFSub(b, ax, kj_libm(w, n, "nextafter", KJ_F64, 2, down), "");
    gap = LLVMBuildSelect(b, max_finite, below, gap, "");
    return LLVMBuildSelect(b, inf, ax, gap, "");
}
KJ_BUILTIN(math_ulp, "math.ulp", ulp_type, ulp_lower, NULL);

static const kj_type *isclose_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, 0, why, why_size) ? kj_bool() : NULL;
}

/* rel_tol=1e-9, abs_tol=0 */
static LLVMValueRef isclose_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                  const kj_type *const *at) {
    (void)k, (void)n;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64), y = kj_cast(w, args[1], at[1], KJ_F64);
    LLVMValueRef diff = LLVMBuildFSub(b, x, y, "");
    diff = kj_builtin_intrinsic(w, "llvm.fabs", KJ_F64, 1, &diff);
    LLVMValueRef ax = kj_builtin_intrinsic(w, "llvm.fabs", KJ_F64, 1, &x);
    LLVMValueRef ay = kj_builtin_intrinsic(w, "llvm.fabs", KJ_F64, 1, &y);
    LLVMValueRef big = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, ax, ay, ""), ax, ay, "");
    LLVMValueRef tol = LLVMBuildFMul(b, big, fconst(w, KJ_F64, 1e-9), "");
    return LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, y, ""), LLVMBuildFCmp(b, LLVMRealOLE, diff, tol, ""), "");
}
KJ_BUILTIN(math_isclose, "math.isclose", isclose_type, isclose_lower, NULL);

/* Integer functions computed by the runtime (kj_rt_factorial ...), exact in
 * 64 bits (wrapping beyond, like all compiled integer arithmetic), raising
 * ValueError for a negative argument as math does. */
typedef struct {
    const char *runtime;
    const char *negative[2];   /* the message for each argument below zero */
} int_func;

static const kj_type *int_func_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    const int_func *f = k->data;
    int arity = f->negative[1] ? 2 : 1;
    return takes(n, a, arity, (1u << arity) - 1, why, why_size) ? KJ_I64 : NULL;
}

static LLVMValueRef int_func_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                   const kj_type *const *at) {
    const int_func *f = k->data;
    int na = n->nkids - 1;
    LLVMValueRef x[2];
    for (int i = 0; i < na; i++) {
        x[i] = kj_cast(w, args[i], at[i], KJ_I64);
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, x[i], LLVMConstInt(w->i64, 0, 0), ""), PyExc_ValueError,
                    f->negative[i]);
    }
    return kj_call(w, f->runtime, w->i64, na, (LLVMTypeRef[]){w->i64, w->i64}, x);
}

static const int_func factorial_func = {"kj_rt_factorial", {"factorial() not defined for negative values"}};
static const int_func isqrt_func = {"kj_rt_isqrt", {"isqrt() argument must be nonnegative"}};
static const int_func comb_func = {"kj_rt_comb", {"n must be a non-negative integer", "k must be a non-negative integer"}};
static const int_func perm_func = {"kj_rt_perm", {"n must be a non-negative integer", "k must be a non-negative integer"}};
KJ_BUILTIN(math_factorial, "math.factorial", int_func_type, int_func_lower, &factorial_func);
KJ_BUILTIN(math_isqrt, "math.isqrt", int_func_type, int_func_lower, &isqrt_func);
KJ_BUILTIN(math_comb, "math.comb", int_func_type, int_func_lower, &comb_func);
KJ_BUILTIN(math_perm, "math.perm", int_func_type, int_func_lower, &perm_func);

/* math's functions without an entry (builtins.h) */
static const kj_type *math_refused(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)n, (void)a;
    snprintf(why, why_size, "This function is not compiled yet; compute it outside and pass the result in.");
    return NULL;
}
KJ_BUILTIN(math_module, "math.", math_refused, NULL, NULL);

/* ---- cmath: every result in complex128 or float64 ---- */

#define CMATH_SUPPORTS "cmath supports sqrt, exp, log, sin, cos, phase, polar, rect, isnan, isinf, isfinite."

/* result, if the arguments are the one number a cmath function takes; or
 * NULL, with cmath's list. */
static const kj_type *cmath_of_one(int n, const kj_type *const *a, const kj_type *result, char *why, size_t why_size) {
    if (n == 1 && kj_builtin_numbers(1, a, false))
        return result;
    snprintf(why, why_size, CMATH_SUPPORTS);
    return NULL;
}

static const kj_type *cmath_complex_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t ws) {
    (void)k;
    return cmath_of_one(n, a, kj_complex(128), why, ws);
}
static const kj_type *cmath_real_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t ws) {
    (void)k;
    return cmath_of_one(n, a, KJ_F64, why, ws);
}
static const kj_type *cmath_pair_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t ws) {
    (void)k;
    return cmath_of_one(n, a, pair_of(KJ_F64, KJ_F64), why, ws);
}
static const kj_type *cmath_predicate_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t ws) {
    (void)k;
    return cmath_of_one(n, a, kj_bool(), why, ws);
}

/* The parts of the argument taken as complex128. */
static void parts(kj_lw *w, LLVMValueRef *args, const kj_type *const *at, LLVMValueRef *x, LLVMValueRef *y) {
    LLVMValueRef z = kj_cast(w, args[0], at[0], kj_complex(128));
    *x = LLVMBuildExtractValue(w->b, z, 0, "");
    *y = LLVMBuildExtractValue(w->b, z, 1, "");
}

static LLVMValueRef phase_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    return kj_libm(w, n, "atan2", KJ_F64, 2, (LLVMValueRef[]){y, x});
}

static LLVMValueRef polar_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    return make_pair(w, n->type, kj_libm(w, n, "hypot", KJ_F64, 2, (LLVMValueRef[]){x, y}),
                     kj_libm(w, n, "atan2", KJ_F64, 2, (LLVMValueRef[]){y, x}));
}

/* isnan and isinf of either part; isfinite of both (data: which) */
static LLVMValueRef cmath_predicate_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                          const kj_type *const *at) {
    (void)n;
    const char *which = k->data;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    LLVMValueRef px = predicate(w, which, KJ_F64, x), py = predicate(w, which, KJ_F64, y);
    return !strcmp(which, "isfinite") ? LLVMBuildAnd(w->b, px, py, "") : LLVMBuildOr(w->b, px, py, "");
}

static LLVMValueRef cmath_exp_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                    const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    LLVMValueRef e = kj_libm(w, n, "exp", KJ_F64, 1, &x);
    return kj_builtin_complex(w, kj_fm(w, LLVMBuildFMul(b, e, kj_libm(w, n, "cos", KJ_F64, 1, &y), "")),
                              kj_fm(w, LLVMBuildFMul(b, e, kj_libm(w, n, "sin", KJ_F64, 1, &y), "")));
}

static LLVMValueRef cmath_log_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                    const kj_type *const *at) {
    (void)k;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    LLVMValueRef h = kj_libm(w, n, "hypot", KJ_F64, 2, (LLVMValueRef[]){x, y});
    return kj_builtin_complex(w, kj_libm(w, n, "log", KJ_F64, 1, &h),
                              kj_libm(w, n, "atan2", KJ_F64, 2, (LLVMValueRef[]){y, x}));
}

/* sin(x+iy) = sin x cosh y + i cos x sinh y; cos(x+iy) = cos x cosh y - i sin x sinh y */
static LLVMValueRef sin_or_cos(kj_lw *w, kj_node *n, LLVMValueRef *args, const kj_type *const *at, bool sine) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    LLVMValueRef s = kj_libm(w, n, "sin", KJ_F64, 1, &x), c = kj_libm(w, n, "cos", KJ_F64, 1, &x);
    LLVMValueRef ch = kj_libm(w, n, "cosh", KJ_F64, 1, &y), sh = kj_libm(w, n, "sinh", KJ_F64, 1, &y);
    if (sine)
        return kj_builtin_complex(w, kj_fm(w, LLVMBuildFMul(b, s, ch, "")), kj_fm(w, LLVMBuildFMul(b, c, sh, "")));
    return kj_builtin_complex(w, kj_fm(w, LLVMBuildFMul(b, c, ch, "")),
                              kj_fm(w, LLVMBuildFNeg(b, kj_fm(w, LLVMBuildFMul(b, s, sh, "")), "")));
}

static LLVMValueRef cmath_sin_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                    const kj_type *const *at) {
    (void)k;
    return sin_or_cos(w, n, args, at, true);
}

static LLVMValueRef cmath_cos_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                    const kj_type *const *at) {
    (void)k;
    return sin_or_cos(w, n, args, at, false);
}

/* the principal root, from |z| without overflow in the middle */
static LLVMValueRef cmath_sqrt_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                     const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    const kj_type *d = KJ_F64;
    LLVMValueRef x, y;
    parts(w, args, at, &x, &y);
    LLVMValueRef zero = fconst(w, d, 0.0);
    LLVMValueRef r = kj_libm(w, n, "hypot", d, 2, (LLVMValueRef[]){x, y});
    LLVMValueRef ax = kj_builtin_intrinsic(w, "llvm.fabs", d, 1, &x);
    LLVMValueRef s0 = kj_fm(w, LLVMBuildFMul(b, kj_fm(w, LLVMBuildFAdd(b, r, ax, "")), fconst(w, d, 0.5), ""));
    LLVMValueRef t = kj_builtin_intrinsic(w, "llvm.sqrt", d, 1, &s0);
    LLVMValueRef t_zero = LLVMBuildFCmp(b, LLVMRealOEQ, t, zero, "");
    LLVMValueRef other = kj_fm(w, LLVMBuildFDiv(b, y, kj_fm(w, LLVMBuildFMul(b, t, fconst(w, d, 2.0), "")), ""));
    other = LLVMBuildSelect(b, t_zero, zero, other, "");
    LLVMValueRef xpos = LLVMBuildFCmp(b, LLVMRealOGE, x, zero, "");
    LLVMValueRef abs_other = kj_builtin_intrinsic(w, "llvm.fabs", d, 1, &other);
    LLVMValueRef signed_t = kj_builtin_intrinsic(w, "llvm.copysign", d, 2, (LLVMValueRef[]){t, y});
    return kj_builtin_complex(w, LLVMBuildSelect(b, xpos, t, abs_other, ""), LLVMBuildSelect(b, xpos, other, signed_t, ""));
}

static const kj_type *rect_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    if (n == 2 && kj_builtin_numbers(2, a, true))
        return kj_complex(128);
    snprintf(why, why_size, CMATH_SUPPORTS);
    return NULL;
}

static LLVMValueRef rect_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k;
    LLVMBuilderRef b = w->b;
    LLVMValueRef r = kj_cast(w, args[0], at[0], KJ_F64), phi = kj_cast(w, args[1], at[1], KJ_F64);
    return kj_builtin_complex(w, kj_fm(w, LLVMBuildFMul(b, r, kj_libm(w, n, "cos", KJ_F64, 1, &phi), "")),
                              kj_fm(w, LLVMBuildFMul(b, r, kj_libm(w, n, "sin", KJ_F64, 1, &phi), "")));
}

static const kj_type *cmath_refused(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)n, (void)a;
    snprintf(why, why_size, CMATH_SUPPORTS);
    return NULL;
}

KJ_BUILTIN(cmath_sqrt, "cmath.sqrt", cmath_complex_type, cmath_sqrt_lower, NULL);
KJ_BUILTIN(cmath_exp, "cmath.exp", cmath_complex_type, cmath_exp_lower, NULL);
KJ_BUILTIN(cmath_log, "cmath.log", cmath_complex_type, cmath_log_lower, NULL);
KJ_BUILTIN(cmath_sin, "cmath.sin", cmath_complex_type, cmath_sin_lower, NULL);
KJ_BUILTIN(cmath_cos, "cmath.cos", cmath_complex_type, cmath_cos_lower, NULL);
KJ_BUILTIN(cmath_phase, "cmath.phase", cmath_real_type, phase_lower, NULL);
KJ_BUILTIN(cmath_polar, "cmath.polar", cmath_pair_type, polar_lower, NULL);
KJ_BUILTIN(cmath_rect, "cmath.rect", rect_type, rect_lower, NULL);
KJ_BUILTIN(cmath_isnan, "cmath.isnan", cmath_predicate_type, cmath_predicate_lower, "isnan");
KJ_BUILTIN(cmath_isinf, "cmath.isinf", cmath_predicate_type, cmath_predicate_lower, "isinf");
KJ_BUILTIN(cmath_isfinite, "cmath.isfinite", cmath_predicate_type, cmath_predicate_lower, "isfinite");
KJ_BUILTIN(cmath_module, "cmath.", cmath_refused, NULL, NULL);
