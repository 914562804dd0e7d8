/* The GPU layer's face in _kiln: its exceptions, the device queries
 * (mode, devices, memory, synchronize) and the set-up of every type. The
 * pure-Python package kiln.cuda gives these their public names. */
#include "gpu/objects.h"

PyObject *kg_CudaError, *kg_CudaMemoryError, *kg_CudaFaultError, *kg_CudaSupportError,
    *kg_CudaCompileError;

PyObject *kg_raise(const kg_error *err) {
    PyObject *type;
    switch (err->kind) {
    case KG_ERR_INVALID: type = PyExc_ValueError; break;
    case KG_ERR_NO_GPU: type = kg_CudaSupportError; break;
    case KG_ERR_OUT_OF_MEMORY: type = kg_CudaMemoryError; break;
    case KG_ERR_FAULT: type = kg_CudaFaultError; break;
    case KG_ERR_LLVM:
    case KG_ERR_LIBDEVICE: type = kg_CudaCompileError; break;
    default: type = kg_CudaError; break;
    }
    PyErr_SetString(type, err->message);
    return NULL;
}

/* Each new exception is owned by its global and added to the module with a
 * reference of the module's own. */
static int add_exception(PyObject *module, PyObject **slot, const char *name, PyObject *bases,
                         const char *doc) {
    char qualified[64];
    snprintf(qualified, sizeof qualified, "_kiln.%s", name);
    *slot = PyErr_NewExceptionWithDoc(qualified, doc, bases, NULL);
    if (!*slot)
        return -1;
    return PyModule_AddObjectRef(module, name, *slot);
}

int kg_errors_init(PyObject *module) {
    if (add_exception(module, &kg_CudaError, "CudaError", PyExc_RuntimeError,
                      "A CUDA driver call failed; the message names the call and the driver's error.") < 0)
        return -1;
    PyObject *bases = PyTuple_Pack(2, kg_CudaError, PyExc_MemoryError);
    if (!bases)
        return -1;
    int status = add_exception(module, &kg_CudaMemoryError, "CudaMemoryError", bases,
                               "The GPU (or pinned host memory) has no room for the requested size.");
    Py_DECREF(bases);
    if (status < 0 ||
        add_exception(module, &kg_CudaFaultError, "CudaFaultError", kg_CudaError,
                      "A kernel faulted (illegal address, ...). The context was reset: new work "
                      "runs, older device arrays are invalid.") < 0 ||
        add_exception(module, &kg_CudaSupportError, "CudaSupportError", kg_CudaError,
                      "The operation needs a GPU and this process has none (simulator mode).") < 0 ||
        add_exception(module, &kg_CudaCompileError, "CudaCompileError", kg_CudaError,
                      "Kernel IR did not become PTX (LLVM NVPTX, libdevice).") < 0)
        return -1;
    return 0;
}

static PyObject *py_mode(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyUnicode_FromString(kg_driver_mode() == KG_MODE_GPU ? "gpu" : "simulator");
}

static PyObject *py_why_simulator(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyUnicode_FromString(kg_driver_why_simulator());
}

