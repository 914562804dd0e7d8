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

/* The function's definition, a FunctionDef (or for a lambda the first
 * Lambda of its line), from its whole file or cell as CPython parses it: in
 * *def (a new reference, to a tree later compiles read again: never
 * changed), or NULL where none starts at its first line (the text was
 * edited since). Sets the offsets that map the parser's positions
 * to the file's. -1 (no exception) where the text cannot be parsed. */
int kj_source_def(kj_function *f, bool is_lambda, int *line_offset, int *col_offset, PyObject **def);

/* {name: value} of the function's free variables, or NULL when it has
 * none. Returns 0, or -1 with a Python exception set. */
int kj_closure_values(PyObject *py_func, PyObject *code, PyObject **out);

#endif
