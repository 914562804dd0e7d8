/* builtins: the functions compiled code may call that are not kiln
 * functions: Python builtins, math, cmath, random, NumPy's scalar ufuncs and
 * NumPy scalar types as conversions. One table says how each is typed; the
 * lowering follows it. Math functions go to LLVM intrinsics where LLVM can
 * vectorize them, otherwise to the target's library symbol. */
#include "jit/lower/lower_elem.h"
#include "jit/lower/vecmath.h"

#include <stdio.h>
#include <string.h>

typedef enum {
    B_UNARY_FLOAT,   /* float -> float (float32 stays float32) */
    B_BINARY_FLOAT,  /* (float, float) -> float */
    B_FLOAT_TO_INT,  /* floor, ceil, trunc -> int64 */
    B_FLOAT_TO_FLOAT_ROUND, /* np.floor etc: float -> float */
    B_PREDICATE,     /* isnan ... -> bool */
} bkind;

typedef struct {
    const char *name;   /* after the module prefix */
    bkind kind;
    const char *impl;   /* libm name (double), or "llvm.x" for an intrinsic, or a special */
} bfunc;

/* math.* and the NumPy ufuncs that are the same function on scalars. */
static const bfunc math_funcs[] = {
    {"sqrt", B_UNARY_FLOAT, "llvm.sqrt"}, {"fabs", B_UNARY_FLOAT, "llvm.fabs"},
    {"exp", B_UNARY_FLOAT, "exp"}, {"log", B_UNARY_FLOAT, "log"}, {"log10", B_UNARY_FLOAT, "log10"},
    {"log2", B_UNARY_FLOAT, "log2"}, {"log1p", B_UNARY_FLOAT, "log1p"}, {"expm1", B_UNARY_FLOAT, "expm1"},
    {"exp2", B_UNARY_FLOAT, "exp2"}, {"cbrt", B_UNARY_FLOAT, "cbrt"},
    {"sin", B_UNARY_FLOAT, "sin"}, {"cos", B_UNARY_FLOAT, "cos"}, {"tan", B_UNARY_FLOAT, "tan"},
    {"asin", B_UNARY_FLOAT, "asin"}, {"acos", B_UNARY_FLOAT, "acos"}, {"atan", B_UNARY_FLOAT, "atan"},
    {"sinh", B_UNARY_FLOAT, "sinh"}, {"cosh", B_UNARY_FLOAT, "cosh"}, {"tanh", B_UNARY_FLOAT, "tanh"},
    {"asinh", B_UNARY_FLOAT, "asinh"}, {"acosh", B_UNARY_FLOAT, "acosh"}, {"atanh", B_UNARY_FLOAT, "atanh"},
    {"erf", B_UNARY_FLOAT, "erf"}, {"erfc", B_UNARY_FLOAT, "erfc"}, {"gamma", B_UNARY_FLOAT, "tgamma"},
    {"lgamma", B_UNARY_FLOAT, "lgamma"}, {"degrees", B_UNARY_FLOAT, "degrees"},
    {"radians", B_UNARY_FLOAT, "radians"},
    {"atan2", B_BINARY_FLOAT, "atan2"}, {"pow", B_BINARY_FLOAT, "llvm.pow"},
    {"hypot", B_BINARY_FLOAT, "hypot"}, {"copysign", B_BINARY_FLOAT, "llvm.copysign"},
    {"fmod", B_BINARY_FLOAT, "fmod"}, {"remainder", B_BINARY_FLOAT, "remainder"},
    {"floor", B_FLOAT_TO_INT, "llvm.floor"}, {"ceil", B_FLOAT_TO_INT, "llvm.ceil"},
    {"trunc", B_FLOAT_TO_INT, "llvm.trunc"},
    {"isnan", B_PREDICATE, "isnan"}, {"isinf", B_PREDICATE, "isinf"}, {"isfinite", B_PREDICATE, "isfinite"},
};

/* NumPy names of the same scalar functions. */
static const struct { const char *np, *math; } np_alias[] = {
    {"arcsin", "asin"}, {"arccos", "acos"}, {"arctan", "atan"}, {"arcsinh", "asinh"},
    {"arccosh", "acosh"}, {"arctanh", "atanh"}, {"arctan2", "atan2"}, {"power", "pow"},
    {"deg2rad", "radians"}, {"rad2deg", "degrees"}, {"absolute", "abs"}, {"abs", "abs"},
    {"maximum", "max"}, {"minimum", "min"}, {"fmax", "max"}, {"fmin", "min"},
};

static const bfunc *find_math(const char *name) {
    for (size_t i = 0; i < sizeof math_funcs / sizeof math_funcs[0]; i++)
        if (strcmp(math_funcs[i].name, name) == 0)
            return &math_funcs[i];
    return NULL;
}

