/* boxing: values of compiled code's types between Python objects and
 * memory laid out as LLVM's default data layout lays out their types: the
 * dispatcher's arguments and results, and the items of lists and dicts
 * returned to Python (boxing.h). */
#define PY_SSIZE_T_CLEAN
#include "jit/runtime/boxing.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_list.h"

#include <string.h>

/* ---- layout of values in memory, as LLVM's default data layout ---- */

size_t kj_value_size(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL:
    case KJ_T_NONE: return 1;
    case KJ_T_INT: return (size_t)t->bits / 8;
    case KJ_T_FLOAT: return (size_t)t->bits / 8;
    case KJ_T_COMPLEX: return (size_t)t->bits / 8;
    case KJ_T_ARRAY: return 16 + 16 * (size_t)t->ndim;
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET:
    case KJ_T_STR: return 8;
    case KJ_T_TUPLE: {
        size_t off = 0, al = 1;
        for (int i = 0; i < t->n; i++) {
            size_t a = kj_value_align(t->elems[i]);
            off = (off + a - 1) / a * a + kj_value_size(t->elems[i]);
            if (a > al)
                al = a;
        }
        return (off + al - 1) / al * al;
    }
    case KJ_T_OPTIONAL: {
        size_t a = kj_value_align(t->elem);
        return (a + kj_value_size(t->elem) + a - 1) / a * a;
    }
    default: return 1;
    }
}

size_t kj_value_align(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_COMPLEX: return (size_t)t->bits / 16;
    case KJ_T_ARRAY:
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET:
    case KJ_T_STR: return 8;
    case KJ_T_TUPLE: {
        size_t al = 1;
        for (int i = 0; i < t->n; i++)
            if (kj_value_align(t->elems[i]) > al)
                al = kj_value_align(t->elems[i]);
        return al;
    }
    case KJ_T_OPTIONAL: return kj_value_align(t->elem);
    default: return kj_value_size(t);
    }
}

size_t kj_item_size(const kj_type *t) {
    if (t->kind != KJ_T_TUPLE)
        return kj_value_size(t);
    size_t n = 0;
    for (int i = 0; i < t->n; i++)
        n += kj_item_size(t->elems[i]);
    return n;
}

static size_t field_offset(const kj_type *tuple, int index) {
    size_t off = 0;
    for (int i = 0; i <= index; i++) {
        size_t a = kj_value_align(tuple->elems[i]);
        off = (off + a - 1) / a * a;
        if (i < index)
            off += kj_value_size(tuple->elems[i]);
    }
    return off;
}

/* ---- unboxing ---- */

static int arg_error(PyObject *v, const kj_type *t) {
    PyErr_Format(PyExc_TypeError, "kiln: cannot pass %s as %s", Py_TYPE(v)->tp_name, t->name);
    return -1;
}

/* The low `bits` of x (little-endian) at dst: a store of the width, not a
 * memcpy of a variable size, which is a library call. */
static inline void store_int(char *dst, uint64_t x, int bits) {
    switch (bits) {
    case 8: *(uint8_t *)dst = (uint8_t)x; break;
    case 16: memcpy(dst, &(uint16_t){(uint16_t)x}, 2); break;
    case 32: memcpy(dst, &(uint32_t){(uint32_t)x}, 4); break;
    default: memcpy(dst, &x, 8); break;
    }
}

/* A Python list (kj_typeof: of numbers or tuples of numbers, one type) as a
 * new compiled list of its items, remembered in cs for kj_unbox_release. */
/* v as an item of a compiled list (kj_item_size's layout) at dst. */
static int unbox_item(PyObject *v, const kj_type *t, char *dst, kj_unbox_temps *cs) {
    if (t->kind != KJ_T_TUPLE)
        return kj_unbox(v, t, dst, cs);
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != t->n)
        return arg_error(v, t);
    for (int i = 0; i < t->n; dst += kj_item_size(t->elems[i]), i++)
        if (unbox_item(PyTuple_GET_ITEM(v, i), t->elems[i], dst, cs) < 0)
            return -1;
    return 0;
}

