/* inner: a function defined inside a compiled function, lifted out of it.
 * Its code object (a constant of the outer code) becomes a function of its
 * own whose free variables (the outer locals it reads) are extra trailing
 * parameters: each call from the outer function passes their values at that
 * moment, which is what a Python closure would read. The lifted function
 * gets a dispatcher of its own, so it is compiled like any kiln function
 * called from compiled code (an instance of the same unit), and may call
 * itself. */
#include "jit/frontend/frontend.h"

#include <string.h>

/* The code object of the def on `line` named `name` among outer's
 * constants (borrowed), or NULL; *count: how many match; *named: how many
 * have that name on any line. */
static PyObject *inner_code(PyObject *outer, const char *name, int line, int *count, int *named) {
    PyObject *consts = PyObject_GetAttrString(PyFunction_GetCode(outer), "co_consts");
    PyObject *found = NULL;
    *count = *named = 0;
    for (Py_ssize_t i = 0; consts && i < PyTuple_GET_SIZE(consts); i++) {
        PyObject *k = PyTuple_GET_ITEM(consts, i);
        if (!PyCode_Check(k))
            continue;
        PyObject *kn = PyObject_GetAttrString(k, "co_name"), *kl = PyObject_GetAttrString(k, "co_firstlineno");
        bool same_name = kn && strcmp(PyUnicode_AsUTF8(kn), name) == 0;
        *named += same_name;
        if (same_name && kl && PyLong_AsLong(kl) == line) {
            found = found ? found : k;
            (*count)++;
        }
        Py_XDECREF(kn);
        Py_XDECREF(kl);
    }
    Py_XDECREF(consts);
    PyErr_Clear();
    return found;
}

/* A new dispatcher for the def `name` on file line `line` of outer (None
 * when CPython left the def out as unreachable): the
 * def's code with closure cells that are empty where an outer local is
 * read (the value arrives as an argument) and hold the dispatcher where the
 * def calls itself or an inner function defined before it (then the call is
 * one between kiln functions). Its parameters for outer locals, in
 * __kiln_lifted__ and _kiln_lifted, are those it reads and those the inner
 * functions it calls read, which it passes on. */
static PyObject *lift(PyObject *outer, const char *name, int line, int col, PyObject *inner, kj_error *e) {
    int count, named;
    PyObject *code = inner_code(outer, name, line, &count, &named);
    if (!code && !named)   /* CPython dropped the def as code no path reaches (after a return or raise) */
        Py_RETURN_NONE;
    if (!code) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define the function at module level and decorate it with @kiln.jit.",
                "cannot find the code of the inner function %s", name);
        return NULL;
    }
    if (count > 1) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Put each lambda on a line of its own.",
                "two functions named %s on one line cannot be told apart", name);
        return NULL;
    }
    PyObject *freevars = PyObject_GetAttrString(code, "co_freevars");
    Py_ssize_t nfree = freevars ? PyTuple_GET_SIZE(freevars) : 0;
    PyObject *cells = freevars ? PyTuple_New(nfree) : NULL, *params = cells ? PyList_New(0) : NULL;
    for (Py_ssize_t i = 0; cells && i < nfree; i++) {
        PyObject *cell = PyCell_New(NULL);
        if (!cell)
            Py_CLEAR(cells);
        else
            PyTuple_SET_ITEM(cells, i, cell);
    }
    PyObject *fn = cells && params ? PyFunction_New(code, PyFunction_GetGlobals(outer)) : NULL;
    PyObject *d = NULL;
    if (fn && (nfree == 0 || PyFunction_SetClosure(fn, cells) == 0) &&
        (d = PyObject_CallOneArg((PyObject *)kj_dispatcher_type, fn))) {
        for (Py_ssize_t i = 0; d && i < nfree; i++) {
            PyObject *v = PyTuple_GET_ITEM(freevars, i);
            PyObject *callee = PyUnicode_CompareWithASCIIString(v, name) == 0 ? d : PyDict_GetItemWithError(inner, v);
            PyObject *its = callee && callee != d ? kj_lifted_freevars(callee) : NULL;
            for (Py_ssize_t k = 0; its && d && k < PyTuple_GET_SIZE(its); k++) {
                PyObject *p = PyTuple_GET_ITEM(its, k);
                if (PyUnicode_CompareWithASCIIString(p, name) == 0) {   /* it reads this def: defined after it */
                    kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define them at module level and decorate them with @kiln.jit.",
                            "inner functions that call each other are not supported");
                    Py_CLEAR(d);
                } else if (!PySequence_Contains(params, p) && PyList_Append(params, p) < 0) {
                    Py_CLEAR(d);
                }
            }
            Py_XDECREF(its);
            if (d && (PyErr_Occurred() ||
                      (callee ? PyCell_Set(PyTuple_GET_ITEM(cells, i), callee)
                              : PySequence_Contains(params, v) ? 0 : PyList_Append(params, v)) < 0))
                Py_CLEAR(d);
        }
        PyObject *t = d ? PyList_AsTuple(params) : NULL;
        if (d && (!t || PyObject_SetAttrString(d, "_kiln_lifted", t) < 0 ||
                  PyObject_SetAttrString(fn, "__kiln_lifted__", t) < 0))
            Py_CLEAR(d);
        Py_XDECREF(t);
    }
    Py_XDECREF(fn);
    Py_XDECREF(cells);
    Py_XDECREF(params);
    Py_XDECREF(freevars);
    if (!d && e->kind == KJ_ERR_NONE)
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "lifting an inner function");
    return d;
}