/* The canonical name of a call: "np.arcsin" -> "math.asin", "np.maximum" -> "max". */
static const char *canonical(const char *name, char *buf, size_t size, bool *np_float_round) {
    *np_float_round = false;
    if (strncmp(name, "np.", 3) != 0)
        return name;
    const char *n = name + 3;
    for (size_t i = 0; i < sizeof np_alias / sizeof np_alias[0]; i++)
        if (strcmp(np_alias[i].np, n) == 0) {
            const char *m = np_alias[i].math;
            if (strcmp(m, "abs") == 0 || strcmp(m, "max") == 0 || strcmp(m, "min") == 0)
                return m;
            snprintf(buf, size, "math.%s", m);
            return buf;
        }
    if (strcmp(n, "floor") == 0 || strcmp(n, "ceil") == 0 || strcmp(n, "trunc") == 0)
        *np_float_round = true;
    snprintf(buf, size, "math.%s", n);
    return buf;
}

static const kj_type *float_result(const kj_type *t) {
    return t->kind == KJ_T_FLOAT && t->bits == 32 ? kj_float(32) : KJ_F64;
}

static bool all_numbers(int n, const kj_type *const *a, bool real_only) {
    for (int i = 0; i < n; i++)
        if (!kj_is_number(a[i]) || (real_only && a[i]->kind == KJ_T_COMPLEX))
            return false;
    return true;
}