static int unbox_list(PyObject *v, const kj_type *t, char *dst, kj_unbox_temps *cs) {
    if (!PyList_Check(v) || !t->elem || cs->nlists == KJ_UNBOX_TEMPS)
        return arg_error(v, t);
    size_t size = kj_item_size(t->elem);
    Py_ssize_t n = PyList_GET_SIZE(v);
    void *owner = kj_list_new((int64_t)size, n);
    char *before = owner ? PyMem_Malloc(size * (size_t)n + 1) : NULL;
    if (!before) {
        if (owner)
            kj_nrt_decref(owner);
        return PyErr_NoMemory(), -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        char *item = before + size * (size_t)i;
        memset(item, 0, size);
        if (unbox_item(PyList_GET_ITEM(v, i), t->elem, item, cs) < 0 || kj_list_append(owner, item, (int64_t)size) < 0) {
            kj_nrt_decref(owner);
            PyMem_Free(before);
            return PyErr_Occurred() ? -1 : (PyErr_NoMemory(), -1);
        }
    }
    Py_INCREF(v);
    cs->lists[cs->nlists].list = v;
    cs->lists[cs->nlists].owner = owner;
    cs->lists[cs->nlists].type = t;
    cs->lists[cs->nlists++].before = before;
    *(void **)dst = owner;
    return 0;
}

/* Whether the compiled copy of a list differs from the items it began with. */
static bool list_changed(void *owner, const void *before, Py_ssize_t n, size_t size) {
    const kj_list_header *h = kj_list_header_of(owner);
    return h->n != n || (n && memcmp(h->items, before, size * (size_t)n) != 0);
}

int kj_unbox_release(kj_unbox_temps *cs) {
    for (int i = 0; i < cs->ntemps; i++)
        Py_DECREF(cs->temps[i]);
    cs->ntemps = 0;
    if (!cs->nlists)   /* the common call: no list passed in, nothing to reflect */
        return PyErr_Occurred() ? -1 : 0;
    int rc = 0;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);   /* the call's own exception, kept through the reflection */
    for (int i = 0; i < cs->nlists; i++) {
        PyObject *list = cs->lists[i].list;
        void *owner = cs->lists[i].owner;
        const kj_type *t = cs->lists[i].type;
        if (list_changed(owner, cs->lists[i].before, PyList_GET_SIZE(list), kj_item_size(t->elem))) {
            PyObject *items = kj_list_box(owner, t);   /* takes the reference on owner */
            if (!items || PyList_SetSlice(list, 0, PY_SSIZE_T_MAX, items) < 0)
                rc = -1;
            Py_XDECREF(items);
        } else {
            kj_nrt_decref(owner);
        }
        PyMem_Free(cs->lists[i].before);
        Py_DECREF(list);
    }
    cs->nlists = 0;
    if (type) {   /* the call raised: that is what the caller sees */
        if (rc < 0)
            PyErr_Clear();
        PyErr_Restore(type, value, tb);
        return -1;
    }
    return rc;
}

