/* lower_np_linalg: np.linalg's functions. The matrices go to LAPACK
 * (rt_linalg.c) as Fortran-order float64 copies, as NumPy computes in
 * float64 whatever the input; results come back in C order (solve's
 * through a transposed view) and are cast to the result's type (float32
 * when every operand is, as NumPy's). */
#include "jit/numpy/lower_np.h"
#include "jit/runtime/rt_linalg.h"

#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

/* The transpose of 2-d arr as a view (shape and strides swapped). */
static LLVMValueRef transposed(kj_lw *w, LLVMValueRef arr, const kj_type *at, const kj_type **tt) {
    LLVMValueRef shape[2], strides[2];
    kj_np_shape(w, arr, 2, shape);
    kj_np_strides(w, arr, 2, strides);
    *tt = kj_array(at->elem, 2, KJ_LAYOUT_A, at->readonly);
    return kj_np_make(w, *tt, kj_array_field(w, arr, 0, 0), kj_array_field(w, arr, 1, 0),
                      (LLVMValueRef[]){shape[1], shape[0]}, (LLVMValueRef[]){strides[1], strides[0]});
}

/* arr's items in Fortran order, as a new C-order array of et (the
 * transpose's C order; a 1-d array is the same either way). */
static LLVMValueRef fortran_copy(kj_lw *w, LLVMValueRef arr, const kj_type *at, const kj_type *et) {
    if (at->ndim == 1)
        return kj_np_copy(w, arr, at, et);
    const kj_type *tt;
    LLVMValueRef t = transposed(w, arr, at, &tt);
    return kj_np_copy(w, t, tt, et);
}

/* Leaves the function when the runtime raised (rc != 0). */
static void check(kj_lw *w, LLVMValueRef rc) {
    kj_raise_end(w, kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, rc, LLVMConstInt(w->i32, 0, 0), "")));
}

/* n, after raising LinAlgError when the 2-d arr is not square. */
static LLVMValueRef square_size(kj_lw *w, LLVMValueRef arr) {
    LLVMValueRef n = kj_array_field(w, arr, 2, 0);
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, n, kj_array_field(w, arr, 2, 1), ""));
    kj_call(w, "kj_la_raise", w->vd, 1, &w->ptr,
            (LLVMValueRef[]){LLVMBuildGlobalStringPtr(w->b, "Last 2 dimensions of the array must be square", "msg")});
    kj_raise_end(w, ok);
    return n;
}

/* A new float64 C-order array of the given shape (nd values). */
static LLVMValueRef f64_array(kj_lw *w, int nd, LLVMValueRef *shape) {
    return kj_np_alloc(w, kj_array(KJ_F64, nd, KJ_LAYOUT_C, false), shape, false);
}

/* The float64 C-order arr as an array of et (itself when et is float64). */
static LLVMValueRef as_elem(kj_lw *w, LLVMValueRef arr, int nd, const kj_type *et) {
    return et == KJ_F64 ? arr : kj_np_copy(w, arr, kj_array(KJ_F64, nd, KJ_LAYOUT_C, false), et);
}

static LLVMValueRef data_of(kj_lw *w, LLVMValueRef arr) { return kj_array_field(w, arr, 1, 0); }

static LLVMValueRef smin(kj_lw *w, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, x, y, ""), x, y, "");
}

/* Whether the optional bool argument is false (a constant: typing saw to it). */
static bool is_false(const kj_node *k) { return k && k->ival == 0; }

