/* What each launch and each host-device transfer cost, kept until the
 * notebook face takes them (cuda_take_records) to show in a cell's footer.
 * profiler/profiler.h has no launch or transfer records yet, so the GPU
 * layer keeps its own here; they can move there unchanged.
 *
 * Kernel time comes from a pair of CUDA events around the launch, read only
 * when the records are taken, so a launch never waits for the GPU. Two
 * event records cost a few microseconds, so only the first MAX_TIMED
 * launches between two takes are timed: a %timeit loop of launches runs at
 * the untimed speed after that. Launch records beyond MAX_LAUNCHES are
 * counted, not kept (the first ones hold the timings); transfers keep the
 * newest. The GIL protects everything here. */
#include "gpu/objects.h"

#include <string.h>

#define MAX_LAUNCHES 1024
#define MAX_TIMED 256
#define MAX_TRANSFERS 4096

typedef struct {
    kg_launch_info info;
    char kernel[128];         /* info.kernel points here */
    CUevent start, stop;      /* owned by the slot, reused */
    uint64_t event_generation;
    uint64_t generation;      /* context generation when launched */
    uint64_t host_ns;         /* simulated launches: the host's time for the whole grid */
    int timed;
} launch_slot;

typedef struct {
    kg_direction direction;
    size_t bytes;
    uint64_t elapsed_ns;
    int async;
} transfer_slot;

static launch_slot launches[MAX_LAUNCHES];
static size_t launch_count, launches_dropped;
static transfer_slot transfers[MAX_TRANSFERS];
static size_t transfer_first, transfer_count, transfers_dropped;
static int profiling = 1;

void kg_record_transfer(kg_direction direction, size_t bytes, uint64_t elapsed_ns, int async) {
    if (!profiling)
        return;
    if (transfer_count == MAX_TRANSFERS) {
        transfer_first = (transfer_first + 1) % MAX_TRANSFERS;
        transfer_count--;
        transfers_dropped++;
    }
    transfers[(transfer_first + transfer_count++) % MAX_TRANSFERS] =
        (transfer_slot){direction, bytes, elapsed_ns, async};
}

/* Makes sure the slot has two events of the current context. */
static int slot_events(launch_slot *slot) {
    if (slot->start && slot->event_generation == kg_context_generation())
        return 0;
    slot->start = slot->stop = NULL; /* old ones died with their context */
    if (kg_cu.EventCreate(&slot->start, 0) != CUDA_SUCCESS ||
        kg_cu.EventCreate(&slot->stop, 0) != CUDA_SUCCESS) {
        if (slot->start)
            kg_cu.EventDestroy(slot->start);
        slot->start = slot->stop = NULL;
        return -1;
    }
    slot->event_generation = kg_context_generation();
    return 0;
}

int kg_record_launch_begin(const kg_launch_info *info, CUstream stream) {
    if (!profiling)
        return -1;
    if (launch_count == MAX_LAUNCHES) {
        launches_dropped++;
        return -1;
    }
    int index = (int)launch_count++;
    launch_slot *slot = &launches[index];
    slot->info = *info;
    snprintf(slot->kernel, sizeof slot->kernel, "%s", info->kernel);
    slot->info.kernel = slot->kernel;
    slot->generation = kg_context_generation();
    slot->host_ns = 0;
    slot->timed = index < MAX_TIMED && !info->simulated && kg_driver_mode() == KG_MODE_GPU &&
                  slot_events(slot) == 0 && kg_cu.EventRecord(slot->start, stream) == CUDA_SUCCESS;
    return index;
}

/* Every simulated launch's work, never taken: %timeit and %compare read
 * the difference over their runs (cuda_sim_totals), and leave the
 * records to the footer. */
static struct {
    uint64_t launches, host_ns, flops32, flops64, global_bytes, shared_bytes, host_bytes;
} sim_totals;

void kg_record_sim_launch(const kg_launch_info *info, uint64_t host_ns) {
    sim_totals.launches++;
    sim_totals.host_ns += host_ns;
    sim_totals.flops32 += info->work.flops32;
    sim_totals.flops64 += info->work.flops64;
    sim_totals.global_bytes += info->work.global_bytes;
    sim_totals.shared_bytes += info->work.shared_bytes;
    sim_totals.host_bytes += info->host_bytes;
    int index = kg_record_launch_begin(info, NULL);
    if (index >= 0)
        launches[index].host_ns = host_ns;
}

void kg_record_launch_end(int index, CUstream stream) {
    if (index < 0)
        return;
    launch_slot *slot = &launches[index];
    if (slot->timed && kg_cu.EventRecord(slot->stop, stream) != CUDA_SUCCESS)
        slot->timed = 0;
}

/* Kernel time of a finished slot in ms, or None if it was not timed or its
 * context is gone. Waits for the kernel to finish. */
static PyObject *slot_kernel_ms(launch_slot *slot) {
    if (!slot->timed || slot->generation != kg_context_generation())
        Py_RETURN_NONE;
    float ms = 0;
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    r = kg_cu.EventSynchronize(slot->stop);
    Py_END_ALLOW_THREADS
    if (r != CUDA_SUCCESS || kg_cu.EventElapsedTime(&ms, slot->start, slot->stop) != CUDA_SUCCESS)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(ms);
}

/* An int field, or None where the simulator has no such fact. */
static PyObject *gpu_int(const kg_launch_info *i, int value) {
    return i->simulated ? Py_NewRef(Py_None) : PyLong_FromLong(value);
}

