/* PTX modules and their kernels on the GPU: load (with the JIT's error log),
 * function attributes from the driver, theoretical occupancy, and launch
 * with grid/block/dynamic shared memory/stream, timed by CUDA events. A
 * module remembers its PTX, so after a context reset it loads again. */
#include "gpu/objects.h"

#include <string.h>

#include "profiler/profiler.h"

#define LOG_SIZE 16384
#define MAX_ARGS (KG_MAX_FLAT + 1) /* a kiln.cuda.jit kernel's parts and its error slot */

typedef struct {
    PyObject_HEAD
    PyObject *ptx;        /* bytes, NUL-terminated by CPython; owned */
    PyObject *info_log;   /* str from the last load; owned */
    CUmodule handle;
    uint64_t generation;
    double load_seconds;
} kg_module_obj;

typedef struct {
    PyObject_HEAD
    kg_module_obj *module;  /* owned */
    PyObject *name;         /* str, owned */
    CUfunction handle;
    uint64_t generation;
    int registers, local_bytes, shared_bytes, const_bytes, max_threads;
    /* last occupancy asked for, since launches repeat one configuration */
    unsigned occ_block, occ_shared;
    double occ_value;
} kg_function;

static PyTypeObject module_type, function_type;

/* Loads (or reloads, after a reset) the module's PTX into the context. */
static int module_load(kg_module_obj *m, kg_error *err) {
    if (m->handle && m->generation == kg_context_generation())
        return 0;
    m->handle = NULL;
    if (kg_context_ensure(err) < 0)
        return -1;
    char info[LOG_SIZE] = "", error[LOG_SIZE] = "";
    int options[] = {KG_JIT_INFO_LOG_BUFFER, KG_JIT_INFO_LOG_BUFFER_SIZE_BYTES, KG_JIT_ERROR_LOG_BUFFER,
                     KG_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info, (void *)(uintptr_t)LOG_SIZE, error, (void *)(uintptr_t)LOG_SIZE};
    uint64_t start = kp_now_ns();
    CUresult r;
    const char *image = PyBytes_AS_STRING(m->ptx);
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.ModuleLoadDataEx(&m->handle, image, 4, options, values);
    Py_END_ALLOW_THREADS
    m->load_seconds = (kp_now_ns() - start) * 1e-9;
    if (r != CUDA_SUCCESS) {
        m->handle = NULL;
        kg_driver_fail(r, "cuModuleLoadDataEx", err);
        size_t used = strlen(err->message);
        snprintf(err->message + used, sizeof err->message - used, "\nPTX JIT log:\n%s", error);
        return -1;
    }
    m->generation = kg_context_generation();
    PyObject *log = PyUnicode_DecodeUTF8(info, strlen(info), "replace");
    if (!log)
        PyErr_Clear(); /* the log is a nicety; the module loaded */
    else
        Py_XSETREF(m->info_log, log);
    return 0;
}

static PyObject *module_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"ptx", NULL};
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#", keywords, &text, &len))
        return NULL;
    if (kg_driver_mode() != KG_MODE_GPU)
        return PyErr_Format(kg_CudaSupportError, "loading PTX needs a GPU, and this process runs the "
                            "CUDA simulator (%s)", kg_driver_why_simulator());
    kg_module_obj *self = (kg_module_obj *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->ptx = PyBytes_FromStringAndSize(text, len);
    self->info_log = PyUnicode_FromString("");
    kg_error err;
    if (!self->ptx || !self->info_log) {
        Py_DECREF(self);
        return NULL;
    }
    if (module_load(self, &err) < 0) {
        Py_DECREF(self);
        return kg_raise(&err);
    }
    return (PyObject *)self;
}

