/* types: interning, names, unification and the typing of Python values. */
#define PY_SSIZE_T_CLEAN
#include "jit/core/types.h"
#include "jit/core/numpy_api.h"
#include "jit/frontend/frontend.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Formats a type name; false if it does not fit (the type is then too
 * deeply nested to name, and is refused rather than confused with another). */
static bool name_fmt(char *dst, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, size, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < size;
}

/* Interned types, found by name (a name says everything about a type), in
 * an open-addressing table that doubles when half full. Types live as long
 * as the process, and a long session makes many (each function is a type of
 * its own, and a re-run cell makes new functions), so the table grows: two
 * copies of one type would be two types that never unify. Protected by the
 * GIL. */
static kj_type **table;
static size_t table_size, table_used;

static size_t hash_name(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot of name in a table of size (a power of two): its type's, or the empty one where it goes. */
static size_t slot_of(kj_type **slots, size_t size, const char *name) {
    size_t i = hash_name(name) & (size - 1);
    while (slots[i] && strcmp(slots[i]->name, name) != 0)
        i = (i + 1) & (size - 1);
    return i;
}

static bool grow_table(void) {
    size_t size = table_size ? table_size * 2 : 1024;
    kj_type **slots = calloc(size, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < table_size; i++)
        if (table[i])
            slots[slot_of(slots, size, table[i]->name)] = table[i];
    free(table);
    table = slots;
    table_size = size;
    return true;
}

/* Returns the interned copy of `proto` (whose name is set); NULL when out of memory. */
static const kj_type *intern(const kj_type *proto) {
    if (table_used * 2 >= table_size && !grow_table())
        return NULL;
    size_t i = slot_of(table, table_size, proto->name);
    if (table[i])
        return table[i];
    kj_type *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    *t = *proto;
    if (proto->n > 0) {
        t->elems = malloc(sizeof(kj_type *) * proto->n);
        if (!t->elems) {
            free(t);
            return NULL;
        }
        memcpy(t->elems, proto->elems, sizeof(kj_type *) * proto->n);
    }
    if (t->kind == KJ_T_FUNC)
        Py_INCREF((PyObject *)t->obj);   /* types live as long as the process: so does the function, whose address the name holds */
    table[i] = t;
    table_used++;
    return t;
}

static const kj_type *simple(kj_kind kind, int bits, bool is_signed, const char *name) {
    kj_type p = {.kind = kind, .bits = bits, .is_signed = is_signed};
    name_fmt(p.name, sizeof p.name, "%s", name);
    return intern(&p);
}

const kj_type *kj_none(void) {
    static const kj_type *t;
    return t ? t : (t = simple(KJ_T_NONE, 0, false, "none"));
}
const kj_type *kj_never(void) {
    static const kj_type *t;
    return t ? t : (t = simple(KJ_T_NONE, 0, false, "never"));
}
const kj_type *kj_bool(void) {
    static const kj_type *t;
    return t ? t : (t = simple(KJ_T_BOOL, 1, false, "bool"));
}
const kj_type *kj_int(int bits, bool is_signed) {
    static const kj_type *cache[2][4];
    int i = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    if (!cache[is_signed][i]) {
        char name[16];
        snprintf(name, sizeof name, "%sint%d", is_signed ? "" : "u", bits);
        cache[is_signed][i] = simple(KJ_T_INT, bits, is_signed, name);
    }
    return cache[is_signed][i];
}
const kj_type *kj_float(int bits) {
    static const kj_type *f32, *f64;
    if (bits == 32)
        return f32 ? f32 : (f32 = simple(KJ_T_FLOAT, 32, true, "float32"));
    return f64 ? f64 : (f64 = simple(KJ_T_FLOAT, 64, true, "float64"));
}
const kj_type *kj_complex(int bits) {
    static const kj_type *c64, *c128;
    if (bits == 64)
        return c64 ? c64 : (c64 = simple(KJ_T_COMPLEX, 64, true, "complex64"));
    return c128 ? c128 : (c128 = simple(KJ_T_COMPLEX, 128, true, "complex128"));
}

const kj_type *kj_number_type_named(const char *name) {
    static const char *const names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                        "uint32", "uint64", "float32", "float64", "complex64", "complex128"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0) {
            if (i == 0)
                return kj_bool();
            if (i <= 8)
                return kj_int(8 << ((i - 1) % 4), i <= 4);
            if (i <= 10)
                return kj_float(i == 9 ? 32 : 64);
            return kj_complex(i == 11 ? 64 : 128);
        }
    return NULL;
}
const kj_type *kj_range(void) {
    static const kj_type *t;
    return t ? t : (t = simple(KJ_T_RANGE, 0, false, "range"));
}

