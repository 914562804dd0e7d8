/* bind: a call from compiled code to another kiln function, with keyword
 * arguments, the callee's default values and *args (and an inner function's
 * free variables), rewritten to the plain positional call the later phases
 * know. It runs in the front end, so inference and lowering never see a
 * keyword or a missing argument: the defaults become constants, read once
 * when the caller is compiled, as Python reads them once when the def runs;
 * the arguments a callee's *args collects become one tuple display. A call
 * that spreads a tuple, g(*t), is bound by inference instead, once t's type
 * says how many arguments it gives (kj_bind_spread). */
#include "jit/frontend/frontend.h"

#include <limits.h>
#include <string.h>

/* The callee's positional parameter names (new reference, a tuple),
 * defaults (new reference, a tuple, possibly empty) and whether it collects
 * *args; -1 with a Python error set. */
static int callee_params(PyObject *dispatcher, PyObject **names, PyObject **defaults, bool *vararg) {
    *names = *defaults = NULL;
    PyObject *fn = PyObject_GetAttrString(dispatcher, "py_func");
    PyObject *code = fn ? PyObject_GetAttrString(fn, "__code__") : NULL;
    PyObject *varnames = code ? PyObject_GetAttrString(code, "co_varnames") : NULL;
    PyObject *argcount = code ? PyObject_GetAttrString(code, "co_argcount") : NULL;
    PyObject *flags = code ? PyObject_GetAttrString(code, "co_flags") : NULL;
    PyObject *dfl = fn ? PyObject_GetAttrString(fn, "__defaults__") : NULL;
    Py_ssize_t n = argcount ? PyLong_AsSsize_t(argcount) : -1;
    *vararg = flags && (PyLong_AsLong(flags) & CO_VARARGS);
    if (varnames && dfl && n >= 0 && PyTuple_Check(varnames) && n <= PyTuple_GET_SIZE(varnames)) {
        *names = PyTuple_GetSlice(varnames, 0, n);
        *defaults = dfl == Py_None ? PyTuple_New(0) : (Py_INCREF(dfl), dfl);
    }
    Py_XDECREF(fn);
    Py_XDECREF(code);
    Py_XDECREF(varnames);
    Py_XDECREF(argcount);
    Py_XDECREF(flags);
    Py_XDECREF(dfl);
    if (*names && *defaults && PyTuple_Check(*defaults))
        return 0;
    Py_CLEAR(*names);
    Py_CLEAR(*defaults);
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "kiln: cannot read the called function's parameters");
    return -1;
}

static int param_index(PyObject *names, const char *name) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++)
        if (strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)), name) == 0)
            return (int)i;
    return -1;
}

/* Fills slots[0..nparams) from the call's positional and keyword kids and
 * the defaults, and with *args (vararg) slots[nparams] with a tuple display
 * of the positional arguments left over; source_at[slot] is where the
 * slot's value stands among the call's kids (INT_MAX for a default, a
 * constant). The messages are Python's own for the same mistakes. */
static int fill_slots(kj_function *f, kj_error *e, kj_node *call, const char *callee, PyObject *names,
                      PyObject *defaults, bool vararg, kj_node **slots, int *source_at) {
    int nparams = (int)PyTuple_GET_SIZE(names), npos = 0, given = 0;
    for (int i = 1; i < call->nkids; i++)
        given += call->kids[i]->kind != KJ_E_KEYWORD;
    if (given > nparams && !vararg)
        return kj_fail(e, KJ_ERR_TYPING, call->line, call->col, NULL,
                       "%s() takes %d positional argument(s) but %d were given", callee, nparams, given);
    kj_node *rest = NULL;
    if (vararg) {
        int extra = given > nparams ? given - nparams : 0;
        if (!(rest = kj_new_node(f, KJ_E_TUPLE, call->line, call->col, extra)))
            return kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
        rest->nkids = 0;   /* filled below */
        slots[nparams] = rest;
        source_at[nparams] = INT_MAX;
    }
    for (int i = 1; i < call->nkids; i++) {
        kj_node *k = call->kids[i];
        if (k->kind != KJ_E_KEYWORD) {
            if (npos < nparams) {
                source_at[npos] = i;
                slots[npos++] = k;
            } else {
                if (rest->nkids == 0)
                    source_at[nparams] = i;
                rest->kids[rest->nkids++] = k;
            }
            continue;
        }
        int p = param_index(names, k->name);
        if (p < 0)
            return kj_fail(e, KJ_ERR_TYPING, k->line, k->col, NULL,
                           "%s() got an unexpected keyword argument '%s'", callee, k->name);
        if (slots[p])
            return kj_fail(e, KJ_ERR_TYPING, k->line, k->col, NULL,
                           "%s() got multiple values for argument '%s'", callee, k->name);
        slots[p] = k->kids[0];
        source_at[p] = i;
    }
    int first_default = nparams - (int)PyTuple_GET_SIZE(defaults);
    for (int p = 0; p < nparams; p++) {
        if (slots[p])
            continue;
        const char *pname = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, p));
        if (p < first_default)
            return kj_fail(e, KJ_ERR_TYPING, call->line, call->col, NULL,
                           "%s() missing required argument '%s'", callee, pname);
        source_at[p] = INT_MAX;
        char what[200];
        snprintf(what, sizeof what, "the default value of %s's parameter '%s'", callee, pname);
        if (!(slots[p] = kj_value_node(f, e, PyTuple_GET_ITEM(defaults, p - first_default), call->line,
                                       call->col, what)))
            return -1;
    }
    return 0;
}