const kj_type *kj_builtin_type(const char *name0, int n, const kj_type *const *a, char *why,
                               size_t why_size) {
    char buf[96];
    bool np_round;
    const char *name = canonical(name0, buf, sizeof buf, &np_round);
    if (strncmp(name0, "np.", 3) == 0)
        for (int i = 0; i < n; i++)
            if (a[i]->kind == KJ_T_ARRAY) {
                snprintf(why, why_size, "NumPy functions on whole arrays come in a later version; "
                                        "loop over the elements and call it on each.");
                return NULL;
            }
    if (strncmp(name, "cast:", 5) == 0) {
        const kj_type *t = kj_number_type_named(name + 5);
        return n == 1 && t && kj_is_number(a[0]) ? t : NULL;
    }
    if (strncmp(name, "math.", 5) == 0) {
        const char *m = name + 5;
        if (strcmp(m, "log") == 0 && n == 2 && all_numbers(2, a, true))
            return KJ_F64;
        if ((strcmp(m, "gcd") == 0) && n == 2 && kj_is_intlike(a[0]) && kj_is_intlike(a[1]))
            return KJ_I64;
        if (strcmp(m, "ldexp") == 0 && n == 2 && all_numbers(2, a, true) && kj_is_intlike(a[1]))
            return KJ_F64;
        if (strcmp(m, "modf") == 0 && n == 1 && all_numbers(1, a, true)) {
            const kj_type *e[2] = {KJ_F64, KJ_F64};
            return kj_tuple(2, e);
        }
        if (strcmp(m, "isclose") == 0 && n == 2 && all_numbers(2, a, true))
            return kj_bool();
        if ((!strcmp(m, "factorial") || !strcmp(m, "isqrt")) && n == 1 && kj_is_intlike(a[0]))
            return KJ_I64;
        if ((!strcmp(m, "comb") || !strcmp(m, "perm")) && n == 2 && kj_is_intlike(a[0]) && kj_is_intlike(a[1]))
            return KJ_I64;
        if (!strcmp(m, "frexp") && n == 1 && all_numbers(1, a, true)) {
            const kj_type *e[2] = {KJ_F64, KJ_I64};
            return kj_tuple(2, e);
        }
        if (!strcmp(m, "nextafter") && n == 2 && all_numbers(2, a, true))
            return KJ_F64;
        if (!strcmp(m, "ulp") && n == 1 && all_numbers(1, a, true))
            return KJ_F64;
        const bfunc *f = find_math(m);
        if (!f) {
            snprintf(why, why_size, "This function is not compiled yet; compute it outside and pass the result in.");
            return NULL;
        }
        int arity = f->kind == B_BINARY_FLOAT ? 2 : 1;
        if (n != arity || !all_numbers(n, a, true)) {
            snprintf(why, why_size, "It takes %d real number%s.", arity, arity > 1 ? "s" : "");
            return NULL;
        }
        const kj_type *r = arity == 2 ? float_result(kj_unify(a[0], a[1])) : float_result(a[0]);
        switch (f->kind) {
        case B_FLOAT_TO_INT:
            if (np_round)
                return r;
            return kj_is_intlike(a[0]) ? KJ_I64 : KJ_I64;
        case B_PREDICATE: return kj_bool();
        default: return r;
        }
    }
    if (strncmp(name, "cmath.", 6) == 0) {
        const char *m = name + 6;
        if (n == 1 && all_numbers(1, a, false)) {
            if (!strcmp(m, "sqrt") || !strcmp(m, "exp") || !strcmp(m, "log") || !strcmp(m, "sin") ||
                !strcmp(m, "cos"))
                return kj_complex(128);
            if (!strcmp(m, "phase"))
                return KJ_F64;
            if (!strcmp(m, "polar")) {
                const kj_type *e[2] = {KJ_F64, KJ_F64};
                return kj_tuple(2, e);
            }
            if (!strcmp(m, "isnan") || !strcmp(m, "isinf") || !strcmp(m, "isfinite"))
                return kj_bool();
        }
        if (!strcmp(m, "rect") && n == 2 && all_numbers(2, a, true))
            return kj_complex(128);
        snprintf(why, why_size, "cmath supports sqrt, exp, log, sin, cos, phase, polar, rect, isnan, isinf, isfinite.");
        return NULL;
    }
    if (strncmp(name, "random.", 7) == 0) {
        const char *m = name + 7;
        if (!strcmp(m, "random") && n == 0)
            return KJ_F64;
        if (!strcmp(m, "uniform") && n == 2 && all_numbers(2, a, true))
            return KJ_F64;
        if (!strcmp(m, "randint") && n == 2 && kj_is_intlike(a[0]) && kj_is_intlike(a[1]))
            return KJ_I64;
        if (!strcmp(m, "seed") && n == 1 && kj_is_intlike(a[0]))
            return kj_none();
        snprintf(why, why_size, "Compiled code supports random.random(), uniform(a, b), randint(a, b) and seed(n).");
        return NULL;
    }
    if (!strcmp(name, "abs") && n == 1 && kj_is_number(a[0])) {
        if (a[0]->kind == KJ_T_COMPLEX)
            return kj_float(a[0]->bits / 2);
        return a[0]->kind == KJ_T_BOOL ? KJ_I64 : a[0];
    }
    if ((!strcmp(name, "min") || !strcmp(name, "max"))) {
        if (n >= 2 && all_numbers(n, a, true)) {
            const kj_type *u = NULL;
            for (int i = 0; i < n; i++)
                u = kj_unify(u, a[i]);
            return u;
        }
        snprintf(why, why_size, "min and max take two or more numbers in compiled code.");
        return NULL;
    }
    if (!strcmp(name, "len") && n == 1) {
        if ((a[0]->kind == KJ_T_ARRAY && a[0]->ndim > 0) || a[0]->kind == KJ_T_TUPLE || a[0]->kind == KJ_T_STR)
            return KJ_I64;
        return NULL;
    }
    if (!strcmp(name, "range") || !strcmp(name, "prange")) {   /* prange: parallel.h */
        if (n >= 1 && n <= 3) {
            for (int i = 0; i < n; i++)
                if (!kj_is_intlike(a[i])) {
                    snprintf(why, why_size, "range() takes integers; convert with int().");
                    return NULL;
                }
            return kj_range();
        }
        return NULL;
    }
    if (!strcmp(name, "enumerate") && (n == 1 || (n == 2 && kj_is_intlike(a[1]))) && kj_iter_elem(a[0]))
        return kj_enumerate(a[0]);
    if (!strcmp(name, "reversed") && n == 1 &&
        (a[0]->kind == KJ_T_RANGE || (a[0]->kind == KJ_T_ARRAY && a[0]->ndim > 0) || (a[0]->kind == KJ_T_LIST && a[0]->elem)))
        return kj_reversed(a[0]);
    if (!strcmp(name, "zip") && n >= 1) {
        /* over tuples the loop is unrolled (lower.c), over the others counted:
         * one zip is one or the other */
        int tuples = 0;
        for (int i = 0; i < n; i++)
            tuples += a[i]->kind == KJ_T_TUPLE;
        for (int i = 0; i < n; i++)
            if (!kj_iter_elem(a[i]) || (tuples > 0 && tuples < n)) {
                snprintf(why, why_size, "zip() takes tuples only, or ranges, arrays and lists, in compiled code.");
                return NULL;
            }
        return kj_zip(n, a);
    }
    if (!strcmp(name, "int") && n == 1 && all_numbers(1, a, true))
        return KJ_I64;
    if (!strcmp(name, "float") && n == 1 && all_numbers(1, a, true))
        return KJ_F64;
    if (!strcmp(name, "bool") && n == 1 &&
        (kj_is_number(a[0]) || a[0]->kind == KJ_T_LIST || a[0]->kind == KJ_T_DICT || a[0]->kind == KJ_T_SET))
        return kj_bool();   /* of a container: not empty */
    if (!strcmp(name, "complex") && (n == 1 || n == 2) && all_numbers(n, a, n == 2))
        return kj_complex(128);
    if (!strcmp(name, "round") && all_numbers(n, a, true)) {
        if (n == 1)
            return kj_is_intlike(a[0]) ? KJ_I64 : KJ_I64;
        if (n == 2 && kj_is_intlike(a[1]))
            return kj_is_intlike(a[0]) ? KJ_I64 : float_result(a[0]);
        return NULL;
    }
    if (!strcmp(name, "divmod") && n == 2 && all_numbers(2, a, true)) {
        const kj_type *t = kj_promote(a[0], a[1]);
        const kj_type *e[2] = {t, t};
        return kj_tuple(2, e);
    }
    if (!strcmp(name, "pow") && (n == 2 || n == 3) && all_numbers(n, a, n == 3)) {
        if (n == 3)
            return kj_is_intlike(a[0]) && kj_is_intlike(a[1]) && kj_is_intlike(a[2]) ? KJ_I64 : NULL;
        return kj_promote(a[0], a[1]);
    }
    return NULL;
}

