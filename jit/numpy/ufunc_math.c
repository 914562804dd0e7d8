/* ufunc_math: NumPy's floating-point ufuncs (ufuncs.h): transcendental
 * functions through LLVM's intrinsics or libm (and C99's complex ones for
 * complex numbers), rounding to integral values, angles, and the functions
 * of a float's representation. On numbers most are math's functions
 * (their .scalar), which give NumPy's answers there. */
#include "jit/numpy/ufuncs.h"

#include <string.h>

/* A function of one float: LLVM's intrinsic ("llvm.sin") or libm's
 * function of that name; for complex numbers C99's (NULL: none). */
typedef struct {
    const char *impl, *complex_impl;
} float_func;

static LLVMValueRef float_function(const kj_elem *e) {
    const float_func *f = e->k->data;
    if (!kj_elem_is_float(e->rt))
        return NULL;
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (!strncmp(f->impl, "llvm.", 5))
        return kj_elem_intrinsic(e->w, f->impl, LLVMTypeOf(v[0]), 1, v);
    return kj_elem_libm(e->w, e->at, f->impl, e->rt, 1, v);
}

static LLVMValueRef float_function_complex(const kj_elem *e) {
    const float_func *f = e->k->data;
    if (!f->complex_impl || e->rt->kind != KJ_T_COMPLEX)
        return NULL;
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    return kj_elem_complex_libm(e->w, f->complex_impl, 1, v, e->rt);
}

/* One entry: np.<name> is impl (complex_impl for complex numbers), and on
 * numbers the builtin entry `scalar`. */
