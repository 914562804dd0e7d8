/* lower_elem: one element of a NumPy ufunc, with NumPy's semantics
 * rather than Python's: division by zero gives inf/nan (and 0 for
 * integers) instead of raising, maximum/minimum propagate NaN, fmax/fmin
 * ignore it, integer arithmetic wraps at the dtype's width. */
#include "jit/lower/lower_elem.h"
#include "jit/core/np_dtype.h"
#include "jit/lower/vecmath.h"

#include <string.h>

static LLVMValueRef fc(LLVMTypeRef t, double v) { return LLVMConstReal(t, v); }

static int float_bits(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind ? 32 : k == LLVMDoubleTypeKind ? 64 : 0;
}

/* An intrinsic; a math one ("llvm.asin") may widen to libmvec's version. */
static LLVMValueRef intrin(kj_lw *w, const char *name, LLVMTypeRef t, int n, LLVMValueRef *x) {
    LLVMValueRef call = kj_call_intrinsic(w, name, t, n, x);
    kj_np_vector_variants(w, call, name + 5, float_bits(t), n);
    return kj_fm(w, call);
}

/* A libm function through the target: lower_elem.h. */
LLVMValueRef kj_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x) {
    const kj_target *tg = w->u->target;
    const char *sym = tg->math_symbol ? tg->math_symbol(tg, fn, t->bits) : NULL;
    LLVMTypeRef ft = kj_lltype(w, t);
    if (!sym) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL, "%s is not available on the %s target",
                fn, tg->name);
        return LLVMGetUndef(ft);
    }
    LLVMTypeRef tys[2] = {ft, ft};
    LLVMValueRef call = kj_call(w, sym, ft, n, tys, x);
    kj_np_vector_variants(w, call, fn, t->bits, n);
    return kj_fm(w, call);
}

static bool is_float(const kj_type *t) { return t->kind == KJ_T_FLOAT; }
static bool is_signed(const kj_type *t) { return t->kind == KJ_T_INT && t->is_signed; }

/* Python-style floor division and modulo for one float pair, NaN for a
 * zero divisor (npy_divmod). */
static LLVMValueRef float_divmod(kj_lw *w, bool want_mod, LLVMValueRef a, LLVMValueRef b) {
    LLVMBuilderRef bd = w->b;
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ft);
    LLVMValueRef mod = kj_fm(w, LLVMBuildFRem(bd, a, b, ""));
    LLVMValueRef bneg = LLVMBuildFCmp(bd, LLVMRealOLT, b, zero, "");
    LLVMValueRef fix = LLVMBuildAnd(bd, LLVMBuildFCmp(bd, LLVMRealUNE, mod, zero, ""),
                                    LLVMBuildXor(bd, bneg, LLVMBuildFCmp(bd, LLVMRealOLT, mod, zero, ""), ""), "");
    if (want_mod) {
        LLVMValueRef m = LLVMBuildSelect(bd, fix, kj_fm(w, LLVMBuildFAdd(bd, mod, b, "")), mod, "");
        LLVMValueRef sz = kj_call_intrinsic(w, "llvm.copysign", ft, 2, (LLVMValueRef[]){zero, b});
        return LLVMBuildSelect(bd, LLVMBuildFCmp(bd, LLVMRealOEQ, m, zero, ""), sz, m, "");
    }
    /* b == 0: a / b (inf or nan), as NumPy */
    LLVMValueRef div = kj_fm(w, LLVMBuildFDiv(bd, kj_fm(w, LLVMBuildFSub(bd, a, mod, "")), b, ""));
    div = LLVMBuildSelect(bd, fix, kj_fm(w, LLVMBuildFSub(bd, div, fc(ft, 1.0), "")), div, "");
    LLVMValueRef fl = kj_call_intrinsic(w, "llvm.floor", ft, 1, &div);
    LLVMValueRef up = LLVMBuildFCmp(bd, LLVMRealOGT, kj_fm(w, LLVMBuildFSub(bd, div, fl, "")), fc(ft, 0.5), "");
    fl = LLVMBuildSelect(bd, up, kj_fm(w, LLVMBuildFAdd(bd, fl, fc(ft, 1.0), "")), fl, "");
    LLVMValueRef q0 = kj_call_intrinsic(w, "llvm.copysign", ft, 2,
                                        (LLVMValueRef[]){zero, kj_fm(w, LLVMBuildFDiv(bd, a, b, ""))});
    LLVMValueRef q = LLVMBuildSelect(bd, LLVMBuildFCmp(bd, LLVMRealUNE, div, zero, ""), fl, q0, "");
    return LLVMBuildSelect(bd, LLVMBuildFCmp(bd, LLVMRealOEQ, b, zero, ""),
                           kj_fm(w, LLVMBuildFDiv(bd, a, b, "")), q, "");
}

