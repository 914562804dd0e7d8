/* rt_list: the runtime of lists made in compiled code. A list is a block
 * (nrt.h) whose data is a kj_list_header; the items are a malloc'd buffer
 * that doubles when full and is freed with the block. Nothing here needs
 * the GIL except kj_list_box. */
#include "jit/runtime/boxing.h"
#include "jit/runtime/fault.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_list.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static kj_list_header *header(void *owner) { return kj_nrt_data(kj_nrt_block(owner)); }

kj_list_header *kj_list_header_of(void *owner) { return header(owner); }

/* References on the owners of items [from, from + count) of a list of
 * arrays: taken (delta 1) or given back (-1). */
static void hold_owners(kj_list_header *h, int64_t from, int64_t count, int delta) {
    if (!h->owners)
        return;
    for (int64_t k = from; k < from + count; k++) {
        void *owner = *(void **)(h->items + k * h->itemsize);
        if (delta > 0)
            kj_nrt_incref(owner);
        else
            kj_nrt_decref(owner);
    }
}

static void free_items(kj_block_t *b) {
    kj_list_header *h = kj_nrt_data(b);
    hold_owners(h, 0, h->n, -1);
    free(h->items);
}

void *kj_list_new(int64_t itemsize, int64_t cap) {
    kj_block_t *b = kj_nrt_alloc(sizeof(kj_list_header));
    if (!b)
        return NULL;
    b->dtor = free_items;
    kj_list_header *h = kj_nrt_data(b);
    h->n = 0;
    h->cap = 0;
    h->itemsize = itemsize;
    h->items = NULL;
    h->owners = 0;
    void *owner = (char *)b + 1;
    if (cap > 0 && kj_list_reserve(owner, cap, itemsize) < 0) {
        kj_nrt_decref(owner);
        return NULL;
    }
    return owner;
}

int32_t kj_list_reserve(void *owner, int64_t n, int64_t itemsize) {
    kj_list_header *h = header(owner);
    if (!h->itemsize)   /* `[]`: the item size is known at the first append */
        h->itemsize = itemsize;
    if (n <= h->cap)
        return 0;
    int64_t size = h->itemsize > 0 ? h->itemsize : 1;
    if (n > INT64_MAX / size)   /* more bytes than memory has: MemoryError, as Python's [0] * 2**62 */
        return -1;
    int64_t cap = h->cap ? h->cap : 4;
    while (cap < n)
        cap = cap > INT64_MAX / size / 2 ? n : cap * 2;
    if (kj_fault_refuse_if_stack_low())
        return -1;
    char *items = realloc(h->items, (size_t)(cap * h->itemsize));
    if (!items)
        return -1;
    h->items = items;
    h->cap = cap;
    return 0;
}

int32_t kj_list_append(void *owner, const void *item, int64_t itemsize) {
    kj_list_header *h = header(owner);
    if (h->n == h->cap && kj_list_reserve(owner, h->n + 1, itemsize) < 0)
        return -1;
    if (!h->itemsize)
        h->itemsize = itemsize;
    memcpy(h->items + h->n * h->itemsize, item, (size_t)itemsize);
    h->n++;
    return 0;
}

int32_t kj_list_insert(void *owner, int64_t i, const void *item, int64_t itemsize) {
    if (kj_list_reserve(owner, header(owner)->n + 1, itemsize) < 0)
        return -1;
    kj_list_header *h = header(owner);
    if (i < 0)
        i = i + h->n < 0 ? 0 : i + h->n;
    if (i > h->n)
        i = h->n;
    memmove(h->items + (i + 1) * itemsize, h->items + i * itemsize, (size_t)((h->n - i) * itemsize));
    memcpy(h->items + i * itemsize, item, (size_t)itemsize);
    h->n++;
    return 0;
}

void kj_list_remove_at(void *owner, int64_t i) {
    kj_list_header *h = header(owner);
    memmove(h->items + i * h->itemsize, h->items + (i + 1) * h->itemsize, (size_t)((h->n - i - 1) * h->itemsize));
    h->n--;
}

int32_t kj_list_extend(void *owner, void *other, int64_t itemsize) {
    kj_list_header *o = header(other);
    int64_t m = o->n;   /* lst.extend(lst) adds the items once */
    if (kj_list_reserve(owner, header(owner)->n + m, itemsize) < 0)
        return -1;
    kj_list_header *h = header(owner);
    memmove(h->items + h->n * itemsize, o->items, (size_t)(m * itemsize));
    h->owners |= o->owners;   /* `[]` extended with a list of arrays */
    hold_owners(h, h->n, m, 1);
    h->n += m;
    return 0;
}

void kj_list_clear(void *owner) {
    kj_list_header *h = header(owner);
    hold_owners(h, 0, h->n, -1);
    h->n = 0;
}

void *kj_list_slice(void *owner, int64_t start, int64_t len, int64_t step, int64_t itemsize) {
    void *r = kj_list_new(itemsize, len);
    if (!r)
        return NULL;
    kj_list_header *h = header(owner), *d = header(r);
    for (int64_t k = 0; k < len; k++)
        memcpy(d->items + k * itemsize, h->items + (start + k * step) * itemsize, (size_t)itemsize);
    d->n = len;
    d->owners = h->owners;
    hold_owners(d, 0, len, 1);
    return r;
}

/* An integer field of size bytes: its bits, zero-extended (the host is
 * little-endian, as every target Kiln builds for), or sign-extended. */