static void module_dealloc(kg_module_obj *self) {
    if (self->handle && self->generation == kg_context_generation())
        kg_cu.ModuleUnload(self->handle);
    Py_XDECREF(self->ptx);
    Py_XDECREF(self->info_log);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Looks the kernel up again if the context changed, and rereads what the
 * driver says about it. */
static int function_refresh(kg_function *f, kg_error *err) {
    if (f->handle && f->generation == kg_context_generation() &&
        f->module->generation == f->generation)
        return 0;
    if (module_load(f->module, err) < 0)
        return -1;
    const char *name = PyUnicode_AsUTF8(f->name);
    CUresult r = kg_cu.ModuleGetFunction(&f->handle, f->module->handle, name);
    if (r != CUDA_SUCCESS) {
        f->handle = NULL;
        kg_driver_fail(r, "cuModuleGetFunction", err);
        size_t used = strlen(err->message);
        snprintf(err->message + used, sizeof err->message - used, " (no kernel named '%s' in this PTX)", name);
        return -1;
    }
    struct { int attribute; int *slot; } attrs[] = {
        {KG_FUNC_NUM_REGS, &f->registers}, {KG_FUNC_LOCAL_SIZE_BYTES, &f->local_bytes},
        {KG_FUNC_SHARED_SIZE_BYTES, &f->shared_bytes}, {KG_FUNC_CONST_SIZE_BYTES, &f->const_bytes},
        {KG_FUNC_MAX_THREADS_PER_BLOCK, &f->max_threads},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (kg_cu.FuncGetAttribute(attrs[i].slot, attrs[i].attribute, f->handle) != CUDA_SUCCESS)
            *attrs[i].slot = -1;
    f->generation = kg_context_generation();
    f->occ_block = 0;
    return 0;
}

static PyObject *module_get_function(kg_module_obj *self, PyObject *name) {
    if (!PyUnicode_Check(name))
        return PyErr_Format(PyExc_TypeError, "kernel name must be a str, not %s", Py_TYPE(name)->tp_name);
    kg_function *f = PyObject_New(kg_function, &function_type);
    if (!f)
        return NULL;
    f->module = (kg_module_obj *)Py_NewRef(self);
    f->name = Py_NewRef(name);
    f->handle = NULL;
    f->generation = 0;
    kg_error err;
    if (function_refresh(f, &err) < 0) {
        Py_DECREF(f);
        return kg_raise(&err);
    }
    return (PyObject *)f;
}

static PyObject *module_get_info_log(kg_module_obj *self, void *unused) {
    (void)unused;
    return Py_NewRef(self->info_log);
}

static PyObject *module_get_load_seconds(kg_module_obj *self, void *unused) {
    (void)unused;
    return PyFloat_FromDouble(self->load_seconds);
}

static PyMethodDef module_methods[] = {
    {"get_function", (PyCFunction)module_get_function, METH_O, "get_function(name) -> Function"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef module_getset[] = {
    {"info_log", (getter)module_get_info_log, NULL, "The PTX JIT's info log of the last load.", NULL},
    {"load_seconds", (getter)module_get_load_seconds, NULL, "How long the last load took.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject module_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.CudaModule",
    .tp_basicsize = sizeof(kg_module_obj),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CudaModule(ptx): PTX loaded into the GPU context (needs a GPU).",
    .tp_new = module_new,
    .tp_dealloc = (destructor)module_dealloc,
    .tp_methods = module_methods,
    .tp_getset = module_getset,
};

/* ---- functions (kernels) ----------------------------------------------- */

static void function_dealloc(kg_function *self) {
    Py_XDECREF(self->module);
    Py_XDECREF(self->name);
    PyObject_Free(self);
}

/* Theoretical occupancy: resident warps per SM over the SM's maximum, for
 * this block size and dynamic shared memory. Negative if unknown. */
static double occupancy(kg_function *f, unsigned block, unsigned shared, int *blocks_per_sm) {
    int blocks = 0;
    if (kg_cu.OccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f->handle, (int)block, shared) != CUDA_SUCCESS)
        return -1;
    int warp = kg_device_attribute(KG_ATTR_WARP_SIZE);
    int max_threads = kg_device_attribute(KG_ATTR_MAX_THREADS_PER_SM);
    if (warp <= 0 || max_threads <= 0)
        return -1;
    if (blocks_per_sm)
        *blocks_per_sm = blocks;
    double warps = (double)blocks * ((block + warp - 1) / warp);
    return warps / (max_threads / warp);
}

static PyObject *function_occupancy(kg_function *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"block_size", "shared_bytes", NULL};
    unsigned block, shared = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "I|I", keywords, &block, &shared))
        return NULL;
    kg_error err;
    if (function_refresh(self, &err) < 0)
        return kg_raise(&err);
    int blocks = 0;
    double value = occupancy(self, block, shared, &blocks);
    if (value < 0)
        return PyErr_Format(PyExc_ValueError, "no occupancy for blocks of %u threads with %u bytes of "
                            "dynamic shared memory (too large for this kernel?)", block, shared);
    return Py_BuildValue("{s:i,s:d}", "blocks_per_multiprocessor", blocks, "occupancy", value);
}

/* dim: an int or a tuple of 1 to 3 positive ints. */
static int parse_dim(PyObject *obj, const char *what, unsigned out[3], kg_error *err) {
    out[0] = out[1] = out[2] = 1;
    PyObject *items[3] = {obj, NULL, NULL};
    Py_ssize_t n = 1;
    if (PyTuple_Check(obj)) {
        n = PyTuple_GET_SIZE(obj);
        if (n < 1 || n > 3)
            return kg_error_set(err, KG_ERR_INVALID, 0, "%s must have 1 to 3 dimensions, not %zd", what, n);
        for (Py_ssize_t i = 0; i < n; i++)
            items[i] = PyTuple_GET_ITEM(obj, i);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_Check(items[i]) ? PyLong_AsLongLong(items[i]) : -1;
        if (v == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (v < 1 || v > 0x7fffffff)
            return kg_error_set(err, KG_ERR_INVALID, 0,
                                "%s must be a positive int or a tuple of up to 3 positive ints", what);
        out[i] = (unsigned)v;
    }
    return 0;
}

typedef struct {
    void *params[MAX_ARGS];
    union { int64_t i; double d; uint64_t u; } scalars[MAX_ARGS];
    Py_buffer views[MAX_ARGS];
    int n_views;
} arg_pack;

/* Attribute names of kiln.cuda's DeviceNDArray, interned once; owned here. */
static PyObject *memory_attr, *offset_attr;

/* A DeviceNDArray's address without running Python: its _memory and
 * _offset slots. 1 if arg is one (address set or err filled), 0 if not. */
static int device_array_address(PyObject *arg, uint64_t *address, int *failed, kg_error *err) {
    PyObject *mem = PyObject_GetAttr(arg, memory_attr);
    if (!mem) {
        PyErr_Clear();
        return 0;
    }
    PyObject *offset = PyObject_TypeCheck(mem, &kg_memory_type) ? PyObject_GetAttr(arg, offset_attr) : NULL;
    int found = offset && PyLong_Check(offset);
    if (found) {
        uintptr_t base;
        *failed = kg_memory_address((kg_memory *)mem, &base, err) < 0;
        *address = (uint64_t)base + (uint64_t)PyLong_AsSsize_t(offset);
    }
    PyErr_Clear();
    Py_DECREF(mem);
    Py_XDECREF(offset);
    return found;
}

/* One argument: a Python int (int64), float (float64), a 0-d buffer such as
 * a NumPy scalar (its bytes), DeviceMemory, a kiln.cuda device array, or an
 * object with an int `device_pointer` (a device address). */
static int pack_arg(arg_pack *pack, int i, PyObject *arg, kg_error *err) {
    int failed = 0;
    if (PyObject_TypeCheck(arg, &kg_memory_type)) {
        uintptr_t address;
        if (kg_memory_address((kg_memory *)arg, &address, err) < 0)
            return -1;
        pack->scalars[i].u = address;
    } else if (PyLong_Check(arg)) {
        pack->scalars[i].i = PyLong_AsLongLong(arg);
        if (pack->scalars[i].i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return kg_error_set(err, KG_ERR_INVALID, 0, "argument %d does not fit in int64", i);
        }
    } else if (PyFloat_Check(arg)) {
        pack->scalars[i].d = PyFloat_AS_DOUBLE(arg);
    } else if (PyObject_CheckBuffer(arg)) {
        Py_buffer *view = &pack->views[pack->n_views];
        if (PyObject_GetBuffer(arg, view, PyBUF_ND) < 0) {
            PyErr_Clear();
            return kg_error_set(err, KG_ERR_INVALID, 0, "argument %d: cannot read its bytes", i);
        }
        pack->n_views++;
        if (view->ndim != 0)
            return kg_error_set(err, KG_ERR_INVALID, 0,
                                "argument %d is a host array: copy it to the GPU first "
                                "(kiln.cuda.to_device) and pass the device array", i);
        pack->params[i] = view->buf;
        return 0;
    } else if (device_array_address(arg, &pack->scalars[i].u, &failed, err)) {
        if (failed)
            return -1;
    } else {
        PyObject *pointer = PyObject_GetAttrString(arg, "device_pointer");
        if (!pointer) {
            /* The property raises for a stale array: keep its message. */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyObject *text = value ? PyObject_Str(value) : NULL;
            kg_error_set(err, type && PyErr_GivenExceptionMatches(type, PyExc_AttributeError) ? KG_ERR_INVALID
                                                                                               : KG_ERR_STALE,
                         0, "argument %d (%s): %s", i, Py_TYPE(arg)->tp_name,
                         text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "not a kernel argument");
            Py_XDECREF(text);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
            PyErr_Clear();
            return -1;
        }
        pack->scalars[i].u = PyLong_AsUnsignedLongLong(pointer);
        Py_DECREF(pointer);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return kg_error_set(err, KG_ERR_INVALID, 0, "argument %d: device_pointer is not an address", i);
        }
    }
    pack->params[i] = &pack->scalars[i];
    return 0;
}

static void release_pack(arg_pack *pack) {
    for (int i = 0; i < pack->n_views; i++)
        PyBuffer_Release(&pack->views[i]);
}

static int launch(kg_function *f, PyObject *grid_obj, PyObject *block_obj, PyObject *args,
                  unsigned shared, PyObject *stream_obj, kg_error *err) {
    unsigned grid[3], block[3];
    CUstream stream;
    if (parse_dim(grid_obj, "grid", grid, err) < 0 || parse_dim(block_obj, "block", block, err) < 0 ||
        kg_stream_handle(stream_obj, &stream, err) < 0 || function_refresh(f, err) < 0)
        return -1;
    unsigned threads = block[0] * block[1] * block[2];
    if (f->max_threads > 0 && threads > (unsigned)f->max_threads)
        return kg_error_set(err, KG_ERR_INVALID, 0,
                            "block (%u, %u, %u) has %u threads; kernel '%s' allows at most %d per block",
                            block[0], block[1], block[2], threads, PyUnicode_AsUTF8(f->name), f->max_threads);
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > MAX_ARGS)
        return kg_error_set(err, KG_ERR_INVALID, 0, "at most %d kernel arguments, not %zd", MAX_ARGS, n);
    arg_pack pack;
    pack.n_views = 0;
    int status = 0;
    for (Py_ssize_t i = 0; i < n && status == 0; i++)
        status = pack_arg(&pack, (int)i, PyTuple_GET_ITEM(args, i), err);
    if (status == 0) {
        if (f->occ_block != threads || f->occ_shared != shared) {
            f->occ_value = occupancy(f, threads, shared, NULL);
            f->occ_block = threads;
            f->occ_shared = shared;
        }
        const char *name = PyUnicode_AsUTF8(f->name);
        kg_launch_info info = {.kernel = name, .grid = {grid[0], grid[1], grid[2]},
                               .block = {block[0], block[1], block[2]}, .shared_bytes = shared,
                               .registers = f->registers, .local_bytes = f->local_bytes,
                               .occupancy = f->occ_value};
        int slot = kg_record_launch_begin(&info, stream);
        kg_context_note_launch(name);
        CUresult r = kg_cu.LaunchKernel(f->handle, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                        shared, stream, n ? pack.params : NULL, NULL);
        kg_record_launch_end(slot, stream);
        if (r != CUDA_SUCCESS) {
            char what[256];
            snprintf(what, sizeof what, "launch of '%s' with grid (%u, %u, %u), block (%u, %u, %u), %u bytes "
                     "of dynamic shared memory", name, grid[0], grid[1], grid[2], block[0], block[1],
                     block[2], shared);
            status = kg_driver_fail(r, what, err);
        }
    }
    release_pack(&pack);
    return status;
}