/* Integer floor division / modulo; 0 for a zero divisor (NumPy's answer). */
static LLVMValueRef int_divmod(kj_lw *w, bool want_mod, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    LLVMBuilderRef bd = w->b;
    LLVMTypeRef it = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(it), one = LLVMConstInt(it, 1, 0);
    LLVMValueRef bz = LLVMBuildICmp(bd, LLVMIntEQ, b, zero, "");
    LLVMValueRef sb = LLVMBuildSelect(bd, bz, one, b, "");
    LLVMValueRef r;
    if (!is_signed(t)) {
        r = want_mod ? LLVMBuildURem(bd, a, sb, "") : LLVMBuildUDiv(bd, a, sb, "");
        return LLVMBuildSelect(bd, bz, zero, r, "");
    }
    LLVMValueRef m1 = LLVMBuildICmp(bd, LLVMIntEQ, sb, LLVMConstAllOnes(it), "");
    sb = LLVMBuildSelect(bd, m1, one, sb, "");
    LLVMValueRef q = LLVMBuildSDiv(bd, a, sb, ""), rem = LLVMBuildSRem(bd, a, sb, "");
    LLVMValueRef adj = LLVMBuildAnd(bd, LLVMBuildICmp(bd, LLVMIntNE, rem, zero, ""),
                                    LLVMBuildICmp(bd, LLVMIntSLT, LLVMBuildXor(bd, rem, b, ""), zero, ""), "");
    if (want_mod)
        r = LLVMBuildSelect(bd, m1, zero, LLVMBuildSelect(bd, adj, LLVMBuildAdd(bd, rem, b, ""), rem, ""), "");
    else
        r = LLVMBuildSelect(bd, m1, LLVMBuildNeg(bd, a, ""), LLVMBuildSelect(bd, adj, LLVMBuildSub(bd, q, one, ""), q, ""), "");
    return LLVMBuildSelect(bd, bz, zero, r, "");
}

/* a ** b for integers of type t: wraps; a negative exponent is NumPy's
 * ValueError. */
static LLVMValueRef int_power(kj_lw *w, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    LLVMTypeRef it = LLVMTypeOf(a);
    if (is_signed(t))
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, b, LLVMConstNull(it), ""), PyExc_ValueError,
                    "Integers to negative integer powers are not allowed.");
    LLVMValueRef a64 = LLVMBuildIntCast2(w->b, a, w->i64, is_signed(t), "");
    LLVMValueRef b64 = LLVMBuildIntCast2(w->b, b, w->i64, is_signed(t), "");
    LLVMValueRef r = kj_call(w, "kj_rt_ipow", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){a64, b64});
    return LLVMBuildIntCast2(w->b, r, it, is_signed(t), "");
}

/* |x| of a signed integer, wrapping: the most negative value stays itself,
 * which read as unsigned is its magnitude. */
static LLVMValueRef int_magnitude(kj_lw *w, LLVMValueRef x, const kj_type *t) {
    if (!is_signed(t))
        return x;
    LLVMValueRef neg = LLVMBuildICmp(w->b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
    return LLVMBuildSelect(w->b, neg, LLVMBuildNeg(w->b, x, ""), x, "");
}

/* np.gcd of two integers of type t: Euclid's algorithm on their magnitudes,
 * unsigned, so gcd(-128, 0) of int8 is 128 read as int8 (-128), as NumPy's.
 * It loops in place: at most about 1.5 steps per bit of the type. */
static LLVMValueRef int_gcd(kj_lw *w, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    LLVMBuilderRef bd = w->b;
    LLVMTypeRef it = LLVMTypeOf(a);
    a = int_magnitude(w, a, t);
    b = int_magnitude(w, b, t);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(bd), head = kj_new_bb(w, "gcd"), step = kj_new_bb(w, "gcd.step"),
                      done = kj_new_bb(w, "gcd.done");
    LLVMBuildBr(bd, head);
    LLVMPositionBuilderAtEnd(bd, head);
    LLVMValueRef x = LLVMBuildPhi(bd, it, ""), y = LLVMBuildPhi(bd, it, "");
    LLVMBuildCondBr(bd, LLVMBuildICmp(bd, LLVMIntEQ, y, LLVMConstNull(it), ""), done, step);
    LLVMPositionBuilderAtEnd(bd, step);
    LLVMValueRef r = LLVMBuildURem(bd, x, y, "");
    LLVMBuildBr(bd, head);
    LLVMAddIncoming(x, (LLVMValueRef[]){a, y}, (LLVMBasicBlockRef[]){before, step}, 2);
    LLVMAddIncoming(y, (LLVMValueRef[]){b, r}, (LLVMBasicBlockRef[]){before, step}, 2);
    LLVMPositionBuilderAtEnd(bd, done);
    return x;
}

/* np.lcm: |a| / gcd * |b|, wrapping as NumPy's does, 0 when both are 0. */
static LLVMValueRef int_lcm(kj_lw *w, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    LLVMValueRef g = int_gcd(w, a, b, t), zero = LLVMConstNull(LLVMTypeOf(a));
    LLVMValueRef none = LLVMBuildICmp(w->b, LLVMIntEQ, g, zero, "");
    LLVMValueRef safe = LLVMBuildSelect(w->b, none, LLVMConstInt(LLVMTypeOf(a), 1, 0), g, "");
    LLVMValueRef l = LLVMBuildMul(w->b, LLVMBuildUDiv(w->b, int_magnitude(w, a, t), safe, ""), int_magnitude(w, b, t), "");
    return LLVMBuildSelect(w->b, none, zero, l, "");
}

/* np.reciprocal of an integer, as NumPy computes it (1.0 / x converted
 * back): 1 and -1 keep their value, other values give 0, and 0 gives what
 * the conversion of inf gives on x86: the most negative value for 32 and
 * 64 bits signed, else 0. */
static LLVMValueRef int_reciprocal(kj_lw *w, LLVMValueRef x, const kj_type *t) {
    LLVMTypeRef it = LLVMTypeOf(x);
    LLVMValueRef one = LLVMConstInt(it, 1, 0), minus_one = LLVMConstAllOnes(it);
    LLVMValueRef at_zero = LLVMConstInt(it, is_signed(t) && t->bits >= 32 ? 1ull << (t->bits - 1) : 0, 0);
    LLVMValueRef r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, LLVMConstNull(it), ""), at_zero,
                                     LLVMConstNull(it), "");
    if (is_signed(t))
        r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, minus_one, ""), minus_one, r, "");
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, one, ""), one, r, "");
}

