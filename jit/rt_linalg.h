/* rt_linalg: np.linalg.solve, inv and det for compiled code, on the
 * system's LAPACK (liblapack.so.3, the library NumPy's own linalg calls,
 * so results agree with NumPy's to the bit), found when first needed.
 * Matrices arrive column-major (Fortran order) as doubles: NumPy too
 * computes in float64 and only casts float32 results at the end. The
 * functions return 0, or raise (kj_rt_raise) and return -1:
 * numpy.linalg.LinAlgError("Singular matrix"), or RuntimeError when
 * LAPACK cannot be loaded. */
#ifndef KILN_JIT_RT_LINALG_H
#define KILN_JIT_RT_LINALG_H

#include <stdint.h>

/* Solves a x = b for the nrhs columns of b (n x nrhs), in place; a is
 * overwritten with its LU factors. */
int32_t kj_la_solve(int64_t n, int64_t nrhs, double *a, double *b);
/* The determinant of a (overwritten) in *out, computed as NumPy computes
 * it: the sign and the log of the magnitude from the LU factors, then
 * sign * exp(logdet). */
int32_t kj_la_det(int64_t n, double *a, double *out);

/* Raises numpy.linalg.LinAlgError(msg); msg must outlive the call. */
void kj_la_raise(const char *msg);

#define KJ_RT_LINALG_SYMBOLS                      \
    {"kj_la_solve", (void *)kj_la_solve},         \
    {"kj_la_det", (void *)kj_la_det},             \
    {"kj_la_raise", (void *)kj_la_raise},

#endif
