/* frontend: walks CPython's own ast objects (from compile(..., ONLY_AST))
 * and builds Kiln IR. Names assigned anywhere in the function are locals;
 * every other name is read from the function's globals now, at compile time,
 * as Numba does. */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend.h"
#include "jit/numpy_api.h"
#include "jit/source.h"

#include <string.h>

PyTypeObject *kj_dispatcher_type;

typedef struct {
    kj_function *f;
    kj_error *e;
    int line_offset;      /* added to ast line numbers: file line of the block - 1 */
    int col_offset;       /* the indent removed from every line */
    PyObject *globals;    /* borrowed */
    PyObject *builtins;   /* borrowed */
    PyObject *closure;    /* owned dict: free variables' values, or NULL */
    PyObject *inner;      /* owned dict: inner functions by name (inner.c), or NULL */
    bool is_lambda;
} fe;

/* ---- helpers over ast objects ---- */

static const char *kind_of(PyObject *node) { return Py_TYPE(node)->tp_name; }
static bool is(PyObject *node, const char *kind) { return strcmp(kind_of(node), kind) == 0; }

/* node.name as a new reference, or NULL with e filled. */
static PyObject *get(fe *c, PyObject *node, const char *name) {
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

static int line_of(fe *c, PyObject *node) { return get_int(node, "lineno") + c->line_offset; }
static int col_of(fe *c, PyObject *node) { return get_int(node, "col_offset") + c->col_offset; }

static int unsupported(fe *c, PyObject *node, const char *hint, const char *what) {
    return kj_fail(c->e, KJ_ERR_UNSUPPORTED, line_of(c, node), col_of(c, node), hint, "%s", what);
}

static int find_local(kj_function *f, const char *name) {
    for (int i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i].name, name) == 0)
            return i;
    return -1;
}

static int add_local(kj_function *f, const char *name, bool is_arg) {
    int i = find_local(f, name);
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
    f->locals[f->nlocals] = (kj_local){.name = n, .is_arg = is_arg};
    return f->nlocals++;
}

static int add_param(kj_function *f, const char *name) { return add_local(f, name, true); }

/* Every name stored to anywhere in `node` becomes a local (Python's rule). */
static int collect_locals(fe *c, PyObject *node) {
    if (PyList_Check(node)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(node); i++)
            if (collect_locals(c, PyList_GET_ITEM(node, i)) < 0)
                return -1;
        return 0;
    }
    if (is(node, "Name")) {
        PyObject *ctx = get(c, node, "ctx");
        int store = ctx && !is(ctx, "Load");
        Py_XDECREF(ctx);
        if (store) {
            PyObject *id = get(c, node, "id");
            int r = id ? add_local(c->f, PyUnicode_AsUTF8(id), false) : -1;
            Py_XDECREF(id);
            return r < 0 ? -1 : 0;
        }
        return 0;
    }
    if (is(node, "FunctionDef") || is(node, "Lambda") || is(node, "ClassDef"))
        return 0;   /* reported as unsupported when reached */
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
            r = collect_locals(c, v);
        Py_DECREF(v);
    }
    Py_DECREF(fields);
    return r;
}

/* ---- globals ---- */

static kj_node *expr(fe *c, PyObject *node);

static kj_node *global_name(fe *c, const char *name, int line, int col) {
    PyObject *v = c->inner ? PyDict_GetItemString(c->inner, name) : NULL;
    if (!v && c->closure)
        v = PyDict_GetItemString(c->closure, name);
    if (!v)
        v = PyDict_GetItemString(c->globals, name);
    if (!v && c->builtins)
        v = PyDict_GetItemString(c->builtins, name);
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

static kj_op binop_of(PyObject *op) {
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
        if (is(op, ops[i].name))
            return ops[i].op;
    return (kj_op)-1;
}

/* Fills n->kids[first..] from the ast list `items`. */
static int expr_list(fe *c, PyObject *items, kj_node *n, int first) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++)
        if (!(n->kids[first + i] = expr(c, PyList_GET_ITEM(items, i))))
            return -1;
    return 0;
}

