/* _kiln.cuda_sim_launch: runs a kiln.cuda.jit kernel compiled for the
 * simulator (gpu/cuda_compile.c) over a grid, its arguments flattened into
 * 8-byte words as the GPU kernel takes them as parameters. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>
#include <string.h>

#include "gpu/objects.h"
#include "gpu/sim.h"
#include "profiler/profiler.h"

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

/* One flattened argument part into an 8-byte word: a float as a double,
 * an int (addresses, shapes, strides, numbers) as a 64-bit integer. */
static int put_word(int64_t *word, PyObject *value) {
    if (PyFloat_Check(value)) {
        double d = PyFloat_AS_DOUBLE(value);
        memcpy(word, &d, sizeof d);
        return 0;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow > 0) /* a uint64 above INT64_MAX: the same bits */
        v = (long long)PyLong_AsUnsignedLongLong(value);
    else if (overflow < 0)
        return PyErr_Format(PyExc_OverflowError, "%R does not fit in 64 bits", value), -1;
    if (v == -1 && PyErr_Occurred())
        return -1;
    *word = (int64_t)v;
    return 0;
}

/* cuda_sim_launch(entry, name, words, grid, block, shared_bytes, fibers, host_bytes) */
/* The blocks of the latest launch, done and in all, for kiln.long_work's line under a cell
 * while it runs (the launch holds no GIL). Launches of several threads at once share them. */
static _Atomic uint64_t blocks_done, blocks_total;

static PyObject *py_sim_progress(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return Py_BuildValue("(KK)", (unsigned long long)atomic_load(&blocks_done),
                         (unsigned long long)atomic_load(&blocks_total));
}

static PyObject *py_sim_launch(PyObject *self, PyObject *pyargs) {
    (void)self;
    unsigned long long entry;
    const char *name;
    PyObject *words_t, *grid_t, *block_t;
    Py_ssize_t shared;
    int fibers;
    unsigned long long host_bytes;
    if (!PyArg_ParseTuple(pyargs, "KsO!OOnpK", &entry, &name, &PyTuple_Type, &words_t, &grid_t, &block_t, &shared,
                          &fibers, &host_bytes))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(words_t);
    if (n > KG_MAX_FLAT)
        return PyErr_Format(PyExc_TypeError, "kernel %s: %zd argument words, at most %d", name, n, KG_MAX_FLAT);
    kg_sim_work work = {0};
    kg_sim_config config = {.dynamic_shared = (size_t)(shared > 0 ? shared : 0), .fibers = fibers, .work = &work,
                            .blocks_done = &blocks_done};
    if (parse_dim3(grid_t, config.grid, "griddim") < 0 || parse_dim3(block_t, config.block, "blockdim") < 0)
        return NULL;
    atomic_store(&blocks_done, 0);
    atomic_store(&blocks_total, (uint64_t)config.grid[0] * config.grid[1] * config.grid[2]);
    int64_t words[KG_MAX_FLAT];
    for (Py_ssize_t i = 0; i < n; i++)
        if (put_word(&words[i], PyTuple_GET_ITEM(words_t, i)) < 0)
            return NULL;
    _Alignas(16) char ret[64];
    kg_error err = {0};
    int status;
    kj_interrupt_flag = 0;   /* a Ctrl-C from before this launch is not for it */
    uint64_t start = kp_now_ns();
    Py_BEGIN_ALLOW_THREADS
    status = kg_sim_launch((kg_sim_entry)(uintptr_t)entry, ret, words, &config, &err);
    Py_END_ALLOW_THREADS
    /* Recorded like a GPU launch, so a cell's footer shows simulated work
     * too (a launch that raised included: it ran). */
    kg_launch_info info = {.kernel = name, .shared_bytes = (unsigned)config.dynamic_shared, .simulated = 1,
                           .work = work, .host_bytes = host_bytes};
    memcpy(info.grid, config.grid, sizeof info.grid);
    memcpy(info.block, config.block, sizeof info.block);
    if (status >= 0)
        kg_record_sim_launch(&info, kp_now_ns() - start);
    if (status < 0 && err.kind == KG_ERR_UNDEFINED)
        return PyErr_Format(kg_CudaError, "kernel '%s': %s", name, err.message);
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
    {"cuda_sim_progress", py_sim_progress, METH_NOARGS,
     "cuda_sim_progress() -> (blocks done, blocks in all) of the latest simulator launch."},
    {"cuda_sim_launch", py_sim_launch, METH_VARARGS,
     "cuda_sim_launch(entry, name, words, grid, block, shared_bytes, fibers, host_bytes): runs a simulator "
     "kernel from _kiln.cuda_compile over a grid; words are its arguments flattened (ints and floats)."},
    {NULL, NULL, 0, NULL},
};

int kg_sim_py_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
