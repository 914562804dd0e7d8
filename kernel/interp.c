/* The kernel's side of CPython: the `_kiln_kernel` extension module, through which
 * kernel/py/kiln_kernel_main.py starts the kernel (serve) and the shell glue
 * (kernel/py/kiln_kernel_shell.py) publishes outputs and asks for input, and the calls from the
 * main loop into that glue. Everything here runs on the main thread with the GIL held, except
 * `publish`, which any Python thread may call (it holds the GIL then, which guards `it`). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel/kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#define STDIN_POLL_MS 50

static struct {
    kn_kernel *k;
    PyObject *glue;         /* owned: the kiln_kernel_shell module */
    PyObject *handle;       /* owned: kiln_kernel_shell.handle */
    const kn_msg *request;  /* the shell request being handled, or NULL between requests */
    char *parent;           /* owned copy of the latest request's header, parent of outputs */
    PyThreadState *saved;   /* main thread's state while the GIL is released */
} it;

/* ---- the _kiln_kernel module ---- */

static void flush_python_stream(const char *name) {
    PyObject *f = PySys_GetObject(name); /* borrowed */
    if (!f || f == Py_None) return;
    PyObject *r = PyObject_CallMethod(f, "flush", NULL);
    if (r) Py_DECREF(r);
    else PyErr_Clear(); /* a closed or replaced stream must not break the request */
}

void kn_interp_flush_output(void) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb); /* keep an exception being raised intact */
    flush_python_stream("stdout");
    flush_python_stream("stderr");
    PyErr_Restore(type, value, tb);
    fflush(stdout);
    fflush(stderr);
    kn_capture_flush();
}

/* publish(msg_type, content_json, metadata_json=None, buffers=None) */
static PyObject *py_publish(PyObject *self, PyObject *args) {
    (void)self;
    const char *msg_type, *content, *metadata = NULL;
    PyObject *buffers = Py_None;
    if (!PyArg_ParseTuple(args, "ss|zO:publish", &msg_type, &content, &metadata, &buffers))
        return NULL;
    PyObject *seq = NULL; /* owned */
    Py_buffer *views = NULL;
    kn_frame *frames = NULL;
    Py_ssize_t n = 0, got = 0;
    if (buffers != Py_None) {
        seq = PySequence_Fast(buffers, "buffers must be a sequence of bytes-like objects");
        if (!seq) return NULL;
        n = PySequence_Fast_GET_SIZE(seq);
        views = calloc((size_t)n + 1, sizeof *views);
        frames = calloc((size_t)n + 1, sizeof *frames);
        if (!views || !frames) {
            PyErr_NoMemory();
            goto done;
        }
        for (; got < n; got++) {
            if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(seq, got), &views[got], PyBUF_SIMPLE) < 0)
                goto done;
            frames[got] = (kn_frame){views[got].buf, (size_t)views[got].len};
        }
    }
    kn_interp_flush_output(); /* what was printed before this output is shown before it */
    kn_publish(it.k, msg_type, it.parent, content, metadata, frames, (size_t)n);
done:
    for (Py_ssize_t i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    free(views);
    free(frames);
    Py_XDECREF(seq);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* input_request(prompt, password) -> str: asks the frontend on the stdin channel and waits for
 * its input_reply; a SIGINT while waiting raises KeyboardInterrupt. */
static PyObject *py_input_request(PyObject *self, PyObject *args) {
    (void)self;
    const char *prompt;
    int password;
    if (!PyArg_ParseTuple(args, "sp:input_request", &prompt, &password)) return NULL;
    if (!it.request) {
        PyErr_SetString(PyExc_RuntimeError, "input() needs a frontend request to answer it");
        return NULL;
    }
    if (!pthread_equal(pthread_self(), it.k->main_thread)) { /* the stdin socket is the main thread's */
        PyErr_SetString(PyExc_RuntimeError, "input() works only in the thread running the cell");
        return NULL;
    }
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "prompt", prompt);
    cJSON_AddBoolToObject(c, "password", password);
    char *content = cJSON_PrintUnformatted(c);
    cJSON_Delete(c);
    if (!content) return PyErr_NoMemory();
    kn_interp_flush_output();
    kn_session *s = &it.k->session;
    int rc = kn_msg_send(s, it.k->stdin_sock, it.request->ids, it.request->n_ids, "input_request",
                         it.request->header.data, NULL, content, NULL, 0);
    free(content);
    if (rc < 0) {
        PyErr_Format(PyExc_OSError, "cannot send input_request: %s", zmq_strerror(zmq_errno()));
        return NULL;
    }
    for (;;) {
        zmq_pollitem_t item = {it.k->stdin_sock, 0, ZMQ_POLLIN, 0};
        /* a bounded wait: a SIGINT that lands just before zmq_poll blocks interrupts no system
         * call, so the handler's flag is checked at least every STDIN_POLL_MS as well */
        Py_BEGIN_ALLOW_THREADS
        rc = zmq_poll(&item, 1, STDIN_POLL_MS);
        Py_END_ALLOW_THREADS
        if (rc < 0 && zmq_errno() != EINTR) {
            PyErr_Format(PyExc_OSError, "stdin channel closed: %s", zmq_strerror(zmq_errno()));
            return NULL;
        }
        if (PyErr_CheckSignals() < 0) return NULL; /* KeyboardInterrupt */
        if (rc <= 0) continue;
        kn_msg m;
        kn_recv_status st = kn_msg_recv(s, it.k->stdin_sock, true, &m);
        if (st == KN_RECV_CLOSED) {
            PyErr_SetString(PyExc_EOFError, "stdin channel closed");
            return NULL;
        }
        if (st != KN_RECV_OK) continue;
        if (strcmp(m.msg_type, "input_reply") != 0) {
            kn_log("stdin: ignored %s", m.msg_type);
            kn_msg_free(&m);
            continue;
        }
        cJSON *reply = cJSON_ParseWithLength(m.content.data, m.content.len);
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(reply, "value");
        PyObject *result = cJSON_IsString(value) ? PyUnicode_FromString(value->valuestring) : NULL;
        if (!result && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "input_reply without a string \"value\"");
        cJSON_Delete(reply);
        kn_msg_free(&m);
        return result;
    }
}

