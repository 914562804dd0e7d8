/* ufunc_logic: NumPy's ufuncs of truth, order and bits (ufuncs.h): the
 * float predicates, logical operations on truth values, comparisons,
 * maximum and minimum (NaN kept by maximum and minimum, ignored by fmax
 * and fmin), where and clip, bitwise operations and shifts. */
#include "jit/numpy/ufuncs.h"

#include "jit/frontend/np_rewrite.h"

/* ---- predicates of floats: isnan, isinf, isfinite ---- */

typedef enum { IS_NAN, IS_INF, IS_FINITE } float_class;

static LLVMValueRef classify(kj_lw *w, float_class c, LLVMValueRef x) {
    LLVMBuilderRef b = w->b;
    if (c == IS_NAN)
        return LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
    LLVMValueRef a = kj_call_intrinsic(w, "llvm.fabs", LLVMTypeOf(x), 1, &x);
    LLVMValueRef inf = LLVMConstReal(LLVMTypeOf(x), 1.0 / 0.0);
    return LLVMBuildFCmp(b, c == IS_INF ? LLVMRealOEQ : LLVMRealOLT, a, inf, "");
}

/* of the operand as it is: an integer is finite */
static LLVMValueRef predicate(const kj_elem *e) {
    const float_class *c = e->k->data;
    if (!kj_elem_is_float(e->xt[0]))
        return LLVMConstInt(e->w->i1, *c == IS_FINITE, 0);
    return classify(e->w, *c, e->x[0]);
}

/* of a complex number: of either part (finite: of both) */
static LLVMValueRef predicate_complex(const kj_elem *e) {
    const float_class *c = e->k->data;
    kj_lw *w = e->w;
    if (e->rt->kind == KJ_T_COMPLEX)
        return NULL;
    LLVMValueRef re = classify(w, *c, kj_elem_part(w, e->x[0], 0)), im = classify(w, *c, kj_elem_part(w, e->x[0], 1));
    return *c == IS_FINITE ? LLVMBuildAnd(w->b, re, im, "") : LLVMBuildOr(w->b, re, im, "");
}

static const float_class is_nan = IS_NAN, is_inf = IS_INF, is_finite = IS_FINITE;
KJ_UFUNC(isnan, "isnan", 1, .elem = predicate, .elem_complex = predicate_complex, .data = &is_nan,
         .scalar = "math.isnan", .cheap = true);
KJ_UFUNC(isinf, "isinf", 1, .elem = predicate, .elem_complex = predicate_complex, .data = &is_inf,
         .scalar = "math.isinf", .cheap = true);
KJ_UFUNC(isfinite, "isfinite", 1, .elem = predicate, .elem_complex = predicate_complex, .data = &is_finite,
         .scalar = "math.isfinite", .cheap = true);

/* ---- logical operations of the operands' truth ---- */

static LLVMValueRef logical_not(const kj_elem *e) { return LLVMBuildNot(e->w->b, kj_truth(e->w, e->x[0], e->xt[0]), ""); }

/* and, or or xor (the entry's data: LLVM's opcode) */
static LLVMValueRef logical(const kj_elem *e) {
    const LLVMOpcode *op = e->k->data;
    LLVMValueRef p = kj_truth(e->w, e->x[0], e->xt[0]), q = kj_truth(e->w, e->x[1], e->xt[1]);
    return LLVMBuildBinOp(e->w->b, *op, p, q, "");
}

static const LLVMOpcode op_and = LLVMAnd, op_or = LLVMOr, op_xor = LLVMXor;
KJ_UFUNC(logical_not, "logical_not", 1, .elem = logical_not, .cheap = true);
KJ_UFUNC(logical_and, "logical_and", 2, .elem = logical, .data = &op_and, .cheap = true);
KJ_UFUNC(logical_or, "logical_or", 2, .elem = logical, .data = &op_or, .cheap = true);
KJ_UFUNC(logical_xor, "logical_xor", 2, .elem = logical, .data = &op_xor);

/* ---- comparisons, in a type that holds both operands ---- */

typedef struct {
    LLVMRealPredicate real;
    LLVMIntPredicate is, iu;   /* signed, unsigned */
} comparison;

