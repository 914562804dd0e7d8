/* infer_np_linalg: the types of np.linalg's functions in compiled code.
 * They take real 2-d arrays (a stack of matrices, or a complex one, is
 * refused) and, as NumPy, compute in float64: results are float32 when
 * every operand is, float64 otherwise. Options that change the type of
 * the result (svd's compute_uv, qr's mode) must be constants. */
#include "jit/numpy/lower_np.h"

#include "jit/runtime/rt_linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

/* True when k is absent (*value = dflt) or a constant bool (its value). */
static bool const_bool(const kj_node *k, bool dflt, bool *value) {
    *value = dflt;
    if (!k)
        return true;
    if (k->kind != KJ_E_CONST || !k->type || k->type->kind != KJ_T_BOOL)
        return false;
    *value = k->ival != 0;
    return true;
}

/* A constant string argument (absent: dflt), or NULL. */
static const char *const_str(const kj_node *k, const char *dflt) {
    if (!k)
        return dflt;
    return k->kind == KJ_E_CONST && k->str ? k->str : NULL;
}

static bool real_matrix(const kj_type *t) {
    return t && t->kind == KJ_T_ARRAY && t->ndim == 2 && t->elem->kind != KJ_T_COMPLEX;
}

static const kj_type *matrix_of(const kj_type *e) { return kj_array(e, 2, KJ_LAYOUT_C, false); }
static const kj_type *vector_of(const kj_type *e) { return kj_array(e, 1, KJ_LAYOUT_C, false); }

/* qr's mode: "reduced", "complete" or "r" (the others NumPy has give
 * arrays in LAPACK's own layout). */
static bool qr_mode_known(const char *mode) {
    return mode && (!strcmp(mode, "reduced") || !strcmp(mode, "complete") || !strcmp(mode, "r"));
}

bool kj_np_norm_order(const kj_node *k, int32_t *kind, double *p) {
    *kind = KJ_NORM_DEFAULT;
    *p = 0.0;
    if (!k || (k->kind == KJ_E_CONST && k->type && k->type->kind == KJ_T_NONE))
        return true;
    if (k->kind == KJ_E_CONST && k->str) {
        *kind = !strcmp(k->str, "fro") || !strcmp(k->str, "f") ? KJ_NORM_FRO : !strcmp(k->str, "nuc") ? KJ_NORM_NUC : -1;
        return *kind >= 0;
    }
    *kind = KJ_NORM_NUMBER;
    return kj_const_number(k, p);
}

/* The orders NumPy defines for a matrix norm. */
static bool matrix_order(int32_t kind, double p) {
    return kind != KJ_NORM_NUMBER || fabs(p) == 1.0 || fabs(p) == 2.0 || isinf(p);
}

/* np.linalg.norm(x, ord) of a vector or a matrix, np.linalg.cond(x, p):
 * the order a constant, checked here against x's number of dimensions
 * (NumPy checks at run time and raises ValueError). */
static const kj_type *norm_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    bool cond = m[0] == 'c';
    static const char *const known_norm[] = {"x", "ord", NULL}, *const known_cond[] = {"x", "p", NULL};
    const char *const *known = cond ? known_cond : known_norm;
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "x"));
    kj_node *order = kj_np_arg(a, 1, known[1]);
    int32_t kind;
    double p;
    if (!x)
        return NULL;
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || !kj_np_norm_order(order, &kind, &p))
        FAIL(c, n, "Write the order as a constant: a number, np.inf, 'fro' or 'nuc'.",
             "np.linalg.%s takes an array and a constant order here", m);
    if (x->kind != KJ_T_ARRAY || x->elem->kind == KJ_T_COMPLEX || x->ndim < (cond ? 2 : 1) || x->ndim > 2)
        FAIL(c, n, "Complex arrays and stacks of matrices are not supported yet.",
             cond ? "np.linalg.cond takes a 2-d real array here" : "np.linalg.norm with ord= takes a 1-d or 2-d real array here");
    if (x->ndim == 1 && kind != KJ_NORM_DEFAULT && kind != KJ_NORM_NUMBER)
        FAIL(c, n, "'fro' and 'nuc' are norms of matrices.", "Invalid norm order '%s' for vectors", order->str);
    if (x->ndim == 2 && !matrix_order(kind, p))
        FAIL(c, n, "A matrix norm's order is 1, -1, 2, -2, np.inf, -np.inf, 'fro' or 'nuc'.", "Invalid norm order for matrices.");
    return x->elem == kj_float(32) ? x->elem : KJ_F64;
}