/* np.spacing: the distance from x to the next float away from zero (up
 * for +-0.0, as NumPy's), NaN for inf and NaN. */
static LLVMValueRef float_spacing(kj_lw *w, kj_node *at, LLVMValueRef x, const kj_type *t) {
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMValueRef up = LLVMBuildFCmp(w->b, LLVMRealOGE, x, LLVMConstNull(ft), "");
    LLVMValueRef toward = LLVMBuildSelect(w->b, up, fc(ft, 1.0 / 0.0), fc(ft, -1.0 / 0.0), "");
    LLVMValueRef next = kj_libm(w, at, "nextafter", t, 2, (LLVMValueRef[]){x, toward});
    LLVMValueRef d = LLVMBuildFSub(w->b, next, x, "");
    LLVMValueRef inf = LLVMBuildFCmp(w->b, LLVMRealOEQ, kj_call_intrinsic(w, "llvm.fabs", ft, 1, &x), fc(ft, 1.0 / 0.0), "");
    return LLVMBuildSelect(w->b, inf, fc(ft, 0.0 / 0.0), d, "");
}

LLVMValueRef kj_ldexp(kj_lw *w, kj_node *at, LLVMValueRef x, const kj_type *rt, LLVMValueRef n, const kj_type *nt) {
    const kj_target *tg = w->u->target;
    const char *sym = tg->math_symbol ? tg->math_symbol(tg, "ldexp", rt->bits) : NULL;
    LLVMTypeRef ft = kj_lltype(w, rt);
    if (!sym) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at ? at->line : 0, at ? at->col : 0, NULL,
                "ldexp is not available on the %s target", tg->name);
        return LLVMGetUndef(ft);
    }
    LLVMValueRef e = kj_cast(w, n, nt, KJ_I64);
    LLVMValueRef lo = LLVMConstInt(w->i64, (unsigned long long)INT32_MIN, 1), hi = LLVMConstInt(w->i64, INT32_MAX, 1);
    e = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, e, lo, ""), lo, e, "");
    e = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, e, hi, ""), hi, e, "");
    LLVMValueRef args[2] = {x, LLVMBuildTrunc(w->b, e, w->i32, "")};
    return kj_fm(w, kj_call(w, sym, ft, 2, (LLVMTypeRef[]){ft, w->i32}, args));
}

static LLVMValueRef compare(kj_lw *w, const char *u, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    static const char *names[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    int k = 0;
    while (k < 5 && strcmp(names[k], u) != 0)
        k++;
    if (is_float(t))
        return LLVMBuildFCmp(w->b, fp[k], a, b, "");
    return LLVMBuildICmp(w->b, (is_signed(t) ? sp : up)[k], a, b, "");
}

/* The type both operands of a comparison are converted to: for integers
 * one that holds both exactly (NumPy's value-based casting of constants
 * amounts to that), otherwise NumPy's common type (float32 stays float32). */
static const kj_type *common(const kj_type *a, const kj_type *b) {
    if (kj_is_intlike(a) && kj_is_intlike(b) && a->kind == KJ_T_INT && b->kind == KJ_T_INT) {
        if (a->is_signed == b->is_signed)
            return a->bits >= b->bits ? a : b;
        const kj_type *u = a->is_signed ? b : a, *s = a->is_signed ? a : b;
        if (u->bits < s->bits)
            return s;
        return u->bits < 64 ? kj_int(u->bits * 2, true) : KJ_F64;
    }
    char why[200];
    const kj_type *ops[2] = {a, b};
    const kj_type *t = kj_np_result_dtype("add", 2, ops, why, sizeof why);
    return t ? t : kj_promote(a, b);
}

static LLVMValueRef minmax(kj_lw *w, bool is_max, bool ignore_nan, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    if (is_float(t)) {
        if (ignore_nan)
            return intrin(w, is_max ? "llvm.maxnum" : "llvm.minnum", LLVMTypeOf(a), 2, (LLVMValueRef[]){a, b});
        return intrin(w, is_max ? "llvm.maximum" : "llvm.minimum", LLVMTypeOf(a), 2, (LLVMValueRef[]){a, b});
    }
    LLVMIntPredicate p = is_signed(t) ? (is_max ? LLVMIntSGT : LLVMIntSLT) : (is_max ? LLVMIntUGT : LLVMIntULT);
    if (t->kind == KJ_T_BOOL)
        p = is_max ? LLVMIntUGT : LLVMIntULT;
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, p, a, b, ""), a, b, "");
}

static LLVMValueRef unary_float(kj_lw *w, kj_node *at, const char *u, LLVMValueRef x, const kj_type *t) {
    LLVMTypeRef ft = kj_lltype(w, t);
    static const struct { const char *np, *impl; } table[] = {
        {"sqrt", "llvm.sqrt"}, {"fabs", "llvm.fabs"}, {"absolute", "llvm.fabs"}, {"floor", "llvm.floor"},
        {"ceil", "llvm.ceil"}, {"trunc", "llvm.trunc"}, {"rint", "llvm.rint"}, {"sin", "llvm.sin"},
        {"cos", "llvm.cos"}, {"tan", "llvm.tan"}, {"arcsin", "llvm.asin"}, {"arccos", "llvm.acos"},
        {"arctan", "llvm.atan"}, {"sinh", "llvm.sinh"}, {"cosh", "llvm.cosh"}, {"tanh", "llvm.tanh"}, {"arcsinh", "asinh"},
        {"arccosh", "acosh"}, {"arctanh", "atanh"}, {"exp", "llvm.exp"}, {"exp2", "llvm.exp2"},
        {"expm1", "expm1"}, {"log", "llvm.log"}, {"log1p", "log1p"}, {"log10", "llvm.log10"},
        {"log2", "llvm.log2"}, {"cbrt", "cbrt"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].np, u))
            return !strncmp(table[i].impl, "llvm.", 5) ? intrin(w, table[i].impl, ft, 1, &x)
                                                      : kj_libm(w, at, table[i].impl, t, 1, &x);
    if (!strcmp(u, "deg2rad") || !strcmp(u, "radians"))
        return kj_fm(w, LLVMBuildFMul(w->b, x, fc(ft, 0.017453292519943295), ""));
    if (!strcmp(u, "rad2deg") || !strcmp(u, "degrees"))
        return kj_fm(w, LLVMBuildFMul(w->b, x, fc(ft, 57.29577951308232), ""));
    return NULL;
}

