/* infer_calls: calls whose shape typing settles before it types them
 * (infer_ctx.h): f(*t) spread into t's elements, sum/min/max of a tuple
 * written out, and f(x) through a variable holding a kiln function made a
 * direct call; the type of a kiln function named as a value; and the
 * instance a call to a kiln function goes to. */
#include "jit/frontend/frontend.h"
#include "jit/infer/infer_ctx.h"

#include <stdio.h>
#include <string.h>

/* t[i] of a tuple t that is a variable (a new read of it) or a display (its
 * own item); NULL out of memory. */
static kj_node *tuple_item(ti *c, kj_node *t, int i) {
    if (t->kind == KJ_E_TUPLE)
        return t->kids[i];
    kj_node *item = kj_new_node(c->f, KJ_E_INDEX, t->line, t->col, 2);
    kj_node *local = kj_new_node(c->f, KJ_E_LOCAL, t->line, t->col, 0);
    kj_node *pos = kj_new_node(c->f, KJ_E_CONST, t->line, t->col, 0);
    if (!item || !local || !pos)
        return NULL;
    local->slot = t->slot;
    pos->type = KJ_I64;
    pos->ival = i;
    item->kids[0] = local;
    item->kids[1] = pos;
    return item;
}

/* f(*t): each KJ_E_STARRED argument becomes the elements of its tuple, as
 * t[0], t[1]... (or the display's own items), once t's type is known; a call
 * to a kiln function is bound only then (bind.c). Returns 1 when no spread
 * is left, 0 while a tuple's type is still unknown, -1 on an error. */
static int spread(ti *c, kj_node *n) {
    int count = 0;
    bool any = false;
    for (int i = 1; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind != KJ_E_STARRED) {
            count++;
            continue;
        }
        any = true;
        kj_node *v = k->kids[0];
        if (v->kind == KJ_E_TUPLE) {
            count += v->nkids;
            continue;
        }
        const kj_type *t = kj_infer_sub(c, v);
        if (!t)
            return 0;
        if (t->kind != KJ_T_TUPLE) {
            kj_fail(&c->u->err, KJ_ERR_TYPING, k->line, k->col,
                    "Spread a tuple: Kiln must know how many arguments it gives when it compiles.",
                    "*%s in a call needs a tuple; %s is %s", c->f->locals[v->slot].name,
                    c->f->locals[v->slot].name, t->name);
            c->u->err_function = c->f;
            c->failed = true;
            return -1;
        }
        count += t->n;
    }
    if (!any)
        return 1;
    kj_node **kids = kj_alloc(c->f, sizeof(kj_node *) * (size_t)(count + 1));
    if (!kids) {
        c->failed = true;
        return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    kids[0] = n->kids[0];
    int m = 1;
    for (int i = 1; i < n->nkids; i++) {
        kj_node *k = n->kids[i], *v = k->kind == KJ_E_STARRED ? k->kids[0] : NULL;
        if (!v) {
            kids[m++] = k;
        } else if (v->kind == KJ_E_TUPLE) {
            for (int j = 0; j < v->nkids; j++)
                kids[m++] = v->kids[j];
        } else {
            for (int j = 0; j < v->type->n; j++)
                if (!(kids[m++] = tuple_item(c, v, j))) {
                    c->failed = true;
                    return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
                }
        }
    }
    n->kids = kids;
    n->nkids = count + 1;
    kj_node *fn = n->kids[0];
    if (fn->kind == KJ_E_FUNC && strcmp(fn->name, "dispatcher") == 0 &&
        kj_bind_spread(c->f, &c->u->err, n) < 0) {
        c->u->err_function = c->f;
        c->failed = true;
        return -1;
    }
    return 1;
}

/* sum(t[, start]), min(t) and max(t) of a tuple t (a variable or a
 * display): sum becomes start + t[0] + t[1] + ... (Python's order, from 0),
 * which n turns into; min and max become min(*t) and max(*t). Returns 2
 * when n is no longer a call, 1 when it is one to type as such, 0 while
 * t's type is unknown, -1 out of memory. */
