/* lower_expr: expressions, conversions and Python's arithmetic on numbers
 * (wrapping 64-bit ints, floor division and modulo, ZeroDivisionError). */
#include "jit/lower/lower_elem.h"
#include "jit/core/callables.h"
#include "jit/core/kind_ops.h"
#include "jit/lower/strings.h"
#include "jit/lower/lower_nrt.h"

#include <string.h>

static LLVMValueRef cint(kj_lw *w, const kj_type *t, int64_t v) {
    return LLVMConstInt(kj_lltype(w, t), (unsigned long long)v, 1);
}

static LLVMValueRef cfloat(kj_lw *w, const kj_type *t, double v) {
    return LLVMConstReal(kj_lltype(w, t), v);
}

static LLVMValueRef complex_make(kj_lw *w, const kj_type *t, LLVMValueRef re, LLVMValueRef im) {
    LLVMValueRef z = LLVMGetUndef(kj_lltype(w, t));
    z = LLVMBuildInsertValue(w->b, z, re, 0, "");
    return LLVMBuildInsertValue(w->b, z, im, 1, "");
}

LLVMValueRef kj_cast(kj_lw *w, LLVMValueRef v, const kj_type *from, const kj_type *to) {
    if (!from || !to || from == to)
        return v;
    LLVMBuilderRef b = w->b;
    LLVMTypeRef tt = kj_lltype(w, to);
    if (from == kj_never())   /* in code no run reaches (after a call that always raises) */
        return LLVMGetUndef(tt);
    if (to->kind == KJ_T_OPTIONAL) {
        LLVMValueRef o = LLVMGetUndef(tt);
        if (from->kind == KJ_T_NONE)
            return LLVMBuildInsertValue(b, LLVMConstNull(tt), LLVMConstInt(w->i1, 0, 0), 0, "");
        if (from->kind == KJ_T_OPTIONAL) {
            o = LLVMBuildInsertValue(b, o, LLVMBuildExtractValue(b, v, 0, ""), 0, "");
            return LLVMBuildInsertValue(
                b, o, kj_cast(w, LLVMBuildExtractValue(b, v, 1, ""), from->elem, to->elem), 1, "");
        }
        o = LLVMBuildInsertValue(b, o, LLVMConstInt(w->i1, 1, 0), 0, "");
        return LLVMBuildInsertValue(b, o, kj_cast(w, v, from, to->elem), 1, "");
    }
    if (from->kind == KJ_T_OPTIONAL)
        return kj_cast(w, LLVMBuildExtractValue(b, v, 1, ""), from->elem, to);
    if (to->kind == KJ_T_NONE)
        return LLVMConstInt(w->i8, 0, 0);
    if (from->kind == KJ_T_ARRAY && to->kind == KJ_T_ARRAY)
        return v;   /* layouts share one struct */
    if (from->kind == KJ_T_TUPLE && to->kind == KJ_T_TUPLE) {
        LLVMValueRef r = LLVMGetUndef(tt);
        for (int i = 0; i < to->n && i < from->n; i++)
            r = LLVMBuildInsertValue(
                b, r, kj_cast(w, LLVMBuildExtractValue(b, v, (unsigned)i, ""), from->elems[i],
                              to->elems[i]), (unsigned)i, "");
        return r;
    }
    if (!kj_is_number(from) || !kj_is_number(to))
        return v;
    if (to->kind == KJ_T_BOOL)
        return kj_truth(w, v, from);
    if (from->kind == KJ_T_COMPLEX) {
        LLVMValueRef re = LLVMBuildExtractValue(b, v, 0, ""), im = LLVMBuildExtractValue(b, v, 1, "");
        const kj_type *ft = kj_float(from->bits / 2);
        if (to->kind == KJ_T_COMPLEX) {
            const kj_type *tf = kj_float(to->bits / 2);
            return complex_make(w, to, kj_cast(w, re, ft, tf), kj_cast(w, im, ft, tf));
        }
        return kj_cast(w, re, ft, to);
    }
    if (to->kind == KJ_T_COMPLEX) {
        const kj_type *tf = kj_float(to->bits / 2);
        return complex_make(w, to, kj_cast(w, v, from, tf), cfloat(w, tf, 0.0));
    }
    bool from_signed = from->kind == KJ_T_INT && from->is_signed;
    if (to->kind == KJ_T_INT) {
        if (from->kind == KJ_T_FLOAT)
            return to->is_signed ? LLVMBuildFPToSI(b, v, tt, "") : LLVMBuildFPToUI(b, v, tt, "");
        return LLVMBuildIntCast2(b, v, tt, from_signed, "");
    }
    /* to float */
    if (from->kind == KJ_T_FLOAT)
        return LLVMBuildFPCast(b, v, tt, "");
    return from_signed ? LLVMBuildSIToFP(b, v, tt, "") : LLVMBuildUIToFP(b, v, tt, "");
}

LLVMValueRef kj_truth(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL: return v;
    case KJ_T_INT: return LLVMBuildICmp(w->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    case KJ_T_FLOAT: return LLVMBuildFCmp(w->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    case KJ_T_COMPLEX: {
        LLVMValueRef re = LLVMBuildExtractValue(w->b, v, 0, ""), im = LLVMBuildExtractValue(w->b, v, 1, "");
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(re));
        return LLVMBuildOr(w->b, LLVMBuildFCmp(w->b, LLVMRealUNE, re, zero, ""),
                           LLVMBuildFCmp(w->b, LLVMRealUNE, im, zero, ""), "");
    }
    case KJ_T_OPTIONAL: {
        LLVMValueRef present = LLVMBuildExtractValue(w->b, v, 0, "");
        if (t->elem->kind == KJ_T_ARRAY || t->elem->kind == KJ_T_TUPLE)
            return present;
        return LLVMBuildAnd(w->b, present, kj_truth(w, LLVMBuildExtractValue(w->b, v, 1, ""), t->elem), "");
    }
    case KJ_T_TUPLE: return LLVMConstInt(w->i1, t->n > 0, 0);
    case KJ_T_LIST:   /* containers: not empty (their headers hold their lengths, typed or not) */
    case KJ_T_DICT:
    case KJ_T_SET:
        return LLVMBuildICmp(w->b, LLVMIntNE, kj_kind_ops_of(t->kind)->len(w, v), LLVMConstInt(w->i64, 0, 0), "");
    default: return LLVMConstInt(w->i1, 0, 0);
    }
}