static LLVMValueRef solve_or_inv(kj_lw *w, const char *m, const kj_np_args *a, LLVMValueRef size, LLVMValueRef lu_data,
                                 const kj_type *et) {
    LLVMValueRef rhs;   /* Fortran order: for inv the identity, which is its own transpose */
    const kj_type *rt = kj_array(KJ_F64, m[0] == 'i' ? 2 : a->pos[1]->type->ndim, KJ_LAYOUT_C, false);
    if (m[0] == 'i') {
        rhs = kj_np_alloc(w, rt, (LLVMValueRef[]){size, size}, true);
        kj_np_loop l;
        LLVMValueRef i = kj_np_loop_begin(w, &l, size);
        kj_np_store_elem(w, kj_np_ptr(w, rhs, 2, (LLVMValueRef[]){i, i}), LLVMConstReal(w->f64, 1.0), KJ_F64, KJ_F64);
        kj_np_loop_end(w, &l);
    } else {
        kj_node *bn = kj_np_arg(a, 1, "b");
        LLVMValueRef b = kj_lower_expr(w, bn), rows = kj_array_field(w, b, 2, 0);
        kj_np_raise_i64x2_if(w, LLVMBuildICmp(w->b, LLVMIntNE, rows, size, ""), PyExc_ValueError,
                             bn->type->ndim == 1
                                 ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                                   "(m,m),(m)->(m) (size %lld is different from %lld)"
                                 : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                                   "(m,m),(m,n)->(m,n) (size %lld is different from %lld)",
                             rows, size);
        rhs = fortran_copy(w, b, bn->type, KJ_F64);
    }
    LLVMValueRef nrhs = rt->ndim == 1 ? c64(w, 1) : kj_array_field(w, rhs, 2, 0);
    check(w, kj_call(w, "kj_la_solve", w->i32, 4, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->ptr},
                     (LLVMValueRef[]){size, nrhs, lu_data, data_of(w, rhs)}));
    if (rt->ndim == 1)
        return as_elem(w, rhs, 1, et);
    const kj_type *tt;   /* the solution, Fortran order, back to C order */
    LLVMValueRef solution = transposed(w, rhs, rt, &tt);
    return kj_np_copy(w, solution, tt, et);
}

/* det, slogdet, cholesky and the eigenvalues: of a square matrix. */
static LLVMValueRef of_square(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a, LLVMValueRef size,
                              LLVMValueRef lu_data, const kj_type *et) {
    if (!strcmp(m, "det") || !strcmp(m, "slogdet")) {
        LLVMValueRef sign = kj_entry_alloca(w, w->f64, "sign"), logdet = kj_entry_alloca(w, w->f64, "logdet");
        check(w, kj_call(w, "kj_la_slogdet", w->i32, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr, w->ptr},
                         (LLVMValueRef[]){size, lu_data, sign, logdet}));
        LLVMValueRef s = LLVMBuildLoad2(w->b, w->f64, sign, ""), l = LLVMBuildLoad2(w->b, w->f64, logdet, "");
        if (m[0] == 'd')   /* NumPy's det: sign * exp(logdet) */
            return kj_cast(w, LLVMBuildFMul(w->b, s, kj_call(w, "exp", w->f64, 1, &w->f64, &l), ""), KJ_F64, et);
        return kj_np_tuple(w, n->type, 2, (LLVMValueRef[]){kj_cast(w, s, KJ_F64, et), kj_cast(w, l, KJ_F64, et)});
    }
    if (!strcmp(m, "cholesky")) {
        LLVMValueRef out = f64_array(w, 2, (LLVMValueRef[]){size, size});
        check(w, kj_call(w, "kj_la_cholesky", w->i32, 3, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr},
                         (LLVMValueRef[]){size, lu_data, data_of(w, out)}));
        return as_elem(w, out, 2, et);
    }
    /* eig, eigvals, eigh, eigvalsh */
    bool symmetric = !strcmp(m, "eigh") || !strcmp(m, "eigvalsh");
    bool vectors = !strcmp(m, "eig") || !strcmp(m, "eigh");
    LLVMValueRef values = f64_array(w, 1, &size);
    LLVMValueRef vecs = vectors ? f64_array(w, 2, (LLVMValueRef[]){size, size}) : NULL;
    LLVMValueRef vec_data = vectors ? data_of(w, vecs) : LLVMConstNull(w->ptr);
    if (symmetric) {
        kj_node *uplo = kj_np_arg(a, 1, "UPLO");
        bool upper = uplo && (uplo->str[0] == 'U' || uplo->str[0] == 'u');
        check(w, kj_call(w, "kj_la_eigh", w->i32, 5, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr, w->ptr, w->i32},
                         (LLVMValueRef[]){size, lu_data, data_of(w, values), vec_data, LLVMConstInt(w->i32, upper, 0)}));
    } else {
        check(w, kj_call(w, "kj_la_eig", w->i32, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr, w->ptr},
                         (LLVMValueRef[]){size, lu_data, data_of(w, values), vec_data}));
    }
    values = as_elem(w, values, 1, et);
    return vectors ? kj_np_tuple(w, n->type, 2, (LLVMValueRef[]){values, as_elem(w, vecs, 2, et)}) : values;
}

