/* sys.stdout and sys.stderr of the kernel: a small text stream that writes straight to fd 1 / 2
 * (the capture pipes) at the end of every line, as a line-buffered TextIOWrapper does, but
 * without its per-line flush machinery: print(i) costs one write(2) and two C calls. Lines stay
 * in order with what C code writes to the same fd. Attributes it does not define (encoding,
 * buffer, name, isatty, ...) come from the TextIOWrapper it replaces. All state is guarded by
 * the GIL, which write and flush never release. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel/kernel.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SPILL_BYTES 8192 /* text without a newline is written once it grows this long */

typedef struct {
    PyObject_HEAD
    int fd;
    PyObject *original; /* owned: the TextIOWrapper this stream stands in for */
    char *buf;
    size_t len, cap;
} fd_writer;

static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue; /* a SIGINT is handled at the next bytecode */
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int spill(fd_writer *self) {
    int rc = write_all(self->fd, self->buf, self->len);
    self->len = 0;
    if (rc < 0) PyErr_SetFromErrno(PyExc_OSError);
    return rc;
}

static PyObject *fw_write(fd_writer *self, PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "write() argument must be str, not %.100s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &n);
    PyObject *encoded = NULL; /* owned, only for text with lone surrogates */
    if (!utf8) {
        PyErr_Clear();
        encoded = PyUnicode_AsEncodedString(text, "utf-8", "backslashreplace");
        if (!encoded) return NULL;
        utf8 = PyBytes_AS_STRING(encoded);
        n = PyBytes_GET_SIZE(encoded);
    }
    if (self->len + (size_t)n > self->cap) {
        size_t cap = self->cap ? self->cap : 1024;
        while (cap < self->len + (size_t)n) cap *= 2;
        char *b = PyMem_Realloc(self->buf, cap);
        if (!b) {
            Py_XDECREF(encoded);
            return PyErr_NoMemory();
        }
        self->buf = b;
        self->cap = cap;
    }
    memcpy(self->buf + self->len, utf8, (size_t)n);
    self->len += (size_t)n;
    bool line = memchr(utf8, '\n', (size_t)n) != NULL;
    Py_XDECREF(encoded);
    if ((line || self->len >= SPILL_BYTES) && spill(self) < 0) return NULL;
    return PyLong_FromSsize_t(PyUnicode_GET_LENGTH(text));
}

static PyObject *fw_flush(fd_writer *self, PyObject *unused) {
    (void)unused;
    if (self->len && spill(self) < 0) return NULL;
    /* bytes written to sys.stdout.buffer sit in the original's buffer */
    return PyObject_CallMethod(self->original, "flush", NULL);
}

static PyObject *fw_writelines(fd_writer *self, PyObject *lines) {
    PyObject *it = PyObject_GetIter(lines); /* owned */
    if (!it) return NULL;
    PyObject *line;
    while ((line = PyIter_Next(it))) {
        PyObject *r = fw_write(self, line);
        Py_DECREF(line);
        if (!r) break;
        Py_DECREF(r);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *fw_reconfigure(fd_writer *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    (void)args;
    (void)kwargs; /* always line-buffered UTF-8: nothing to change */
    Py_RETURN_NONE;
}

/* What this type does not define is the original stream's. */
static PyObject *fw_getattro(fd_writer *self, PyObject *name) {
    PyObject *v = PyObject_GenericGetAttr((PyObject *)self, name);
    if (v || !PyErr_ExceptionMatches(PyExc_AttributeError)) return v;
    PyErr_Clear();
    return PyObject_GetAttr(self->original, name);
}

static void fw_dealloc(fd_writer *self) {
    if (self->len) write_all(self->fd, self->buf, self->len);
    PyMem_Free(self->buf);
    Py_XDECREF(self->original);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *fw_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    int fd;
    PyObject *original;
    static char *names[] = {"fd", "original", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO:FdWriter", names, &fd, &original)) return NULL;
    fd_writer *self = (fd_writer *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->fd = fd;
    Py_INCREF(original);
    self->original = original;
    return (PyObject *)self;
}

static PyMethodDef fw_methods[] = {
    {"write", (PyCFunction)fw_write, METH_O, "Write text; complete lines go to the fd at once."},
    {"flush", (PyCFunction)fw_flush, METH_NOARGS, "Write what is pending."},
    {"writelines", (PyCFunction)fw_writelines, METH_O, "Write each string of an iterable."},
    {"reconfigure", (PyCFunction)(void (*)(void))fw_reconfigure, METH_VARARGS | METH_KEYWORDS,
     "Accepted and ignored: the stream is always line-buffered UTF-8."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject fd_writer_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln_kernel.FdWriter",
    .tp_doc = "FdWriter(fd, original): line-buffered text stream on a file descriptor.",
    .tp_basicsize = sizeof(fd_writer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = fw_new,
    .tp_dealloc = (destructor)fw_dealloc,
    .tp_getattro = (getattrofunc)fw_getattro,
    .tp_methods = fw_methods,
};

int kn_pystream_add_type(PyObject *module) {
    if (PyType_Ready(&fd_writer_type) < 0) return -1;
    Py_INCREF(&fd_writer_type);
    if (PyModule_AddObject(module, "FdWriter", (PyObject *)&fd_writer_type) < 0) {
        Py_DECREF(&fd_writer_type);
        return -1;
    }
    return 0;
}
