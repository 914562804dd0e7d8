/* rt_linalg: LAPACK for np.linalg (rt_linalg.h): the routines NumPy's
 * own linalg calls, with the same arguments and workspace sizes, so that
 * the results are NumPy's to the bit. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jit/runtime/rt_linalg.h"
#include "jit/runtime/runtime.h"

#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Fortran's calling convention: every argument by reference, and after
 * them the length of each CHARACTER argument. */
typedef size_t flen;
typedef void (*gesv_fn)(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
                        const int *ldb, int *info);
typedef void (*getrf_fn)(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
typedef void (*potrf_fn)(const char *uplo, const int *n, double *a, const int *lda, int *info, flen);
typedef void (*syevd_fn)(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
                         double *work, const int *lwork, int *iwork, const int *liwork, int *info, flen, flen);
typedef void (*geev_fn)(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *wr,
                        double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
                        const int *lwork, int *info, flen, flen);
typedef void (*gesdd_fn)(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
                         double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork,
                         int *iwork, int *info, flen);
typedef void (*gelsd_fn)(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
                         const int *ldb, double *s, const double *rcond, int *rank, double *work, const int *lwork,
                         int *iwork, int *info);
typedef void (*geqrf_fn)(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
                         const int *lwork, int *info);
typedef void (*orgqr_fn)(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
                         double *work, const int *lwork, int *info);

static struct {
    gesv_fn gesv;
    getrf_fn getrf;
    potrf_fn potrf;
    syevd_fn syevd;
    geev_fn geev;
    gesdd_fn gesdd;
    gelsd_fn gelsd;
    geqrf_fn geqrf;
    orgqr_fn orgqr;
    PyObject *error;    /* numpy.linalg.LinAlgError, kept for the process */
} lapack;
static pthread_once_t lapack_once = PTHREAD_ONCE_INIT;

static void load_lapack(void) {
    void *lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        lapack.gesv = (gesv_fn)dlsym(lib, "dgesv_");
        lapack.getrf = (getrf_fn)dlsym(lib, "dgetrf_");
        lapack.potrf = (potrf_fn)dlsym(lib, "dpotrf_");
        lapack.syevd = (syevd_fn)dlsym(lib, "dsyevd_");
        lapack.geev = (geev_fn)dlsym(lib, "dgeev_");
        lapack.gesdd = (gesdd_fn)dlsym(lib, "dgesdd_");
        lapack.gelsd = (gelsd_fn)dlsym(lib, "dgelsd_");
        lapack.geqrf = (geqrf_fn)dlsym(lib, "dgeqrf_");
        lapack.orgqr = (orgqr_fn)dlsym(lib, "dorgqr_");
    }
    PyGILState_STATE g = PyGILState_Ensure();   /* compiled code may run without the GIL */
    PyObject *mod = PyImport_ImportModule("numpy.linalg");
    lapack.error = mod ? PyObject_GetAttrString(mod, "LinAlgError") : NULL;
    Py_XDECREF(mod);
    PyErr_Clear();
    PyGILState_Release(g);
}

/* Whether LAPACK is there (raising RuntimeError when not). */
static int ready(void) {
    pthread_once(&lapack_once, load_lapack);
    if (lapack.gesv && lapack.getrf && lapack.potrf && lapack.syevd && lapack.geev && lapack.gesdd && lapack.gelsd && lapack.geqrf &&
        lapack.orgqr && lapack.error)
        return 1;
    kj_rt_raise(PyExc_RuntimeError, "np.linalg in compiled code needs LAPACK (liblapack.so.3), which could not be loaded");
    return 0;
}

/* Workspace: NULL after raising MemoryError. n of 0 still allocates. */
static void *scratch(size_t n, size_t size) {
    void *p = malloc((n ? n : 1) * size);
    if (!p)
        kj_rt_raise(PyExc_MemoryError, NULL);
    return p;
}

/* LAPACK's leading dimension for a matrix of `rows` rows. */
static int ld(int64_t rows) { return rows > 1 ? (int)rows : 1; }

/* Fortran-order rows x cols with leading dimension lda, into C order. */
static void to_c_order(const double *f, int64_t rows, int64_t cols, int lda, double *out) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            out[i * cols + j] = f[j * lda + i];
}

