/* frontend_stmt: the statements of the front end (frontend.c has the
 * expressions and the helpers over ast objects), and kj_frontend, which
 * walks one function. */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend/frontend_int.h"
#include "jit/core/numpy_api.h"
#include "jit/frontend/source.h"

#include <string.h>

static int stmts(fe *c, PyObject *list, kj_block *out);
static PyObject *constant_branch(PyObject *node, PyObject **test_effects);

/* One `except ...:` clause: the classes it names (none for a bare except). */
static kj_node *except_clause(fe *c, PyObject *h) {
    PyObject *type = kj_fe_get(c, h, "type"), *name = kj_fe_get(c, h, "name"), *body = kj_fe_get(c, h, "body");
    kj_node *n = kj_new_node(c->f, KJ_S_EXCEPT, kj_fe_line(c, h), kj_fe_col(c, h), 0), *r = NULL;
    PyObject *elts = type && kj_fe_is(type, "Tuple") ? PyObject_GetAttrString(type, "elts") : NULL;
    int nclasses = type == Py_None ? 0 : elts ? (int)PyList_GET_SIZE(elts) : 1;
    if (!n || !type || !name || !body)
        goto done;
    fe_handler self = {.node = n, .name = name != Py_None ? PyUnicode_AsUTF8(name) : NULL, .outer = c->handler};
    if (self.name && kj_fe_is_local(c->f, self.name)) {
        kj_fe_unsupported(c, h, "Give the exception a name of its own.",
                          "the name of the caught exception is also a variable of the function");
        goto done;
    }
    if (nclasses && !(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)nclasses)))
        goto done;
    for (int i = 0; i < nclasses; i++) {
        PyObject *t = elts ? PyList_GET_ITEM(elts, i) : type;
        if (!(n->kids[i] = kj_fe_expr(c, t)))
            goto done;
        if (n->kids[i]->kind != KJ_E_EXC) {
            kj_fe_unsupported(c, t, "Name exception classes such as ValueError or Exception.",
                        "except needs an exception class");
            goto done;
        }
    }
    n->nkids = nclasses;
    c->handler = &self;
    if (stmts(c, body, &n->body) == 0)
        r = n;
    c->handler = self.outer;
done:
    Py_XDECREF(type);
    Py_XDECREF(name);
    Py_XDECREF(body);
    Py_XDECREF(elts);
    return r;
}

/* Whether a return, break or continue is anywhere inside node (not
 * counting inner defs): try ... finally supports only bodies that run to
 * their end or raise. */
static bool leaves_early(PyObject *node) {
    if (PyList_Check(node)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(node); i++)
            if (leaves_early(PyList_GET_ITEM(node, i)))
                return true;
        return false;
    }
    if (kj_fe_is(node, "Return") || kj_fe_is(node, "Break") || kj_fe_is(node, "Continue"))
        return true;
    if (kj_fe_is(node, "FunctionDef") || kj_fe_is(node, "Lambda"))
        return false;
    static const char *const blocks[] = {"body", "orelse", "handlers", "finalbody"};
    bool found = false;
    for (size_t i = 0; !found && i < sizeof blocks / sizeof blocks[0]; i++) {
        PyObject *v = PyObject_GetAttrString(node, blocks[i]);
        if (!v)
            PyErr_Clear();
        else if (PyList_Check(v))
            found = leaves_early(v);
        Py_XDECREF(v);
    }
    return found;
}

/* try / except / else / finally (lower.c lower_try). */
static int try_stmt(fe *c, PyObject *node, kj_node *n) {
    PyObject *body = kj_fe_get(c, node, "body"), *handlers = kj_fe_get(c, node, "handlers"),
             *orelse = kj_fe_get(c, node, "orelse"), *final = kj_fe_get(c, node, "finalbody");
    int r = -1;
    if (!body || !handlers || !orelse || !final)
        goto done;
    bool fin = PyList_GET_SIZE(final) > 0;
    if (fin && leaves_early(node)) {
        kj_fe_unsupported(c, node, "Set a result and return after the try statement.",
                    "return, break or continue inside try ... finally is not supported in compiled code");
        goto done;
    }
    n->kind = KJ_S_TRY;
    int nh = (int)PyList_GET_SIZE(handlers);
    n->nkids = nh + fin;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids ? n->nkids : 1))))
        goto done;
    for (int i = 0; i < nh; i++)
        if (!(n->kids[i] = except_clause(c, PyList_GET_ITEM(handlers, i))))
            goto done;
    if (fin && (!(n->kids[nh] = kj_new_node(c->f, KJ_S_FINALLY, n->line, n->col, 0)) ||
                stmts(c, final, &n->kids[nh]->body) < 0))
        goto done;
    if (stmts(c, body, &n->body) == 0 && stmts(c, orelse, &n->orelse) == 0)
        r = 0;
done:
    Py_XDECREF(body);
    Py_XDECREF(handlers);
    Py_XDECREF(orelse);
    Py_XDECREF(final);
    return r;
}