/* ---- complex elements: {real, imag} pairs ---- */

static LLVMValueRef part(kj_lw *w, LLVMValueRef z, unsigned i) { return LLVMBuildExtractValue(w->b, z, i, ""); }

static LLVMValueRef pair(kj_lw *w, const kj_type *t, LLVMValueRef re, LLVMValueRef im) {
    LLVMValueRef z = LLVMBuildInsertValue(w->b, LLVMGetUndef(kj_lltype(w, t)), re, 0, "");
    return LLVMBuildInsertValue(w->b, z, im, 1, "");
}

/* v / s as CPython computes it, or v * (1 / s) as NumPy does. */
static LLVMValueRef scaled(kj_lw *w, LLVMValueRef v, LLVMValueRef s, bool python) {
    if (python)
        return kj_fm(w, LLVMBuildFDiv(w->b, v, s, ""));
    LLVMValueRef inverse = kj_fm(w, LLVMBuildFDiv(w->b, fc(LLVMTypeOf(s), 1.0), s, ""));
    return kj_fm(w, LLVMBuildFMul(w->b, v, inverse, ""));
}

LLVMValueRef kj_complex_divide(kj_lw *w, LLVMValueRef x, LLVMValueRef y, const kj_type *t, bool python) {
    LLVMBuilderRef b = w->b;
#define F(v) kj_fm(w, v)
    LLVMValueRef a = part(w, x, 0), bi = part(w, x, 1), c = part(w, y, 0), d = part(w, y, 1);
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef ac = kj_call_intrinsic(w, "llvm.fabs", ft, 1, &c), ad = kj_call_intrinsic(w, "llvm.fabs", ft, 1, &d);
    LLVMValueRef real_big = LLVMBuildFCmp(b, LLVMRealOGE, ac, ad, "");
    /* |c| >= |d|: r = d/c, s = c + d r, ((a + b r) / s, (b - a r) / s) */
    LLVMValueRef r1 = F(LLVMBuildFDiv(b, d, c, ""));
    LLVMValueRef s1 = F(LLVMBuildFAdd(b, c, F(LLVMBuildFMul(b, d, r1, "")), ""));
    LLVMValueRef re1 = scaled(w, F(LLVMBuildFAdd(b, a, F(LLVMBuildFMul(b, bi, r1, "")), "")), s1, python);
    LLVMValueRef im1 = scaled(w, F(LLVMBuildFSub(b, bi, F(LLVMBuildFMul(b, a, r1, "")), "")), s1, python);
    /* both parts zero: (a/|c|, b/|c|), inf or nan as IEEE division gives */
    LLVMValueRef zero = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, ac, LLVMConstNull(ft), ""),
                                     LLVMBuildFCmp(b, LLVMRealOEQ, ad, LLVMConstNull(ft), ""), "");
    re1 = LLVMBuildSelect(b, zero, F(LLVMBuildFDiv(b, a, ac, "")), re1, "");
    im1 = LLVMBuildSelect(b, zero, F(LLVMBuildFDiv(b, bi, ac, "")), im1, "");
    /* |d| > |c|: r = c/d, s = d + c r, ((a r + b) / s, (b r - a) / s) */
    LLVMValueRef r2 = F(LLVMBuildFDiv(b, c, d, ""));
    LLVMValueRef s2 = F(LLVMBuildFAdd(b, d, F(LLVMBuildFMul(b, c, r2, "")), ""));
    LLVMValueRef re2 = scaled(w, F(LLVMBuildFAdd(b, F(LLVMBuildFMul(b, a, r2, "")), bi, "")), s2, python);
    LLVMValueRef im2 = scaled(w, F(LLVMBuildFSub(b, F(LLVMBuildFMul(b, bi, r2, "")), a, "")), s2, python);
#undef F
    return pair(w, t, LLVMBuildSelect(b, real_big, re1, re2, ""), LLVMBuildSelect(b, real_big, im1, im2, ""));
}

/* np.sqrt, np.exp... of a complex number: C99's csqrt, cexp... from the C
 * library, which NumPy's own complex math calls where the system has them
 * (glibc does; for integer powers NumPy multiplies instead, which agrees
 * to rounding; z**2 and z**3 are multiplied here too). The x86-64 C calling convention passes a double complex
 * as two doubles and returns it in two registers, a float complex packed
 * in one: LLVM's {double, double} (double, double) and <2 x float>
 * (<2 x float>). NULL for another function or machine. */
