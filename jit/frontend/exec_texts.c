/* exec_texts: the text of code compiled from a string (exec(), compile(),
 * eval()), which Python keeps nowhere once compiled, so that a kiln
 * function defined there can be compiled as Numba compiles it (Numba
 * reads bytecode; Kiln reads the text). An audit hook (CPython raises
 * "compile" with the source and file name for each) keeps the most recent
 * such texts that define something, under names in angle brackets
 * ("<string>"): a real file's text is in linecache already. kiln/sources.py
 * finds a function's own text among them by compiling each again and
 * comparing code objects. */
#define _GNU_SOURCE   /* memmem */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend/exec_texts.h"

#include <stdbool.h>
#include <string.h>

/* Enough for a module of tests that makes each case with exec(), newest first */
#define KEPT 256

static PyObject *kept_name[KEPT], *kept_text[KEPT];
static unsigned next_slot;

/* Whether text (str or bytes) may define a function: has "def" or "lambda" */
static bool may_define(PyObject *text) {
    const char *s;
    Py_ssize_t n;
    if (PyBytes_Check(text)) {
        s = PyBytes_AS_STRING(text);
        n = PyBytes_GET_SIZE(text);
    } else if (!(s = PyUnicode_AsUTF8AndSize(text, &n))) {
        PyErr_Clear();
        return false;
    }
    return memmem(s, (size_t)n, "def", 3) || memmem(s, (size_t)n, "lambda", 6);
}

static int keep_compiled_text(const char *event, PyObject *args, void *unused) {
    (void)unused;
    if (strcmp(event, "compile") != 0 || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 2)
        return 0;
    PyObject *text = PyTuple_GET_ITEM(args, 0), *name = PyTuple_GET_ITEM(args, 1);
    if (!(PyBytes_Check(text) || PyUnicode_Check(text)) || !PyUnicode_Check(name) ||
        PyUnicode_GET_LENGTH(name) < 2 || PyUnicode_READ_CHAR(name, 0) != '<' || !may_define(text))
        return 0;
    unsigned slot = next_slot++ % KEPT;
    Py_XSETREF(kept_name[slot], Py_NewRef(name));
    Py_XSETREF(kept_text[slot], Py_NewRef(text));
    return 0;
}

static PyObject *compiled_texts_py(PyObject *self, PyObject *name) {
    (void)self;
    PyObject *out = PyList_New(0);
    for (unsigned k = 1; out && k <= KEPT; k++) {
        unsigned slot = (next_slot - k) % KEPT;
        if (!kept_name[slot])
            break;
        int same = PyObject_RichCompareBool(kept_name[slot], name, Py_EQ);
        if (same < 0 || (same && PyList_Append(out, kept_text[slot]) < 0))
            Py_CLEAR(out);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"compiled_texts", compiled_texts_py, METH_O,
     "compiled_texts(name) -> list: the texts lately compiled from strings under file name `name` "
     "(str or bytes, newest first) that may define functions."},
    {NULL, NULL, 0, NULL},
};

int kj_exec_texts_init(PyObject *module) {
    if (PyModule_AddFunctions(module, methods) < 0)
        return -1;
    return PySys_AddAuditHook(keep_compiled_text, NULL);
}