static int raise_stmt(fe *c, PyObject *node, kj_node *n) {
    PyObject *exc = kj_fe_get(c, node, "exc");
    if (!exc)
        return -1;
    n->kind = KJ_S_RAISE;
    n->nkids = 1;
    int r = -1;
    PyObject *callee = NULL, *args = NULL;
    PyObject *id = kj_fe_is(exc, "Name") ? PyObject_GetAttrString(exc, "id") : NULL;
    bool reraise = exc == Py_None || (id && c->handler && c->handler->name &&
                                      strcmp(PyUnicode_AsUTF8(id), c->handler->name) == 0);
    Py_XDECREF(id);
    PyErr_Clear();
    if (reraise) {   /* raise, or raise e in `except ... as e`: the caught exception again */
        if (!c->handler) {
            kj_fe_unsupported(c, node, "Raise an exception class or instance.",
                              "bare raise outside an except clause is not supported");
            goto done;
        }
        c->handler->node->ival = 1;
        n->nkids = 0;
        r = 0;
        goto done;
    }
    if (kj_fe_is(exc, "Call")) {
        callee = kj_fe_get(c, exc, "func");
        args = kj_fe_get(c, exc, "args");
        if (!callee || !args)
            goto done;
        if (PyList_GET_SIZE(args) == 1 && !kj_fe_is(PyList_GET_ITEM(args, 0), "Constant")) {
            /* raise E(f"..."), raise E(msg): the message is made when raising (strings.c), as
             * str() of the argument (an f-string's parts, or f"{msg}" of anything else) */
            PyObject *arg = PyList_GET_ITEM(args, 0);
            n->nkids = 2;
            if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) || !(n->kids[1] = kj_fe_expr(c, arg)) ||
                !(n->kids[0] = kj_fe_expr(c, callee)))
                goto done;
            if (!kj_fe_is(arg, "JoinedStr")) {
                kj_node *text = kj_new_node(c->f, KJ_E_FSTRING, n->kids[1]->line, n->kids[1]->col, 1);
                kj_node *part = text ? kj_new_node(c->f, KJ_E_FORMAT, n->kids[1]->line, n->kids[1]->col, 1) : NULL;
                if (!part)
                    goto done;
                part->kids[0] = n->kids[1];
                text->kids[0] = part;
                n->kids[1] = text;
            }
            if (n->kids[0]->kind != KJ_E_EXC) {
                kj_fe_unsupported(c, node, "Raise a built-in exception class such as ValueError.",
                            "only exception classes can be raised in compiled code");
                goto done;
            }
            r = 0;
            goto done;
        }
        if (PyList_GET_SIZE(args) > 1) {
            kj_fe_unsupported(c, exc, "Give one message: raise ValueError(f\"x is {x}, y is {y}\").",
                        "an exception takes one argument in compiled code");
            goto done;
        }
        if (PyList_GET_SIZE(args) == 1) {
            PyObject *v = kj_fe_get(c, PyList_GET_ITEM(args, 0), "value");
            if (!v)
                goto done;
            PyObject *s = PyObject_Str(v);
            Py_DECREF(v);
            if (!s || !(n->str = kj_strdup(c->f, PyUnicode_AsUTF8(s)))) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
    }
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))) || !(n->kids[0] = kj_fe_expr(c, callee ? callee : exc)))
        goto done;
    if (n->kids[0]->kind != KJ_E_EXC) {
        kj_fe_unsupported(c, node, "Raise a built-in exception class such as ValueError.",
                    "only exception classes can be raised in compiled code");
        goto done;
    }
    r = 0;
done:
    Py_DECREF(exc);
    Py_XDECREF(callee);
    Py_XDECREF(args);
    return r;
}

/* assert test, msg -> if not test: raise AssertionError(msg) */
static int assert_stmt(fe *c, PyObject *node, kj_node *n) {
    PyObject *test = kj_fe_get(c, node, "test"), *msg = kj_fe_get(c, node, "msg");
    int r = -1;
    if (!test || !msg)
        goto done;
    n->kind = KJ_S_IF;
    n->nkids = 1;
    kj_node *not = kj_new_node(c->f, KJ_E_UNARY, n->line, n->col, 1);
    kj_node *raise = kj_new_node(c->f, KJ_S_RAISE, n->line, n->col, 1);
    kj_node *cls = kj_new_node(c->f, KJ_E_EXC, n->line, n->col, 0);
    if (!not || !raise || !cls || !(n->kids = kj_alloc(c->f, sizeof(kj_node *))) ||
        !(not->kids[0] = kj_fe_expr(c, test)))
        goto done;
    not->op = KJ_OP_NOT;
    n->kids[0] = not;
    cls->pyobj = PyExc_AssertionError;
    raise->kids[0] = cls;
    if (msg != Py_None) {
        PyObject *v = kj_fe_is(msg, "Constant") ? PyObject_GetAttrString(msg, "value") : NULL;
        PyObject *s = v ? PyObject_Str(v) : NULL;
        Py_XDECREF(v);
        if (!s) {
            PyErr_Clear();
            kj_fe_unsupported(c, node, NULL, "the message of assert must be a constant");
            goto done;
        }
        raise->str = kj_strdup(c->f, PyUnicode_AsUTF8(s));
        Py_DECREF(s);
    }
    r = kj_block_push(c->f, &n->body, raise);
done:
    Py_XDECREF(test);
    Py_XDECREF(msg);
    return r;
}

static int stmt(fe *c, PyObject *node, kj_block *out);

/* `del x[k]` as `x.pop(k)`, which removes a dict's key (KeyError when it
 * is missing) or a list's item as Python's del does; -1 with c->e filled
 * for other targets. */
