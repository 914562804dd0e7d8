/* frontend: walks CPython's own ast objects (from compile(..., ONLY_AST))
 * and builds Kiln IR. Names assigned anywhere in the function are locals;
 * every other name is read from the function's globals now, at compile time,
 * as Numba does. */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend/frontend_int.h"
#include "jit/core/numpy_api.h"
#include "jit/frontend/source.h"
#include "jit/frontend/np_rewrite.h"

#include <string.h>

/* ---- helpers over ast objects ---- */

const char *kj_fe_kind_of(PyObject *node) { return Py_TYPE(node)->tp_name; }
bool kj_fe_is(PyObject *node, const char *kind) { return strcmp(kj_fe_kind_of(node), kind) == 0; }

/* node.name as a new reference, or NULL with e filled. */
PyObject *kj_fe_get(fe *c, PyObject *node, const char *name) {
    PyObject *v = PyObject_GetAttrString(node, name);
    if (!v)
        kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "ast");
    return v;
}

static int get_int(PyObject *node, const char *name) {
    PyObject *v = PyObject_GetAttrString(node, name);
    int r = v && PyLong_Check(v) ? (int)PyLong_AsLong(v) : 0;
    Py_XDECREF(v);
    PyErr_Clear();
    return r;
}

int kj_fe_line(fe *c, PyObject *node) { return get_int(node, "lineno") + c->line_offset; }
int kj_fe_col(fe *c, PyObject *node) { return get_int(node, "col_offset") + c->col_offset; }

int kj_fe_unsupported(fe *c, PyObject *node, const char *hint, const char *what) {
    return kj_fail(c->e, KJ_ERR_UNSUPPORTED, kj_fe_line(c, node), kj_fe_col(c, node), hint, "%s", what);
}

static int find_local(kj_function *f, const char *name) {
    for (int i = 0; i < f->nlocals; i++)
        if (!f->locals[i].comprehension_own && strcmp(f->locals[i].name, name) == 0)
            return i;
    return -1;
}

/* The slot a name read or stored at this point of the walk means: a
 * comprehension's own name inside it, else the function's local. */
static int slot_of(fe *c, const char *name) {
    for (fe_scope *s = c->scope; s; s = s->outer)
        for (int i = 0; i < s->n; i++)
            if (strcmp(s->names[i], name) == 0)
                return s->slots[i];
    return find_local(c->f, name);
}

bool kj_fe_is_local(kj_function *f, const char *name) { return find_local(f, name) >= 0; }

/* A new local, or with `own` false the one of that name if there is one. */
static int add_local(kj_function *f, const char *name, bool is_arg, bool own) {
    int i = own ? -1 : find_local(f, name);
    if (i >= 0)
        return i;
    if (f->nlocals == f->cap_locals) {
        int cap = f->cap_locals ? f->cap_locals * 2 : 16;
        kj_local *l = realloc(f->locals, sizeof *l * cap);
        if (!l)
            return -1;
        f->locals = l;
        f->cap_locals = cap;
    }
    char *n = kj_strdup(f, name);
    if (!n)
        return -1;
    f->locals[f->nlocals] = (kj_local){.name = n, .is_arg = is_arg, .comprehension_own = own};
    return f->nlocals++;
}

int kj_fe_add_local(kj_function *f, const char *name, bool is_arg) { return add_local(f, name, is_arg, false); }

int kj_fe_add_param(kj_function *f, const char *name) { return kj_fe_add_local(f, name, true); }

bool kj_fe_place(PyObject *ast, PyObject *const *made, size_t n, PyObject *from) {
    for (size_t i = 0; i < n; i++) {
        PyObject *done = made[i] ? PyObject_CallMethod(ast, "copy_location", "OO", made[i], from) : NULL;
        if (!done)
            return false;
        Py_DECREF(done);
    }
    return true;
}

PyObject *kj_fe_lambda_binding(PyObject *node, PyObject **lambda) {
    if (!kj_fe_is(node, "Assign"))
        return NULL;
    PyObject *targets = PyObject_GetAttrString(node, "targets"), *value = PyObject_GetAttrString(node, "value");
    PyObject *name = NULL;
    if (targets && value && kj_fe_is(value, "Lambda") && PyList_Check(targets) && PyList_GET_SIZE(targets) == 1 &&
        kj_fe_is(PyList_GET_ITEM(targets, 0), "Name")) {
        name = PyObject_GetAttrString(PyList_GET_ITEM(targets, 0), "id");
        *lambda = value;   /* node holds it */
    }
    PyErr_Clear();
    Py_XDECREF(targets);
    Py_XDECREF(value);
    return name;
}

/* Every name stored to anywhere in `node` becomes a local (Python's rule),
 * but a name bound to a lambda (an inner function). */