void kj_la_raise(const char *msg) {
    if (ready())
        kj_rt_raise(lapack.error, msg);
}

static int32_t singular(void) {
    kj_la_raise("Singular matrix");
    return -1;
}

/* gesv of the n x n a against b (n x nrhs), both Fortran order, in place:
 * 0, 1 when a is singular (nothing raised), -1 after raising. */
static int32_t gesv(int64_t n, int64_t nrhs, double *a, double *b) {
    if (!ready())
        return -1;
    int in = (int)n, inrhs = (int)nrhs, lda = ld(n), info = 0;
    int *ipiv = scratch((size_t)n, sizeof(int));
    if (!ipiv)
        return -1;
    lapack.gesv(&in, &inrhs, a, &lda, ipiv, b, &lda, &info);
    free(ipiv);
    return info > 0;
}

int32_t kj_la_solve(int64_t n, int64_t nrhs, double *a, double *b) {
    int32_t rc = gesv(n, nrhs, a, b);
    return rc == 1 ? singular() : rc;
}

int32_t kj_la_try_inverse(int64_t n, const double *a, double *out) {
    size_t nn = (size_t)(n * n);
    double *lu = scratch(nn, sizeof(double)), *x = lu ? scratch(nn, sizeof(double)) : NULL;
    int32_t rc = -1;
    if (x) {
        for (int64_t i = 0; i < n; i++)   /* Fortran order: the transpose */
            for (int64_t j = 0; j < n; j++) {
                lu[j * n + i] = a[i * n + j];
                x[j * n + i] = i == j;
            }
        rc = gesv(n, n, lu, x);
        for (int64_t i = 0; rc == 0 && i < n; i++)
            for (int64_t j = 0; j < n; j++)
                out[i * n + j] = x[j * n + i];
    }
    free(lu);
    free(x);
    return rc;
}

int32_t kj_la_slogdet(int64_t n, double *a, double *sign, double *logdet) {
    if (!ready())
        return -1;
    int in = (int)n, lda = ld(n), info = 0;
    int *ipiv = scratch((size_t)n, sizeof(int));
    if (!ipiv)
        return -1;
    lapack.getrf(&in, &in, a, &lda, ipiv, &info);
    /* NumPy's: a zero pivot gives sign 0 and log -inf */
    double s = info > 0 ? 0.0 : 1.0, l = info > 0 ? -INFINITY : 0.0;
    for (int i = 0; info == 0 && i < in; i++) {
        double d = a[(size_t)i * (size_t)lda + (size_t)i];
        s *= (ipiv[i] != i + 1) ? -1.0 : 1.0;
        s *= d < 0 ? -1.0 : 1.0;
        l += log(fabs(d));
    }
    *sign = s;
    *logdet = l;
    free(ipiv);
    return 0;
}

int32_t kj_la_cholesky(int64_t n, double *a, double *out) {
    if (!ready())
        return -1;
    int in = (int)n, lda = ld(n), info = 0;
    lapack.potrf("L", &in, a, &lda, &info, 1);
    if (info > 0) {
        kj_la_raise("Matrix is not positive definite");
        return -1;
    }
    for (int64_t j = 0; j < n; j++)   /* L: the lower triangle, zeros above it */
        for (int64_t i = 0; i < j; i++)
            a[j * lda + i] = 0.0;
    to_c_order(a, n, n, lda, out);
    return 0;
}

