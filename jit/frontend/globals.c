/* globals: Python values read at compile time (globals, closure cells,
 * module attributes) turned into IR: numbers, tuples and NumPy arrays
 * (frozen, as Numba freezes them) become constants;
 * modules, builtins, math/cmath/random/NumPy functions, NumPy scalar types,
 * exception classes and kiln dispatchers become references the later
 * phases know by name. */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend/frontend.h"
#include "jit/core/numpy_api.h"

#include <string.h>

static kj_node *const_node(kj_function *f, int line, int col, const kj_type *t) {
    kj_node *n = kj_new_node(f, KJ_E_CONST, line, col, 0);
    if (n)
        n->type = t;
    return n;
}

/* {object: kiln dispatcher}: what compiled code calls in place of a
 * function kiln.extending registered (register_jitable, overload); filled
 * from Python through _kiln.compiled_as. */
static PyObject *compiled_as;

int kj_globals_init(PyObject *module) {
    compiled_as = PyDict_New();
    return compiled_as ? PyModule_AddObjectRef(module, "compiled_as", compiled_as) : -1;
}

static kj_node *func_node(kj_function *f, int line, int col, const char *name, PyObject *obj) {
    kj_node *n = kj_new_node(f, KJ_E_FUNC, line, col, 0);
    if (!n || !(n->name = kj_strdup(f, name)))
        return NULL;
    n->pyobj = obj;
    if (obj && PyList_Append(f->keep, obj) < 0)
        return NULL;
    return n;
}

/* kiln.float32 and friends: a cast, as np.float32 is. */
static int type_object_node(kj_function *f, PyObject *v, int line, int col, kj_node **out) {
    if (strcmp(Py_TYPE(v)->tp_name, "Type") != 0 && strcmp(Py_TYPE(v)->tp_name, "kiln.types.Type") != 0)
        return 0;
    PyObject *spec = PyObject_GetAttrString(v, "spec");
    const kj_type *t = spec ? kj_type_from_spec(spec) : NULL;
    Py_XDECREF(spec);
    PyErr_Clear();
    if (!t || !kj_is_number(t))
        return 0;
    char name[sizeof t->name + 8];
    snprintf(name, sizeof name, "cast:%s", t->name);
    *out = func_node(f, line, col, name, NULL);
    return 1;
}

/* A Python object that names a callable of the registry (callables.h) by
 * its attribute _kiln_builtin (python/kiln/cuda/intrinsics.py's markers):
 * "value:N" reads like a value (cuda.threadIdx.x, a call without
 * arguments), "module:N" is a namespace whose attributes are read
 * (cuda.shared), any other N a function. Also a kiln type object. Sets
 * *out to its IR (NULL on a Python error) and returns 1, or returns 0. */
static int marker_node(kj_function *f, PyObject *v, int line, int col, kj_node **out) {
    *out = NULL;
    if (PyModule_Check(v) || PyType_Check(v))
        return 0;
    PyObject *mark = PyObject_GetAttrString(v, "_kiln_builtin");
    if (!mark || !PyUnicode_Check(mark)) {
        Py_XDECREF(mark);
        PyErr_Clear();
        return type_object_node(f, v, line, col, out);
    }
    const char *name = PyUnicode_AsUTF8(mark);
    if (strncmp(name, "value:", 6) == 0) {
        kj_node *call = kj_new_node(f, KJ_E_CALL, line, col, 1);
        if (call && (call->kids[0] = func_node(f, line, col, name + 6, NULL)))
            *out = call;
    } else {
        *out = func_node(f, line, col, name, strncmp(name, "module:", 7) == 0 ? v : NULL);
    }
    Py_DECREF(mark);
    return 1;
}

/* Whether t is a class of the numpy module itself. */
static bool numpys_class(PyTypeObject *t) {
    PyObject *mod = PyObject_GetAttrString((PyObject *)t, "__module__");
    bool numpys = mod && PyUnicode_Check(mod) && strcmp(PyUnicode_AsUTF8(mod), "numpy") == 0;
    Py_XDECREF(mod);
    PyErr_Clear();
    return numpys;
}

/* "np.ndindex" or "np.ndenumerate" for NumPy's classes of those names,
 * which compiled code loops over (np_ndindex.c); else NULL. */
