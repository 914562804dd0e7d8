/* cuda_ptx_from_ir: PTX from LLVM IR text, for tests, benchmarks and
 * hand-written kernels until kiln.cuda.jit lowers Python to IR. The IR is
 * parsed into a fresh context, extra IR (e.g. cuda_xoroshiro_ir()) is linked
 * in, the named functions are marked as kernels, and kg_ptx_from_module
 * does the rest. */
#include "gpu/objects.h"
#include "gpu/targets.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

static int parse_ir(LLVMContextRef ctx, const char *text, size_t len, const char *name,
                    LLVMModuleRef *module, kg_error *err) {
    LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, len, name);
    char *message = NULL;
    if (LLVMParseIRInContext(ctx, buffer, module, &message)) { /* takes buffer */
        kg_error_set(err, KG_ERR_LLVM, 0, "%s is not valid LLVM IR: %s", name, message ? message : "");
        LLVMDisposeMessage(message);
        return -1;
    }
    return 0;
}

/* The work, without the GIL: every LLVM object here is private to the call. */
typedef struct {
    const char *ir;
    size_t ir_len;
    const char **link;
    size_t *link_len;
    Py_ssize_t n_link;
    const char **kernels;
    Py_ssize_t n_kernels;
    kg_ptx_options options;
    char *ptx;
    kg_error err;
} ptx_job;

static int run_job(ptx_job *job) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = NULL;
    int status = parse_ir(ctx, job->ir, job->ir_len, "kernel IR", &module, &job->err);
    for (Py_ssize_t i = 0; status == 0 && i < job->n_link; i++) {
        LLVMModuleRef extra;
        status = parse_ir(ctx, job->link[i], job->link_len[i], "linked IR", &extra, &job->err);
        if (status == 0 && LLVMLinkModules2(module, extra)) /* destroys extra */
            status = kg_error_set(&job->err, KG_ERR_LLVM, 0, "linking IR module %zd failed", i);
    }
    for (Py_ssize_t i = 0; status == 0 && i < job->n_kernels; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(module, job->kernels[i]);
        if (!fn || LLVMIsDeclaration(fn))
            status = kg_error_set(&job->err, KG_ERR_INVALID, 0, "the IR defines no function '%s'", job->kernels[i]);
        else
            kg_ptx_mark_kernel(module, fn);
    }
    if (status == 0)
        status = kg_ptx_from_module(module, &job->options, &job->ptx, &job->err);
    if (module)
        LLVMDisposeModule(module);
    LLVMContextDispose(ctx);
    return status;
}

/* Fills names/lengths from a sequence of str; returns a new list that owns
 * the strings while their UTF-8 is in use, or NULL. */
static PyObject *utf8_list(PyObject *seq, const char *what, const char ***names, size_t **lengths,
                           Py_ssize_t *n) {
    PyObject *list = PySequence_List(seq);
    if (!list)
        return NULL;
    *n = PyList_GET_SIZE(list);
    *names = calloc(*n + 1, sizeof **names);
    *lengths = calloc(*n + 1, sizeof **lengths);
    if (!*names || !*lengths) {
        Py_DECREF(list);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        Py_ssize_t len;
        (*names)[i] = PyUnicode_Check(PyList_GET_ITEM(list, i))
                          ? PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(list, i), &len) : NULL;
        if (!(*names)[i]) {
            Py_DECREF(list);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "%s must be a sequence of str", what);
            return NULL;
        }
        (*lengths)[i] = (size_t)len;
    }
    return list;
}

static PyObject *py_ptx_from_ir(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *keywords[] = {"ir", "kernels", "link", "cc", "opt", "fast_math", NULL};
    ptx_job job;
    memset(&job, 0, sizeof job);
    PyObject *kernels_obj, *link_obj = NULL;
    Py_ssize_t ir_len;
    job.options.opt_level = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#O|Oiip", keywords, &job.ir, &ir_len, &kernels_obj,
                                     &link_obj, &job.options.compute_capability, &job.options.opt_level,
                                     &job.options.fast_math))
        return NULL;
    job.ir_len = (size_t)ir_len;
    if (job.options.compute_capability < 0)
        job.options.compute_capability = 0;
    size_t *kernel_len = NULL;
    PyObject *kernel_list = utf8_list(kernels_obj, "kernels", &job.kernels, &kernel_len, &job.n_kernels);
    PyObject *link_list = kernel_list && link_obj
                              ? utf8_list(link_obj, "link", &job.link, &job.link_len, &job.n_link) : NULL;
    PyObject *result = NULL;
    if (kernel_list && (!link_obj || link_list)) {
        if (job.options.compute_capability == 0) /* asks the driver: needs the GIL */
            job.options.compute_capability = kg_ptx_default_sm();
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = run_job(&job);
        Py_END_ALLOW_THREADS
        result = status == 0 ? PyUnicode_FromString(job.ptx) : kg_raise(&job.err);
    }
    free(job.ptx);
    free(job.kernels);
    free(kernel_len);
    free(job.link);
    free(job.link_len);
    Py_XDECREF(kernel_list);
    Py_XDECREF(link_list);
    return result;
}

static PyObject *py_libdevice_path(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    const char *path = kg_libdevice_path();
    if (!path)
        Py_RETURN_NONE;
    return PyUnicode_FromString(path);
}

static PyMethodDef methods[] = {
    {"cuda_ptx_from_ir", (PyCFunction)(void (*)(void))py_ptx_from_ir, METH_VARARGS | METH_KEYWORDS,
     "cuda_ptx_from_ir(ir, kernels, link=(), cc=0, opt=3, fast_math=False) -> PTX text"},
    {"cuda_libdevice_path", py_libdevice_path, METH_NOARGS, "The libdevice.10.bc Kiln links, or None."},
    {NULL, NULL, 0, NULL},
};

int kg_ptx_py_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