/* ---- arithmetic ---- */

static LLVMValueRef int_floordiv_mod(kj_lw *w, kj_op op, LLVMValueRef a, LLVMValueRef b,
                                     const kj_type *t) {
    LLVMBuilderRef bd = w->b;
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(a));
    kj_raise_if(w, LLVMBuildICmp(bd, LLVMIntEQ, b, zero, ""), PyExc_ZeroDivisionError,
                op == KJ_OP_MOD ? "integer modulo by zero" : "integer division or modulo by zero");
    if (!t->is_signed)
        return op == KJ_OP_MOD ? LLVMBuildURem(bd, a, b, "") : LLVMBuildUDiv(bd, a, b, "");
    /* x / -1 overflows sdiv for the smallest int; Python's answer wraps to -x */
    LLVMValueRef minus1 = LLVMBuildICmp(bd, LLVMIntEQ, b, LLVMConstAllOnes(LLVMTypeOf(b)), "");
    LLVMValueRef safe_b = LLVMBuildSelect(bd, minus1, LLVMConstInt(LLVMTypeOf(b), 1, 0), b, "");
    LLVMValueRef q = LLVMBuildSDiv(bd, a, safe_b, ""), r = LLVMBuildSRem(bd, a, safe_b, "");
    LLVMValueRef adjust = LLVMBuildAnd(bd, LLVMBuildICmp(bd, LLVMIntNE, r, zero, ""),
                                       LLVMBuildICmp(bd, LLVMIntSLT, LLVMBuildXor(bd, r, b, ""), zero, ""), "");
    if (op == KJ_OP_MOD) {
        LLVMValueRef m = LLVMBuildSelect(bd, adjust, LLVMBuildAdd(bd, r, b, ""), r, "");
        return LLVMBuildSelect(bd, minus1, zero, m, "");
    }
    LLVMValueRef fq = LLVMBuildSelect(bd, adjust, LLVMBuildSub(bd, q, LLVMConstInt(LLVMTypeOf(q), 1, 0), ""), q, "");
    return LLVMBuildSelect(bd, minus1, LLVMBuildNeg(bd, a, ""), fq, "");
}

/* Python's float floor division and modulo (Objects/floatobject.c). */
static LLVMValueRef float_floordiv_mod(kj_lw *w, kj_op op, LLVMValueRef a, LLVMValueRef b) {
    LLVMBuilderRef bd = w->b;
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ft);
    kj_raise_if(w, LLVMBuildFCmp(bd, LLVMRealOEQ, b, zero, ""), PyExc_ZeroDivisionError,
                op == KJ_OP_MOD ? "float modulo" : "float floor division by zero");
    LLVMValueRef mod = kj_fm(w, LLVMBuildFRem(bd, a, b, ""));
    LLVMValueRef div = kj_fm(w, LLVMBuildFDiv(bd, kj_fm(w, LLVMBuildFSub(bd, a, mod, "")), b, ""));
    LLVMValueRef mod_nz = LLVMBuildFCmp(bd, LLVMRealUNE, mod, zero, "");
    LLVMValueRef signs_differ = LLVMBuildXor(bd, LLVMBuildFCmp(bd, LLVMRealOLT, b, zero, ""),
                                             LLVMBuildFCmp(bd, LLVMRealOLT, mod, zero, ""), "");
    LLVMValueRef fix = LLVMBuildAnd(bd, mod_nz, signs_differ, "");
    LLVMValueRef m2 = LLVMBuildSelect(bd, fix, kj_fm(w, LLVMBuildFAdd(bd, mod, b, "")), mod, "");
    LLVMValueRef signed_zero = kj_call_intrinsic(w, "llvm.copysign", ft, 2, (LLVMValueRef[]){zero, b});
    m2 = LLVMBuildSelect(bd, mod_nz, m2, signed_zero, "");
    if (op == KJ_OP_MOD)
        return m2;
    LLVMValueRef d2 = LLVMBuildSelect(bd, fix, kj_fm(w, LLVMBuildFSub(bd, div, LLVMConstReal(ft, 1.0), "")), div, "");
    LLVMValueRef fl = kj_call_intrinsic(w, "llvm.floor", ft, 1, (LLVMValueRef[]){d2});
    LLVMValueRef up = LLVMBuildFCmp(bd, LLVMRealOGT, kj_fm(w, LLVMBuildFSub(bd, d2, fl, "")),
                                    LLVMConstReal(ft, 0.5), "");
    fl = LLVMBuildSelect(bd, up, kj_fm(w, LLVMBuildFAdd(bd, fl, LLVMConstReal(ft, 1.0), "")), fl, "");
    LLVMValueRef d_nz = LLVMBuildFCmp(bd, LLVMRealUNE, d2, zero, "");
    LLVMValueRef q0 = kj_call_intrinsic(w, "llvm.copysign", ft, 2,
                                        (LLVMValueRef[]){zero, kj_fm(w, LLVMBuildFDiv(bd, a, b, ""))});
    return LLVMBuildSelect(bd, d_nz, fl, q0, "");
}

static LLVMValueRef int_pow(kj_lw *w, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    LLVMValueRef zero = LLVMConstNull(w->i64);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, b, zero, ""), PyExc_ValueError,
                "integer to a negative power: write float(x) ** n for a fractional result");
    LLVMValueRef a64 = LLVMBuildIntCast2(w->b, a, w->i64, t->is_signed, "");
    LLVMValueRef r = kj_call(w, "kj_rt_ipow", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64},
                             (LLVMValueRef[]){a64, b});
    return LLVMBuildIntCast2(w->b, r, kj_lltype(w, t), t->is_signed, "");
}

/* x ** y in the runtime (CPython's algorithm, in double precision), with
 * CPython's errors. */