int kj_fe_collect_locals(fe *c, PyObject *node) {
    PyObject *lambda, *bound = kj_fe_lambda_binding(node, &lambda);
    if (bound) {
        Py_DECREF(bound);
        return 0;
    }
    if (PyList_Check(node)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(node); i++)
            if (kj_fe_collect_locals(c, PyList_GET_ITEM(node, i)) < 0)
                return -1;
        return 0;
    }
    if (kj_fe_is(node, "Name")) {
        PyObject *ctx = kj_fe_get(c, node, "ctx");
        int store = ctx && !kj_fe_is(ctx, "Load");
        Py_XDECREF(ctx);
        if (store) {
            PyObject *id = kj_fe_get(c, node, "id");
            int r = id ? kj_fe_add_local(c->f, PyUnicode_AsUTF8(id), false) : -1;
            Py_XDECREF(id);
            return r < 0 ? -1 : 0;
        }
        return 0;
    }
    if (kj_fe_is(node, "FunctionDef") || kj_fe_is(node, "Lambda") || kj_fe_is(node, "ClassDef"))
        return 0;   /* reported as unsupported when reached */
    if (kj_fe_is(node, "comprehension")) {   /* its target is its own (expr_listcomp) */
        PyObject *iter = kj_fe_get(c, node, "iter"), *ifs = iter ? kj_fe_get(c, node, "ifs") : NULL;
        int r = ifs && kj_fe_collect_locals(c, iter) == 0 && kj_fe_collect_locals(c, ifs) == 0 ? 0 : -1;
        Py_XDECREF(iter);
        Py_XDECREF(ifs);
        return r;
    }
    PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
    if (!fields) {
        PyErr_Clear();
        return 0;
    }
    int r = 0;
    for (Py_ssize_t i = 0; r == 0 && i < PyTuple_GET_SIZE(fields); i++) {
        PyObject *v = PyObject_GetAttr(node, PyTuple_GET_ITEM(fields, i));
        if (!v) {
            PyErr_Clear();
            continue;
        }
        if (PyList_Check(v) || PyObject_HasAttrString(v, "_fields"))
            r = kj_fe_collect_locals(c, v);
        Py_DECREF(v);
    }
    Py_DECREF(fields);
    return r;
}

/* ---- globals ---- */

static kj_node *global_name(fe *c, const char *name, int line, int col) {
    PyObject *v = c->inner ? PyDict_GetItemString(c->inner, name) : NULL;
    if (!v && c->closure)
        v = PyDict_GetItemString(c->closure, name);
    if (!v)
        v = PyDict_GetItemString(c->globals, name);
    if (!v && c->builtins)
        v = PyDict_GetItemString(c->builtins, name);
    /* a function that calls itself, compiled for a signature as it is decorated, before
     * `def` (or the enclosing function) binds its name: the name will mean this dispatcher */
    if (!v && c->self && c->self_name && !strcmp(name, c->self_name))
        v = c->self;
    if (!v) {
        kj_fail(c->e, KJ_ERR_TYPING, line, col,
                "Assign it before use in this function, or define it before the first call.",
                "name '%s' is not defined", name);
        return NULL;
    }
    char what[160];
    snprintf(what, sizeof what, "global '%s'", name);
    return kj_value_node(c->f, c->e, v, line, col, what);
}

/* ---- expressions ---- */

kj_op kj_fe_binop(PyObject *op) {
    static const struct { const char *name; kj_op op; } ops[] = {
        {"Add", KJ_OP_ADD}, {"Sub", KJ_OP_SUB}, {"Mult", KJ_OP_MUL}, {"Div", KJ_OP_DIV},
        {"FloorDiv", KJ_OP_FLOORDIV}, {"Mod", KJ_OP_MOD}, {"Pow", KJ_OP_POW},
        {"LShift", KJ_OP_LSHIFT}, {"RShift", KJ_OP_RSHIFT}, {"BitAnd", KJ_OP_BITAND},
        {"BitOr", KJ_OP_BITOR}, {"BitXor", KJ_OP_BITXOR}, {"USub", KJ_OP_NEG},
        {"UAdd", KJ_OP_POS}, {"Not", KJ_OP_NOT}, {"Invert", KJ_OP_INVERT}, {"Eq", KJ_OP_EQ},
        {"NotEq", KJ_OP_NE}, {"Lt", KJ_OP_LT}, {"LtE", KJ_OP_LE}, {"Gt", KJ_OP_GT},
        {"GtE", KJ_OP_GE}, {"Is", KJ_OP_IS}, {"IsNot", KJ_OP_ISNOT}, {"And", KJ_OP_AND},
        {"Or", KJ_OP_OR}, {"In", KJ_OP_IN}, {"NotIn", KJ_OP_NOTIN},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (kj_fe_is(op, ops[i].name))
            return ops[i].op;
    return (kj_op)-1;
}

/* Fills n->kids[first..] from the ast list `items`. */
static int expr_list(fe *c, PyObject *items, kj_node *n, int first) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++)
        if (!(n->kids[first + i] = kj_fe_expr(c, PyList_GET_ITEM(items, i))))
            return -1;
    return 0;
}

static kj_node *opt_expr(fe *c, PyObject *node) {
    return node == Py_None ? NULL : kj_fe_expr(c, node);
}

/* np.iinfo(np.int32).max, np.finfo(np.float64).eps: NumPy's answer, read
 * now, as a constant. The dtype is a NumPy scalar type or int, float, bool
 * or complex; NumPy's own error (np.iinfo of a float type) is the user's. */
static kj_node *number_limit(fe *c, kj_node *call, const char *name, kj_node *n) {
    kj_node *info = call->kids[0], *dt = call->nkids == 2 ? call->kids[1] : NULL;
    const char *dtype = !dt || dt->kind != KJ_E_FUNC || !dt->name ? NULL
                        : !strncmp(dt->name, "cast:", 5) ? dt->name + 5
                        : (!strcmp(dt->name, "int") || !strcmp(dt->name, "float") || !strcmp(dt->name, "bool") ||
                           !strcmp(dt->name, "complex")) ? dt->name : NULL;
    if (!dtype) {
        kj_fail(c->e, KJ_ERR_TYPING, n->line, n->col, "Name the type: np.iinfo(np.int32).max.",
                "%s takes a NumPy type or int, float in compiled code", info->name);
        return NULL;
    }
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *d = np ? PyObject_CallMethod(np, "dtype", "s", dtype) : NULL;
    PyObject *limits = d ? PyObject_CallOneArg(info->pyobj, d) : NULL;
    PyObject *v = limits ? PyObject_GetAttrString(limits, name) : NULL;
    Py_XDECREF(np);
    Py_XDECREF(d);
    Py_XDECREF(limits);
    if (!v) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *text = value ? PyObject_Str(value) : NULL;
        kj_fail(c->e, KJ_ERR_TYPING, n->line, n->col, NULL, "%s(%s).%s: %s", info->name, dtype, name,
                text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "NumPy refused it");
        Py_XDECREF(text);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        PyErr_Clear();
        return NULL;
    }
    char what[160];
    snprintf(what, sizeof what, "%s(%s).%s", info->name, dtype, name);
    kj_node *r = kj_value_node(c->f, c->e, v, n->line, n->col, what);
    Py_DECREF(v);
    return r;
}