const kj_type *kj_array(const kj_type *dtype, int ndim, char layout, bool readonly) {
    if (ndim <= 1 && layout == KJ_LAYOUT_F)
        layout = KJ_LAYOUT_C;   /* a 1-d F-contiguous array is C-contiguous */
    kj_type p = {.kind = KJ_T_ARRAY, .elem = dtype, .ndim = ndim, .layout = layout,
                 .readonly = readonly};
    if (!name_fmt(p.name, sizeof p.name, "%sarray(%s, %dd, %c)", readonly ? "readonly " : "",
                  dtype->name, ndim, layout))
        return NULL;
    return intern(&p);
}

/* Writes "a, b, c" of the types' names into buf. */
static bool join_names(char *buf, size_t size, int n, const kj_type *const *elems) {
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < size; i++)
        used += snprintf(buf + used, size - used, "%s%s", i ? ", " : "", elems[i]->name);
    return used < size;
}

const kj_type *kj_tuple(int n, const kj_type *const *elems) {
    kj_type p = {.kind = KJ_T_TUPLE, .n = n, .elems = (const kj_type **)elems};
    bool uniform = n > 0;
    for (int i = 1; i < n; i++)
        uniform = uniform && elems[i] == elems[0];
    for (int i = 0; i < n; i++)
        if (!elems[i])
            return NULL;
    char inner[sizeof p.name];
    if (uniform ? !name_fmt(p.name, sizeof p.name, "UniTuple(%s x %d)", elems[0]->name, n)
                : !join_names(inner, sizeof inner, n, elems) ||
                      !name_fmt(p.name, sizeof p.name, "Tuple(%s)", inner))
        return NULL;
    return intern(&p);
}

bool kj_is_uniform_tuple(const kj_type *t) {
    if (t->kind != KJ_T_TUPLE || t->n == 0)
        return false;
    for (int i = 1; i < t->n; i++)
        if (t->elems[i] != t->elems[0])
            return false;
    return true;
}

const kj_type *kj_optional(const kj_type *elem) {
    if (elem->kind == KJ_T_OPTIONAL || elem->kind == KJ_T_NONE)
        return elem;
    kj_type p = {.kind = KJ_T_OPTIONAL, .elem = elem};
    if (!name_fmt(p.name, sizeof p.name, "optional(%s)", elem->name))
        return NULL;
    return intern(&p);
}

const kj_type *kj_list(const kj_type *elem) {
    kj_type p = {.kind = KJ_T_LIST, .elem = elem};
    if (!name_fmt(p.name, sizeof p.name, "list(%s)", elem ? elem->name : "undefined"))
        return NULL;
    return intern(&p);
}

const kj_type *kj_str(void) {
    kj_type p = {.kind = KJ_T_STR, .name = "str"};
    return intern(&p);
}

const kj_type *kj_enumerate(const kj_type *iterable) {
    kj_type p = {.kind = KJ_T_ENUMERATE, .elem = iterable};
    if (!name_fmt(p.name, sizeof p.name, "enumerate(%s)", iterable->name))
        return NULL;
    return intern(&p);
}

const kj_type *kj_dict(const kj_type *key, const kj_type *value) {
    const kj_type *kv[2] = {key, value};
    kj_type p = {.kind = KJ_T_DICT, .n = key ? 2 : 0, .elems = (const kj_type **)kv};
    if (!(key ? name_fmt(p.name, sizeof p.name, "dict(%s, %s)", key->name, value->name)
              : name_fmt(p.name, sizeof p.name, "dict(undefined)")))
        return NULL;
    return intern(&p);
}

