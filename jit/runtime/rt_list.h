/* rt_list: the list runtime compiled code calls (rt_list.c). Functions
 * returning int32 give 0, or -1 when memory is exhausted. Indices are
 * checked by the generated code before these are called. */
#ifndef KILN_JIT_RT_LIST_H
#define KILN_JIT_RT_LIST_H

#include <stdint.h>

/* The header inside a list's block (rt_list.c and the generated code). */
typedef struct {
    int64_t n, cap, itemsize;
    char *items;
    int64_t owners;   /* 1: every item is an array, whose owner (its first word) the list holds a reference on */
} kj_list_header;

/* The header of list owner (boxing.c compares a list passed in with its copy). */
kj_list_header *kj_list_header_of(void *owner);
/* A new empty list (an owner, nrt.h) with room for cap items; NULL when
 * out of memory. itemsize 0: set by the first append. */
void *kj_list_new(int64_t itemsize, int64_t cap);
int32_t kj_list_reserve(void *owner, int64_t n, int64_t itemsize);
int32_t kj_list_append(void *owner, const void *item, int64_t itemsize);
/* Python's insert: i clamped to the list. */
int32_t kj_list_insert(void *owner, int64_t i, const void *item, int64_t itemsize);
void kj_list_remove_at(void *owner, int64_t i);
int32_t kj_list_extend(void *owner, void *other, int64_t itemsize);
/* list.clear(): the items' references given back. */
void kj_list_clear(void *owner);
/* A new list of len items from start by step; NULL when out of memory. */
void *kj_list_slice(void *owner, int64_t start, int64_t len, int64_t step, int64_t itemsize);
/* Sorts in place as Python does (stable, reverse keeps equal items in
 * order); -1 when out of memory. fields: how to compare items, field by
 * field, each KJ_LIST_FIELD(kind, size, offset) with kind 'i' signed, 'u'
 * unsigned or bool, 'f' float; a tuple item has one per number in it. */
int32_t kj_list_sort(void *owner, const int64_t *fields, int64_t nfields, int64_t reverse);
#define KJ_LIST_FIELD(kind, size, offset) ((int64_t)(kind) | (int64_t)(size) << 8 | (int64_t)(offset) << 16)
void kj_list_reverse(void *owner);

#define KJ_RT_LIST_SYMBOLS                                  \
    {"kj_list_new", (void *)kj_list_new},                   \
    {"kj_list_reserve", (void *)kj_list_reserve},           \
    {"kj_list_append", (void *)kj_list_append},             \
    {"kj_list_insert", (void *)kj_list_insert},             \
    {"kj_list_remove_at", (void *)kj_list_remove_at},       \
    {"kj_list_extend", (void *)kj_list_extend},             \
    {"kj_list_clear", (void *)kj_list_clear},               \
    {"kj_list_slice", (void *)kj_list_slice},               \
    {"kj_list_sort", (void *)kj_list_sort},                 \
    {"kj_list_reverse", (void *)kj_list_reverse},

#endif