/* A simulated launch has a host time and no GPU facts (registers,
 * occupancy, kernel time): those are None rather than made up. */
static PyObject *launch_dict(launch_slot *slot) {
    const kg_launch_info *i = &slot->info;
    PyObject *ms = slot_kernel_ms(slot);
    PyObject *occupancy = i->occupancy < 0 || i->simulated ? Py_NewRef(Py_None) : PyFloat_FromDouble(i->occupancy);
    PyObject *host_ms = i->simulated ? PyFloat_FromDouble(slot->host_ns * 1e-6) : Py_NewRef(Py_None);
    PyObject *registers = gpu_int(i, i->registers), *local_bytes = gpu_int(i, i->local_bytes);
    PyObject *work = !i->simulated ? Py_NewRef(Py_None)
                     : Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "flops32", (unsigned long long)i->work.flops32,
                                     "flops64", (unsigned long long)i->work.flops64, "global_bytes",
                                     (unsigned long long)i->work.global_bytes, "shared_bytes",
                                     (unsigned long long)i->work.shared_bytes, "host_bytes",
                                     (unsigned long long)i->host_bytes);
    if (!ms || !occupancy || !host_ms || !registers || !local_bytes || !work) {
        Py_XDECREF(work);
        Py_XDECREF(ms);
        Py_XDECREF(occupancy);
        Py_XDECREF(host_ms);
        Py_XDECREF(registers);
        Py_XDECREF(local_bytes);
        return NULL;
    }
    /* N steals each object, also when building fails. */
    return Py_BuildValue("{s:s,s:(III),s:(III),s:I,s:N,s:N,s:N,s:N,s:O,s:N,s:N}", "kernel", i->kernel, "grid",
                         i->grid[0], i->grid[1], i->grid[2], "block", i->block[0], i->block[1],
                         i->block[2], "shared_bytes", i->shared_bytes, "registers", registers,
                         "local_bytes", local_bytes, "occupancy", occupancy, "kernel_ms", ms,
                         "simulated", i->simulated ? Py_True : Py_False, "host_ms", host_ms, "work", work);
}

static const char *direction_name(kg_direction d) {
    return d == KG_HOST_TO_DEVICE ? "htod" : d == KG_DEVICE_TO_HOST ? "dtoh" : "dtod";
}

/* Appends item (a new reference, may be NULL) to list; 0 or -1. */
static int append_new(PyObject *list, PyObject *item) {
    int status = item ? PyList_Append(list, item) : -1;
    Py_XDECREF(item);
    return status;
}

static PyObject *py_take_records(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    PyObject *launch_list = PyList_New(0), *transfer_list = PyList_New(0);
    if (!launch_list || !transfer_list)
        goto fail;
    for (size_t i = 0; i < launch_count; i++)
        if (append_new(launch_list, launch_dict(&launches[i])) < 0)
            goto fail;
    launch_count = 0;
    for (; transfer_count; transfer_count--, transfer_first = (transfer_first + 1) % MAX_TRANSFERS) {
        transfer_slot *t = &transfers[transfer_first];
        if (append_new(transfer_list, Py_BuildValue("{s:s,s:n,s:d,s:O}", "direction",
                                                    direction_name(t->direction), "bytes",
                                                    (Py_ssize_t)t->bytes, "seconds", t->elapsed_ns * 1e-9,
                                                    "async", t->async ? Py_True : Py_False)) < 0)
            goto fail;
    }
    PyObject *result = Py_BuildValue("{s:N,s:N,s:n,s:n}", "launches", launch_list, "transfers", transfer_list,
                                     "launches_dropped", (Py_ssize_t)launches_dropped, "transfers_dropped",
                                     (Py_ssize_t)transfers_dropped);
    launches_dropped = transfers_dropped = 0;
    return result;
fail:
    Py_XDECREF(launch_list);
    Py_XDECREF(transfer_list);
    return NULL;
}

static PyObject *py_set_profiling(PyObject *self, PyObject *arg) {
    (void)self;
    int enable = PyObject_IsTrue(arg);
    if (enable < 0)
        return NULL;
    int previous = profiling;
    profiling = enable;
    return PyBool_FromLong(previous);
}

static PyObject *py_sim_totals(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return Py_BuildValue("{s:K,s:d,s:K,s:K,s:K,s:K,s:K}", "launches", (unsigned long long)sim_totals.launches,
                         "host_ms", sim_totals.host_ns * 1e-6, "flops32", (unsigned long long)sim_totals.flops32,
                         "flops64", (unsigned long long)sim_totals.flops64, "global_bytes",
                         (unsigned long long)sim_totals.global_bytes, "shared_bytes",
                         (unsigned long long)sim_totals.shared_bytes, "host_bytes",
                         (unsigned long long)sim_totals.host_bytes);
}

static PyMethodDef methods[] = {
    {"cuda_take_records", py_take_records, METH_NOARGS,
     "Returns and forgets the launch and transfer records: {launches, transfers, *_dropped}."},
    {"cuda_sim_totals", py_sim_totals, METH_NOARGS,
     "Simulated launches so far, with their host time and work summed: {launches, host_ms, flops32, ...}."},
    {"cuda_set_profiling", py_set_profiling, METH_O,
     "Turns launch/transfer records on or off; returns the previous setting."},
    {NULL, NULL, 0, NULL},
};

int kg_records_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