static kj_node *expr_attr(fe *c, PyObject *node, const char *name, kj_node *n) {
    PyObject *value = kj_fe_get(c, node, "value");
    if (!value)
        return NULL;
    kj_node *obj = kj_fe_expr(c, value);
    Py_DECREF(value);
    if (!obj)
        return NULL;
    if (obj->kind == KJ_E_FUNC && strncmp(obj->name, "module:", 7) == 0) {
        /* math.pi, np.float32, math.sqrt: read from the module now */
        PyObject *v = PyObject_GetAttrString(obj->pyobj, name);
        if (!v) {
            PyErr_Clear();
            kj_fail(c->e, KJ_ERR_TYPING, n->line, n->col, NULL, "module '%s' has no attribute '%s'",
                    obj->name + 7, name);
            return NULL;
        }
        char what[160];
        snprintf(what, sizeof what, "%s.%s", obj->name + 7, name);
        kj_node *r = kj_value_node(c->f, c->e, v, n->line, n->col, what);
        Py_DECREF(v);
        return r;
    }
    if (obj->kind == KJ_E_CALL && obj->kids[0]->kind == KJ_E_FUNC && obj->kids[0]->pyobj && obj->kids[0]->name &&
        (!strcmp(obj->kids[0]->name, "np.iinfo") || !strcmp(obj->kids[0]->name, "np.finfo")))
        return number_limit(c, obj, name, n);
    /* a.flat: the elements in C order, read as a.ravel() (a view of a C-contiguous array); a write
     * through it (a.flat[i] = v) is taken for a C-contiguous array only (infer.c) */
    bool flat = strcmp(name, "flat") == 0;
    n->kind = flat ? KJ_E_METHOD : KJ_E_ATTR;
    n->nkids = 1;
    n->ival = flat;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))) || !(n->name = kj_strdup(c->f, flat ? "ravel" : name)))
        return NULL;
    n->kids[0] = obj;
    return n;
}

/* Appends name=value arguments to the call or method n as KJ_E_KEYWORD
 * kids (inference says which callees accept them). */
static int add_keywords(fe *c, PyObject *kw, kj_node *n) {
    int nkw = (int)PyList_GET_SIZE(kw);
    if (nkw == 0)
        return 0;
    kj_node **kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids + nkw));
    if (!kids)
        return -1;
    memcpy(kids, n->kids, sizeof(kj_node *) * (size_t)n->nkids);
    for (int i = 0; i < nkw; i++) {
        PyObject *k = PyList_GET_ITEM(kw, i), *name = kj_fe_get(c, k, "arg"), *value = kj_fe_get(c, k, "value");
        kj_node *kn = name && value ? kj_new_node(c->f, KJ_E_KEYWORD, n->line, n->col, 1) : NULL;
        if (kn && name == Py_None)
            kj_fe_unsupported(c, k, "Pass the arguments one by one.", "**kwargs in calls is not supported");
        else if (kn && (kn->name = kj_strdup(c->f, PyUnicode_AsUTF8(name))))
            kn->kids[0] = kj_fe_expr(c, value);
        Py_XDECREF(name);
        Py_XDECREF(value);
        if (!kn || !kn->name || !kn->kids[0])
            return -1;
        kids[n->nkids + i] = kn;
    }
    n->kids = kids;
    n->nkids += nkw;
    return 0;
}

/* A name read at `line`: a local, or a global / closure value (bind.c
 * passes an inner function's free variables through this). */
static kj_node *load_name(void *ctx, const char *name, int line, int col) {
    fe *c = ctx;
    int slot = slot_of(c, name);
    if (slot < 0)
        return global_name(c, name, line, col);
    kj_node *n = kj_new_node(c->f, KJ_E_LOCAL, line, col, 0);
    if (n)
        n->slot = slot;
    return n;
}

/* A call's positional arguments into n->kids[1..]. `*t` becomes a
 * KJ_E_STARRED that inference spreads once t's type (a tuple) is known; it
 * reads t once per element, so t must be a name or a tuple display, which
 * read the same each time. */
static int call_args(fe *c, PyObject *items, kj_node *n, bool star_ok) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
        PyObject *item = PyList_GET_ITEM(items, i);
        if (!kj_fe_is(item, "Starred")) {
            if (!(n->kids[1 + i] = kj_fe_expr(c, item)))
                return -1;
            continue;
        }
        if (!star_ok)
            return kj_fe_unsupported(c, item, "Pass the arguments one by one.",
                                     "*args in method calls is not supported");
        PyObject *value = kj_fe_get(c, item, "value");
        kj_node *s = value ? kj_new_node(c->f, KJ_E_STARRED, kj_fe_line(c, item), kj_fe_col(c, item), 1) : NULL;
        kj_node *v = s ? kj_fe_expr(c, value) : NULL;
        Py_XDECREF(value);
        if (!v)
            return -1;
        if (v->kind != KJ_E_LOCAL && v->kind != KJ_E_TUPLE)
            return kj_fe_unsupported(c, item, "Assign the tuple to a variable first: t = ...; f(*t).",
                                     "*args in calls takes a variable or a tuple");
        s->kids[0] = v;
        n->kids[1 + i] = s;
    }
    return 0;
}

