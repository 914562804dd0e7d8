/* print() in simulated kernels: CUDA's vprintf (jit/lower/lower_printf.c
 * makes the format and the 8-byte argument slots), formatted as a GPU
 * formats it, so that the simulator shows what the GPU would print. The
 * text goes to sys.stdout, so a notebook shows it in the cell that launched
 * the kernel, thread by thread in the simulator's order. */
#include <Python.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

/* Formats format's conversions (only those lower_printf.c makes: %lld,
 * %llu, %f, %s and %%) from slots into out. */
static void format_slots(FILE *out, const char *format, const uint64_t *slots) {
    for (const char *p = format; *p; p++) {
        if (*p != '%') {
            fputc(*p, out);
            continue;
        }
        p++;
        if (strncmp(p, "lld", 3) == 0) {
            fprintf(out, "%lld", (long long)*slots++);
            p += 2;
        } else if (strncmp(p, "llu", 3) == 0) {
            fprintf(out, "%llu", (unsigned long long)*slots++);
            p += 2;
        } else if (*p == 'f') {
            double d;
            memcpy(&d, slots++, sizeof d);
            fprintf(out, "%f", d);
        } else if (*p == 's') {
            const char *s;
            memcpy(&s, slots++, sizeof s);
            fputs(s, out);
        } else {
            fputc(*p, out);   /* %% */
            if (!*p)
                break;
        }
    }
}

int32_t kiln_sim_vprintf(const char *format, const void *slots) {
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return -1;
    format_slots(out, format, slots);
    fclose(out);
    PyGILState_STATE g = PyGILState_Ensure();   /* launches run without it (sim_py.c) */
    PyObject *stdout_ = PySys_GetObject("stdout");   /* borrowed */
    if (!stdout_ || PyFile_WriteString(text, stdout_) < 0)
        PyErr_WriteUnraisable(stdout_);   /* print has no way to fail the kernel */
    PyGILState_Release(g);
    free(text);
    return (int32_t)size;
}