static kj_node *opt_expr(fe *c, PyObject *node) {
    return node == Py_None ? NULL : expr(c, node);
}

static kj_node *expr_attr(fe *c, PyObject *node, const char *name, kj_node *n) {
    PyObject *value = get(c, node, "value");
    if (!value)
        return NULL;
    kj_node *obj = expr(c, value);
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
    n->kind = KJ_E_ATTR;
    n->nkids = 1;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))) || !(n->name = kj_strdup(c->f, name)))
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
        PyObject *k = PyList_GET_ITEM(kw, i), *name = get(c, k, "arg"), *value = get(c, k, "value");
        kj_node *kn = name && value ? kj_new_node(c->f, KJ_E_KEYWORD, n->line, n->col, 1) : NULL;
        if (kn && name == Py_None)
            unsupported(c, k, "Pass the arguments one by one.", "**kwargs in calls is not supported");
        else if (kn && (kn->name = kj_strdup(c->f, PyUnicode_AsUTF8(name))))
            kn->kids[0] = expr(c, value);
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
    int slot = find_local(c->f, name);
    if (slot < 0)
        return global_name(c, name, line, col);
    kj_node *n = kj_new_node(c->f, KJ_E_LOCAL, line, col, 0);
    if (n)
        n->slot = slot;
    return n;
}

static kj_node *expr_call(fe *c, PyObject *node, kj_node *n) {
    PyObject *func = get(c, node, "func"), *args = get(c, node, "args"),
             *kw = get(c, node, "keywords");
    kj_node *r = NULL;
    if (!func || !args || !kw)
        goto done;
    int nargs = (int)PyList_GET_SIZE(args);
    for (int i = 0; i < nargs; i++)
        if (is(PyList_GET_ITEM(args, i), "Starred")) {
            unsupported(c, node, "Pass the arguments one by one.", "*args in calls is not supported");
            goto done;
        }
    if (is(func, "Attribute")) {
        /* obj.method(args), unless obj is a module (then a function) */
        PyObject *value = get(c, func, "value"), *attr = get(c, func, "attr");
        kj_node *obj = value ? expr(c, value) : NULL;
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
                !(n->kids[0] = expr(c, func)) || expr_list(c, args, n, 1) < 0 ||
                add_keywords(c, kw, n) < 0)
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
        if (expr_list(c, args, n, 1) < 0 || add_keywords(c, kw, n) < 0)
            goto done;
        r = n;
        goto done;
    }
    n->kind = KJ_E_CALL;
    n->nkids = nargs + 1;
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (nargs + 1))) ||
        !(n->kids[0] = expr(c, func)) || expr_list(c, args, n, 1) < 0 ||
        add_keywords(c, kw, n) < 0)
        goto done;
    if (n->kids[0]->kind == KJ_E_FUNC && strcmp(n->kids[0]->name, "dispatcher") == 0 &&
        kj_bind_call(c->f, c->e, n, load_name, c) < 0)
        goto done;
    r = n;
done:
    Py_XDECREF(func);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return r;
}