const kj_type *kj_set(const kj_type *item) {
    kj_type p = {.kind = KJ_T_SET, .elem = item};
    if (!name_fmt(p.name, sizeof p.name, "set(%s)", item ? item->name : "undefined"))
        return NULL;
    return intern(&p);
}

const kj_type *kj_dictview(const kj_type *dict, char which) {
    kj_type p = {.kind = KJ_T_DICTVIEW, .elem = dict, .bits = which};
    if (!name_fmt(p.name, sizeof p.name, "dict_%s(%s)", which == 'k' ? "keys" : which == 'v' ? "values" : "items",
                  dict->name))
        return NULL;
    return intern(&p);
}

const kj_type *kj_reversed(const kj_type *sequence) {
    kj_type p = {.kind = KJ_T_REVERSED, .elem = sequence};
    if (!name_fmt(p.name, sizeof p.name, "reversed(%s)", sequence->name))
        return NULL;
    return intern(&p);
}

const kj_type *kj_zip(int n, const kj_type *const *iterables) {
    kj_type p = {.kind = KJ_T_ZIP, .n = n, .elems = (const kj_type **)iterables};
    char inner[sizeof p.name];
    if (!join_names(inner, sizeof inner, n, iterables) ||
        !name_fmt(p.name, sizeof p.name, "zip(%s)", inner))
        return NULL;
    return intern(&p);
}

const kj_type *kj_ndindex(int ndim) {
    kj_type p = {.kind = KJ_T_NDINDEX, .ndim = ndim};
    if (!name_fmt(p.name, sizeof p.name, "ndindex(%dd)", ndim))
        return NULL;
    return intern(&p);
}

const kj_type *kj_ndenumerate(const kj_type *array) {
    kj_type p = {.kind = KJ_T_NDENUMERATE, .elem = array};
    if (!name_fmt(p.name, sizeof p.name, "ndenumerate(%s)", array->name))
        return NULL;
    return intern(&p);
}

PyTypeObject *kj_dispatcher_type;

const kj_type *kj_func(PyObject *dispatcher) {
    PyObject *qualname = PyObject_GetAttrString(dispatcher, "__qualname__");
    const char *shown = qualname && PyUnicode_Check(qualname) ? PyUnicode_AsUTF8(qualname) : NULL;
    PyErr_Clear();
    /* the address tells apart two functions of one name, as Python's repr does */
    kj_type p = {.kind = KJ_T_FUNC, .obj = dispatcher};
    bool named = name_fmt(p.name, sizeof p.name, "function(%s at %p)", shown ? shown : "?", (void *)dispatcher);
    Py_XDECREF(qualname);
    if (!named)
        return NULL;
    return intern(&p);
}

/* ---- unification and promotion ---- */

static int rank(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL: return 0;
    case KJ_T_INT: return 1;
    case KJ_T_FLOAT: return 2;
    case KJ_T_COMPLEX: return 3;
    default: return -1;
    }
}

/* The number type holding both a and b. */
static const kj_type *unify_numbers(const kj_type *a, const kj_type *b) {
    if (rank(a) > rank(b)) {
        const kj_type *t = a;
        a = b;
        b = t;
    }
    switch (b->kind) {
    case KJ_T_BOOL:
        return b;
    case KJ_T_INT:
        if (a->kind == KJ_T_BOOL)
            return b;
        if (a->is_signed == b->is_signed)
            return kj_int(a->bits > b->bits ? a->bits : b->bits, a->is_signed);
        {
            const kj_type *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
            if (u->bits == 64)
                return kj_float(64);
            int bits = u->bits * 2 > s->bits ? u->bits * 2 : s->bits;
            return kj_int(bits, true);
        }
    case KJ_T_FLOAT:
        if (a->kind == KJ_T_FLOAT)
            return kj_float(a->bits > b->bits ? a->bits : b->bits);
        if (b->bits == 32 && (a->kind == KJ_T_BOOL || a->bits <= 16))
            return b;
        return kj_float(64);
    case KJ_T_COMPLEX:
        if (b->bits == 64 && (a->kind == KJ_T_BOOL || (a->kind == KJ_T_INT && a->bits <= 16) ||
                              (a->kind == KJ_T_FLOAT && a->bits == 32) ||
                              (a->kind == KJ_T_COMPLEX)))
            return a->kind == KJ_T_COMPLEX && a->bits == 128 ? a : b;
        return kj_complex(128);
    default:
        return NULL;
    }
}

