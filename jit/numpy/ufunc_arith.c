/* ufunc_arith: NumPy's arithmetic ufuncs (ufuncs.h), element by element,
 * with NumPy's rules rather than Python's: division by zero gives inf or
 * nan (0 for integers) instead of raising, integers wrap at their dtype's
 * width, an integer to a negative power is NumPy's ValueError. */
#include "jit/numpy/ufuncs.h"

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
    div = LLVMBuildSelect(bd, fix, kj_fm(w, LLVMBuildFSub(bd, div, LLVMConstReal(ft, 1.0), "")), div, "");
    LLVMValueRef fl = kj_call_intrinsic(w, "llvm.floor", ft, 1, &div);
    LLVMValueRef up = LLVMBuildFCmp(bd, LLVMRealOGT, kj_fm(w, LLVMBuildFSub(bd, div, fl, "")), LLVMConstReal(ft, 0.5), "");
    fl = LLVMBuildSelect(bd, up, kj_fm(w, LLVMBuildFAdd(bd, fl, LLVMConstReal(ft, 1.0), "")), fl, "");
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
    if (!kj_elem_is_signed(t)) {
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
    if (kj_elem_is_signed(t))
        kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, b, LLVMConstNull(it), ""), PyExc_ValueError,
                    "Integers to negative integer powers are not allowed.");
    LLVMValueRef a64 = LLVMBuildIntCast2(w->b, a, w->i64, kj_elem_is_signed(t), "");
    LLVMValueRef b64 = LLVMBuildIntCast2(w->b, b, w->i64, kj_elem_is_signed(t), "");
    LLVMValueRef r = kj_call(w, "kj_rt_ipow", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){a64, b64});
    return LLVMBuildIntCast2(w->b, r, it, kj_elem_is_signed(t), "");
}

/* |x| of a signed integer, wrapping: the most negative value stays itself,
 * which read as unsigned is its magnitude. */
static LLVMValueRef int_magnitude(kj_lw *w, LLVMValueRef x, const kj_type *t) {
    if (!kj_elem_is_signed(t))
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
    LLVMValueRef at_zero = LLVMConstInt(it, kj_elem_is_signed(t) && t->bits >= 32 ? 1ull << (t->bits - 1) : 0, 0);
    LLVMValueRef r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, LLVMConstNull(it), ""), at_zero,
                                     LLVMConstNull(it), "");
    if (kj_elem_is_signed(t))
        r = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, minus_one, ""), minus_one, r, "");
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, x, one, ""), one, r, "");
}

/* ---- real operands ---- */

static LLVMValueRef add(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    LLVMBuilderRef b = e->w->b;
    if (kj_elem_is_float(e->rt))
        return kj_fm(e->w, LLVMBuildFAdd(b, v[0], v[1], ""));
    return e->rt->kind == KJ_T_BOOL ? LLVMBuildOr(b, v[0], v[1], "") : LLVMBuildAdd(b, v[0], v[1], "");
}

static LLVMValueRef subtract(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_fm(e->w, LLVMBuildFSub(e->w->b, v[0], v[1], ""));
    return LLVMBuildSub(e->w->b, v[0], v[1], "");
}

static LLVMValueRef multiply(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    LLVMBuilderRef b = e->w->b;
    if (kj_elem_is_float(e->rt))
        return kj_fm(e->w, LLVMBuildFMul(b, v[0], v[1], ""));
    return e->rt->kind == KJ_T_BOOL ? LLVMBuildAnd(b, v[0], v[1], "") : LLVMBuildMul(b, v[0], v[1], "");
}

static LLVMValueRef divide(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return kj_elem_is_float(e->rt) ? kj_fm(e->w, LLVMBuildFDiv(e->w->b, v[0], v[1], "")) : NULL;
}

static LLVMValueRef divmod_part(const kj_elem *e, bool want_mod) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return kj_elem_is_float(e->rt) ? float_divmod(e->w, want_mod, v[0], v[1]) : int_divmod(e->w, want_mod, v[0], v[1], e->rt);
}