static kj_node *expr_subscript(fe *c, PyObject *node, kj_node *n) {
    PyObject *value = get(c, node, "value"), *slice = get(c, node, "slice");
    kj_node *r = NULL, *obj;
    if (!value || !slice || !(obj = expr(c, value)))
        goto done;
    bool tuple = is(slice, "Tuple");
    PyObject *elts = tuple ? get(c, slice, "elts") : NULL;
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
        if (!(n->kids[i + 1] = expr(c, it))) {
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

static kj_node *target(fe *c, PyObject *node);

/* [elt for target in iter if cond ...] with one `for`. */
static kj_node *expr_listcomp(fe *c, PyObject *node, kj_node *n) {
    PyObject *elt = get(c, node, "elt"), *gens = get(c, node, "generators");
    PyObject *gen = gens && PyList_GET_SIZE(gens) == 1 ? PyList_GET_ITEM(gens, 0) : NULL;
    PyObject *tgt = gen ? get(c, gen, "target") : NULL, *iter = gen ? get(c, gen, "iter") : NULL,
             *ifs = gen ? get(c, gen, "ifs") : NULL;
    kj_node *r = NULL;
    if (gens && !gen)
        unsupported(c, node, "Write the nested loops with append.",
                    "a list comprehension with more than one `for` is not supported");
    else if (elt && tgt && iter && ifs) {
        int nifs = (int)PyList_GET_SIZE(ifs);
        n->kind = KJ_E_LISTCOMP;
        n->nkids = 3 + nifs;
        if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)n->nkids)) &&
            (n->kids[1] = target(c, tgt)) && (n->kids[2] = expr(c, iter)) &&
            (n->kids[0] = expr(c, elt)) && expr_list(c, ifs, n, 3) == 0)
            r = n;
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
    PyObject *values = get(c, spec, "values");
    char buf[64] = "";
    size_t used = 0;
    bool ok = values != NULL;
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(values); i++) {
        PyObject *v = PyList_GET_ITEM(values, i), *s = is(v, "Constant") ? get(c, v, "value") : NULL;
        ok = s && PyUnicode_Check(s) && used + strlen(PyUnicode_AsUTF8(s)) < sizeof buf;
        if (ok)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", PyUnicode_AsUTF8(s));
        Py_XDECREF(s);
    }
    Py_XDECREF(values);
    if (!ok) {
        unsupported(c, spec, "Write the format spec as a constant, e.g. {x:.3f}.",
                    "this format spec is not supported in compiled code");
        return NULL;
    }
    return kj_strdup(c->f, buf);
}

