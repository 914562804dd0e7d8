/* The profiler's Python face, functions of the _kiln module:
 *   profiler_counters()            -> (calls, call_ns, compiles, untimed_calls) so far
 *   profiler_compiles(start=0)     -> [ {function, signature, target, phases}, ... ]
 *   profiler_record_compile(function, signature, target, phases)
 *   profiler_record_call(elapsed_ns)
 *   profiler_record_calls(on)      -> users left of the dispatcher's call records
 *   profiler_untime_calls(on)      -> users left of counting calls without timing
 *   profiler_time_record_call(n)   -> ns to time and record one call (bench/)
 * kiln.ipython subtracts two snapshots to report one cell. */
#define PY_SSIZE_T_CLEAN
#include "profiler/profiler.h"

static PyObject *counters(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    kp_counters c = kp_snapshot();
    return Py_BuildValue("(KKnK)", (unsigned long long)c.calls, (unsigned long long)c.call_ns,
                         (Py_ssize_t)c.compiles, (unsigned long long)c.untimed_calls);
}

/* A new dict {function, signature, target, phases: {name: seconds}}, or NULL. */
static PyObject *compile_as_dict(const kp_compile_record *r) {
    PyObject *phases = PyDict_New();  /* owned here until handed to `record` */
    if (!phases)
        return NULL;
    for (int p = 0; p < KP_PHASE_COUNT; p++) {
        PyObject *seconds = PyFloat_FromDouble((double)r->phase_ns[p] * 1e-9);
        int failed = !seconds || PyDict_SetItemString(phases, kp_phase_name(p), seconds) < 0;
        Py_XDECREF(seconds);
        if (failed) {
            Py_DECREF(phases);
            return NULL;
        }
    }
    /* "N" steals phases, also when building fails. */
    return Py_BuildValue("{s:s,s:s,s:s,s:N}", "function", r->function, "signature", r->signature,
                         "target", r->target, "phases", phases);
}

static PyObject *compiles(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t start = 0;
    if (!PyArg_ParseTuple(args, "|n:profiler_compiles", &start))
        return NULL;
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "profiler_compiles: start must be >= 0");
        return NULL;
    }
    PyObject *list = PyList_New(0);  /* owned here until returned */
    if (!list)
        return NULL;
    kp_compile_record r;
    for (size_t i = (size_t)start; kp_compile_at(i, &r) == 0; i++) {
        PyObject *d = compile_as_dict(&r);
        if (!d || PyList_Append(list, d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(d);
    }
    return list;
}

/* Reads phases[name] as seconds into *ns; a missing phase is 0. */
static int phase_from_dict(PyObject *phases, kp_phase p, uint64_t *ns) {
    PyObject *v = PyDict_GetItemString(phases, kp_phase_name(p)); /* borrowed */
    *ns = 0;
    if (!v)
        return 0;
    double seconds = PyFloat_AsDouble(v);
    if (seconds == -1.0 && PyErr_Occurred())
        return -1;
    if (!(seconds >= 0.0)) {
        PyErr_Format(PyExc_ValueError, "profiler_record_compile: phase %s must be >= 0 seconds",
                     kp_phase_name(p));
        return -1;
    }
    *ns = (uint64_t)(seconds * 1e9 + 0.5);
    return 0;
}

static PyObject *record_compile(PyObject *self, PyObject *args) {
    (void)self;
    kp_compile_record r = {0};
    PyObject *phases;
    if (!PyArg_ParseTuple(args, "sssO!:profiler_record_compile", &r.function, &r.signature,
                          &r.target, &PyDict_Type, &phases))
        return NULL;
    for (int p = 0; p < KP_PHASE_COUNT; p++)
        if (phase_from_dict(phases, p, &r.phase_ns[p]) < 0)
            return NULL;
    kp_record_compile(&r);
    Py_RETURN_NONE;
}

static PyObject *record_call(PyObject *self, PyObject *arg) {
    (void)self;
    unsigned long long ns = PyLong_AsUnsignedLongLong(arg);
    if (ns == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    kp_record_call(ns);
    Py_RETURN_NONE;
}

/* Adds (on) or removes a user of one of the dispatcher's switches. */
static PyObject *switch_calls(PyObject *arg, int (*flip)(int), const char *name) {
    int on = PyObject_IsTrue(arg);
    if (on < 0)
        return NULL;
    int left = flip(on);
    if (left < 0) {
        PyErr_Format(PyExc_ValueError, "%s(False): it was not switched on", name);
        return NULL;
    }
    return PyLong_FromLong(left);
}

static PyObject *record_calls(PyObject *self, PyObject *arg) {
    (void)self;
    return switch_calls(arg, kp_record_calls, "profiler_record_calls");
}

static PyObject *untime_calls(PyObject *self, PyObject *arg) {
    (void)self;
    return switch_calls(arg, kp_untime_calls, "profiler_untime_calls");
}

/* The cost of recording one call as the dispatcher does it (two kp_ticks()
 * and kp_record_call_ticks), measured in C where it happens, so that
 * bench/profiler_overhead.py can set it against a whole dispatch. The loop
 * adds n calls to the real totals; a benchmark process does not mind. */
static PyObject *time_record_call(PyObject *self, PyObject *arg) {
    (void)self;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "profiler_time_record_call: n must be > 0");
        return NULL;
    }
    uint64_t start = kp_now_ns();
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t t0 = kp_ticks();
        kp_record_call_ticks(kp_ticks() - t0);
    }
    uint64_t stop = kp_now_ns();
    return PyFloat_FromDouble((double)(stop - start) / (double)n);
}