static LLVMValueRef complex_libm(kj_lw *w, const char *u, int n, LLVMValueRef *z, const kj_type *t) {
    static const struct { const char *np, *c; int n; } table[] = {
        {"sqrt", "csqrt", 1}, {"exp", "cexp", 1}, {"log", "clog", 1}, {"sin", "csin", 1}, {"cos", "ccos", 1},
        {"tan", "ctan", 1}, {"sinh", "csinh", 1}, {"cosh", "ccosh", 1}, {"tanh", "ctanh", 1},
        {"arcsin", "casin", 1}, {"arccos", "cacos", 1}, {"arctan", "catan", 1}, {"arcsinh", "casinh", 1},
        {"arccosh", "cacosh", 1}, {"arctanh", "catanh", 1}, {"power", "cpow", 2},
    };
    const kj_target *tg = w->u->target;
    if (strcmp(tg->name, "cpu") != 0 || strncmp(tg->triple(tg), "x86_64", 6) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].np, u) != 0 || table[i].n != n)
            continue;
        const char *sym = tg->math_symbol(tg, table[i].c, t->bits / 2);
        if (!sym)
            return NULL;
        LLVMValueRef args[4];
        LLVMTypeRef types[4];
        LLVMTypeRef v2 = LLVMVectorType(w->f32, 2);
        LLVMValueRef c0 = LLVMConstInt(w->i32, 0, 0), c1 = LLVMConstInt(w->i32, 1, 0);
        for (int k = 0; k < n; k++) {
            LLVMValueRef re = part(w, z[k], 0), im = part(w, z[k], 1);
            if (t->bits == 128) {
                args[2 * k] = re, args[2 * k + 1] = im;
                types[2 * k] = types[2 * k + 1] = w->f64;
            } else {
                LLVMValueRef p = LLVMBuildInsertElement(w->b, LLVMGetUndef(v2), re, c0, "");
                args[k] = LLVMBuildInsertElement(w->b, p, im, c1, "");
                types[k] = v2;
            }
        }
        if (t->bits == 128) {
            LLVMValueRef r = kj_call(w, sym, kj_lltype(w, t), 2 * n, types, args);
            return pair(w, t, part(w, r, 0), part(w, r, 1));
        }
        LLVMValueRef r = kj_call(w, sym, v2, n, types, args);
        return pair(w, t, LLVMBuildExtractElement(w->b, r, c0, ""), LLVMBuildExtractElement(w->b, r, c1, ""));
    }
    return NULL;
}

/* The ufuncs of complex operands (or a complex result); NULL when u is not
 * one of them (the caller reports it). */
static LLVMValueRef complex_op(kj_lw *w, kj_node *at, const char *u, int n, LLVMValueRef *x,
                               const kj_type *const *xt, const kj_type *rt) {
    LLVMBuilderRef b = w->b;
    if (n == 1 && xt[0]->kind == KJ_T_COMPLEX && rt->kind != KJ_T_COMPLEX) {   /* predicates, magnitude */
        LLVMValueRef re = part(w, x[0], 0), im = part(w, x[0], 1);
        const kj_type *ft = kj_float(xt[0]->bits / 2);
        if (!strcmp(u, "absolute"))
            return kj_cast(w, kj_libm(w, at, "hypot", ft, 2, (LLVMValueRef[]){re, im}), ft, rt);
        LLVMValueRef z[2] = {re, im}, r[2];
        for (int i = 0; i < 2; i++) {
            LLVMValueRef a = kj_call_intrinsic(w, "llvm.fabs", LLVMTypeOf(z[i]), 1, &z[i]);
            LLVMValueRef inf = fc(LLVMTypeOf(z[i]), 1.0 / 0.0);
            r[i] = !strcmp(u, "isnan") ? LLVMBuildFCmp(b, LLVMRealUNO, z[i], z[i], "")
                   : !strcmp(u, "isinf") ? LLVMBuildFCmp(b, LLVMRealOEQ, a, inf, "")
                   : !strcmp(u, "isfinite") ? LLVMBuildFCmp(b, LLVMRealOLT, a, inf, "") : NULL;
            if (!r[i])
                return NULL;
        }
        return !strcmp(u, "isfinite") ? LLVMBuildAnd(b, r[0], r[1], "") : LLVMBuildOr(b, r[0], r[1], "");
    }
    if (n == 2 && (!strcmp(u, "equal") || !strcmp(u, "not_equal"))) {
        const kj_type *ct = common(xt[0], xt[1]);
        LLVMValueRef p = kj_cast(w, x[0], xt[0], ct), q = kj_cast(w, x[1], xt[1], ct);
        bool eq = u[0] == 'e';
        LLVMValueRef re = LLVMBuildFCmp(b, eq ? LLVMRealOEQ : LLVMRealUNE, part(w, p, 0), part(w, q, 0), "");
        LLVMValueRef im = LLVMBuildFCmp(b, eq ? LLVMRealOEQ : LLVMRealUNE, part(w, p, 1), part(w, q, 1), "");
        return eq ? LLVMBuildAnd(b, re, im, "") : LLVMBuildOr(b, re, im, "");
    }
    if (rt->kind != KJ_T_COMPLEX)
        return NULL;
    if (!strcmp(u, "where"))
        return LLVMBuildSelect(b, kj_truth(w, x[0], xt[0]), kj_cast(w, x[1], xt[1], rt), kj_cast(w, x[2], xt[2], rt), "");
    LLVMValueRef v[2];
    for (int i = 0; i < n && i < 2; i++)
        v[i] = kj_cast(w, x[i], xt[i], rt);
#define F(e) kj_fm(w, e)
    if (n == 1) {
        LLVMValueRef re = part(w, v[0], 0), im = part(w, v[0], 1);
        if (!strcmp(u, "negative"))
            return pair(w, rt, F(LLVMBuildFNeg(b, re, "")), F(LLVMBuildFNeg(b, im, "")));
        if (!strcmp(u, "positive"))
            return v[0];
        if (!strcmp(u, "conjugate") || !strcmp(u, "conj"))
            return pair(w, rt, re, F(LLVMBuildFNeg(b, im, "")));
        if (strcmp(u, "square") != 0)
            return complex_libm(w, u, 1, v, rt);
        v[1] = v[0];
        u = "multiply";
    } else if (n != 2) {
        return NULL;
    }
    LLVMValueRef a = part(w, v[0], 0), bi = part(w, v[0], 1), c = part(w, v[1], 0), d = part(w, v[1], 1);
    if (!strcmp(u, "add"))
        return pair(w, rt, F(LLVMBuildFAdd(b, a, c, "")), F(LLVMBuildFAdd(b, bi, d, "")));
    if (!strcmp(u, "subtract"))
        return pair(w, rt, F(LLVMBuildFSub(b, a, c, "")), F(LLVMBuildFSub(b, bi, d, "")));
    if (!strcmp(u, "multiply"))   /* (ac - bd, ad + bc), as NumPy: no special case for inf */
        return pair(w, rt, F(LLVMBuildFSub(b, F(LLVMBuildFMul(b, a, c, "")), F(LLVMBuildFMul(b, bi, d, "")), "")),
                    F(LLVMBuildFAdd(b, F(LLVMBuildFMul(b, a, d, "")), F(LLVMBuildFMul(b, bi, c, "")), "")));
#undef F
    if (!strcmp(u, "true_divide") || !strcmp(u, "divide"))
        return kj_complex_divide(w, v[0], v[1], rt, false);
    LLVMValueRef r = complex_libm(w, u, 2, v, rt);
    if (!r || strcmp(u, "power") != 0)
        return r;
    /* NumPy's rules before cpow: x**0 is 1; 0**y is 0 for a positive real
     * y, else nan (c99's cpow would say 0) */
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ft);
#define IS0(x) LLVMBuildFCmp(b, LLVMRealOEQ, x, zero, "")
    LLVMValueRef y0 = LLVMBuildAnd(b, IS0(c), IS0(d), ""), x0 = LLVMBuildAnd(b, IS0(a), IS0(bi), "");
    LLVMValueRef to0 = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, c, zero, ""), IS0(d), "");