/* Whether display `node` has a *x among its items. */
static bool has_starred(PyObject *node) {
    PyObject *elts = PyObject_GetAttrString(node, "elts");
    bool any = false;
    for (Py_ssize_t i = 0; elts && PyList_Check(elts) && i < PyList_GET_SIZE(elts); i++)
        any |= kj_fe_is(PyList_GET_ITEM(elts, i), "Starred");
    Py_XDECREF(elts);
    PyErr_Clear();
    return any;
}

/* a + b, marked as the join of a display's parts; NULL when either is. */
static kj_node *starred_join(fe *c, kj_node *a, kj_node *b, int line, int col) {
    kj_node *plus = a && b ? kj_new_node(c->f, KJ_E_BINOP, line, col, 2) : NULL;
    if (!plus)
        return NULL;
    plus->op = KJ_OP_ADD;
    plus->ival = KJ_STARRED_JOIN;
    plus->kids[0] = a;
    plus->kids[1] = b;
    return plus;
}

/* (*a, *b, c): the tuples joined, a + b + (c,), each part read once and in
 * the source's order; each + marked (KJ_STARRED_JOIN) so that inference
 * speaks of the * the user wrote (infer.c). */
static kj_node *starred_tuple(fe *c, PyObject *node) {
    PyObject *elts = kj_fe_get(c, node, "elts");
    if (!elts)
        return NULL;
    kj_node *joined = NULL, *run = NULL;   /* run: the display of the plain items since the last *x */
    int parts = 0;
    int line = kj_fe_line(c, node), col = kj_fe_col(c, node);
    Py_ssize_t n = PyList_GET_SIZE(elts);
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *item = i < n ? PyList_GET_ITEM(elts, i) : NULL;
        kj_node *part = NULL;
        if (item && !kj_fe_is(item, "Starred")) {
            if (!run && !(run = kj_new_node(c->f, KJ_E_TUPLE, kj_fe_line(c, item), kj_fe_col(c, item), 0)))
                goto fail;
            kj_node **kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(run->nkids + 1));
            if (!kids || !(kids[run->nkids] = kj_fe_expr(c, item)))
                goto fail;
            memcpy(kids, run->kids, sizeof(kj_node *) * (size_t)run->nkids);
            run->kids = kids;
            run->nkids++;
            continue;
        }
        if (run) {   /* the plain items before this *x, or at the end */
            part = run;
            run = NULL;
            i--;   /* this item again, after the run */
        } else if (item) {
            PyObject *value = kj_fe_get(c, item, "value");
            part = value ? kj_fe_expr(c, value) : NULL;
            Py_XDECREF(value);
            if (!part)
                goto fail;
        } else {
            break;
        }
        if (!(joined = joined ? starred_join(c, joined, part, line, col) : part))
            goto fail;
        parts++;
    }
    Py_DECREF(elts);
    if (parts == 1)   /* (*a,): a copy of the tuple a, as a + () */
        joined = starred_join(c, joined, kj_new_node(c->f, KJ_E_TUPLE, line, col, 0), line, col);
    return joined;
fail:
    Py_DECREF(elts);
    return NULL;
}

static kj_node *expr_call(fe *c, PyObject *node, kj_node *n) {
    PyObject *func = kj_fe_get(c, node, "func"), *args = kj_fe_get(c, node, "args"),
             *kw = kj_fe_get(c, node, "keywords");
    kj_node *r = NULL;
    if (!func || !args || !kw)
        goto done;
    int nargs = (int)PyList_GET_SIZE(args);
    if (kj_fe_is(func, "Attribute")) {
        /* obj.method(args), unless obj is a module (then a function) */
        PyObject *value = kj_fe_get(c, func, "value"), *attr = kj_fe_get(c, func, "attr");
        kj_node *obj = value ? kj_fe_expr(c, value) : NULL;
        Py_XDECREF(value);
        if (!obj || !attr) {
            Py_XDECREF(attr);
            goto done;
        }
        if (obj->kind == KJ_E_FUNC && strncmp(obj->name, "module:", 7) == 0) {
            Py_DECREF(attr);
            n->kind = KJ_E_CALL;
            n->nkids = nargs + 1;
            if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (nargs + 1))) ||
                !(n->kids[0] = kj_fe_expr(c, func)) || call_args(c, args, n, true) < 0 ||
                add_keywords(c, kw, n) < 0)
                goto done;
            /* a kiln function read from a module (helpers.f(x)), or what kiln.extending put
             * in place of one of its functions: bound as a call by its name is, below */
            if (n->kids[0]->kind == KJ_E_FUNC && strcmp(n->kids[0]->name, "dispatcher") == 0 &&
                kj_bind_call(c->f, c->e, n, load_name, c) < 0)
                goto done;
            if (kj_np_rewrite_call(c->f, c->e, n) < 0)
                goto done;
            r = n;
            goto done;
        }
        n->kind = KJ_E_METHOD;
        n->name = kj_strdup(c->f, PyUnicode_AsUTF8(attr));
        Py_DECREF(attr);
        n->nkids = nargs + 1;
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (nargs + 1))))
            goto done;
        n->kids[0] = obj;
        if (call_args(c, args, n, false) < 0 || add_keywords(c, kw, n) < 0 || kj_np_rewrite_call(c->f, c->e, n) < 0)
            goto done;
        r = n;
        goto done;
    }
    n->kind = KJ_E_CALL;
    n->nkids = nargs + 1;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (nargs + 1))) ||
        !(n->kids[0] = kj_fe_expr(c, func)) || call_args(c, args, n, true) < 0 ||
        add_keywords(c, kw, n) < 0)
        goto done;
    if (n->kids[0]->kind == KJ_E_FUNC && strcmp(n->kids[0]->name, "dispatcher") == 0 &&
        kj_bind_call(c->f, c->e, n, load_name, c) < 0)
        goto done;
    if (kj_np_rewrite_call(c->f, c->e, n) < 0)
        goto done;
    r = n;
