/* errors: the error record every compiler phase fills instead of raising,
 * and its conversion into the Python exception a user reads. */
#ifndef KILN_JIT_ERRORS_H
#define KILN_JIT_ERRORS_H

#include <Python.h>

typedef enum {
    KJ_ERR_NONE,
    KJ_ERR_TYPING,        /* kiln.TypingError */
    KJ_ERR_UNSUPPORTED,   /* kiln.UnsupportedError */
    KJ_ERR_PYTHON,        /* a Python exception is already set */
    KJ_ERR_INTERNAL,      /* a bug or LLVM failure: RuntimeError */
} kj_err_kind;

typedef struct {
    kj_err_kind kind;
    int line, col;        /* file line (1-based) and column, or 0 */
    char what[600];       /* what was found */
    char hint[300];       /* the suggested fix, may be empty */
} kj_error;

struct kj_function;

/* Fills e (only if it holds no error yet, so the first cause wins) and
 * returns -1, so phases can `return kj_fail(...)`. */
int kj_fail(kj_error *e, kj_err_kind kind, int line, int col, const char *hint,
            const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Sets the Python exception for e: the function, file/cell, line:col, the
 * source line with a caret, what was found and the hint. f may be NULL. */
void kj_error_set_python(const kj_error *e, const struct kj_function *f);

/* The exception classes, created by kj_errors_init (module.c). */
extern PyObject *kj_TypingError, *kj_UnsupportedError;
int kj_errors_init(PyObject *module);

#endif