static LLVMValueRef floor_divide(const kj_elem *e) { return divmod_part(e, false); }
static LLVMValueRef floor_remainder(const kj_elem *e) { return divmod_part(e, true); }

/* C's fmod: the remainder takes the dividend's sign; 0 for a zero integer
 * divisor. */
static LLVMValueRef c_fmod(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMBuilderRef b = w->b;
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_fm(w, LLVMBuildFRem(b, v[0], v[1], ""));
    LLVMTypeRef lt = LLVMTypeOf(v[0]);
    LLVMValueRef bz = LLVMBuildICmp(b, LLVMIntEQ, v[1], LLVMConstNull(lt), "");
    LLVMValueRef sb = LLVMBuildSelect(b, bz, LLVMConstInt(lt, 1, 0), v[1], "");
    LLVMValueRef r = kj_elem_is_signed(e->rt) ? LLVMBuildSRem(b, v[0], sb, "") : LLVMBuildURem(b, v[0], sb, "");
    return LLVMBuildSelect(b, bz, LLVMConstNull(lt), r, "");
}

static LLVMValueRef power(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_elem_intrinsic(e->w, "llvm.pow", LLVMTypeOf(v[0]), 2, v);
    return int_power(e->w, v[0], v[1], e->rt);
}

/* NumPy computes float_power in float64 (or complex) only: power's
 * arithmetic, other result types. */
static LLVMValueRef float_power(const kj_elem *e) { return kj_elem_is_float(e->rt) ? power(e) : NULL; }

static LLVMValueRef negative(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_fm(e->w, LLVMBuildFNeg(e->w->b, v[0], ""));
    return LLVMBuildNeg(e->w->b, v[0], "");
}

/* positive, and the conjugate of a real number: the number */
static LLVMValueRef itself(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    return v[0];
}

static LLVMValueRef reciprocal(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (!kj_elem_is_float(e->rt))
        return int_reciprocal(e->w, v[0], e->rt);
    return kj_fm(e->w, LLVMBuildFDiv(e->w->b, LLVMConstReal(LLVMTypeOf(v[0]), 1.0), v[0], ""));
}

static LLVMValueRef square(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_fm(e->w, LLVMBuildFMul(e->w->b, v[0], v[0], ""));
    return LLVMBuildMul(e->w->b, v[0], v[0], "");
}

/* -1, 0 or 1 (NaN for NaN) */
static LLVMValueRef sign(const kj_elem *e) {
    LLVMBuilderRef b = e->w->b;
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    LLVMTypeRef lt = LLVMTypeOf(v[0]);
    LLVMValueRef zero = LLVMConstNull(lt);
    if (kj_elem_is_float(e->rt)) {
        LLVMValueRef below = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v[0], zero, ""), LLVMConstReal(lt, -1.0), zero, "");
        LLVMValueRef s = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v[0], zero, ""), LLVMConstReal(lt, 1.0), below, "");
        return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, v[0], v[0], ""), v[0], s, "");
    }
    bool s = kj_elem_is_signed(e->rt);
    LLVMValueRef pos = LLVMBuildZExt(b, LLVMBuildICmp(b, s ? LLVMIntSGT : LLVMIntUGT, v[0], zero, ""), lt, "");
    if (!s)
        return pos;
    LLVMValueRef neg = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, v[0], zero, ""), lt, "");
    return LLVMBuildSub(b, pos, neg, "");
}

/* absolute and fabs; the most negative integer stays itself, as NumPy's */
static LLVMValueRef absolute(const kj_elem *e) {
    LLVMBuilderRef b = e->w->b;
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (kj_elem_is_float(e->rt))
        return kj_elem_intrinsic(e->w, "llvm.fabs", LLVMTypeOf(v[0]), 1, v);
    if (!kj_elem_is_signed(e->rt))
        return v[0];
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, v[0], LLVMConstNull(LLVMTypeOf(v[0])), "");
    return LLVMBuildSelect(b, neg, LLVMBuildNeg(b, v[0], ""), v[0], "");
}

static LLVMValueRef gcd(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return e->rt->kind == KJ_T_INT ? int_gcd(e->w, v[0], v[1], e->rt) : NULL;
}