static uint64_t unsigned_field(const char *p, int size) {
    uint64_t v = 0;
    memcpy(&v, p, (size_t)size);
    return v;
}

static int64_t signed_field(const char *p, int size) {
    int shift = 64 - 8 * size;
    return (int64_t)(unsigned_field(p, size) << shift) >> shift;
}

/* One field of two items compared as Python compares numbers: -1 less,
 * 1 greater, 0 equal, 2 neither (a NaN). */
static int compare_field(const char *a, const char *b, int64_t field) {
    int kind = (int)(field & 0xff), size = (int)((field >> 8) & 0xff);
    a += field >> 16;
    b += field >> 16;
    if (kind == 'f') {
        double x, y;
        if (size == 4) {
            float xf, yf;
            memcpy(&xf, a, 4);
            memcpy(&yf, b, 4);
            x = xf;
            y = yf;
        } else {
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
        }
        return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
    }
    if (kind == 'i') {
        int64_t x = signed_field(a, size), y = signed_field(b, size);
        return (x > y) - (x < y);
    }
    uint64_t x = unsigned_field(a, size), y = unsigned_field(b, size);
    return (x > y) - (x < y);
}

/* Python's a < b for items: the first field that is not equal decides. */
static bool item_less(const char *a, const char *b, const int64_t *fields, int64_t nfields) {
    for (int64_t f = 0; f < nfields; f++) {
        int c = compare_field(a, b, fields[f]);
        if (c != 0)
            return c == -1;
    }
    return false;
}

/* A merge sort (bottom up), stable as Python's list.sort: equal items
 * keep their order, with reverse too. */
int32_t kj_list_sort(void *owner, const int64_t *fields, int64_t nfields, int64_t reverse) {
    kj_list_header *h = header(owner);
    int64_t n = h->n, s = h->itemsize;
    if (n < 2)
        return 0;
    char *tmp = malloc((size_t)(n * s));
    if (!tmp)
        return -1;
    char *src = h->items, *dst = tmp;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                const char *x = src + i * s, *y = src + j * s;
                /* the right run's item goes first only when it must */
                bool right = reverse ? item_less(x, y, fields, nfields) : item_less(y, x, fields, nfields);
                memcpy(dst + k++ * s, right ? y : x, (size_t)s);
                right ? j++ : i++;
            }
            memcpy(dst + k * s, src + i * s, (size_t)((mid - i) * s));
            k += mid - i;
            memcpy(dst + k * s, src + j * s, (size_t)((hi - j) * s));
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != h->items)
        memcpy(h->items, src, (size_t)(n * s));
    free(tmp);
    return 0;
}

void kj_list_reverse(void *owner) {
    kj_list_header *h = header(owner);
    int64_t s = h->itemsize;
    for (int64_t i = 0, j = h->n - 1; i < j; i++, j--) {
        char *p = h->items + i * s, *q = h->items + j * s;
        for (int64_t k = 0; k < s; k++) {
            char t = p[k];
            p[k] = q[k];
            q[k] = t;
        }
    }
}

/* Bytes an item of type t takes in a list (kj_llmemtype in lower.c: bools
 * as bytes, tuples packed). */
PyObject *kj_box_item(const char *p, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    case KJ_T_FLOAT: return PyFloat_FromDouble(t->bits == 32 ? *(const float *)p : *(const double *)p);
    case KJ_T_COMPLEX:
        if (t->bits == 64)
            return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
        return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
    case KJ_T_INT:
        switch (t->bits) {
        case 8: return PyLong_FromLong(t->is_signed ? *(const int8_t *)p : *(const uint8_t *)p);
        case 16: return PyLong_FromLong(t->is_signed ? *(const int16_t *)p : *(const uint16_t *)p);
        case 32: return t->is_signed ? PyLong_FromLong(*(const int32_t *)p) : PyLong_FromUnsignedLong(*(const uint32_t *)p);
        default: return t->is_signed ? PyLong_FromLongLong(*(const int64_t *)p) : PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
        }
    case KJ_T_TUPLE: {
        PyObject *r = PyTuple_New(t->n);
        for (int i = 0; r && i < t->n; p += kj_item_size(t->elems[i]), i++) {
            PyObject *x = kj_box_item(p, t->elems[i]);
            if (!x)
                Py_CLEAR(r);
            else
                PyTuple_SET_ITEM(r, i, x);
        }
        return r;
    }
    default:
        PyErr_Format(PyExc_TypeError, "kiln: cannot return a list of %s", t->name);
        return NULL;
    }
}

PyObject *kj_list_box(void *owner, const kj_type *t) {
    kj_list_header *h = header(owner);
    if (!t->elem && h->n) {   /* filled where typing could not follow it (an alias of `[]`) */
        kj_nrt_decref(owner);
        PyErr_SetString(PyExc_TypeError, "kiln: the type of this list's items is not known where it is returned; "
                                         "append to it in the function that makes it, or return the name it was filled through");
        return NULL;
    }
    PyObject *list = PyList_New(h->n);
    for (int64_t i = 0; list && i < h->n; i++) {
        const char *item = h->items + i * h->itemsize;
        if (h->owners)   /* the NumPy array's base takes a reference of its own */
            kj_nrt_incref(*(void *const *)item);
        PyObject *x = h->owners ? kj_box_value(item, t->elem) : kj_box_item(item, t->elem);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    kj_nrt_decref(owner);   /* the reference the compiled code returned */
    return list;
}
