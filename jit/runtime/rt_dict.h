/* rt_dict: the dict runtime compiled code calls (rt_dict.c). Keys and
 * values are fixed-size byte strings (numbers, tuples of numbers) the
 * generated code lays out; a float key arrives with -0.0 made 0.0, so
 * that equal keys have equal bytes. Functions returning int32 give 0, or
 * -1 when memory is exhausted. */
#ifndef KILN_JIT_RT_DICT_H
#define KILN_JIT_RT_DICT_H

#include <stdint.h>

/* The header inside a dict's block (rt_dict.c). */
typedef struct {
    int64_t n;                  /* live items */
    int64_t used, cap;          /* entries made (live or removed), and room */
    int64_t filled;             /* slots that are not empty: live entries' and tombstones */
    int64_t first;              /* no live entry comes before this one (set.pop) */
    int64_t keysize, valsize;   /* bytes of a key and of a value */
    int64_t mask;               /* slots - 1 */
    int64_t *slots;             /* entry indices, -1 where empty */
    char *entries;
    int64_t owners;             /* values are arrays: each starts with its owner, on which the dict holds a reference */
} kj_dict_header;

/* A new empty dict (an owner, nrt.h); NULL when out of memory. Sizes 0:
 * set by the first store (`{}`). */
void *kj_dict_new(int64_t keysize, int64_t valsize);
/* The value stored under key, or NULL. */
void *kj_dict_get(void *owner, const void *key);
/* The value slot for key, added (with *fresh = 1, its bytes for the
 * caller to write) when absent; NULL when out of memory. */
void *kj_dict_put(void *owner, const void *key, int64_t keysize, int64_t valsize, int32_t *fresh);
/* Removes key, its value copied to value_out (with the dict's reference,
 * where values are arrays): 1, or 0 when absent. */
int32_t kj_dict_pop(void *owner, const void *key, void *value_out);
/* Removes the last item inserted, copied to key_out and value_out: 1, or 0
 * when empty (dict.popitem, set.pop). */
int32_t kj_dict_pop_last(void *owner, void *key_out, void *value_out);
/* Removes the first item in order, copied to key_out: 1, or 0 when empty
 * (set.pop: the item a loop would give first, as in Python). */
int32_t kj_set_pop_first(void *owner, void *key_out);
void kj_dict_clear(void *owner);
/* A new dict with the same items; NULL when out of memory. */
void *kj_dict_copy(void *owner);
/* Makes the live entries the first len ones, in insertion order, for a
 * loop over them; returns len, or -1 when out of memory. */
int64_t kj_dict_compact(void *owner);
/* Entry i's key and value (0 <= i < the length kj_dict_compact gave). */
void *kj_dict_entry_key(void *owner, int64_t i);
void *kj_dict_entry_value(void *owner, int64_t i);

#define KJ_RT_DICT_SYMBOLS                                    \
    {"kj_dict_new", (void *)kj_dict_new},                     \
    {"kj_dict_get", (void *)kj_dict_get},                     \
    {"kj_dict_put", (void *)kj_dict_put},                     \
    {"kj_dict_pop", (void *)kj_dict_pop},                     \
    {"kj_dict_pop_last", (void *)kj_dict_pop_last},           \
    {"kj_set_pop_first", (void *)kj_set_pop_first},           \
    {"kj_dict_clear", (void *)kj_dict_clear},                 \
    {"kj_dict_copy", (void *)kj_dict_copy},                   \
    {"kj_dict_compact", (void *)kj_dict_compact},             \
    {"kj_dict_entry_key", (void *)kj_dict_entry_key},         \
    {"kj_dict_entry_value", (void *)kj_dict_entry_value},

#endif