#undef IS0
    LLVMValueRef nan = fc(ft, 0.0 / 0.0), one = fc(ft, 1.0);
    LLVMValueRef re = LLVMBuildSelect(b, x0, LLVMBuildSelect(b, to0, zero, nan, ""), part(w, r, 0), "");
    LLVMValueRef im = LLVMBuildSelect(b, x0, LLVMBuildSelect(b, to0, zero, nan, ""), part(w, r, 1), "");
    return pair(w, rt, LLVMBuildSelect(b, y0, one, re, ""), LLVMBuildSelect(b, y0, zero, im, ""));
}

/* ---- np.round(x, decimals), NumPy's way: x * 10**d, rint, / 10**d
 * (for d < 0: x / 10**-d, rint, * 10**-d), in the float's own precision;
 * integers are themselves for d >= 0 and go through float64 otherwise. */

/* 10**n for 0 <= n, from a constant table: exact through 1e22, each later
 * one ten times the one before, as NumPy's power_of_ten multiplies; inf
 * past 1e308. */
static LLVMValueRef power_of_ten(kj_lw *w, LLVMValueRef n) {
    enum { N = 310 };
    LLVMTypeRef at = LLVMArrayType2(w->f64, N);
    LLVMValueRef table = LLVMGetNamedGlobal(w->mod, "np.round.powers");
    if (!table) {
        LLVMValueRef v[N];
        double p = 1.0;
        for (int i = 0; i < N; i++, p *= 10.0)
            v[i] = LLVMConstReal(w->f64, p);
        table = LLVMAddGlobal(w->mod, at, "np.round.powers");
        LLVMSetInitializer(table, LLVMConstArray2(w->f64, v, N));
        LLVMSetGlobalConstant(table, 1);
        LLVMSetLinkage(table, LLVMPrivateLinkage);
    }
    LLVMValueRef last = LLVMConstInt(w->i64, N - 1, 0);
    LLVMValueRef i = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntUGT, n, last, ""), last, n, "");
    LLVMValueRef at_i = LLVMBuildGEP2(w->b, at, table, (LLVMValueRef[]){LLVMConstInt(w->i64, 0, 0), i}, 2, "");
    return LLVMBuildLoad2(w->b, w->f64, at_i, "");
}

/* One float (of type t) rounded to d decimals (an i64). */
static LLVMValueRef round_float(kj_lw *w, LLVMValueRef x, const kj_type *t, LLVMValueRef d) {
    LLVMBuilderRef b = w->b;
    LLVMTypeRef lt = kj_lltype(w, t);
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, d, LLVMConstInt(w->i64, 0, 0), "");
    LLVMValueRef f = power_of_ten(w, LLVMBuildSelect(b, neg, LLVMBuildNeg(b, d, ""), d, ""));
    f = kj_cast(w, f, KJ_F64, t);
    LLVMValueRef up = LLVMBuildFMul(b, x, f, ""), down = LLVMBuildFDiv(b, x, f, "");
    LLVMValueRef r = kj_call_intrinsic(w, "llvm.rint", lt, 1, (LLVMValueRef[]){LLVMBuildSelect(b, neg, down, up, "")});
    return LLVMBuildSelect(b, neg, LLVMBuildFMul(b, r, f, ""), LLVMBuildFDiv(b, r, f, ""), "");
}