/* One device's properties as a dict (GPU mode). */
static PyObject *device_dict(int ordinal) {
    CUdevice dev;
    char name[256] = "";
    size_t total = 0;
    int version = 0;
    kg_error err;
    CUresult r = kg_cu.DeviceGet(&dev, ordinal);
    if (r == CUDA_SUCCESS)
        r = kg_cu.DeviceGetName(name, sizeof name, dev);
    if (r == CUDA_SUCCESS)
        r = kg_cu.DeviceTotalMem(&total, dev);
    if (r == CUDA_SUCCESS)
        r = kg_cu.DriverGetVersion(&version);
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "reading device properties", &err);
        return kg_raise(&err);
    }
    int attrs[][2] = {
        {KG_ATTR_CC_MAJOR, 0}, {KG_ATTR_CC_MINOR, 0}, {KG_ATTR_MULTIPROCESSOR_COUNT, 0},
        {KG_ATTR_MAX_THREADS_PER_BLOCK, 0}, {KG_ATTR_MAX_THREADS_PER_SM, 0}, {KG_ATTR_WARP_SIZE, 0},
        {KG_ATTR_MAX_SHARED_PER_BLOCK, 0}, {KG_ATTR_PCI_BUS_ID, 0},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (kg_cu.DeviceGetAttribute(&attrs[i][1], attrs[i][0], dev) != CUDA_SUCCESS)
            attrs[i][1] = -1;
    return Py_BuildValue("{s:i,s:s,s:(ii),s:n,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "id", ordinal, "name", name,
                         "compute_capability", attrs[0][1], attrs[1][1], "total_memory", (Py_ssize_t)total,
                         "multiprocessors", attrs[2][1], "max_threads_per_block", attrs[3][1],
                         "max_threads_per_multiprocessor", attrs[4][1], "warp_size", attrs[5][1],
                         "max_shared_memory_per_block", attrs[6][1], "pci_bus_id", attrs[7][1],
                         "driver_version", version);
}

static PyObject *py_devices(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    PyObject *list = PyList_New(0);
    if (!list || kg_driver_mode() != KG_MODE_GPU)
        return list;
    int count = 0;
    kg_cu.DeviceGetCount(&count);
    for (int i = 0; i < count; i++) {
        PyObject *d = device_dict(i);
        if (!d || PyList_Append(list, d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(d);
    }
    return list;
}

static PyObject *py_synchronize(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    if (kg_driver_mode() != KG_MODE_GPU)
        Py_RETURN_NONE; /* the simulator runs everything synchronously */
    kg_error err;
    if (kg_context_ensure(&err) < 0)
        return kg_raise(&err);
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.CtxSynchronize();
    Py_END_ALLOW_THREADS
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "cuCtxSynchronize", &err);
        return kg_raise(&err);
    }
    Py_RETURN_NONE;
}

static PyObject *py_mem_info(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    kg_error err;
    if (kg_context_ensure(&err) < 0)
        return kg_raise(&err);
    size_t free_bytes = 0, total = 0;
    CUresult r = kg_cu.MemGetInfo(&free_bytes, &total);
    if (r != CUDA_SUCCESS) {
        kg_driver_fail(r, "cuMemGetInfo", &err);
        return kg_raise(&err);
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)free_bytes, (Py_ssize_t)total);
}

static PyObject *py_context_generation(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyLong_FromUnsignedLongLong(kg_context_generation());
}

static PyMethodDef methods[] = {
    {"cuda_mode", py_mode, METH_NOARGS, "'gpu' or 'simulator' (decided on the first call)."},
    {"cuda_why_simulator", py_why_simulator, METH_NOARGS, "Why kernels run on the simulator ('' on a GPU)."},
    {"cuda_devices", py_devices, METH_NOARGS, "Properties of each GPU, as dicts ([] in simulator mode)."},
    {"cuda_synchronize", py_synchronize, METH_NOARGS, "Waits for all work on the GPU to finish."},
    {"cuda_mem_info", py_mem_info, METH_NOARGS, "(free, total) bytes of device memory."},
    {"cuda_context_generation", py_context_generation, METH_NOARGS,
     "Increases each time a fault made Kiln reset the GPU context."},
    {NULL, NULL, 0, NULL},
};

int kg_module_init(PyObject *module) {
    if (kg_errors_init(module) < 0 || PyModule_AddFunctions(module, methods) < 0 ||
        kg_memory_init(module) < 0 || kg_stream_init(module) < 0 || kg_kernel_init(module) < 0 ||
        kg_records_init(module) < 0 || kg_rng_init(module) < 0 || kg_ptx_py_init(module) < 0 ||
        kg_cuda_compile_init(module) < 0 || kg_sim_py_init(module) < 0)
        return -1;
    return 0;
}
