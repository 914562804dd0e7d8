/* exec_texts: the texts of code lately compiled from strings (exec(),
 * compile()), kept by an audit hook; _kiln.compiled_texts(name) reads them. */
#ifndef KILN_JIT_EXEC_TEXTS_H
#define KILN_JIT_EXEC_TEXTS_H

#include <Python.h>

/* Adds compiled_texts to the module and installs the hook. */
int kj_exec_texts_init(PyObject *module);

#endif