/* Lifts the function whose code is named code_name on `line` and keeps it
 * as inner[name]; 0, or -1 with e filled. */
static int lift_as(kj_function *f, const char *code_name, const char *name, PyObject *inner, int line, int col,
                   kj_error *e) {
    PyObject *d = lift(f->py_func, code_name, line, col, inner, e);
    if (!d)
        return -1;
    if (d == Py_None) {   /* unreachable: nothing to lift */
        Py_DECREF(d);
        return 0;
    }
    int rc = PyList_Append(f->keep, d) < 0 || PyDict_SetItemString(inner, name, d) < 0 ? -1 : 0;
    Py_DECREF(d);
    if (rc < 0)
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "inner function");
    return rc;
}

int kj_inner_def(kj_function *f, PyObject *fdef, PyObject *inner, int line, int col, kj_error *e) {
    PyObject *name = PyObject_GetAttrString(fdef, "name"), *decos = PyObject_GetAttrString(fdef, "decorator_list"),
             *arguments = PyObject_GetAttrString(fdef, "args");
    PyObject *dfl = arguments ? PyObject_GetAttrString(arguments, "defaults") : NULL;
    int rc = -1;
    if (!name || !decos || !dfl || !PyList_Check(decos) || !PyList_Check(dfl)) {
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "ast");
    } else if (PyList_GET_SIZE(decos) > 0 || PyList_GET_SIZE(dfl) > 0) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Define it at module level and decorate it with @kiln.jit.",
                "an inner function with decorators or default values is not supported");
    } else {
        rc = lift_as(f, PyUnicode_AsUTF8(name), PyUnicode_AsUTF8(name), inner, line, col, e);
    }
    Py_XDECREF(name);
    Py_XDECREF(decos);
    Py_XDECREF(arguments);
    Py_XDECREF(dfl);
    return rc;
}

int kj_inner_lambda(kj_function *f, PyObject *lambda, const char *name, PyObject *inner, int line, int col, kj_error *e) {
    PyObject *arguments = PyObject_GetAttrString(lambda, "args");
    PyObject *dfl = arguments ? PyObject_GetAttrString(arguments, "defaults") : NULL;
    int rc = -1;
    if (!dfl || !PyList_Check(dfl)) {
        kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "ast");
    } else if (PyList_GET_SIZE(dfl) > 0) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line, col, "Pass every argument in the call.",
                "a lambda with default values is not supported");
    } else {
        rc = lift_as(f, "<lambda>", name, inner, line, col, e);
    }
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
    if (!PyTuple_Check(flag)) {
        Py_DECREF(flag);
        PyErr_SetString(PyExc_TypeError, "kiln: __kiln_lifted__ must be a tuple of names");
        return -1;
    }
    int n = (int)PyTuple_GET_SIZE(flag);
    for (int i = 0; n >= 0 && i < PyTuple_GET_SIZE(flag); i++)
        if (add_param(f, PyUnicode_AsUTF8(PyTuple_GET_ITEM(flag, i))) < 0)
            n = -1;
    Py_DECREF(flag);
    return n;
}