static int delete_stmt(fe *c, PyObject *node, kj_block *out) {
    PyObject *targets = kj_fe_get(c, node, "targets");
    int r = targets ? 0 : -1;
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(targets); i++) {
        PyObject *t = PyList_GET_ITEM(targets, i), *index = NULL;
        if (!kj_fe_is(t, "Subscript") || !(index = PyObject_GetAttrString(t, "slice")) || kj_fe_is(index, "Slice")) {
            PyErr_Clear();
            Py_XDECREF(index);
            r = kj_fe_unsupported(c, t, "Assign a new value instead; dict keys and list items go with del d[k].",
                                  "del of anything but one dict key or list item is not supported in compiled code");
            break;
        }
        PyObject *ast = PyImport_ImportModule("ast"), *value = PyObject_GetAttrString(t, "value");
        PyObject *load = ast ? PyObject_CallMethod(ast, "Load", NULL) : NULL;
        PyObject *pop = load && value ? PyObject_CallMethod(ast, "Attribute", "OsO", value, "pop", load) : NULL;
        PyObject *call = pop ? PyObject_CallMethod(ast, "Call", "O[O][]", pop, index) : NULL;
        PyObject *expr = call ? PyObject_CallMethod(ast, "Expr", "O", call) : NULL;
        PyObject *made[] = {pop, call, expr};
        if (!kj_fe_place(ast, made, sizeof made / sizeof *made, t)) {
            PyErr_Clear();
            kj_fail(c->e, KJ_ERR_PYTHON, kj_fe_line(c, t), kj_fe_col(c, t), NULL, "del");
            r = -1;
        } else {
            r = stmt(c, expr, out);
        }
        for (size_t k = 0; k < sizeof made / sizeof *made; k++)
            Py_XDECREF(made[k]);
        Py_XDECREF(load);
        Py_XDECREF(value);
        Py_XDECREF(ast);
        Py_DECREF(index);
    }
    Py_XDECREF(targets);
    return r;
}

/* How many times the function's ast stores to name (`name = ...`, a for
 * target, ...), or -1 on an error. */
static int stores_of(fe *c, const char *name) {
    static PyObject *walk;
    if (!walk) {
        PyObject *ast = PyImport_ImportModule("ast");
        walk = ast ? PyObject_GetAttrString(ast, "walk") : NULL;
        Py_XDECREF(ast);
        if (!walk)
            return -1;
    }
    PyObject *nodes = PyObject_CallOneArg(walk, c->fdef), *it = nodes ? PyObject_GetIter(nodes) : NULL, *node;
    int count = it ? 0 : -1;
    while (it && (node = PyIter_Next(it))) {
        if (kj_fe_is(node, "Name")) {
            PyObject *id = PyObject_GetAttrString(node, "id"), *ctx = PyObject_GetAttrString(node, "ctx");
            if (id && ctx && !kj_fe_is(ctx, "Load") && !strcmp(PyUnicode_AsUTF8(id), name))
                count++;
            Py_XDECREF(id);
            Py_XDECREF(ctx);
        }
        Py_DECREF(node);
    }
    Py_XDECREF(it);
    Py_XDECREF(nodes);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return count;
}

/* dt = np.int_ (a NumPy scalar type, or a np.dtype, read from a global or
 * a module), value being its right side as read: dt stands for that type
 * wherever it is read, as the global would (frontend.c), when nothing else
 * assigns dt. 1 when it is such an assignment, 0 when not, -1 on an error. */
static int type_alias(fe *c, const char *name, const kj_node *value) {
    if (value->kind != KJ_E_FUNC || !value->name || strncmp(value->name, "cast:", 5) != 0 || stores_of(c, name) != 1)
        return 0;
    PyObject *type_name = PyUnicode_FromString(value->name);
    if (!type_name || (!c->slices && !(c->slices = PyDict_New())) || PyDict_SetItemString(c->slices, name, type_name) < 0) {
        Py_XDECREF(type_name);
        return kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "memory"), -1;
    }
    Py_DECREF(type_name);
    return 1;
}

/* Whether node is a call of the builtin slice, by positional arguments. */
static bool slice_call(fe *c, PyObject *node) {
    if (!kj_fe_is(node, "Call"))
        return false;
    PyObject *fn = PyObject_GetAttrString(node, "func"), *kw = PyObject_GetAttrString(node, "keywords"),
             *id = fn && kj_fe_is(fn, "Name") ? PyObject_GetAttrString(fn, "id") : NULL;
    bool yes = false;
    if (id && kw && PyList_GET_SIZE(kw) == 0 && !kj_fe_is_local(c->f, PyUnicode_AsUTF8(id))) {
        PyObject *v = c->closure ? PyDict_GetItem(c->closure, id) : NULL;
        if (!v)
            v = PyDict_GetItem(c->globals, id);
        if (!v && c->builtins)
            v = PyDict_GetItem(c->builtins, id);
        yes = v == (PyObject *)&PySlice_Type;
    }
    Py_XDECREF(fn);
    Py_XDECREF(kw);
    Py_XDECREF(id);
    PyErr_Clear();
    return yes;
}

/* s = slice(a, b, c): each bound given is held in a local of its own, and
 * s stands for a:b:c wherever it indexes (frontend.c: expr_subscript); an
 * omitted or None bound is left out of the slice, as Python leaves it. */
