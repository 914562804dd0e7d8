/* numpy_api: includes NumPy's C API for the jit layer. module.c defines the
 * API table (KJ_NUMPY_DEFINE_API) and imports it at module init; every other
 * file sees it through the shared symbol. */
#ifndef KILN_JIT_NUMPY_API_H
#define KILN_JIT_NUMPY_API_H

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL kj_numpy_api
#ifndef KJ_NUMPY_DEFINE_API
#define NO_IMPORT_ARRAY
#endif
#include <Python.h>
#include <numpy/arrayobject.h>

#endif
