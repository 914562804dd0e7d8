/* errors: short, actionable compile errors (the opposite of a page of
 * overload resolution traces). */
#include "jit/core/errors.h"
#include "jit/core/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

PyObject *kj_TypingError, *kj_UnsupportedError;

int kj_fail(kj_error *e, kj_err_kind kind, int line, int col, const char *hint,
            const char *fmt, ...) {
    if (e->kind != KJ_ERR_NONE)
        return -1;
    e->kind = kind;
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
    snprintf(e->hint, sizeof e->hint, "%s", hint ? hint : "");
    return -1;
}

/* The text of file line `line` without its newline, or NULL. Borrowed from
 * f->source_lines. */
static const char *source_line(const kj_function *f, int line, Py_ssize_t *len) {
    if (!f || !f->source_lines || line < 1 || line > PyList_GET_SIZE(f->source_lines))
        return NULL;
    const char *s = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(f->source_lines, line - 1), len);
    if (!s) {
        PyErr_Clear();
        return NULL;
    }
    while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
        (*len)--;
    return s;
}

void kj_error_set_python(const kj_error *e, const kj_function *f) {
    if (e->kind == KJ_ERR_PYTHON) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "kiln: compile failed without a reason");
        return;
    }
    PyObject *cls = e->kind == KJ_ERR_TYPING        ? kj_TypingError
                    : e->kind == KJ_ERR_UNSUPPORTED ? kj_UnsupportedError
                                                    : PyExc_RuntimeError;
    char where[400] = "";
    if (f)
        snprintf(where, sizeof where, "in function '%s' (%s, line %d, col %d):\n", f->qualname,
                 f->filename, e->line, e->col + 1);
    char code[600] = "";
    Py_ssize_t len = 0;
    const char *s = source_line(f, e->line, &len);
    if (s) {
        int col = e->col;
        if (col > (int)len)
            col = (int)len;
        snprintf(code, sizeof code, "    %.*s\n    %*s^\n", (int)len, s, col, "");
    }
    PyErr_Format(cls, "%s%s%s%s%s", where, code, e->what, e->hint[0] ? "\nHint: " : "",
                 e->hint);
}

int kj_errors_init(PyObject *module) {
    kj_TypingError = PyErr_NewExceptionWithDoc(
        "kiln.TypingError",
        "A construct Kiln cannot compile: the message names the line and suggests a fix.",
        PyExc_Exception, NULL);
    if (!kj_TypingError)
        return -1;
    kj_UnsupportedError = PyErr_NewExceptionWithDoc(
        "kiln.UnsupportedError", "Python that Kiln does not compile (yet).", kj_TypingError,
        NULL);
    if (!kj_UnsupportedError)
        return -1;
    Py_INCREF(kj_TypingError);
    Py_INCREF(kj_UnsupportedError);
    if (PyModule_AddObject(module, "TypingError", kj_TypingError) < 0 ||
        PyModule_AddObject(module, "UnsupportedError", kj_UnsupportedError) < 0)
        return -1;
    return 0;
}
