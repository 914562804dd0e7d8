/* generators: for loops over generator functions, which the front end
 * compiles after kiln.generators (python/kiln/generators.py) has written
 * each generator's body into the loop's place in the function's ast. The
 * rewrite is ast to ast, so it lives in Python beside the ast module; this
 * is the front end's side of the call. */
#include "jit/frontend/frontend_int.h"

/* A Refused from the rewriter as Kiln's UnsupportedError at its node. */
static int refused(fe *c, PyObject *exc) {
    PyObject *line = PyObject_GetAttrString(exc, "lineno"), *col = PyObject_GetAttrString(exc, "col_offset"),
             *msg = PyObject_GetAttrString(exc, "message"), *hint = PyObject_GetAttrString(exc, "hint");
    int rc = -1;
    if (line && col && msg && hint) {
        const char *h = hint == Py_None ? NULL : PyUnicode_AsUTF8(hint);
        rc = kj_fail(c->e, KJ_ERR_UNSUPPORTED, (int)PyLong_AsLong(line) + c->line_offset,
                     (int)PyLong_AsLong(col) + c->col_offset, h, "%s", PyUnicode_AsUTF8(msg));
    }
    Py_XDECREF(line);
    Py_XDECREF(col);
    Py_XDECREF(msg);
    Py_XDECREF(hint);
    if (PyErr_Occurred())
        rc = kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "generators");
    return rc;
}

/* Whether code (or code nested in it) is a generator's: an inner
 * generator def. */
static bool defines_a_generator(PyCodeObject *code) {
    PyObject *consts = PyObject_GetAttrString((PyObject *)code, "co_consts");
    bool found = false;
    for (Py_ssize_t i = 0; consts && !found && i < PyTuple_GET_SIZE(consts); i++) {
        PyObject *k = PyTuple_GET_ITEM(consts, i);
        found = PyCode_Check(k) && ((((PyCodeObject *)k)->co_flags & CO_GENERATOR) ||
                                    defines_a_generator((PyCodeObject *)k));
    }
    Py_XDECREF(consts);
    PyErr_Clear();
    return found;
}

int kj_fe_inline_generators(fe *c, PyObject **fdef) {
    static PyObject *module;   /* kiln.generators, imported on first need */
    if (!module) {
        /* a kiln generator exists only once kiln.generators is imported
         * (kiln.jit of a generator does it): until then only an inner
         * generator def needs it, and a first compile does not pay for it */
        PyObject *name = PyUnicode_FromString("kiln.generators");
        module = name ? PyImport_GetModule(name) : NULL;
        Py_XDECREF(name);
        if (!module && PyErr_Occurred())
            return kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "generators");
        if (!module && !defines_a_generator((PyCodeObject *)PyFunction_GetCode(c->f->py_func)))
            return 0;
        if (!module && !(module = PyImport_ImportModule("kiln.generators")))
            return kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "generators");
    }
    PyObject *r = PyObject_CallMethod(module, "inline", "OOOOO", *fdef, c->f->py_func, c->globals,
                                      c->closure ? c->closure : Py_None, c->builtins);
    if (r) {
        Py_SETREF(*fdef, r);
        return 0;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *refused_type = PyObject_GetAttrString(module, "Refused");
    int rc;
    if (refused_type && value && PyObject_IsInstance(value, refused_type) == 1) {
        rc = refused(c, value);
    } else {
        PyErr_Restore(type, value, tb);
        type = value = tb = NULL;
        rc = kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "generators");
    }
    Py_XDECREF(refused_type);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return rc;
}
