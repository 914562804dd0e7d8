/* profiler: timing records of compiles, calls, launches and transfers, kept
 * per process so that the notebook face (kiln.ipython) can show per cell what
 * was compiled and how long compiled code ran. Public names are prefixed kp_.
 *
 * Thread safety: every kp_record_* may be called from any thread, with or
 * without the GIL held. */
#ifndef KILN_PROFILER_H
#define KILN_PROFILER_H

#include <Python.h>
#include <stdint.h>

typedef enum {
    KP_PHASE_PARSE,     /* Python source -> Kiln IR */
    KP_PHASE_TYPING,    /* type inference */
    KP_PHASE_LOWERING,  /* Kiln IR -> LLVM IR */
    KP_PHASE_OPTIMIZE,  /* LLVM pass pipeline */
    KP_PHASE_CODEGEN,   /* machine code (ORC) or PTX */
    KP_PHASE_COUNT
} kp_phase;

/* Monotonic clock in nanoseconds, cheap enough for the dispatch path. */
uint64_t kp_now_ns(void);

/* One finished compile of one function for one signature. */
typedef struct {
    const char *function;   /* qualified name, copied by the profiler */
    const char *signature;  /* e.g. "(float64, array(float64, 1d, C))", copied */
    const char *target;     /* "cpu", "cuda", "cuda-simulator", copied */
    uint64_t phase_ns[KP_PHASE_COUNT];
} kp_compile_record;

void kp_record_compile(const kp_compile_record *record);

/* Time spent inside compiled code by one call from Python (the dispatcher
 * adds it after each call returns). */
void kp_record_call(uint64_t elapsed_ns);

/* Adds the profiler's Python functions to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kp_module_init(PyObject *module);

#endif