static LLVMValueRef lcm(const kj_elem *e) {
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return e->rt->kind == KJ_T_INT ? int_lcm(e->w, v[0], v[1], e->rt) : NULL;
}

/* ---- complex operands ({real, imag} pairs) ---- */

/* e's operands as complex numbers of the result's type, into v; false when
 * the result is not complex (NumPy's typing rules such a ufunc out). */
static bool complex_operands(const kj_elem *e, LLVMValueRef *v) {
    if (e->rt->kind != KJ_T_COMPLEX)
        return false;
    kj_elem_operands(e, v);
    return true;
}

#define RE(z) kj_elem_part(w, z, 0)
#define IM(z) kj_elem_part(w, z, 1)
#define F(x) kj_fm(w, x)

static LLVMValueRef add_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMValueRef v[2];
    if (!complex_operands(e, v))
        return NULL;
    return kj_elem_pair(w, e->rt, F(LLVMBuildFAdd(w->b, RE(v[0]), RE(v[1]), "")), F(LLVMBuildFAdd(w->b, IM(v[0]), IM(v[1]), "")));
}

static LLVMValueRef subtract_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMValueRef v[2];
    if (!complex_operands(e, v))
        return NULL;
    return kj_elem_pair(w, e->rt, F(LLVMBuildFSub(w->b, RE(v[0]), RE(v[1]), "")), F(LLVMBuildFSub(w->b, IM(v[0]), IM(v[1]), "")));
}

/* (ac - bd, ad + bc), as NumPy: no special case for inf */
static LLVMValueRef complex_product(kj_lw *w, const kj_type *t, LLVMValueRef x, LLVMValueRef y) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef a = RE(x), bi = IM(x), c = RE(y), d = IM(y);
    return kj_elem_pair(w, t, F(LLVMBuildFSub(b, F(LLVMBuildFMul(b, a, c, "")), F(LLVMBuildFMul(b, bi, d, "")), "")),
                        F(LLVMBuildFAdd(b, F(LLVMBuildFMul(b, a, d, "")), F(LLVMBuildFMul(b, bi, c, "")), "")));
}

static LLVMValueRef multiply_complex(const kj_elem *e) {
    LLVMValueRef v[2];
    return complex_operands(e, v) ? complex_product(e->w, e->rt, v[0], v[1]) : NULL;
}

static LLVMValueRef square_complex(const kj_elem *e) {
    LLVMValueRef v[1];
    return complex_operands(e, v) ? complex_product(e->w, e->rt, v[0], v[0]) : NULL;
}

static LLVMValueRef divide_complex(const kj_elem *e) {
    LLVMValueRef v[2];
    return complex_operands(e, v) ? kj_complex_divide(e->w, v[0], v[1], e->rt, false) : NULL;
}

static LLVMValueRef negative_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMValueRef v[1];
    if (!complex_operands(e, v))
        return NULL;
    return kj_elem_pair(w, e->rt, F(LLVMBuildFNeg(w->b, RE(v[0]), "")), F(LLVMBuildFNeg(w->b, IM(v[0]), "")));
}

static LLVMValueRef positive_complex(const kj_elem *e) {
    LLVMValueRef v[1];
    return complex_operands(e, v) ? v[0] : NULL;
}

static LLVMValueRef conjugate_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMValueRef v[1];
    if (!complex_operands(e, v))
        return NULL;
    return kj_elem_pair(w, e->rt, RE(v[0]), F(LLVMBuildFNeg(w->b, IM(v[0]), "")));
}

/* cpow, after NumPy's own rules: x**0 is 1; 0**y is 0 for a positive real
 * y, else nan (C99's cpow would say 0). */