static int tuple_reduction(ti *c, kj_node *n) {
    kj_node *fn = n->kids[0], *t = n->nkids >= 2 ? n->kids[1] : NULL;
    if (fn->kind != KJ_E_FUNC || !t || (t->kind != KJ_E_LOCAL && t->kind != KJ_E_TUPLE))
        return 1;
    bool sum = strcmp(fn->name, "sum") == 0 && (n->nkids == 2 || (n->nkids == 3 && n->kids[2]->kind != KJ_E_KEYWORD));
    bool extreme = n->nkids == 2 && (strcmp(fn->name, "min") == 0 || strcmp(fn->name, "max") == 0);
    if (!sum && !extreme)
        return 1;
    const kj_type *tt = kj_infer_sub(c, t);
    if (!tt)
        return 0;
    if (tt->kind != KJ_T_TUPLE)
        return 1;   /* a list or an array: typed as before */
    if (extreme) {
        kj_node *star = kj_new_node(c->f, KJ_E_STARRED, t->line, t->col, 1);
        if (!star)
            return -1;
        star->kids[0] = t;
        n->kids[1] = star;
        return 1;
    }
    kj_node *acc = n->nkids == 3 ? n->kids[2] : kj_new_node(c->f, KJ_E_CONST, n->line, n->col, 0);
    if (!acc)
        return -1;
    if (n->nkids == 2)
        acc->type = KJ_I64;   /* ival 0 */
    for (int i = 0; i < tt->n; i++) {
        kj_node *add = kj_new_node(c->f, KJ_E_BINOP, n->line, n->col, 2);
        if (!add || !(add->kids[1] = tuple_item(c, t, i)))
            return -1;
        add->op = KJ_OP_ADD;
        add->kids[0] = acc;
        acc = add;
    }
    *n = *acc;
    return 2;
}

/* A kiln function named as a value (passed on, assigned): its own type.
 * An inner function that reads its enclosing function's variables is not
 * one: those are passed where it is called by name (bind.c). */
