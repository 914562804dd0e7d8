/* _kiln.cuda_sim_launch: runs a kiln.cuda.jit kernel compiled for the
 * simulator (gpu/cuda_compile.c) over a grid, with its arguments laid out as
 * lowering's entry reads them: args[i] points at argument i, an array being
 * the struct {owner, data, shape[ndim], strides[ndim]}. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "gpu/objects.h"
#include "gpu/sim.h"
#include "jit/compile.h"
#include "jit/types.h"
#include "profiler/profiler.h"

/* Bytes one argument takes: an array struct of up to 8 dimensions, or a
 * number of up to 16 bytes. */
#define ARG_BYTES (16 + 16 * 8)

static int parse_dim3(PyObject *t, unsigned out[3], const char *what) {
    out[0] = out[1] = out[2] = 1;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 1 || PyTuple_GET_SIZE(t) > 3) {
        PyErr_Format(PyExc_ValueError, "%s must be a tuple of 1 to 3 ints", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 1 || v > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%s dimension %zd is %ld; it must be at least 1", what, i, v);
            return -1;
        }
        out[i] = (unsigned)v;
    }
    return 0;
}

/* value of type t into buf. Arrays come as (address, shape, strides). */
static int put_arg(char *buf, const kj_type *t, PyObject *value) {
    if (t->kind == KJ_T_ARRAY) {
        PyObject *shape, *strides;
        unsigned long long address;
        if (!PyArg_ParseTuple(value, "KO!O!", &address, &PyTuple_Type, &shape, &PyTuple_Type, &strides))
            return -1;
        if (PyTuple_GET_SIZE(shape) != t->ndim || PyTuple_GET_SIZE(strides) != t->ndim || t->ndim > 8) {
            PyErr_SetString(PyExc_ValueError, "array argument does not match its type");
            return -1;
        }
        int64_t *words = (int64_t *)(buf + 16);
        memset(buf, 0, 16);
        memcpy(buf + 8, &(void *){(void *)(uintptr_t)address}, sizeof(void *));
        for (int d = 0; d < t->ndim; d++) {
            words[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, d));
            words[t->ndim + d] = PyLong_AsLongLong(PyTuple_GET_ITEM(strides, d));
        }
        return PyErr_Occurred() ? -1 : 0;
    }
    if (t->kind == KJ_T_FLOAT) {
        double d = PyFloat_AsDouble(value);
        if (t->bits == 32)
            *(float *)buf = (float)d;
        else
            *(double *)buf = d;
        return d == -1.0 && PyErr_Occurred() ? -1 : 0;
    }
    if (kj_is_intlike(t)) {
        long long v = PyLong_AsLongLong(value);
        if (v == -1 && PyErr_Occurred())
            return -1;
        switch (t->kind == KJ_T_BOOL ? 8 : t->bits) {
        case 8: *(int8_t *)buf = (int8_t)(t->kind == KJ_T_BOOL ? v != 0 : v); break;
        case 16: *(int16_t *)buf = (int16_t)v; break;
        case 32: *(int32_t *)buf = (int32_t)v; break;
        default: *(int64_t *)buf = (int64_t)v; break;
        }
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "the simulator cannot pass a %s to a kernel", t->name);
    return -1;
}

/* cuda_sim_launch(entry, name, argspecs, args, grid, block, shared_bytes, uses_barrier) */
static PyObject *py_sim_launch(PyObject *self, PyObject *pyargs) {
    (void)self;
    unsigned long long entry;
    const char *name;
    PyObject *specs, *args, *grid_t, *block_t;
    Py_ssize_t shared;
    int barrier;
    if (!PyArg_ParseTuple(pyargs, "KsO!O!OOnp", &entry, &name, &PyTuple_Type, &specs, &PyTuple_Type, &args,
                          &grid_t, &block_t, &shared, &barrier))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n != PyTuple_GET_SIZE(specs) || n > KJ_SPEC_MAX_ARGS)
        return PyErr_Format(PyExc_TypeError, "kernel %s: %zd arguments for %zd types", name, n,
                            PyTuple_GET_SIZE(specs));
    kg_sim_config config = {.dynamic_shared = (size_t)(shared > 0 ? shared : 0), .uses_barrier = barrier};
    if (parse_dim3(grid_t, config.grid, "griddim") < 0 || parse_dim3(block_t, config.block, "blockdim") < 0)
        return NULL;
    _Alignas(16) char storage[KJ_SPEC_MAX_ARGS][ARG_BYTES];
    void *argv[KJ_SPEC_MAX_ARGS + 1];
    for (Py_ssize_t i = 0; i < n; i++) {
        const kj_type *t = kj_type_from_spec(PyTuple_GET_ITEM(specs, i));
        if (!t || put_arg(storage[i], t, PyTuple_GET_ITEM(args, i)) < 0)
            return NULL;
        argv[i] = storage[i];
    }
    _Alignas(16) char ret[64];
    kg_error err = {0};
    int status;
    kj_interrupt_flag = 0;   /* a Ctrl-C from before this launch is not for it */
    uint64_t start = kp_now_ns();
    Py_BEGIN_ALLOW_THREADS
    status = kg_sim_launch((kg_sim_entry)(uintptr_t)entry, ret, argv, &config, &err);
    Py_END_ALLOW_THREADS
    /* Recorded like a GPU launch, so a cell's footer shows simulated work
     * too (a launch that raised included: it ran). */
    kg_launch_info info = {.kernel = name, .shared_bytes = (unsigned)config.dynamic_shared, .simulated = 1};
    memcpy(info.grid, config.grid, sizeof info.grid);
    memcpy(info.block, config.block, sizeof info.block);
    if (status >= 0)
        kg_record_sim_launch(&info, kp_now_ns() - start);
    if (status < 0)
        return kg_raise(&err);
    if (status > 0) {
        kj_rt_error e = kj_rt_take_error();
        PyObject *cls = e.cls ? e.cls : PyExc_RuntimeError;
        if (cls == PyExc_KeyboardInterrupt)
            PyErr_SetNone(cls);
        else
            PyErr_Format(cls, "%s (kernel '%s' %s)", e.msg ? e.msg : "", name, err.message);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"cuda_sim_launch", py_sim_launch, METH_VARARGS,
     "cuda_sim_launch(entry, name, argspecs, args, grid, block, shared_bytes, uses_barrier): runs a "
     "simulator kernel from _kiln.cuda_compile; arrays are (address, shape, strides)."},
    {NULL, NULL, 0, NULL},
};

int kg_sim_py_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