/* ---- lowering ---- */

static LLVMValueRef libm(kj_lw *w, const char *fn, const kj_type *t, int n, LLVMValueRef *args) {
    LLVMTypeRef ft = kj_lltype(w, t);
    const kj_target *tg = w->u->target;
    const char *sym = tg->math_symbol ? tg->math_symbol(tg, fn, t->bits) : NULL;
    if (!sym) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, 0, 0, NULL, "%s is not available on the %s target", fn,
                tg->name);
        return LLVMGetUndef(ft);
    }
    LLVMTypeRef tys[2] = {ft, ft};
    LLVMValueRef call = kj_call(w, sym, ft, n, tys, args);
    /* math.cos(x) in a loop widens to libmvec's cos as np.cos of an array
     * does; without it the call, which LLVM takes to write errno, kept the
     * loop scalar */
    kj_np_vector_variants(w, call, fn, t->bits, n);
    return kj_fm(w, call);
}

static LLVMValueRef intrinsic(kj_lw *w, const char *name, const kj_type *t, int n, LLVMValueRef *args) {
    return kj_fm(w, kj_call_intrinsic(w, name, kj_lltype(w, t), n, args));
}

static LLVMValueRef fconst(kj_lw *w, const kj_type *t, double v) { return LLVMConstReal(kj_lltype(w, t), v); }

static LLVMValueRef lower_math(kj_lw *w, const bfunc *f, const kj_type *ft, LLVMValueRef *x, bool np_round) {
    LLVMBuilderRef b = w->b;
    switch (f->kind) {
    case B_FLOAT_TO_INT: {
        LLVMValueRef r = intrinsic(w, f->impl, ft, 1, x);
        return np_round ? r : LLVMBuildFPToSI(b, r, w->i64, "");
    }
    case B_PREDICATE: {
        if (!strcmp(f->name, "isnan"))
            return LLVMBuildFCmp(b, LLVMRealUNO, x[0], x[0], "");
        LLVMValueRef a = intrinsic(w, "llvm.fabs", ft, 1, x);
        LLVMValueRef inf = fconst(w, ft, 1.0 / 0.0);
        if (!strcmp(f->name, "isinf"))
            return LLVMBuildFCmp(b, LLVMRealOEQ, a, inf, "");
        return LLVMBuildFCmp(b, LLVMRealOLT, a, inf, "");
    }
    default: break;
    }
    if (!strcmp(f->impl, "degrees"))
        return kj_fm(w, LLVMBuildFMul(b, x[0], fconst(w, ft, 57.29577951308232), ""));
    if (!strcmp(f->impl, "radians"))
        return kj_fm(w, LLVMBuildFMul(b, x[0], fconst(w, ft, 0.017453292519943295), ""));
    if (!strcmp(f->impl, "fmod"))
        return kj_fm(w, LLVMBuildFRem(b, x[0], x[1], ""));
    if (!strncmp(f->impl, "llvm.", 5))
        return intrinsic(w, f->impl, ft, f->kind == B_BINARY_FLOAT ? 2 : 1, x);
    return libm(w, f->impl, ft, f->kind == B_BINARY_FLOAT ? 2 : 1, x);
}

static LLVMValueRef cplx(kj_lw *w, LLVMValueRef re, LLVMValueRef im) {
    LLVMValueRef z = LLVMGetUndef(kj_lltype(w, kj_complex(128)));
    z = LLVMBuildInsertValue(w->b, z, re, 0, "");
    return LLVMBuildInsertValue(w->b, z, im, 1, "");
}

