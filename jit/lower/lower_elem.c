/* lower_elem: the way in to one element of a NumPy ufunc (kj_np_elem_op:
 * the entry's own element function, numpy/ufunc_*.c) and what those
 * functions share: libm and C99 complex calls through the target, complex
 * parts and division, ldexp, the type a comparison is made in. */
#include "jit/lower/lower_elem.h"
#include "jit/core/np_dtype.h"
#include "jit/lower/vecmath.h"

#include <string.h>

static LLVMValueRef fc(LLVMTypeRef t, double v) { return LLVMConstReal(t, v); }

static int float_bits(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind ? 32 : k == LLVMDoubleTypeKind ? 64 : 0;
}

LLVMValueRef kj_elem_intrinsic(kj_lw *w, const char *name, LLVMTypeRef t, int n, LLVMValueRef *x) {
    LLVMValueRef call = kj_call_intrinsic(w, name, t, n, x);
    return kj_fm(w, kj_np_simd_math(w, call, name + 5, float_bits(t), n));
}

/* The call of libm's fn through the target, or NULL (an error at `at`). */
static LLVMValueRef libm_call(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x) {
    const kj_target *tg = w->u->target;
    const char *sym = tg->math_symbol ? tg->math_symbol(tg, fn, t->bits) : NULL;
    LLVMTypeRef ft = kj_lltype(w, t);
    if (!sym) {
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, at->line, at->col, NULL, "%s is not available on the %s target",
                fn, tg->name);
        return NULL;
    }
    LLVMTypeRef tys[2] = {ft, ft};
    return kj_call(w, sym, ft, n, tys, x);
}

/* A libm function through the target: lower_elem.h. */
LLVMValueRef kj_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x) {
    LLVMValueRef call = libm_call(w, at, fn, t, n, x);
    if (!call)
        return LLVMGetUndef(kj_lltype(w, t));
    kj_np_vector_variants(w, call, fn, t->bits, n);
    return kj_fm(w, call);
}

LLVMValueRef kj_elem_libm(kj_lw *w, kj_node *at, const char *fn, const kj_type *t, int n, LLVMValueRef *x) {
    LLVMValueRef call = libm_call(w, at, fn, t, n, x);
    if (!call)
        return LLVMGetUndef(kj_lltype(w, t));
    return kj_fm(w, kj_np_simd_math(w, call, fn, t->bits, n));
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

/* For integers a type holding both exactly: NumPy's value-based casting
 * of constants amounts to that (float32 stays float32 in NumPy's common
 * type). */
const kj_type *kj_elem_compare_type(const kj_type *a, const kj_type *b) {
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


void kj_elem_operands(const kj_elem *e, LLVMValueRef *v) {
    for (int i = 0; i < e->n; i++)
        v[i] = kj_cast(e->w, e->x[i], e->xt[i], e->rt);
}

/* ---- complex elements: {real, imag} pairs ---- */

LLVMValueRef kj_elem_part(kj_lw *w, LLVMValueRef z, unsigned i) { return LLVMBuildExtractValue(w->b, z, i, ""); }

LLVMValueRef kj_elem_pair(kj_lw *w, const kj_type *t, LLVMValueRef re, LLVMValueRef im) {
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
    LLVMValueRef a = kj_elem_part(w, x, 0), bi = kj_elem_part(w, x, 1), c = kj_elem_part(w, y, 0), d = kj_elem_part(w, y, 1);
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
    return kj_elem_pair(w, t, LLVMBuildSelect(b, real_big, re1, re2, ""), LLVMBuildSelect(b, real_big, im1, im2, ""));
}

/* C99's complex functions from the C library, which NumPy's own complex
 * math calls where the system has them (glibc does). The x86-64 C calling
 * convention passes a double complex as two doubles and returns it in two
 * registers, a float complex packed in one: LLVM's {double, double}
 * (double, double) and <2 x float> (<2 x float>); another machine is not
 * called (NULL). */
LLVMValueRef kj_elem_complex_libm(kj_lw *w, const char *c, int n, LLVMValueRef *z, const kj_type *t) {
    const kj_target *tg = w->u->target;
    if (strcmp(tg->name, "cpu") != 0 || strncmp(tg->triple(tg), "x86_64", 6) != 0)
        return NULL;
    const char *sym = tg->math_symbol(tg, c, t->bits / 2);
    if (!sym)
        return NULL;
    LLVMValueRef args[4];
    LLVMTypeRef types[4];
    LLVMTypeRef v2 = LLVMVectorType(w->f32, 2);
    LLVMValueRef c0 = LLVMConstInt(w->i32, 0, 0), c1 = LLVMConstInt(w->i32, 1, 0);
    for (int k = 0; k < n; k++) {
        LLVMValueRef re = kj_elem_part(w, z[k], 0), im = kj_elem_part(w, z[k], 1);
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
        return kj_elem_pair(w, t, kj_elem_part(w, r, 0), kj_elem_part(w, r, 1));
    }
    LLVMValueRef r = kj_call(w, sym, v2, n, types, args);
    return kj_elem_pair(w, t, LLVMBuildExtractElement(w->b, r, c0, ""), LLVMBuildExtractElement(w->b, r, c1, ""));
}

LLVMValueRef kj_np_elem_op(kj_lw *w, kj_node *at, const char *u, int n, LLVMValueRef *x,
                           const kj_type *const *xt, const kj_type *rt) {
    const kj_callable *k = kj_np_ufunc(u);
    bool complex = rt->kind == KJ_T_COMPLEX;
    for (int i = 0; i < n; i++)
        complex = complex || xt[i]->kind == KJ_T_COMPLEX;
    LLVMValueRef (*elem)(const kj_elem *) = !k || k->nin != n ? NULL : complex ? k->elem_complex : k->elem;
    LLVMValueRef v = elem ? elem(&(kj_elem){w, k, at, n, x, xt, rt}) : NULL;
    if (v)
        return v;
    int line = at ? at->line : 0, col = at ? at->col : 0;
    if (complex)
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, line, col, "Loop over the elements.",
                "np.%s of complex numbers in array expressions is not supported yet", u);
    else
        kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, line, col, NULL, "np.%s is not supported for %s here", u, rt->name);
    return LLVMGetUndef(kj_lltype(w, rt));
}