const kj_type *kj_unify(const kj_type *a, const kj_type *b) {
    if (!a)
        return b;
    if (!b || a == b || b == kj_never())
        return a;
    if (a == kj_never())
        return b;
    if (kj_is_number(a) && kj_is_number(b))
        return unify_numbers(a, b);
    if (a->kind == KJ_T_NONE)
        return kj_optional(b);
    if (b->kind == KJ_T_NONE)
        return kj_optional(a);
    if (a->kind == KJ_T_OPTIONAL || b->kind == KJ_T_OPTIONAL) {
        const kj_type *ia = a->kind == KJ_T_OPTIONAL ? a->elem : a;
        const kj_type *ib = b->kind == KJ_T_OPTIONAL ? b->elem : b;
        const kj_type *u = kj_unify(ia, ib);
        return u ? kj_optional(u) : NULL;
    }
    if (a->kind == KJ_T_ARRAY && b->kind == KJ_T_ARRAY && a->elem == b->elem &&
        a->ndim == b->ndim)
        return kj_array(a->elem, a->ndim, a->layout == b->layout ? a->layout : KJ_LAYOUT_A,
                        a->readonly || b->readonly);
    if (a->kind == KJ_T_LIST && b->kind == KJ_T_LIST) {   /* [] takes the type of what is appended */
        if (!a->elem || !b->elem)
            return !a->elem ? b : a;
        if (a->elem->kind != KJ_T_LIST || b->elem->kind != KJ_T_LIST)
            return NULL;
        const kj_type *u = kj_unify(a->elem, b->elem);   /* [[] for ...] whose lists took items */
        return u ? kj_list(u) : NULL;
    }
    if (a->kind == KJ_T_DICT && b->kind == KJ_T_DICT)   /* {} takes the types of what is stored */
        return !a->n ? b : !b->n ? a : NULL;
    if (a->kind == KJ_T_SET && b->kind == KJ_T_SET)   /* set() takes the type of what is added */
        return !a->elem ? b : !b->elem ? a : NULL;
    if (a->kind == KJ_T_TUPLE && b->kind == KJ_T_TUPLE && a->n == b->n) {
        const kj_type *elems[a->n > 0 ? a->n : 1];
        for (int i = 0; i < a->n; i++)
            if (!(elems[i] = kj_unify(a->elems[i], b->elems[i])))
                return NULL;
        return kj_tuple(a->n, elems);
    }
    return NULL;
}

const kj_type *kj_promote(const kj_type *a, const kj_type *b) {
    if (kj_is_intlike(a) && kj_is_intlike(b)) {
        bool au = a->kind == KJ_T_INT && !a->is_signed, bu = b->kind == KJ_T_INT && !b->is_signed;
        if (au && bu)
            return kj_int(64, false);
        if ((au && a->bits == 64) || (bu && b->bits == 64))
            return kj_float(64);
        return KJ_I64;
    }
    return unify_numbers(a, b);
}