int32_t kj_la_eigh(int64_t n, double *a, double *w, double *v, int32_t upper) {
    if (!ready())
        return -1;
    int in = (int)n, lda = ld(n), info = 0, lwork = -1, liwork = -1, iwork_size = 0;
    const char *jobz = v ? "V" : "N", *uplo = upper ? "U" : "L";
    double work_size = 0;
    lapack.syevd(jobz, uplo, &in, a, &lda, w, &work_size, &lwork, &iwork_size, &liwork, &info, 1, 1);
    lwork = (int)work_size;
    liwork = iwork_size;
    double *work = scratch((size_t)lwork, sizeof(double));
    int *iwork = work ? scratch((size_t)liwork, sizeof(int)) : NULL;
    if (iwork)
        lapack.syevd(jobz, uplo, &in, a, &lda, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(iwork);
    if (!iwork)
        return -1;
    if (info != 0) {
        kj_la_raise("Eigenvalues did not converge");
        return -1;
    }
    if (v)
        to_c_order(a, n, n, lda, v);   /* the eigenvectors, in columns */
    return 0;
}

int32_t kj_la_eig(int64_t n, double *a, double *w, double *v) {
    if (!ready())
        return -1;
    for (int64_t i = 0; i < n * n; i++)
        if (!isfinite(a[i])) {
            kj_la_raise("Array must not contain infs or NaNs");
            return -1;
        }
    int in = (int)n, lda = ld(n), info = 0, lwork = -1;
    const char *jobvr = v ? "V" : "N";
    double work_size = 0;
    double *wi = scratch((size_t)n, sizeof(double));
    double *vr = wi && v ? scratch((size_t)(n * n), sizeof(double)) : NULL;
    double *work = NULL;
    if (wi && (vr || !v)) {
        lapack.geev("N", jobvr, &in, a, &lda, w, wi, NULL, &lda, vr, &lda, &work_size, &lwork, &info, 1, 1);
        lwork = (int)work_size;
        work = scratch((size_t)lwork, sizeof(double));
    }
    if (work)
        lapack.geev("N", jobvr, &in, a, &lda, w, wi, NULL, &lda, vr, &lda, work, &lwork, &info, 1, 1);
    int32_t rc = work ? 0 : -1;
    if (work && info != 0) {
        kj_la_raise("Eigenvalues did not converge");
        rc = -1;
    }
    for (int64_t i = 0; rc == 0 && i < n; i++)
        if (wi[i] != 0.0) {
            kj_rt_raise(PyExc_ValueError,
                        "this matrix has complex eigenvalues, and np.linalg.eig / eigvals of a real matrix give real "
                        "ones in compiled code (as in Numba): compute them outside compiled code, or use "
                        "np.linalg.eigh for a symmetric matrix");
            rc = -1;
        }
    if (rc == 0 && v)
        to_c_order(vr, n, n, lda, v);
    free(wi);
    free(vr);
    free(work);
    return rc;
}

/* The identity in C order, rows x rows. */
static void identity(double *out, int64_t rows) {
    memset(out, 0, sizeof(double) * (size_t)(rows * rows));
    for (int64_t i = 0; i < rows; i++)
        out[i * rows + i] = 1.0;
}

int32_t kj_la_svd(int64_t m, int64_t n, double *a, double *s, double *u, double *vt, int32_t full) {
    if (!ready())
        return -1;
    int64_t k = m < n ? m : n, ucols = full ? m : k, vrows = full ? n : k;
    const char *jobz = !u ? "N" : full ? "A" : "S";
    int im = (int)m, in = (int)n, lda = ld(m), ldu = u ? ld(m) : 1, ldvt = u ? ld(vrows) : 1;
    int info = 0, lwork = -1;
    double work_size = 0;
    double *uf = u ? scratch((size_t)(m * ucols), sizeof(double)) : NULL;
    double *vtf = u && uf ? scratch((size_t)(vrows * n), sizeof(double)) : NULL;
    int *iwork = !u || vtf ? scratch((size_t)(8 * k), sizeof(int)) : NULL;
    double *work = NULL;
    if (iwork) {
        lapack.gesdd(jobz, &im, &in, a, &lda, s, uf, &ldu, vtf, &ldvt, &work_size, &lwork, iwork, &info, 1);
        lwork = (int)work_size > 0 ? (int)work_size : 1;
        work = scratch((size_t)lwork, sizeof(double));
    }
    if (work)
        lapack.gesdd(jobz, &im, &in, a, &lda, s, uf, &ldu, vtf, &ldvt, work, &lwork, iwork, &info, 1);
    bool ok = work && info == 0;
    if (ok && u && k == 0 && full) {   /* LAPACK leaves them unset; NumPy gives identities */
        identity(u, m);
        identity(vt, n);
    } else if (ok && u) {
        to_c_order(uf, m, ucols, ldu, u);
        to_c_order(vtf, vrows, n, ldvt, vt);
    }
    free(uf);
    free(vtf);
    free(iwork);
    free(work);
    if (work && info != 0)   /* newer LAPACKs report a NaN as info -4 */
        kj_la_raise("SVD did not converge");
    return ok ? 0 : -1;
}

int32_t kj_la_qr(int64_t m, int64_t n, double *a, int64_t mc, double *q, double *r) {
    if (!ready())
        return -1;
    int64_t k = m < n ? m : n;
    int im = (int)m, in = (int)n, ik = (int)k, imc = (int)mc, lda = ld(m), info = 0, lwork = -1;
    double work_size = 0;
    double *tau = scratch((size_t)k, sizeof(double));
    if (!tau)
        return -1;
    lapack.geqrf(&im, &in, a, &lda, tau, &work_size, &lwork, &info);
    lwork = (int)work_size > in ? (int)work_size : in > 1 ? in : 1;
    double *work = scratch((size_t)lwork, sizeof(double));
    if (work)
        lapack.geqrf(&im, &in, a, &lda, tau, work, &lwork, &info);
    free(work);
    if (!work) {
        free(tau);
        return -1;
    }
    for (int64_t i = 0; i < mc; i++)   /* R: the upper triangle of a's first mc rows */
        for (int64_t j = 0; j < n; j++)
            r[i * n + j] = j >= i && i < m ? a[j * lda + i] : 0.0;
    double *qf = q ? scratch((size_t)(m * mc), sizeof(double)) : NULL;
    if (qf) {   /* Q from the reflectors in a's first columns, as NumPy's qr_reduced / qr_complete */
        memcpy(qf, a, sizeof(double) * (size_t)(m * (mc < n ? mc : n)));
        lwork = -1;
        lapack.orgqr(&im, &imc, &ik, qf, &lda, tau, &work_size, &lwork, &info);
        lwork = (int)work_size > imc ? (int)work_size : imc > 1 ? imc : 1;
        work = scratch((size_t)lwork, sizeof(double));
        if (work)
            lapack.orgqr(&im, &imc, &ik, qf, &lda, tau, work, &lwork, &info);
        if (work)
            to_c_order(qf, m, mc, lda, q);
        free(work);
        free(qf);
    }
    free(tau);
    return q && (!qf || !work) ? -1 : 0;
}

int32_t kj_la_lstsq(int64_t m, int64_t n, int64_t nrhs, double *a, const double *b, double rcond, double *x,
                    double *resid, int32_t *rank, double *s) {
    if (!ready())
        return -1;
    /* LAPACK takes no empty right-hand side: NumPy gives it one column of zeros */
    int64_t cols = nrhs > 0 ? nrhs : 1, ldb64 = m > n ? m : n;
    int im = (int)m, in = (int)n, icols = (int)cols, lda = ld(m), ldb = ld(ldb64), info = 0, lwork = -1;
    int iwork_size = 0;
    double work_size = 0;
    double *bf = scratch((size_t)(ldb * cols), sizeof(double));
    if (!bf)
        return -1;
    memset(bf, 0, sizeof(double) * (size_t)(ldb * cols));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < nrhs; j++)
            bf[j * ldb + i] = b[i * nrhs + j];
    lapack.gelsd(&im, &in, &icols, a, &lda, bf, &ldb, s, &rcond, rank, &work_size, &lwork, &iwork_size, &info);
    lwork = (int)work_size;
    double *work = scratch((size_t)lwork, sizeof(double));
    int *iwork = work ? scratch((size_t)iwork_size, sizeof(int)) : NULL;
    if (iwork)
        lapack.gelsd(&im, &in, &icols, a, &lda, bf, &ldb, s, &rcond, rank, work, &lwork, iwork, &info);
    free(work);
    free(iwork);
    if (iwork && info != 0)
        kj_la_raise("SVD did not converge in Linear Least Squares");
    if (!iwork || info != 0) {
        free(bf);
        return -1;
    }
    for (int64_t i = 0; i < n; i++)   /* x: B's first n rows, zeros when a has no rows (as NumPy) */
        for (int64_t j = 0; j < nrhs; j++)
            x[i * nrhs + j] = m > 0 ? bf[j * ldb + i] : 0.0;
    for (int64_t j = 0; j < nrhs && m > n && *rank == n; j++) {   /* each column's sum of squares past row n */
        double acc = 0.0;
        for (int64_t i = n; i < m; i++)
            acc += bf[j * ldb + i] * bf[j * ldb + i];
        resid[j] = acc;
    }
    free(bf);
    return 0;
}

