/* inner: a function defined inside a compiled function, lifted out of it.
 * Its code object (a constant of the outer code) becomes a function of its
 * own whose free variables (the outer locals it reads) are extra trailing
 * parameters: each call from the outer function passes their values at that
 * moment, which is what a Python closure would read. The lifted function
 * gets a dispatcher of its own, so it is compiled like any kiln function
 * called from compiled code (an instance of the same unit). */
#include "jit/frontend.h"

#include <string.h>

/* The code object of the def on `line` named `name` among outer's
 * constants (borrowed), or NULL. */
static PyObject *inner_code(PyObject *outer, const char *name, int line) {
    PyObject *consts = PyObject_GetAttrString(PyFunction_GetCode(outer), "co_consts");
    PyObject *found = NULL;
    for (Py_ssize_t i = 0; consts && !found && i < PyTuple_GET_SIZE(consts); i++) {
        PyObject *k = PyTuple_GET_ITEM(consts, i);
        if (!PyCode_Check(k))
            continue;
        PyObject *kn = PyObject_GetAttrString(k, "co_name"), *kl = PyObject_GetAttrString(k, "co_firstlineno");
        if (kn && kl && strcmp(PyUnicode_AsUTF8(kn), name) == 0 && PyLong_AsLong(kl) == line)
            found = k;
        Py_XDECREF(kn);
        Py_XDECREF(kl);
    }
    Py_XDECREF(consts);
    PyErr_Clear();
    return found;
}

/* A new dispatcher for the def `name` on file line `line` of outer: the
 * def's code with empty closure cells (the values arrive as arguments). */
static PyObject *lift(PyObject *outer, const char *name, int line, int col, kj_error *e) {
    PyObject *code = inner_code(outer, name, line);
    if (!code) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define the function at module level and decorate it with @kiln.jit.",
                "cannot find the code of the inner function %s", name);
        return NULL;
    }
    PyObject *freevars = PyObject_GetAttrString(code, "co_freevars");
    Py_ssize_t nfree = freevars ? PyTuple_GET_SIZE(freevars) : 0;
    PyObject *cells = freevars ? PyTuple_New(nfree) : NULL;
    for (Py_ssize_t i = 0; cells && i < nfree; i++) {
        PyObject *cell = PyCell_New(NULL);
        if (!cell)
            Py_CLEAR(cells);
        else
            PyTuple_SET_ITEM(cells, i, cell);
    }
    PyObject *fn = cells ? PyFunction_New(code, PyFunction_GetGlobals(outer)) : NULL;
    PyObject *d = NULL;
    if (fn && (nfree == 0 || PyFunction_SetClosure(fn, cells) == 0) &&
        PyObject_SetAttrString(fn, "__kiln_lifted__", Py_True) == 0 &&
        (d = PyObject_CallOneArg((PyObject *)kj_dispatcher_type, fn)) &&
        PyObject_SetAttrString(d, "_kiln_lifted", freevars) < 0)
        Py_CLEAR(d);
    Py_XDECREF(fn);
    Py_XDECREF(cells);
    Py_XDECREF(freevars);
    if (!d)
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "lifting an inner function");
    return d;
}

/* Whether the def reads itself or an earlier inner function (which would
 * be a free variable holding a function value). */
static bool calls_inner(PyObject *d, PyObject *name, PyObject *inner) {
    PyObject *names = kj_lifted_freevars(d);
    bool found = false;
    for (Py_ssize_t i = 0; names && !found && i < PyTuple_GET_SIZE(names); i++) {
        PyObject *v = PyTuple_GET_ITEM(names, i);
        found = PyUnicode_Compare(v, name) == 0 || PyDict_GetItem(inner, v) != NULL;
    }
    Py_XDECREF(names);
    return found;
}

int kj_inner_def(kj_function *f, PyObject *fdef, PyObject *inner, int line, int col, kj_error *e) {
    PyObject *name = PyObject_GetAttrString(fdef, "name"), *decos = PyObject_GetAttrString(fdef, "decorator_list"),
             *arguments = PyObject_GetAttrString(fdef, "args");
    PyObject *dfl = arguments ? PyObject_GetAttrString(arguments, "defaults") : NULL, *d = NULL;
    int rc = -1;
    if (!name || !decos || !dfl || !PyList_Check(decos) || !PyList_Check(dfl)) {
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "ast");
    } else if (PyList_GET_SIZE(decos) > 0 || PyList_GET_SIZE(dfl) > 0) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define it at module level and decorate it with @kiln.jit.",
                "an inner function with decorators or default values is not supported");
    } else if ((d = lift(f->py_func, PyUnicode_AsUTF8(name), line, col, e))) {
        if (calls_inner(d, name, inner))
            kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define them at module level and decorate them with @kiln.jit.",
                    "an inner function that calls itself or another inner function is not supported");
        else if (PyList_Append(f->keep, d) < 0 || PyDict_SetItem(inner, name, d) < 0)
            kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "inner function");
        else
            rc = 0;
    }
    Py_XDECREF(d);
    Py_XDECREF(name);
    Py_XDECREF(decos);
    Py_XDECREF(arguments);
    Py_XDECREF(dfl);
    return rc;
}

PyObject *kj_lifted_freevars(PyObject *dispatcher) {
    if (!kj_dispatcher_type || !PyObject_TypeCheck(dispatcher, kj_dispatcher_type))
        return NULL;   /* f->keep also holds modules, classes, ... */
    PyObject *names = PyObject_GetAttrString(dispatcher, "_kiln_lifted");
    if (!names)
        PyErr_Clear();
    return names;
}

int kj_lifted_params(kj_function *f, PyObject *py_func, int (*add_param)(kj_function *, const char *)) {
    PyObject *flag = PyObject_GetAttrString(py_func, "__kiln_lifted__");
    if (!flag) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(flag);
    PyObject *names = PyObject_GetAttrString(PyFunction_GetCode(py_func), "co_freevars");
    if (!names)
        return -1;
    int n = (int)PyTuple_GET_SIZE(names);
    for (int i = 0; n >= 0 && i < PyTuple_GET_SIZE(names); i++)
        if (add_param(f, PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))) < 0)
            n = -1;
    Py_DECREF(names);
    return n;
}