bool kj_can_convert(const kj_type *from, const kj_type *to) {
    if (from == to)
        return true;
    if (kj_is_number(from) && kj_is_number(to))
        return !(from->kind == KJ_T_COMPLEX && to->kind != KJ_T_COMPLEX);
    if (from->kind == KJ_T_ARRAY && to->kind == KJ_T_ARRAY)
        return from->elem == to->elem && from->ndim == to->ndim &&
               (to->layout == KJ_LAYOUT_A || to->layout == from->layout) &&
               (to->readonly || !from->readonly);
    if (from->kind == KJ_T_TUPLE && to->kind == KJ_T_TUPLE && from->n == to->n) {
        for (int i = 0; i < from->n; i++)
            if (!kj_can_convert(from->elems[i], to->elems[i]))
                return false;
        return true;
    }
    if (to->kind == KJ_T_OPTIONAL)
        return from->kind == KJ_T_NONE || kj_can_convert(from, to->elem) ||
               (from->kind == KJ_T_OPTIONAL && kj_can_convert(from->elem, to->elem));
    if (from->kind == KJ_T_OPTIONAL)
        return kj_can_convert(from->elem, to);
    return false;
}

/* ---- specs: types as Python data ---- */

const kj_type *kj_type_from_spec(PyObject *spec) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 1 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(spec, 0))) {
        PyErr_Format(PyExc_TypeError, "not a kiln type spec: %R", spec);
        return NULL;
    }
    const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(spec, 0));
    Py_ssize_t n = PyTuple_GET_SIZE(spec);
    if (!k)
        return NULL;
    if (strcmp(k, "none") == 0)
        return kj_none();
    if (strcmp(k, "bool") == 0)
        return kj_bool();
    if (strcmp(k, "str") == 0)
        return kj_str();
    long bits = n >= 2 && PyLong_Check(PyTuple_GET_ITEM(spec, 1)) ? PyLong_AsLong(PyTuple_GET_ITEM(spec, 1)) : 0;
    if (strcmp(k, "int") == 0 && n == 3 && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
        return kj_int((int)bits, PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2)));
    if (strcmp(k, "float") == 0 && n == 2 && (bits == 32 || bits == 64))
        return kj_float((int)bits);
    if (strcmp(k, "complex") == 0 && n == 2 && (bits == 64 || bits == 128))
        return kj_complex((int)bits);
    if (strcmp(k, "optional") == 0 && n == 2) {
        const kj_type *e = kj_type_from_spec(PyTuple_GET_ITEM(spec, 1));
        if (!e)
            return NULL;
        if (kj_optional(e))
            return kj_optional(e);
    }
    if (strcmp(k, "array") == 0 && n == 5) {
        const kj_type *d = kj_type_from_spec(PyTuple_GET_ITEM(spec, 1));
        const char *layout = PyUnicode_Check(PyTuple_GET_ITEM(spec, 3)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(spec, 3)) : NULL;
        long ndim = PyLong_Check(PyTuple_GET_ITEM(spec, 2)) ? PyLong_AsLong(PyTuple_GET_ITEM(spec, 2)) : -1;
        if (!d)
            return NULL;
        if (layout && strchr("CFA", layout[0]) && layout[0] && ndim >= 0 && ndim <= 32 && kj_is_number(d)) {
            const kj_type *t = kj_array(d, (int)ndim, layout[0], PyObject_IsTrue(PyTuple_GET_ITEM(spec, 4)));
            if (t)
                return t;
        }
    }
    /* containers, as kj_type_to_spec writes them (a return type in
     * nopython_signatures): ("list", item), ("set", item), ("dict", key,
     * value), or the name alone while their items are unknown */
    if ((strcmp(k, "list") == 0 || strcmp(k, "set") == 0 || strcmp(k, "dict") == 0) && n <= (k[0] == 'd' ? 3 : 2)) {
        const kj_type *parts[2] = {NULL, NULL};
        for (Py_ssize_t i = 1; i < n; i++)
            if (!(parts[i - 1] = kj_type_from_spec(PyTuple_GET_ITEM(spec, i))))
                return NULL;
        if (k[0] == 'd' && n != 2)
            return kj_dict(parts[0], parts[1]);
        if (k[0] != 'd')
            return k[0] == 'l' ? kj_list(parts[0]) : kj_set(parts[0]);
    }
    if (strcmp(k, "tuple") == 0 && n == 2 && PyTuple_Check(PyTuple_GET_ITEM(spec, 1))) {
        PyObject *items = PyTuple_GET_ITEM(spec, 1);
        int m = (int)PyTuple_GET_SIZE(items);
        const kj_type *elems[m > 0 ? m : 1];
        for (int i = 0; i < m; i++)
            if (!(elems[i] = kj_type_from_spec(PyTuple_GET_ITEM(items, i))))
                return NULL;
        const kj_type *t = kj_tuple(m, elems);
        if (t)
            return t;
    }
    if (strcmp(k, "function") == 0 && n == 2 && kj_dispatcher_type && Py_TYPE(PyTuple_GET_ITEM(spec, 1)) == kj_dispatcher_type) {
        const kj_type *t = kj_func(PyTuple_GET_ITEM(spec, 1));
        if (t)
            return t;
    }
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "not a kiln type spec: %R", spec);
    return NULL;
}