static int slice_object(fe *c, const char *name, PyObject *call, int line, int col, kj_block *out) {
    PyObject *args = PyObject_GetAttrString(call, "args");
    Py_ssize_t n = args ? PyList_GET_SIZE(args) : -1;
    int r = -1;
    if (n < 1 || n > 3) {
        r = kj_fail(c->e, KJ_ERR_TYPING, line, col, NULL, "slice expected 1 to 3 arguments, got %zd", n);
        goto done;
    }
    if (stores_of(c, name) != 1) {
        r = kj_fail(c->e, KJ_ERR_UNSUPPORTED, line, col, "Give each slice a name of its own, assigned once.",
                    "a name that holds a slice object is assigned only that once in compiled code; %s is assigned again",
                    name);
        goto done;
    }
    if (!c->slices && !(c->slices = PyDict_New())) {
        r = kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
        goto done;
    }
    PyObject *slots = PyTuple_New(3);
    static const char *const part[] = {"start", "stop", "step"};
    for (int k = 0; slots && k < 3; k++) {   /* slice(stop) names only its stop */
        PyObject *bound = n == 1 ? (k == 1 ? PyList_GET_ITEM(args, 0) : NULL) : k < n ? PyList_GET_ITEM(args, k) : NULL;
        PyObject *value = bound && kj_fe_is(bound, "Constant") ? PyObject_GetAttrString(bound, "value") : NULL;
        bool none = !bound || value == Py_None;
        Py_XDECREF(value);
        PyErr_Clear();
        if (none) {
            PyTuple_SET_ITEM(slots, k, Py_NewRef(Py_None));
            continue;
        }
        char local[160];
        snprintf(local, sizeof local, "(%s.%s)", name, part[k]);   /* no Python name can clash */
        int slot = kj_fe_add_local(c->f, local, false);
        kj_node *s = slot >= 0 ? kj_new_node(c->f, KJ_S_ASSIGN, line, col, 2) : NULL;
        kj_node *target = s ? kj_new_node(c->f, KJ_E_LOCAL, line, col, 0) : NULL;
        if (!target || !(s->kids[1] = kj_fe_expr(c, bound)) || kj_block_push(c->f, out, s) < 0) {
            Py_CLEAR(slots);
            break;
        }
        target->slot = slot;
        s->kids[0] = target;
        PyTuple_SET_ITEM(slots, k, PyLong_FromLong(slot));
    }
    if (slots && PyDict_SetItemString(c->slices, name, slots) == 0)
        r = 0;
    else if (c->e->kind == KJ_ERR_NONE)
        kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "slice");
    Py_XDECREF(slots);
done:
    Py_XDECREF(args);
    return r;
}

/* `a[i] = b[j] = v`, whose first target is not a plain name: v is
 * evaluated once into a local of its own, then given to each target left
 * to right, as Python assigns them. (With a name first, the name itself
 * serves: `x = a[i] = v` is `x = v; a[i] = x`.) */
static int chained_assign(fe *c, PyObject *targets, kj_node *value, int line, int col, kj_block *out) {
    char name[48];
    snprintf(name, sizeof name, "(assigned at %d:%d)", line, col);   /* no Python name can clash */
    int slot = kj_fe_add_local(c->f, name, false);
    if (slot < 0)
        return kj_fail(c->e, KJ_ERR_PYTHON, line, col, NULL, "memory"), -1;
    for (Py_ssize_t i = -1; i < PyList_GET_SIZE(targets); i++) {
        kj_node *s = kj_new_node(c->f, KJ_S_ASSIGN, line, col, 0);
        kj_node *held = kj_new_node(c->f, KJ_E_LOCAL, line, col, 0);
        if (!s || !held || !(s->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)))
            return -1;
        held->slot = slot;
        s->nkids = 2;
        s->kids[0] = i < 0 ? held : kj_fe_target(c, PyList_GET_ITEM(targets, i));
        s->kids[1] = i < 0 ? value : held;
        if (!s->kids[0] || kj_block_push(c->f, out, s) < 0)
            return -1;
    }
    return 0;
}

