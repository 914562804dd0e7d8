/* unit: what a compile unit records for the notebook (unit.h). */
#include "jit/core/unit.h"

void kj_remark_add(PyObject *list, long line, const char *kind, const char *message) {
    PyObject *d = Py_BuildValue("{s:l,s:s,s:s}", "line", line, "kind", kind, "message", message);
    if (!d || PyList_Append(list, d) < 0)
        PyErr_Clear();   /* a remark lost costs only its note */
    Py_XDECREF(d);
}
