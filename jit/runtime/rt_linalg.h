/* rt_linalg: np.linalg for compiled code, on the system's LAPACK
 * (liblapack.so.3, the library NumPy's own linalg calls, with the routines
 * and workspace sizes NumPy uses, so results agree with NumPy's to the
 * bit), found when first needed. Matrices arrive column-major (Fortran
 * order) as doubles and are overwritten: NumPy too computes in float64 and
 * only casts float32 results at the end. Results other than solve's are
 * written in C order. The functions return 0, or raise (kj_rt_raise) and
 * return -1: numpy.linalg.LinAlgError with NumPy's message, MemoryError, or
 * RuntimeError when LAPACK cannot be loaded. */
#ifndef KILN_JIT_RT_LINALG_H
#define KILN_JIT_RT_LINALG_H

#include <stdint.h>

/* Solves a x = b for the nrhs columns of b (n x nrhs), in place; a is
 * overwritten with its LU factors. */
int32_t kj_la_solve(int64_t n, int64_t nrhs, double *a, double *b);
/* The sign and the log of the magnitude of a's determinant, from its LU
 * factors, as NumPy's slogdet (and det, which is sign * exp(logdet)). */
int32_t kj_la_slogdet(int64_t n, double *a, double *sign, double *logdet);
/* L of a = L L^T (n x n) into out. */
int32_t kj_la_cholesky(int64_t n, double *a, double *out);
/* The eigenvalues of the symmetric a (n, ascending) into w and, unless v
 * is NULL, the eigenvectors into v's columns (n x n); a's lower triangle
 * is read, or its upper one when upper. */
int32_t kj_la_eigh(int64_t n, double *a, double *w, double *v, int32_t upper);
/* The eigenvalues of the general a (n) into w and, unless v is NULL, the
 * right eigenvectors into v's columns (n x n), as NumPy's eig: a must be
 * finite. A real matrix with complex eigenvalues raises ValueError, as
 * Numba's eig does: their type would depend on the values. */
int32_t kj_la_eig(int64_t n, double *a, double *w, double *v);
/* The singular values of the m x n a into s (min(m, n) of them) and,
 * unless u is NULL, u (m x m when full, else m x k) and vt (n x n when
 * full, else k x n), k = min(m, n). */
int32_t kj_la_svd(int64_t m, int64_t n, double *a, double *s, double *u, double *vt, int32_t full);
/* a = QR for the m x n a: r (mc x n) gets the upper triangle of the
 * factored a's first mc rows and, unless q is NULL, q the first mc columns
 * of Q (m x mc). */
int32_t kj_la_qr(int64_t m, int64_t n, double *a, int64_t mc, double *q, double *r);

/* Least squares (gelsd) of the m x n a against b (m x nrhs, C order), rcond
 * as LAPACK's: x (n x nrhs, C order), the singular values s (min(m, n)),
 * *rank, and when m > n and the rank is n each column's sum of squared
 * residuals in resid (nrhs). */
int32_t kj_la_lstsq(int64_t m, int64_t n, int64_t nrhs, double *a, const double *b, double rcond, double *x,
                    double *resid, int32_t *rank, double *s);

/* a ** p for the n x n a (C order, overwritten) into out, as NumPy's
 * matrix_power: the identity for 0, the inverse's power for p < 0 (for
 * an integer matrix ValueError), a @ a and (a @ a) @ a for 2 and 3, then
 * NumPy's binary decomposition. kind: the element type computed in. */
enum { KJ_LA_F64, KJ_LA_F32, KJ_LA_INT };
int32_t kj_la_matrix_power(int32_t kind, int64_t n, int64_t p, void *a, void *out);

/* NumPy's matrix_rank of the m x n a (Fortran, overwritten): the singular
 * values above tol, or when !has_tol above the largest times max(m, n)
 * times the machine epsilon; single: in float32, as NumPy for float32
 * input. -1 after raising. */
int64_t kj_la_matrix_rank(int64_t m, int64_t n, double *a, double tol, int32_t has_tol, int32_t single);
/* NumPy's pinv of the m x n a (Fortran, overwritten) into out (n x m, C
 * order): through the reduced SVD, singular values at or below rcond times
 * the largest taken as zero; single as above. */
int32_t kj_la_pinv(int64_t m, int64_t n, double *a, double rcond, double *out, int32_t single);

/* inv(a) of the n x n a (C order) into out (C order), as NumPy's inv
 * computes it: 0, 1 when a is singular (nothing raised), -1 after raising. */
int32_t kj_la_try_inverse(int64_t n, const double *a, double *out);

/* np.linalg.norm(x, ord) of the m x n x (a vector when n < 0), C order,
 * float64, into *out; -1 after raising (an empty max or min, a failed
 * SVD). ord is KJ_NORM_DEFAULT (None), _FRO, _NUC or _NUMBER with p. */
enum { KJ_NORM_DEFAULT, KJ_NORM_FRO, KJ_NORM_NUC, KJ_NORM_NUMBER };
int32_t kj_la_norm(int64_t m, int64_t n, const double *x, int32_t kind, double p, double *out);
/* np.linalg.cond(x, p) of the m x n x (C order, float64),
 * into *out; the kinds are norm's. single: x was float32, whose singular
 * values NumPy divides as float32, and whose own norm is a float32. */
int32_t kj_la_cond(int64_t m, int64_t n, const double *x, int32_t kind, double p, int32_t single, double *out);

/* Raises numpy.linalg.LinAlgError(msg); msg must outlive the call. */
void kj_la_raise(const char *msg);

#define KJ_RT_LINALG_SYMBOLS                      \
    {"kj_la_solve", (void *)kj_la_solve},         \
    {"kj_la_slogdet", (void *)kj_la_slogdet},     \
    {"kj_la_cholesky", (void *)kj_la_cholesky},   \
    {"kj_la_eigh", (void *)kj_la_eigh},           \
    {"kj_la_eig", (void *)kj_la_eig},             \
    {"kj_la_svd", (void *)kj_la_svd},             \
    {"kj_la_qr", (void *)kj_la_qr},               \
    {"kj_la_lstsq", (void *)kj_la_lstsq},         \
    {"kj_la_matrix_power", (void *)kj_la_matrix_power}, \
    {"kj_la_matrix_rank", (void *)kj_la_matrix_rank}, \
    {"kj_la_pinv", (void *)kj_la_pinv},           \
    {"kj_la_norm", (void *)kj_la_norm},           \
    {"kj_la_cond", (void *)kj_la_cond},           \
    {"kj_la_raise", (void *)kj_la_raise},

#endif
