/* The profiler's Python face, functions of the _kiln module:
 *   profiler_compile_count()       -> index of the next compile record
 *   profiler_compiles(start=0)     -> [ {function, signature, target, phases, from_cache}, ... ]
 *   profiler_record_compile(function, signature, target, phases)
 *   profiler_record_cache_load(function, signature, target, seconds)
 *   profiler_record_calls(on)      -> users left of the dispatcher's call records
 *   profiler_untime_calls(on)      -> users left of counting calls without timing
 *   profiler_calls()               -> [ {function, signature, calls, seconds, estimated, untimed}, ... ]
 * (and profiler_costs(n), for bench/, from bench.c). kiln.ipython reads the
 * compile records from a cell's first index on, and the calls of the
 * recording it starts for the cell. */
#define PY_SSIZE_T_CLEAN
#include "profiler/profiler.h"

#include <math.h>

static PyObject *compile_count(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromSize_t(kp_compile_count());
}

/* Sets phases[name] = ns as seconds. Returns 0, or -1 with an exception. */
static int set_seconds(PyObject *phases, const char *name, uint64_t ns) {
    PyObject *seconds = PyFloat_FromDouble((double)ns * 1e-9);
    int failed = !seconds || PyDict_SetItemString(phases, name, seconds) < 0;
    Py_XDECREF(seconds);
    return failed ? -1 : 0;
}

/* A new dict {function, signature, target, phases: {name: seconds},
 * from_cache}, or NULL. A load from the disk cache has one phase,
 * cache_load, as its Specialization's stats have. */
static PyObject *compile_as_dict(const kp_compile_record *r) {
    PyObject *phases = PyDict_New();  /* owned here until handed to the dict */
    if (!phases)
        return NULL;
    int failed = r->from_cache ? set_seconds(phases, "cache_load", r->load_ns) : 0;
    for (int p = 0; !r->from_cache && !failed && p < KP_PHASE_COUNT; p++)
        failed = set_seconds(phases, kp_phase_name(p), r->phase_ns[p]);
    if (failed) {
        Py_DECREF(phases);
        return NULL;
    }
    /* "N" steals phases, also when building fails. */
    return Py_BuildValue("{s:s,s:s,s:s,s:N,s:O}", "function", r->function, "signature", r->signature,
                         "target", r->target, "phases", phases, "from_cache",
                         r->from_cache ? Py_True : Py_False);
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
    if (!(seconds >= 0.0 && isfinite(seconds))) {  /* (NaN fails the first test) */
        PyErr_Format(PyExc_ValueError, "profiler_record_compile: phase %s must be >= 0 seconds, and finite",
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

static PyObject *record_cache_load(PyObject *self, PyObject *args) {
    (void)self;
    kp_compile_record r = {.from_cache = true};
    double seconds;
    if (!PyArg_ParseTuple(args, "sssd:profiler_record_cache_load", &r.function, &r.signature, &r.target,
                          &seconds))
        return NULL;
    if (!(seconds >= 0.0 && isfinite(seconds))) {
        PyErr_SetString(PyExc_ValueError, "profiler_record_cache_load: seconds must be >= 0, and finite");
        return NULL;
    }
    r.load_ns = (uint64_t)(seconds * 1e9 + 0.5);
    kp_record_compile(&r);
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

/* Appends {function, signature, calls, seconds, estimated, untimed} of one
 * record to the list ctx. Returns 0, or -1 with an exception. */
static int append_calls(const kp_calls *r, void *ctx) {
    bool estimated;
    double ns = kp_calls_ns(r, &estimated);
    PyObject *d = Py_BuildValue("{s:O,s:O,s:K,s:d,s:O,s:K}", "function", r->function ? r->function : Py_None,
                                "signature", r->signature ? r->signature : Py_None, "calls",
                                (unsigned long long)r->n.calls, "seconds", ns * 1e-9, "estimated",
                                estimated ? Py_True : Py_False, "untimed", (unsigned long long)r->n.untimed);
    int failed = !d || PyList_Append((PyObject *)ctx, d) < 0;
    Py_XDECREF(d);
    return failed ? -1 : 0;
}

static PyObject *calls(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);  /* owned here until returned */
    if (list && kp_calls_each(append_calls, list) < 0)
        Py_CLEAR(list);
    return list;
}

static PyMethodDef profiler_methods[] = {
    {"profiler_compile_count", compile_count, METH_NOARGS,
     "profiler_compile_count() -> int: compile records so far (the index of the next one)."},
    {"profiler_compiles", compiles, METH_VARARGS,
     "profiler_compiles(start=0) -> list of compile records (and cache loads) from index start on."},
    {"profiler_record_compile", record_compile, METH_VARARGS,
     "profiler_record_compile(function, signature, target, phases): record a compile done "
     "outside C; phases maps phase names to seconds."},
    {"profiler_record_cache_load", record_cache_load, METH_VARARGS,
     "profiler_record_cache_load(function, signature, target, seconds): record machine code "
     "loaded from the disk cache in place of a compile."},
    {"profiler_record_calls", record_calls, METH_O,
     "profiler_record_calls(on) -> int: True adds one user of the dispatcher's call records "
     "(calls are timed and counted while there is one; the first user starts a new recording), "
     "False removes one; returns how many are left."},
    {"profiler_untime_calls", untime_calls, METH_O,
     "profiler_untime_calls(on) -> int: while recording, True makes the dispatcher count calls "
     "without timing them (as untimed_calls) until as many False have come; returns how many "
     "users are left."},
    {"profiler_calls", calls, METH_NOARGS,
     "profiler_calls() -> list of {function, signature, calls, seconds, estimated, untimed}: "
     "each compiled function called in the current (or last) recording. calls is exact; seconds "
     "is estimated from samples (estimated=True) when the function's calls were under 1 us."},
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
    if (kp_bench_init(module) < 0)
        return -1;
    return kp_hostinfo_init(module);
}
