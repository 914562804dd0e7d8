/* parallel_module: the issue-7 part of the _kiln module: prange, the
 * thread pool's settings, the warning a serial prange loop gives, ufunc
 * construction (ufunc.c), cached object files (cache.c). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jit/engine/cache.h"
#include "jit/runtime/pool.h"
#include "jit/dispatch/ufunc.h"

extern PyObject *kj_parallel_warning;   /* parallel_lower.c warns with it */

/* kiln.prange outside compiled code (and in functions without
 * parallel=True) is range; the front end knows it by name (globals.c). */
static PyObject *prange(PyObject *self, PyObject *args) {
    (void)self;
    return PyObject_Call((PyObject *)&PyRange_Type, args, NULL);
}

static PyObject *set_num_threads(PyObject *self, PyObject *arg) {
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (kj_pool_set_threads(n < 0 || n > KJ_POOL_MAX_THREADS ? 0 : (int)n) < 0)
        return PyErr_Format(PyExc_ValueError, "the number of threads must be between 1 and %d, got %ld",
                            KJ_POOL_MAX_THREADS, n);
    Py_RETURN_NONE;
}

static PyObject *get_num_threads(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(kj_pool_threads());
}

static PyMethodDef methods[] = {
    {"prange", prange, METH_VARARGS, "prange(stop) / prange(start, stop[, step]): range whose iterations "
                                     "may run in parallel in a parallel=True function."},
    {"set_num_threads", set_num_threads, METH_O, "Threads used by parallel loops and ufuncs from now on."},
    {"get_num_threads", get_num_threads, METH_NOARGS, "Threads used by parallel loops and ufuncs."},
    {NULL, NULL, 0, NULL},
};

int kj_parallel_module_init(PyObject *module) {
    if (!kj_parallel_warning &&
        !(kj_parallel_warning = PyErr_NewExceptionWithDoc(
              "kiln.ParallelSafetyWarning",
              "A prange loop runs serially because its iterations depend on each other.",
              PyExc_UserWarning, NULL)))
        return -1;
    Py_INCREF(kj_parallel_warning);   /* one reference for the module, one kept here */
    if (PyModule_AddObject(module, "ParallelSafetyWarning", kj_parallel_warning) < 0) {
        Py_DECREF(kj_parallel_warning);
        return -1;
    }
    if (PyModule_AddFunctions(module, methods) < 0 || kj_ufunc_init(module) < 0 || kj_cache_init(module) < 0 ||
        PyModule_AddIntConstant(module, "MAX_THREADS", KJ_POOL_MAX_THREADS) < 0)
        return -1;
    return 0;
}
