/* _kiln.host_info(): what LLVM believes about the host, for %kiln_sysinfo and
 * `kiln-kernel --sysinfo` (the counterpart of `numba -s`). Asking LLVM rather
 * than /proc/cpuinfo shows the CPU name and features the compiler targets. */
#define PY_SSIZE_T_CLEAN
#include "profiler/profiler.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

/* Moves an LLVM-allocated message into a new Python str (NULL on error). */
static PyObject *take_message(char *message) {
    PyObject *s = PyUnicode_FromString(message ? message : "");
    LLVMDisposeMessage(message);
    return s;
}

static PyObject *host_info(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    unsigned major = 0, minor = 0, patch = 0;
    LLVMGetVersion(&major, &minor, &patch);
    PyObject *cpu = take_message(LLVMGetHostCPUName());
    PyObject *features = take_message(LLVMGetHostCPUFeatures());
    PyObject *triple = take_message(LLVMGetDefaultTargetTriple());
    PyObject *info = NULL;
    if (cpu && features && triple)
        info = Py_BuildValue("{s:O,s:O,s:O,s:(III)}", "cpu_name", cpu, "cpu_features", features,
                             "target_triple", triple, "llvm_version", major, minor, patch);
    Py_XDECREF(cpu);
    Py_XDECREF(features);
    Py_XDECREF(triple);
    return info;
}

static PyMethodDef hostinfo_methods[] = {
    {"host_info", host_info, METH_NOARGS,
     "host_info() -> {cpu_name, cpu_features ('+avx2,-avx512f,...'), target_triple, "
     "llvm_version (major, minor, patch)} as LLVM sees the host."},
    {NULL, NULL, 0, NULL},
};

int kp_hostinfo_init(PyObject *module) { return PyModule_AddFunctions(module, hostinfo_methods); }