/* Python evaluates a call's arguments as they stand in the source; bound,
 * they stand in the callee's order, so where keywords were given in another
 * order (and one of them may raise first) the call keeps the source's order
 * for lowering. 0, or -1 out of memory. */
static int keep_source_order(kj_function *f, kj_node *call, const int *source_at, int nslots) {
    int order[nslots + 1];
    bool moved = false;
    for (int s = 0; s < nslots; s++) {   /* a stable insertion sort by source position */
        int j = s;
        for (; j > 0 && source_at[order[j - 1] - 1] > source_at[s]; j--)
            order[j] = order[j - 1];
        order[j] = s + 1;
        moved |= j != s;
    }
    if (!moved)
        return 0;
    order[nslots] = -1;
    if (!(call->arg_order = kj_alloc(f, sizeof order)))
        return -1;
    memcpy(call->arg_order, order, sizeof order);
    return 0;
}

/* An inner function's free variables, read where the call is, appended. */
static int pass_freevars(kj_function *f, kj_node *call,
                         kj_node *(*load)(void *ctx, const char *name, int line, int col), void *ctx) {
    PyObject *names = kj_lifted_freevars(call->kids[0]->pyobj);
    if (!names)
        return 0;
    int nfree = (int)PyTuple_GET_SIZE(names), rc = 0;
    kj_node **kids = kj_alloc(f, sizeof(kj_node *) * (size_t)(call->nkids + nfree));
    if (!kids)
        rc = -1;
    for (int i = 0; rc == 0 && i < nfree; i++)
        if (!(kids[call->nkids + i] = load(ctx, PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)), call->line, call->col)))
            rc = -1;
    if (rc == 0) {
        memcpy(kids, call->kids, sizeof(kj_node *) * (size_t)call->nkids);
        call->kids = kids;
        call->nkids += nfree;
    }
    Py_DECREF(names);
    return rc;
}

/* Binds call (its kids[1..nkids - nfree), the last nfree being an inner
 * function's free variables, already read) to the callee's parameters. */
static int bind(kj_function *f, kj_error *e, kj_node *call, int nfree) {
    bool keywords = false, vararg;
    int nkids = call->nkids - nfree;
    for (int i = 1; i < nkids; i++)
        keywords |= call->kids[i]->kind == KJ_E_KEYWORD;
    PyObject *names, *defaults;
    if (callee_params(call->kids[0]->pyobj, &names, &defaults, &vararg) < 0)
        return kj_fail(e, KJ_ERR_PYTHON, call->line, call->col, NULL, "binding a call");
    int nparams = (int)PyTuple_GET_SIZE(names), nslots = nparams + vararg, rc = 0;
    if (keywords || vararg || nkids - 1 != nparams) {
        PyObject *qn = PyObject_GetAttrString(call->kids[0]->pyobj, "__qualname__");
        const char *callee = qn && PyUnicode_Check(qn) ? PyUnicode_AsUTF8(qn) : "the function";
        PyErr_Clear();
        kj_node **kids = kj_alloc(f, sizeof(kj_node *) * (size_t)(nslots + nfree + 1));
        rc = kids ? 0 : kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
        if (rc == 0) {
            memset(kids, 0, sizeof(kj_node *) * (size_t)(nslots + 1));
            kids[0] = call->kids[0];
            call->nkids = nkids;   /* the free variables stay out of the binding */
            int source_at[nslots + 1];
            rc = fill_slots(f, e, call, callee, names, defaults, vararg, kids + 1, source_at);
            if (rc == 0 && keep_source_order(f, call, source_at, nslots) < 0)
                rc = kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
            memcpy(kids + nslots + 1, call->kids + nkids, sizeof(kj_node *) * (size_t)nfree);
            call->nkids = nkids + nfree;
        }
        if (rc == 0) {
            call->kids = kids;
            call->nkids = nslots + nfree + 1;
        }
        Py_XDECREF(qn);
    }
    Py_DECREF(names);
    Py_DECREF(defaults);
    return rc;
}

int kj_bind_call(kj_function *f, kj_error *e, kj_node *call,
                 kj_node *(*load)(void *ctx, const char *name, int line, int col), void *ctx) {
    bool spread = false;
    for (int i = 1; i < call->nkids; i++)
        spread |= call->kids[i]->kind == KJ_E_STARRED;
    if (!spread && bind(f, e, call, 0) < 0)
        return -1;
    int nkids = call->nkids;
    if (pass_freevars(f, call, load, ctx) < 0)
        return kj_fail(e, KJ_ERR_PYTHON, call->line, call->col, NULL, "inner function call");
    call->ival = spread ? call->nkids - nkids : 0;   /* the free variables kj_bind_spread leaves alone */
    return 0;
}

int kj_bind_spread(kj_function *f, kj_error *e, kj_node *call) {
    return bind(f, e, call, (int)call->ival);
}