PyObject *kj_type_to_spec(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_NONE: return Py_BuildValue("(s)", "none");
    case KJ_T_BOOL: return Py_BuildValue("(s)", "bool");
    case KJ_T_INT: return Py_BuildValue("(siO)", "int", t->bits, t->is_signed ? Py_True : Py_False);
    case KJ_T_FLOAT: return Py_BuildValue("(si)", "float", t->bits);
    case KJ_T_COMPLEX: return Py_BuildValue("(si)", "complex", t->bits);
    case KJ_T_OPTIONAL: return Py_BuildValue("(sN)", "optional", kj_type_to_spec(t->elem));
    case KJ_T_LIST: return t->elem ? Py_BuildValue("(sN)", "list", kj_type_to_spec(t->elem)) : Py_BuildValue("(s)", "list");
    case KJ_T_DICT:
        return t->n ? Py_BuildValue("(sNN)", "dict", kj_type_to_spec(t->elems[0]), kj_type_to_spec(t->elems[1]))
                    : Py_BuildValue("(s)", "dict");
    case KJ_T_SET: return t->elem ? Py_BuildValue("(sN)", "set", kj_type_to_spec(t->elem)) : Py_BuildValue("(s)", "set");
    case KJ_T_ARRAY:
        return Py_BuildValue("(sNiCO)", "array", kj_type_to_spec(t->elem), t->ndim, t->layout,
                             t->readonly ? Py_True : Py_False);
    case KJ_T_TUPLE: {
        PyObject *items = PyTuple_New(t->n);
        for (int i = 0; items && i < t->n; i++) {
            PyObject *s = kj_type_to_spec(t->elems[i]);
            if (!s) {
                Py_CLEAR(items);
                break;
            }
            PyTuple_SET_ITEM(items, i, s);
        }
        return items ? Py_BuildValue("(sN)", "tuple", items) : NULL;
    }
    case KJ_T_FUNC: return Py_BuildValue("(sO)", "function", (PyObject *)t->obj);
    case KJ_T_STR: return Py_BuildValue("(s)", "str");
    default:
        return Py_BuildValue("(ss)", "opaque", t->name);
    }
}

/* ---- NumPy ---- */

const kj_type *kj_type_from_npy(int type_num) {
    switch (type_num) {
    case NPY_BOOL: return kj_bool();
    case NPY_INT8: return kj_int(8, true);
    case NPY_INT16: return kj_int(16, true);
    case NPY_INT32: return kj_int(32, true);
    case NPY_INT64: return kj_int(64, true);
    case NPY_UINT8: return kj_int(8, false);
    case NPY_UINT16: return kj_int(16, false);
    case NPY_UINT32: return kj_int(32, false);
    case NPY_UINT64: return kj_int(64, false);
    case NPY_FLOAT32: return kj_float(32);
    case NPY_FLOAT64: return kj_float(64);
    case NPY_COMPLEX64: return kj_complex(64);
    case NPY_COMPLEX128: return kj_complex(128);
    /* long long / unsigned long long share int64's width but not its number */
    case NPY_LONGLONG: return kj_int(64, true);
    case NPY_ULONGLONG: return kj_int(64, false);
    default: return NULL;
    }
}

