/* rt_dict: the runtime of dicts and sets made in compiled code. A dict is
 * a block (nrt.h) whose data is a kj_dict_header: entries in insertion
 * order (a removed one stays, marked, until the table is rebuilt, unless
 * it was the last), and an open-addressed table of slots holding entry
 * indices, as CPython's compact dicts; a removed entry's slot becomes a
 * tombstone, which probes go past. A set is a dict whose values have no
 * bytes. Keys compare by their bytes (rt_dict.h). Nothing here needs the
 * GIL except kj_dict_box and kj_set_box. */
#include "jit/runtime/boxing.h"
#include "jit/runtime/fault.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_dict.h"
#include "jit/runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY (-1)
#define TOMBSTONE (-2)   /* a slot whose entry was removed */
#define REMOVED 1        /* an entry's flag word */

/* An entry: a flag word, the key, the value, each part 8-byte aligned. */
static int64_t round8(int64_t n) { return (n + 7) & ~(int64_t)7; }
static int64_t entry_size(const kj_dict_header *h) { return 8 + round8(h->keysize) + round8(h->valsize); }
static char *entry(const kj_dict_header *h, int64_t i) { return h->entries + i * entry_size(h); }
static char *key_of(char *e) { return e + 8; }
static char *value_of(const kj_dict_header *h, char *e) { return e + 8 + round8(h->keysize); }

static kj_dict_header *header(void *owner) { return kj_nrt_data(kj_nrt_block(owner)); }