#define FLOAT_FUNC(name, impl, complex_impl, scalar_, cheap_)                                              \
    static const float_func float_func_##name = {impl, complex_impl};                                   \
    KJ_UFUNC(name, #name, 1, .elem = float_function, .elem_complex = float_function_complex,           \
             .data = &float_func_##name, .scalar = scalar_, .cheap = cheap_)

FLOAT_FUNC(sqrt, "llvm.sqrt", "csqrt", "math.sqrt", true);
FLOAT_FUNC(cbrt, "cbrt", NULL, "math.cbrt", false);
FLOAT_FUNC(exp, "llvm.exp", "cexp", "math.exp", false);
FLOAT_FUNC(exp2, "llvm.exp2", NULL, "math.exp2", false);
FLOAT_FUNC(expm1, "expm1", NULL, "math.expm1", false);
FLOAT_FUNC(log, "llvm.log", "clog", "math.log", false);
FLOAT_FUNC(log1p, "log1p", NULL, "math.log1p", false);
FLOAT_FUNC(log10, "llvm.log10", NULL, "math.log10", false);
FLOAT_FUNC(log2, "llvm.log2", NULL, "math.log2", false);
FLOAT_FUNC(sin, "llvm.sin", "csin", "math.sin", false);
FLOAT_FUNC(cos, "llvm.cos", "ccos", "math.cos", false);
FLOAT_FUNC(tan, "llvm.tan", "ctan", "math.tan", false);
FLOAT_FUNC(arcsin, "llvm.asin", "casin", "math.asin", false);
FLOAT_FUNC(arccos, "llvm.acos", "cacos", "math.acos", false);
FLOAT_FUNC(arctan, "llvm.atan", "catan", "math.atan", false);
FLOAT_FUNC(sinh, "llvm.sinh", "csinh", "math.sinh", false);
FLOAT_FUNC(cosh, "llvm.cosh", "ccosh", "math.cosh", false);
FLOAT_FUNC(tanh, "llvm.tanh", "ctanh", "math.tanh", false);
FLOAT_FUNC(arcsinh, "asinh", "casinh", "math.asinh", false);
FLOAT_FUNC(arccosh, "acosh", "cacosh", "math.acosh", false);
FLOAT_FUNC(arctanh, "atanh", "catanh", "math.atanh", false);

/* floor, ceil, trunc and rint: an integer is already integral */
static LLVMValueRef integral(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    if (!kj_elem_is_float(e->rt))
        return v[0];
    return kj_elem_intrinsic(e->w, e->k->data, LLVMTypeOf(v[0]), 1, v);
}

/* On numbers np.floor, np.ceil and np.trunc keep a float, where math's
 * give an int: builtins_math.c's entries for them. */
KJ_UFUNC(floor, "floor", 1, .elem = integral, .data = "llvm.floor", .scalar = "number:np.floor", .cheap = true);
KJ_UFUNC(ceil, "ceil", 1, .elem = integral, .data = "llvm.ceil", .scalar = "number:np.ceil", .cheap = true);
KJ_UFUNC(trunc, "trunc", 1, .elem = integral, .data = "llvm.trunc", .scalar = "number:np.trunc", .cheap = true);
KJ_UFUNC(rint, "rint", 1, .elem = integral, .data = "llvm.rint");

/* x times the constant its entry's data points to */
static LLVMValueRef scaled(const kj_elem *e) {
    if (!kj_elem_is_float(e->rt))
        return NULL;
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    const double *factor = e->k->data;
    return kj_fm(e->w, LLVMBuildFMul(e->w->b, v[0], LLVMConstReal(LLVMTypeOf(v[0]), *factor), ""));
}

static const double to_radians = 0.017453292519943295, to_degrees = 57.29577951308232;
KJ_UFUNC(deg2rad, "deg2rad", 1, .elem = scaled, .data = &to_radians, .scalar = "math.radians");
KJ_UFUNC(radians, "radians", 1, .elem = scaled, .data = &to_radians, .scalar = "math.radians");
KJ_UFUNC(rad2deg, "rad2deg", 1, .elem = scaled, .data = &to_degrees, .scalar = "math.degrees");
KJ_UFUNC(degrees, "degrees", 1, .elem = scaled, .data = &to_degrees, .scalar = "math.degrees");

/* A function of two floats: LLVM's intrinsic or libm's function named by
 * the entry's data. */
static LLVMValueRef float_function2(const kj_elem *e) {
    if (!kj_elem_is_float(e->rt))
        return NULL;
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    const char *impl = e->k->data;
    if (!strncmp(impl, "llvm.", 5))
        return kj_elem_intrinsic(e->w, impl, LLVMTypeOf(v[0]), 2, v);
    return kj_elem_libm(e->w, e->at, impl, e->rt, 2, v);
}

KJ_UFUNC(arctan2, "arctan2", 2, .elem = float_function2, .data = "atan2", .scalar = "math.atan2");
KJ_UFUNC(hypot, "hypot", 2, .elem = float_function2, .data = "hypot", .scalar = "math.hypot");
KJ_UFUNC(copysign, "copysign", 2, .elem = float_function2, .data = "llvm.copysign", .scalar = "math.copysign");
KJ_UFUNC(nextafter, "nextafter", 2, .elem = float_function2, .data = "nextafter");

/* np.spacing: the distance from x to the next float away from zero (up
 * for +-0.0, as NumPy's), NaN for inf and NaN. */
static LLVMValueRef spacing(const kj_elem *e) {
    kj_lw *w = e->w;
    if (!kj_elem_is_float(e->rt))
        return NULL;
    LLVMValueRef x;
    kj_elem_operands(e, &x);
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMValueRef up = LLVMBuildFCmp(w->b, LLVMRealOGE, x, LLVMConstNull(ft), "");
    LLVMValueRef toward = LLVMBuildSelect(w->b, up, LLVMConstReal(ft, 1.0 / 0.0), LLVMConstReal(ft, -1.0 / 0.0), "");
    LLVMValueRef next = kj_elem_libm(w, e->at, "nextafter", e->rt, 2, (LLVMValueRef[]){x, toward});
    LLVMValueRef d = LLVMBuildFSub(w->b, next, x, "");
    LLVMValueRef inf = LLVMBuildFCmp(w->b, LLVMRealOEQ, kj_call_intrinsic(w, "llvm.fabs", ft, 1, &x),
                                     LLVMConstReal(ft, 1.0 / 0.0), "");
    return LLVMBuildSelect(w->b, inf, LLVMConstReal(ft, 0.0 / 0.0), d, "");
}

KJ_UFUNC(spacing, "spacing", 1, .elem = spacing);

/* np.ldexp(x, n): the exponent stays an integer */
static LLVMValueRef ldexp_elem(const kj_elem *e) {
    if (!kj_elem_is_float(e->rt) || e->xt[1]->kind == KJ_T_FLOAT)
        return NULL;
    return kj_ldexp(e->w, e->at, kj_cast(e->w, e->x[0], e->xt[0], e->rt), e->rt, e->x[1], e->xt[1]);
}

KJ_UFUNC(ldexp, "ldexp", 2, .elem = ldexp_elem);
