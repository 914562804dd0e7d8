/* kind_ops: see kind_ops.h. The linker's sections are read once into a
 * table by kind and a list. */
#include "jit/core/kind_ops.h"

#include <pthread.h>

/* The sections' bounds, defined by the linker (weak: no entry, no section). */
extern const kj_kind_ops *const __start_kiln_kind_ops[] __attribute__((weak));
extern const kj_kind_ops *const __stop_kiln_kind_ops[] __attribute__((weak));
extern const kj_stmt_lowering *const __start_kiln_stmt_lowerings[] __attribute__((weak));
extern const kj_stmt_lowering *const __stop_kiln_stmt_lowerings[] __attribute__((weak));

static const kj_kind_ops none;
static const kj_kind_ops *by_kind[KJ_KIND_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    for (const kj_kind_ops *const *e = __start_kiln_kind_ops; e < __stop_kiln_kind_ops; e++)
        by_kind[(*e)->kind] = *e;
}

const kj_kind_ops *kj_kind_ops_of(kj_kind k) {
    pthread_once(&table_once, build_table);
    return (unsigned)k < KJ_KIND_COUNT && by_kind[k] ? by_kind[k] : &none;
}

const kj_stmt_lowering *const *kj_stmt_lowerings(int *n) {
    *n = (int)(__stop_kiln_stmt_lowerings - __start_kiln_stmt_lowerings);
    return __start_kiln_stmt_lowerings;
}