const kj_type *kj_infer_function_value(ti *c, kj_node *n) {
    PyObject *freevars = kj_lifted_freevars(n->pyobj);
    Py_ssize_t nfree = freevars ? PyTuple_GET_SIZE(freevars) : 0;
    Py_XDECREF(freevars);
    if (nfree > 0) {
        return kj_infer_problem(c, n, "Pass the variables it reads as arguments, or call it here by name.",
                                "an inner function that reads variables of the function around it cannot be a value");
    }
    const kj_type *t = kj_func(n->pyobj);
    if (!t) {
        c->failed = true;
        kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    return t;
}

/* f(...) where f is a variable holding a kiln function (a parameter, as in
 * Numba's first-class dispatchers): becomes a direct call to that function,
 * bound to its parameters as a call by name is. Returns 1 when the call is
 * one to type, 0 while f's type is unknown, -1 on an error. */
static int call_through_value(ti *c, kj_node *n) {
    kj_node *fn = n->kids[0];
    if (fn->kind != KJ_E_LOCAL && fn->kind != KJ_E_INDEX)   /* f(x), fs[0](x) */
        return 1;
    const kj_type *t = kj_value_of(kj_infer_sub(c, fn));
    if (!t)
        return 0;
    if (t->kind != KJ_T_FUNC) {
        char what[600];
        snprintf(what, sizeof what, "%s is not callable", t->name);
        kj_infer_problem(c, n, NULL, what);
        return -1;
    }
    kj_node *callee = kj_new_node(c->f, KJ_E_FUNC, fn->line, fn->col, 0);
    if (!callee) {
        c->failed = true;
        return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    callee->name = "dispatcher";
    callee->pyobj = t->obj;   /* kept alive by its type */
    n->kids[0] = callee;
    n->ival = 0;   /* no free variables to leave out of the binding */
    bool starred = false;
    for (int i = 1; i < n->nkids; i++)
        starred |= n->kids[i]->kind == KJ_E_STARRED;
    if (!starred && kj_bind_spread(c->f, &c->u->err, n) < 0) {   /* spread() binds after spreading */
        c->u->err_function = c->f;
        c->failed = true;
        return -1;
    }
    return 1;
}

/* type(x)(v): a cast to x's own type (float(v), np.float32(v)), when x is a
 * number held in a name or a constant, which reads the same without being
 * evaluated. Returns 1 when n is now such a cast or was not of this form, 0
 * while x's type is unknown, -1 on an error (reported). */
static int call_of_a_type(ti *c, kj_node *n) {
    kj_node *fn = n->kids[0];
    if (fn->kind != KJ_E_CALL || fn->nkids != 2 || fn->kids[0]->kind != KJ_E_FUNC || !fn->kids[0]->name ||
        strcmp(fn->kids[0]->name, "type") != 0)
        return 1;
    kj_node *x = fn->kids[1];
    const kj_type *t = kj_value_of(kj_infer_sub(c, x));
    if (!t)
        return 0;
    if (!kj_is_number(t) || (x->kind != KJ_E_LOCAL && x->kind != KJ_E_CONST)) {
        kj_infer_problem(c, n, "Name the type: float(v), np.float32(v); or hold x in a name first.",
                         "type(x)(v) is supported in compiled code for a number x held in a name");
        return -1;
    }
    char name[80];
    snprintf(name, sizeof name, "cast:%.70s", t->name);
    kj_node *cast = kj_new_node(c->f, KJ_E_FUNC, fn->line, fn->col, 0);
    if (!cast || !(cast->name = kj_strdup(c->f, name))) {
        c->failed = true;
        return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    n->kids[0] = cast;
    return 1;
}

/* The operator module's functions, as the operators they are. */
static const struct {
    const char *name;
    kj_node_kind kind;   /* BINOP, UNARY or COMPARE */
    kj_op op;
    bool in_place;       /* iadd and the others: the operator, on numbers (an array would change in place) */
} operators[] = {
    {"add", KJ_E_BINOP, KJ_OP_ADD, false}, {"sub", KJ_E_BINOP, KJ_OP_SUB, false},
    {"mul", KJ_E_BINOP, KJ_OP_MUL, false}, {"truediv", KJ_E_BINOP, KJ_OP_DIV, false},
    {"floordiv", KJ_E_BINOP, KJ_OP_FLOORDIV, false}, {"mod", KJ_E_BINOP, KJ_OP_MOD, false},
    {"pow", KJ_E_BINOP, KJ_OP_POW, false}, {"lshift", KJ_E_BINOP, KJ_OP_LSHIFT, false},
    {"rshift", KJ_E_BINOP, KJ_OP_RSHIFT, false}, {"and_", KJ_E_BINOP, KJ_OP_BITAND, false},
    {"or_", KJ_E_BINOP, KJ_OP_BITOR, false}, {"xor", KJ_E_BINOP, KJ_OP_BITXOR, false},
    {"iadd", KJ_E_BINOP, KJ_OP_ADD, true}, {"isub", KJ_E_BINOP, KJ_OP_SUB, true},
    {"imul", KJ_E_BINOP, KJ_OP_MUL, true}, {"itruediv", KJ_E_BINOP, KJ_OP_DIV, true},
    {"ifloordiv", KJ_E_BINOP, KJ_OP_FLOORDIV, true}, {"imod", KJ_E_BINOP, KJ_OP_MOD, true},
    {"ipow", KJ_E_BINOP, KJ_OP_POW, true}, {"ilshift", KJ_E_BINOP, KJ_OP_LSHIFT, true},
    {"irshift", KJ_E_BINOP, KJ_OP_RSHIFT, true}, {"iand", KJ_E_BINOP, KJ_OP_BITAND, true},
    {"ior", KJ_E_BINOP, KJ_OP_BITOR, true}, {"ixor", KJ_E_BINOP, KJ_OP_BITXOR, true},
    {"neg", KJ_E_UNARY, KJ_OP_NEG, false}, {"pos", KJ_E_UNARY, KJ_OP_POS, false},
    {"invert", KJ_E_UNARY, KJ_OP_INVERT, false}, {"inv", KJ_E_UNARY, KJ_OP_INVERT, false},
    {"not_", KJ_E_UNARY, KJ_OP_NOT, false},
    {"lt", KJ_E_COMPARE, KJ_OP_LT, false}, {"le", KJ_E_COMPARE, KJ_OP_LE, false},
    {"eq", KJ_E_COMPARE, KJ_OP_EQ, false}, {"ne", KJ_E_COMPARE, KJ_OP_NE, false},
    {"ge", KJ_E_COMPARE, KJ_OP_GE, false}, {"gt", KJ_E_COMPARE, KJ_OP_GT, false},
    {"is_", KJ_E_COMPARE, KJ_OP_IS, false}, {"is_not", KJ_E_COMPARE, KJ_OP_ISNOT, false},
    {"contains", KJ_E_COMPARE, KJ_OP_IN, false},   /* contains(a, b) is b in a */
};

/* operator.add(a, b) and the rest: n becomes the operator written out
 * (a + b); operator.truth and operator.abs become bool() and abs().
 * Returns 2 when n changed, 1 when it is no such call, -1 on a problem. */
static int operator_call(ti *c, kj_node *n) {
    kj_node *fn = n->kids[0];
    if (fn->kind != KJ_E_FUNC || !fn->name || strncmp(fn->name, "operator.", 9) != 0)
        return 1;
    const char *name = fn->name + 9;
    int nargs = n->nkids - 1;
    for (int i = 1; i < n->nkids; i++)
        if (n->kids[i]->kind == KJ_E_KEYWORD || n->kids[i]->kind == KJ_E_STARRED)
            nargs = -1;
    if ((!strcmp(name, "truth") || !strcmp(name, "abs")) && nargs == 1) {
        fn->name = !strcmp(name, "truth") ? "bool" : "abs";
        return 1;
    }
    for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
        if (strcmp(name, operators[i].name) != 0)
            continue;
        int want = operators[i].kind == KJ_E_UNARY ? 1 : 2;
        if (nargs != want)
            break;
        if (operators[i].in_place)
            for (int k = 1; k <= 2; k++) {
                const kj_type *t = kj_infer_sub(c, n->kids[k]);
                if (t && !kj_is_number(t) && t->kind != KJ_T_BOOL) {
                    kj_infer_problem(c, n, "Write the statement: a += b.",
                                     "operator.i* functions take numbers in compiled code");
                    return -1;
                }
            }
        kj_node *a = n->kids[1], *b = want == 2 ? n->kids[2] : NULL;
        n->kind = operators[i].kind;
        n->op = operators[i].op;
        if (n->kind == KJ_E_COMPARE) {
            if (!(n->ops = kj_alloc(c->f, sizeof(kj_op)))) {
                c->failed = true;
                return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
            }
            n->ops[0] = operators[i].op;
            if (operators[i].op == KJ_OP_IN) {   /* contains(a, b): b in a */
                kj_node *t = a;
                a = b;
                b = t;
            }
        }
        n->kids[0] = a;
        n->kids[1] = b;
        n->nkids = want;
        return 2;
    }
    kj_infer_problem(c, n, "Write the operator itself (a + b, a < b, -a).",
                     "this function of the operator module is not supported in compiled code with these arguments");
    return -1;
}

int kj_infer_call_shape(ti *c, kj_node *n) {
    int operator = operator_call(c, n);
    if (operator != 1)
        return operator;
    kj_node *fn = n->kids[0];
    if (fn->kind == KJ_E_FUNC && fn->name && !strcmp(fn->name, "isinstance")) {   /* what decided.c left */
        kj_infer_problem(c, n, "Test a parameter the function does not assign, whose type the call decides.",
                         "isinstance in compiled code takes a parameter the function never assigns (not one that "
                         "may be None) and int, float, complex, bool, str, tuple, list, dict, set, np.ndarray, "
                         "np.integer, np.floating, np.number or a NumPy scalar type, or a tuple of those");
        return -1;
    }
    int cast = call_of_a_type(c, n);
    if (cast <= 0)
        return cast;
    int through = call_through_value(c, n);
    if (through <= 0)
        return through;
    int reduced = tuple_reduction(c, n);
    if (reduced == 2)
        return 2;
    if (reduced < 0) {
        c->failed = true;
        return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    if (reduced == 0)
        return 0;
    return spread(c, n);
}

const kj_type *kj_infer_dispatcher_call(ti *c, kj_node *n, const kj_type **args, int nargs) {
    kj_instance *callee = kj_unit_instance(c->u, n->kids[0]->pyobj, nargs, args);
    if (!callee && c->u->err.kind == KJ_ERR_PYTHON && PyErr_ExceptionMatches(kj_TypingError)) {
        /* an overload with no implementation for these types (kiln/extending.py): said at this call */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *text = value ? PyObject_Str(value) : NULL;
        char what[600];
        snprintf(what, sizeof what, "%s", text && PyUnicode_AsUTF8(text) ? PyUnicode_AsUTF8(text) : "no implementation");
        PyErr_Clear();
        Py_XDECREF(text);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        c->u->err.kind = KJ_ERR_NONE;
        KJ_INFER_FAIL(c, n, "Have the overload return an implementation for these argument types.", "%s", what);
    }
    if (!callee) {
        c->failed = true;
        return NULL;
    }
    n->aux = callee;
    if (!callee->typed && !callee->typing && kj_infer(c->u, callee) < 0) {
        c->failed = true;
        return NULL;
    }
    if (!callee->ret)
        KJ_INFER_FAIL(c, n, "Put the base case's return before the recursive call.",
                      "cannot infer the return type of the recursive call to %s", callee->f->qualname);
    /* `[]` or `{}` filled by the callee: the caller's variable takes the
     * types the callee gave them (the next pass calls an instance for those) */
    for (int i = 0; i < nargs && callee->typed; i++) {
        const kj_type *given = callee->f->locals[i].type;
        bool open = ((args[i]->kind == KJ_T_LIST || args[i]->kind == KJ_T_SET) && !args[i]->elem) ||
                    (args[i]->kind == KJ_T_DICT && !args[i]->n);
        if (open && given && given != args[i] && given->kind == args[i]->kind && n->kids[i + 1]->kind == KJ_E_LOCAL &&
            kj_infer_assign_local(c, n->kids[i + 1]->slot, given, n) < 0)
            return NULL;
    }
    return callee->ret;
}