static PyObject *py_flush(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    kn_interp_flush_output();
    Py_RETURN_NONE;
}

static PyObject *py_log(PyObject *self, PyObject *args) {
    (void)self;
    const char *text;
    if (!PyArg_ParseTuple(args, "s:log", &text)) return NULL;
    kn_log("%s", text);
    Py_RETURN_NONE;
}

/* exit() in a cell: the main loop ends once the current request is answered. */
static PyObject *py_request_shutdown(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    kn_log("shutdown requested by the code in a cell (exit)");
    atomic_store(&it.k->shutdown_requested, true);
    Py_RETURN_NONE;
}

static PyObject *py_session(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyUnicode_FromString(it.k ? it.k->session.id : "");
}

/* Logs the pending Python exception with its traceback (fd 2 is captured into the notebook,
 * so PyErr_Print would put kernel failures in a cell) and clears it. */
static void log_python_error(const char *what) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    PyObject *mod = PyImport_ImportModule("traceback");
    PyObject *lines = mod && value ? PyObject_CallMethod(mod, "format_exception", "O", value) : NULL;
    PyObject *empty = PyUnicode_FromString("");
    PyObject *text = lines && empty ? PyUnicode_Join(empty, lines) : NULL;
    const char *utf8 = text ? PyUnicode_AsUTF8(text) : NULL;
    kn_log("%s:\n%s", what, utf8 ? utf8 : "(no traceback available)");
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(empty);
    Py_XDECREF(lines);
    Py_XDECREF(mod);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

bool kn_interp_init(kn_kernel *k, const char *connection_file) {
    it.k = k;
    it.glue = PyImport_ImportModule("kiln_kernel_shell");
    if (!it.glue) {
        log_python_error("cannot import the shell glue kiln_kernel_shell");
        return false;
    }
    PyObject *r = PyObject_CallMethod(it.glue, "start", "s", connection_file);
    if (!r) {
        log_python_error("cannot start the IPython shell");
        return false;
    }
    Py_DECREF(r);
    it.handle = PyObject_GetAttrString(it.glue, "handle");
    if (!it.handle) {
        log_python_error("the shell glue has no handle()");
        return false;
    }
    return true;
}

void kn_interp_discard_pending_interrupt(void) {
    if (PyErr_CheckSignals() < 0) PyErr_Clear();
}

void kn_interp_release_gil(void) { it.saved = PyEval_SaveThread(); }
void kn_interp_acquire_gil(void) { PyEval_RestoreThread(it.saved); }

static char *error_reply(const char *ename, const char *evalue) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "status", "error");
    cJSON_AddStringToObject(c, "ename", ename);
    cJSON_AddStringToObject(c, "evalue", evalue);
    cJSON_AddArrayToObject(c, "traceback");
    char *s = cJSON_PrintUnformatted(c);
    cJSON_Delete(c);
    return s;
}

/* Should the request kill the process, the notebook is told which cell: the number IPython
 * gives the cell it is about to run. */
static void arm_last_words(const kn_msg *req) {
    char during[160];
    snprintf(during, sizeof during, " while handling a %s", req->msg_type);
    if (strcmp(req->msg_type, "execute_request") == 0) {
        PyObject *shell = PyObject_GetAttrString(it.glue, "shell");
        PyObject *count = shell ? PyObject_GetAttrString(shell, "execution_count") : NULL;
        long n = count && PyLong_Check(count) ? PyLong_AsLong(count) : -1;
        Py_XDECREF(count);
        Py_XDECREF(shell);
        PyErr_Clear();
        if (n >= 0) snprintf(during, sizeof during, " while running cell %ld", n);
        else snprintf(during, sizeof during, " while running a cell");
    }
    kn_fatal_arm(req->header.data, during);
}