static LLVMValueRef lower_cmath(kj_lw *w, const char *m, LLVMValueRef *args, const kj_type *const *at) {
    LLVMBuilderRef b = w->b;
    const kj_type *d = KJ_F64;
    if (!strcmp(m, "rect")) {
        LLVMValueRef r = kj_cast(w, args[0], at[0], d), phi = kj_cast(w, args[1], at[1], d);
        return cplx(w, kj_fm(w, LLVMBuildFMul(b, r, libm(w, "cos", d, 1, &phi), "")),
                    kj_fm(w, LLVMBuildFMul(b, r, libm(w, "sin", d, 1, &phi), "")));
    }
    LLVMValueRef z = kj_cast(w, args[0], at[0], kj_complex(128));
    LLVMValueRef x = LLVMBuildExtractValue(b, z, 0, ""), y = LLVMBuildExtractValue(b, z, 1, "");
    LLVMValueRef xy[2] = {x, y}, yx[2] = {y, x};
    LLVMValueRef zero = fconst(w, d, 0.0);
    if (!strcmp(m, "phase"))
        return libm(w, "atan2", d, 2, yx);
    if (!strcmp(m, "polar")) {
        LLVMValueRef t = LLVMGetUndef(kj_lltype(w, kj_tuple(2, (const kj_type *[]){d, d})));
        t = LLVMBuildInsertValue(b, t, libm(w, "hypot", d, 2, xy), 0, "");
        return LLVMBuildInsertValue(b, t, libm(w, "atan2", d, 2, yx), 1, "");
    }
    if (!strcmp(m, "isnan"))
        return LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealUNO, x, x, ""), LLVMBuildFCmp(b, LLVMRealUNO, y, y, ""), "");
    if (!strcmp(m, "isinf") || !strcmp(m, "isfinite")) {
        LLVMValueRef inf = fconst(w, d, 1.0 / 0.0);
        LLVMValueRef ax = intrinsic(w, "llvm.fabs", d, 1, &x), ay = intrinsic(w, "llvm.fabs", d, 1, &y);
        if (!strcmp(m, "isinf"))
            return LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, ax, inf, ""), LLVMBuildFCmp(b, LLVMRealOEQ, ay, inf, ""), "");
        return LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, ax, inf, ""), LLVMBuildFCmp(b, LLVMRealOLT, ay, inf, ""), "");
    }
    if (!strcmp(m, "exp")) {
        LLVMValueRef e = libm(w, "exp", d, 1, &x);
        return cplx(w, kj_fm(w, LLVMBuildFMul(b, e, libm(w, "cos", d, 1, &y), "")),
                    kj_fm(w, LLVMBuildFMul(b, e, libm(w, "sin", d, 1, &y), "")));
    }
    if (!strcmp(m, "log")) {
        LLVMValueRef h = libm(w, "hypot", d, 2, xy);
        return cplx(w, libm(w, "log", d, 1, &h), libm(w, "atan2", d, 2, yx));
    }
    if (!strcmp(m, "sin") || !strcmp(m, "cos")) {
        LLVMValueRef s = libm(w, "sin", d, 1, &x), c = libm(w, "cos", d, 1, &x);
        LLVMValueRef ch = libm(w, "cosh", d, 1, &y), sh = libm(w, "sinh", d, 1, &y);
        if (m[0] == 's')
            return cplx(w, kj_fm(w, LLVMBuildFMul(b, s, ch, "")), kj_fm(w, LLVMBuildFMul(b, c, sh, "")));
        return cplx(w, kj_fm(w, LLVMBuildFMul(b, c, ch, "")),
                    kj_fm(w, LLVMBuildFNeg(b, kj_fm(w, LLVMBuildFMul(b, s, sh, "")), "")));
    }
    /* sqrt: the principal root, from |z| without overflow in the middle */
    LLVMValueRef r = libm(w, "hypot", d, 2, xy);
    LLVMValueRef half = fconst(w, d, 0.5);
    LLVMValueRef ax = intrinsic(w, "llvm.fabs", d, 1, &x);
    LLVMValueRef s0 = kj_fm(w, LLVMBuildFMul(b, kj_fm(w, LLVMBuildFAdd(b, r, ax, "")), half, ""));
    LLVMValueRef t = intrinsic(w, "llvm.sqrt", d, 1, &s0);
    LLVMValueRef t_zero = LLVMBuildFCmp(b, LLVMRealOEQ, t, zero, "");
    LLVMValueRef other = kj_fm(w, LLVMBuildFDiv(b, y, kj_fm(w, LLVMBuildFMul(b, t, fconst(w, d, 2.0), "")), ""));
    other = LLVMBuildSelect(b, t_zero, zero, other, "");
    LLVMValueRef xpos = LLVMBuildFCmp(b, LLVMRealOGE, x, zero, "");
    LLVMValueRef abs_other = intrinsic(w, "llvm.fabs", d, 1, &other);
    LLVMValueRef signed_t = intrinsic(w, "llvm.copysign", d, 2, (LLVMValueRef[]){t, y});
    return cplx(w, LLVMBuildSelect(b, xpos, t, abs_other, ""), LLVMBuildSelect(b, xpos, other, signed_t, ""));
}

/* One step of xoshiro256** on this thread's state, inline (the same
 * generator as kj_rt_random, so random.seed() in compiled code governs both):
 * a uniform double in [0, 1). */
static LLVMValueRef random_double(kj_lw *w) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef st = kj_call(w, "kj_rt_rng_state", w->ptr, 0, NULL, NULL);
    LLVMValueRef decl = LLVMGetNamedFunction(w->mod, "kj_rt_rng_state");
    static const char *attrs[] = {"nounwind", "willreturn", "nofree", "nosync"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i])), 0));
    /* memory(none): the pointer is the same for every call on a thread */
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName("memory", 6), 0));
    LLVMValueRef p[4], s[4];
    for (int i = 0; i < 4; i++) {
        LLVMValueRef idx = LLVMConstInt(w->i64, (unsigned)i, 0);
        p[i] = LLVMBuildGEP2(b, w->i64, st, &idx, 1, "");
        s[i] = LLVMBuildLoad2(b, w->i64, p[i], "");
    }