/* f"...": constant parts and {value!conv:spec} parts. */
static kj_node *expr_fstring(fe *c, PyObject *node, kj_node *n) {
    PyObject *values = get(c, node, "values");
    if (!values)
        return NULL;
    n->kind = KJ_E_FSTRING;
    n->nkids = (int)PyList_GET_SIZE(values);
    kj_node *r = (n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(n->nkids + 1))) ? n : NULL;
    for (int i = 0; r && i < n->nkids; i++) {
        PyObject *v = PyList_GET_ITEM(values, i);
        if (!is(v, "FormattedValue")) {
            if (!(n->kids[i] = expr(c, v)))
                r = NULL;
            continue;
        }
        PyObject *val = get(c, v, "value"), *conv = get(c, v, "conversion"), *spec = get(c, v, "format_spec");
        kj_node *f = val && conv && spec ? kj_new_node(c->f, KJ_E_FORMAT, line_of(c, v), col_of(c, v), 1) : NULL;
        if (f) {
            f->ival = PyLong_AsLong(conv) < 0 ? 0 : PyLong_AsLong(conv);
            f->kids[0] = expr(c, val);
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

static kj_node *expr(fe *c, PyObject *node) {
    int line = line_of(c, node), col = col_of(c, node);
    kj_node *n = kj_new_node(c->f, KJ_E_CONST, line, col, 0);
    if (!n)
        return NULL;
    const char *k = kind_of(node);
    if (strcmp(k, "Constant") == 0) {
        PyObject *v = get(c, node, "value");
        if (!v)
            return NULL;
        kj_node *r = NULL;
        if (PyBytes_Check(v))
            unsupported(c, node, "Use a str.", "bytes constants are not supported in compiled code");
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
        PyObject *id = get(c, node, "id");
        if (!id)
            return NULL;
        const char *name = PyUnicode_AsUTF8(id);
        int slot = find_local(c->f, name);
        kj_node *r = n;
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
        PyObject *op = get(c, node, "op");
        PyObject *a = get(c, node, bin ? "left" : "operand");
        PyObject *b = bin ? get(c, node, "right") : NULL;
        kj_node *r = NULL;
        if (op && a && (!bin || b)) {
            n->kind = bin ? KJ_E_BINOP : KJ_E_UNARY;
            n->op = binop_of(op);
            n->nkids = bin ? 2 : 1;
            if (is(op, "MatMult")) {   /* a @ b is np.matmul(a, b) (infer_np.c) */
                kj_node *fn = kj_new_node(c->f, KJ_E_FUNC, line, col, 0);
                n->kind = KJ_E_CALL;
                n->nkids = 3;
                if (fn && (fn->name = kj_strdup(c->f, "np.matmul")) &&
                    (n->kids = kj_alloc(c->f, sizeof(kj_node *) * 3)) && (n->kids[1] = expr(c, a)) &&
                    (n->kids[2] = expr(c, b))) {
                    n->kids[0] = fn;
                    r = n;
                }
            } else if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) &&
                     (n->kids[0] = expr(c, a)) && (!bin || (n->kids[1] = expr(c, b))))
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
        PyObject *op = get(c, node, "op"), *values = get(c, node, "values");
        kj_node *r = NULL;
        if (op && values) {
            n->kind = KJ_E_BOOLOP;
            n->op = binop_of(op);
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
        PyObject *left = get(c, node, "left"), *ops = get(c, node, "ops"),
                 *comps = get(c, node, "comparators");
        kj_node *r = NULL;
        if (left && ops && comps) {
            int m = (int)PyList_GET_SIZE(comps);
            n->kind = KJ_E_COMPARE;
            n->nkids = m + 1;
            n->ops = kj_alloc(c->f, sizeof(kj_op) * m);
            bool ok = n->ops && (n->kids = kj_alloc(c->f, sizeof(kj_node *) * (m + 1))) &&
                      (n->kids[0] = expr(c, left)) && expr_list(c, comps, n, 1) == 0;
            for (int i = 0; ok && i < m; i++) {
                n->ops[i] = binop_of(PyList_GET_ITEM(ops, i));
                if ((int)n->ops[i] < 0) {
                    unsupported(c, node, "Compare numbers with == != < <= > >=, and None with is.",
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
        PyObject *t = get(c, node, "test"), *b = get(c, node, "body"), *o = get(c, node, "orelse");
        kj_node *r = NULL;
        n->kind = KJ_E_IFEXP;
        n->nkids = 3;
        if (t && b && o && (n->kids = kj_alloc(c->f, sizeof(kj_node *) * 3)) &&
            (n->kids[0] = expr(c, t)) && (n->kids[1] = expr(c, b)) && (n->kids[2] = expr(c, o)))
            r = n;
        Py_XDECREF(t);
        Py_XDECREF(b);
        Py_XDECREF(o);
        return r;
    }
    if (strcmp(k, "Call") == 0)
        return expr_call(c, node, n);
    if (strcmp(k, "Attribute") == 0) {
        PyObject *attr = get(c, node, "attr");
        kj_node *r = attr ? expr_attr(c, node, PyUnicode_AsUTF8(attr), n) : NULL;
        Py_XDECREF(attr);
        return r;
    }
    if (strcmp(k, "Subscript") == 0)
        return expr_subscript(c, node, n);
    if (strcmp(k, "Slice") == 0) {
        PyObject *lo = get(c, node, "lower"), *hi = get(c, node, "upper"), *st = get(c, node, "step");
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
    if (strcmp(k, "Tuple") == 0) {
        PyObject *elts = get(c, node, "elts");
        kj_node *r = NULL;
        if (elts) {
            n->kind = KJ_E_TUPLE;
            n->nkids = (int)PyList_GET_SIZE(elts);
            if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * (n->nkids + 1))) &&
                expr_list(c, elts, n, 0) == 0)
                r = n;
            Py_DECREF(elts);
        }
        return r;
    }
    if (strcmp(k, "List") == 0) {
        PyObject *elts = get(c, node, "elts");
        kj_node *r = NULL;
        if (elts) {
            n->kind = KJ_E_LIST;
            n->nkids = (int)PyList_GET_SIZE(elts);
            if ((n->kids = kj_alloc(c->f, sizeof(kj_node *) * (n->nkids + 1))) &&
                expr_list(c, elts, n, 0) == 0)
                r = n;
            Py_DECREF(elts);
        }
        return r;
    }
    if (strcmp(k, "ListComp") == 0)
        return expr_listcomp(c, node, n);
    if (strcmp(k, "JoinedStr") == 0)
        return expr_fstring(c, node, n);
    char what[160];
    snprintf(what, sizeof what, "a %s expression is not supported in compiled code", k);
    unsupported(c, node, NULL, what);
    return NULL;
}

/* ---- statements ---- */

static int stmts(fe *c, PyObject *list, kj_block *out);

/* An assignment target: a local, an element, or a tuple of those. */
static kj_node *target(fe *c, PyObject *node) {
    if (is(node, "Name") || is(node, "Subscript") || is(node, "Tuple")) {
        kj_node *t = expr(c, node);
        if (t && t->kind == KJ_E_TUPLE)
            for (int i = 0; i < t->nkids; i++)
                if (t->kids[i]->kind == KJ_E_TUPLE) {
                    unsupported(c, node, "Unpack in two steps.", "nested unpacking is not supported");
                    return NULL;
                }
        return t;
    }
    unsupported(c, node, "Assign to a local name, an array element or a tuple of names.",
                "assignment to an attribute is not supported in compiled code");
    return NULL;
}

/* One `except ...:` clause: the classes it names (none for a bare except). */
static kj_node *except_clause(fe *c, PyObject *h) {
    PyObject *type = get(c, h, "type"), *name = get(c, h, "name"), *body = get(c, h, "body");
    kj_node *n = kj_new_node(c->f, KJ_S_EXCEPT, line_of(c, h), col_of(c, h), 0), *r = NULL;
    PyObject *elts = type && is(type, "Tuple") ? PyObject_GetAttrString(type, "elts") : NULL;
    int nclasses = type == Py_None ? 0 : elts ? (int)PyList_GET_SIZE(elts) : 1;
    if (!n || !type || !name || !body)
        goto done;
    if (name != Py_None) {
        unsupported(c, h, "Write `except E:` without `as name`; the exception object does not exist in compiled code.",
                    "binding the exception (except ... as name) is not supported");
        goto done;
    }
    if (nclasses && !(n->kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)nclasses)))
        goto done;
    for (int i = 0; i < nclasses; i++) {
        PyObject *t = elts ? PyList_GET_ITEM(elts, i) : type;
        if (!(n->kids[i] = expr(c, t)))
            goto done;
        if (n->kids[i]->kind != KJ_E_EXC) {
            unsupported(c, t, "Name exception classes such as ValueError or Exception.",
                        "except needs an exception class");
            goto done;
        }
    }
    n->nkids = nclasses;
    if (stmts(c, body, &n->body) == 0)
        r = n;
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
    if (is(node, "Return") || is(node, "Break") || is(node, "Continue"))
        return true;
    if (is(node, "FunctionDef") || is(node, "Lambda"))
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
    PyObject *body = get(c, node, "body"), *handlers = get(c, node, "handlers"),
             *orelse = get(c, node, "orelse"), *final = get(c, node, "finalbody");
    int r = -1;
    if (!body || !handlers || !orelse || !final)
        goto done;
    bool fin = PyList_GET_SIZE(final) > 0;
    if (fin && leaves_early(node)) {
        unsupported(c, node, "Set a result and return after the try statement.",
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
    PyObject *exc = get(c, node, "exc");
    if (!exc)
        return -1;
    n->kind = KJ_S_RAISE;
    n->nkids = 1;
    int r = -1;
    PyObject *callee = NULL, *args = NULL;
    if (exc == Py_None) {
        unsupported(c, node, "Raise an exception class or instance.", "bare raise is not supported");
        goto done;
    }
    if (is(exc, "Call")) {
        callee = get(c, exc, "func");
        args = get(c, exc, "args");
        if (!callee || !args)
            goto done;
        if (PyList_GET_SIZE(args) == 1 && is(PyList_GET_ITEM(args, 0), "JoinedStr")) {
            /* raise E(f"..."): the message is made when raising (strings.c) */
            n->nkids = 2;
            if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) ||
                !(n->kids[1] = expr(c, PyList_GET_ITEM(args, 0))) || !(n->kids[0] = expr(c, callee)))
                goto done;
            if (n->kids[0]->kind != KJ_E_EXC) {
                unsupported(c, node, "Raise a built-in exception class such as ValueError.",
                            "only exception classes can be raised in compiled code");
                goto done;
            }
            r = 0;
            goto done;
        }
        if (PyList_GET_SIZE(args) > 1 ||
            (PyList_GET_SIZE(args) == 1 &&
             !(is(PyList_GET_ITEM(args, 0), "Constant")))) {
            unsupported(c, exc, "Use a constant message or an f-string: raise ValueError(f\"x is {x}\").",
                        "exception arguments must be one string");
            goto done;
        }
        if (PyList_GET_SIZE(args) == 1) {
            PyObject *v = get(c, PyList_GET_ITEM(args, 0), "value");
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
    if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))) || !(n->kids[0] = expr(c, callee ? callee : exc)))
        goto done;
    if (n->kids[0]->kind != KJ_E_EXC) {
        unsupported(c, node, "Raise a built-in exception class such as ValueError.",
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
    PyObject *test = get(c, node, "test"), *msg = get(c, node, "msg");
    int r = -1;
    if (!test || !msg)
        goto done;
    n->kind = KJ_S_IF;
    n->nkids = 1;
    kj_node *not = kj_new_node(c->f, KJ_E_UNARY, n->line, n->col, 1);
    kj_node *raise = kj_new_node(c->f, KJ_S_RAISE, n->line, n->col, 1);
    kj_node *cls = kj_new_node(c->f, KJ_E_EXC, n->line, n->col, 0);
    if (!not || !raise || !cls || !(n->kids = kj_alloc(c->f, sizeof(kj_node *))) ||
        !(not->kids[0] = expr(c, test)))
        goto done;
    not->op = KJ_OP_NOT;
    n->kids[0] = not;
    cls->pyobj = PyExc_AssertionError;
    raise->kids[0] = cls;
    if (msg != Py_None) {
        PyObject *v = is(msg, "Constant") ? PyObject_GetAttrString(msg, "value") : NULL;
        PyObject *s = v ? PyObject_Str(v) : NULL;
        Py_XDECREF(v);
        if (!s) {
            PyErr_Clear();
            unsupported(c, node, NULL, "the message of assert must be a constant");
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

static int stmt(fe *c, PyObject *node, kj_block *out) {
    int line = line_of(c, node), col = col_of(c, node);
    kj_node *n = kj_new_node(c->f, KJ_S_PASS, line, col, 0);
    if (!n)
        return -1;
    const char *k = kind_of(node);
    int r = -1;
    PyObject *a = NULL, *b = NULL, *d = NULL, *o = NULL;
    if (strcmp(k, "Assign") == 0) {
        /* a = b = v  ->  a = v; b = a (v is evaluated once) */
        if (!(a = get(c, node, "targets")) || !(b = get(c, node, "value")))
            goto done;
        kj_node *value = expr(c, b);
        if (!value)
            goto done;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(a); i++) {
            kj_node *s = i == 0 ? n : kj_new_node(c->f, KJ_S_ASSIGN, line, col, 0);
            if (!s || !(s->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) ||
                !(s->kids[0] = target(c, PyList_GET_ITEM(a, i))))
                goto done;
            s->kind = KJ_S_ASSIGN;
            s->nkids = 2;
            s->kids[1] = i == 0 ? value : n->kids[0];
            if (i > 0 && n->kids[0]->kind != KJ_E_LOCAL) {
                unsupported(c, node, "Write one assignment per line.",
                            "chained assignment to an element or tuple is not supported");
                goto done;
            }
            if (kj_block_push(c->f, out, s) < 0)
                goto done;
        }
        r = 0;
        goto done;
    }
    if (strcmp(k, "AugAssign") == 0 || strcmp(k, "AnnAssign") == 0) {
        bool aug = k[0] == 'A' && k[1] == 'u';
        if (!(a = get(c, node, "target")) || !(b = get(c, node, "value")))
            goto done;
        if (b == Py_None) {   /* x: int  (no value) */
            r = 0;
            goto done;
        }
        n->kind = aug ? KJ_S_AUGASSIGN : KJ_S_ASSIGN;
        n->nkids = 2;
        if (aug) {
            if (!(o = get(c, node, "op")))
                goto done;
            n->op = binop_of(o);
        }
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)) || !(n->kids[0] = target(c, a)) ||
            !(n->kids[1] = expr(c, b)))
            goto done;
        if (aug && n->kids[0]->kind == KJ_E_TUPLE) {
            unsupported(c, node, NULL, "augmented assignment to a tuple is not valid");
            goto done;
        }
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "Expr") == 0) {
        if (!(a = get(c, node, "value")))
            goto done;
        if (is(a, "Constant")) {   /* a docstring or a bare constant does nothing */
            r = 0;
            goto done;
        }
        n->kind = KJ_S_EXPR;
        n->nkids = 1;
        if ((n->kids = kj_alloc(c->f, sizeof(kj_node *))) && (n->kids[0] = expr(c, a)))
            r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "If") == 0 || strcmp(k, "While") == 0 || strcmp(k, "For") == 0) {
        bool is_for = k[0] == 'F';
        n->kind = k[0] == 'I' ? KJ_S_IF : k[0] == 'W' ? KJ_S_WHILE : KJ_S_FOR;
        n->nkids = is_for ? 2 : 1;
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *) * 2)))
            goto done;
        if (is_for) {
            if (!(a = get(c, node, "target")) || !(d = get(c, node, "iter")) ||
                !(n->kids[0] = target(c, a)) || !(n->kids[1] = expr(c, d)))
                goto done;
            if (n->kids[0]->kind == KJ_E_INDEX) {
                unsupported(c, node, "Loop over a local name.", "loop target must be a name or tuple");
                goto done;
            }
        } else if (!(a = get(c, node, "test")) || !(n->kids[0] = expr(c, a))) {
            goto done;
        }
        if (!(b = get(c, node, "body")) || !(o = get(c, node, "orelse")) ||
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
        if (!(a = get(c, node, "value")))
            goto done;
        n->kind = KJ_S_RETURN;
        n->nkids = 1;
        if (!(n->kids = kj_alloc(c->f, sizeof(kj_node *))))
            goto done;
        if (a != Py_None && !(n->kids[0] = expr(c, a)))
            goto done;
        r = kj_block_push(c->f, out, n);
        goto done;
    }
    if (strcmp(k, "FunctionDef") == 0) {   /* an inner function (inner.c) */
        if ((c->inner || (c->inner = PyDict_New())) &&
            kj_inner_def(c->f, node, c->inner, line_of(c, node), col_of(c, node), c->e) == 0)
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
            {"Delete", "Assign a new value instead."},
        };
        const char *hint = NULL;
        for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
            if (strcmp(k, hints[i].kind) == 0)
                hint = hints[i].hint;
        char what[160];
        snprintf(what, sizeof what, "a %s statement is not supported in compiled code", k);
        unsupported(c, node, hint, what);
    }
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(d);
    Py_XDECREF(o);
    return r;
}

