/* _kiln: the C extension behind the `kiln` package. Each layer of libkiln adds
 * its functions and types to this one module; the pure-Python package in
 * python/kiln/ gives them their public names. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "gpu/gpu.h"
#include "jit/jit.h"
#include "profiler/profiler.h"

static struct PyModuleDef kiln_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kiln",
    .m_doc = "Kiln's compiler, GPU target and profiler (use the kiln package).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kiln(void) {
    PyObject *m = PyModule_Create(&kiln_module);
    if (!m)
        return NULL;
    if (kp_module_init(m) < 0 || kj_module_init(m) < 0 || kg_module_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