static PyObject *function_launch(kg_function *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"grid", "block", "args", "shared_bytes", "stream", NULL};
    PyObject *grid, *block, *kernel_args = NULL, *stream = Py_None;
    unsigned shared = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O!IO", keywords, &grid, &block, &PyTuple_Type,
                                     &kernel_args, &shared, &stream))
        return NULL;
    kg_error err;
    PyObject *empty = NULL;
    if (!kernel_args && !(kernel_args = empty = PyTuple_New(0)))
        return NULL;
    int status = launch(self, grid, block, kernel_args, shared, stream, &err);
    Py_XDECREF(empty);
    if (status < 0)
        return kg_raise(&err);
    Py_RETURN_NONE;
}

#define INT_GETTER(field)                                                       \
    static PyObject *function_get_##field(kg_function *self, void *unused) {   \
        (void)unused;                                                           \
        kg_error err;                                                           \
        if (function_refresh(self, &err) < 0)                                   \
            return kg_raise(&err);                                              \
        return PyLong_FromLong(self->field);                                    \
    }
INT_GETTER(registers)
INT_GETTER(local_bytes)
INT_GETTER(shared_bytes)
INT_GETTER(const_bytes)
INT_GETTER(max_threads)

static PyObject *function_get_name(kg_function *self, void *unused) {
    (void)unused;
    return Py_NewRef(self->name);
}

