/* callables: see callables.h. The linker's section is read once into a
 * hash table by name. */
#include "jit/core/callables.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jit/core/errors.h"

/* The section's bounds, defined by the linker (weak: no entry, no section). */
extern const kj_callable *const __start_kiln_callables[] __attribute__((weak));
extern const kj_callable *const __stop_kiln_callables[] __attribute__((weak));

static const kj_callable **table;   /* open addressing, a power of two at least twice the entries */
static size_t table_mask;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static uint64_t hash_name(const char *s) {   /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void build_table(void) {
    size_t n = (size_t)(__stop_kiln_callables - __start_kiln_callables), cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    if (!(table = calloc(cap, sizeof *table)))
        return;   /* out of memory at start-up: every lookup finds nothing */
    table_mask = cap - 1;
    for (size_t i = 0; i < n; i++) {
        const kj_callable *k = __start_kiln_callables[i];
        size_t at = hash_name(k->name) & table_mask;
        for (; table[at]; at = (at + 1) & table_mask)
            if (!strcmp(table[at]->name, k->name)) {   /* one would hide the other: a defect of the source */
                fprintf(stderr, "kiln: two registry entries are named %s\n", k->name);
                abort();
            }
        table[at] = k;
    }
}

const kj_callable *kj_callable_named(const char *name) {
    pthread_once(&table_once, build_table);
    if (!table)
        return NULL;
    for (size_t at = hash_name(name) & table_mask; table[at]; at = (at + 1) & table_mask)
        if (!strcmp(table[at]->name, name))
            return table[at];
    return NULL;
}

/* The entry named prefix + m, or NULL. */
static const kj_callable *named(const char *prefix, const char *m) {
    char name[128];
    if (snprintf(name, sizeof name, "%s%s", prefix, m) >= (int)sizeof name)
        return NULL;
    return kj_callable_named(name);
}

static const kj_callable *np_named(const char *m) { return named("np.", m); }

const kj_callable *kj_np_callable(const char *m) {
    const kj_callable *k = np_named(m);
    return k && k->np_type ? k : NULL;
}

const kj_callable *kj_np_method(const char *m) {
    const kj_callable *k = named("ndarray.", m);
    return k && k->np_type ? k : NULL;
}

const kj_callable *kj_container_method(const char *prefix, const char *m) {
    char name[64];
    if (snprintf(name, sizeof name, "%s.", prefix) >= (int)sizeof name)
        return NULL;
    const kj_callable *k = named(name, m);
    return k && k->method_type ? k : NULL;
}

const kj_callable *kj_container_method_of_call(const kj_node *n) {
    if (n->kind != KJ_E_METHOD || !n->kids[0]->type)
        return NULL;
    const char *prefix = kj_kind_ops_of(n->kids[0]->type->kind)->methods;
    return prefix ? kj_container_method(prefix, n->name) : NULL;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

void kj_callable_names_under(const char *prefix, char *buf, size_t size) {
    enum { MAX = 64 };
    const char *names[MAX];
    size_t plen = strlen(prefix), n = 0;
    for (const kj_callable *const *k = __start_kiln_callables; k < __stop_kiln_callables && n < MAX; k++)
        if (!strncmp((*k)->name, prefix, plen) && (*k)->name[plen] == '.')
            names[n++] = (*k)->name + plen + 1;
    qsort(names, n, sizeof *names, by_name);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
}

const kj_callable *kj_np_ufunc(const char *m) {
    const kj_callable *k = np_named(m);
    return k && k->elem ? k : NULL;
}

const kj_callable *kj_callable_of_call(const kj_node *n) {
    if (n->kind != KJ_E_CALL || n->kids[0]->kind != KJ_E_FUNC || !n->kids[0]->name)
        return NULL;
    const kj_callable *k = kj_callable_named(n->kids[0]->name);
    return k && k->type ? k : NULL;
}

bool kj_callable_fits_target(kj_unit *u, const kj_callable *k, const kj_node *n) {
    bool device = u->target->special_reg != NULL;
    if (k->targets & (device ? KJ_ON_DEVICE : KJ_ON_HOST))
        return true;
    if (device)
        kj_fail(&u->err, KJ_ERR_TYPING, n->line, n->col, "Call it from the host function that launches the kernel.",
                "%s works only in host code, not in kiln.cuda.jit kernels and device functions", k->name);
    else
        kj_fail(&u->err, KJ_ERR_TYPING, n->line, n->col, "Decorate the function with @kiln.cuda.jit.",
                "%s works only in kiln.cuda.jit kernels and device functions", k->name);
    return false;
}
