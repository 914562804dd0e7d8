/* module: the jit layer's part of the _kiln module (Dispatcher,
 * Specialization, compile, typeof_spec, TypingError, UnsupportedError), and
 * the process-wide set-up done once at import: NumPy's C API, the SIGINT
 * handler that lets compiled loops be interrupted, and LLVM's own start-up
 * on a background thread (engine.c). */
#include "jit/core/numpy_api.h"

#include "jit/dispatch/cfunc.h"
#include "jit/dispatch/ufunc.h"
#include "jit/engine/compile.h"
#include "jit/engine/engine.h"
#include "jit/frontend/exec_texts.h"
#include "jit/frontend/frontend.h"
#include "jit/core/errors.h"
#include "jit/runtime/fault.h"
#include "jit/jit.h"
#include "jit/lower/stream_stores.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/runtime.h"

int kj_dispatch_init(PyObject *module);
int kj_parallel_module_init(PyObject *module);   /* parallel_module.c */

static PyObject *stream_min_bytes_py(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    kj_stream_init();
    return PyLong_FromLongLong(kj_stream_min_bytes);
}

static PyObject *compile_doing_py(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    const char *doing = kj_engine_doing();
    return doing ? PyUnicode_FromString(doing) : Py_NewRef(Py_None);
}

static PyMethodDef module_methods[] = {
    {"compile_doing", compile_doing_py, METH_NOARGS,
     "compile_doing() -> str or None: what LLVM is doing for a compile now, on another thread "
     "(\"optimizing\", \"generating machine code\"): those steps run without the GIL."},
    {"stream_min_bytes", stream_min_bytes_py, METH_NOARGS,
     "stream_min_bytes() -> int: the bytes an array expression must touch (its operands and its new "
     "result) for the result to be written with streaming stores, past the cache."},
    {NULL, NULL, 0, NULL},
};

int kj_module_init(PyObject *module) {
    if (kj_numpy_api_import() < 0 || PyModule_AddFunctions(module, module_methods) < 0 || kj_errors_init(module) < 0 || kj_compile_init(module) < 0 ||
        kj_exec_texts_init(module) < 0 || kj_globals_init(module) < 0 ||
        kj_dispatch_init(module) < 0 || kj_nrt_module_init(module) < 0 ||
        kj_parallel_module_init(module) < 0 ||
        kj_install_interrupt_handler() < 0 || kj_install_fault_handler(module) < 0)
        return -1;
    kj_compile_add_entry_hook(kj_ufunc_compile_hook);   /* a vectorize / guvectorize kernel's entry is its ufunc loop */
    kj_compile_add_entry_hook(kj_cfunc_compile_hook);   /* kiln.cfunc: a C function */
    kj_engine_warm_up();
    return 0;
}