static LLVMValueRef compare(const kj_elem *e) {
    const comparison *c = e->k->data;
    kj_lw *w = e->w;
    const kj_type *ct = kj_elem_compare_type(e->xt[0], e->xt[1]);
    LLVMValueRef a = kj_cast(w, e->x[0], e->xt[0], ct), b = kj_cast(w, e->x[1], e->xt[1], ct);
    if (kj_elem_is_float(ct))
        return LLVMBuildFCmp(w->b, c->real, a, b, "");
    return LLVMBuildICmp(w->b, kj_elem_is_signed(ct) ? c->is : c->iu, a, b, "");
}

/* equal and not_equal of complex numbers: part by part */
static LLVMValueRef compare_complex(const kj_elem *e) {
    const comparison *c = e->k->data;
    kj_lw *w = e->w;
    const kj_type *ct = kj_elem_compare_type(e->xt[0], e->xt[1]);
    LLVMValueRef p = kj_cast(w, e->x[0], e->xt[0], ct), q = kj_cast(w, e->x[1], e->xt[1], ct);
    LLVMValueRef re = LLVMBuildFCmp(w->b, c->real, kj_elem_part(w, p, 0), kj_elem_part(w, q, 0), "");
    LLVMValueRef im = LLVMBuildFCmp(w->b, c->real, kj_elem_part(w, p, 1), kj_elem_part(w, q, 1), "");
    return c->is == LLVMIntEQ ? LLVMBuildAnd(w->b, re, im, "") : LLVMBuildOr(w->b, re, im, "");
}

#define COMPARISON(name, real_, is_, iu_, complex_)                                                           \
    static const comparison comparison_##name = {real_, is_, iu_};                                          \
    KJ_UFUNC(name, #name, 2, .elem = compare, .elem_complex = complex_, .data = &comparison_##name, .cheap = true)

COMPARISON(equal, LLVMRealOEQ, LLVMIntEQ, LLVMIntEQ, compare_complex);
COMPARISON(not_equal, LLVMRealUNE, LLVMIntNE, LLVMIntNE, compare_complex);
COMPARISON(less, LLVMRealOLT, LLVMIntSLT, LLVMIntULT, NULL);
COMPARISON(less_equal, LLVMRealOLE, LLVMIntSLE, LLVMIntULE, NULL);
COMPARISON(greater, LLVMRealOGT, LLVMIntSGT, LLVMIntUGT, NULL);
COMPARISON(greater_equal, LLVMRealOGE, LLVMIntSGE, LLVMIntUGE, NULL);

/* ---- maximum, minimum, clip, where ---- */

static LLVMValueRef minmax(kj_lw *w, bool is_max, bool ignore_nan, LLVMValueRef a, LLVMValueRef b, const kj_type *t) {
    if (kj_elem_is_float(t)) {
        const char *f = ignore_nan ? (is_max ? "llvm.maxnum" : "llvm.minnum") : (is_max ? "llvm.maximum" : "llvm.minimum");
        return kj_elem_intrinsic(w, f, LLVMTypeOf(a), 2, (LLVMValueRef[]){a, b});
    }
    LLVMIntPredicate p = kj_elem_is_signed(t) ? (is_max ? LLVMIntSGT : LLVMIntSLT) : (is_max ? LLVMIntUGT : LLVMIntULT);
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, p, a, b, ""), a, b, "");
}

/* maximum, minimum, fmax, fmin: the entry's data says which */
typedef struct {
    bool is_max, ignore_nan;
} extreme;

static LLVMValueRef pick(const kj_elem *e) {
    const extreme *x = e->k->data;
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return minmax(e->w, x->is_max, x->ignore_nan, v[0], v[1], e->rt);
}

static const extreme max_nan = {true, false}, min_nan = {false, false}, max_num = {true, true}, min_num = {false, true};
KJ_UFUNC(maximum, "maximum", 2, .elem = pick, .data = &max_nan, .cheap = true);
KJ_UFUNC(minimum, "minimum", 2, .elem = pick, .data = &min_nan, .cheap = true);
KJ_UFUNC(fmax, "fmax", 2, .elem = pick, .data = &max_num, .cheap = true);
KJ_UFUNC(fmin, "fmin", 2, .elem = pick, .data = &min_num, .cheap = true);

/* np.clip(a, lo, hi): minimum(maximum(a, lo), hi), NaN kept */
static LLVMValueRef clip(const kj_elem *e) {
    LLVMValueRef v[3];
    kj_elem_operands(e, v);
    return minmax(e->w, false, false, minmax(e->w, true, false, v[0], v[1], e->rt), v[2], e->rt);
}