done:
    Py_XDECREF(func);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return r;
}

/* An index that names a slice object (s = slice(a, b, c) then x[s]): the
 * slice a:b:c of the locals holding its bounds; NULL for any other index,
 * or with c->e filled. */
static kj_node *named_slice(fe *c, PyObject *index) {
    if (!c->slices || !kj_fe_is(index, "Name"))
        return NULL;
    PyObject *id = PyObject_GetAttrString(index, "id");
    PyObject *slots = id ? PyDict_GetItem(c->slices, id) : NULL;
    Py_XDECREF(id);
    PyErr_Clear();
    if (!slots || !PyTuple_Check(slots))   /* none, or a type's name */
        return NULL;
    kj_node *s = kj_new_node(c->f, KJ_E_SLICE, kj_fe_line(c, index), kj_fe_col(c, index), 3);
    for (int k = 0; s && k < 3; k++) {
        PyObject *slot = PyTuple_GET_ITEM(slots, k);
        if (slot == Py_None)
            continue;   /* left out, as a:b leaves out its step */
        if (!(s->kids[k] = kj_new_node(c->f, KJ_E_LOCAL, s->line, s->col, 0)))
            return NULL;
        s->kids[k]->slot = (int)PyLong_AsLong(slot);
    }
    if (!s)
        kj_fail(c->e, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    return s;
}

static kj_node *expr_subscript(fe *c, PyObject *node, kj_node *n) {
    PyObject *value = kj_fe_get(c, node, "value"), *slice = kj_fe_get(c, node, "slice");
    kj_node *r = NULL, *obj;
    if (!value || !slice || !(obj = kj_fe_expr(c, value)))
        goto done;
    bool tuple = kj_fe_is(slice, "Tuple");
    PyObject *elts = tuple ? kj_fe_get(c, slice, "elts") : NULL;
    int m = tuple ? (elts ? (int)PyList_GET_SIZE(elts) : -1) : 1;
    if (m < 0)
        goto done;
    n->kind = KJ_E_INDEX;
    n->nkids = m + 1;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (m + 1)))) {
        Py_XDECREF(elts);
        goto done;
    }
    n->kids[0] = obj;
    for (int i = 0; i < m; i++) {
        PyObject *it = tuple ? PyList_GET_ITEM(elts, i) : slice;
        if (!(n->kids[i + 1] = named_slice(c, it)) && !(c->e->kind == KJ_ERR_NONE && (n->kids[i + 1] = kj_fe_expr(c, it)))) {
            Py_XDECREF(elts);
            goto done;
        }
    }
    Py_XDECREF(elts);
    r = n;
done:
    Py_XDECREF(value);
    Py_XDECREF(slice);
    return r;
}


/* The names a comprehension's target binds, each a new local of its own
 * in scope (Python keeps them apart: `x` after `[x for x in a]` is the
 * function's x). */
static int own_names(fe *c, PyObject *target, fe_scope *scope) {
    if (kj_fe_is(target, "Tuple") || kj_fe_is(target, "List")) {
        PyObject *elts = kj_fe_get(c, target, "elts");
        int r = elts ? 0 : -1;
        for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(elts); i++)
            r = own_names(c, PyList_GET_ITEM(elts, i), scope);
        Py_XDECREF(elts);
        return r;
    }
    if (!kj_fe_is(target, "Name"))
        return 0;   /* kj_fe_target says what is wrong with it */
    if (scope->n == FE_SCOPE_NAMES)
        return kj_fe_unsupported(c, target, "Unpack fewer names.", "a list comprehension binds at most 16 names");
    PyObject *id = kj_fe_get(c, target, "id");
    int slot = id ? add_local(c->f, PyUnicode_AsUTF8(id), false, true) : -1;
    Py_XDECREF(id);
    if (slot < 0)
        return -1;
    scope->names[scope->n] = c->f->locals[slot].name;   /* in the function's arena */
    scope->slots[scope->n++] = slot;
    return 0;
}

/* [elt for target in iter if cond ...] with one `for`. */
static kj_node *expr_listcomp(fe *c, PyObject *node, kj_node *n) {
    PyObject *elt = kj_fe_get(c, node, "elt"), *gens = kj_fe_get(c, node, "generators");
    PyObject *gen = gens && PyList_GET_SIZE(gens) == 1 ? PyList_GET_ITEM(gens, 0) : NULL;
    PyObject *tgt = gen ? kj_fe_get(c, gen, "target") : NULL, *iter = gen ? kj_fe_get(c, gen, "iter") : NULL,
             *ifs = gen ? kj_fe_get(c, gen, "ifs") : NULL;
    kj_node *r = NULL;
    if (gens && !gen)
        kj_fe_unsupported(c, node, "Write the nested loops with append.",
                    "a list comprehension with more than one `for` is not supported");
    else if (elt && tgt && iter && ifs) {
        int nifs = (int)PyList_GET_SIZE(ifs);
        n->kind = KJ_E_LISTCOMP;
        n->nkids = 3 + nifs;
        /* the iterable is read outside the comprehension's names, the rest inside */
        fe_scope scope = {.outer = c->scope};
        if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)n->nkids)) &&
            (n->kids[2] = kj_fe_expr(c, iter)) && own_names(c, tgt, &scope) == 0) {
            c->scope = &scope;
            if ((n->kids[1] = kj_fe_target(c, tgt)) && (n->kids[0] = kj_fe_expr(c, elt)) &&
                expr_list(c, ifs, n, 3) == 0)
                r = n;
            c->scope = scope.outer;
        }
    }
    Py_XDECREF(elt);
    Py_XDECREF(gens);
    Py_XDECREF(tgt);
    Py_XDECREF(iter);
    Py_XDECREF(ifs);
    return r;
}

