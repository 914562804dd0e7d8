/* gpu/objects: the Python types of the GPU layer and what their files share.
 * Internal to gpu/ (others use gpu/gpu.h). All of it runs with the GIL held. */
#ifndef KILN_GPU_OBJECTS_H
#define KILN_GPU_OBJECTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "gpu/driver.h"
#include "gpu/sim.h"

/* A block of device memory, or of host memory standing in for it in
 * simulator mode. Views (kiln.cuda device arrays) hold a reference to it. */
typedef struct {
    PyObject_HEAD
    uintptr_t ptr;        /* CUdeviceptr, or the host address in the simulator */
    size_t size;
    uint64_t generation;  /* context generation it was allocated in (GPU) */
    int simulated;
} kg_memory;

extern PyTypeObject kg_memory_type;

/* Returns the usable address of mem, or fills err (KG_ERR_STALE) when the
 * context it lived in was reset after a fault. */
int kg_memory_address(kg_memory *mem, uintptr_t *address, kg_error *err);

/* A CUDA stream; handle NULL is the default stream. */
typedef struct {
    PyObject_HEAD
    CUstream handle;
    uint64_t generation;
    int owned;            /* destroy on dealloc (not the default stream) */
} kg_stream;

extern PyTypeObject kg_stream_type;

/* The stream handle of obj: None means the default stream. Returns 0, or -1
 * with err filled (not a Stream, or a stream from before a context reset). */
int kg_stream_handle(PyObject *obj, CUstream *handle, kg_error *err);

/* Exceptions, created by kg_errors_init and owned by these globals. */
extern PyObject *kg_CudaError, *kg_CudaMemoryError, *kg_CudaFaultError, *kg_CudaSupportError,
    *kg_CudaCompileError;

/* ---- per-launch and per-transfer records (gpu/records.c) ---------------- */

typedef enum { KG_HOST_TO_DEVICE, KG_DEVICE_TO_HOST, KG_DEVICE_TO_DEVICE } kg_direction;

void kg_record_transfer(kg_direction direction, size_t bytes, uint64_t elapsed_ns, int async);

/* Launch records keep two events around the launch; kg_record_launch_begin
 * records the start event and returns a slot, kg_record_launch_end the stop
 * event. Both do nothing (slot -1) while profiling is off. */
typedef struct {
    const char *kernel;
    unsigned grid[3], block[3];
    unsigned shared_bytes;
    int registers;
    int local_bytes;
    double occupancy;     /* theoretical, 0..1; negative if unknown */
    int simulated;        /* ran on the CUDA simulator: no registers, occupancy or events */
    kg_sim_work work;     /* simulated: what its threads did */
    uint64_t host_bytes;  /* simulated: bytes of the host arrays passed, which a GPU launch copies */
} kg_launch_info;

int kg_record_launch_begin(const kg_launch_info *info, CUstream stream);
void kg_record_launch_end(int slot, CUstream stream);

/* A launch that ran on the simulator (info->simulated set), which took
 * host_ns of the host's time. */
void kg_record_sim_launch(const kg_launch_info *info, uint64_t host_ns);

/* Module set-up of each file. Each returns 0, or -1 with an exception set. */
int kg_errors_init(PyObject *module);
int kg_memory_init(PyObject *module);
int kg_stream_init(PyObject *module);
int kg_kernel_init(PyObject *module);
int kg_records_init(PyObject *module);
int kg_rng_init(PyObject *module);
int kg_ptx_py_init(PyObject *module);
int kg_cuda_compile_init(PyObject *module);   /* cuda_compile.c */
int kg_sim_py_init(PyObject *module);         /* sim_py.c */

#endif