int kj_unbox(PyObject *v, const kj_type *t, char *dst, kj_unbox_temps *cs) {
    switch (t->kind) {
    case KJ_T_NONE:
    case KJ_T_FUNC:   /* the type says which function: nothing to pass */
        return 0;
    case KJ_T_BOOL: {
        int b = PyObject_IsTrue(v);
        if (b < 0)
            return -1;
        *(uint8_t *)dst = (uint8_t)b;
        return 0;
    }
    case KJ_T_INT: {
        uint64_t x;
        if (PyLong_CheckExact(v) || PyBool_Check(v)) {
            int overflow;
            long long s = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (!overflow) {   /* the common case: no error is possible */
                store_int(dst, (uint64_t)s, t->bits);
                return 0;
            }
            if (overflow > 0 && !t->is_signed)
                x = PyLong_AsUnsignedLongLong(v);
            else
                return PyErr_Format(PyExc_OverflowError, "kiln: %R does not fit in %s", v, t->name), -1;
        } else if (PyFloat_Check(v) || PyComplex_Check(v)) {
            return arg_error(v, t);
        } else {
            PyObject *i = PyNumber_Index(v);
            if (!i)
                return -1;
            x = t->is_signed ? (uint64_t)PyLong_AsLongLong(i) : PyLong_AsUnsignedLongLong(i);
            Py_DECREF(i);
        }
        if (PyErr_Occurred())
            return -1;
        store_int(dst, x, t->bits);
        return 0;
    }
    case KJ_T_FLOAT: {
        double d = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred())
            return -1;
        if (t->bits == 32)
            *(float *)dst = (float)d;
        else
            *(double *)dst = d;
        return 0;
    }
    case KJ_T_COMPLEX: {
        Py_complex z = PyComplex_AsCComplex(v);
        if (PyErr_Occurred())
            return -1;
        if (t->bits == 64) {
            ((float *)dst)[0] = (float)z.real;
            ((float *)dst)[1] = (float)z.imag;
        } else {
            ((double *)dst)[0] = z.real;
            ((double *)dst)[1] = z.imag;
        }
        return 0;
    }
    case KJ_T_ARRAY: {
        PyArrayObject *a;
        if (PyArray_Check(v)) {
            a = (PyArrayObject *)v;
        } else {
            if (cs->ntemps == KJ_UNBOX_TEMPS)
                return arg_error(v, t);
            PyObject *tmp = PyArray_FromAny(v, NULL, 0, 0, 0, NULL);   /* shares the buffer */
            if (!tmp)
                return -1;
            cs->temps[cs->ntemps++] = tmp;
            a = (PyArrayObject *)tmp;
        }
        int flags = PyArray_FLAGS(a);
        if (kj_type_from_npy(PyArray_TYPE(a)) != t->elem || PyArray_NDIM(a) != t->ndim ||
            (t->layout == KJ_LAYOUT_C && !(flags & NPY_ARRAY_C_CONTIGUOUS)) ||
            (t->layout == KJ_LAYOUT_F && !(flags & NPY_ARRAY_F_CONTIGUOUS)) ||
            (!t->readonly && !(flags & NPY_ARRAY_WRITEABLE))) {
            PyErr_Format(PyExc_TypeError, "kiln: cannot pass an array of %S with %d dimensions%s as %s",
                         (PyObject *)PyArray_DESCR(a), PyArray_NDIM(a),
                         (flags & NPY_ARRAY_WRITEABLE) ? "" : " (read-only)", t->name);
            return -1;
        }
        void **p = (void **)dst;
        p[0] = a;
        p[1] = PyArray_DATA(a);
        int64_t *dims = (int64_t *)(dst + 16);
        for (int k = 0; k < t->ndim; k++) {
            dims[k] = PyArray_DIM(a, k);
            dims[t->ndim + k] = PyArray_STRIDE(a, k);
        }
        return 0;
    }
    case KJ_T_TUPLE:
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != t->n)
            return arg_error(v, t);
        for (int i = 0; i < t->n; i++)
            if (kj_unbox(PyTuple_GET_ITEM(v, i), t->elems[i], dst + field_offset(t, i), cs) < 0)
                return -1;
        return 0;
    case KJ_T_OPTIONAL:
        *(uint8_t *)dst = v != Py_None;
        return v == Py_None ? 0 : kj_unbox(v, t->elem, dst + kj_value_align(t->elem), cs);
    case KJ_T_LIST:
        return unbox_list(v, t, dst, cs);
    case KJ_T_STR: {   /* its UTF-8, which the str keeps while the caller holds it */
        Py_ssize_t n;
        const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &n) : NULL;
        if (!s)
            return PyErr_Occurred() ? -1 : arg_error(v, t);
        if ((size_t)n != strlen(s)) {   /* compiled code reads up to the first NUL */
            PyErr_SetString(PyExc_ValueError, "kiln: cannot pass a string holding a NUL character ('\\0')");
            return -1;
        }
        *(const char **)dst = s;
        return 0;
    }
    default:
        return arg_error(v, t);
    }
}

/* ---- boxing ---- */

/* Whether array a is exactly the returned array of type t (data, shape,
 * strides, element type, writability). */
