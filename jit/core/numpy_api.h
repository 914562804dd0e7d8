/* numpy_api: includes NumPy's C API for the jit layer. numpy_api.c defines
 * the API table (KJ_NUMPY_DEFINE_API) and module init imports it
 * (kj_numpy_api_import); every other file sees it through the shared
 * symbol. */
#ifndef KILN_JIT_NUMPY_API_H
#define KILN_JIT_NUMPY_API_H

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL kj_numpy_api
#ifndef KJ_NUMPY_DEFINE_API
#define NO_IMPORT_ARRAY
#endif
#include <Python.h>
#include <numpy/arrayobject.h>

/* Fills the API table from NumPy's module: 0, or -1 with an exception. */
int kj_numpy_api_import(void);

#endif