static uint64_t hash_key(const void *key, int64_t size) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)size;
    const unsigned char *p = key;
    for (int64_t i = 0; i < size; i += 8) {
        uint64_t w = 0;
        memcpy(&w, p + i, (size_t)(size - i < 8 ? size - i : 8));
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

/* References on the owners of the live entries' values, where the values
 * are arrays: taken (delta 1) or given back (-1). */
static void hold_owners(kj_dict_header *h, int delta) {
    for (int64_t i = 0; h->owners && i < h->used; i++) {
        char *e = entry(h, i);
        if (*(int64_t *)e == REMOVED)
            continue;
        void *owner = *(void **)value_of(h, e);
        if (delta > 0)
            kj_nrt_incref(owner);
        else
            kj_nrt_decref(owner);
    }
}

static void free_table(kj_block_t *b) {
    kj_dict_header *h = kj_nrt_data(b);
    hold_owners(h, -1);
    free(h->slots);
    free(h->entries);
}

void *kj_dict_new(int64_t keysize, int64_t valsize) {
    kj_block_t *b = kj_nrt_alloc(sizeof(kj_dict_header));
    if (!b)
        return NULL;
    b->dtor = free_table;
    kj_dict_header *h = kj_nrt_data(b);
    memset(h, 0, sizeof *h);
    h->keysize = keysize;
    h->valsize = valsize;
    return (char *)b + 1;
}

/* The slot of key: the one holding its live entry, or the empty one where
 * it would go. */
static int64_t find_slot(const kj_dict_header *h, const void *key, uint64_t hash) {
    for (uint64_t s = hash & (uint64_t)h->mask;; s = (s + 1) & (uint64_t)h->mask) {
        int64_t i = h->slots[s];
        if (i == EMPTY)
            return (int64_t)s;
        if (i != TOMBSTONE && memcmp(key_of(entry(h, i)), key, (size_t)h->keysize) == 0)
            return (int64_t)s;
    }
}

/* Rebuilds the table with room for at least `need` entries, dropping the
 * removed ones; -1 when out of memory. */
static int rebuild(kj_dict_header *h, int64_t need) {
    int64_t cap = 8;
    while (cap < need)
        cap *= 2;
    int64_t nslots = cap * 2, esize = entry_size(h);
    if (kj_fault_refuse_if_stack_low())
        return -1;
    char *entries = malloc((size_t)(cap * esize));
    int64_t *slots = malloc(sizeof(int64_t) * (size_t)nslots);
    if (!entries || !slots) {
        free(entries);
        free(slots);
        return -1;
    }
    for (int64_t s = 0; s < nslots; s++)
        slots[s] = EMPTY;
    int64_t n = 0;
    for (int64_t i = 0; i < h->used; i++) {
        char *e = entry(h, i);
        if (*(int64_t *)e != REMOVED)
            memcpy(entries + n++ * esize, e, (size_t)esize);
    }
    free(h->entries);
    free(h->slots);
    h->entries = entries;
    h->slots = slots;
    h->cap = cap;
    h->mask = nslots - 1;
    h->used = h->n = h->filled = n;
    h->first = 0;
    for (int64_t i = 0; i < n; i++) {
        char *e = entry(h, i);
        h->slots[find_slot(h, key_of(e), hash_key(key_of(e), h->keysize))] = i;
    }
    return 0;
}

void *kj_dict_get(void *owner, const void *key) {
    kj_dict_header *h = header(owner);
    if (!h->n)
        return NULL;
    int64_t i = h->slots[find_slot(h, key, hash_key(key, h->keysize))];
    return i == EMPTY ? NULL : value_of(h, entry(h, i));
}

void *kj_dict_put(void *owner, const void *key, int64_t keysize, int64_t valsize, int32_t *fresh) {
    kj_dict_header *h = header(owner);
    if (!h->cap) {   /* `{}`: the sizes come with the first store */
        h->keysize = keysize;
        h->valsize = valsize;
    }
    *fresh = 0;
    uint64_t hash = hash_key(key, h->keysize);
    int64_t s = h->cap ? find_slot(h, key, hash) : 0;
    if (h->cap && h->slots[s] != EMPTY)
        return value_of(h, entry(h, h->slots[s]));
    /* full (or half the slots taken, tombstones included, so that a probe
     * always ends at an empty one): grow, or only drop the removed entries
     * when they are many */
    if (h->used == h->cap || h->filled == h->cap) {
        if (rebuild(h, h->n + 1 > h->cap / 2 ? h->cap * 2 : h->cap) < 0)
            return NULL;
        s = find_slot(h, key, hash);
    }
    char *e = entry(h, h->used);
    *(int64_t *)e = 0;
    memcpy(key_of(e), key, (size_t)h->keysize);
    h->slots[s] = h->used++;
    h->n++;
    h->filled++;
    *fresh = 1;
    return value_of(h, e);
}

/* Removes the entry of slot s; a removed entry at the end is forgotten,
 * so that popping from the end takes no longer as the dict empties. */
static void remove_at(kj_dict_header *h, int64_t s) {
    *(int64_t *)entry(h, h->slots[s]) = REMOVED;
    h->slots[s] = TOMBSTONE;
    h->n--;
    while (h->used > 0 && *(int64_t *)entry(h, h->used - 1) == REMOVED)
        h->used--;
    if (h->first > h->used)
        h->first = h->used;
}

int32_t kj_dict_pop(void *owner, const void *key, void *value_out) {
    kj_dict_header *h = header(owner);
    if (!h->n)
        return 0;
    int64_t s = find_slot(h, key, hash_key(key, h->keysize));
    if (h->slots[s] == EMPTY)
        return 0;
    memcpy(value_out, value_of(h, entry(h, h->slots[s])), (size_t)h->valsize);
    remove_at(h, s);
    return 1;
}

int32_t kj_set_pop_first(void *owner, void *key_out) {
    kj_dict_header *h = header(owner);
    if (!h->n)
        return 0;
    while (*(int64_t *)entry(h, h->first) == REMOVED)   /* entries before first are removed */
        h->first++;
    char *e = entry(h, h->first);
    memcpy(key_out, key_of(e), (size_t)h->keysize);
    remove_at(h, find_slot(h, key_of(e), hash_key(key_of(e), h->keysize)));
    return 1;
}

int32_t kj_dict_pop_last(void *owner, void *key_out, void *value_out) {
    kj_dict_header *h = header(owner);
    if (!h->n)
        return 0;
    char *e = entry(h, h->used - 1);   /* live: remove_at forgets removed entries at the end */
    memcpy(key_out, key_of(e), (size_t)h->keysize);
    memcpy(value_out, value_of(h, e), (size_t)h->valsize);
    remove_at(h, find_slot(h, key_of(e), hash_key(key_of(e), h->keysize)));
    return 1;
}

void kj_dict_clear(void *owner) {
    kj_dict_header *h = header(owner);
    hold_owners(h, -1);
    for (int64_t s = 0; h->slots && s <= h->mask; s++)
        h->slots[s] = EMPTY;
    h->used = h->n = h->filled = h->first = 0;
}

void *kj_dict_copy(void *owner) {
    kj_dict_header *h = header(owner);
    void *r = kj_dict_new(h->keysize, h->valsize);
    if (!r)
        return NULL;
    for (int64_t i = 0; i < h->used; i++) {
        char *e = entry(h, i);
        if (*(int64_t *)e == REMOVED)
            continue;
        int32_t fresh;
        void *v = kj_dict_put(r, key_of(e), h->keysize, h->valsize, &fresh);
        if (!v) {
            kj_nrt_decref(r);
            return NULL;
        }
        memcpy(v, value_of(h, e), (size_t)h->valsize);
    }
    header(r)->owners = h->owners;
    hold_owners(header(r), 1);
    return r;
}

int64_t kj_dict_compact(void *owner) {
    kj_dict_header *h = header(owner);
    if (h->used != h->n && rebuild(h, h->cap) < 0)
        return -1;
    return h->n;
}

void *kj_dict_entry_key(void *owner, int64_t i) { return key_of(entry(header(owner), i)); }

void *kj_dict_entry_value(void *owner, int64_t i) {
    kj_dict_header *h = header(owner);
    return value_of(h, entry(h, i));
}

PyObject *kj_dict_box(void *owner, const kj_type *t) {
    kj_dict_header *h = header(owner);
    if (!t->n && h->n) {   /* filled where typing could not follow it (an alias of `{}`) */
        kj_nrt_decref(owner);
        PyErr_SetString(PyExc_TypeError, "kiln: the types of this dict are not known where it is returned; "
                                         "store into it in the function that makes it, or return the name it was filled through");
        return NULL;
    }
    PyObject *d = PyDict_New();
    for (int64_t i = 0; d && i < h->used; i++) {
        char *e = entry(h, i);
        if (*(int64_t *)e == REMOVED)
            continue;
        if (h->owners)   /* the NumPy array's base takes a reference of its own */
            kj_nrt_incref(*(void **)value_of(h, e));
        PyObject *k = kj_box_item(key_of(e), t->elems[0]);
        PyObject *v = k ? (h->owners ? kj_box_value(value_of(h, e), t->elems[1]) : kj_box_item(value_of(h, e), t->elems[1])) : NULL;
        if (!k && h->owners)
            kj_nrt_decref(*(void **)value_of(h, e));
        if (!v || PyDict_SetItem(d, k, v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    kj_nrt_decref(owner);   /* the reference the compiled code returned */
    return d;
}

PyObject *kj_set_box(void *owner, const kj_type *t) {
    kj_dict_header *h = header(owner);
    if (!t->elem && h->n) {   /* filled where typing could not follow it */
        kj_nrt_decref(owner);
        PyErr_SetString(PyExc_TypeError, "kiln: the item type of this set is not known where it is returned; "
                                         "add to it in the function that makes it, or return the name it was filled through");
        return NULL;
    }
    PyObject *r = PySet_New(NULL);
    for (int64_t i = 0; r && i < h->used; i++) {
        char *e = entry(h, i);
        if (*(int64_t *)e == REMOVED)
            continue;
        PyObject *k = kj_box_item(key_of(e), t->elem);
        if (!k || PySet_Add(r, k) < 0)
            Py_CLEAR(r);
        Py_XDECREF(k);
    }
    kj_nrt_decref(owner);   /* the reference the compiled code returned */
    return r;
}