static int stmt(fe *c, PyObject *node, kj_block *out) {
    int line = kj_fe_line(c, node), col = kj_fe_col(c, node);
    kj_node *n = kj_new_node(c->f, KJ_S_PASS, line, col, 0);
    if (!n)
        return -1;
    const char *k = kj_fe_kind_of(node);
    int r = -1;
    PyObject *a = NULL, *b = NULL, *d = NULL, *o = NULL, *lambda;
    if ((a = kj_fe_lambda_binding(node, &lambda))) {   /* f = lambda x: ...: an inner function named f */
        if ((c->inner || (c->inner = PyDict_New())) &&
            kj_inner_lambda(c->f, lambda, PyUnicode_AsUTF8(a), c->inner, kj_fe_line(c, lambda), kj_fe_col(c, lambda), c->e) == 0)
            r = 0;
        else if (c->e->kind == KJ_ERR_NONE)
            kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "lambda");
        goto done;
    }
    if (strcmp(k, "Delete") == 0) {
        r = delete_stmt(c, node, out);
        goto done;
    }
    if (strcmp(k, "Assign") == 0) {
        /* a = b = v  ->  a = v; b = a (v is evaluated once) */
        if (!(a = kj_fe_get(c, node, "targets")) || !(b = kj_fe_get(c, node, "value")))
            goto done;
        bool one_name = PyList_GET_SIZE(a) == 1 && kj_fe_is(PyList_GET_ITEM(a, 0), "Name");
        if (one_name && !(d = kj_fe_get(c, PyList_GET_ITEM(a, 0), "id")))
            goto done;
        if (one_name && slice_call(c, b)) {
            r = slice_object(c, PyUnicode_AsUTF8(d), b, line, col, out);
            goto done;
        }
        kj_node *value = kj_fe_expr(c, b);
        if (!value)
            goto done;
        int alias = one_name ? type_alias(c, PyUnicode_AsUTF8(d), value) : 0;
        if (alias != 0) {
            r = alias < 0 ? -1 : 0;
            goto done;
        }
        if (PyList_GET_SIZE(a) > 1 && !kj_fe_is(PyList_GET_ITEM(a, 0), "Name")) {
            r = chained_assign(c, a, value, line, col, out);
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(a); i++) {
            kj_node *s = i == 0 ? n : kj_new_node(c->f, KJ_S_ASSIGN, line, col, 0);
            if (!s || !(s->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) ||
                !(s->kids[0] = kj_fe_target(c, PyList_GET_ITEM(a, i))))
                goto done;
            s->kind = KJ_S_ASSIGN;
            s->nkids = 2;
            s->kids[1] = i == 0 ? value : n->kids[0];
            if (kj_block_push(c->f, out, s) < 0)
                goto done;
        }
        r = 0;
        goto done;
    }
    if (strcmp(k, "AugAssign") == 0 || strcmp(k, "AnnAssign") == 0) {
        bool aug = k[0] == 'A' && k[1] == 'u';
        if (!(a = kj_fe_get(c, node, "target")) || !(b = kj_fe_get(c, node, "value")))
            goto done;
        if (b == Py_None) {   /* x: int  (no value) */
            r = 0;
            goto done;
        }
        n->kind = aug ? KJ_S_AUGASSIGN : KJ_S_ASSIGN;
        n->nkids = 2;
        if (aug) {
            if (!(o = kj_fe_get(c, node, "op")))
                goto done;
            n->op = kj_fe_binop(o);
        }
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) || !(n->kids[0] = kj_fe_target(c, a)) ||
            !(n->kids[1] = kj_fe_expr(c, b)))
            goto done;
        if (aug && n->kids[0]->kind == KJ_E_TUPLE) {
            kj_fe_unsupported(c, node, NULL, "augmented assignment to a tuple is not valid");
            goto done;
        }
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Expr") == 0) {
        if (!(a = kj_fe_get(c, node, "value")))
            goto done;
        if (kj_fe_is(a, "Constant")) {   /* a docstring or a bare constant does nothing */
            r = 0;
            goto done;
        }
        n->kind = KJ_S_EXPR;
        n->nkids = 1;
        if ((n->kids = kj_alloc(c->f, sizeof(kj_node *))) && (n->kids[0] = kj_fe_expr(c, a)))
            r = kj_block_push(c->f, out, n);
        goto done;
    }
    PyObject *test = NULL;
    if ((d = constant_branch(node, &test))) {   /* folded as CPython folds it: then a function whose
                                                  * `if True:` returns does not also fall off its end */
        if (test) {   /* the test still runs for what it does: f(x) in `if f(x) and False:` */
            n->kind = KJ_S_EXPR;
            n->nkids = 1;
            bool pushed = (n->kids = kj_alloc(c->f, sizeof(kj_node *))) && (n->kids[0] = kj_fe_expr(c, test)) &&
                          kj_block_push(c->f, out, n) == 0;
            Py_DECREF(test);
            if (!pushed)
                goto done;
        }
        r = stmts(c, d, out);
        goto done;
    }
    if (strcmp(k, "If") == 0 || strcmp(k, "While") == 0 || strcmp(k, "For") == 0) {
        bool is_for = k[0] == 'F';
        n->kind = k[0] == 'I' ? KJ_S_IF : k[0] == 'W' ? KJ_S_WHILE : KJ_S_FOR;
        n->nkids = is_for ? 2 : 1;
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)))
            goto done;
        if (is_for) {
            if (!(a = kj_fe_get(c, node, "target")) || !(d = kj_fe_get(c, node, "iter")) ||
                !(n->kids[0] = kj_fe_target(c, a)) || !(n->kids[1] = kj_fe_expr(c, d)))
                goto done;
            if (n->kids[0]->kind == KJ_E_INDEX) {
                kj_fe_unsupported(c, node, "Loop over a local name.", "loop target must be a name or tuple");
                goto done;
            }
        } else if (!(a = kj_fe_get(c, node, "test")) || !(n->kids[0] = kj_fe_expr(c, a))) {
            goto done;
        }
        if (!(b = kj_fe_get(c, node, "body")) || !(o = kj_fe_get(c, node, "orelse")) ||
            stmts(c, b, &n->body) < 0 || stmts(c, o, &n->orelse) < 0)
            goto done;
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Break") == 0 || strcmp(k, "Continue") == 0 || strcmp(k, "Pass") == 0) {
        n->kind = k[0] == 'B' ? KJ_S_BREAK : k[0] == 'C' ? KJ_S_CONTINUE : KJ_S_PASS;
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Return") == 0) {
        if (!(a = kj_fe_get(c, node, "value")))
            goto done;
        n->kind = KJ_S_RETURN;
        n->nkids = 1;
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))))
            goto done;
        if (a != Py_None && !(n->kids[0] = kj_fe_expr(c, a)))
            goto done;
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "FunctionDef") == 0) {   /* an inner function (inner.c) */
        if ((c->inner || (c->inner = PyDict_New())) &&
            kj_inner_def(c->f, node, c->inner, kj_fe_line(c, node), kj_fe_col(c, node), c->e) == 0)
            r = 0;
        else if (c->e->kind == KJ_ERR_NONE)
            kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "inner function");
        goto done;
    }
    if (strcmp(k, "Try") == 0) {
        if (try_stmt(c, node, n) == 0)
            r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Raise") == 0) {
        if (raise_stmt(c, node, n) == 0)
            r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Assert") == 0) {
        if (assert_stmt(c, node, n) == 0)
            r = kj_block_push(c->f, out, n);
        goto done;
    }
    {
        static const struct { const char *kind, *hint; } hints[] = {
            {"With", "Move the with block outside the compiled function."},
            {"TryStar", "Use try / except without the star."},
            {"Global", "Pass the value as an argument, or return it."},
            {"Nonlocal", "Pass the value as an argument, or return it."},
            {"Import", "Import at module level; compiled code reads modules as globals."},
            {"ImportFrom", "Import at module level; compiled code reads modules as globals."},
        };
        const char *hint = NULL;
        for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
            if (strcmp(k, hints[i].kind) == 0)
                hint = hints[i].hint;
        char what[160];
        snprintf(what, sizeof what, "a %s statement is not supported in compiled code", k);
        kj_fe_unsupported(c, node, hint, what);
    }
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(d);
    Py_XDECREF(o);
    return r;
}

