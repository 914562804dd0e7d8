/* rt_print: text for compiled code. f-strings format numbers as Python's
 * str() and format() do, into per-thread buffers (no GIL needed); print()
 * takes the GIL, makes Python objects of its arguments (NumPy arrays and
 * scalars where NumPy prints them) and calls the builtin print, so the
 * text goes to sys.stdout and reaches the notebook cell that ran it. */
#include "jit/runtime/rt_print.h"
#include "jit/runtime/boxing.h"
#include "jit/runtime/nrt.h"
#include "jit/core/numpy_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUF 8
#define BUFSIZE 2048

static _Thread_local char buffers[NBUF][BUFSIZE];
static _Thread_local int next_buffer;

char *kj_fmt_begin(void) {
    char *b = buffers[next_buffer];
    next_buffer = (next_buffer + 1) % NBUF;
    b[0] = 0;
    return b;
}

static void append(char *buf, const char *s) {
    size_t used = strlen(buf);
    snprintf(buf + used, BUFSIZE - used, "%s", s);
}

void kj_fmt_str(char *buf, const char *s) { append(buf, s); }

/* Kept strings: a bump allocator over chunks, the newest first. */
#define KEPT_CHUNK 65536
typedef struct kept_chunk {
    struct kept_chunk *next;
    size_t used, size;
    char data[];
} kept_chunk;
static _Thread_local kept_chunk *kept;
int kj_fmt_kept_any;

char *kj_fmt_keep(const char *buf) {
    size_t n = strlen(buf) + 1;
    if (!kept || kept->size - kept->used < n) {
        size_t size = n > KEPT_CHUNK ? n : KEPT_CHUNK;
        kept_chunk *c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->next = kept;
        c->used = 0;
        c->size = size;
        kept = c;
        __atomic_store_n(&kj_fmt_kept_any, 1, __ATOMIC_RELAXED);
    }
    char *s = kept->data + kept->used;
    memcpy(s, buf, n);
    kept->used += n;
    return s;
}

void kj_fmt_forget_kept(void) {
    while (kept) {
        kept_chunk *next = kept->next;
        free(kept);
        kept = next;
    }
}

int64_t kj_str_len(const char *s) {
    int64_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;   /* every byte but a continuation starts a character */
    return n;
}

/* Python's repr of a float: the shortest digits that read back the same
 * (float32: as a float32, the way NumPy prints its scalars), in fixed
 * notation for exponents -4..15, else d.ddde+XX. */
static void float_repr(char *out, size_t size, double v, bool f32) {
    if (isnan(v)) {
        snprintf(out, size, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(out, size, v > 0 ? "inf" : "-inf");
        return;
    }
    char e[40];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, v);
        if (f32 ? (float)strtod(e, NULL) == (float)v : strtod(e, NULL) == v)
            break;
    }
    /* e is [-]d[.ddd]e[+-]XX: take the digits and the exponent */
    const char *s = e;
    bool neg = *s == '-';
    if (neg)
        s++;
    char digits[24];
    int nd = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            digits[nd++] = *s;
    digits[nd] = 0;
    int exp10 = atoi(s + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        digits[--nd] = 0;
    size_t used = (size_t)snprintf(out, size, "%s", neg ? "-" : "");
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            used += (size_t)snprintf(out + used, size - used, "0.");
            for (int i = 0; i < -exp10 - 1; i++)
                used += (size_t)snprintf(out + used, size - used, "0");
            snprintf(out + used, size - used, "%s", digits);
        } else {
            for (int i = 0; i <= exp10; i++)
                used += (size_t)snprintf(out + used, size - used, "%c", i < nd ? digits[i] : '0');
            snprintf(out + used, size - used, ".%s", nd > exp10 + 1 ? digits + exp10 + 1 : "0");
        }
        return;
    }
    used += (size_t)snprintf(out + used, size - used, "%c", digits[0]);
    if (nd > 1)
        used += (size_t)snprintf(out + used, size - used, ".%s", digits + 1);
    snprintf(out + used, size - used, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
}

/* A format spec [0][width][.precision][type] as printf's; false for what
 * compiled code does not format (checked again when compiling). */