/* The text of a format spec (a JoinedStr of constants), or NULL. */
static const char *format_spec(fe *c, PyObject *spec) {
    PyObject *values = kj_fe_get(c, spec, "values");
    char buf[64] = "";
    size_t used = 0;
    bool ok = values != NULL;
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(values); i++) {
        PyObject *v = PyList_GET_ITEM(values, i), *s = kj_fe_is(v, "Constant") ? kj_fe_get(c, v, "value") : NULL;
        ok = s && PyUnicode_Check(s) && used + strlen(PyUnicode_AsUTF8(s)) < sizeof buf;
        if (ok)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", PyUnicode_AsUTF8(s));
        Py_XDECREF(s);
    }
    Py_XDECREF(values);
    if (!ok) {
        kj_fe_unsupported(c, spec, "Write the format spec as a constant, e.g. {x:.3f}.",
                    "this format spec is not supported in compiled code");
        return NULL;
    }
    return kj_strdup(c->f, buf);
}

/* f"...": constant parts and {value!conv:spec} parts. */
static kj_node *expr_fstring(fe *c, PyObject *node, kj_node *n) {
    PyObject *values = kj_fe_get(c, node, "values");
    if (!values)
        return NULL;
    n->kind = KJ_E_FSTRING;
    n->nkids = (int)PyList_GET_SIZE(values);
    kj_node *r = (n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids + 1))) ? n : NULL;
    for (int i = 0; r && i < n->nkids; i++) {
        PyObject *v = PyList_GET_ITEM(values, i);
        if (!kj_fe_is(v, "FormattedValue")) {
            if (!(n->kids[i] = kj_fe_expr(c, v)))
                r = NULL;
            continue;
        }
        PyObject *val = kj_fe_get(c, v, "value"), *conv = kj_fe_get(c, v, "conversion"), *spec = kj_fe_get(c, v, "format_spec");
        kj_node *f = val && conv && spec ? kj_new_node(c->f, KJ_E_FORMAT, kj_fe_line(c, v), kj_fe_col(c, v), 1) : NULL;
        if (f) {
            f->ival = PyLong_AsLong(conv) < 0 ? 0 : PyLong_AsLong(conv);
            f->kids[0] = kj_fe_expr(c, val);
            if (spec != Py_None && !(f->str = format_spec(c, spec)))
                f = NULL;
        }
        if (!f || !f->kids[0])
            r = NULL;
        n->kids[i] = f;
        Py_XDECREF(val);
        Py_XDECREF(conv);
        Py_XDECREF(spec);
    }
    Py_DECREF(values);
    return r;
}

/* {k: v for ...} read as the list comprehension [(k, v) for ...] made a
 * dict comprehension (its items go straight into the dict, so a value may
 * be an array), {x for ...} as set([x for ...]). */
static kj_node *comprehension_call(fe *c, PyObject *node, bool dict) {
    PyObject *ast = PyImport_ImportModule("ast"), *key = kj_fe_get(c, node, dict ? "key" : "elt");
    PyObject *val = key && dict ? kj_fe_get(c, node, "value") : NULL;
    PyObject *gens = key && (val || !dict) ? kj_fe_get(c, node, "generators") : NULL;
    PyObject *load = ast && gens ? PyObject_CallMethod(ast, "Load", NULL) : NULL;
    PyObject *item = !load ? NULL : dict ? PyObject_CallMethod(ast, "Tuple", "[OO]O", key, val, load) : Py_NewRef(key);
    PyObject *comp = item ? PyObject_CallMethod(ast, "ListComp", "OO", item, gens) : NULL;
    PyObject *name = comp && !dict ? PyObject_CallMethod(ast, "Name", "sO", "set", load) : NULL;
    PyObject *call = name ? PyObject_CallMethod(ast, "Call", "O[O][]", name, comp) : NULL;
    kj_node *r = NULL;
    PyObject *made[] = {item, comp, name, call};
    if (kj_fe_place(ast, made, dict ? 2 : sizeof made / sizeof *made, node)) {
        r = kj_fe_expr(c, dict ? comp : call);
        if (r && dict)
            r->kind = KJ_E_DICTCOMP;
    } else if (c->e->kind == KJ_ERR_NONE)
        kj_fail(c->e, KJ_ERR_PYTHON, kj_fe_line(c, node), kj_fe_col(c, node), NULL,
                dict ? "dict comprehension" : "set comprehension");
    PyErr_Clear();
    for (size_t i = 0; i < sizeof made / sizeof *made; i++)
        Py_XDECREF(made[i]);
    Py_XDECREF(load);
    Py_XDECREF(gens);
    Py_XDECREF(val);
    Py_XDECREF(key);
    Py_XDECREF(ast);
    return r;
}

/* lambda ... in an expression (apply(lambda x: x + 1, a)): the inner
 * function it lifts to, under a name no variable can have. */
static kj_node *expr_lambda(fe *c, PyObject *node, int line, int col) {
    if ((!c->inner && !(c->inner = PyDict_New())) || kj_inner_lambda(c->f, node, "<lambda>", c->inner, line, col, c->e) < 0)
        return NULL;
    return kj_value_node(c->f, c->e, PyDict_GetItemString(c->inner, "<lambda>"), line, col, "lambda");
}