/* c = x @ y for n x n C-order matrices of the kind's type, each sum in
 * order over k (NumPy's matmul on the reference BLAS adds so; integers
 * wrap, and wrap alike in any width, so int64 stands for them all). */
static void matmul(int32_t kind, int64_t n, const void *x, const void *y, void *c) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            if (kind == KJ_LA_F64) {
                double acc = 0.0;
                for (int64_t k = 0; k < n; k++)
                    acc += ((const double *)x)[i * n + k] * ((const double *)y)[k * n + j];
                ((double *)c)[i * n + j] = acc;
            } else if (kind == KJ_LA_F32) {
                float acc = 0.0f;
                for (int64_t k = 0; k < n; k++)
                    acc += ((const float *)x)[i * n + k] * ((const float *)y)[k * n + j];
                ((float *)c)[i * n + j] = acc;
            } else {
                uint64_t acc = 0;
                for (int64_t k = 0; k < n; k++)
                    acc += (uint64_t)((const int64_t *)x)[i * n + k] * (uint64_t)((const int64_t *)y)[k * n + j];
                ((int64_t *)c)[i * n + j] = (int64_t)acc;
            }
        }
}

/* a (C order, the kind's type) replaced by its inverse, as NumPy's inv:
 * in float64 through gesv against the identity, float32 cast at the end. */