static bool printf_spec(const char *spec, bool is_float, char *fmt, size_t size) {
    const char *s = spec;
    char flags[4] = "";
    if (*s == '0')
        snprintf(flags, sizeof flags, "0"), s++;
    int width = 0, prec = -1;
    while (*s >= '0' && *s <= '9')
        width = width * 10 + (*s++ - '0');
    if (*s == '.') {
        prec = 0;
        s++;
        while (*s >= '0' && *s <= '9')
            prec = prec * 10 + (*s++ - '0');
    }
    char type = *s ? *s++ : 0;
    if (*s)
        return false;
    if (is_float) {
        if (!type)
            type = 'g';
        if (!strchr("eEfFgG", type))
            return false;
        if (prec >= 0)
            snprintf(fmt, size, "%%%s%d.%d%c", flags, width, prec, type);
        else
            snprintf(fmt, size, "%%%s%d%c", flags, width, type == 'g' || type == 'G' ? type : type);
        return true;
    }
    if (type && type != 'd')
        return false;
    snprintf(fmt, size, "%%%s%dlld", flags, width);
    return prec < 0;
}

bool kj_fmt_spec_ok(const char *spec, bool is_float) {
    char fmt[32];
    return !spec || !*spec || printf_spec(spec, is_float, fmt, sizeof fmt);
}

void kj_fmt_int(char *buf, int64_t v, int64_t is_unsigned, const char *spec) {
    char fmt[32], tmp[128];
    if (spec && *spec && printf_spec(spec, false, fmt, sizeof fmt))
        snprintf(tmp, sizeof tmp, fmt, (long long)v);
    else if (is_unsigned)
        snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    else
        snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    append(buf, tmp);
}

void kj_fmt_float(char *buf, double v, int64_t is_f32, const char *spec) {
    char fmt[32], tmp[400];
    if (spec && *spec && printf_spec(spec, true, fmt, sizeof fmt))
        snprintf(tmp, sizeof tmp, fmt, v);
    else
        float_repr(tmp, sizeof tmp, v, is_f32 != 0);
    append(buf, tmp);
}

void kj_fmt_bool(char *buf, int64_t v) { append(buf, v ? "True" : "False"); }

/* ---- print ---- */

static PyObject *object_of(const kj_print_item *items, int64_t n, int64_t *at);

static PyObject *array_of(const kj_print_item *it) {
    /* a copy of the elements: the compiled frame keeps the memory alive
     * only while print runs */
    const char *a = it->ptr;
    int nd = (int)it->ndim;
    npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    const int64_t *d = (const int64_t *)(a + 16);
    for (int k = 0; k < nd; k++) {
        dims[k] = (npy_intp)d[k];
        strides[k] = (npy_intp)d[nd + k];
    }
    PyArray_Descr *descr = PyArray_DescrFromType(it->typenum);
    if (!descr)
        return NULL;
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, nd, dims, strides, ((void *const *)a)[1], 0, NULL);
    if (!view)
        return NULL;
    PyObject *copy = PyArray_NewCopy((PyArrayObject *)view, NPY_CORDER);
    Py_DECREF(view);
    return copy;
}

static PyObject *scalar_of(const kj_print_item *it) {
    switch (it->kind) {
    case KJ_PRINT_STR: return PyUnicode_FromString(*(const char *const *)it->ptr);
    case KJ_PRINT_INT: return PyLong_FromLongLong(*(const int64_t *)it->ptr);
    case KJ_PRINT_UINT: return PyLong_FromUnsignedLongLong(*(const uint64_t *)it->ptr);
    case KJ_PRINT_BOOL: return PyBool_FromLong(*(const int64_t *)it->ptr != 0);
    case KJ_PRINT_NONE: Py_RETURN_NONE;
    case KJ_PRINT_FLOAT: {
        double v = *(const double *)it->ptr;
        if (it->typenum != NPY_FLOAT)
            return PyFloat_FromDouble(v);
        float f = (float)v;   /* printed as NumPy prints float32 */
        PyArray_Descr *descr = PyArray_DescrFromType(NPY_FLOAT);
        PyObject *s = descr ? PyArray_Scalar(&f, descr, NULL) : NULL;
        Py_XDECREF(descr);
        return s;
    }
    case KJ_PRINT_COMPLEX: return PyComplex_FromDoubles(((const double *)it->ptr)[0], ((const double *)it->ptr)[1]);
    case KJ_PRINT_ARRAY: return array_of(it);
    default:
        PyErr_SetString(PyExc_TypeError, "kiln: cannot print this value");
        return NULL;
    }
}