kj_node *kj_fe_expr(fe *c, PyObject *node) {
    int line = kj_fe_line(c, node), col = kj_fe_col(c, node);
    kj_node *n = kj_new_node(c->f, KJ_E_CONST, line, col, 0);
    if (!n)
        return NULL;
    const char *k = kj_fe_kind_of(node);
    if (strcmp(k, "Constant") == 0) {
        PyObject *v = kj_fe_get(c, node, "value");
        if (!v)
            return NULL;
        kj_node *r = NULL;
        if (PyBytes_Check(v))
            kj_fe_unsupported(c, node, "Use a str.", "bytes constants are not supported in compiled code");
        else if (PyUnicode_Check(v)) {   /* for print, raise and == (strings.c) */
            n->type = kj_str();
            if ((n->str = kj_strdup(c->f, PyUnicode_AsUTF8(v))))
                r = n;
        } else
            r = kj_value_node(c->f, c->e, v, line, col, "constant");
        Py_DECREF(v);
        return r;
    }
    if (strcmp(k, "Name") == 0) {
        PyObject *id = kj_fe_get(c, node, "id");
        if (!id)
            return NULL;
        const char *name = PyUnicode_AsUTF8(id);
        int slot = slot_of(c, name);
        kj_node *r = n;
        PyObject *alias = c->slices ? PyDict_GetItemString(c->slices, name) : NULL;
        if (alias && PyUnicode_Check(alias)) {   /* dt = np.int_: the type itself (frontend_stmt.c) */
            Py_DECREF(id);
            n->kind = KJ_E_FUNC;
            return (n->name = kj_strdup(c->f, PyUnicode_AsUTF8(alias))) ? n : NULL;
        }
        if (alias) {   /* x[s] is named_slice's */
            Py_DECREF(id);
            kj_fe_unsupported(c, node, "Index with it: x[s], x[i, s].",
                              "a slice object is used in compiled code only as an index");
            return NULL;
        }
        for (fe_handler *h = c->handler; h; h = h->outer)
            if (h->name && strcmp(h->name, name) == 0) {
                Py_DECREF(id);
                kj_fe_unsupported(c, node, "Re-raise it with `raise`, or handle the error without reading the exception.",
                                  "the caught exception can only be re-raised in compiled code");
                return NULL;
            }
        if (slot >= 0) {
            n->kind = KJ_E_LOCAL;
            n->slot = slot;
        } else {
            r = global_name(c, name, line, col);
        }
        Py_DECREF(id);
        return r;
    }
    if (strcmp(k, "BinOp") == 0 || strcmp(k, "UnaryOp") == 0) {
        bool bin = k[0] == 'B';
        PyObject *op = kj_fe_get(c, node, "op");
        PyObject *a = kj_fe_get(c, node, bin ? "left" : "operand");
        PyObject *b = bin ? kj_fe_get(c, node, "right") : NULL;
        kj_node *r = NULL;
        if (op && a && (!bin || b)) {
            n->kind = bin ? KJ_E_BINOP : KJ_E_UNARY;
            n->op = kj_fe_binop(op);
            n->nkids = bin ? 2 : 1;
            if (kj_fe_is(op, "MatMult")) {   /* a @ b is np.matmul(a, b) (infer_np.c) */
                kj_node *fn = kj_new_node(c->f, KJ_E_FUNC, line, col, 0);
                n->kind = KJ_E_CALL;
                n->nkids = 3;
                if (fn && (fn->name = kj_strdup(c->f, "np.matmul")) &&
                    (n->kids = kj_alloc(c->f, sizeof(kj_node *) * 3)) && (n->kids[1] = kj_fe_expr(c, a)) &&
                    (n->kids[2] = kj_fe_expr(c, b))) {
                    n->kids[0] = fn;
                    r = n;
                }
            } else if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) &&
                     (n->kids[0] = kj_fe_expr(c, a)) && (!bin || (n->kids[1] = kj_fe_expr(c, b))))
                r = n;
        }
        Py_XDECREF(op);
        Py_XDECREF(a);
        Py_XDECREF(b);
        /* -1 is a constant (tuple indices and slices need to see it) */
        if (r && !bin && r->op == KJ_OP_NEG && r->kids[0]->kind == KJ_E_CONST &&
            (r->kids[0]->type->kind == KJ_T_INT || r->kids[0]->type->kind == KJ_T_FLOAT) &&
            !(r->kids[0]->type->kind == KJ_T_INT && !r->kids[0]->type->is_signed)) {
            kj_node *k0 = r->kids[0];
            k0->ival = (int64_t)(0 - (uint64_t)k0->ival);
            k0->fval = -k0->fval;
            k0->line = r->line;
            k0->col = r->col;
            return k0;
        }
        return r;
    }
    if (strcmp(k, "BoolOp") == 0) {
        PyObject *op = kj_fe_get(c, node, "op"), *values = kj_fe_get(c, node, "values");
        kj_node *r = NULL;
        if (op && values) {
            n->kind = KJ_E_BOOLOP;
            n->op = kj_fe_binop(op);
            n->nkids = (int)PyList_GET_SIZE(values);
            if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * n->nkids)) &&
                expr_list(c, values, n, 0) == 0)
                r = n;
        }
        Py_XDECREF(op);
        Py_XDECREF(values);
        return r;
    }
    if (strcmp(k, "Compare") == 0) {
        PyObject *left = kj_fe_get(c, node, "left"), *ops = kj_fe_get(c, node, "ops"),
                 *comps = kj_fe_get(c, node, "comparators");
        kj_node *r = NULL;
        if (left && ops && comps) {
            int m = (int)PyList_GET_SIZE(comps);
            n->kind = KJ_E_COMPARE;
            n->nkids = m + 1;
            n->ops = kj_alloc(c->f, sizeof(kj_op) * m);
            bool ok = n->ops && (n->kids = kj_alloc(c->f, sizeof(kj_node *) * (m + 1))) &&
                      (n->kids[0] = kj_fe_expr(c, left)) && expr_list(c, comps, n, 1) == 0;
            for (int i = 0; ok && i < m; i++) {
                n->ops[i] = kj_fe_binop(PyList_GET_ITEM(ops, i));
                if ((int)n->ops[i] < 0) {
                    kj_fe_unsupported(c, node, "Compare numbers with == != < <= > >=, and None with is.",
                                "this comparison is not supported in compiled code");
                    ok = false;
                }
            }
            r = ok ? n : NULL;
        }
        Py_XDECREF(left);
        Py_XDECREF(ops);
        Py_XDECREF(comps);
        return r;
    }
    if (strcmp(k, "IfExp") == 0) {
        PyObject *t = kj_fe_get(c, node, "test"), *b = kj_fe_get(c, node, "body"), *o = kj_fe_get(c, node, "orelse");
        kj_node *r = NULL;
        n->kind = KJ_E_IFEXP;
        n->nkids = 3;
        if (t && b && o && (n->kids = kj_alloc(c->f, sizeof(kj_node *) * 3)) &&
            (n->kids[0] = kj_fe_expr(c, t)) && (n->kids[1] = kj_fe_expr(c, b)) && (n->kids[2] = kj_fe_expr(c, o)))
            r = n;
        Py_XDECREF(t);
        Py_XDECREF(b);
        Py_XDECREF(o);
        return r;
    }
    if (strcmp(k, "Call") == 0)
        return expr_call(c, node, n);
    if (strcmp(k, "Attribute") == 0) {
        PyObject *attr = kj_fe_get(c, node, "attr");
        kj_node *r = attr ? expr_attr(c, node, PyUnicode_AsUTF8(attr), n) : NULL;
        Py_XDECREF(attr);
        return r;
    }
    if (strcmp(k, "Subscript") == 0)
        return expr_subscript(c, node, n);
    if (strcmp(k, "Slice") == 0) {
        PyObject *lo = kj_fe_get(c, node, "lower"), *hi = kj_fe_get(c, node, "upper"), *st = kj_fe_get(c, node, "step");
        kj_node *r = NULL;
        n->kind = KJ_E_SLICE;
        n->nkids = 3;
        if (lo && hi && st && (n->kids = kj_alloc(c->f, sizeof(kj_node *) * 3))) {
            n->kids[0] = opt_expr(c, lo);
            n->kids[1] = opt_expr(c, hi);
            n->kids[2] = opt_expr(c, st);
            if (c->e->kind == KJ_ERR_NONE)
                r = n;
        }
        Py_XDECREF(lo);
        Py_XDECREF(hi);
        Py_XDECREF(st);
        return r;
    }
    if (strcmp(k, "Tuple") == 0 && has_starred(node))
        return starred_tuple(c, node);
    if (strcmp(k, "Tuple") == 0 || strcmp(k, "List") == 0 || strcmp(k, "Set") == 0) {
        PyObject *elts = kj_fe_get(c, node, "elts");
        kj_node *r = NULL;
        if (elts) {
            n->kind = k[0] == 'T' ? KJ_E_TUPLE : k[0] == 'L' ? KJ_E_LIST : KJ_E_SET;
            n->nkids = (int)PyList_GET_SIZE(elts);
            if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * (n->nkids + 1))) &&
                expr_list(c, elts, n, 0) == 0)
                r = n;
            Py_DECREF(elts);
        }
        return r;
    }
    if (strcmp(k, "DictComp") == 0 || strcmp(k, "SetComp") == 0)
        return comprehension_call(c, node, k[0] == 'D');
    if (strcmp(k, "Dict") == 0) {   /* {k: v, ...}: keys and values in turn */
        PyObject *keys = kj_fe_get(c, node, "keys"), *values = keys ? kj_fe_get(c, node, "values") : NULL;
        kj_node *r = NULL;
        Py_ssize_t m = values ? PyList_GET_SIZE(values) : 0;
        bool unpacks = false;
        for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++)
            unpacks |= PyList_GET_ITEM(keys, i) == Py_None;
        if (unpacks) {
            kj_fe_unsupported(c, node, "Copy it and update it: d = a.copy(); d.update(b).",
                              "** in a dict display is not supported in compiled code");
        } else if (values) {
            n->kind = KJ_E_DICT;
            n->nkids = (int)(2 * m);
            r = n;
            if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids + 1))))
                r = NULL;
            for (Py_ssize_t i = 0; r && i < m; i++)
                if (!(n->kids[2 * i] = kj_fe_expr(c, PyList_GET_ITEM(keys, i))) ||
                    !(n->kids[2 * i + 1] = kj_fe_expr(c, PyList_GET_ITEM(values, i))))
                    r = NULL;
        }
        Py_XDECREF(keys);
        Py_XDECREF(values);
        return r;
    }
    /* a generator expression, as in sum(x * x for x in a), is the list its
     * comprehension makes (made in full: no early exit for any and all) */
    if (strcmp(k, "ListComp") == 0 || strcmp(k, "GeneratorExp") == 0)
        return expr_listcomp(c, node, n);
    if (strcmp(k, "JoinedStr") == 0)
        return expr_fstring(c, node, n);
    if (strcmp(k, "Lambda") == 0)   /* a lambda passed as a value: lifted as `f = lambda` is */
        return expr_lambda(c, node, line, col);
    char what[160];
    snprintf(what, sizeof what, "a %s expression is not supported in compiled code", k);
    kj_fe_unsupported(c, node, NULL, what);
    return NULL;
}

/* An assignment target: a local, an element, or a tuple of those. */
kj_node *kj_fe_target(fe *c, PyObject *node) {
    if (kj_fe_is(node, "Name") || kj_fe_is(node, "Subscript") || kj_fe_is(node, "Tuple"))
        return kj_fe_expr(c, node);
    kj_fe_unsupported(c, node, "Assign to a local name, an array element or a tuple of names.",
                "assignment to an attribute is not supported in compiled code");
    return NULL;
}