KJ_UFUNC(clip, "clip", 3, .elem = clip, .cheap = true);

/* a.clip(lo, hi) as np.clip(a, lo, hi) */
static kj_node *clip_method(kj_rewrite *r, kj_node *n, const char *m) {
    (void)m;
    static const char *const params[] = {"min", "max", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 2, &a, "Give both bounds: a.clip(lo, hi).", "%s takes both bounds here", "a.clip"))
        return NULL;
    return kj_rw_call(r, "np.clip", 3, n->kids[0], a.arg[0], a.arg[1]);
}

KJ_REWRITE(ndarray_clip, "ndarray.clip", clip_method);

/* np.where(c, x, y) of any types, complex ones too */
static LLVMValueRef where(const kj_elem *e) {
    kj_lw *w = e->w;
    return LLVMBuildSelect(w->b, kj_truth(w, e->x[0], e->xt[0]), kj_cast(w, e->x[1], e->xt[1], e->rt),
                           kj_cast(w, e->x[2], e->xt[2], e->rt), "");
}

/* np.where(c), of one operand, as np.nonzero(c) */
static kj_node *where_of_condition(kj_rewrite *r, kj_node *n, const char *m) {
    (void)m;
    if (n->nkids != 2 || n->kids[1]->kind == KJ_E_KEYWORD)
        return n;
    return kj_rw_call(r, "np.nonzero", 1, n->kids[1], NULL, NULL);
}

KJ_UFUNC(where, "where", 3, .elem = where, .elem_complex = where, .cheap = true, .rewrite = where_of_condition);

/* ---- bits of integers (and booleans) ---- */

/* and, or or xor of the bits (the entry's data: LLVM's opcode) */
static LLVMValueRef bitwise(const kj_elem *e) {
    if (kj_elem_is_float(e->rt))
        return NULL;
    const LLVMOpcode *op = e->k->data;
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    return LLVMBuildBinOp(e->w->b, *op, v[0], v[1], "");
}

KJ_UFUNC(bitwise_and, "bitwise_and", 2, .elem = bitwise, .data = &op_and, .cheap = true);
KJ_UFUNC(bitwise_or, "bitwise_or", 2, .elem = bitwise, .data = &op_or, .cheap = true);
KJ_UFUNC(bitwise_xor, "bitwise_xor", 2, .elem = bitwise, .data = &op_xor, .cheap = true);

/* ~x; of a bool, `not` */
static LLVMValueRef invert(const kj_elem *e) {
    LLVMValueRef v[1];
    kj_elem_operands(e, v);
    return LLVMBuildNot(e->w->b, v[0], "");
}

KJ_UFUNC(invert, "invert", 1, .elem = invert, .cheap = true);

/* x << n and x >> n as NumPy's: a shift by the width or more gives 0 (or,
 * shifting a negative number right, -1), not LLVM's poison. */
static LLVMValueRef shift(const kj_elem *e, bool left) {
    if (kj_elem_is_float(e->rt))
        return NULL;
    LLVMBuilderRef b = e->w->b;
    LLVMValueRef v[2];
    kj_elem_operands(e, v);
    LLVMTypeRef lt = LLVMTypeOf(v[0]);
    unsigned bits = LLVMGetIntTypeWidth(lt);
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, v[1], LLVMConstInt(lt, bits, 0), "");
    LLVMValueRef sb = LLVMBuildSelect(b, big, LLVMConstInt(lt, bits - 1, 0), v[1], "");
    if (left)
        return LLVMBuildSelect(b, big, LLVMConstNull(lt), LLVMBuildShl(b, v[0], sb, ""), "");
    if (kj_elem_is_signed(e->rt))
        return LLVMBuildAShr(b, v[0], sb, "");
    return LLVMBuildSelect(b, big, LLVMConstNull(lt), LLVMBuildLShr(b, v[0], sb, ""), "");
}

static LLVMValueRef left_shift(const kj_elem *e) { return shift(e, true); }
static LLVMValueRef right_shift(const kj_elem *e) { return shift(e, false); }

KJ_UFUNC(left_shift, "left_shift", 2, .elem = left_shift);
KJ_UFUNC(right_shift, "right_shift", 2, .elem = right_shift);
