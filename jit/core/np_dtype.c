/* np_dtype: which element type NumPy gives an operation, asked of NumPy
 * itself at compile time (its promotion rules, value-based casting of
 * scalars in NumPy 1.x, float16 for small ints in sin...), so compiled array
 * expressions have exactly the dtypes the same expression has in Python.
 * Answers are cached per process; everything here runs with the GIL held
 * (inference). */
#include "jit/core/np_dtype.h"
#include "jit/core/ir.h"
#include "jit/core/numpy_api.h"

#include <stdio.h>
#include <string.h>

static PyObject *cache;   /* (func, (typename, is_array)...) -> type number or message */

/* What stands for an operand in the probe: an array of its dtype, or a
 * NumPy scalar of its type: the constant's value, else 1 (bool: True).
 * New reference. */
static PyObject *probe_operand(const kj_type *t, const kj_node *k) {
    bool array = t->kind == KJ_T_ARRAY;
    const kj_type *e = array ? t->elem : t;
    int num = kj_type_to_npy(e);
    if (num < 0) {
        PyErr_Format(PyExc_TypeError, "%s has no NumPy dtype", t->name);
        return NULL;
    }
    if (array) {   /* one element: reductions refuse empty arrays */
        npy_intp one = 1;
        return PyArray_Zeros(1, &one, PyArray_DescrFromType(num), 0);
    }
    PyArray_Descr *d = PyArray_DescrFromType(num);
    if (!d)
        return NULL;
    PyObject *one = !k ? PyLong_FromLong(1)
                    : t->kind == KJ_T_FLOAT ? PyFloat_FromDouble(k->fval)
                    : t->kind == KJ_T_COMPLEX ? PyComplex_FromDoubles(k->fval, k->fval2)
                    : t->kind == KJ_T_INT && !t->is_signed ? PyLong_FromUnsignedLongLong((uint64_t)k->ival)
                                                           : PyLong_FromLongLong(k->ival);
    PyObject *s = one ? PyObject_CallOneArg((PyObject *)d->typeobj, one) : NULL;
    Py_XDECREF(one);
    Py_DECREF(d);
    return s;
}

static PyObject *cache_key(const char *func, int n, const kj_type *const *ops, kj_node *const *consts) {
    PyObject *key = PyTuple_New(n + 1);
    if (!key)
        return NULL;
    PyTuple_SET_ITEM(key, 0, PyUnicode_FromString(func));
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(key, i + 1, PyUnicode_FromString(ops[i]->kind == KJ_T_ARRAY ? ops[i]->elem->name : ops[i]->name));
    for (int i = 0; i <= n; i++)
        if (!PyTuple_GET_ITEM(key, i)) {
            Py_DECREF(key);
            return NULL;
        }
    /* arrays and scalars differ, and a constant's value counts: each operand
     * adds the constant's value, or "array" or "scalar"; strings, since a
     * flag True would equal the constant 1.0 as a dict key */
    PyObject *arr = PyTuple_New(n + 1);
    if (!arr) {
        Py_DECREF(key);
        return NULL;
    }
    PyTuple_SET_ITEM(arr, 0, key);
    for (int i = 0; i < n; i++) {
        kj_node *k = consts ? consts[i] : NULL;
        PyTuple_SET_ITEM(arr, i + 1, k ? PyFloat_FromDouble(k->type->kind == KJ_T_FLOAT ? k->fval : (double)k->ival)
                                       : PyUnicode_FromString(ops[i]->kind == KJ_T_ARRAY ? "array" : "scalar"));
        if (!PyTuple_GET_ITEM(arr, i + 1)) {
            Py_DECREF(arr);
            return NULL;
        }
    }
    return arr;
}

/* A Python function calling numpy.<name>(*args) with NumPy's warnings
 * silenced (the probe's values mean nothing). Borrowed, made once. */
static PyObject *quiet_call(void) {
    static PyObject *fn;
    if (fn)
        return fn;
    static const char src[] =
        "def _probe(name, args):\n"
        "    import warnings, numpy\n"
        "    with warnings.catch_warnings():\n"
        "        warnings.simplefilter('ignore')\n"
        "        with numpy.errstate(all='ignore'):\n"
        "            return getattr(numpy, name)(*args)\n";
    PyObject *globals = PyDict_New();
    PyObject *r = globals ? PyRun_String(src, Py_file_input, globals, globals) : NULL;
    if (r)
        fn = PyDict_GetItemString(globals, "_probe");
    Py_XINCREF(fn);
    Py_XDECREF(r);
    Py_XDECREF(globals);
    return fn;
}

/* Runs numpy.<func>(probes...) and reads the result's dtype. */
static PyObject *probe(const char *func, int n, const kj_type *const *ops, kj_node *const *consts) {
    PyObject *call = quiet_call();
    if (!call)
        return NULL;
    PyObject *args = PyTuple_New(n);
    for (int i = 0; args && i < n; i++) {
        PyObject *o = probe_operand(ops[i], consts ? consts[i] : NULL);
        if (!o) {
            Py_CLEAR(args);
            break;
        }
        PyTuple_SET_ITEM(args, i, o);
    }
    PyObject *r = args ? PyObject_CallFunction(call, "sO", func, args) : NULL;
    Py_XDECREF(args);
    if (!r)
        return NULL;
    PyObject *num = NULL;
    if (PyArray_Check(r))
        num = PyLong_FromLong(PyArray_TYPE((PyArrayObject *)r));
    else if (PyArray_IsScalar(r, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(r);
        num = d ? PyLong_FromLong(d->type_num) : NULL;
        Py_XDECREF(d);
    } else
        PyErr_SetString(PyExc_TypeError, "the probe gave no NumPy value");
    Py_DECREF(r);
    return num;
}

const kj_type *kj_np_result_dtype(const char *func, int n, const kj_type *const *ops, char *why,
                                  size_t why_size) {
    return kj_np_result_dtype_c(func, n, ops, NULL, why, why_size);
}

const kj_type *kj_np_result_dtype_c(const char *func, int n, const kj_type *const *ops,
                                    kj_node *const *consts, char *why, size_t why_size) {
    if (!cache && !(cache = PyDict_New()))
        goto python_error;
    PyObject *key = cache_key(func, n, ops, consts);
    if (!key)
        goto python_error;
    PyObject *v = PyDict_GetItemWithError(cache, key);   /* borrowed */
    if (!v && !PyErr_Occurred()) {
        PyObject *num = probe(func, n, ops, consts);
        if (!num && consts) {   /* NumPy may refuse a constant's value (int ** -1) only when it runs */
            PyErr_Clear();
            num = probe(func, n, ops, NULL);
        }
        if (!num) {
            /* NumPy's own message says which types it refuses */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyObject *s = value ? PyObject_Str(value) : NULL;
            num = s ? s : PyUnicode_FromString("NumPy refuses these operand types");
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
            PyErr_Clear();
        }
        if (num && PyDict_SetItem(cache, key, num) == 0)
            v = num;
        Py_XDECREF(num);   /* the cache holds it */
    }
    Py_DECREF(key);
    if (!v)
        goto python_error;
    if (PyUnicode_Check(v)) {
        snprintf(why, why_size, "%s", PyUnicode_AsUTF8(v));
        return NULL;
    }
    const kj_type *t = kj_type_from_npy((int)PyLong_AsLong(v));
    if (!t)
        snprintf(why, why_size, "np.%s gives a dtype compiled code does not have (float16?)", func);
    return t;
python_error:
    PyErr_Clear();
    snprintf(why, why_size, "internal: cannot ask NumPy for the type of np.%s", func);
    return NULL;
}