static PyMethodDef profiler_methods[] = {
    {"profiler_counters", counters, METH_NOARGS,
     "profiler_counters() -> (calls, call_ns, compiles, untimed_calls): totals since the process "
     "started."},
    {"profiler_compiles", compiles, METH_VARARGS,
     "profiler_compiles(start=0) -> list of compile records from index start on."},
    {"profiler_record_compile", record_compile, METH_VARARGS,
     "profiler_record_compile(function, signature, target, phases): record a compile done "
     "outside C; phases maps phase names to seconds."},
    {"profiler_record_call", record_call, METH_O,
     "profiler_record_call(elapsed_ns): record one call of compiled code."},
    {"profiler_record_calls", record_calls, METH_O,
     "profiler_record_calls(on) -> int: True adds one user of the dispatcher's call records "
     "(calls are timed and counted while there is one), False removes one; returns how many "
     "are left."},
    {"profiler_untime_calls", untime_calls, METH_O,
     "profiler_untime_calls(on) -> int: while recording, True makes the dispatcher count calls "
     "without timing them (as untimed_calls) until as many False have come; returns how many "
     "users are left."},
    {"profiler_time_record_call", time_record_call, METH_O,
     "profiler_time_record_call(n) -> nanoseconds to time and record one call (two kp_ticks() "
     "and kp_record_call_ticks), averaged over n."},
    {NULL, NULL, 0, NULL},
};

int kp_module_init(PyObject *module) {
    kp_clock_init();
    if (PyModule_AddFunctions(module, profiler_methods) < 0)
        return -1;
    PyObject *names = PyTuple_New(KP_PHASE_COUNT);  /* stolen by the module on success */
    if (!names)
        return -1;
    for (int p = 0; p < KP_PHASE_COUNT; p++) {
        PyObject *name = PyUnicode_FromString(kp_phase_name(p));
        if (!name) {
            Py_DECREF(names);
            return -1;
        }
        PyTuple_SET_ITEM(names, p, name);
    }
    if (PyModule_AddObject(module, "profiler_phases", names) < 0) {
        Py_DECREF(names);
        return -1;
    }
    return kp_hostinfo_init(module);
}