static LLVMValueRef complex_pow(kj_lw *w, LLVMValueRef x, LLVMValueRef y, const kj_type *t) {
    LLVMTypeRef d = LLVMDoubleTypeInContext(w->ctx), ft = kj_lltype(w, kj_float(t->bits / 2));
    LLVMValueRef out = kj_entry_alloca(w, LLVMArrayType2(d, 2), "cpow");
    LLVMValueRef args[5];
    for (unsigned i = 0; i < 4; i++)
        args[i] = LLVMBuildFPCast(w->b, LLVMBuildExtractValue(w->b, i < 2 ? x : y, i % 2, ""), d, "");
    args[4] = out;
    LLVMValueRef status = kj_call(w, "kj_rt_cpow", w->i32, 5, (LLVMTypeRef[]){d, d, d, d, w->ptr}, args);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, status, LLVMConstInt(w->i32, 1, 0), ""),
                PyExc_ZeroDivisionError, "0.0 to a negative or complex power");
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, status, LLVMConstInt(w->i32, 2, 0), ""),
                PyExc_OverflowError, "complex exponentiation");
    LLVMValueRef re = LLVMBuildLoad2(w->b, d, out, "");
    LLVMValueRef im = LLVMBuildLoad2(w->b, d, LLVMBuildGEP2(w->b, d, out, (LLVMValueRef[]){LLVMConstInt(w->i64, 1, 0)}, 1, ""), "");
    return complex_make(w, t, LLVMBuildFPCast(w->b, re, ft, ""), LLVMBuildFPCast(w->b, im, ft, ""));
}

static LLVMValueRef complex_arith(kj_lw *w, kj_op op, LLVMValueRef x, LLVMValueRef y,
                                  const kj_type *t, kj_node *at) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef a = LLVMBuildExtractValue(b, x, 0, ""), bi = LLVMBuildExtractValue(b, x, 1, "");
    LLVMValueRef c = LLVMBuildExtractValue(b, y, 0, ""), d = LLVMBuildExtractValue(b, y, 1, "");
#define F(e) kj_fm(w, e)
    switch (op) {
    case KJ_OP_ADD: return complex_make(w, t, F(LLVMBuildFAdd(b, a, c, "")), F(LLVMBuildFAdd(b, bi, d, "")));
    case KJ_OP_SUB: return complex_make(w, t, F(LLVMBuildFSub(b, a, c, "")), F(LLVMBuildFSub(b, bi, d, "")));
    case KJ_OP_MUL:
        return complex_make(w, t, F(LLVMBuildFSub(b, F(LLVMBuildFMul(b, a, c, "")), F(LLVMBuildFMul(b, bi, d, "")), "")),
                            F(LLVMBuildFAdd(b, F(LLVMBuildFMul(b, a, d, "")), F(LLVMBuildFMul(b, bi, c, "")), "")));
    case KJ_OP_DIV: {
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(c));
        kj_raise_if(w, LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, c, zero, ""),
                                    LLVMBuildFCmp(b, LLVMRealOEQ, d, zero, ""), ""),
                    PyExc_ZeroDivisionError, "complex division by zero");
        return kj_complex_divide(w, x, y, t, true);   /* CPython's algorithm: 3 / 1e300j is -3e-300j */
    }
    case KJ_OP_POW: return complex_pow(w, x, y, t);
    default:
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL,
                "this operator is not supported for complex numbers yet");
        return LLVMGetUndef(kj_lltype(w, t));
    }
#undef F
}

LLVMValueRef kj_arith(kj_lw *w, kj_node *at, kj_op op, LLVMValueRef a, LLVMValueRef b,
                      const kj_type *t) {
    LLVMBuilderRef bd = w->b;
    if (t->kind == KJ_T_COMPLEX)
        return complex_arith(w, op, a, b, t, at);
    if (t->kind == KJ_T_FLOAT) {
        switch (op) {
        case KJ_OP_ADD: return kj_fm(w, LLVMBuildFAdd(bd, a, b, ""));
        case KJ_OP_SUB: return kj_fm(w, LLVMBuildFSub(bd, a, b, ""));
        case KJ_OP_MUL: return kj_fm(w, LLVMBuildFMul(bd, a, b, ""));
        case KJ_OP_DIV:
            if (!w->inst->opts.numpy_errors)
                kj_raise_if(w, LLVMBuildFCmp(bd, LLVMRealOEQ, b, LLVMConstNull(LLVMTypeOf(b)), ""),
                            PyExc_ZeroDivisionError, "float division by zero");
            return kj_fm(w, LLVMBuildFDiv(bd, a, b, ""));
        case KJ_OP_FLOORDIV:
        case KJ_OP_MOD: return float_floordiv_mod(w, op, a, b);
        case KJ_OP_POW:
            if (LLVMTypeOf(b) == w->i64)
                b = LLVMBuildSIToFP(bd, b, LLVMTypeOf(a), "");
            return kj_fm(w, kj_call_intrinsic(w, "llvm.pow", LLVMTypeOf(a), 2, (LLVMValueRef[]){a, b}));
        default: break;
        }
    } else if (t->kind == KJ_T_INT || t->kind == KJ_T_BOOL) {
        bool s = t->kind == KJ_T_INT && t->is_signed;
        switch (op) {
        case KJ_OP_ADD: return LLVMBuildAdd(bd, a, b, "");
        case KJ_OP_SUB: return LLVMBuildSub(bd, a, b, "");
        case KJ_OP_MUL: return LLVMBuildMul(bd, a, b, "");
        case KJ_OP_FLOORDIV:
        case KJ_OP_MOD: return int_floordiv_mod(w, op, a, b, t);
        case KJ_OP_POW: return int_pow(w, a, b, t);
        case KJ_OP_BITAND: return LLVMBuildAnd(bd, a, b, "");
        case KJ_OP_BITOR: return LLVMBuildOr(bd, a, b, "");
        case KJ_OP_BITXOR: return LLVMBuildXor(bd, a, b, "");
        case KJ_OP_LSHIFT:
        case KJ_OP_RSHIFT: {
            LLVMTypeRef it = LLVMTypeOf(a);
            unsigned bits = LLVMGetIntTypeWidth(it);
            LLVMValueRef zero = LLVMConstNull(it);
            if (s)
                kj_raise_if(w, LLVMBuildICmp(bd, LLVMIntSLT, b, zero, ""), PyExc_ValueError,
                            "negative shift count");
            LLVMValueRef big = LLVMBuildICmp(bd, LLVMIntUGE, b, LLVMConstInt(it, bits, 0), "");
            LLVMValueRef sb = LLVMBuildSelect(bd, big, LLVMConstInt(it, bits - 1, 0), b, "");
            if (op == KJ_OP_LSHIFT)
                return LLVMBuildSelect(bd, big, zero, LLVMBuildShl(bd, a, sb, ""), "");
            if (s)
                return LLVMBuildAShr(bd, a, sb, "");
            return LLVMBuildSelect(bd, big, zero, LLVMBuildLShr(bd, a, sb, ""), "");
        }
        default: break;
        }
    }
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL,
            "this operator is not supported for %s", t->name);
    return LLVMGetUndef(kj_lltype(w, t));
}

