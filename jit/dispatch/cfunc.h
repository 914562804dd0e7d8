/* cfunc: kiln.cfunc, a kiln function behind a plain C function pointer
 * (Numba's @cfunc), for C libraries and scipy.LowLevelCallable. The
 * function is compiled for its one signature as any kiln function is;
 * cfunc.c adds a wrapper with the C calling convention, which becomes the
 * Specialization's entry. */
#ifndef KILN_JIT_CFUNC_H
#define KILN_JIT_CFUNC_H

#include <stddef.h>

#include "jit/core/unit.h"

/* An entry hook of the compile driver (compile.h). If `top`'s dispatcher is a
 * cfunc (its _kiln_cfunc attribute is true), defines `ret <symbol>_cfunc(
 * args...)` in u->mod and writes its name into entry_name. Returns 0 (also
 * when it is none), or -1 with u->err filled (a type C cannot pass). */
int kj_cfunc_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size);

#endif