/* svd and qr: of any m x n matrix. */
static LLVMValueRef of_rectangle(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a, LLVMValueRef rows,
                                 LLVMValueRef cols, LLVMValueRef lu_data, const kj_type *et) {
    LLVMValueRef k = smin(w, rows, cols);
    if (!strcmp(m, "svd")) {
        bool full = !is_false(kj_np_arg(a, 1, "full_matrices")), uv = !is_false(kj_np_arg(a, 2, "compute_uv"));
        LLVMValueRef s = f64_array(w, 1, &k), u = NULL, vt = NULL;
        if (uv) {
            u = f64_array(w, 2, (LLVMValueRef[]){rows, full ? rows : k});
            vt = f64_array(w, 2, (LLVMValueRef[]){full ? cols : k, cols});
        }
        check(w, kj_call(w, "kj_la_svd", w->i32, 7,
                         (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->ptr, w->ptr, w->ptr, w->i32},
                         (LLVMValueRef[]){rows, cols, lu_data, data_of(w, s), uv ? data_of(w, u) : LLVMConstNull(w->ptr),
                                          uv ? data_of(w, vt) : LLVMConstNull(w->ptr), LLVMConstInt(w->i32, full, 0)}));
        s = as_elem(w, s, 1, et);
        if (!uv)
            return s;
        return kj_np_tuple(w, n->type, 3, (LLVMValueRef[]){as_elem(w, u, 2, et), s, as_elem(w, vt, 2, et)});
    }
    /* qr: Q has mc columns (all m of them only for mode='complete' with m > n) and R as many rows */
    kj_node *mode_node = kj_np_arg(a, 1, "mode");
    const char *mode = mode_node ? mode_node->str : "reduced";
    bool r_only = !strcmp(mode, "r"), complete = !strcmp(mode, "complete");
    LLVMValueRef mc = complete ? LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, rows, cols, ""), rows, k, "") : k;
    LLVMValueRef r = f64_array(w, 2, (LLVMValueRef[]){mc, cols});
    LLVMValueRef q = r_only ? NULL : f64_array(w, 2, (LLVMValueRef[]){rows, mc});
    check(w, kj_call(w, "kj_la_qr", w->i32, 6, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->i64, w->ptr, w->ptr},
                     (LLVMValueRef[]){rows, cols, lu_data, mc, r_only ? LLVMConstNull(w->ptr) : data_of(w, q), data_of(w, r)}));
    r = as_elem(w, r, 2, et);
    return r_only ? r : kj_np_tuple(w, n->type, 2, (LLVMValueRef[]){as_elem(w, q, 2, et), r});
}

/* np.linalg.lstsq(a, b, rcond): (x, residuals, rank, singular values).
 * The residuals are kept, as NumPy keeps them, only when a has more rows
 * than columns and full rank: otherwise the array is empty. */
