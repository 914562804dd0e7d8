/* ufunc: kiln.vectorize and kiln.guvectorize as real NumPy ufuncs. A kernel
 * is compiled like any kiln function, plus an inner loop in LLVM IR
 * (ufunc_loop.c); ufunc.c hands those loops to NumPy's C API, and for the
 * 'parallel' target splits each loop call across the thread pool. */
#ifndef KILN_JIT_UFUNC_H
#define KILN_JIT_UFUNC_H

#include <stdbool.h>
#include <stddef.h>

#include "jit/core/unit.h"

/* Operands of one ufunc (inputs + outputs), and core dimensions of one. */
#define KJ_UFUNC_MAX_OPS 32
#define KJ_UFUNC_MAX_CORE 8

/* How a kernel's parameters map onto NumPy's loop arguments. Elementwise
 * (vectorize): every parameter is a scalar input, the return value is the
 * one output. Generalized (guvectorize): parameters are the inputs then the
 * outputs; parameter k has ncore[k] core dimensions, numbered core[k][j] in
 * order of first appearance in the layout string, as NumPy numbers them. */
typedef struct {
    bool generalized;
    int ncore[KJ_UFUNC_MAX_OPS];
    int core[KJ_UFUNC_MAX_OPS][KJ_UFUNC_MAX_CORE];
} kj_ufunc_layout;

/* An entry hook of the compile driver (compile.h). If `top`'s dispatcher is a
 * ufunc kernel (it has a _kiln_ufunc attribute: ("vectorize",) or
 * ("guvectorize", ((dim, ...), ...))), adds its loop to u->mod and writes
 * the loop's name into entry_name: the Specialization's entry is then the
 * loop. Returns 0 (also when it is no kernel), or -1 with u->err filled. */
int kj_ufunc_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size);

/* Defines `i32 <symbol>_ufunc(ptr args, ptr dims, ptr steps, ptr)` calling
 * in's function per element, and writes its name into name. */
int kj_ufunc_define_loop(kj_unit *u, kj_instance *in, const kj_ufunc_layout *lay, char *name,
                         size_t name_size);

/* Adds make_ufunc to the _kiln module. */
int kj_ufunc_init(PyObject *module);

#endif
