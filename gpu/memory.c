/* Device memory, pinned host memory, and the copies between them and host
 * buffers. In simulator mode "device" memory is host memory, so that the
 * same kiln.cuda code (and the simulator's kernels) run on any machine.
 * Every copy is recorded (gpu/records.c) for the profiler. */
#include "gpu/objects.h"

#include <stdlib.h>
#include <string.h>

#include "profiler/profiler.h"

/* Device allocations are at least this aligned (cuMemAlloc gives 256). */
#define ALIGNMENT 256

/* Host memory standing in for device or pinned memory in the simulator. */
static void *host_alloc(size_t bytes) {
    size_t rounded = (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    return aligned_alloc(ALIGNMENT, rounded ? rounded : ALIGNMENT);
}

int kg_memory_address(kg_memory *mem, uintptr_t *address, kg_error *err) {
    if (!mem->simulated && mem->generation != kg_context_generation())
        return kg_error_set(err, KG_ERR_STALE, 0,
                            "this device array is no longer valid: its memory was freed when Kiln "
                            "reset the GPU context after a kernel fault; copy the data to the "
                            "device again");
    *address = mem->ptr;
    return 0;
}

static void memory_dealloc(kg_memory *self) {
    if (self->simulated) {
        free((void *)self->ptr);
    } else if (self->ptr && self->generation == kg_context_generation()) {
        kg_error ignored; /* a free that fails at teardown has no one to tell */
        if (kg_context_ensure(&ignored) == 0)
            kg_cu.MemFree((CUdeviceptr)self->ptr);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *memory_get_ptr(kg_memory *self, void *unused) {
    (void)unused;
    return PyLong_FromSize_t(self->ptr);
}

static PyObject *memory_get_size(kg_memory *self, void *unused) {
    (void)unused;
    return PyLong_FromSize_t(self->size);
}

static PyObject *memory_get_valid(kg_memory *self, void *unused) {
    (void)unused;
    return PyBool_FromLong(self->simulated || self->generation == kg_context_generation());
}

static PyObject *memory_get_simulated(kg_memory *self, void *unused) {
    (void)unused;
    return PyBool_FromLong(self->simulated);
}

static PyGetSetDef memory_getset[] = {
    {"ptr", (getter)memory_get_ptr, NULL, "Device address (host address in the simulator).", NULL},
    {"size", (getter)memory_get_size, NULL, "Size in bytes.", NULL},
    {"valid", (getter)memory_get_valid, NULL, "False once a context reset freed it.", NULL},
    {"simulated", (getter)memory_get_simulated, NULL, "True for the simulator's host memory.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject kg_memory_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.DeviceMemory",
    .tp_basicsize = sizeof(kg_memory),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A block of GPU memory (host memory in simulator mode); made by cuda_alloc.",
    .tp_dealloc = (destructor)memory_dealloc,
    .tp_getset = memory_getset,
};

static void format_size(char *out, size_t n, size_t bytes) {
    if (bytes >= (1ull << 30))
        snprintf(out, n, "%.2f GiB (%zu bytes)", bytes / (double)(1ull << 30), bytes);
    else if (bytes >= (1u << 20))
        snprintf(out, n, "%.2f MiB (%zu bytes)", bytes / (double)(1u << 20), bytes);
    else
        snprintf(out, n, "%zu bytes", bytes);
}

/* Allocates device memory; an out-of-memory error names the size asked for
 * and what the device has free. */
static int device_alloc(size_t bytes, CUdeviceptr *ptr, kg_error *err) {
    if (kg_context_ensure(err) < 0)
        return -1;
    CUresult r = kg_cu.MemAlloc(ptr, bytes ? bytes : 1);
    if (r == CUDA_SUCCESS)
        return 0;
    if (r != CUDA_ERROR_OUT_OF_MEMORY)
        return kg_driver_fail(r, "cuMemAlloc", err);
    size_t free_bytes = 0, total = 0;
    kg_cu.MemGetInfo(&free_bytes, &total);
    char want[64], have[64], all[64];
    format_size(want, sizeof want, bytes);
    format_size(have, sizeof have, free_bytes);
    format_size(all, sizeof all, total);
    return kg_error_set(err, KG_ERR_OUT_OF_MEMORY, r,
                        "not enough GPU memory: asked for %s, the GPU has %s free of %s", want, have, all);
}

/* The byte count an allocation asks for: -1 with a Python exception set
 * when arg is not a non-negative int. */
static Py_ssize_t requested_bytes(PyObject *arg) {
    Py_ssize_t bytes = PyLong_AsSsize_t(arg);
    if (bytes == -1 && PyErr_Occurred())
        return -1;
    if (bytes < 0) {
        PyErr_Format(PyExc_ValueError, "cannot allocate a negative size (%zd bytes)", bytes);
        return -1;
    }
    return bytes;
}

static PyObject *py_alloc(PyObject *self, PyObject *arg) {
    (void)self;
    Py_ssize_t bytes = requested_bytes(arg);
    if (bytes < 0)
        return NULL;
    kg_memory *mem = PyObject_New(kg_memory, &kg_memory_type);
    if (!mem)
        return NULL;
    mem->size = (size_t)bytes;
    mem->generation = kg_context_generation();
    mem->simulated = kg_driver_mode() != KG_MODE_GPU;
    mem->ptr = 0;
    if (mem->simulated) {
        mem->ptr = (uintptr_t)host_alloc((size_t)bytes);
        if (!mem->ptr) {
            Py_DECREF(mem);
            return PyErr_Format(kg_CudaMemoryError, "not enough host memory for a simulated device "
                                "array of %zd bytes", bytes);
        }
        return (PyObject *)mem;
    }
    kg_error err;
    CUdeviceptr ptr = 0;
    if (device_alloc((size_t)bytes, &ptr, &err) < 0) {
        Py_DECREF(mem);
        return kg_raise(&err);
    }
    mem->ptr = (uintptr_t)ptr;
    mem->generation = kg_context_generation();
    return (PyObject *)mem;
}

/* Checks that [offset, offset + bytes) lies inside mem and gives its address. */
static int span(kg_memory *mem, Py_ssize_t offset, Py_ssize_t bytes, uintptr_t *address, kg_error *err) {
    if (offset < 0 || bytes < 0 || (size_t)offset > mem->size || (size_t)bytes > mem->size - (size_t)offset)
        return kg_error_set(err, KG_ERR_INVALID, 0,
                            "copy of %zd bytes at offset %zd does not fit a device allocation of %zu bytes",
                            bytes, offset, mem->size);
    if (kg_memory_address(mem, address, err) < 0)
        return -1;
    *address += (uintptr_t)offset;
    return 0;
}

/* cuda_copy(direction, memory, offset, buffer, stream=None): one contiguous
 * copy between a host buffer and device memory. */
static PyObject *py_copy(PyObject *self, PyObject *args) {
    (void)self;
    const char *direction;
    kg_memory *mem;
    Py_ssize_t offset;
    PyObject *host, *stream_obj = Py_None;
    if (!PyArg_ParseTuple(args, "sO!nO|O", &direction, &kg_memory_type, &mem, &offset, &host, &stream_obj))
        return NULL;
    int to_device = strcmp(direction, "htod") == 0;
    if (!to_device && strcmp(direction, "dtoh") != 0)
        return PyErr_Format(PyExc_ValueError, "direction must be 'htod' or 'dtoh', not %R", args);
    Py_buffer view;
    int flags = PyBUF_C_CONTIGUOUS | (to_device ? 0 : PyBUF_WRITABLE);
    if (PyObject_GetBuffer(host, &view, flags) < 0)
        return NULL;
    kg_error err;
    uintptr_t address;
    CUstream stream = NULL;
    int failed = span(mem, offset, view.len, &address, &err) < 0 ||
                 (!mem->simulated && kg_stream_handle(stream_obj, &stream, &err) < 0) ||
                 (!mem->simulated && kg_context_ensure(&err) < 0);
    if (!failed) {
        uint64_t start = kp_now_ns();
        CUresult r = CUDA_SUCCESS;
        const char *call;
        Py_BEGIN_ALLOW_THREADS
        if (mem->simulated) {
            call = "memcpy";
            if (to_device)
                memcpy((void *)address, view.buf, view.len);
            else
                memcpy(view.buf, (void *)address, view.len);
        } else if (stream_obj != Py_None) {
            call = to_device ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync";
            r = to_device ? kg_cu.MemcpyHtoDAsync(address, view.buf, view.len, stream)
                          : kg_cu.MemcpyDtoHAsync(view.buf, address, view.len, stream);
        } else {
            call = to_device ? "cuMemcpyHtoD" : "cuMemcpyDtoH";
            r = to_device ? kg_cu.MemcpyHtoD(address, view.buf, view.len)
                          : kg_cu.MemcpyDtoH(view.buf, address, view.len);
        }
        Py_END_ALLOW_THREADS
        if (r != CUDA_SUCCESS)
            failed = kg_driver_fail(r, call, &err);
        else
            kg_record_transfer(to_device ? KG_HOST_TO_DEVICE : KG_DEVICE_TO_HOST, view.len,
                               kp_now_ns() - start, stream_obj != Py_None);
    }
    PyBuffer_Release(&view);
    if (failed)
        return kg_raise(&err);
    Py_RETURN_NONE;
}

/* cuda_copy_dtod(dst, dst_offset, src, src_offset, bytes) */
static PyObject *py_copy_dtod(PyObject *self, PyObject *args) {
    (void)self;
    kg_memory *dst, *src;
    Py_ssize_t dst_offset, src_offset, bytes;
    if (!PyArg_ParseTuple(args, "O!nO!nn", &kg_memory_type, &dst, &dst_offset, &kg_memory_type, &src,
                          &src_offset, &bytes))
        return NULL;
    kg_error err;
    uintptr_t to, from;
    if (span(dst, dst_offset, bytes, &to, &err) < 0 || span(src, src_offset, bytes, &from, &err) < 0)
        return kg_raise(&err);
    uint64_t start = kp_now_ns();
    if (dst->simulated) {
        memmove((void *)to, (void *)from, bytes);
    } else {
        CUresult r;
        if (kg_context_ensure(&err) < 0)
            return kg_raise(&err);
        if ((r = kg_cu.MemcpyDtoD(to, from, bytes)) != CUDA_SUCCESS) {
            kg_driver_fail(r, "cuMemcpyDtoD", &err);
            return kg_raise(&err);
        }
    }
    kg_record_transfer(KG_DEVICE_TO_DEVICE, bytes, kp_now_ns() - start, !dst->simulated);
    Py_RETURN_NONE;
}

/* cuda_memset(memory, offset, byte, bytes) */
static PyObject *py_memset(PyObject *self, PyObject *args) {
    (void)self;
    kg_memory *mem;
    Py_ssize_t offset, bytes;
    unsigned char value;
    if (!PyArg_ParseTuple(args, "O!nbn", &kg_memory_type, &mem, &offset, &value, &bytes))
        return NULL;
    kg_error err;
    uintptr_t address;
    if (span(mem, offset, bytes, &address, &err) < 0)
        return kg_raise(&err);
    if (mem->simulated) {
        memset((void *)address, value, bytes);
    } else {
        CUresult r;
        if (kg_context_ensure(&err) < 0)
            return kg_raise(&err);
        if ((r = kg_cu.MemsetD8(address, value, bytes)) != CUDA_SUCCESS) {
            kg_driver_fail(r, "cuMemsetD8", &err);
            return kg_raise(&err);
        }
    }
    Py_RETURN_NONE;
}

/* ---- pinned (page-locked) host memory, exported through the buffer
 * protocol so that numpy.frombuffer makes an array that keeps it alive ---- */

typedef struct {
    PyObject_HEAD
    void *ptr;
    size_t size;
    uint64_t generation;
    int simulated;
} kg_pinned;

static void pinned_dealloc(kg_pinned *self) {
    if (self->simulated)
        free(self->ptr);
    else if (self->ptr && self->generation == kg_context_generation())
        kg_cu.MemFreeHost(self->ptr);
    /* After a reset the driver has already released it. */
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int pinned_getbuffer(kg_pinned *self, Py_buffer *view, int flags) {
    return PyBuffer_FillInfo(view, (PyObject *)self, self->ptr, (Py_ssize_t)self->size, 0, flags);
}

static PyBufferProcs pinned_buffer = {(getbufferproc)pinned_getbuffer, NULL};

static PyTypeObject pinned_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.PinnedMemory",
    .tp_basicsize = sizeof(kg_pinned),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Page-locked host memory (plain host memory in simulator mode); a writable buffer.",
    .tp_dealloc = (destructor)pinned_dealloc,
    .tp_as_buffer = &pinned_buffer,
};

static PyObject *py_pinned_alloc(PyObject *self, PyObject *arg) {
    (void)self;
    Py_ssize_t bytes = requested_bytes(arg);
    if (bytes < 0)
        return NULL;
    kg_pinned *mem = PyObject_New(kg_pinned, &pinned_type);
    if (!mem)
        return NULL;
    mem->size = (size_t)bytes;
    mem->simulated = kg_driver_mode() != KG_MODE_GPU;
    mem->generation = kg_context_generation();
    mem->ptr = NULL;
    kg_error err;
    if (mem->simulated) {
        mem->ptr = host_alloc((size_t)bytes);
        if (mem->ptr)
            return (PyObject *)mem;
        kg_error_set(&err, KG_ERR_OUT_OF_MEMORY, 0, "not enough host memory for %zd bytes", bytes);
    } else if (kg_context_ensure(&err) == 0) {
        CUresult r = kg_cu.MemHostAlloc(&mem->ptr, bytes ? (size_t)bytes : 1, 0);
        if (r == CUDA_SUCCESS)
            return (PyObject *)mem;
        mem->ptr = NULL;
        kg_driver_fail(r, "cuMemHostAlloc", &err);
    }
    Py_DECREF(mem);
    return kg_raise(&err);
}

static PyMethodDef methods[] = {
    {"cuda_alloc", py_alloc, METH_O, "cuda_alloc(nbytes) -> DeviceMemory"},
    {"cuda_copy", py_copy, METH_VARARGS,
     "cuda_copy('htod'|'dtoh', memory, offset, buffer, stream=None): contiguous copy"},
    {"cuda_copy_dtod", py_copy_dtod, METH_VARARGS, "cuda_copy_dtod(dst, dst_offset, src, src_offset, nbytes)"},
    {"cuda_memset", py_memset, METH_VARARGS, "cuda_memset(memory, offset, byte, nbytes)"},
    {"cuda_pinned_alloc", py_pinned_alloc, METH_O, "cuda_pinned_alloc(nbytes) -> PinnedMemory"},
    {NULL, NULL, 0, NULL},
};

int kg_memory_init(PyObject *module) {
    if (PyType_Ready(&kg_memory_type) < 0 || PyType_Ready(&pinned_type) < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "DeviceMemory", (PyObject *)&kg_memory_type) < 0 ||
        PyModule_AddObjectRef(module, "PinnedMemory", (PyObject *)&pinned_type) < 0)
        return -1;
    return PyModule_AddFunctions(module, methods);
}
