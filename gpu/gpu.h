/* gpu: the CUDA target (NVPTX lowering hooks, libdevice, the Driver API
 * loaded with dlopen, device arrays, launches, events) and the CPU simulator.
 * Public names are prefixed kg_. */
#ifndef KILN_GPU_H
#define KILN_GPU_H

#include <Python.h>

/* Adds the GPU functions and types to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kg_module_init(PyObject *module);

#endif