static int stmts(fe *c, PyObject *list, kj_block *out) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++)
        if (stmt(c, PyList_GET_ITEM(list, i), out) < 0)
            return -1;
    return 0;
}

kj_function *kj_frontend(PyObject *py_func, kj_error *e, kj_function **partial) {
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
    fe c = {.f = f, .e = e, .globals = PyFunction_GetGlobals(py_func)};
    c.builtins = PyEval_GetBuiltins();
    c.is_lambda = strcmp(f->qualname + (strlen(f->qualname) >= 8 ? strlen(f->qualname) - 8 : 0), "<lambda>") == 0;
    if (kj_closure_values(py_func, code, &c.closure) < 0) {
        kj_function_free(f);
        kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "closure");
        return NULL;
    }
    PyObject *src = NULL, *mod = NULL, *body = NULL, *fdef = NULL, *args = NULL;
    if (kj_load_source(f, code) < 0 ||
        !(src = kj_source_block(f, c.is_lambda, &c.line_offset, &c.col_offset))) {
        PyErr_Clear();
        kj_fail(e, KJ_ERR_TYPING, 0, 0,
                "Define the function in a file or notebook cell, not with exec().",
                "cannot find the source of %s", f->qualname);
        goto fail;
    }
    *partial = f;
    mod = Py_CompileStringExFlags(PyUnicode_AsUTF8(src), f->filename, Py_file_input,
                                  &(PyCompilerFlags){.cf_flags = PyCF_ONLY_AST,
                                                     /* 0 would mean Python 3.0: no f-strings */
                                                     .cf_feature_version = PY_MINOR_VERSION}, -1);
    if (mod && c.is_lambda)
        fdef = kj_find_lambda(mod);
    else if (mod && (body = PyObject_GetAttrString(mod, "body")) && PyList_GET_SIZE(body) > 0)
        fdef = PyList_GetItem(body, 0);
    if (!fdef || !(is(fdef, "FunctionDef") || is(fdef, "Lambda"))) {
        PyErr_Clear();
        kj_fail(e, KJ_ERR_TYPING, f->first_line, 0, NULL, "cannot parse the source of %s",
                f->qualname);
        goto fail;
    }
    PyObject *arguments = get(&c, fdef, "args");
    if (!arguments)
        goto fail;
    PyObject *va = PyObject_GetAttrString(arguments, "vararg"),
             *kwa = PyObject_GetAttrString(arguments, "kwarg"),
             *kwo = PyObject_GetAttrString(arguments, "kwonlyargs"),
             *dfl = PyObject_GetAttrString(arguments, "defaults");
    args = PyObject_GetAttrString(arguments, "args");
    /* defaults are fine: every call arrives with all parameters bound (the
     * dispatcher from Python, bind.c from compiled code) */
    bool plain = va == Py_None && kwa == Py_None && kwo && PyList_GET_SIZE(kwo) == 0 && dfl;
    Py_XDECREF(va);
    Py_XDECREF(kwa);
    Py_XDECREF(kwo);
    Py_XDECREF(dfl);
    if (!plain || !args) {
        kj_fail(e, KJ_ERR_UNSUPPORTED, line_of(&c, fdef), col_of(&c, fdef),
                "Use positional parameters (default values are fine).",
                "*args, **kwargs and keyword-only parameters are not supported yet");
        Py_DECREF(arguments);
        goto fail;
    }
    Py_DECREF(arguments);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args); i++) {
        PyObject *name = PyObject_GetAttrString(PyList_GET_ITEM(args, i), "arg");
        int slot = name ? add_local(f, PyUnicode_AsUTF8(name), true) : -1;
        Py_XDECREF(name);
        if (slot < 0)
            goto fail_py;
    }
    f->nargs = (int)PyList_GET_SIZE(args);
    int lifted = kj_lifted_params(f, py_func, add_param);   /* an inner function's outer variables */
    if (lifted < 0)
        goto fail_py;
    f->nargs += lifted;
    PyObject *stmts_list = get(&c, fdef, "body");
    if (stmts_list && is(fdef, "Lambda")) {
        /* lambda args: expr  ->  return expr */
        kj_node *ret = kj_new_node(f, KJ_S_RETURN, line_of(&c, stmts_list), col_of(&c, stmts_list), 1);
        int ok = ret && collect_locals(&c, stmts_list) == 0 && (ret->kids[0] = expr(&c, stmts_list)) &&
                 kj_block_push(f, &f->body, ret) == 0;
        Py_DECREF(stmts_list);
        if (!ok)
            goto fail;
    } else {
        if (!stmts_list || collect_locals(&c, stmts_list) < 0 || stmts(&c, stmts_list, &f->body) < 0) {
            Py_XDECREF(stmts_list);
            goto fail;
        }
        Py_DECREF(stmts_list);
    }
    Py_XDECREF(args);
    Py_XDECREF(body);
    Py_DECREF(mod);
    Py_DECREF(src);
    Py_XDECREF(c.closure);
    Py_XDECREF(c.inner);
    *partial = NULL;
    return f;
fail_py:
    kj_fail(e, KJ_ERR_PYTHON, 0, 0, NULL, "frontend");
fail:
    Py_XDECREF(c.closure);
    Py_XDECREF(c.inner);
    Py_XDECREF(args);
    Py_XDECREF(body);
    Py_XDECREF(mod);
    Py_XDECREF(src);
    if (!*partial)
        kj_function_free(f);
    return NULL;
}