/* The exponent of x ** e worth multiplying out: 2 or 3 for any number, and
 * for a float result any whole constant up to 16, 6 or 6.0 alike (Numba
 * multiplies out int exponents; pow, which CPython calls, is far slower);
 * 0 for none. Floats are multiplied with the rounding error of every
 * product carried along (compensated_power), so that the result is pow's
 * to the last place but in rare ties; plain products were a few units
 * off, which sin of a large power turned into another number. */
static int64_t multiplied_power(const kj_node *e, const kj_type *t) {
    if (e->kind != KJ_E_CONST || t->kind == KJ_T_BOOL)
        return 0;
    double v = kj_is_intlike(e->type) ? (double)e->ival : e->type->kind == KJ_T_FLOAT ? e->fval : 0.0;
    if (v == 2.0 || (v == 3.0 && kj_is_intlike(e->type)))
        return (int64_t)v;
    return t->kind == KJ_T_FLOAT && v >= 2.0 && v <= 16.0 && v == (double)(int64_t)v ? (int64_t)v : 0;
}

/* x ** k by squaring: the squares x, x², x⁴... multiplied in where k has a bit. */
static LLVMValueRef power_by_squaring(kj_lw *w, kj_node *n, LLVMValueRef x, int64_t k, const kj_type *t) {
    LLVMValueRef result = NULL;
    for (LLVMValueRef square = x; k; k >>= 1) {
        if (k & 1)
            result = result ? kj_arith(w, n, KJ_OP_MUL, result, square, t) : square;
        if (k > 1)
            square = kj_arith(w, n, KJ_OP_MUL, square, square, t);
    }
    return result;
}

/* hi, lo = a * b exactly (hi the rounded product, lo what rounding lost), with
 * the errors ea and eb that a and b carry folded into lo. */
static void two_product(kj_lw *w, LLVMValueRef a, LLVMValueRef ea, LLVMValueRef b, LLVMValueRef eb,
                        LLVMValueRef *hi, LLVMValueRef *lo) {
    LLVMBuilderRef bd = w->b;
    LLVMTypeRef ft = LLVMTypeOf(a);
    *hi = LLVMBuildFMul(bd, a, b, "");
    LLVMValueRef exact = kj_call_intrinsic(w, "llvm.fma", ft, 3, (LLVMValueRef[]){a, b, LLVMBuildFNeg(bd, *hi, "")});
    LLVMValueRef carried = LLVMBuildFAdd(bd, LLVMBuildFMul(bd, a, eb, ""), LLVMBuildFMul(bd, ea, b, ""), "");
    *lo = LLVMBuildFAdd(bd, exact, carried, "");
}

/* x ** k of a float x by squaring, each product's rounding error kept
 * (double-float arithmetic through fma) and added back at the end: about as
 * exact as pow. An infinite or NaN product leaves the errors NaN: then the
 * plain product is the answer, as it is when nothing was lost. Under
 * fastmath, plain products. */
static LLVMValueRef compensated_power(kj_lw *w, kj_node *n, LLVMValueRef x, int64_t k, const kj_type *t) {
    if (w->inst->opts.fastmath || k < 3)
        return power_by_squaring(w, n, x, k, t);
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
    LLVMValueRef r = NULL, er = NULL, sq = x, esq = zero;
    for (; k; k >>= 1) {
        if (k & 1) {
            if (r)
                two_product(w, r, er, sq, esq, &r, &er);
            else
                r = sq, er = esq;
        }
        if (k > 1)
            two_product(w, sq, esq, sq, esq, &sq, &esq);
    }
    /* er == 0: r alone, which keeps a zero's sign (-0.0 + 0.0 is +0.0) */
    LLVMValueRef sum = LLVMBuildFAdd(w->b, r, er, "");
    LLVMValueRef finite = LLVMBuildFCmp(w->b, LLVMRealOEQ, LLVMBuildFSub(w->b, er, er, ""), zero, "");
    LLVMValueRef nonzero = LLVMBuildFCmp(w->b, LLVMRealONE, er, zero, "");
    return LLVMBuildSelect(w->b, LLVMBuildAnd(w->b, finite, nonzero, ""), sum, r, "pow");
}

/* a + b of tuples of numbers (infer.c): their items, a's then b's. */
static LLVMValueRef tuple_concat(kj_lw *w, LLVMValueRef a, const kj_type *ta, LLVMValueRef b, const kj_type *t) {
    LLVMValueRef out = LLVMGetUndef(kj_lltype(w, t));
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef item = i < ta->n ? LLVMBuildExtractValue(w->b, a, (unsigned)i, "")
                                      : LLVMBuildExtractValue(w->b, b, (unsigned)(i - ta->n), "");
        out = LLVMBuildInsertValue(w->b, out, item, (unsigned)i, "");
    }
    return out;
}

static LLVMValueRef lower_binop(kj_lw *w, kj_node *n) {
    const kj_type *ta = n->kids[0]->type, *tb = n->kids[1]->type, *t = n->type;
    LLVMValueRef a = kj_lower_expr(w, n->kids[0]);
    if (t->kind == KJ_T_TUPLE && ta->kind == KJ_T_TUPLE && tb->kind == KJ_T_TUPLE)
        return tuple_concat(w, a, ta, kj_lower_expr(w, n->kids[1]), t);
    int64_t power = n->op == KJ_OP_POW ? multiplied_power(n->kids[1], t) : 0;
    if (power && t->kind == KJ_T_FLOAT)
        return compensated_power(w, n, kj_cast(w, a, ta, t), power, t);
    if (power)
        return power_by_squaring(w, n, kj_cast(w, a, ta, t), power, t);
    LLVMValueRef b = kj_lower_expr(w, n->kids[1]);
    if (n->op == KJ_OP_DIV && kj_is_intlike(ta) && kj_is_intlike(tb)) {
        if (!w->inst->opts.numpy_errors)
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntEQ, b, LLVMConstNull(LLVMTypeOf(b)), ""),
                        PyExc_ZeroDivisionError, "division by zero");
        return kj_arith(w, n, n->op, kj_cast(w, a, ta, t), kj_cast(w, b, tb, t), t);
    }
    if (n->op == KJ_OP_POW && kj_is_intlike(tb) && t->kind != KJ_T_COMPLEX)
        return kj_arith(w, n, n->op, kj_cast(w, a, ta, t),
                        kj_cast(w, b, tb, t->kind == KJ_T_FLOAT ? t : KJ_I64), t);
    return kj_arith(w, n, n->op, kj_cast(w, a, ta, t), kj_cast(w, b, tb, t), t);
}

