/* Streams and events (kiln.cuda.stream(), kiln.cuda.event()). In simulator
 * mode work runs synchronously, so a stream is a name only and an event
 * records the host clock when it is recorded. */
#include "gpu/objects.h"

#include "profiler/profiler.h"

#define CU_EVENT_DISABLE_TIMING 0x2

/* A context reset destroyed every stream and event made before it. */
static int check_generation(uint64_t generation, const char *what, kg_error *err) {
    if (generation != kg_context_generation())
        return kg_error_set(err, KG_ERR_STALE, 0,
                            "this %s is no longer valid: Kiln reset the GPU context after a kernel "
                            "fault; make a new one", what);
    return 0;
}

int kg_stream_handle(PyObject *obj, CUstream *handle, kg_error *err) {
    if (obj == NULL || obj == Py_None) {
        *handle = NULL;
        return 0;
    }
    if (!PyObject_TypeCheck(obj, &kg_stream_type))
        return kg_error_set(err, KG_ERR_INVALID, 0, "stream must be a kiln.cuda stream or None, not %s",
                            Py_TYPE(obj)->tp_name);
    kg_stream *s = (kg_stream *)obj;
    if (s->owned && check_generation(s->generation, "stream", err) < 0)
        return -1;
    *handle = s->handle;
    return 0;
}

static PyObject *stream_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"default", NULL};
    int is_default = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p", keywords, &is_default))
        return NULL;
    kg_stream *self = (kg_stream *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->generation = kg_context_generation();
    if (is_default || kg_driver_mode() != KG_MODE_GPU)
        return (PyObject *)self;
    kg_error err;
    CUresult r;
    if (kg_context_ensure(&err) < 0 || ((r = kg_cu.StreamCreate(&self->handle, 0)) != CUDA_SUCCESS &&
                                        kg_driver_fail(r, "cuStreamCreate", &err) < 0)) {
        Py_DECREF(self);
        return kg_raise(&err);
    }
    self->owned = 1;
    self->generation = kg_context_generation();
    return (PyObject *)self;
}

static void stream_dealloc(kg_stream *self) {
    if (self->owned && self->generation == kg_context_generation())
        kg_cu.StreamDestroy(self->handle);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *stream_synchronize(kg_stream *self, PyObject *unused) {
    (void)unused;
    if (kg_driver_mode() != KG_MODE_GPU)
        Py_RETURN_NONE;
    kg_error err;
    CUstream handle;
    if (kg_stream_handle((PyObject *)self, &handle, &err) < 0 || kg_context_ensure(&err) < 0)
        return kg_raise(&err);
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.StreamSynchronize(handle);
    Py_END_ALLOW_THREADS
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "cuStreamSynchronize", &err);
        return kg_raise(&err);
    }
    Py_RETURN_NONE;
}

static PyObject *stream_get_handle(kg_stream *self, void *unused) {
    (void)unused;
    return PyLong_FromVoidPtr(self->handle);
}

static PyObject *stream_repr(kg_stream *self) {
    if (!self->handle)
        return PyUnicode_FromString("<kiln.cuda stream (default)>");
    return PyUnicode_FromFormat("<kiln.cuda stream %p>", (void *)self->handle);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", (PyCFunction)stream_synchronize, METH_NOARGS, "Waits for the stream's work."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"handle", (getter)stream_get_handle, NULL, "The CUstream (0 for the default stream).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject kg_stream_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.Stream",
    .tp_basicsize = sizeof(kg_stream),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stream(default=False): a CUDA stream; work on it runs in order.",
    .tp_new = stream_new,
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_repr = (reprfunc)stream_repr,
    .tp_methods = stream_methods,
    .tp_getset = stream_getset,
};

/* ---- events ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    CUevent handle;       /* GPU mode */
    uint64_t generation;
    uint64_t host_ns;     /* simulator: host clock when recorded */
    int recorded;
    int timing;
} kg_event;

static PyTypeObject event_type;

static PyObject *event_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"timing", NULL};
    int timing = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p", keywords, &timing))
        return NULL;
    kg_event *self = (kg_event *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->timing = timing;
    self->generation = kg_context_generation();
    if (kg_driver_mode() != KG_MODE_GPU)
        return (PyObject *)self;
    kg_error err;
    CUresult r;
    if (kg_context_ensure(&err) < 0 ||
        ((r = kg_cu.EventCreate(&self->handle, timing ? 0 : CU_EVENT_DISABLE_TIMING)) != CUDA_SUCCESS &&
         kg_driver_fail(r, "cuEventCreate", &err) < 0)) {
        self->handle = NULL;
        Py_DECREF(self);
        return kg_raise(&err);
    }
    self->generation = kg_context_generation();
    return (PyObject *)self;
}