static int32_t invert(int32_t kind, int64_t n, void *a) {
    size_t nn = (size_t)(n * n);
    double *in = kind == KJ_LA_F64 ? a : scratch(nn, sizeof(double)), *out = in ? scratch(nn, sizeof(double)) : NULL;
    for (size_t i = 0; out && kind != KJ_LA_F64 && i < nn; i++)
        in[i] = ((float *)a)[i];
    int32_t rc = out ? kj_la_try_inverse(n, in, out) : -1;
    rc = rc == 1 ? singular() : rc;
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        if (kind == KJ_LA_F64)
            ((double *)a)[i] = out[i];
        else
            ((float *)a)[i] = (float)out[i];
    }
    if (in != a)
        free(in);
    free(out);
    return rc;
}

int32_t kj_la_matrix_power(int32_t kind, int64_t n, int64_t p, void *a, void *out) {
    size_t item = kind == KJ_LA_F32 ? sizeof(float) : sizeof(double), bytes = item * (size_t)(n * n);
    if (p == 0) {   /* the identity */
        memset(out, 0, bytes);
        for (int64_t i = 0; i < n; i++) {
            if (kind == KJ_LA_F64)
                ((double *)out)[i * n + i] = 1.0;
            else if (kind == KJ_LA_F32)
                ((float *)out)[i * n + i] = 1.0f;
            else
                ((int64_t *)out)[i * n + i] = 1;
        }
        return 0;
    }
    if (p < 0) {
        if (kind == KJ_LA_INT) {
            kj_rt_raise(PyExc_ValueError, "np.linalg.matrix_power of an integer matrix to a negative power: its "
                                          "inverse is not an integer matrix; convert it first (a.astype(np.float64))");
            return -1;
        }
        if (invert(kind, n, a) != 0)
            return -1;
        p = p == INT64_MIN ? INT64_MAX : -p;   /* a power that large is past any float anyway */
    }
    if (p == 1) {
        memcpy(out, a, bytes);
        return 0;
    }
    char *z = scratch(bytes, 1), *acc = z ? scratch(bytes, 1) : NULL, *tmp = acc ? scratch(bytes, 1) : NULL;
    if (!tmp) {
        free(z);
        free(acc);
        return -1;
    }
    if (p <= 3) {   /* NumPy's short cuts: a @ a, (a @ a) @ a */
        matmul(kind, n, a, a, p == 2 ? out : tmp);
        if (p == 3)
            matmul(kind, n, tmp, a, out);
    } else {   /* its binary decomposition: z the powers of two, acc @ z where a bit is set */
        bool started = false;
        memcpy(z, a, bytes);
        for (bool first = true; p > 0; p /= 2, first = false) {
            if (!first) {
                matmul(kind, n, z, z, tmp);
                memcpy(z, tmp, bytes);
            }
            if (p % 2 == 0)
                continue;
            if (started) {
                matmul(kind, n, acc, z, tmp);
                memcpy(acc, tmp, bytes);
            } else {
                memcpy(acc, z, bytes);
                started = true;
            }
        }
        memcpy(out, acc, bytes);
    }
    free(z);
    free(acc);
    free(tmp);
    return 0;
}