static LLVMValueRef power_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    LLVMBuilderRef b = w->b;
    LLVMValueRef v[2];
    if (!complex_operands(e, v))
        return NULL;
    LLVMValueRef r = kj_elem_complex_libm(w, "cpow", 2, v, e->rt);
    if (!r)
        return NULL;
    LLVMValueRef a = RE(v[0]), bi = IM(v[0]), c = RE(v[1]), d = IM(v[1]);
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ft);
#define IS0(x) LLVMBuildFCmp(b, LLVMRealOEQ, x, zero, "")
    LLVMValueRef y0 = LLVMBuildAnd(b, IS0(c), IS0(d), ""), x0 = LLVMBuildAnd(b, IS0(a), IS0(bi), "");
    LLVMValueRef to0 = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, c, zero, ""), IS0(d), "");
#undef IS0
    LLVMValueRef nan = LLVMConstReal(ft, 0.0 / 0.0), one = LLVMConstReal(ft, 1.0);
    LLVMValueRef re = LLVMBuildSelect(b, x0, LLVMBuildSelect(b, to0, zero, nan, ""), RE(r), "");
    LLVMValueRef im = LLVMBuildSelect(b, x0, LLVMBuildSelect(b, to0, zero, nan, ""), IM(r), "");
    return kj_elem_pair(w, e->rt, LLVMBuildSelect(b, y0, one, re, ""), LLVMBuildSelect(b, y0, zero, im, ""));
}

/* |z| of a complex z: hypot of its parts, a real result */
static LLVMValueRef absolute_complex(const kj_elem *e) {
    kj_lw *w = e->w;
    if (e->xt[0]->kind != KJ_T_COMPLEX || e->rt->kind == KJ_T_COMPLEX)
        return NULL;
    const kj_type *ft = kj_float(e->xt[0]->bits / 2);
    LLVMValueRef parts[2] = {RE(e->x[0]), IM(e->x[0])};
    return kj_cast(w, kj_elem_libm(w, e->at, "hypot", ft, 2, parts), ft, e->rt);
}

#undef RE
#undef IM
#undef F

KJ_UFUNC(add, "add", 2, .elem = add, .elem_complex = add_complex, .cheap = true);
KJ_UFUNC(subtract, "subtract", 2, .elem = subtract, .elem_complex = subtract_complex, .cheap = true);
KJ_UFUNC(multiply, "multiply", 2, .elem = multiply, .elem_complex = multiply_complex, .cheap = true);
KJ_UFUNC(true_divide, "true_divide", 2, .elem = divide, .elem_complex = divide_complex, .cheap = true);
KJ_UFUNC(divide, "divide", 2, .elem = divide, .elem_complex = divide_complex, .cheap = true);
KJ_UFUNC(floor_divide, "floor_divide", 2, .elem = floor_divide);
KJ_UFUNC(remainder, "remainder", 2, .elem = floor_remainder);
KJ_UFUNC(mod, "mod", 2, .elem = floor_remainder);
KJ_UFUNC(fmod, "fmod", 2, .elem = c_fmod);
KJ_UFUNC(power, "power", 2, .elem = power, .elem_complex = power_complex);
KJ_UFUNC(float_power, "float_power", 2, .elem = float_power, .elem_complex = power_complex);
KJ_UFUNC(negative, "negative", 1, .elem = negative, .elem_complex = negative_complex, .cheap = true);
KJ_UFUNC(positive, "positive", 1, .elem = itself, .elem_complex = positive_complex, .cheap = true);
KJ_UFUNC(conjugate, "conjugate", 1, .elem = itself, .elem_complex = conjugate_complex);
KJ_UFUNC(conj, "conj", 1, .elem = itself, .elem_complex = conjugate_complex);
KJ_UFUNC(reciprocal, "reciprocal", 1, .elem = reciprocal);
KJ_UFUNC(square, "square", 1, .elem = square, .elem_complex = square_complex, .cheap = true);
KJ_UFUNC(sign, "sign", 1, .elem = sign, .cheap = true);
KJ_UFUNC(absolute, "absolute", 1, .elem = absolute, .elem_complex = absolute_complex, .scalar = "abs", .cheap = true);
KJ_UFUNC(fabs, "fabs", 1, .elem = absolute, .scalar = "math.fabs", .cheap = true);
KJ_UFUNC(gcd, "gcd", 2, .elem = gcd);
KJ_UFUNC(lcm, "lcm", 2, .elem = lcm);