const kj_type *kj_np_linalg_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    if (!strcmp(m, "norm") || !strcmp(m, "cond"))
        return norm_type(c, n, m, a);
    if (!strcmp(m, "matrix_power")) {   /* integers stay integers (NumPy's matmul of them) */
        static const char *const known[] = {"a", "n", NULL};
        const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a")), *p = kj_np_arg_type(c, kj_np_arg(a, 1, "n"));
        if (!x || !p)
            return NULL;
        if (a->npos > 2 || !kj_np_only_keywords(a, known) || !real_matrix(x) || x->elem->kind == KJ_T_BOOL || !kj_is_intlike(p))
            FAIL(c, n, "Complex, bool and stacked matrices are not supported yet.",
                 "np.linalg.matrix_power takes a 2-d real array and an int power here");
        return matrix_of(x->elem);
    }
    bool solve = !strcmp(m, "solve") || !strcmp(m, "lstsq");
    const kj_type *x = kj_np_arg_type(c, kj_np_arg(a, 0, "a"));
    const kj_type *y = solve ? kj_np_arg_type(c, kj_np_arg(a, 1, "b")) : NULL;
    if (!x || (solve && !y))
        return NULL;
    if (!real_matrix(x) || (solve && !(y->kind == KJ_T_ARRAY && y->ndim <= 2 && y->elem->kind != KJ_T_COMPLEX)))
        FAIL(c, n, "Complex matrices and stacks of matrices are not supported yet.",
             solve ? "np.linalg.%s takes a 2-d real array and a 1-d or 2-d real array here"
                   : "np.linalg.%s takes a 2-d real array here", m);
    const kj_type *f32 = kj_float(32);
    const kj_type *e = x->elem == f32 && (!solve || y->elem == f32) ? f32 : KJ_F64;
    if (!strcmp(m, "lstsq")) {
        static const char *const known[] = {"a", "b", "rcond", NULL};
        kj_node *rcond = kj_np_arg(a, 2, "rcond");
        const kj_type *rt = rcond ? kj_np_arg_type(c, rcond) : kj_none();
        if (!rt)
            return NULL;
        if (a->npos > 3 || !kj_np_only_keywords(a, known) ||
            !(rt->kind == KJ_T_NONE || (kj_is_number(rt) && rt->kind != KJ_T_COMPLEX)))
            FAIL(c, n, "Pass rcond=None (machine precision times max(M, N)) or a number.",
                 "np.linalg.lstsq takes a, b and rcond= here");
        return kj_tuple(4, (const kj_type *[]){kj_array(e, y->ndim, KJ_LAYOUT_C, false), vector_of(e), kj_int(32, true),
                                               vector_of(e)});
    }
    if (!strcmp(m, "pinv") || !strcmp(m, "matrix_rank")) {
        bool pinv = m[0] == 'p';
        static const char *const known_pinv[] = {"a", "rcond", "hermitian", NULL}, *const known_rank[] = {"A", "tol", "hermitian", NULL};
        const char *const *known = pinv ? known_pinv : known_rank;
        kj_node *lim = kj_np_arg(a, 1, known[1]);
        const kj_type *lt = lim ? kj_np_arg_type(c, lim) : kj_none();
        bool hermitian;
        if (!lt)
            return NULL;
        if (a->npos > 3 || !kj_np_only_keywords(a, known) || !const_bool(kj_np_arg(a, 2, "hermitian"), false, &hermitian) ||
            hermitian || (lt->kind == KJ_T_NONE ? pinv && lim : !kj_is_number(lt) || lt->kind == KJ_T_COMPLEX))
            FAIL(c, n, "hermitian=True is not supported; give the limit as a number.",
                 pinv ? "np.linalg.pinv takes a matrix and a number rcond here" : "np.linalg.matrix_rank takes a matrix and a number tol here");
        return pinv ? matrix_of(e) : KJ_I64;
    }
    if (!strcmp(m, "eig") || !strcmp(m, "eigvals")) {   /* real eigenvalues only (kj_la_eig) */
        if (a->npos + a->nkw != 1)
            FAIL(c, n, NULL, "np.linalg.%s takes one matrix", m);
        return m[3] == 0 ? kj_tuple(2, (const kj_type *[]){vector_of(e), matrix_of(e)}) : vector_of(e);
    }
    if (solve || !strcmp(m, "inv") || !strcmp(m, "det") || !strcmp(m, "slogdet") || !strcmp(m, "cholesky")) {
        if (a->npos + a->nkw != (solve ? 2 : 1))
            FAIL(c, n, NULL, "np.linalg.%s takes %s", m, solve ? "a and b" : "one matrix");
        if (!strcmp(m, "det"))
            return e;
        if (!strcmp(m, "slogdet"))
            return kj_tuple(2, (const kj_type *[]){e, e});
        return solve ? kj_array(e, y->ndim, KJ_LAYOUT_C, false) : matrix_of(e);
    }
    if (!strcmp(m, "eigh") || !strcmp(m, "eigvalsh")) {
        static const char *const known[] = {"a", "UPLO", NULL};
        const char *uplo = const_str(kj_np_arg(a, 1, "UPLO"), "L");
        if (a->npos > 2 || !kj_np_only_keywords(a, known) || !uplo ||
            (strcmp(uplo, "L") && strcmp(uplo, "l") && strcmp(uplo, "U") && strcmp(uplo, "u")))
            FAIL(c, n, "Write UPLO as the constant 'L' or 'U'.", "np.linalg.%s takes a matrix and UPLO='L' or 'U' here", m);
        return m[3] == 'h' ? kj_tuple(2, (const kj_type *[]){vector_of(e), matrix_of(e)}) : vector_of(e);
    }
    if (!strcmp(m, "svd")) {
        static const char *const known[] = {"a", "full_matrices", "compute_uv", "hermitian", NULL};
        bool full, uv, hermitian;
        if (a->npos > 4 || !kj_np_only_keywords(a, known) || !const_bool(kj_np_arg(a, 1, "full_matrices"), true, &full) ||
            !const_bool(kj_np_arg(a, 2, "compute_uv"), true, &uv) ||
            !const_bool(kj_np_arg(a, 3, "hermitian"), false, &hermitian) || hermitian)
            FAIL(c, n, "Write the options as the constants True or False; hermitian=True is not supported.",
                 "np.linalg.svd takes a matrix, full_matrices= and compute_uv= here");
        return uv ? kj_tuple(3, (const kj_type *[]){matrix_of(e), vector_of(e), matrix_of(e)}) : vector_of(e);
    }
    /* qr */
    static const char *const known[] = {"a", "mode", NULL};
    const char *mode = const_str(kj_np_arg(a, 1, "mode"), "reduced");
    if (a->npos > 2 || !kj_np_only_keywords(a, known) || !qr_mode_known(mode))
        FAIL(c, n, "Write mode as the constant 'reduced', 'complete' or 'r'.",
             "np.linalg.qr takes a matrix and mode='reduced', 'complete' or 'r' here");
    return mode[0] == 'r' && mode[1] == 0 ? matrix_of(e) : kj_tuple(2, (const kj_type *[]){matrix_of(e), matrix_of(e)});
}

/* Entries by np.linalg's own names: the front end drops "linalg.". norm's
 * is in rewrite_linalg.c, which writes its other forms out. */
#define LINALG(id) KJ_NP_FUNCTION(id, kj_np_linalg_type, kj_np_lower_linalg)
LINALG(solve);
LINALG(inv);
LINALG(det);
LINALG(slogdet);
LINALG(cholesky);
LINALG(eig);
LINALG(eigvals);
LINALG(eigh);
LINALG(eigvalsh);
LINALG(svd);
LINALG(qr);
LINALG(lstsq);
LINALG(matrix_power);
LINALG(matrix_rank);
LINALG(pinv);
LINALG(cond);
