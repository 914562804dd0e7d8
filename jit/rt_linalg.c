/* rt_linalg: LAPACK's gesv and getrf for np.linalg (rt_linalg.h). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jit/rt_linalg.h"
#include "jit/runtime.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

typedef void (*gesv_fn)(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
                        const int *ldb, int *info);
typedef void (*getrf_fn)(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);

static struct {
    gesv_fn gesv;       /* dgesv_ */
    getrf_fn getrf;     /* dgetrf_ */
    PyObject *error;    /* numpy.linalg.LinAlgError, kept for the process */
} lapack;
static pthread_once_t lapack_once = PTHREAD_ONCE_INIT;

static void load_lapack(void) {
    void *lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        lapack.gesv = (gesv_fn)dlsym(lib, "dgesv_");
        lapack.getrf = (getrf_fn)dlsym(lib, "dgetrf_");
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
    if (lapack.gesv && lapack.getrf && lapack.error)
        return 1;
    kj_rt_raise(PyExc_RuntimeError, "np.linalg in compiled code needs LAPACK (liblapack.so.3), which could not be loaded");
    return 0;
}

void kj_la_raise(const char *msg) {
    if (ready())
        kj_rt_raise(lapack.error, msg);
}

static int32_t singular(void) {
    kj_la_raise("Singular matrix");
    return -1;
}

int32_t kj_la_solve(int64_t n, int64_t nrhs, double *a, double *b) {
    if (!ready())
        return -1;
    int in = (int)n, inrhs = (int)nrhs, ld = in > 1 ? in : 1, info = 0;
    int *ipiv = malloc(sizeof(int) * (size_t)ld);
    if (!ipiv) {
        kj_rt_raise(PyExc_MemoryError, NULL);
        return -1;
    }
    lapack.gesv(&in, &inrhs, a, &ld, ipiv, b, &ld, &info);
    free(ipiv);
    return info > 0 ? singular() : 0;
}

int32_t kj_la_det(int64_t n, double *a, double *out) {
    if (!ready())
        return -1;
    int in = (int)n, ld = in > 1 ? in : 1, info = 0;
    int *ipiv = malloc(sizeof(int) * (size_t)ld);
    if (!ipiv) {
        kj_rt_raise(PyExc_MemoryError, NULL);
        return -1;
    }
    lapack.getrf(&in, &in, a, &ld, ipiv, &info);
    /* NumPy's slogdet: a zero pivot gives sign 0 and log -inf */
    double sign = info > 0 ? 0.0 : 1.0, logdet = info > 0 ? -INFINITY : 0.0;
    for (int i = 0; info == 0 && i < in; i++) {
        double d = a[(size_t)i * (size_t)ld + (size_t)i];
        sign *= (ipiv[i] != i + 1) ? -1.0 : 1.0;
        sign *= d < 0 ? -1.0 : 1.0;
        logdet += log(fabs(d));
    }
    *out = sign * exp(logdet);
    free(ipiv);
    return 0;
}