static LLVMValueRef round_elem(kj_lw *w, LLVMValueRef x, const kj_type *xt, LLVMValueRef d, const kj_type *dt,
                               const kj_type *rt) {
    d = kj_cast(w, d, dt, KJ_I64);
    if (rt->kind == KJ_T_COMPLEX) {
        const kj_type *ft = kj_float(rt->bits / 2);
        LLVMValueRef z = kj_cast(w, x, xt, rt);
        return pair(w, rt, round_float(w, part(w, z, 0), ft, d), round_float(w, part(w, z, 1), ft, d));
    }
    if (rt->kind == KJ_T_FLOAT)
        return round_float(w, kj_cast(w, x, xt, rt), rt, d);
    LLVMValueRef v = kj_cast(w, x, xt, rt);
    LLVMValueRef r = LLVMBuildFPToSI(w->b, round_float(w, kj_cast(w, x, xt, KJ_F64), KJ_F64, d), w->i64, "");
    if (rt->bits < 64)   /* through int64, so that a multiple of ten past the dtype's range wraps as NumPy's cast does */
        r = LLVMBuildTrunc(w->b, r, kj_lltype(w, rt), "");
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, d, LLVMConstInt(w->i64, 0, 0), ""), r, v, "");
}

LLVMValueRef kj_np_elem_op(kj_lw *w, kj_node *at, const char *u, int n, LLVMValueRef *x,
                           const kj_type *const *xt, const kj_type *rt) {
    LLVMBuilderRef b = w->b;
    if (!strcmp(u, "round"))
        return round_elem(w, x[0], xt[0], x[1], xt[1], rt);
    for (int i = 0; i < n; i++)
        if (xt[i]->kind == KJ_T_COMPLEX || rt->kind == KJ_T_COMPLEX) {
            /* float_power differs from power only in its result types */
            LLVMValueRef v = complex_op(w, at, strcmp(u, "float_power") ? u : "power", n, x, xt, rt);
            if (!v) {
                kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, "Loop over the elements.",
                        "np.%s of complex numbers in array expressions is not supported yet", u);
                v = LLVMGetUndef(kj_lltype(w, rt));
            }
            return v;
        }
    /* predicates look at the operand as it is */
    if (!strcmp(u, "isnan") || !strcmp(u, "isinf") || !strcmp(u, "isfinite")) {
        if (!is_float(xt[0]))
            return LLVMConstInt(w->i1, u[2] == 'f', 0);
        LLVMValueRef a = kj_call_intrinsic(w, "llvm.fabs", LLVMTypeOf(x[0]), 1, x);
        LLVMValueRef inf = fc(LLVMTypeOf(x[0]), 1.0 / 0.0);
        if (u[2] == 'n')
            return LLVMBuildFCmp(b, LLVMRealUNO, x[0], x[0], "");
        return LLVMBuildFCmp(b, u[2] == 'i' ? LLVMRealOEQ : LLVMRealOLT, a, inf, "");
    }
    if (!strncmp(u, "logical_", 8)) {
        LLVMValueRef p = kj_truth(w, x[0], xt[0]);
        if (!strcmp(u, "logical_not"))
            return LLVMBuildNot(b, p, "");
        LLVMValueRef q = kj_truth(w, x[1], xt[1]);
        return u[8] == 'a' ? LLVMBuildAnd(b, p, q, "") : u[8] == 'o' ? LLVMBuildOr(b, p, q, "") : LLVMBuildXor(b, p, q, "");
    }
    if (n == 2 && (!strcmp(u, "equal") || !strcmp(u, "not_equal") || !strncmp(u, "less", 4) ||
                   !strncmp(u, "greater", 7))) {
        const kj_type *ct = common(xt[0], xt[1]);
        return compare(w, u, kj_cast(w, x[0], xt[0], ct), kj_cast(w, x[1], xt[1], ct), ct);
    }
    if (!strcmp(u, "where"))
        return LLVMBuildSelect(b, kj_truth(w, x[0], xt[0]), kj_cast(w, x[1], xt[1], rt), kj_cast(w, x[2], xt[2], rt), "");
    if (!strcmp(u, "ldexp") && is_float(rt) && xt[1]->kind != KJ_T_FLOAT)   /* the exponent stays an integer */
        return kj_ldexp(w, at, kj_cast(w, x[0], xt[0], rt), rt, x[1], xt[1]);
    LLVMValueRef v[3];
    for (int i = 0; i < n; i++)
        v[i] = kj_cast(w, x[i], xt[i], rt);
    if (!strcmp(u, "clip"))   /* minimum(maximum(a, lo), hi), NaN kept */
        return minmax(w, false, false, minmax(w, true, false, v[0], v[1], rt), v[2], rt);
    bool fl = is_float(rt);
    LLVMTypeRef lt = kj_lltype(w, rt);
    if (n == 1) {
        if (!strcmp(u, "negative"))
            return fl ? kj_fm(w, LLVMBuildFNeg(b, v[0], "")) : LLVMBuildNeg(b, v[0], "");
        if (!strcmp(u, "positive") || !strcmp(u, "conjugate") || !strcmp(u, "conj"))
            return v[0];
        if (!strcmp(u, "invert"))
            return LLVMBuildNot(b, v[0], "");   /* ~ of a bool is `not` */
        if (!strcmp(u, "reciprocal"))
            return fl ? kj_fm(w, LLVMBuildFDiv(b, fc(lt, 1.0), v[0], "")) : int_reciprocal(w, v[0], rt);
        if (fl && !strcmp(u, "spacing"))
            return float_spacing(w, at, v[0], rt);
        if (!strcmp(u, "square"))
            return fl ? kj_fm(w, LLVMBuildFMul(b, v[0], v[0], "")) : LLVMBuildMul(b, v[0], v[0], "");
        if (!strcmp(u, "sign")) {
            if (fl) {
                LLVMValueRef zero = LLVMConstNull(lt);
                LLVMValueRef s = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v[0], zero, ""), fc(lt, 1.0),
                                                 LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v[0], zero, ""),
                                                                 fc(lt, -1.0), zero, ""), "");
                return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, v[0], v[0], ""), v[0], s, "");
            }
            LLVMValueRef zero = LLVMConstNull(lt);
            LLVMValueRef pos = LLVMBuildZExt(b, LLVMBuildICmp(b, is_signed(rt) ? LLVMIntSGT : LLVMIntUGT, v[0], zero, ""), lt, "");
            if (!is_signed(rt))
                return pos;
            LLVMValueRef neg = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, v[0], zero, ""), lt, "");
            return LLVMBuildSub(b, pos, neg, "");
        }
        if (!fl && (!strcmp(u, "absolute") || !strcmp(u, "fabs"))) {
            if (!is_signed(rt))
                return v[0];
            LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, v[0], LLVMConstNull(lt), "");
            return LLVMBuildSelect(b, neg, LLVMBuildNeg(b, v[0], ""), v[0], "");
        }
        if (fl) {
            LLVMValueRef r = unary_float(w, at, u, v[0], rt);
            if (r)
                return r;
        } else if (!strcmp(u, "floor") || !strcmp(u, "ceil") || !strcmp(u, "trunc") || !strcmp(u, "rint")) {
            return v[0];
        }
    } else if (n == 2) {
        if (!strcmp(u, "add"))
            return fl ? kj_fm(w, LLVMBuildFAdd(b, v[0], v[1], "")) : rt->kind == KJ_T_BOOL ? LLVMBuildOr(b, v[0], v[1], "") : LLVMBuildAdd(b, v[0], v[1], "");
        if (!strcmp(u, "subtract"))
            return fl ? kj_fm(w, LLVMBuildFSub(b, v[0], v[1], "")) : LLVMBuildSub(b, v[0], v[1], "");
        if (!strcmp(u, "multiply"))
            return fl ? kj_fm(w, LLVMBuildFMul(b, v[0], v[1], "")) : rt->kind == KJ_T_BOOL ? LLVMBuildAnd(b, v[0], v[1], "") : LLVMBuildMul(b, v[0], v[1], "");
        if ((!strcmp(u, "true_divide") || !strcmp(u, "divide")) && fl)
            return kj_fm(w, LLVMBuildFDiv(b, v[0], v[1], ""));
        if (!strcmp(u, "floor_divide") || !strcmp(u, "remainder") || !strcmp(u, "mod"))
            return fl ? float_divmod(w, u[0] != 'f', v[0], v[1]) : int_divmod(w, u[0] != 'f', v[0], v[1], rt);
        if (!strcmp(u, "fmod")) {
            if (fl)
                return kj_fm(w, LLVMBuildFRem(b, v[0], v[1], ""));
            LLVMValueRef bz = LLVMBuildICmp(b, LLVMIntEQ, v[1], LLVMConstNull(lt), "");
            LLVMValueRef sb = LLVMBuildSelect(b, bz, LLVMConstInt(lt, 1, 0), v[1], "");
            LLVMValueRef r = is_signed(rt) ? LLVMBuildSRem(b, v[0], sb, "") : LLVMBuildURem(b, v[0], sb, "");
            return LLVMBuildSelect(b, bz, LLVMConstNull(lt), r, "");
        }
        if (!strcmp(u, "power"))
            return fl ? intrin(w, "llvm.pow", lt, 2, v) : int_power(w, v[0], v[1], rt);
        if (fl && !strcmp(u, "float_power"))   /* NumPy computes it in float64 (or complex) only */
            return intrin(w, "llvm.pow", lt, 2, v);
        if (fl && !strcmp(u, "nextafter"))
            return kj_libm(w, at, "nextafter", rt, 2, v);
        if (!fl && rt->kind == KJ_T_INT && (!strcmp(u, "gcd") || !strcmp(u, "lcm")))
            return u[0] == 'g' ? int_gcd(w, v[0], v[1], rt) : int_lcm(w, v[0], v[1], rt);
        if (!strcmp(u, "maximum") || !strcmp(u, "minimum") || !strcmp(u, "fmax") || !strcmp(u, "fmin"))
            return minmax(w, strstr(u, "max") != NULL, u[0] == 'f', v[0], v[1], rt);
        if (fl && !strcmp(u, "arctan2"))
            return kj_libm(w, at, "atan2", rt, 2, v);
        if (fl && !strcmp(u, "hypot"))
            return kj_libm(w, at, "hypot", rt, 2, v);
        if (fl && !strcmp(u, "copysign"))
            return intrin(w, "llvm.copysign", lt, 2, v);
        if (!fl) {
            if (!strcmp(u, "bitwise_and"))
                return LLVMBuildAnd(b, v[0], v[1], "");
            if (!strcmp(u, "bitwise_or"))
                return LLVMBuildOr(b, v[0], v[1], "");
            if (!strcmp(u, "bitwise_xor"))
                return LLVMBuildXor(b, v[0], v[1], "");
            if (!strcmp(u, "left_shift") || !strcmp(u, "right_shift")) {
                unsigned bits = LLVMGetIntTypeWidth(lt);
                LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, v[1], LLVMConstInt(lt, bits, 0), "");
                LLVMValueRef sb = LLVMBuildSelect(b, big, LLVMConstInt(lt, bits - 1, 0), v[1], "");
                if (u[0] == 'l')
                    return LLVMBuildSelect(b, big, LLVMConstNull(lt), LLVMBuildShl(b, v[0], sb, ""), "");
                if (is_signed(rt))
                    return LLVMBuildAShr(b, v[0], sb, "");
                return LLVMBuildSelect(b, big, LLVMConstNull(lt), LLVMBuildLShr(b, v[0], sb, ""), "");
            }
        }
    }
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL, "np.%s is not supported for %s here", u,
            rt->name);
    return LLVMGetUndef(lt);
}
