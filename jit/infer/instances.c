/* instances: the instances of a compile unit, each a kiln function with
 * its argument types and options, made from the front end on demand: the
 * one asked for by the compile driver, and each callee inference meets. */
#include "jit/core/unit.h"
#include "jit/frontend/frontend.h"

#include <stdio.h>
#include <string.h>

kj_options kj_read_options(PyObject *dispatcher) {
    kj_fn_state *st = kj_fn_state_of(dispatcher);
    kj_options o = st ? st->opts : (kj_options){0};
    /* a kiln.vectorize / guvectorize kernel (ufunc.c): a poll in its counted
     * loops, once per element or row, is a large share of a gufunc's time
     * over short rows; the ufunc's own loop polls every chunk of them */
    o.loops_polled_outside = PyObject_HasAttrString(dispatcher, "_kiln_ufunc");
    return o;
}

/* Inner functions of f (lifted dispatchers in f->keep, inner.c) compile
 * with the options of the function they are defined in. */
static void inherit_options(kj_function *f, PyObject *dispatcher) {
    kj_fn_state *st = kj_fn_state_of(dispatcher);
    for (Py_ssize_t i = 0; st && i < PyList_GET_SIZE(f->keep); i++) {
        PyObject *d = PyList_GET_ITEM(f->keep, i), *names = kj_lifted_freevars(d);
        kj_fn_state *inner = names ? kj_fn_state_of(d) : NULL;
        if (inner) {
            inner->opts = st->opts;
            inner->cache = st->cache;
        }
        Py_XDECREF(names);
    }
}

/* The declared signature of a locked dispatcher that accepts these types:
 * sets *args_out and *ret_out, or returns 0 if it has none to offer. */
static int locked_signature(PyObject *dispatcher, int nargs, const kj_type *const *args,
                            const kj_type **args_out, const kj_type **ret_out, kj_error *e) {
    kj_fn_state *st = kj_fn_state_of(dispatcher);
    PyObject *locked = st ? st->locked : NULL;
    if (!locked || PyList_GET_SIZE(locked) == 0)
        return 0;
    Py_INCREF(locked);   /* kept should reading a spec run Python code that declares others */
    int found = -1;
    for (Py_ssize_t i = 0; found < 0 && !PyErr_Occurred() && i < PyList_GET_SIZE(locked); i++) {
        PyObject *sig = PyList_GET_ITEM(locked, i);   /* (argspecs, retspec or None), checked when set */
        PyObject *specs = PyTuple_GET_ITEM(sig, 0), *ret = PyTuple_GET_ITEM(sig, 1);
        if (PyTuple_GET_SIZE(specs) != nargs)
            continue;
        bool ok = true;
        for (int k = 0; ok && k < nargs; k++) {
            const kj_type *t = kj_type_from_spec(PyTuple_GET_ITEM(specs, k));
            ok = t && kj_can_convert(args[k], t);
            if (t)
                args_out[k] = t;
        }
        if (ok) {
            *ret_out = ret == Py_None ? NULL : kj_type_from_spec(ret);
            found = 1;
        }
    }
    Py_DECREF(locked);
    return PyErr_Occurred() ? kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "signature") : found;
}

/* The Python function to compile for these argument types: the
 * dispatcher's py_func, or what its _kiln_impl_for gives for the types'
 * specs (kiln.extending.overload: an implementation per type). A new
 * reference, or NULL with a Python exception set. */
static PyObject *function_for(PyObject *dispatcher, int nargs, const kj_type *const *args) {
    PyObject *pick = PyObject_GetAttrString(dispatcher, "_kiln_impl_for");
    if (!pick) {
        PyErr_Clear();
        return PyObject_GetAttrString(dispatcher, "py_func");
    }
    PyObject *specs = PyTuple_New(nargs), *fn = NULL;
    for (int i = 0; specs && i < nargs; i++) {
        PyObject *spec = kj_type_to_spec(args[i]);
        if (!spec)
            Py_CLEAR(specs);
        else
            PyTuple_SET_ITEM(specs, i, spec);
    }
    if (specs)
        fn = PyObject_CallOneArg(pick, specs);
    Py_XDECREF(specs);
    Py_DECREF(pick);
    return fn;
}

static int symbol_counter;

kj_instance *kj_unit_instance(kj_unit *u, PyObject *dispatcher, int nargs,
                              const kj_type *const *args0) {
    const kj_type *args[nargs > 0 ? nargs : 1], *declared = NULL;
    memcpy(args, args0, sizeof(kj_type *) * (size_t)nargs);
    int locked = dispatcher == u->exact_dispatcher ? 0 : locked_signature(dispatcher, nargs, args0, args, &declared, &u->err);
    if (locked < 0 && u->err.kind != KJ_ERR_NONE)
        return NULL;
    for (kj_instance *in = u->instances; in; in = in->next)
        if (in->dispatcher == dispatcher && in->f->nargs == nargs &&
            memcmp(in->args, args, sizeof(kj_type *) * (size_t)nargs) == 0)
            return in;
    PyObject *py_func = function_for(dispatcher, nargs, args);
    if (!py_func) {
        kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "py_func");
        return NULL;
    }
    kj_function *partial = NULL;
    kj_function *f = kj_frontend(dispatcher, py_func, &u->err, &partial);
    Py_DECREF(py_func);
    if (!f) {
        if (partial) {   /* kept to show the source line; freed with the unit */
            kj_function_free(u->orphan);
            u->orphan = partial;
            u->err_function = partial;
        }
        return NULL;
    }
    kj_instance *in = calloc(1, sizeof *in);
    if (!in || !(in->args = calloc((size_t)nargs + 1, sizeof(kj_type *)))) {
        free(in);
        kj_function_free(f);
        kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
        PyErr_NoMemory();
        return NULL;
    }
    in->f = f;
    in->dispatcher = dispatcher;
    if (f->nargs != nargs) {
        kj_fail(&u->err, KJ_ERR_TYPING, f->first_line, 0, "Pass every parameter by position.",
                "%s takes %d arguments, %d given", f->qualname, f->nargs, nargs);
        u->err_function = f;
    }
    if (locked < 0) {
        kj_fail(&u->err, KJ_ERR_TYPING, f->first_line, 0,
                "Add a signature for these types, or remove the signatures to let Kiln infer them.",
                "no signature of %s accepts these argument types", f->qualname);
        u->err_function = f;
    }
    memcpy(in->args, args, sizeof(kj_type *) * (size_t)nargs);
    in->ret = declared;
    in->ret_declared = declared != NULL;
    in->opts = kj_read_options(dispatcher);
    inherit_options(f, dispatcher);
    char name[80];
    snprintf(name, sizeof name, "%s", f->qualname);
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    snprintf(in->symbol, sizeof in->symbol, "kiln_%s_%d", name, ++symbol_counter);
    /* append: the first instance stays the one asked for */
    kj_instance **tail = &u->instances;
    while (*tail)
        tail = &(*tail)->next;
    *tail = in;
    return u->err.kind == KJ_ERR_NONE ? in : NULL;
}