static PyGetSetDef function_getset[] = {
    {"name", (getter)function_get_name, NULL, "The kernel's name in the PTX.", NULL},
    {"registers", (getter)function_get_registers, NULL, "Registers per thread.", NULL},
    {"local_bytes", (getter)function_get_local_bytes, NULL, "Local memory per thread (spills, local arrays).", NULL},
    {"shared_bytes", (getter)function_get_shared_bytes, NULL, "Static shared memory per block.", NULL},
    {"const_bytes", (getter)function_get_const_bytes, NULL, "Constant memory used.", NULL},
    {"max_threads_per_block", (getter)function_get_max_threads, NULL, "Largest block this kernel can run.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef function_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))function_launch, METH_VARARGS | METH_KEYWORDS,
     "launch(grid, block, args=(), shared_bytes=0, stream=None): enqueue the kernel."},
    {"occupancy", (PyCFunction)(void (*)(void))function_occupancy, METH_VARARGS | METH_KEYWORDS,
     "occupancy(block_size, shared_bytes=0) -> {blocks_per_multiprocessor, occupancy}"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject function_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.CudaFunction",
    .tp_basicsize = sizeof(kg_function),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A kernel of a CudaModule (from CudaModule.get_function).",
    .tp_dealloc = (destructor)function_dealloc,
    .tp_methods = function_methods,
    .tp_getset = function_getset,
};

int kg_kernel_init(PyObject *module) {
    if (!memory_attr && !(memory_attr = PyUnicode_InternFromString("_memory")))
        return -1;
    if (!offset_attr && !(offset_attr = PyUnicode_InternFromString("_offset")))
        return -1;
    if (PyType_Ready(&module_type) < 0 || PyType_Ready(&function_type) < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "CudaModule", (PyObject *)&module_type) < 0 ||
        PyModule_AddObjectRef(module, "CudaFunction", (PyObject *)&function_type) < 0)
        return -1;
    return 0;
}