int kj_type_to_npy(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL: return NPY_BOOL;
    case KJ_T_INT:
        switch (t->bits) {
        case 8: return t->is_signed ? NPY_INT8 : NPY_UINT8;
        case 16: return t->is_signed ? NPY_INT16 : NPY_UINT16;
        case 32: return t->is_signed ? NPY_INT32 : NPY_UINT32;
        default: return t->is_signed ? NPY_INT64 : NPY_UINT64;
        }
    case KJ_T_FLOAT: return t->bits == 32 ? NPY_FLOAT32 : NPY_FLOAT64;
    case KJ_T_COMPLEX: return t->bits == 64 ? NPY_COMPLEX64 : NPY_COMPLEX128;
    default: return -1;
    }
}

/* Array types by (dtype, ndim, layout, readonly) so that typing an array
 * argument on each call costs no string formatting. */
#define MAX_CACHED_NDIM 8
#if NPY_ABI_VERSION >= 0x02000000 && !defined(NPY_NTYPES)
#define NPY_NTYPES NPY_NTYPES_LEGACY /* NumPy 2 (the GPU machine's) renamed it */
#endif
static const kj_type *array_cache[NPY_NTYPES][MAX_CACHED_NDIM + 1][3][2];

static const kj_type *typeof_array(PyArrayObject *a) {
    int num = PyArray_TYPE(a), nd = PyArray_NDIM(a);
    int flags = PyArray_FLAGS(a);
    int li = (flags & NPY_ARRAY_C_CONTIGUOUS) ? 0 : (flags & NPY_ARRAY_F_CONTIGUOUS) ? 1 : 2;
    int ro = !(flags & NPY_ARRAY_WRITEABLE);
    if (num < 0 || num >= NPY_NTYPES || nd > MAX_CACHED_NDIM)
        return NULL;
    const kj_type **slot = &array_cache[num][nd][li][ro];
    if (!*slot) {
        const kj_type *d = kj_type_from_npy(num);
        if (!d)
            return NULL;
        *slot = kj_array(d, nd, "CFA"[li], ro);
    }
    return *slot;
}

/* What a Python list passed in may hold: numbers, or tuples of numbers. */
static bool list_item(const kj_type *t) {
    if (!t)
        return false;
    if (kj_is_number(t))
        return true;
    if (t->kind != KJ_T_TUPLE || t->n == 0)
        return false;
    for (int i = 0; i < t->n; i++)
        if (!kj_is_number(t->elems[i]))
            return false;
    return true;
}

/* A Python list passed in (Numba's reflected list): list(T) when every item
 * has the one type T; NULL for an empty list or one of mixed items. */
static const kj_type *typeof_list(PyObject *v) {
    Py_ssize_t n = PyList_GET_SIZE(v);
    const kj_type *t = n ? kj_typeof(PyList_GET_ITEM(v, 0)) : NULL;
    if (!list_item(t))
        return NULL;
    for (Py_ssize_t i = 1; i < n; i++)
        if (kj_typeof(PyList_GET_ITEM(v, i)) != t)
            return NULL;
    return kj_list(t);
}