/* The singular values of the m x n a (Fortran, overwritten) into s (k of
 * them, descending) and, unless u is NULL, u (m x k) and vt (k x n) in C
 * order, all rounded to float when single (NumPy's svd casts them to the
 * result's type). */
static int32_t singular_values(int64_t m, int64_t n, double *a, double *s, double *u, double *vt, bool single) {
    int64_t k = m < n ? m : n;
    int32_t rc = kj_la_svd(m, n, a, s, u, vt, 0);
    for (int64_t i = 0; rc == 0 && single && i < k; i++)
        s[i] = (double)(float)s[i];
    for (int64_t i = 0; rc == 0 && single && u && i < m * k; i++)
        u[i] = (double)(float)u[i];
    for (int64_t i = 0; rc == 0 && single && u && i < k * n; i++)
        vt[i] = (double)(float)vt[i];
    return rc;
}

/* x, or x rounded to float: float arithmetic done in double rounds the
 * same, one operation at a time, as float arithmetic itself. */
static double rounded(double x, bool single) { return single ? (double)(float)x : x; }

int64_t kj_la_matrix_rank(int64_t m, int64_t n, double *a, double tol, int32_t has_tol, int32_t single) {
    int64_t k = m < n ? m : n;
    double *s = scratch((size_t)k, sizeof(double));
    if (!s || singular_values(m, n, a, s, NULL, NULL, single) != 0) {
        free(s);
        return -1;
    }
    if (!has_tol && k == 0) {
        free(s);
        kj_rt_raise(PyExc_ValueError, "zero-size array to reduction operation maximum which has no identity");
        return -1;
    }
    if (!has_tol)   /* NumPy's: S.max() * max(M, N) * eps, in S's type */
        tol = rounded(rounded(s[0] * (double)(m > n ? m : n), single) * (single ? FLT_EPSILON : DBL_EPSILON), single);
    int64_t rank = 0;
    for (int64_t i = 0; i < k; i++)
        rank += s[i] > tol;
    free(s);
    return rank;
}

int32_t kj_la_pinv(int64_t m, int64_t n, double *a, double rcond, double *out, int32_t single) {
    int64_t k = m < n ? m : n;
    if (k == 0)
        return 0;
    double *s = scratch((size_t)k, sizeof(double)), *u = s ? scratch((size_t)(m * k), sizeof(double)) : NULL;
    double *vt = u ? scratch((size_t)(k * n), sizeof(double)) : NULL;
    int32_t rc = vt ? singular_values(m, n, a, s, u, vt, single) : -1;
    if (rc == 0) {
        double cutoff = rcond * s[0];   /* rcond times the largest, in float64 (NumPy's rcond array is) */
        for (int64_t i = 0; i < k; i++)
            s[i] = s[i] > cutoff ? rounded(1.0 / s[i], single) : 0.0;
        for (int64_t i = 0; i < m; i++)   /* s * u^T, in place of u: column l of u times s[l] */
            for (int64_t l = 0; l < k; l++)
                u[i * k + l] = rounded(s[l] * u[i * k + l], single);
        for (int64_t i = 0; i < n; i++)   /* out = vt^T @ (s * u^T), each sum in order */
            for (int64_t j = 0; j < m; j++) {
                double acc = 0.0;
                for (int64_t l = 0; l < k; l++)
                    acc = rounded(acc + rounded(vt[l * n + i] * u[j * k + l], single), single);
                out[i * m + j] = acc;
            }
    }
    free(s);
    free(u);
    free(vt);
    return rc;
}