static bool always_leaves(PyObject *node);

/* The truth of an expression of constants (`True`, `not False`,
 * `True and 1`), or of `and` / `or` that a constant part decides whatever
 * came before it (`True or x`, `x or True`, `f(x) and False`: either way
 * the value's truth is the constant's, as CPython's compiler also knows
 * when it drops the code after `if f(x) and False: ... else: raise`): 1 or
 * 0; -1 for anything else. *effects is set where a part before the
 * constant does more than read a name: the expression must still be
 * evaluated for it. */
static int constant_truth(PyObject *e, bool *effects) {
    const char *k = e ? kj_fe_kind_of(e) : "";
    int truth = -1;
    if (!strcmp(k, "Constant")) {
        PyObject *value = PyObject_GetAttrString(e, "value");
        truth = value ? PyObject_IsTrue(value) : -1;
        Py_XDECREF(value);
    } else if (!strcmp(k, "UnaryOp") || !strcmp(k, "BoolOp")) {
        PyObject *op = PyObject_GetAttrString(e, "op");
        const char *o = op ? kj_fe_kind_of(op) : "";
        PyObject *parts = !strcmp(k, "UnaryOp") ? NULL : PyObject_GetAttrString(e, "values");
        if (!strcmp(o, "Not")) {
            PyObject *operand = PyObject_GetAttrString(e, "operand");
            int t = constant_truth(operand, effects);
            truth = t < 0 ? -1 : !t;
            Py_XDECREF(operand);
        } else if (parts && PyList_Check(parts) && (!strcmp(o, "And") || !strcmp(o, "Or"))) {
            /* left to right, as Python evaluates: a part that decides (a
             * false one for And, a true one for Or) decides, whatever
             * follows; what comes before it leaves the value's truth to it */
            int decides = !strcmp(o, "Or");
            truth = !decides;
            bool names = false, decided = false;
            for (Py_ssize_t i = 0; !decided && i < PyList_GET_SIZE(parts); i++) {
                PyObject *part = PyList_GET_ITEM(parts, i);
                int t = constant_truth(part, effects);
                if (t < 0) {
                    names = true;
                    *effects |= strcmp(kj_fe_kind_of(part), "Name") != 0;
                } else if (t == decides) {
                    truth = t;
                    decided = true;
                }
            }
            if (!decided && names)   /* `x and True`, `False or x`: the value is x's */
                truth = -1;
        }
        Py_XDECREF(parts);
        Py_XDECREF(op);
    }
    PyErr_Clear();
    return truth;
}

/* For an `if` on a constant (`if True:`, `if 0:`, `if True and True:`),
 * the statements CPython keeps of it, the branch its value takes (new
 * reference); else NULL. *test_effects (when not NULL) is set to the test
 * (new reference) where it must still be evaluated for what it does
 * (`if f(x) and False:` calls f), else to NULL. */
static PyObject *constant_branch(PyObject *node, PyObject **test_effects) {
    if (test_effects)
        *test_effects = NULL;
    if (strcmp(kj_fe_kind_of(node), "If") != 0)
        return NULL;
    PyObject *test = PyObject_GetAttrString(node, "test"), *taken = NULL;
    bool effects = false;
    int truth = constant_truth(test, &effects);
    if (truth >= 0)
        taken = PyObject_GetAttrString(node, truth ? "body" : "orelse");
    if (taken && effects && test_effects) {
        Py_INCREF(test);
        *test_effects = test;
    }
    Py_XDECREF(test);
    if (taken && !PyList_Check(taken))
        Py_CLEAR(taken);
    PyErr_Clear();
    return taken;
}