static LLVMValueRef lower_unary(kj_lw *w, kj_node *n) {
    const kj_type *ta = n->kids[0]->type, *t = n->type;
    LLVMValueRef a = kj_lower_expr(w, n->kids[0]);
    if (n->op == KJ_OP_NOT)
        return LLVMBuildNot(w->b, kj_truth(w, a, ta), "");
    a = kj_cast(w, a, ta, t);
    switch (n->op) {
    case KJ_OP_POS: return a;
    case KJ_OP_INVERT: return LLVMBuildNot(w->b, a, "");
    case KJ_OP_NEG:
        if (t->kind == KJ_T_FLOAT)
            return kj_fm(w, LLVMBuildFNeg(w->b, a, ""));
        if (t->kind == KJ_T_COMPLEX)
            return complex_make(w, t, kj_fm(w, LLVMBuildFNeg(w->b, LLVMBuildExtractValue(w->b, a, 0, ""), "")),
                                kj_fm(w, LLVMBuildFNeg(w->b, LLVMBuildExtractValue(w->b, a, 1, ""), "")));
        return LLVMBuildNeg(w->b, a, "");
    default: return a;
    }
}

static LLVMValueRef compare_one(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *ta,
                                LLVMValueRef b, const kj_type *tb);

/* Python's tuple comparison: the first pair of elements that differ decides
 * (with the operator); when one tuple is a prefix of the other, the lengths
 * do. Built from the last element back as selects: every element is already
 * a value, and a NaN pair "differs" and compares false, as in CPython. */
static LLVMValueRef compare_tuples(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *ta,
                                   LLVMValueRef b, const kj_type *tb) {
    int na = ta->n, nb = tb->n, n = na < nb ? na : nb;
    bool by_length = op == KJ_OP_EQ   ? na == nb
                     : op == KJ_OP_NE ? na != nb
                     : op == KJ_OP_LT ? na < nb
                     : op == KJ_OP_LE ? na <= nb
                     : op == KJ_OP_GT ? na > nb
                                      : na >= nb;
    LLVMValueRef r = LLVMConstInt(w->i1, by_length, 0);
    if ((op == KJ_OP_EQ || op == KJ_OP_NE) && na != nb)
        return r;
    for (int i = n - 1; i >= 0; i--) {
        LLVMValueRef x = LLVMBuildExtractValue(w->b, a, (unsigned)i, "");
        LLVMValueRef y = LLVMBuildExtractValue(w->b, b, (unsigned)i, "");
        const kj_type *tx = ta->elems[i], *ty = tb->elems[i];
        LLVMValueRef same = compare_one(w, KJ_OP_EQ, x, tx, y, ty);
        LLVMValueRef decided = op == KJ_OP_EQ ? LLVMConstInt(w->i1, 0, 0)
                               : op == KJ_OP_NE ? LLVMConstInt(w->i1, 1, 0)
                                                : compare_one(w, op, x, tx, y, ty);
        r = LLVMBuildSelect(w->b, same, r, decided, "");
    }
    return r;
}

/* An int against a float, exactly, as CPython compares them (Numba and C
 * convert the int, and 2**63 - 1 then equals 2.0**63). The rounded int fi
 * decides wherever it differs from f: rounding is monotone and f is a float
 * already, so fi < f means i < f. Where they are equal f is a whole number,
 * and the ints compare, except at the top of the range (f = 2**63, or 2**64
 * unsigned), which every i is below. op is i's side of the comparison. */
