/* source: the text of a function to compile, from linecache (files and
 * notebook cells), and its free variables. */
#ifndef KILN_JIT_SOURCE_H
#define KILN_JIT_SOURCE_H

#include <Python.h>
#include <stdbool.h>

#include "jit/core/ir.h"

/* Sets f->filename, f->first_line and f->source_lines from the code object.
 * Returns 0, or -1 (with a Python exception set, or none found). */
int kj_load_source(kj_function *f, PyObject *code);

/* The function's block of lines (from its first decorator to its last
 * indented line; one line for a lambda), dedented, as one string; sets the
 * offsets that map the parser's positions back to the file. NULL if absent. */
PyObject *kj_source_block(kj_function *f, bool is_lambda, int *line_offset, int *col_offset);

/* The first Lambda node in a parsed module (borrowed from it), or NULL. */
PyObject *kj_find_lambda(PyObject *mod);

/* {name: value} of the function's free variables, or NULL when it has
 * none. Returns 0, or -1 with a Python exception set. */
int kj_closure_values(PyObject *py_func, PyObject *code, PyObject **out);

#endif