/* Whether a statement of the list always leaves the block. */
static bool list_always_leaves(PyObject *list) {
    for (Py_ssize_t i = 0; list && PyList_Check(list) && i < PyList_GET_SIZE(list); i++)
        if (always_leaves(PyList_GET_ITEM(list, i)))
            return true;
    return false;
}

/* Whether a statement of node's list attribute `attr` always leaves the block. */
static bool attr_always_leaves(PyObject *node, const char *attr) {
    PyObject *list = PyObject_GetAttrString(node, attr);
    bool leaves = list_always_leaves(list);
    Py_XDECREF(list);
    PyErr_Clear();
    return leaves;
}

/* Whether the statement node never lets control reach the next one, as
 * CPython's compiler judges when it drops what follows (an inner def there
 * included): a return, raise, break or continue; an `if` on a constant whose
 * taken branch does (`if True: raise ...`), or whose branches both do; a
 * try whose body (or else) does and every handler too (a finally cannot
 * lead to the next statement either: it ends in the exit that entered it). */
static bool always_leaves(PyObject *node) {
    const char *k = kj_fe_kind_of(node);
    if (!strcmp(k, "Return") || !strcmp(k, "Raise") || !strcmp(k, "Break") || !strcmp(k, "Continue"))
        return true;
    if (!strcmp(k, "Try")) {
        if (!attr_always_leaves(node, "body") && !attr_always_leaves(node, "orelse"))
            return false;
        PyObject *handlers = PyObject_GetAttrString(node, "handlers");
        bool all = handlers && PyList_Check(handlers);
        for (Py_ssize_t i = 0; all && i < PyList_GET_SIZE(handlers); i++)
            all = attr_always_leaves(PyList_GET_ITEM(handlers, i), "body");
        Py_XDECREF(handlers);
        PyErr_Clear();
        return all;
    }
    PyObject *taken = constant_branch(node, NULL);
    if (!taken)
        return !strcmp(k, "If") && attr_always_leaves(node, "body") && attr_always_leaves(node, "orelse");
    bool leaves = list_always_leaves(taken);
    Py_DECREF(taken);
    return leaves;
}

static int stmts(fe *c, PyObject *list, kj_block *out) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *node = PyList_GET_ITEM(list, i);
        if (stmt(c, node, out) < 0)
            return -1;
        if (always_leaves(node))   /* CPython compiles none of what follows, whose names may never be bound */
            return 0;
    }
    return 0;
}

/* Whether the def node fdef names the function of code: linecache reads
 * the file as it is now, which after an edit may hold another function at
 * the line the code object was compiled from. */
static bool same_name(PyObject *fdef, PyObject *code) {
    PyObject *a = PyObject_GetAttrString(fdef, "name"), *b = PyObject_GetAttrString(code, "co_name");
    bool same = a && b && PyObject_RichCompareBool(a, b, Py_EQ) == 1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    PyErr_Clear();
    return same;
}