char *kn_interp_handle(const kn_msg *req, bool *stop_queue) {
    *stop_queue = false;
    free(it.parent);
    it.parent = strdup(req->header.data);
    it.request = req;
    kn_capture_set_parent(req->header.data);
    arm_last_words(req);

    char *reply = NULL;
    PyObject *buffers = PyList_New((Py_ssize_t)req->n_buffers); /* owned */
    for (size_t i = 0; buffers && i < req->n_buffers; i++) {
        PyObject *b = PyBytes_FromStringAndSize(req->buffers[i].data, (Py_ssize_t)req->buffers[i].len);
        if (!b) Py_CLEAR(buffers);
        else PyList_SET_ITEM(buffers, (Py_ssize_t)i, b);
    }
    /* the content goes as text; the glue decodes it and answers invalid JSON with an error */
    PyObject *content = PyUnicode_DecodeUTF8(req->content.data, (Py_ssize_t)req->content.len, "replace");
    PyObject *result = buffers && content
                           ? PyObject_CallFunction(it.handle, "sOOs", req->msg_type, content, buffers,
                                                   req->header.data)
                           : NULL;
    Py_XDECREF(content);
    Py_XDECREF(buffers);
    if (!result) {
        /* the glue answers its own errors; reaching here means it is broken */
        log_python_error("the shell glue failed");
        reply = error_reply("KernelError", "the Kiln kernel failed to handle this request; see its log");
    } else {
        PyObject *text = PyTuple_Check(result) && PyTuple_GET_SIZE(result) == 2
                             ? PyTuple_GET_ITEM(result, 0) : NULL; /* borrowed */
        if (text && PyUnicode_Check(text)) {
            const char *utf8 = PyUnicode_AsUTF8(text);
            reply = utf8 ? strdup(utf8) : NULL;
            PyErr_Clear();
        }
        *stop_queue = text && PyObject_IsTrue(PyTuple_GET_ITEM(result, 1)) == 1;
        Py_DECREF(result);
    }
    kn_interp_flush_output();
    kn_fatal_disarm();
    it.request = NULL;
    return reply;
}

bool kn_interp_finish(void) {
    /* jupyter_client interrupts before it asks for shutdown; that SIGINT must not cut the
     * history write or the atexit handlers short */
    kn_interp_discard_pending_interrupt();
    bool finalize = true;
    if (it.glue) {
        PyObject *r = PyObject_CallMethod(it.glue, "shutdown", NULL);
        if (r) finalize = PyObject_IsTrue(r) != 0;
        else log_python_error("shell shutdown failed");
        Py_XDECREF(r);
    }
    Py_CLEAR(it.handle);
    Py_CLEAR(it.glue);
    kn_interp_flush_output();
    free(it.parent);
    it.parent = NULL;
    return finalize;
}

/* ---- the module ---- */

/* serve(connection_file, with_kiln) -> (status, finalize): the kernel, until it is shut down
 * (kernel/serve.c). with_kiln tells the glue whether to load kiln.ipython: not in a build of the
 * kernel alone (tests/kernel/asan.sh), where only an installed extension, of another build,
 * could be found. finalize is false when the interpreter must not be finalized (the glue's
 * shutdown() says when). */
static PyObject *py_serve(PyObject *self, PyObject *args) {
    const char *connection_file;
    int with_kiln;
    if (!PyArg_ParseTuple(args, "sp:serve", &connection_file, &with_kiln)) return NULL;
    if (PyModule_AddIntConstant(self, "with_kiln", with_kiln) < 0) return NULL;
    bool finalize;
    int status = kn_serve(connection_file, &finalize);
    return Py_BuildValue("(iO)", status, finalize ? Py_True : Py_False);
}

static PyMethodDef kernel_methods[] = {
    {"serve", py_serve, METH_VARARGS,
     "serve(connection_file, with_kiln) -> (status, finalize): run the kernel until shut down."},
    {"publish", py_publish, METH_VARARGS,
     "publish(msg_type, content_json, metadata_json=None, buffers=None): send on iopub, parented "
     "to the current request, after the output printed so far."},
    {"input_request", py_input_request, METH_VARARGS,
     "input_request(prompt, password) -> str: ask the frontend through the stdin channel."},
    {"flush", py_flush, METH_NOARGS, "Send the output captured so far."},
    {"log", py_log, METH_VARARGS, "Write a line to the kernel's own log."},
    {"session", py_session, METH_NOARGS, "This kernel process's session id."},
    {"request_shutdown", py_request_shutdown, METH_NOARGS,
     "End the kernel after the current request is answered."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kiln_kernel",
    "The Kiln kernel's C side, as seen by its shell glue.", -1, kernel_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kiln_kernel(void) {
    PyObject *m = PyModule_Create(&kernel_module);
    if (m && kn_pystream_add_type(m) < 0) Py_CLEAR(m);
    return m;
}