static const char *numpy_nd_iteration(PyTypeObject *t) {
    if (!numpys_class(t))
        return NULL;
    return strcmp(t->tp_name, "ndindex") == 0 ? "np.ndindex" : strcmp(t->tp_name, "ndenumerate") == 0 ? "np.ndenumerate" : NULL;
}

/* "np.iinfo" or "np.finfo" for NumPy's classes of those names, whose
 * attributes compiled code reads as constants; else NULL. */
static const char *numpy_limits(PyTypeObject *t) {
    if (!numpys_class(t))
        return NULL;
    return strcmp(t->tp_name, "iinfo") == 0 ? "np.iinfo" : strcmp(t->tp_name, "finfo") == 0 ? "np.finfo" : NULL;
}

/* A Python value read at compile time, as IR (a constant, a tuple of
 * constants, a module or a function). `what` names it in errors. */
kj_node *kj_value_node(kj_function *f, kj_error *e, PyObject *v, int line, int col, const char *what) {
    kj_node *n;
    if (PyBool_Check(v)) {
        if ((n = const_node(f, line, col, kj_bool())))
            n->ival = v == Py_True;
        return n;
    }
    if (v == Py_Ellipsis)   /* an index's ... (infer.c) */
        return kj_new_node(f, KJ_E_ELLIPSIS, line, col, 0);
    if (PyLong_Check(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow > 0) {
            unsigned long long u = PyLong_AsUnsignedLongLong(v);
            if (PyErr_Occurred()) {
                PyErr_Clear();
                kj_fail(e, KJ_ERR_TYPING, line, col, "Integers in compiled code are 64-bit.",
                        "%s does not fit in 64 bits", what);
                return NULL;
            }
            if ((n = const_node(f, line, col, kj_int(64, false))))
                n->ival = (int64_t)u;
            return n;
        }
        if (overflow < 0) {
            kj_fail(e, KJ_ERR_TYPING, line, col, "Integers in compiled code are 64-bit.",
                    "%s does not fit in 64 bits", what);
            return NULL;
        }
        if ((n = const_node(f, line, col, KJ_I64)))
            n->ival = x;
        return n;
    }
    if (PyFloat_Check(v)) {
        if ((n = const_node(f, line, col, KJ_F64)))
            n->fval = PyFloat_AS_DOUBLE(v);
        return n;
    }
    if (PyComplex_Check(v)) {
        if ((n = const_node(f, line, col, kj_complex(128)))) {
            n->fval = PyComplex_RealAsDouble(v);
            n->fval2 = PyComplex_ImagAsDouble(v);
        }
        return n;
    }
    if (v == Py_None)
        return const_node(f, line, col, kj_none());
    if (PyUnicode_Check(v)) {   /* a default value or a global: as a constant in the source */
        const char *s = PyUnicode_AsUTF8(v);
        if (!s || !(n = const_node(f, line, col, kj_str())) || !(n->str = kj_strdup(f, s)))
            return NULL;
        return n;
    }
    if (PyArray_IsScalar(v, Generic)) {
        const kj_type *t = kj_typeof(v);
        if (!t)
            goto unknown;
        if (!(n = const_node(f, line, col, t)))
            return NULL;
        PyObject *py = NULL;
        if (t->kind == KJ_T_COMPLEX) {
            Py_complex z = {0, 0};
            PyObject *cz = PyObject_CallMethod(v, "__complex__", NULL);
            if (cz) {
                z = PyComplex_AsCComplex(cz);
                Py_DECREF(cz);
            }
            PyErr_Clear();
            n->fval = z.real;
            n->fval2 = z.imag;
        } else if (t->kind == KJ_T_FLOAT) {
            n->fval = PyFloat_AsDouble(v);
        } else if (t->kind == KJ_T_INT && !t->is_signed) {
            py = PyNumber_Long(v);
            n->ival = py ? (int64_t)PyLong_AsUnsignedLongLong(py) : 0;
        } else {
            py = PyNumber_Long(v);
            n->ival = py ? PyLong_AsLongLong(py) : 0;
        }
        Py_XDECREF(py);
        if (PyErr_Occurred()) {
            kj_fail(e, KJ_ERR_PYTHON, line, col, NULL, "scalar");
            return NULL;
        }
        return n;
    }
    if (PyArray_Check(v)) {   /* frozen, as Numba's: a C-ordered copy made now, read-only in compiled code */
        PyArrayObject *a = (PyArrayObject *)v;
        const kj_type *et = kj_type_from_npy(PyArray_TYPE(a));
        PyObject *frozen = et ? PyArray_NewCopy(a, NPY_CORDER) : NULL;
        if (!frozen) {
            PyErr_Clear();
            kj_fail(e, KJ_ERR_TYPING, line, col, "Pass it as an argument.",
                    "%s is an array of dtype %s, which compiled code cannot hold", what, PyArray_DESCR(a)->typeobj->tp_name);
            return NULL;
        }
        int rc = PyList_Append(f->keep, frozen);
        Py_DECREF(frozen);   /* f->keep holds it while the function compiles */
        if (rc < 0 || !(n = const_node(f, line, col, kj_array(et, PyArray_NDIM(a), KJ_LAYOUT_C, true))))
            return NULL;
        n->pyobj = frozen;
        return n;
    }
    if (PyTuple_Check(v)) {
        int m = (int)PyTuple_GET_SIZE(v);
        if (!(n = kj_new_node(f, KJ_E_TUPLE, line, col, m)))
            return NULL;
        for (int i = 0; i < m; i++)
            if (!(n->kids[i] = kj_value_node(f, e, PyTuple_GET_ITEM(v, i), line, col, what)))
                return NULL;
        return n;
    }
    if (PyArray_DescrCheck(v)) {   /* np.dtype('int16') held in a global: as np.int16 */
        const kj_type *t = kj_type_from_npy(((PyArray_Descr *)v)->type_num);
        if (t && PyDataType_ISNOTSWAPPED((PyArray_Descr *)v)) {
            char buf[128];
            snprintf(buf, sizeof buf, "cast:%.100s", t->name);
            return func_node(f, line, col, buf, NULL);
        }
    }
    PyObject *as = compiled_as && PyDict_GET_SIZE(compiled_as) ? PyDict_GetItemWithError(compiled_as, v) : NULL;
    if (as)   /* kiln.extending: register_jitable's function, overload's target */
        return func_node(f, line, col, "dispatcher", as);
    PyErr_Clear();   /* an unhashable value is no key */
    kj_node *marked;
    if (marker_node(f, v, line, col, &marked))   /* kiln.cuda's intrinsics, kiln.float32 */
        return marked;
    if (PyModule_Check(v)) {
        const char *name = PyModule_GetName(v);
        if (!name)
            return NULL;
        char buf[128];
        snprintf(buf, sizeof buf, "module:%s", strcmp(name, "numpy") == 0 ? "np" : name);
        return func_node(f, line, col, buf, v);
    }
    if (kj_dispatcher_type && PyObject_TypeCheck(v, kj_dispatcher_type))
        return func_node(f, line, col, "dispatcher", v);
    if (PyType_Check(v) && PyType_IsSubtype((PyTypeObject *)v, (PyTypeObject *)PyExc_BaseException)) {
        if (!(n = kj_new_node(f, KJ_E_EXC, line, col, 0)))
            return NULL;
        n->pyobj = v;
        return PyList_Append(f->keep, v) < 0 ? NULL : n;
    }
    if (PyType_Check(v)) {
        /* not static: NumPy's type objects are known only once its API is imported */
        const struct { PyTypeObject *t; const char *name; } types[] = {
            {&PyRange_Type, "range"}, {&PyLong_Type, "int"}, {&PyFloat_Type, "float"},
            {&PyComplex_Type, "complex"}, {&PyBool_Type, "bool"}, {&PyEnum_Type, "enumerate"},
            {&PyZip_Type, "zip"}, {&PyList_Type, "list"}, {&PyReversed_Type, "reversed"},
            {&PyDict_Type, "dict"}, {&PySet_Type, "set"}, {&PyUnicode_Type, "str"},
            {&PyType_Type, "type"},   /* only as type(x)(v): infer_calls.c */
            /* these only as isinstance's classes (infer/decided.c) */
            {&PyTuple_Type, "tuple"}, {&PyArray_Type, "np.ndarray"}, {&PyIntegerArrType_Type, "np.integer"},
            {&PyFloatingArrType_Type, "np.floating"}, {&PyComplexFloatingArrType_Type, "np.complexfloating"},
            {&PyNumberArrType_Type, "np.number"},
        };
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if ((PyTypeObject *)v == types[i].t)
                return func_node(f, line, col, types[i].name, NULL);
        const char *nd_iteration = numpy_nd_iteration((PyTypeObject *)v);
        if (nd_iteration)
            return func_node(f, line, col, nd_iteration, NULL);
        const char *limits = numpy_limits((PyTypeObject *)v);
        if (limits)   /* its attributes are read when compiling (frontend.c: number_limit) */
            return func_node(f, line, col, limits, v);
        if (PyType_IsSubtype((PyTypeObject *)v, &PyGenericArrType_Type)) {
            PyArray_Descr *d = PyArray_DescrFromTypeObject(v);
            const kj_type *t = d ? kj_type_from_npy(d->type_num) : NULL;
            Py_XDECREF(d);
            PyErr_Clear();
            if (t) {
                char buf[128];
                snprintf(buf, sizeof buf, "cast:%.100s", t->name);
                return func_node(f, line, col, buf, NULL);
            }
        }
        goto unknown;
    }
    if (strcmp(Py_TYPE(v)->tp_name, "numpy.ufunc") == 0) {
        PyObject *name = PyObject_GetAttrString(v, "__name__");
        /* only NumPy's own: a kiln.vectorize ufunc may carry a NumPy name (parallel.h) */
        PyObject *np = name ? PyImport_ImportModule("numpy") : NULL;
        PyObject *own = np ? PyObject_GetAttr(np, name) : NULL;
        bool numpys = own == v;
        Py_XDECREF(np);
        Py_XDECREF(own);
        PyErr_Clear();
        if (!numpys) {
            Py_XDECREF(name);
            kj_fail(e, KJ_ERR_UNSUPPORTED, line, col,
                    "Decorate the kernel with @kiln.jit too and call that for one element.",
                    "%s is a ufunc made by vectorize; compiled code calls only NumPy's own ufuncs", what);
            return NULL;
        }
        char buf[128];
        snprintf(buf, sizeof buf, "np.%s", PyUnicode_AsUTF8(name));
        Py_XDECREF(name);
        PyErr_Clear();
        return func_node(f, line, col, buf, NULL);
    }
    if (PyCFunction_Check(v) || PyMethod_Check(v) || PyCallable_Check(v)) {
        PyObject *self = PyObject_GetAttrString(v, "__self__");
        PyErr_Clear();
        PyObject *mod = PyObject_GetAttrString(v, "__module__");
        PyErr_Clear();
        PyObject *name = PyObject_GetAttrString(v, "__name__");
        PyErr_Clear();
        const char *ms = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : "";
        const char *ns = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?";
        char buf[160] = "";
        if (self && strcmp(Py_TYPE(self)->tp_name, "Random") == 0)
            snprintf(buf, sizeof buf, "random.%s", ns);
        else if ((self && strstr(Py_TYPE(self)->tp_name, "RandomState")) ||   /* numpy.random.mtrand.RandomState */
                 strncmp(ms, "numpy.random", 12) == 0)
            snprintf(buf, sizeof buf, "np.random.%s", ns);
        else if (strcmp(ms, "builtins") == 0)
            snprintf(buf, sizeof buf, "%s", ns);
        else if (strcmp(ms, "_kiln") == 0 && strcmp(ns, "prange") == 0)   /* kiln.prange: parallel.h */
            snprintf(buf, sizeof buf, "prange");
        else if (strcmp(ms, "math") == 0 || strcmp(ms, "cmath") == 0)
            snprintf(buf, sizeof buf, "%s.%s", ms, ns);
        else if (strcmp(ms, "_operator") == 0)   /* operator.add: the operator itself (infer_calls.c) */
            snprintf(buf, sizeof buf, "operator.%s", ns);
        else if (strncmp(ms, "numpy", 5) == 0)
            snprintf(buf, sizeof buf, "np.%s", ns);
        bool python_function = PyFunction_Check(v);
        Py_XDECREF(self);
        Py_XDECREF(mod);
        Py_XDECREF(name);
        if (buf[0])
            return func_node(f, line, col, buf, NULL);
        if (python_function) {
            kj_fail(e, KJ_ERR_TYPING, line, col,
                    "Decorate it with @kiln.jit so it is compiled too.",
                    "%s is a plain Python function; compiled code can only call kiln functions",
                    what);
            return NULL;
        }
    }
unknown:
    kj_fail(e, KJ_ERR_TYPING, line, col,
            "Pass it as an argument, or use a number, tuple, NumPy scalar or module.",
            "%s is a %s, which compiled code cannot use", what, Py_TYPE(v)->tp_name);
    return NULL;
}