kj_function *kj_frontend(PyObject *dispatcher, PyObject *py_func, kj_error *e, kj_function **partial) {
    *partial = NULL;
    if (!PyFunction_Check(py_func)) {
        kj_fail(e, KJ_ERR_TYPING, 0, 0, "Decorate a function defined with def.",
                "kiln.jit needs a Python function, got %s", Py_TYPE(py_func)->tp_name);
        return NULL;
    }
    kj_function *f = calloc(1, sizeof *f);
    if (!f || !(f->keep = PyList_New(0))) {
        free(f);
        kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
        return NULL;
    }
    Py_INCREF(py_func);
    f->py_func = py_func;
    PyObject *qn = PyObject_GetAttrString(py_func, "__qualname__");
    f->qualname = strdup(qn ? PyUnicode_AsUTF8(qn) : "?");
    Py_XDECREF(qn);
    PyErr_Clear();
    PyObject *code = PyFunction_GetCode(py_func);
    fe c = {.f = f, .e = e, .globals = PyFunction_GetGlobals(py_func), .self = dispatcher};
    PyObject *own_name = PyObject_GetAttrString(py_func, "__name__");
    c.self_name = own_name ? PyUnicode_AsUTF8(own_name) : NULL;   /* the function keeps its name alive */
    Py_XDECREF(own_name);
    PyErr_Clear();
    c.builtins = PyEval_GetBuiltins();
    c.is_lambda = strcmp(f->qualname + (strlen(f->qualname) >= 8 ? strlen(f->qualname) - 8 : 0), "<lambda>") == 0;
    if (kj_closure_values(py_func, code, &c.closure) < 0) {
        kj_function_free(f);
        kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "closure");
        return NULL;
    }
    PyObject *fdef = NULL, *args = NULL;
    if (kj_load_source(f, code) < 0 || f->first_line < 1 || f->first_line > PyList_GET_SIZE(f->source_lines)) {
        PyErr_Clear();
        const char *where = f->filename ? f->filename : "";
        kj_fail(e, KJ_ERR_TYPING, 0, 0,
                where[0] == '<' && strcmp(where, "<stdin>") != 0
                    ? "Python keeps no text of code given to exec() or compile() as a string, and Kiln keeps only "
                      "the latest 256 texts compiled after `import kiln`: import kiln first, or define the function "
                      "in a file or a notebook cell."
                : !strcmp(where, "<stdin>") ? "Python keeps no text of what is piped into it, and at its prompt Kiln finds "
                                              "a definition in readline's history only: put the function in a file, or "
                                              "use IPython or a notebook, which keep it."
                                            : "Define the function in a file or a notebook cell, where Python keeps its text.",
                "cannot find the source of %s", f->qualname);
        goto fail;
    }
    *partial = f;
    if (kj_source_def(f, c.is_lambda, &c.line_offset, &c.col_offset, &fdef) < 0) {
        kj_fail(e, KJ_ERR_TYPING, f->first_line, 0, NULL, "cannot parse the source of %s", f->qualname);
        goto fail;
    }
    if (!fdef || (kj_fe_is(fdef, "FunctionDef") && !same_name(fdef, code))) {   /* the file was edited since the import */
        kj_fail(e, KJ_ERR_TYPING, f->first_line, 0, "Reload the module (importlib.reload) or run the cell again.",
                "the source of %s changed since it was defined: line %d of %s holds %s now",
                f->qualname, f->first_line, f->filename, fdef ? "another function" : "no function");
        goto fail;
    }
    if (!kj_fe_is(fdef, "FunctionDef") && !kj_fe_is(fdef, "Lambda")) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, f->first_line, 0, "Define it with a plain def.",
                "%s is an async def, which Kiln does not compile", f->qualname);
        goto fail;
    }
    if (kj_fe_is(fdef, "FunctionDef") && kj_fe_inline_generators(&c, &fdef) < 0)
        goto fail;
    c.fdef = fdef;
    PyObject *arguments = kj_fe_get(&c, fdef, "args");
    if (!arguments)
        goto fail;
    PyObject *va = PyObject_GetAttrString(arguments, "vararg"),
             *kwa = PyObject_GetAttrString(arguments, "kwarg"),
             *kwo = PyObject_GetAttrString(arguments, "kwonlyargs"),
             *dfl = PyObject_GetAttrString(arguments, "defaults");
    args = PyObject_GetAttrString(arguments, "args");
    /* defaults are fine: every call arrives with all parameters bound (the
     * dispatcher from Python, bind.c from compiled code); so is *args, which
     * arrives as one tuple (packed by the entry from Python, lower.c, and by
     * bind.c from compiled code) */
    bool plain = kwa == Py_None && kwo && PyList_GET_SIZE(kwo) == 0 && dfl;
    PyObject *va_name = va && va != Py_None ? PyObject_GetAttrString(va, "arg") : NULL;
    Py_XDECREF(va);
    Py_XDECREF(kwa);
    Py_XDECREF(kwo);
    Py_XDECREF(dfl);
    if (!plain || !args) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, kj_fe_line(&c, fdef), kj_fe_col(&c, fdef),
                "Use positional parameters (default values and *args are fine).",
                "**kwargs and keyword-only parameters are not supported yet");
        Py_DECREF(arguments);
        Py_XDECREF(va_name);
        goto fail;
    }
    Py_DECREF(arguments);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args); i++) {
        PyObject *name = PyObject_GetAttrString(PyList_GET_ITEM(args, i), "arg");
        int slot = name ? kj_fe_add_local(f, PyUnicode_AsUTF8(name), true) : -1;
        Py_XDECREF(name);
        if (slot < 0) {
            Py_XDECREF(va_name);
            goto fail_py;
        }
    }
    f->nargs = (int)PyList_GET_SIZE(args);
    if (va_name) {
        int slot = kj_fe_add_local(f, PyUnicode_AsUTF8(va_name), true);
        Py_DECREF(va_name);
        if (slot < 0)
            goto fail_py;
        f->vararg = slot + 1;
        f->nargs++;
    }
    int lifted = kj_lifted_params(f, py_func, kj_fe_add_param);   /* an inner function's outer variables */
    if (lifted < 0)
        goto fail_py;
    f->nargs += lifted;
    PyObject *stmts_list = kj_fe_get(&c, fdef, "body");
    if (stmts_list && kj_fe_is(fdef, "Lambda")) {
        /* lambda args: expr  ->  return expr */
        kj_node *ret = kj_new_node(f, KJ_S_RETURN, kj_fe_line(&c, stmts_list), kj_fe_col(&c, stmts_list), 1);
        int ok = ret && kj_fe_collect_locals(&c, stmts_list) == 0 && (ret->kids[0] = kj_fe_expr(&c, stmts_list)) &&
                 kj_block_push(f, &f->body, ret) == 0;
        Py_DECREF(stmts_list);
        if (!ok)
            goto fail;
    } else {
        if (!stmts_list || kj_fe_collect_locals(&c, stmts_list) < 0 || stmts(&c, stmts_list, &f->body) < 0) {
            Py_XDECREF(stmts_list);
            goto fail;
        }
        Py_DECREF(stmts_list);
    }
    Py_XDECREF(args);
    Py_DECREF(fdef);
    Py_XDECREF(c.closure);
    Py_XDECREF(c.inner);
    Py_XDECREF(c.slices);
    *partial = NULL;
    return f;
fail_py:
    kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "frontend");
fail:
    Py_XDECREF(c.closure);
    Py_XDECREF(c.inner);
    Py_XDECREF(c.slices);
    Py_XDECREF(args);
    Py_XDECREF(fdef);
    if (!*partial)
        kj_function_free(f);
    return NULL;
}