static LLVMValueRef compare_int_float(kj_lw *w, kj_op op, LLVMValueRef i, const kj_type *ti, LLVMValueRef f) {
    static const LLVMRealPredicate pf[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    static const LLVMIntPredicate ps[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate pu[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    bool s = ti->kind == KJ_T_INT && ti->is_signed;
    LLVMTypeRef ft = LLVMTypeOf(f);
    i = kj_cast(w, i, ti, s ? KJ_I64 : kj_int(64, false));
    LLVMValueRef fi = s ? LLVMBuildSIToFP(w->b, i, ft, "") : LLVMBuildUIToFP(w->b, i, ft, "");
    LLVMValueRef top = LLVMConstReal(ft, s ? 9223372036854775808.0 : 18446744073709551616.0);
    LLVMValueRef by_float = LLVMBuildFCmp(w->b, pf[op - KJ_OP_EQ], fi, f, "");
    LLVMValueRef differ = LLVMBuildFCmp(w->b, LLVMRealUNE, fi, f, "");
    LLVMValueRef at_top = LLVMBuildFCmp(w->b, LLVMRealOEQ, f, top, "");
    /* in range wherever it is used: a whole number below the top */
    LLVMValueRef whole = LLVMBuildSelect(w->b, LLVMBuildOr(w->b, differ, at_top, ""), LLVMConstNull(ft), f, "");
    LLVMValueRef j = s ? LLVMBuildFPToSI(w->b, whole, w->i64, "") : LLVMBuildFPToUI(w->b, whole, w->i64, "");
    LLVMValueRef by_int = LLVMBuildICmp(w->b, (s ? ps : pu)[op - KJ_OP_EQ], i, j, "");
    LLVMValueRef below_top = LLVMConstInt(w->i1, op == KJ_OP_NE || op == KJ_OP_LT || op == KJ_OP_LE, 0);
    return LLVMBuildSelect(w->b, differ, by_float, LLVMBuildSelect(w->b, at_top, below_top, by_int, ""), "");
}

/* Whether int i of type ti converts to a float of `mantissa` bits exactly:
 * a type no wider, or a constant no larger than 2**mantissa, so that
 * `x >= 4` of a float x stays one float comparison. */
static bool converts_exactly(LLVMValueRef i, const kj_type *ti, int mantissa) {
    if (ti->bits <= mantissa)
        return true;
    if (!LLVMIsAConstantInt(i))
        return false;
    unsigned long long limit = 1ull << mantissa;
    if (!ti->is_signed)
        return LLVMConstIntGetZExtValue(i) <= limit;
    long long c = LLVMConstIntGetSExtValue(i);
    return c >= -(long long)limit && c <= (long long)limit;
}

static LLVMValueRef compare_one(kj_lw *w, kj_op op, LLVMValueRef a, const kj_type *ta,
                                LLVMValueRef b, const kj_type *tb) {
    if (ta->kind == KJ_T_TUPLE && tb->kind == KJ_T_TUPLE && op >= KJ_OP_EQ && op <= KJ_OP_GE)
        return compare_tuples(w, op, a, ta, b, tb);
    if (ta->kind == KJ_T_NONE || tb->kind == KJ_T_NONE || op == KJ_OP_IS || op == KJ_OP_ISNOT) {
        /* x is None / x == None: true when x is None (or an empty optional) */
        bool want_none = op == KJ_OP_IS || op == KJ_OP_EQ;
        LLVMValueRef is_none;
        const kj_type *other = ta->kind == KJ_T_NONE ? tb : ta;
        LLVMValueRef ov = ta->kind == KJ_T_NONE ? b : a;
        if (ta->kind == KJ_T_NONE && tb->kind == KJ_T_NONE)
            is_none = LLVMConstInt(w->i1, 1, 0);
        else if (other->kind == KJ_T_OPTIONAL)
            is_none = LLVMBuildNot(w->b, LLVMBuildExtractValue(w->b, ov, 0, ""), "");
        else if (ta->kind != KJ_T_NONE && tb->kind != KJ_T_NONE)
            /* `is` between numbers: identity of small values, as equality */
            return compare_one(w, op == KJ_OP_IS ? KJ_OP_EQ : KJ_OP_NE, a, ta, b, tb);
        else
            is_none = LLVMConstInt(w->i1, 0, 0);
        return want_none ? is_none : LLVMBuildNot(w->b, is_none, "");
    }
    if (ta->kind == KJ_T_OPTIONAL || tb->kind == KJ_T_OPTIONAL) {
        const kj_type *va = ta->kind == KJ_T_OPTIONAL ? ta->elem : ta, *vb = tb->kind == KJ_T_OPTIONAL ? tb->elem : tb;
        return compare_one(w, op, kj_cast(w, a, ta, va), va, kj_cast(w, b, tb, vb), vb);
    }
    const kj_type *t = kj_promote(ta, tb);
    if (kj_is_intlike(ta) && kj_is_intlike(tb) && t->kind != KJ_T_FLOAT)
        t = t->kind == KJ_T_INT && !t->is_signed ? t : KJ_I64;
    if (t->kind == KJ_T_FLOAT && op >= KJ_OP_EQ && op <= KJ_OP_GE) {
        /* ints that may not fit t's mantissa compare exactly; the rest convert exactly */
        int mantissa = t->bits == 64 ? 53 : 24;
        if (ta->kind == KJ_T_INT && tb->kind == KJ_T_FLOAT && !converts_exactly(a, ta, mantissa))
            return compare_int_float(w, op, a, ta, kj_cast(w, b, tb, t));
        if (tb->kind == KJ_T_INT && ta->kind == KJ_T_FLOAT && !converts_exactly(b, tb, mantissa)) {
            static const kj_op mirrored[] = {KJ_OP_EQ, KJ_OP_NE, KJ_OP_GT, KJ_OP_GE, KJ_OP_LT, KJ_OP_LE};
            return compare_int_float(w, mirrored[op - KJ_OP_EQ], b, tb, kj_cast(w, a, ta, t));
        }
    }
    a = kj_cast(w, a, ta, t);
    b = kj_cast(w, b, tb, t);
    if (t->kind == KJ_T_COMPLEX) {
        const kj_type *ft = kj_float(t->bits / 2);
        LLVMValueRef re = compare_one(w, KJ_OP_EQ, LLVMBuildExtractValue(w->b, a, 0, ""), ft,
                                      LLVMBuildExtractValue(w->b, b, 0, ""), ft);
        LLVMValueRef im = compare_one(w, KJ_OP_EQ, LLVMBuildExtractValue(w->b, a, 1, ""), ft,
                                      LLVMBuildExtractValue(w->b, b, 1, ""), ft);
        LLVMValueRef eq = LLVMBuildAnd(w->b, re, im, "");
        return op == KJ_OP_EQ ? eq : LLVMBuildNot(w->b, eq, "");
    }
    if (t->kind == KJ_T_FLOAT) {
        static const LLVMRealPredicate p[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                              LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
        return LLVMBuildFCmp(w->b, p[op - KJ_OP_EQ], a, b, "");
    }
    bool s = t->kind == KJ_T_INT && t->is_signed;
    static const LLVMIntPredicate ps[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate pu[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    return LLVMBuildICmp(w->b, (s ? ps : pu)[op - KJ_OP_EQ], a, b, "");
}

/* a < b < c: each operand evaluated once, stopping at the first false. */
static LLVMValueRef lower_compare(kj_lw *w, kj_node *n) {
    LLVMValueRef a = kj_lower_expr(w, n->kids[0]);
    if (n->nkids == 2)
        return compare_one(w, n->ops[0], a, n->kids[0]->type, kj_lower_expr(w, n->kids[1]), n->kids[1]->type);
    LLVMValueRef result = kj_entry_alloca(w, w->i1, "chain");
    LLVMBasicBlockRef exit = kj_new_bb(w, "cmp.exit");
    for (int i = 1; i < n->nkids; i++) {
        LLVMValueRef b = kj_lower_expr(w, n->kids[i]);
        LLVMValueRef r = compare_one(w, n->ops[i - 1], a, n->kids[i - 1]->type, b, n->kids[i]->type);
        LLVMBuildStore(w->b, r, result);
        if (i + 1 < n->nkids) {
            LLVMBasicBlockRef next = kj_new_bb(w, "cmp.next");
            LLVMBuildCondBr(w->b, r, next, exit);
            LLVMPositionBuilderAtEnd(w->b, next);
        }
        a = b;
    }
    LLVMBuildBr(w->b, exit);
    LLVMPositionBuilderAtEnd(w->b, exit);
    return LLVMBuildLoad2(w->b, w->i1, result, "");
}

/* `a or b` / `a and b` give an operand (converted to the unified type);
 * `x if c else y` one branch. Both through a slot that mem2reg removes. */
static LLVMValueRef lower_choice(kj_lw *w, kj_node *n) {
    const kj_type *t = n->type;
    LLVMValueRef slot = kj_entry_alloca(w, kj_lltype(w, t), "choice");
    LLVMBasicBlockRef exit = kj_new_bb(w, "choice.exit");
    if (n->kind == KJ_E_IFEXP) {
        LLVMValueRef c = kj_truth(w, kj_lower_expr(w, n->kids[0]), n->kids[0]->type);
        LLVMBasicBlockRef yes = kj_new_bb(w, "ifexp.then"), no = kj_new_bb(w, "ifexp.else");
        LLVMBuildCondBr(w->b, c, yes, no);
        for (int k = 1; k <= 2; k++) {
            LLVMPositionBuilderAtEnd(w->b, k == 1 ? yes : no);
            LLVMBuildStore(w->b, kj_cast(w, kj_lower_expr(w, n->kids[k]), n->kids[k]->type, t), slot);
            LLVMBuildBr(w->b, exit);
        }
    } else {
        for (int i = 0; i < n->nkids; i++) {
            LLVMValueRef v = kj_lower_expr(w, n->kids[i]);
            LLVMBuildStore(w->b, kj_cast(w, v, n->kids[i]->type, t), slot);
            if (i + 1 == n->nkids) {
                LLVMBuildBr(w->b, exit);
                break;
            }
            LLVMValueRef truth = kj_truth(w, v, n->kids[i]->type);
            LLVMBasicBlockRef next = kj_new_bb(w, "boolop.next");
            if (n->op == KJ_OP_OR)
                LLVMBuildCondBr(w->b, truth, exit, next);
            else
                LLVMBuildCondBr(w->b, truth, next, exit);
            LLVMPositionBuilderAtEnd(w->b, next);
        }
    }
    LLVMPositionBuilderAtEnd(w->b, exit);
    return LLVMBuildLoad2(w->b, kj_lltype(w, t), slot, "");
}

/* An argument's value; but a range is no value: len(range(...)) counts it
 * from its node (builtins.c), as a loop over it does. */
static LLVMValueRef call_argument(kj_lw *w, kj_node *call, kj_node *arg) {
    if (arg->type && arg->type->kind == KJ_T_RANGE && !call->aux && call->kids[0]->name &&
        !strcmp(call->kids[0]->name, "len"))
        return LLVMGetUndef(w->i64);
    return kj_lower_expr(w, arg);
}

static LLVMValueRef lower_call(kj_lw *w, kj_node *n) {
    int nargs = n->nkids - 1;
    LLVMValueRef args[nargs + 1];
    int first = 0;   /* arguments given out of the callee's order go first, in the source's */
    for (; n->arg_order && n->arg_order[first] >= 0; first++)
        args[n->arg_order[first] - 1] = call_argument(w, n, n->kids[n->arg_order[first]]);
    for (int i = first; i < nargs; i++)
        args[i] = call_argument(w, n, n->kids[i + 1]);
    if (n->aux) {   /* another kiln function, compiled in this unit */
        kj_instance *callee = n->aux;
        LLVMValueRef ret = kj_entry_alloca(w, kj_lltype(w, callee->ret), "ret");
        LLVMValueRef cargs[nargs + 1];
        cargs[0] = ret;
        for (int i = 0; i < nargs; i++)
            cargs[i + 1] = kj_cast(w, args[i], n->kids[i + 1]->type, callee->args[i]);
        LLVMValueRef st = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(callee->llfn), callee->llfn,
                                         cargs, (unsigned)nargs + 1, "");
        kj_check_status(w, st);
        return kj_nrt_temp(w, LLVMBuildLoad2(w->b, kj_lltype(w, callee->ret), ret, ""), callee->ret);
    }
    return kj_lower_builtin(w, n, args);
}

static LLVMValueRef lower_attr(kj_lw *w, kj_node *n) {
    const kj_type *t = n->kids[0]->type;
    LLVMValueRef v = kj_lower_expr(w, n->kids[0]);
    const char *a = n->name;
    if (t->kind == KJ_T_ARRAY) {
        if (strcmp(a, "shape") == 0 || strcmp(a, "strides") == 0) {
            LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, n->type));
            for (int i = 0; i < t->ndim; i++)
                tup = LLVMBuildInsertValue(w->b, tup, kj_array_field(w, v, a[1] == 'h' ? 2 : 3, i),
                                           (unsigned)i, "");
            return tup;
        }
        if (strcmp(a, "ndim") == 0)
            return LLVMConstInt(w->i64, (unsigned)t->ndim, 0);
        if (strcmp(a, "itemsize") == 0)
            return LLVMConstInt(w->i64, LLVMABISizeOfType(LLVMGetModuleDataLayout(w->mod),
                                                          kj_llmemtype(w, t->elem)), 0);
        if (strcmp(a, "size") == 0) {
            LLVMValueRef s = LLVMConstInt(w->i64, 1, 0);
            for (int i = 0; i < t->ndim; i++)
                s = LLVMBuildMul(w->b, s, kj_array_field(w, v, 2, i), "");
            return s;
        }
        if (strcmp(a, "T") == 0) {
            /* shape and strides reversed */
            LLVMValueRef shape = LLVMBuildExtractValue(w->b, v, 2, ""), strides = LLVMBuildExtractValue(w->b, v, 3, "");
            LLVMValueRef ns = LLVMGetUndef(LLVMTypeOf(shape)), nt = LLVMGetUndef(LLVMTypeOf(strides));
            for (int i = 0; i < t->ndim; i++) {
                ns = LLVMBuildInsertValue(w->b, ns, LLVMBuildExtractValue(w->b, shape, (unsigned)(t->ndim - 1 - i), ""), (unsigned)i, "");
                nt = LLVMBuildInsertValue(w->b, nt, LLVMBuildExtractValue(w->b, strides, (unsigned)(t->ndim - 1 - i), ""), (unsigned)i, "");
            }
            LLVMValueRef r = LLVMBuildInsertValue(w->b, v, ns, 2, "");
            return LLVMBuildInsertValue(w->b, r, nt, 3, "");
        }
    }
    if (t->kind == KJ_T_COMPLEX)
        return LLVMBuildExtractValue(w->b, v, a[0] == 'r' ? 0 : 1, "");
    /* .real / .imag of a real number */
    return a[0] == 'r' ? v : LLVMConstNull(kj_lltype(w, t));
}

static LLVMValueRef lower_expr_inner(kj_lw *w, kj_node *n) {
    const kj_type *t = n->type;
    switch (n->kind) {
    case KJ_E_CONST:
        switch (t->kind) {
        case KJ_T_BOOL: return LLVMConstInt(w->i1, (unsigned long long)n->ival, 0);
        case KJ_T_INT: return cint(w, t, n->ival);
        case KJ_T_FLOAT: return cfloat(w, t, n->fval);
        case KJ_T_COMPLEX: {
            const kj_type *ft = kj_float(t->bits / 2);
            return LLVMConstNamedStruct(kj_lltype(w, t), (LLVMValueRef[]){cfloat(w, ft, n->fval), cfloat(w, ft, n->fval2)}, 2);
        }
        case KJ_T_ARRAY: return kj_kind_ops_of(t->kind)->constant(w, n);   /* frozen at compile time */
        default: return LLVMConstInt(w->i8, 0, 0);
        }
    case KJ_E_LOCAL:
        if (n->may_be_unbound && w->bound && w->bound[n->slot]) {
            char msg[200];
            snprintf(msg, sizeof msg, "cannot access local variable '%s' where it is not associated with a value",
                     w->f->locals[n->slot].name);
            kj_raise_if(w, LLVMBuildNot(w->b, LLVMBuildLoad2(w->b, w->i1, w->bound[n->slot], ""), ""),
                        PyExc_UnboundLocalError, msg);
        }
        return LLVMBuildLoad2(w->b, kj_lltype(w, t), w->slots[n->slot], w->f->locals[n->slot].name);
    case KJ_E_UNWRAP: {   /* Numba's message, for the None a caller passed */
        const kj_type *ot = n->kids[0]->type;
        LLVMValueRef o = kj_lower_expr(w, n->kids[0]);
        if (ot->kind != KJ_T_OPTIONAL)
            return kj_cast(w, o, ot, t);
        char msg[sizeof ot->elem->name + 32];
        snprintf(msg, sizeof msg, "expected %s, got None", ot->elem->name);
        kj_raise_if(w, LLVMBuildNot(w->b, LLVMBuildExtractValue(w->b, o, 0, "present"), ""), PyExc_TypeError, msg);
        return kj_cast(w, LLVMBuildExtractValue(w->b, o, 1, ""), ot->elem, t);
    }
    case KJ_E_BINOP: return lower_binop(w, n);
    case KJ_E_UNARY: return lower_unary(w, n);
    case KJ_E_COMPARE: return lower_compare(w, n);
    case KJ_E_BOOLOP:
    case KJ_E_IFEXP: return lower_choice(w, n);
    case KJ_E_CALL: return lower_call(w, n);
    case KJ_E_METHOD: {   /* conjugate() */
        LLVMValueRef v = kj_cast(w, kj_lower_expr(w, n->kids[0]), n->kids[0]->type, t);
        if (t->kind != KJ_T_COMPLEX)
            return v;
        return LLVMBuildInsertValue(w->b, v, kj_fm(w, LLVMBuildFNeg(w->b, LLVMBuildExtractValue(w->b, v, 1, ""), "")), 1, "");
    }
    case KJ_E_ATTR: return lower_attr(w, n);
    case KJ_E_INDEX: return kj_lower_index(w, n);
    case KJ_E_FUNC:   /* a kiln function as a value: its type says which */
        return LLVMConstInt(w->i8, 0, 0);
    case KJ_E_TUPLE: {
        LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
        for (int i = 0; i < n->nkids; i++)
            tup = LLVMBuildInsertValue(w->b, tup, kj_lower_expr(w, n->kids[i]), (unsigned)i, "");
        return tup;
    }
    default:
        kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "internal: cannot lower this expression");
        return LLVMGetUndef(w->i8);
    }
}

/* n evaluates kids that never come back (ir.h's diverges): those of its
 * kids up to the last of them that always run, in order, for what they do
 * before it. */
static LLVMValueRef lower_diverging(kj_lw *w, kj_node *n) {
    for (int k = 0; k < n->diverges; k++) {
        kj_node *kid = n->kids[k];
        if (kid && kj_kid_always_evaluated(n, k) && kid->kind != KJ_E_FUNC && kid->kind != KJ_E_EXC)
            kj_lower_expr(w, kid->kind == KJ_E_KEYWORD ? kid->kids[0] : kid);
    }
    return LLVMGetUndef(kj_lltype(w, n->type));
}

static LLVMValueRef lower_expr_kind(kj_lw *w, kj_node *n);

LLVMValueRef kj_lower_expr(kj_lw *w, kj_node *n) {
    LLVMValueRef v = n->diverges ? lower_diverging(w, n) : lower_expr_kind(w, n);
    if (n->type == kj_never() && !n->diverges) {
        /* a function found to return on no path returned: a bug of Kiln's, said so, never run on */
        kj_raise(w, PyExc_SystemError, "internal: a function Kiln found to always raise returned");
        v = LLVMGetUndef(kj_lltype(w, n->type));
    }
    return v;
}

static LLVMValueRef lower_expr_kind(kj_lw *w, kj_node *n) {
    kj_at(w, n);
    for (kj_kind k = 0; k < KJ_KIND_COUNT; k++) {   /* arrays first: NumPy's a + b of a list and an array */
        const kj_kind_ops *ops = kj_kind_ops_of(k);
        if (ops->lowers && ops->lowers(n))
            return ops->lower(w, n);
    }
    if (kj_str_lowers(n))
        return kj_str_lower(w, n);
    const kj_callable *k = kj_callable_of_call(n);   /* callables.h */
    if (!k)
        k = kj_container_method_of_call(n);
    if (k)
        return kj_callable_fits_target(w->u, k, n) ? k->lower(w, n) : LLVMGetUndef(kj_lltype(w, n->type));
    return lower_expr_inner(w, n);
}
