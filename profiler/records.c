/* The profiler's compile records: an append-only array under a mutex
 * (compiles may finish on any thread). Nothing is ever freed: readers may
 * keep pointers to record strings. Call records are in calls.c. */
#include "profiler/profiler.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Protects compile_records, compile_count and compile_capacity. */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;
static kp_compile_record *compile_records;
static size_t compile_count;
static size_t compile_capacity;

static const char *const phase_names[KP_PHASE_COUNT] = {
    [KP_PHASE_PARSE] = "parse",       [KP_PHASE_TYPING] = "typing",
    [KP_PHASE_LOWERING] = "lowering", [KP_PHASE_OPTIMIZE] = "optimize",
    [KP_PHASE_CODEGEN] = "codegen",
};

const char *kp_phase_name(kp_phase phase) {
    return (unsigned)phase < KP_PHASE_COUNT ? phase_names[phase] : "?";
}

static char *copy_or_empty(const char *s) { return strdup(s ? s : ""); }

void kp_record_compile(const kp_compile_record *record) {
    if (!record)
        return;
    kp_compile_record copy = *record;
    copy.function = copy_or_empty(record->function);
    copy.signature = copy_or_empty(record->signature);
    copy.target = copy_or_empty(record->target);
    if (!copy.function || !copy.signature || !copy.target)
        goto dropped;

    pthread_mutex_lock(&compile_lock);
    if (compile_count == compile_capacity) {
        size_t capacity = compile_capacity ? 2 * compile_capacity : 64;
        kp_compile_record *grown = realloc(compile_records, capacity * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&compile_lock);
            goto dropped;
        }
        compile_records = grown;
        compile_capacity = capacity;
    }
    compile_records[compile_count++] = copy;
    pthread_mutex_unlock(&compile_lock);
    return;

dropped:
    free((char *)copy.function);
    free((char *)copy.signature);
    free((char *)copy.target);
}

size_t kp_compile_count(void) {
    pthread_mutex_lock(&compile_lock);
    size_t n = compile_count;
    pthread_mutex_unlock(&compile_lock);
    return n;
}

int kp_compile_at(size_t index, kp_compile_record *out) {
    int found = -1;
    pthread_mutex_lock(&compile_lock);
    if (index < compile_count) {
        *out = compile_records[index];
        found = 0;
    }
    pthread_mutex_unlock(&compile_lock);
    return found;
}