static int is_whole(PyArrayObject *a, const kj_type *t, const void *data, const int64_t *dims) {
    if (PyArray_DATA(a) != data || PyArray_NDIM(a) != t->ndim ||
        kj_type_from_npy(PyArray_TYPE(a)) != t->elem ||
        !t->readonly != !!(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE))
        return 0;
    for (int k = 0; k < t->ndim; k++)
        if (PyArray_DIM(a, k) != dims[k] || PyArray_STRIDE(a, k) != dims[t->ndim + k])
            return 0;
    return 1;
}

PyObject *kj_box_value(const char *src, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_NONE: Py_RETURN_NONE;
    case KJ_T_FUNC: return Py_NewRef((PyObject *)t->obj);
    case KJ_T_STR: return PyUnicode_FromString(*(const char *const *)src);
    case KJ_T_BOOL: return PyBool_FromLong(*(const uint8_t *)src & 1);
    case KJ_T_INT:
        switch (t->bits) {
        case 8: return t->is_signed ? PyLong_FromLong(*(const int8_t *)src) : PyLong_FromLong(*(const uint8_t *)src);
        case 16: return t->is_signed ? PyLong_FromLong(*(const int16_t *)src) : PyLong_FromLong(*(const uint16_t *)src);
        case 32: return t->is_signed ? PyLong_FromLong(*(const int32_t *)src) : PyLong_FromUnsignedLong(*(const uint32_t *)src);
        default: return t->is_signed ? PyLong_FromLongLong(*(const int64_t *)src) : PyLong_FromUnsignedLongLong(*(const uint64_t *)src);
        }
    case KJ_T_FLOAT: return PyFloat_FromDouble(t->bits == 32 ? *(const float *)src : *(const double *)src);
    case KJ_T_COMPLEX:
        if (t->bits == 64)
            return PyComplex_FromDoubles(((const float *)src)[0], ((const float *)src)[1]);
        return PyComplex_FromDoubles(((const double *)src)[0], ((const double *)src)[1]);
    case KJ_T_OPTIONAL:
        if (!(*(const uint8_t *)src & 1))
            Py_RETURN_NONE;
        return kj_box_value(src + kj_value_align(t->elem), t->elem);
    case KJ_T_TUPLE: {
        PyObject *tup = PyTuple_New(t->n);
        for (int i = 0; tup && i < t->n; i++) {
            PyObject *x = kj_box_value(src + field_offset(t, i), t->elems[i]);
            if (!x) {
                Py_CLEAR(tup);
                break;
            }
            PyTuple_SET_ITEM(tup, i, x);
        }
        return tup;
    }
    case KJ_T_LIST:
        return kj_list_box(*(void *const *)src, t);
    case KJ_T_DICT:
        return kj_dict_box(*(void *const *)src, t);
    case KJ_T_SET:
        return kj_set_box(*(void *const *)src, t);
    case KJ_T_ARRAY: {
        /* a NumPy array on the same memory, whose base keeps the memory
         * alive: the argument it views, or the block compiled code made
         * (the returned reference passes to the base object) */
        PyObject *owner = *(PyObject *const *)src;
        void *data = ((void *const *)src)[1];
        npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
        const int64_t *d = (const int64_t *)(src + 16);
        if (owner && !kj_nrt_is_block(owner) && PyArray_Check(owner) &&
            is_whole((PyArrayObject *)owner, t, data, d)) {
            /* an argument returned as it came: the same object, as Python
             * gives (`f(a) is a`), and no new view per call */
            Py_INCREF(owner);
            return owner;
        }
        for (int k = 0; k < t->ndim; k++) {
            dims[k] = (npy_intp)d[k];
            strides[k] = (npy_intp)d[t->ndim + k];
        }
        PyArray_Descr *descr = PyArray_DescrFromType(kj_type_to_npy(t->elem));
        if (!descr)
            return NULL;
        PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims, strides, data,
                                             t->readonly ? 0 : NPY_ARRAY_WRITEABLE, NULL);
        PyObject *base = arr && owner ? kj_nrt_base_object(owner) : NULL;
        if (base && PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
        if (owner && !base)
            Py_CLEAR(arr);
        return arr;
    }
    default:
        PyErr_Format(PyExc_TypeError, "kiln: cannot return %s to Python", t->name);
        return NULL;
    }
}
