/* rt_list: the runtime of lists made in compiled code. A list is a block
 * (nrt.h) whose data is a kj_list_header; the items are a malloc'd buffer
 * that doubles when full and is freed with the block. Nothing here needs
 * the GIL except kj_list_box. */
#include "jit/lists.h"
#include "jit/nrt.h"
#include "jit/rt_list.h"

#include <stdlib.h>
#include <string.h>

static kj_list_header *header(void *owner) { return kj_nrt_data(kj_nrt_block(owner)); }

static void free_items(kj_block_t *b) { free(((kj_list_header *)kj_nrt_data(b))->items); }

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
    int64_t cap = h->cap ? h->cap : 4;
    while (cap < n)
        cap *= 2;
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
    h->n += m;
    return 0;
}

void *kj_list_slice(void *owner, int64_t start, int64_t len, int64_t step, int64_t itemsize) {
    void *r = kj_list_new(itemsize, len);
    if (!r)
        return NULL;
    kj_list_header *h = header(owner), *d = header(r);
    for (int64_t k = 0; k < len; k++)
        memcpy(d->items + k * itemsize, h->items + (start + k * step) * itemsize, (size_t)itemsize);
    d->n = len;
    return r;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}
static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static int cmp_f64(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}
static int cmp_f32(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}
static int cmp_u8(const void *a, const void *b) {
    return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

/* Sorts in place; kind: 'i' signed, 'u' unsigned, 'f' float. Stable
 * enough for numbers: equal numbers are indistinguishable. */
void kj_list_sort(void *owner, int64_t kind, int64_t itemsize, int64_t reverse) {
    kj_list_header *h = header(owner);
    int (*cmp)(const void *, const void *) = NULL;
    if (kind == 'f')
        cmp = itemsize == 8 ? cmp_f64 : cmp_f32;
    else if (itemsize == 8)
        cmp = kind == 'u' ? cmp_u64 : cmp_i64;
    else if (itemsize == 4 && kind == 'i')
        cmp = cmp_i32;
    else if (itemsize == 1 && kind == 'u')
        cmp = cmp_u8;
    if (cmp && h->n > 1)
        qsort(h->items, (size_t)h->n, (size_t)itemsize, cmp);
    if (reverse)
        kj_list_reverse(owner);
}

void kj_list_reverse(void *owner) {
    kj_list_header *h = header(owner);
    char tmp[16];
    int64_t s = h->itemsize;
    for (int64_t i = 0, j = h->n - 1; i < j; i++, j--) {
        memcpy(tmp, h->items + i * s, (size_t)s);
        memcpy(h->items + i * s, h->items + j * s, (size_t)s);
        memcpy(h->items + j * s, tmp, (size_t)s);
    }
}

static PyObject *box_item(const char *p, const kj_type *t) {
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
    default:
        PyErr_Format(PyExc_TypeError, "kiln: cannot return a list of %s", t->name);
        return NULL;
    }
}

PyObject *kj_list_box(void *owner, const kj_type *t) {
    kj_list_header *h = header(owner);
    PyObject *list = PyList_New(h->n);
    for (int64_t i = 0; list && i < h->n; i++) {
        PyObject *x = box_item(h->items + i * h->itemsize, t->elem);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    kj_nrt_decref(owner);   /* the reference the compiled code returned */
    return list;
}
