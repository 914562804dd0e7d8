/* unit: where kiln functions keep their compile state, and what a compile
 * unit records for the notebook (unit.h). */
#include "jit/core/unit.h"
#include "jit/core/types.h"

void kj_remark_add(PyObject *list, long line, const char *kind, const char *message) {
    PyObject *d = Py_BuildValue("{s:l,s:s,s:s}", "line", line, "kind", kind, "message", message);
    if (!d || PyList_Append(list, d) < 0)
        PyErr_Clear();   /* a remark lost costs only its note */
    Py_XDECREF(d);
}

static size_t state_offset;

void kj_fn_state_register(size_t offset) { state_offset = offset; }

kj_fn_state *kj_fn_state_of(PyObject *o) {
    return state_offset && kj_dispatcher_type && PyObject_TypeCheck(o, kj_dispatcher_type)
               ? (kj_fn_state *)((char *)o + state_offset)
               : NULL;
}