const kj_type *kj_typeof(PyObject *v) {
    if (PyFloat_CheckExact(v))
        return kj_float(64);
    if (PyBool_Check(v))
        return kj_bool();
    if (PyLong_Check(v)) {
        static const kj_type *i64;
        return i64 ? i64 : (i64 = KJ_I64);
    }
    if (PyArray_Check(v))
        return typeof_array((PyArrayObject *)v);
    if (PyFloat_Check(v))
        return kj_float(64);
    if (PyComplex_Check(v))
        return kj_complex(128);
    if (v == Py_None)
        return kj_none();
    if (PyUnicode_Check(v))
        return kj_str();
    if (PyArray_IsScalar(v, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(v);
        const kj_type *t = d ? kj_type_from_npy(d->type_num) : NULL;
        Py_XDECREF(d);
        PyErr_Clear();
        return t;
    }
    if (PyTuple_Check(v)) {
        int n = (int)PyTuple_GET_SIZE(v);
        const kj_type *elems[n > 0 ? n : 1];
        for (int i = 0; i < n; i++)
            if (!(elems[i] = kj_typeof(PyTuple_GET_ITEM(v, i))))
                return NULL;
        return kj_tuple(n, elems);
    }
    if (kj_dispatcher_type && Py_TYPE(v) == kj_dispatcher_type)
        return kj_func(v);
    if (PyList_Check(v))
        return typeof_list(v);
    if (PyObject_CheckBuffer(v)) {
        PyObject *a = PyArray_FromAny(v, NULL, 0, 0, 0, NULL);
        const kj_type *t = a ? typeof_array((PyArrayObject *)a) : NULL;
        Py_XDECREF(a);
        PyErr_Clear();
        return t;
    }
    return NULL;
}

bool kj_holds_nothing(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_LIST:
    case KJ_T_SET: return !t->elem;
    case KJ_T_DICT: return !t->n;
    case KJ_T_DICTVIEW:
    case KJ_T_REVERSED:
    case KJ_T_ENUMERATE: return kj_holds_nothing(t->elem);
    case KJ_T_ZIP:
        for (int i = 0; i < t->n; i++)
            if (kj_holds_nothing(t->elems[i]))
                return true;
        return false;
    default: return false;
    }
}

const kj_type *kj_iter_elem(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_RANGE: return KJ_I64;
    case KJ_T_LIST: return t->elem;
    case KJ_T_ARRAY:
        if (t->ndim == 0)   /* NumPy: "iteration over a 0-d array" */
            return NULL;
        if (t->ndim == 1)
            return t->elem;
        return kj_array(t->elem, t->ndim - 1, t->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A,
                        t->readonly);
    case KJ_T_TUPLE: {
        const kj_type *u = NULL;
        for (int i = 0; i < t->n; i++)
            if (!(u = kj_unify(u, t->elems[i])))
                return NULL;
        return u;
    }
    case KJ_T_REVERSED: return kj_iter_elem(t->elem);
    case KJ_T_DICT: return t->n ? t->elems[0] : NULL;   /* its keys */
    case KJ_T_SET: return t->elem;
    case KJ_T_DICTVIEW: {
        const kj_type *d = t->elem;
        if (!d->n)
            return NULL;
        return t->bits == 'k' ? d->elems[0] : t->bits == 'v' ? d->elems[1] : kj_tuple(2, (const kj_type *const *)d->elems);
    }
    case KJ_T_ENUMERATE: {
        const kj_type *e[2] = {KJ_I64, kj_iter_elem(t->elem)};
        return e[1] ? kj_tuple(2, e) : NULL;
    }
    case KJ_T_ZIP: {
        const kj_type *e[t->n > 0 ? t->n : 1];
        for (int i = 0; i < t->n; i++)
            if (!(e[i] = kj_iter_elem(t->elems[i])))
                return NULL;
        return kj_tuple(t->n, e);
    }
    case KJ_T_NDINDEX:
    case KJ_T_NDENUMERATE: {   /* the index tuple; with the element after it */
        int nd = t->kind == KJ_T_NDINDEX ? t->ndim : t->elem->ndim;
        const kj_type *ints[nd > 0 ? nd : 1];
        for (int i = 0; i < nd; i++)
            ints[i] = KJ_I64;
        const kj_type *pair[2] = {kj_tuple(nd, ints), t->kind == KJ_T_NDENUMERATE ? t->elem->elem : NULL};
        return t->kind == KJ_T_NDINDEX ? pair[0] : kj_tuple(2, pair);
    }
    default: return NULL;
    }
}

bool kj_np_same_kind(const kj_type *from, const kj_type *to) {
    int a = kj_type_to_npy(from), b = kj_type_to_npy(to);
    if (a < 0 || b < 0)
        return false;
    PyArray_Descr *da = PyArray_DescrFromType(a), *db = PyArray_DescrFromType(b);
    bool ok = da && db && PyArray_CanCastTypeTo(da, db, NPY_SAME_KIND_CASTING);
    Py_XDECREF(da);
    Py_XDECREF(db);
    return ok;
}