static void event_dealloc(kg_event *self) {
    if (self->handle && self->generation == kg_context_generation())
        kg_cu.EventDestroy(self->handle);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The driver calls below need a live context and an event of this one. */
static int event_ready(kg_event *self, kg_error *err) {
    if (check_generation(self->generation, "event", err) < 0)
        return -1;
    return kg_context_ensure(err);
}

static PyObject *event_record(kg_event *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"stream", NULL};
    PyObject *stream_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", keywords, &stream_obj))
        return NULL;
    kg_error err;
    CUstream stream;
    if (kg_stream_handle(stream_obj, &stream, &err) < 0)
        return kg_raise(&err);
    if (!self->handle) {
        self->host_ns = kp_now_ns();
    } else {
        CUresult r;
        if (event_ready(self, &err) < 0)
            return kg_raise(&err);
        if ((r = kg_cu.EventRecord(self->handle, stream)) != CUDA_SUCCESS) {
            kg_driver_fail(r, "cuEventRecord", &err);
            return kg_raise(&err);
        }
    }
    self->recorded = 1;
    Py_RETURN_NONE;
}

static PyObject *event_synchronize(kg_event *self, PyObject *unused) {
    (void)unused;
    if (!self->handle)
        Py_RETURN_NONE;
    kg_error err;
    if (event_ready(self, &err) < 0)
        return kg_raise(&err);
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.EventSynchronize(self->handle);
    Py_END_ALLOW_THREADS
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "cuEventSynchronize", &err);
        return kg_raise(&err);
    }
    Py_RETURN_NONE;
}

static PyObject *event_query(kg_event *self, PyObject *unused) {
    (void)unused;
    if (!self->handle)
        Py_RETURN_TRUE;
    kg_error err;
    if (event_ready(self, &err) < 0)
        return kg_raise(&err);
    CUresult r = kg_cu.EventQuery(self->handle);
    if (r == CUDA_SUCCESS)
        Py_RETURN_TRUE;
    if (r == CUDA_ERROR_NOT_READY)
        Py_RETURN_FALSE;
    kg_driver_fail(r, "cuEventQuery", &err);
    return kg_raise(&err);
}

/* start.elapsed_time(end): milliseconds from start to end, waiting for end. */
static PyObject *event_elapsed_time(kg_event *self, PyObject *other) {
    if (!PyObject_TypeCheck(other, &event_type))
        return PyErr_Format(PyExc_TypeError, "elapsed_time() needs another event, not %s",
                            Py_TYPE(other)->tp_name);
    kg_event *end = (kg_event *)other;
    if (!self->recorded || !end->recorded)
        return PyErr_Format(PyExc_ValueError, "elapsed_time(): the %s event was never recorded "
                            "(call .record() first)", self->recorded ? "end" : "start");
    if (!self->timing || !end->timing)
        return PyErr_Format(PyExc_ValueError, "elapsed_time(): events made with timing=False "
                            "cannot be timed");
    if (!self->handle)
        return PyFloat_FromDouble(((double)end->host_ns - (double)self->host_ns) * 1e-6);
    kg_error err;
    if (event_ready(self, &err) < 0 || event_ready(end, &err) < 0)
        return kg_raise(&err);
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.EventSynchronize(end->handle);
    Py_END_ALLOW_THREADS
    float ms = 0;
    if (r == CUDA_SUCCESS)
        r = kg_cu.EventElapsedTime(&ms, self->handle, end->handle);
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "cuEventElapsedTime", &err);
        return kg_raise(&err);
    }
    return PyFloat_FromDouble(ms);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_VARARGS | METH_KEYWORDS,
     "record(stream=None): marks this point of the stream's work."},
    {"synchronize", (PyCFunction)event_synchronize, METH_NOARGS, "Waits until the event has happened."},
    {"wait", (PyCFunction)event_synchronize, METH_NOARGS, "Same as synchronize()."},
    {"query", (PyCFunction)event_query, METH_NOARGS, "True once the event has happened."},
    {"elapsed_time", (PyCFunction)event_elapsed_time, METH_O,
     "start.elapsed_time(end) -> milliseconds between two recorded events."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject event_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.Event",
    .tp_basicsize = sizeof(kg_event),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Event(timing=True): a CUDA event for timing and ordering stream work.",
    .tp_new = event_new,
    .tp_dealloc = (destructor)event_dealloc,
    .tp_methods = event_methods,
};

int kg_stream_init(PyObject *module) {
    if (PyType_Ready(&kg_stream_type) < 0 || PyType_Ready(&event_type) < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "Stream", (PyObject *)&kg_stream_type) < 0 ||
        PyModule_AddObjectRef(module, "Event", (PyObject *)&event_type) < 0)
        return -1;
    return 0;
}