static LLVMValueRef least_squares(kj_lw *w, kj_node *n, const kj_np_args *a, LLVMValueRef arr, LLVMValueRef lu_data,
                                  const kj_type *et) {
    kj_node *bn = kj_np_arg(a, 1, "b"), *rn = kj_np_arg(a, 2, "rcond");
    LLVMValueRef rows = kj_array_field(w, arr, 2, 0), cols = kj_array_field(w, arr, 2, 1);
    LLVMValueRef b = kj_lower_expr(w, bn);
    int bnd = bn->type->ndim;
    LLVMValueRef nrhs = bnd == 1 ? c64(w, 1) : kj_array_field(w, b, 2, 1);
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntNE, kj_array_field(w, b, 2, 0), rows, ""));
    kj_call(w, "kj_la_raise", w->vd, 1, &w->ptr, (LLVMValueRef[]){LLVMBuildGlobalStringPtr(w->b, "Incompatible dimensions", "msg")});
    kj_raise_end(w, ok);
    LLVMValueRef rcond;
    if (!rn || rn->type->kind == KJ_T_NONE) {   /* None: machine precision times max(M, N), NumPy's */
        LLVMValueRef most = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, rows, cols, ""), rows, cols, "");
        rcond = LLVMBuildFMul(w->b, LLVMConstReal(w->f64, 2.220446049250313e-16), LLVMBuildSIToFP(w->b, most, w->f64, ""), "");
    } else {
        rcond = kj_cast(w, kj_lower_expr(w, rn), rn->type, KJ_F64);
    }
    LLVMValueRef bc = kj_np_copy(w, b, bn->type, KJ_F64), k = smin(w, rows, cols);
    LLVMValueRef x = f64_array(w, bnd, (LLVMValueRef[]){cols, nrhs}), resid = f64_array(w, 1, &nrhs);
    LLVMValueRef s = f64_array(w, 1, &k), rank = kj_entry_alloca(w, w->i32, "rank");
    check(w, kj_call(w, "kj_la_lstsq", w->i32, 10,
                     (LLVMTypeRef[]){w->i64, w->i64, w->i64, w->ptr, w->ptr, w->f64, w->ptr, w->ptr, w->ptr, w->ptr},
                     (LLVMValueRef[]){rows, cols, nrhs, lu_data, data_of(w, bc), rcond, data_of(w, x), data_of(w, resid),
                                      rank, data_of(w, s)}));
    LLVMValueRef r = LLVMBuildLoad2(w->b, w->i32, rank, "");
    LLVMValueRef kept = LLVMBuildAnd(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, LLVMBuildSExt(w->b, r, w->i64, ""), cols, ""),
                                     LLVMBuildICmp(w->b, LLVMIntSGT, rows, cols, ""), "");
    LLVMValueRef len = LLVMBuildSelect(w->b, kept, nrhs, c64(w, 0), "");
    resid = kj_np_make(w, kj_array(KJ_F64, 1, KJ_LAYOUT_C, false), kj_array_field(w, resid, 0, 0), data_of(w, resid), &len, NULL);
    return kj_np_tuple(w, n->type, 4, (LLVMValueRef[]){as_elem(w, x, bnd, et), as_elem(w, resid, 1, et), r, as_elem(w, s, 1, et)});
}

/* np.linalg.pinv(a, rcond) and np.linalg.matrix_rank(A, tol). */
static LLVMValueRef through_svd(kj_lw *w, const char *m, const kj_np_args *a, LLVMValueRef rows, LLVMValueRef cols,
                                LLVMValueRef lu_data, const kj_type *et, bool single) {
    LLVMValueRef flag = LLVMConstInt(w->i32, single, 0);
    if (m[0] == 'p') {
        kj_node *rn = kj_np_arg(a, 1, "rcond");
        LLVMValueRef rcond = rn ? kj_cast(w, kj_lower_expr(w, rn), rn->type, KJ_F64) : LLVMConstReal(w->f64, 1e-15);
        LLVMValueRef out = f64_array(w, 2, (LLVMValueRef[]){cols, rows});
        check(w, kj_call(w, "kj_la_pinv", w->i32, 6, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->f64, w->ptr, w->i32},
                         (LLVMValueRef[]){rows, cols, lu_data, rcond, data_of(w, out), flag}));
        return as_elem(w, out, 2, et);
    }
    kj_node *tn = kj_np_arg(a, 1, "tol");
    bool has_tol = tn && tn->type->kind != KJ_T_NONE;
    LLVMValueRef tol = has_tol ? kj_cast(w, kj_lower_expr(w, tn), tn->type, KJ_F64) : LLVMConstReal(w->f64, 0.0);
    LLVMValueRef rank = kj_call(w, "kj_la_matrix_rank", w->i64, 6, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->f64, w->i32, w->i32},
                                (LLVMValueRef[]){rows, cols, lu_data, tol, LLVMConstInt(w->i32, has_tol, 0), flag});
    kj_raise_end(w, kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntSLT, rank, c64(w, 0), "")));
    return rank;
}

/* np.linalg.matrix_power(a, n), computed in a's float type, or in int64
 * for integers (which wrap alike in any width) and cast back. */
static LLVMValueRef matrix_power(kj_lw *w, const kj_np_args *a, LLVMValueRef arr, const kj_type *at, LLVMValueRef size) {
    const kj_type *et = at->elem, *ct = et->kind == KJ_T_FLOAT ? et : KJ_I64;
    int kind = et == KJ_F64 ? KJ_LA_F64 : et->kind == KJ_T_FLOAT ? KJ_LA_F32 : KJ_LA_INT;
    const kj_type *mt = kj_array(ct, 2, KJ_LAYOUT_C, false);
    LLVMValueRef copy = kj_np_copy(w, arr, at, ct), out = kj_np_alloc(w, mt, (LLVMValueRef[]){size, size}, false);
    check(w, kj_call(w, "kj_la_matrix_power", w->i32, 5, (LLVMTypeRef[]){w->i32, w->i64, w->i64, w->ptr, w->ptr},
                     (LLVMValueRef[]){LLVMConstInt(w->i32, (unsigned)kind, 0), size, kj_np_value(w, kj_np_arg(a, 1, "n"), KJ_I64),
                                      data_of(w, copy), data_of(w, out)}));
    return ct == et ? out : kj_np_copy(w, out, mt, et);
}

