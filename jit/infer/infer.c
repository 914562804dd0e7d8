/* infer: type inference over Kiln IR. A local's type is the unification of
 * everything assigned to it; the pass over the body repeats until no local
 * and no return type changes (loops carry types backwards), then runs once
 * more in strict mode, where anything still untyped is an error with the
 * line that caused it. */
#include "jit/core/callables.h"
#include "jit/core/kind_ops.h"
#include "jit/frontend/frontend.h"
#include "jit/infer/infer_ctx.h"
#include "jit/lower/lower.h"
#include "jit/core/unit.h"

#include <stdio.h>
#include <string.h>


static const kj_type *infer_expr(ti *c, kj_node *n);

/* A typing problem at n: an error in strict mode, an unknown type before. */
static const kj_type *problem(ti *c, kj_node *n, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static const kj_type *problem(ti *c, kj_node *n, const char *hint, const char *fmt, ...) {
    if (c->strict && c->u->err.kind == KJ_ERR_NONE) {
        char what[600];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        kj_fail(&c->u->err, KJ_ERR_TYPING, n->line, n->col, hint, "%s", what);
        c->u->err_function = c->f;
    }
    return NULL;
}

static int conflict(ti *c, kj_node *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int conflict(ti *c, kj_node *at, const char *fmt, ...) {
    if (c->u->err.kind == KJ_ERR_NONE) {
        char what[600];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        kj_fail(&c->u->err, KJ_ERR_TYPING, at->line, at->col,
                "Use a different name for each kind of value.", "%s", what);
        c->u->err_function = c->f;
    }
    c->failed = true;
    return -1;
}

static int assign_local(ti *c, int slot, const kj_type *t, kj_node *at) {
    kj_local *l = &c->f->locals[slot];
    if (!t)
        return 0;
    if (l->is_arg && l->type && l->type != t && !kj_unify(l->type, t))
        return conflict(c, at, "%s is the argument type %s, and line %d assigns it %s", l->name,
                        l->type->name, at->line, t->name);
    const kj_type *u = kj_unify(l->type, t);
    if (!u)
        return conflict(c, at, "%s is %s on line %d and %s on line %d", l->name, l->type->name,
                        l->line, t->name, at->line);
    if (u != l->type) {
        if (!l->type)
            l->line = at->line;
        l->type = u;
        c->changed = true;
    }
    return 0;
}

static int assign_ret(ti *c, const kj_type *t, kj_node *at) {
    kj_instance *in = c->inst;
    if (!t || t == kj_never())   /* `return f()` of an f that always raises returns nothing */
        return 0;
    if (in->ret_declared) {
        if (!kj_can_convert(t, in->ret))
            return conflict(c, at, "this returns %s but the signature declares %s", t->name,
                            in->ret->name);
        return 0;
    }
    const kj_type *u = kj_unify(in->ret, t);
    if (!u)
        return conflict(c, at, "this returns %s, another return gives %s", t->name, in->ret->name);
    if (u != in->ret) {
        in->ret = u;
        c->changed = true;
    }
    return 0;
}

static bool truthy_ok(const kj_type *t) {
    return kj_is_number(t) || t->kind == KJ_T_OPTIONAL || t->kind == KJ_T_NONE || t->kind == KJ_T_TUPLE ||
           t->kind == KJ_T_LIST || t->kind == KJ_T_DICT || t->kind == KJ_T_SET;   /* containers: not empty */
}


/* The kind whose module the function named name belongs to ("np.sum"), or NULL. */
static const kj_kind_ops *module_of(const char *name) {
    for (kj_kind k = 0; k < KJ_KIND_COUNT; k++) {
        const kj_kind_ops *ops = kj_kind_ops_of(k);
        if (ops->module && !strncmp(name, ops->module, strlen(ops->module)))
            return ops;
    }
    return NULL;
}

/* [...], {k: v}, {x}: the type of a display of kind k (or a comprehension). */
static const kj_type *display_type(ti *c, kj_node *n, kj_kind k) {
    return kj_kind_ops_of(k)->display_type(c, n);
}

/* a + b of two tuples of numbers (a.shape + (3,)), or the parts of
 * (*a, *b): the tuple of both's items. */
static const kj_type *tuple_concat_type(ti *c, kj_node *n, const kj_type *a, const kj_type *b) {
    const kj_type *items[a->n + b->n + 1];
    for (int i = 0; i < a->n + b->n; i++) {
        items[i] = i < a->n ? a->elems[i] : b->elems[i - a->n];
        if (!kj_is_number(items[i]))
            return problem(c, n, "Build the tuple item by item: (a[0], a[1], b[0]).",
                           n->ival == KJ_STARRED_JOIN
                               ? "*x in a tuple display takes tuples of numbers in compiled code, not of %s"
                               : "tuples are joined with + in compiled code only when they hold numbers, not %s",
                           items[i]->name);
    }
    return kj_tuple(a->n + b->n, items);
}

static const kj_type *binop_type(ti *c, kj_node *n, kj_op op, const kj_type *a, const kj_type *b) {
    a = kj_value_of(a);
    b = kj_value_of(b);
    if (n->kind == KJ_E_BINOP && n->ival == KJ_STARRED_JOIN && (a->kind != KJ_T_TUPLE || b->kind != KJ_T_TUPLE))
        return problem(c, n, "Spread a tuple, whose length Kiln knows when it compiles: (*t, x) with t a tuple.",
                       "*x in a tuple display needs a tuple in compiled code; got %s",
                       (a->kind == KJ_T_TUPLE ? b : a)->name);
    for (kj_kind k = 0; k < KJ_KIND_COUNT; k++)   /* arrays first: a list + an array is NumPy's */
        if ((a->kind == k || b->kind == k) && kj_kind_ops_of(k)->binop_type)
            return kj_kind_ops_of(k)->binop_type(c, n, op, a, b);
    if (a->kind == KJ_T_TUPLE && b->kind == KJ_T_TUPLE && op == KJ_OP_ADD && n->kind == KJ_E_BINOP)
        return tuple_concat_type(c, n, a, b);

    if (a->kind == KJ_T_STR && b->kind == KJ_T_STR && op == KJ_OP_ADD && n->kind == KJ_E_BINOP) {
        n->kind = KJ_E_FSTRING;   /* s + t is f"{s}{t}" (strings.c) */
        return a;
    }
    if (!kj_is_number(a) || !kj_is_number(b))
        return problem(c, n, NULL, "unsupported operand types for this operator: %s and %s",
                       a->name, b->name);
    switch (op) {
    case KJ_OP_DIV:
        if (kj_is_intlike(a) && kj_is_intlike(b))
            return KJ_F64;
        return kj_promote(a, b);
    case KJ_OP_LSHIFT: case KJ_OP_RSHIFT: case KJ_OP_BITAND: case KJ_OP_BITOR: case KJ_OP_BITXOR:
        if (!kj_is_intlike(a) || !kj_is_intlike(b))
            return problem(c, n, "Convert with int() first.",
                           "bitwise operators need integers, got %s and %s", a->name, b->name);
        if (a->kind == KJ_T_BOOL && b->kind == KJ_T_BOOL && op != KJ_OP_LSHIFT &&
            op != KJ_OP_RSHIFT)
            return kj_bool();
        return kj_promote(a, b);
    case KJ_OP_FLOORDIV: case KJ_OP_MOD:
        if (a->kind == KJ_T_COMPLEX || b->kind == KJ_T_COMPLEX)
            return problem(c, n, NULL, "// and %% are not defined for complex numbers");
        return kj_promote(a, b);
    case KJ_OP_POW:
        if (kj_is_intlike(a) && kj_is_intlike(b))
            return kj_promote(a, b);
        return kj_promote(a, b);
    default:
        return kj_promote(a, b);
    }
}

static const kj_type *attr_type(ti *c, kj_node *n) {
    const kj_type *t = kj_infer_value(c, n->kids[0]);
    if (!t)
        return NULL;
    const char *a = n->name;
    if (kj_kind_ops_of(t->kind)->attr_type) {
        bool handled;
        const kj_type *kind_t = kj_kind_ops_of(t->kind)->attr_type(c, n, t, &handled);
        if (handled)
            return kind_t;
    }
    if (t->kind == KJ_T_ARRAY) {
        if (strcmp(a, "shape") == 0 || strcmp(a, "strides") == 0) {
            const kj_type *e[t->ndim > 0 ? t->ndim : 1];
            for (int i = 0; i < t->ndim; i++)
                e[i] = KJ_I64;
            return kj_tuple(t->ndim, e);
        }
        if (strcmp(a, "ndim") == 0 || strcmp(a, "size") == 0 || strcmp(a, "itemsize") == 0)
            return KJ_I64;
        if (strcmp(a, "dtype") == 0)
            return problem(c, n, "Pass it where NumPy takes a dtype: np.empty(n, dtype=a.dtype), b.astype(a.dtype).",
                           "a.dtype names a type here, not a value");
        if (strcmp(a, "T") == 0)
            return kj_array(t->elem, t->ndim,
                            t->layout == KJ_LAYOUT_C   ? KJ_LAYOUT_F
                            : t->layout == KJ_LAYOUT_F ? KJ_LAYOUT_C
                                                       : KJ_LAYOUT_A,
                            t->readonly);
    }
    if (kj_is_number(t) && (strcmp(a, "real") == 0 || strcmp(a, "imag") == 0))
        return t->kind == KJ_T_COMPLEX ? kj_float(t->bits / 2) : t;
    return problem(c, n, NULL, "%s has no attribute '%s' in compiled code", t->name, a);
}

/* Whether two tuples compare as Python compares them, element by element
 * (lowered in lower_expr.c): numbers, or tuples of them, on both sides;
 * complex numbers only where the comparison is == or !=. */
static bool tuples_compare(const kj_type *a, const kj_type *b, bool equality) {
    if (a->kind != KJ_T_TUPLE || b->kind != KJ_T_TUPLE)
        return false;
    for (int i = 0; i < a->n && i < b->n; i++) {
        const kj_type *x = a->elems[i], *y = b->elems[i];
        if (x->kind == KJ_T_TUPLE || y->kind == KJ_T_TUPLE) {
            if (!tuples_compare(x, y, equality))
                return false;
        } else if (!kj_is_number(x) || !kj_is_number(y) ||
                   (!equality && (x->kind == KJ_T_COMPLEX || y->kind == KJ_T_COMPLEX))) {
            return false;
        }
    }
    return true;
}

static const kj_type *call_type(ti *c, kj_node *n) {
    int shaped = kj_infer_call_shape(c, n);
    if (shaped == 2)
        return infer_expr(c, n);
    if (shaped <= 0)
        return NULL;
    kj_node *fn = n->kids[0];
    const kj_kind_ops *module = fn->kind == KJ_E_FUNC ? module_of(fn->name) : NULL;
    if (module)
        return module->module_call_type(c, n);
    const kj_callable *k = kj_callable_of_call(n);   /* cuda.grid, cuda.shared.array, ...: callables.h */
    if (k)
        return k->type(c, n);
    int nargs = n->nkids - 1;
    const kj_type *args[nargs > 0 ? nargs : 1];
    for (int i = 0; i < nargs; i++)
        if (!(args[i] = kj_value_of(infer_expr(c, n->kids[i + 1]))))
            return NULL;
    if (fn->kind != KJ_E_FUNC)
        return problem(c, n, NULL, "only functions can be called in compiled code");
    if (!strcmp(fn->name, "abs") && nargs == 1 && args[0]->kind == KJ_T_ARRAY) {   /* abs(a) is NumPy's, elementwise */
        fn->name = "np.absolute";
        return module_of(fn->name)->module_call_type(c, n);
    }
    bool handled;
    for (kj_kind k = 0; k < KJ_KIND_COUNT; k++) {   /* list(x), sorted(x), set(x), dict(...) */
        const kj_kind_ops *ops = kj_kind_ops_of(k);
        if (!ops->builtin_call_type)
            continue;
        const kj_type *kind_t = ops->builtin_call_type(c, n, fn->name, nargs, args, &handled);
        if (handled)
            return kind_t;
    }
    const kj_type *str_t = kj_str_call_type(c, n, fn->name, nargs, args, &handled);   /* print(...) */
    if (handled)
        return str_t;
    for (int i = 1; i < n->nkids; i++)
        if (n->kids[i]->kind == KJ_E_KEYWORD)
            return problem(c, n->kids[i], "Pass the arguments by position.",
                           "keyword arguments are supported only in calls to NumPy functions, array methods and print");
    if (strcmp(fn->name, "dispatcher") == 0)
        return kj_infer_dispatcher_call(c, n, args, nargs);
    char why[300] = "";
    const kj_type *t = kj_builtin_type(fn->name, nargs, args, why, sizeof why);
    if (!t) {
        char sig[300] = "";
        size_t used = 0;
        for (int i = 0; i < nargs && used < sizeof sig; i++)
            used += snprintf(sig + used, sizeof sig - used, "%s%s", i ? ", " : "", args[i]->name);
        const char *shown = strncmp(fn->name, "module:", 7) == 0 ? fn->name + 7 : fn->name;
        return problem(c, n, why[0] ? why : NULL, "%s(%s) is not supported in compiled code",
                       shown, sig);
    }
    return t;
}

/* The type of n; an Optional array becomes its value (kj_infer_value), as
 * array arithmetic takes it. Optional numbers stay: the builtins take them. */
static const kj_type *optional_array_value(ti *c, kj_node *n) {
    const kj_type *t = infer_expr(c, n);
    return t && t->kind == KJ_T_OPTIONAL && t->elem->kind == KJ_T_ARRAY ? kj_infer_value(c, n) : t;
}

static const kj_type *infer_expr_inner(ti *c, kj_node *n) {
    switch (n->kind) {
    case KJ_E_CONST:
        return n->type;
    case KJ_E_LOCAL: {
        kj_local *l = &c->f->locals[n->slot];
        if (!l->type)
            return problem(c, n, "Assign it on every path before this line.",
                           "%s is used before it is assigned", l->name);
        return l->type;
    }
    case KJ_E_FUNC:
        if (strcmp(n->name, "dispatcher") == 0)
            return kj_infer_function_value(c, n);
        /* fall through */
    case KJ_E_EXC:
        return problem(c, n, "Call it, or pass a value instead.",
                       "only kiln functions are values in compiled code; other functions and modules are not");
    case KJ_E_BINOP: {
        const kj_type *a = optional_array_value(c, n->kids[0]), *b = optional_array_value(c, n->kids[1]);
        return a && b ? binop_type(c, n, n->op, a, b) : NULL;
    }
    case KJ_E_UNWRAP:
        return kj_value_of(infer_expr(c, n->kids[0]));
    case KJ_E_UNARY: {
        const kj_type *a = infer_expr(c, n->kids[0]);
        if (!a)
            return NULL;
        if (n->op != KJ_OP_NOT)
            a = kj_value_of(a);
        if (kj_kind_ops_of(a->kind)->unary_type)
            return kj_kind_ops_of(a->kind)->unary_type(c, n, a);
        if (n->op == KJ_OP_NOT)
            return truthy_ok(a) ? kj_bool()
                                : problem(c, n, NULL, "the truth of %s is ambiguous", a->name);
        if (!kj_is_number(a))
            return problem(c, n, NULL, "bad operand type for unary operator: %s", a->name);
        if (n->op == KJ_OP_INVERT && !kj_is_intlike(a))
            return problem(c, n, NULL, "~ needs an integer, got %s", a->name);
        if (a->kind == KJ_T_BOOL && n->op == KJ_OP_INVERT)
            /* NumPy's logical not, as Numba takes it: code written for a mask's element (link = a[i] > 0;
             * ~link) relies on it. Python's ~ of a bool is the int's (~True == -2), deprecated since 3.12 */
            return kj_bool();
        if (a->kind == KJ_T_BOOL)
            return n->op == KJ_OP_NEG || n->op == KJ_OP_POS ? KJ_I64 : a;
        if (a->kind == KJ_T_INT)
            return kj_int(64, a->is_signed);
        return a;
    }
    case KJ_E_COMPARE: {
        const kj_type *prev = infer_expr(c, n->kids[0]);
        for (int i = 1; i < n->nkids; i++) {
            const kj_type *t = infer_expr(c, n->kids[i]);
            if (!prev || !t)
                return NULL;
            kj_op op = n->ops[i - 1];
            bool none_cmp = prev->kind == KJ_T_NONE || t->kind == KJ_T_NONE;
            if (!none_cmp && op != KJ_OP_IS && op != KJ_OP_ISNOT && op != KJ_OP_IN && op != KJ_OP_NOTIN) {
                prev = optional_array_value(c, n->kids[i - 1]);   /* a < b of arrays an Optional holds */
                t = optional_array_value(c, n->kids[i]);
            }
            if (op == KJ_OP_IN || op == KJ_OP_NOTIN) {
                if (n->nkids != 2)
                    return problem(c, n, NULL, "chained `in` comparisons are not supported");
                /* an Optional looked up is its value: Numba's TypeError for None */
                return kj_infer_contains_type(c, n, kj_infer_value(c, n->kids[0]), t);
            } else if (op == KJ_OP_IS || op == KJ_OP_ISNOT || none_cmp) {
                if (!none_cmp && !(kj_is_number(prev) && kj_is_number(t)))
                    return problem(c, n, "Use is only to compare with None.",
                                   "'is' between %s and %s", prev->name, t->name);
            } else if (prev->kind == KJ_T_SET || t->kind == KJ_T_SET) {
                if (prev->kind != t->kind || n->nkids != 2)
                    return problem(c, n, NULL, "a set compares with a set only, not with %s",
                                   prev->kind == KJ_T_SET ? t->name : prev->name);
            } else if (prev->kind == KJ_T_LIST && t->kind == KJ_T_LIST) {   /* lists_lower.c: compare_lists */
                bool numbers = (!prev->elem || kj_is_number(prev->elem) || prev->elem->kind == KJ_T_BOOL) &&
                               (!t->elem || kj_is_number(t->elem) || t->elem->kind == KJ_T_BOOL);
                bool ordered = op == KJ_OP_EQ || op == KJ_OP_NE ||
                               ((!prev->elem || prev->elem->kind != KJ_T_COMPLEX) && (!t->elem || t->elem->kind != KJ_T_COMPLEX));
                if (!numbers || !ordered || n->nkids != 2)
                    return problem(c, n, "Compare the items in a loop.",
                                   "lists compare with lists of numbers in compiled code (complex ones with == and != "
                                   "only), one comparison at a time, not %s with %s", prev->name, t->name);
            } else if (prev->kind == KJ_T_STR || t->kind == KJ_T_STR) {
                if (prev != t || (op != KJ_OP_EQ && op != KJ_OP_NE) || n->nkids != 2)
                    return problem(c, n, NULL, "strings compare with == and != to strings only");
            } else if (prev->kind == KJ_T_ARRAY || t->kind == KJ_T_ARRAY) {
                return n->nkids == 2 ? kj_kind_ops_of(KJ_T_ARRAY)->binop_type(c, n, op, prev, t)
                                     : problem(c, n, "Combine comparisons of arrays with &.",
                                               "chained comparisons of arrays are ambiguous");
            } else if (prev->kind == KJ_T_TUPLE || t->kind == KJ_T_TUPLE) {
                if (!tuples_compare(prev, t, op == KJ_OP_EQ || op == KJ_OP_NE))
                    return problem(c, n, "Tuples compare with tuples of numbers (or of such tuples); "
                                         "complex numbers only with == and !=.",
                                   "cannot compare %s with %s", prev->name, t->name);
            } else if (!kj_is_number(kj_value_of(prev)) || !kj_is_number(kj_value_of(t))) {
                return problem(c, n, NULL, "cannot compare %s with %s", prev->name, t->name);
            } else if ((prev->kind == KJ_T_COMPLEX || t->kind == KJ_T_COMPLEX) && op != KJ_OP_EQ &&
                       op != KJ_OP_NE) {
                return problem(c, n, NULL, "complex numbers cannot be ordered");
            }
            prev = t;
        }
        return kj_bool();
    }
    case KJ_E_BOOLOP:
    case KJ_E_IFEXP: {
        const kj_type *u = NULL;
        int first = n->kind == KJ_E_IFEXP ? 1 : 0;
        if (first) {
            const kj_type *t = infer_expr(c, n->kids[0]);
            if (!t)
                return NULL;
            if (!truthy_ok(t))
                return problem(c, n->kids[0], NULL, "the truth of %s is ambiguous", t->name);
        }
        for (int i = first; i < n->nkids; i++) {
            const kj_type *t = infer_expr(c, n->kids[i]);
            if (!t)
                return NULL;
            if (n->kind == KJ_E_BOOLOP && !truthy_ok(t))
                return problem(c, n->kids[i], NULL, "the truth of %s is ambiguous", t->name);
            const kj_type *v = kj_unify(u, t);
            if (!v)
                return problem(c, n, "Make both sides the same kind of value.",
                               "the two sides are %s and %s, which do not unify", u->name, t->name);
            u = v;
        }
        return u;
    }
    case KJ_E_CALL:
        return call_type(c, n);
    case KJ_E_METHOD: {
        const kj_type *t = kj_infer_value(c, n->kids[0]);
        if (!t)
            return NULL;
        const kj_kind_ops *ops = kj_kind_ops_of(t->kind);
        if (ops->method_type)
            return ops->method_type(c, n, t);
        if (ops->methods)
            return kj_infer_container_method(c, n, t);
        if (strcmp(n->name, "conjugate") == 0 && n->nkids == 1 && kj_is_number(t))
            return t->kind == KJ_T_BOOL ? KJ_I64 : t;
        return problem(c, n, NULL, "%s has no method '%s' in compiled code", t->name, n->name);
    }
    case KJ_E_ATTR:
        return attr_type(c, n);
    case KJ_E_INDEX:
        return kj_infer_index_type(c, n);
    case KJ_E_SLICE:
        return problem(c, n, NULL, "a slice is only allowed inside []");
    case KJ_E_ELLIPSIS:
        return problem(c, n, NULL, "... (Ellipsis) stands for axes in an array index only");
    case KJ_E_LIST:
    case KJ_E_LISTCOMP:
        return display_type(c, n, KJ_T_LIST);
    case KJ_E_DICT:
    case KJ_E_DICTCOMP:
        return display_type(c, n, KJ_T_DICT);
    case KJ_E_SET:
        return display_type(c, n, KJ_T_SET);
    case KJ_E_FSTRING:
    case KJ_E_FORMAT:
        return kj_str_expr_type(c, n);
    case KJ_E_KEYWORD:   /* the callee says whether it takes it (call_type) */
        return infer_expr(c, n->kids[0]);
    case KJ_E_TUPLE: {
        const kj_type *e[n->nkids > 0 ? n->nkids : 1];
        for (int i = 0; i < n->nkids; i++)
            if (!(e[i] = infer_expr(c, n->kids[i])))
                return NULL;
        for (int i = 0; i < n->nkids; i++)
            if (e[i]->kind >= KJ_T_RANGE && e[i]->kind != KJ_T_FUNC && e[i]->kind != KJ_T_STR)
                return problem(c, n->kids[i], NULL, "%s cannot be put in a tuple", e[i]->name);
        return kj_tuple(n->nkids, e);
    }
    default:
        return problem(c, n, NULL, "internal: not an expression");
    }
}

/* The first kid of n evaluated whenever n is whose type is never (a call of
 * a function that always raises), up to kid `upto`; -1 if none. */
static int never_kid(const kj_node *n, int upto) {
    for (int k = 0; k < upto && k < n->nkids; k++)
        if (n->kids[k] && kj_kid_always_evaluated(n, k) && n->kids[k]->type == kj_never())
            return k;
    return -1;
}

/* n found to diverge in an earlier round: its kids up to the one that never
 * comes back are typed again (types only grow, and a variable that held a
 * never call may since have been given a number). Whether it still does. */
static bool still_diverges(ti *c, kj_node *n) {
    for (int k = 0; k < n->diverges; k++) {
        kj_node *kid = n->kids[k];
        if (kid && kj_kid_always_evaluated(n, k) && kid->kind != KJ_E_FUNC && kid->kind != KJ_E_EXC)
            infer_expr(c, kid);
    }
    int k = never_kid(n, n->diverges);
    n->diverges = k + 1;
    return k >= 0;
}

static const kj_type *infer_expr(ti *c, kj_node *n) {
    if (c->failed)
        return NULL;
    if (n->diverges && still_diverges(c, n))
        return n->type = kj_never();
    const kj_type *t = infer_expr_inner(c, n);
    int k = never_kid(n, n->nkids);
    if (k >= 0 && n->kind != KJ_E_CONST) {   /* checked before the strict pass can refuse n */
        n->diverges = k + 1;
        c->changed = true;
        t = kj_never();
    }
    if (n->kind != KJ_E_CONST)
        n->type = t;
    /* lowering must never meet an untyped node: a type too nested to name
     * (types.h) is the one way to get here without a reason */
    if (!t && c->strict && c->u->err.kind == KJ_ERR_NONE)
        problem(c, n, "Split the value into smaller tuples.", "this value's type is too large for Kiln");
    return t;
}

/* Assigns a value of type t to target (a local, an element, a tuple). */
static int assign_to(ti *c, kj_node *target, const kj_type *t, kj_node *at) {
    if (!t)
        return 0;
    if (t == kj_never() && target->kind == KJ_E_TUPLE) {   /* a, b = f(): each name as never */
        for (int i = 0; i < target->nkids; i++)
            if (assign_to(c, target->kids[i], t, at) < 0)
                return -1;
        return 0;
    }
    if (t == kj_never() && target->kind != KJ_E_LOCAL)   /* nothing is ever stored */
        return 0;
    if (target->kind == KJ_E_INDEX && never_kid(target, target->nkids) >= 0)   /* d[f()] = v: raises before it stores */
        return 0;
    if (target->kind == KJ_E_LOCAL) {
        target->type = NULL;
        if (assign_local(c, target->slot, t, at) < 0)
            return -1;
        target->type = c->f->locals[target->slot].type;
        return 0;
    }
    if (target->kind == KJ_E_TUPLE) {
        if (t->kind != KJ_T_TUPLE || t->n != target->nkids) {
            if (t->kind == KJ_T_ARRAY && t->ndim == 1) {
                for (int i = 0; i < target->nkids; i++)
                    if (assign_to(c, target->kids[i], t->elem, at) < 0)
                        return -1;
                target->type = t;
                return 0;
            }
            problem(c, at, NULL, "cannot unpack %s into %d names", t->name, target->nkids);
            return 0;
        }
        for (int i = 0; i < target->nkids; i++)
            if (assign_to(c, target->kids[i], t->elems[i], at) < 0)
                return -1;
        target->type = t;
        return 0;
    }
    if (target->kind == KJ_E_INDEX) {
        const kj_type *arr = optional_array_value(c, target->kids[0]);
        if (!arr)
            return 0;
        if (arr->kind == KJ_T_LIST) {   /* lst[i] = x */
            if (target->nkids == 2 && target->kids[1]->kind == KJ_E_SLICE) {
                problem(c, target, "Build the new list: lst = lst[:a] + items + lst[b:], or assign item by item.",
                        "assigning to a slice of a list is not supported in compiled code");
                return 0;
            }
            const kj_type *et = infer_expr(c, target);
            bool item = kj_is_number(t) || t->kind == KJ_T_TUPLE || (t->kind == KJ_T_ARRAY && et && et->kind == KJ_T_ARRAY) ||
                        (t->kind == KJ_T_LIST && et && t == et);
            if (et && (!item || !kj_can_convert(t, et)))
                problem(c, at, NULL, "cannot store %s into a list of %s", t->name, et->name);
            return 0;
        }
        if (kj_kind_ops_of(arr->kind)->store_type)   /* d[k] = v: types a `{}` variable */
            return kj_kind_ops_of(arr->kind)->store_type(c, target, t, at) < 0 ? -1 : 0;
        if (arr->kind != KJ_T_ARRAY) {
            problem(c, target, "Tuples cannot be changed; build a new one.",
                    "%s does not support item assignment", arr->name);
            return 0;
        }
        if (arr->readonly) {
            if (c->u->err.kind == KJ_ERR_NONE) {
                kj_fail(&c->u->err, KJ_ERR_TYPING, target->line, target->col,
                        "Pass a writeable array (np.array(a) makes a copy) or set a.flags.writeable = True.",
                        "cannot write to a read-only array (%s)", arr->name);
                c->u->err_function = c->f;
            }
            c->failed = true;
            return -1;
        }
        const kj_type *et = infer_expr(c, target);
        if (!et)
            return 0;
        kj_node *base = target->kids[0];
        if (base->kind == KJ_E_METHOD && base->ival && base->kids[0]->type && base->kids[0]->type->kind == KJ_T_ARRAY &&
            base->kids[0]->type->layout != KJ_LAYOUT_C) {   /* a.flat[i] = v: frontend.c */
            problem(c, target, "Write through the array's own indices (a[i, j] = v), or make it C-contiguous first.",
                    "a.flat[...] = v is supported in compiled code for a C-contiguous array, not %s",
                    base->kids[0]->type->name);
            return 0;
        }
        if (kj_index_gather_axis(target) >= 0 && t->kind == KJ_T_ARRAY && t->ndim > et->ndim) {
            problem(c, at, "Give the value at most the dimensions of what it is assigned to.",
                    "cannot assign %s to %s", t->name, et->name);
            return 0;
        }
        if (et->kind == KJ_T_ARRAY && t->kind == KJ_T_TUPLE && at->kind == KJ_S_ASSIGN && at->kids[0] == target) {
            /* a[1:3] = (7.0, 8.0): the tuple as NumPy takes it, an array (np_create.c) */
            kj_node *call = kj_new_node(c->f, KJ_E_CALL, at->kids[1]->line, at->kids[1]->col, 2);
            kj_node *fn = call ? kj_new_node(c->f, KJ_E_FUNC, call->line, call->col, 0) : NULL;
            if (!fn || !(fn->name = kj_strdup(c->f, "np.asarray"))) {
                c->failed = true;
                return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
            }
            call->kids[0] = fn;
            call->kids[1] = at->kids[1];
            at->kids[1] = call;
            const kj_type *as_array = infer_expr(c, call);
            return as_array ? assign_to(c, target, as_array, at) : 0;
        }
        if (et->kind == KJ_T_ARRAY) {
            if (!kj_is_number(t) && t->kind != KJ_T_ARRAY)
                problem(c, at, "Copy element by element in a loop.",
                        "assigning %s to the view %s is not supported yet", t->name, et->name);
            return 0;
        }
        if (!kj_is_number(t) || (t->kind == KJ_T_COMPLEX && et->kind != KJ_T_COMPLEX))
            problem(c, at, NULL, "cannot store %s into an array of %s", t->name, et->name);
        return 0;
    }
    problem(c, target, NULL, "cannot assign to this");
    return 0;
}

static bool terminates(const kj_block *b);

static bool stmt_terminates(const kj_node *s) {
    if (s->kind == KJ_S_RETURN || s->kind == KJ_S_RAISE)
        return true;
    if (s->kind == KJ_S_IF)
        return terminates(&s->body) && terminates(&s->orelse);
    if (s->kind == KJ_S_TRY) {   /* a handler runs, or the exception goes on */
        for (int i = 0; i < s->nkids; i++)
            if (s->kids[i]->kind == KJ_S_EXCEPT && !terminates(&s->kids[i]->body))
                return false;
        return terminates(&s->body) || terminates(&s->orelse);
    }
    return false;
}

static bool terminates(const kj_block *b) {
    for (int i = 0; i < b->n; i++)
        if (stmt_terminates(b->items[i]))
            return true;
    return false;
}

bool kj_block_terminates(const kj_block *b) { return terminates(b); }

static int infer_block(ti *c, kj_block *b);

static int infer_stmt(ti *c, kj_node *s) {
    switch (s->kind) {
    case KJ_S_ASSIGN:   /* into an element or a view: an Optional array is its array */
        return assign_to(c, s->kids[0],
                         s->kids[0]->kind == KJ_E_INDEX ? optional_array_value(c, s->kids[1]) : infer_expr(c, s->kids[1]), s);
    case KJ_S_AUGASSIGN: {
        const kj_type *cur = infer_expr(c, s->kids[0]), *v = optional_array_value(c, s->kids[1]);
        if (!cur || !v || cur == kj_never() || v == kj_never())   /* x -= 5 of an x that holds a never call: not reached */
            return 0;
        if (cur->kind == KJ_T_STR && v->kind == KJ_T_STR && s->op == KJ_OP_ADD && s->kids[0]->kind == KJ_E_LOCAL) {
            kj_node *joined = kj_new_node(c->f, KJ_E_FSTRING, s->line, s->col, 2);   /* s = f"{s}{t}" */
            if (!joined) {
                c->failed = true;
                return kj_fail(&c->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
            }
            joined->kids[0] = s->kids[0];   /* the target, read as a value */
            joined->kids[1] = s->kids[1];
            s->kind = KJ_S_ASSIGN;
            s->kids[1] = joined;
            return infer_stmt(c, s);
        }
        const kj_type *r = binop_type(c, s, s->op, cur, v);
        if (r)
            s->type = r;
        const kj_type *arr = kj_value_of(cur);   /* an Optional array is changed in place too */
        if (r && r->kind == KJ_T_ARRAY && arr->kind == KJ_T_ARRAY && r->ndim == arr->ndim && r->elem != arr->elem) {
            /* in place, as NumPy: computed in r's dtype (s->type), stored cast to the array's, where
             * same_kind casting allows */
            if (!kj_np_same_kind(r->elem, arr->elem))
                return problem(c, s, "Make a new array instead (a = a * b), or cast the other operand first.",
                               "NumPy cannot cast this in-place result from %s to %s (same_kind casting)",
                               r->elem->name, arr->elem->name), 0;
            r = cur;
        }
        return assign_to(c, s->kids[0], r, s);
    }
    case KJ_S_EXPR:
        infer_expr(c, s->kids[0]);
        return 0;
    case KJ_S_IF:
    case KJ_S_WHILE: {
        const kj_type *t = infer_expr(c, s->kids[0]);
        if (t && !truthy_ok(t))
            problem(c, s->kids[0], "Compare explicitly, e.g. len(a) > 0.",
                    "the truth of %s is ambiguous", t->name);
        if (infer_block(c, &s->body) < 0 || infer_block(c, &s->orelse) < 0)
            return -1;
        return 0;
    }
    case KJ_S_FOR: {
        const kj_type *it = kj_infer_value(c, s->kids[1]);
        /* an empty *args, or a list, set or dict nothing was ever put in ([], or a comprehension
         * whose item never comes back): the body never runs */
        if (it && ((it->kind == KJ_T_TUPLE && it->n == 0) || kj_holds_nothing(it)))
            return infer_block(c, &s->orelse);
        if (it == kj_never()) {   /* the loop never starts; its names are typed as never */
            if (assign_to(c, s->kids[0], it, s) < 0)
                return -1;
        } else if (it) {
            const kj_type *e = kj_iter_elem(it);
            if (!e && it->kind == KJ_T_TUPLE)
                problem(c, s->kids[1], "Use each item by its index instead: t[0], t[1], ...",
                        "cannot loop over %s: its items have different types", it->name);
            else if (!e)
                problem(c, s->kids[1], "Loop over range(), an array, a tuple, enumerate(), zip(), np.ndindex() or np.ndenumerate().",
                        "cannot loop over %s", it->name);
            else if (assign_to(c, s->kids[0], e, s) < 0)
                return -1;
        }
        if (infer_block(c, &s->body) < 0 || infer_block(c, &s->orelse) < 0)
            return -1;
        return 0;
    }
    case KJ_S_RETURN: {
        const kj_type *t = s->kids[0] ? infer_expr(c, s->kids[0]) : kj_none();
        if (t && t->kind >= KJ_T_RANGE && t->kind != KJ_T_FUNC && t->kind != KJ_T_STR)   /* a function returns as itself, a string as a str */
            problem(c, s, NULL, "%s cannot be returned", t->name);
        return assign_ret(c, t, s);
    }
    case KJ_S_TRY:   /* the handlers' classes (EXC) need no type */
        if (infer_block(c, &s->body) < 0 || infer_block(c, &s->orelse) < 0)
            return -1;
        for (int i = 0; i < s->nkids; i++)
            if (infer_block(c, &s->kids[i]->body) < 0)
                return -1;
        return 0;
    case KJ_S_RAISE:
        if (s->nkids > 1)   /* raise E(f"...") */
            infer_expr(c, s->kids[1]);
        return 0;
    case KJ_S_BREAK:
    case KJ_S_CONTINUE:
    case KJ_S_PASS:
        return 0;
    default:
        problem(c, s, NULL, "internal: not a statement");
        return 0;
    }
}

static int infer_block(ti *c, kj_block *b) {
    for (int i = 0; i < b->n && !c->failed; i++)
        if (infer_stmt(c, b->items[i]) < 0)
            return -1;
    return c->failed ? -1 : 0;
}

int kj_infer(kj_unit *u, kj_instance *inst) {
    kj_function *f = inst->f;
    ti c = {.u = u, .inst = inst, .f = f};
    inst->typing = true;
    for (int i = 0; i < f->nargs; i++) {
        f->locals[i].type = inst->args[i];
        f->locals[i].line = f->first_line;
    }
    if (kj_decide_by_argument_types(f, inst->args) < 0) {
        inst->typing = false;
        return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "memory");
    }
    bool falls_off = !terminates(&f->body);
    for (int round = 0; round < 50; round++) {
        c.changed = false;
        if (infer_block(&c, &f->body) < 0)
            break;
        if (falls_off && assign_ret(&c, kj_none(), &(kj_node){.line = f->first_line}) < 0)
            break;
        if (!c.changed)
            break;
    }
    if (!c.failed) {
        c.strict = true;
        infer_block(&c, &f->body);
    }
    inst->typing = false;
    if (c.failed && u->err.kind == KJ_ERR_NONE)
        kj_fail(&u->err, KJ_ERR_INTERNAL, f->first_line, 0, NULL, "internal: type inference stopped without a reason");
    if (u->err.kind != KJ_ERR_NONE) {
        if (!u->err_function)
            u->err_function = f;
        return -1;
    }
    if (!inst->ret)   /* no return gave a type, and the body does not fall off its end */
        inst->ret = kj_never();
    inst->typed = true;
    return 0;
}

/* ---- for infer_np.c ---- */

kj_node *kj_infer_new_node(ti *c, kj_node_kind kind, int line, int col, int nkids) {
    return kj_new_node(c->f, kind, line, col, nkids);
}

const kj_type *kj_infer_sub(kj_infer_ctx *c, kj_node *n) { return infer_expr(c, n); }

const kj_type *kj_infer_value(kj_infer_ctx *c, kj_node *n) {
    const kj_type *t = infer_expr(c, n);
    if (!t || t->kind != KJ_T_OPTIONAL || n->kind == KJ_E_UNWRAP)
        return t;
    /* n's parent points at n: n takes the unwrap's place, a copy of it
     * becomes the unwrap's operand */
    kj_node *inner = kj_new_node(c->f, n->kind, n->line, n->col, 0);
    if (!inner)
        return problem(c, n, NULL, "out of memory");
    *inner = *n;
    kj_node **kids = kj_alloc(c->f, sizeof *kids);
    if (!kids)
        return problem(c, n, NULL, "out of memory");
    kids[0] = inner;
    *n = (kj_node){.kind = KJ_E_UNWRAP, .line = n->line, .col = n->col, .nkids = 1, .kids = kids};
    return n->type = t->elem;
}

const kj_type *kj_infer_problem(kj_infer_ctx *c, kj_node *n, const char *hint, const char *what) {
    return problem(c, n, hint, "%s", what);
}

int kj_infer_assign_local(kj_infer_ctx *c, int slot, const kj_type *t, kj_node *at) {
    return assign_local(c, slot, t, at);
}

int kj_infer_assign_target(kj_infer_ctx *c, kj_node *target, const kj_type *t, kj_node *at) {
    return assign_to(c, target, t, at);
}