/* The type item *at describes (a tuple takes the next ndim items), or
 * NULL if they run out. */
static const kj_type *type_of(const kj_print_item *items, int64_t n, int64_t *at) {
    const kj_print_item *it = &items[(*at)++];
    if (it->kind != KJ_PRINT_TUPLE)
        return kj_type_from_npy(it->typenum);
    const kj_type *elems[it->ndim > 0 ? it->ndim : 1];
    for (int64_t i = 0; i < it->ndim; i++)
        if (*at >= n || !(elems[i] = type_of(items, n, at)))
            return NULL;
    return kj_tuple((int)it->ndim, elems);
}

/* A list's items: of the NumPy type typenum, or (ndim 1) of the type the
 * next items describe. */
static PyObject *list_of(const kj_print_item *it, const kj_print_item *items, int64_t n, int64_t *at) {
    const kj_type *elem = it->ndim ? (*at < n ? type_of(items, n, at) : NULL) : kj_type_from_npy(it->typenum);
    if (!elem) {
        PyErr_SetString(PyExc_TypeError, "kiln: cannot print this list");
        return NULL;
    }
    void *owner = *(void *const *)it->ptr;
    kj_nrt_incref(owner);   /* kj_list_box takes a reference */
    return kj_list_box(owner, kj_list(elem));
}

/* A dict or set, as Python prints one: boxed, with the types the next
 * ndim items describe (a Python set, so in the order Python's own has). */
static PyObject *table_of(const kj_print_item *it, const kj_print_item *items, int64_t n, int64_t *at) {
    const kj_type *parts[2] = {NULL, NULL};
    for (int64_t i = 0; i < it->ndim && i < 2; i++)
        if (*at >= n || !(parts[i] = type_of(items, n, at))) {
            PyErr_SetString(PyExc_TypeError, "kiln: cannot print this dict or set");
            return NULL;
        }
    void *owner = *(void *const *)it->ptr;
    kj_nrt_incref(owner);   /* the boxes take a reference */
    return it->kind == KJ_PRINT_SET ? kj_set_box(owner, kj_set(parts[0])) : kj_dict_box(owner, kj_dict(parts[0], parts[1]));
}

/* The object of item *at (a tuple takes the next ndim items). */
static PyObject *object_of(const kj_print_item *items, int64_t n, int64_t *at) {
    const kj_print_item *it = &items[(*at)++];
    if (it->kind == KJ_PRINT_LIST)
        return list_of(it, items, n, at);
    if (it->kind == KJ_PRINT_DICT || it->kind == KJ_PRINT_SET)
        return table_of(it, items, n, at);
    if (it->kind != KJ_PRINT_TUPLE)
        return scalar_of(it);
    PyObject *t = PyTuple_New(it->ndim);
    for (int64_t i = 0; t && i < it->ndim && *at < n; i++) {
        PyObject *x = object_of(items, n, at);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

void kj_print(int64_t n, const kj_print_item *items, const char *sep, const char *end) {
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *args = PyList_New(0), *kw = PyDict_New();
    for (int64_t at = 0; args && at < n;) {
        PyObject *x = object_of(items, n, &at);
        if (!x || PyList_Append(args, x) < 0) {
            Py_XDECREF(x);
            Py_CLEAR(args);
            break;
        }
        Py_DECREF(x);
    }
    PyObject *print = PyDict_GetItemString(PyEval_GetBuiltins(), "print");   /* borrowed */
    PyObject *tuple = args ? PyList_AsTuple(args) : NULL;
    PyObject *s = sep ? PyUnicode_FromString(sep) : NULL, *e = end ? PyUnicode_FromString(end) : NULL;
    if (kw && s)
        PyDict_SetItemString(kw, "sep", s);
    if (kw && e)
        PyDict_SetItemString(kw, "end", e);
    PyObject *r = tuple && kw && print ? PyObject_Call(print, tuple, kw) : NULL;
    if (!r)
        PyErr_WriteUnraisable(print);   /* print has no way to fail the compiled function */
    Py_XDECREF(r);
    Py_XDECREF(s);
    Py_XDECREF(e);
    Py_XDECREF(tuple);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    PyGILState_Release(g);
}