#define ROTL(x, k) LLVMBuildOr(b, LLVMBuildShl(b, x, LLVMConstInt(w->i64, k, 0), ""), \
                               LLVMBuildLShr(b, x, LLVMConstInt(w->i64, 64 - (k), 0), ""), "")
    LLVMValueRef r = LLVMBuildMul(b, ROTL(LLVMBuildMul(b, s[1], LLVMConstInt(w->i64, 5, 0), ""), 7),
                                  LLVMConstInt(w->i64, 9, 0), "");
    LLVMValueRef t = LLVMBuildShl(b, s[1], LLVMConstInt(w->i64, 17, 0), "");
    s[2] = LLVMBuildXor(b, s[2], s[0], "");
    s[3] = LLVMBuildXor(b, s[3], s[1], "");
    s[1] = LLVMBuildXor(b, s[1], s[2], "");
    s[0] = LLVMBuildXor(b, s[0], s[3], "");
    s[2] = LLVMBuildXor(b, s[2], t, "");
    s[3] = ROTL(s[3], 45);
#undef ROTL
    for (int i = 0; i < 4; i++)
        LLVMBuildStore(b, s[i], p[i]);
    LLVMValueRef top = LLVMBuildUIToFP(b, LLVMBuildLShr(b, r, LLVMConstInt(w->i64, 11, 0), ""), w->f64, "");
    return LLVMBuildFMul(b, top, LLVMConstReal(w->f64, 0x1.0p-53), "random");
}

static LLVMValueRef minmax(kj_lw *w, bool is_max, int n, LLVMValueRef *args, const kj_type *const *at,
                          const kj_type *t) {
    LLVMValueRef r = kj_cast(w, args[0], at[0], t);
    for (int i = 1; i < n; i++) {
        LLVMValueRef v = kj_cast(w, args[i], at[i], t), better;
        if (t->kind == KJ_T_FLOAT)
            better = kj_fm(w, LLVMBuildFCmp(w->b, is_max ? LLVMRealOGT : LLVMRealOLT, v, r, ""));
        else if (t->kind == KJ_T_INT && !t->is_signed)
            better = LLVMBuildICmp(w->b, is_max ? LLVMIntUGT : LLVMIntULT, v, r, "");
        else
            better = LLVMBuildICmp(w->b, is_max ? LLVMIntSGT : LLVMIntSLT, v, r, "");
        r = kj_fm(w, LLVMBuildSelect(w->b, better, v, r, is_max ? "max" : "min"));   /* floats: maxnum under fastmath */
    }
    return r;
}