/* np.linalg.norm(x, ord) without axis= and np.linalg.cond(x, p), on x
 * as float64 in C order (rt_linalg_norm.c). */
static LLVMValueRef norm_or_cond(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    bool cond = m[0] == 'c';
    kj_node *xn = kj_np_arg(a, 0, "x");
    int32_t kind;
    double p;
    kj_np_norm_order(kj_np_arg(a, 1, cond ? "p" : "ord"), &kind, &p);   /* a constant: typing saw to it */
    /* the runtime only reads x: a float64 C-order x needs no copy */
    bool as_is = xn->type->elem == KJ_F64 && xn->type->layout == KJ_LAYOUT_C;
    LLVMValueRef arr = kj_lower_expr(w, xn), copy = as_is ? arr : kj_np_copy(w, arr, xn->type, KJ_F64);
    LLVMValueRef rows = kj_array_field(w, arr, 2, 0), cols = xn->type->ndim == 1 ? c64(w, -1) : kj_array_field(w, arr, 2, 1);
    LLVMValueRef out = kj_entry_alloca(w, w->f64, m), args[7] = {rows, cols, data_of(w, copy), LLVMConstInt(w->i32, (unsigned)kind, 0),
                                                                 LLVMConstReal(w->f64, p)};
    if (cond) {
        args[5] = LLVMConstInt(w->i32, xn->type->elem == kj_float(32), 0);
        args[6] = out;
        check(w, kj_call(w, "kj_la_cond", w->i32, 7, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->i32, w->f64, w->i32, w->ptr}, args));
    } else {
        args[5] = out;
        check(w, kj_call(w, "kj_la_norm", w->i32, 6, (LLVMTypeRef[]){w->i64, w->i64, w->ptr, w->i32, w->f64, w->ptr}, args));
    }
    return kj_cast(w, LLVMBuildLoad2(w->b, w->f64, out, ""), KJ_F64, n->type);
}

/* The float type of the result's numbers. */
static const kj_type *result_elem(const kj_type *t) {
    if (t->kind == KJ_T_TUPLE)
        t = t->elems[0];
    return t->kind == KJ_T_ARRAY ? t->elem : t;
}

LLVMValueRef kj_np_lower_linalg(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    if (!strcmp(m, "norm") || !strcmp(m, "cond"))
        return norm_or_cond(w, n, m, a);
    kj_node *an = kj_np_arg(a, 0, "a");
    const kj_type *et = result_elem(n->type);
    LLVMValueRef arr = kj_lower_expr(w, an);
    bool rectangle = !strcmp(m, "svd") || !strcmp(m, "qr") || !strcmp(m, "lstsq") || !strcmp(m, "pinv") ||
                     !strcmp(m, "matrix_rank");
    LLVMValueRef size = rectangle ? NULL : square_size(w, arr);
    if (!strcmp(m, "matrix_power"))
        return matrix_power(w, a, arr, an->type, size);
    LLVMValueRef lu = fortran_copy(w, arr, an->type, KJ_F64), lu_data = data_of(w, lu);
    if (!strcmp(m, "lstsq"))
        return least_squares(w, n, a, arr, lu_data, et);
    if (!strcmp(m, "pinv") || !strcmp(m, "matrix_rank"))
        return through_svd(w, m, a, kj_array_field(w, arr, 2, 0), kj_array_field(w, arr, 2, 1), lu_data, et,
                           an->type->elem == kj_float(32));
    if (rectangle)
        return of_rectangle(w, n, m, a, kj_array_field(w, arr, 2, 0), kj_array_field(w, arr, 2, 1), lu_data, et);
    if (!strcmp(m, "solve") || !strcmp(m, "inv"))
        return solve_or_inv(w, m, a, size, lu_data, et);
    return of_square(w, n, m, a, size, lu_data, et);
}