LLVMValueRef kj_lower_builtin(kj_lw *w, kj_node *n, LLVMValueRef *args) {
    char buf[96];
    bool np_round;
    const char *name = canonical(n->kids[0]->name, buf, sizeof buf, &np_round);
    int na = n->nkids - 1;
    const kj_type *at[na > 0 ? na : 1];
    for (int i = 0; i < na; i++) {
        at[i] = n->kids[i + 1]->type;
        if (at[i]->kind == KJ_T_OPTIONAL) {   /* typed as its value (infer.c) */
            args[i] = kj_cast(w, args[i], at[i], at[i]->elem);
            at[i] = at[i]->elem;
        }
    }
    const kj_type *t = n->type;
    LLVMBuilderRef b = w->b;
    if (!strcmp(name, "bool") && !kj_is_number(at[0]))
        return kj_truth(w, args[0], at[0]);
    if (!strncmp(name, "cast:", 5) || !strcmp(name, "float") || !strcmp(name, "bool") ||
        (!strcmp(name, "int")) || (!strcmp(name, "complex") && na == 1))
        return kj_cast(w, args[0], at[0], t);
    if (!strcmp(name, "complex"))
        return cplx(w, kj_cast(w, args[0], at[0], KJ_F64), kj_cast(w, args[1], at[1], KJ_F64));
    if (!strncmp(name, "math.", 5)) {
        const char *m = name + 5;
        if (!strcmp(m, "log") && na == 2) {
            LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64), base = kj_cast(w, args[1], at[1], KJ_F64);
            return kj_fm(w, LLVMBuildFDiv(b, libm(w, "log", KJ_F64, 1, &x), libm(w, "log", KJ_F64, 1, &base), ""));
        }
        if (!strcmp(m, "gcd")) {
            LLVMValueRef x[2] = {kj_cast(w, args[0], at[0], KJ_I64), kj_cast(w, args[1], at[1], KJ_I64)};
            return kj_call(w, "kj_rt_gcd", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, x);
        }
        if (!strcmp(m, "ldexp"))
            return kj_ldexp(w, n, kj_cast(w, args[0], at[0], KJ_F64), KJ_F64, args[1], at[1]);
        if (!strcmp(m, "modf")) {   /* the fraction keeps x's sign; of inf it is 0.0 */
            LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
            LLVMValueRef ip = intrinsic(w, "llvm.trunc", KJ_F64, 1, &x);
            LLVMValueRef fp = kj_fm(w, LLVMBuildFSub(b, x, ip, ""));
            LLVMValueRef inf = LLVMBuildFCmp(b, LLVMRealOEQ, intrinsic(w, "llvm.fabs", KJ_F64, 1, &x),
                                             LLVMConstReal(w->f64, 1.0 / 0.0), "");
            fp = LLVMBuildSelect(b, inf, LLVMConstReal(w->f64, 0.0), fp, "");
            fp = intrinsic(w, "llvm.copysign", KJ_F64, 2, (LLVMValueRef[]){fp, x});
            LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
            tup = LLVMBuildInsertValue(b, tup, fp, 0, "");
            return LLVMBuildInsertValue(b, tup, ip, 1, "");
        }
        if (!strcmp(m, "factorial") || !strcmp(m, "isqrt") || !strcmp(m, "comb") || !strcmp(m, "perm")) {
            /* exact in 64 bits (wrapping beyond, like all compiled integer arithmetic) */
            LLVMValueRef x[2];
            for (int i = 0; i < na; i++) {
                x[i] = kj_cast(w, args[i], at[i], KJ_I64);
                const char *what = !strcmp(m, "factorial") ? "factorial() not defined for negative values"
                                   : !strcmp(m, "isqrt")   ? "isqrt() argument must be nonnegative"
                                   : i == 0                ? "n must be a non-negative integer"
                                                           : "k must be a non-negative integer";
                kj_raise_if(w, LLVMBuildICmp(b, LLVMIntSLT, x[i], LLVMConstInt(w->i64, 0, 0), ""), PyExc_ValueError, what);
            }
            char sym[32];
            snprintf(sym, sizeof sym, "kj_rt_%s", m);
            return kj_call(w, sym, w->i64, na, (LLVMTypeRef[]){w->i64, w->i64}, x);
        }
        if (!strcmp(m, "frexp")) {
            LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
            LLVMValueRef e = kj_entry_alloca(w, w->i32, "exp");
            LLVMValueRef mant = kj_call(w, "frexp", w->f64, 2, (LLVMTypeRef[]){w->f64, w->ptr}, (LLVMValueRef[]){x, e});
            LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
            tup = LLVMBuildInsertValue(b, tup, mant, 0, "");
            return LLVMBuildInsertValue(b, tup, LLVMBuildSExt(b, LLVMBuildLoad2(b, w->i32, e, ""), w->i64, ""), 1, "");
        }
        if (!strcmp(m, "nextafter")) {
            LLVMValueRef x[2] = {kj_cast(w, args[0], at[0], KJ_F64), kj_cast(w, args[1], at[1], KJ_F64)};
            return libm(w, "nextafter", KJ_F64, 2, x);
        }
        if (!strcmp(m, "ulp")) {   /* the gap from |x| to the next float up */
            LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64);
            LLVMValueRef ax = intrinsic(w, "llvm.fabs", KJ_F64, 1, &x);
            LLVMValueRef up[2] = {ax, fconst(w, KJ_F64, 1.0 / 0.0)};
            LLVMValueRef next = libm(w, "nextafter", KJ_F64, 2, up);
            LLVMValueRef gap = LLVMBuildFSub(b, next, ax, "");
            LLVMValueRef inf = LLVMBuildFCmp(b, LLVMRealOEQ, ax, up[1], "");
            LLVMValueRef max_finite = LLVMBuildFCmp(b, LLVMRealOEQ, next, up[1], "");
            /* ulp(max float) is the gap below it; ulp(inf) is inf; nan stays nan */
            LLVMValueRef down[2] = {ax, fconst(w, KJ_F64, 0.0)};
            LLVMValueRef below = LLVMBuildFSub(b, ax, libm(w, "nextafter", KJ_F64, 2, down), "");
            gap = LLVMBuildSelect(b, max_finite, below, gap, "");
            return LLVMBuildSelect(b, inf, ax, gap, "");
        }
        if (!strcmp(m, "isclose")) {   /* rel_tol=1e-9, abs_tol=0 */
            LLVMValueRef x = kj_cast(w, args[0], at[0], KJ_F64), y = kj_cast(w, args[1], at[1], KJ_F64);
            LLVMValueRef diff = LLVMBuildFSub(b, x, y, "");
            diff = intrinsic(w, "llvm.fabs", KJ_F64, 1, &diff);
            LLVMValueRef ax = intrinsic(w, "llvm.fabs", KJ_F64, 1, &x), ay = intrinsic(w, "llvm.fabs", KJ_F64, 1, &y);
            LLVMValueRef big = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, ax, ay, ""), ax, ay, "");
            LLVMValueRef tol = LLVMBuildFMul(b, big, fconst(w, KJ_F64, 1e-9), "");
            return LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, y, ""), LLVMBuildFCmp(b, LLVMRealOLE, diff, tol, ""), "");
        }
        const bfunc *f = find_math(m);
        const kj_type *ft = na == 2 ? float_result(kj_unify(at[0], at[1])) : float_result(at[0]);
        LLVMValueRef x[2];
        for (int i = 0; i < na && i < 2; i++)
            x[i] = kj_cast(w, args[i], at[i], ft);
        /* floor/ceil/trunc of an int is the int */
        if (f->kind == B_FLOAT_TO_INT && kj_is_intlike(at[0]) && !np_round)
            return kj_cast(w, args[0], at[0], KJ_I64);
        return lower_math(w, f, ft, x, np_round);
    }
    if (!strncmp(name, "cmath.", 6))
        return lower_cmath(w, name + 6, args, at);
    if (!strncmp(name, "random.", 7)) {
        const char *m = name + 7;
        if (!strcmp(m, "random"))
            return random_double(w);
        if (!strcmp(m, "uniform")) {
            LLVMValueRef lo = kj_cast(w, args[0], at[0], KJ_F64), hi = kj_cast(w, args[1], at[1], KJ_F64);
            LLVMValueRef u = random_double(w);
            return LLVMBuildFAdd(b, lo, LLVMBuildFMul(b, LLVMBuildFSub(b, hi, lo, ""), u, ""), "");
        }
        if (!strcmp(m, "randint")) {
            LLVMValueRef lo = kj_cast(w, args[0], at[0], KJ_I64), hi = kj_cast(w, args[1], at[1], KJ_I64);
            kj_raise_if(w, LLVMBuildICmp(b, LLVMIntSLT, hi, lo, ""), PyExc_ValueError, "empty range for randint()");
            return kj_call(w, "kj_rt_randint", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){lo, hi});
        }
        LLVMValueRef s = kj_cast(w, args[0], at[0], KJ_I64);
        kj_call(w, "kj_rt_seed", w->vd, 1, (LLVMTypeRef[]){w->i64}, &s);
        return LLVMConstInt(w->i8, 0, 0);
    }
    if (!strcmp(name, "abs")) {
        const kj_type *a = at[0];
        if (a->kind == KJ_T_COMPLEX) {
            const kj_type *ft = kj_float(a->bits / 2);
            LLVMValueRef xy[2] = {LLVMBuildExtractValue(b, args[0], 0, ""), LLVMBuildExtractValue(b, args[0], 1, "")};
            return libm(w, "hypot", ft, 2, xy);
        }
        LLVMValueRef x = kj_cast(w, args[0], a, t);
        if (t->kind == KJ_T_FLOAT)
            return intrinsic(w, "llvm.fabs", t, 1, &x);
        if (!t->is_signed)
            return x;
        LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
        return LLVMBuildSelect(b, neg, LLVMBuildNeg(b, x, ""), x, "abs");
    }
    if (!strcmp(name, "min") || !strcmp(name, "max"))
        return minmax(w, name[1] == 'a', na, args, at, t);
    if (!strcmp(name, "len")) {
        if (at[0]->kind == KJ_T_TUPLE)
            return LLVMConstInt(w->i64, (unsigned)at[0]->n, 0);
        if (at[0]->kind == KJ_T_STR)
            return kj_call(w, "kj_str_len", w->i64, 1, (LLVMTypeRef[]){w->ptr}, args);
        return kj_array_len(w, args[0]);
    }
    if (!strcmp(name, "round")) {
        if (kj_is_intlike(at[0]))
            return kj_cast(w, args[0], at[0], KJ_I64);
        const kj_type *ft = at[0];
        if (na == 1) {
            LLVMValueRef r = intrinsic(w, "llvm.roundeven", ft, 1, args);
            return LLVMBuildFPToSI(b, r, w->i64, "");
        }
        LLVMValueRef nd = kj_cast(w, args[1], at[1], ft);
        LLVMValueRef ten = fconst(w, ft, 10.0);
        LLVMValueRef scale = intrinsic(w, "llvm.pow", ft, 2, (LLVMValueRef[]){ten, nd});
        LLVMValueRef y = LLVMBuildFMul(b, args[0], scale, "");
        LLVMValueRef r = intrinsic(w, "llvm.roundeven", ft, 1, &y);
        return LLVMBuildFDiv(b, r, scale, "");
    }
    if (!strcmp(name, "divmod")) {
        const kj_type *e = t->elems[0];
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
    if (!strcmp(name, "pow")) {
        if (na == 3) {
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
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, NULL, "%s cannot be used as a value here", name);
    return LLVMGetUndef(w->i8);
}
