/* np_funcs: the argument and name tables shared by inference (infer_np.c)
 * and lowering (lower_np*.c) of NumPy calls. */
#include "jit/numpy/np_funcs.h"

#include <stdio.h>
#include <string.h>

void kj_np_split(kj_node *n, int first, kj_np_args *a) {
    memset(a, 0, sizeof *a);
    for (int i = first; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind == KJ_E_KEYWORD) {
            if (a->nkw < KJ_NP_MAX_ARGS)
                a->kw[a->nkw++] = k;
            else
                a->too_many = true;
        } else if (a->npos < KJ_NP_MAX_ARGS) {
            a->pos[a->npos++] = k;
        } else {
            a->too_many = true;
        }
    }
}

kj_node *kj_np_arg(const kj_np_args *a, int pos, const char *name) {
    if (pos >= 0 && pos < a->npos)
        return a->pos[pos];
    for (int i = 0; name && i < a->nkw; i++)
        if (strcmp(a->kw[i]->name, name) == 0)
            return a->kw[i]->kids[0];
    return NULL;
}

/* dtype='float32', 'f8', 'int': NumPy's names and codes for Kiln's types. */
static const kj_type *dtype_string(const char *s) {
    static const struct { const char *name; char kind; int bits; } names[] = {
        {"float64", 'f', 64}, {"f8", 'f', 64}, {"float", 'f', 64}, {"double", 'f', 64}, {"d", 'f', 64},
        {"float32", 'f', 32}, {"f4", 'f', 32}, {"single", 'f', 32}, {"f", 'f', 32},
        {"int64", 'i', 64}, {"i8", 'i', 64}, {"int", 'i', 64}, {"int32", 'i', 32}, {"i4", 'i', 32},
        {"int16", 'i', 16}, {"i2", 'i', 16}, {"int8", 'i', 8}, {"i1", 'i', 8},
        {"uint64", 'u', 64}, {"u8", 'u', 64}, {"uint32", 'u', 32}, {"u4", 'u', 32},
        {"uint16", 'u', 16}, {"u2", 'u', 16}, {"uint8", 'u', 8}, {"u1", 'u', 8},
        {"bool", 'b', 8}, {"?", 'b', 8}, {"complex128", 'c', 128}, {"c16", 'c', 128}, {"complex", 'c', 128},
        {"complex64", 'c', 64}, {"c8", 'c', 64},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].name, s))
            switch (names[i].kind) {
            case 'f': return kj_float(names[i].bits);
            case 'i': return kj_int(names[i].bits, true);
            case 'u': return kj_int(names[i].bits, false);
            case 'b': return kj_bool();
            default: return kj_complex(names[i].bits);
            }
    return NULL;
}

const kj_type *kj_np_dtype_node(const kj_node *k) {
    if (k && k->kind == KJ_E_CONST && k->type && k->type->kind == KJ_T_STR)
        return dtype_string(k->str);
    if (kj_np_is_dtype_attr(k)) {   /* a.dtype, once a is typed */
        const kj_type *t = k->kids[0]->type;
        return t && t->kind == KJ_T_ARRAY ? t->elem : NULL;
    }
    if (!k || k->kind != KJ_E_FUNC)
        return NULL;
    const char *s = k->name;
    if (!strcmp(s, "float"))
        return KJ_F64;
    if (!strcmp(s, "int"))
        return KJ_I64;
    if (!strcmp(s, "bool"))
        return kj_bool();
    if (!strcmp(s, "complex"))
        return kj_complex(128);
    if (strncmp(s, "cast:", 5) != 0)
        return NULL;
    return kj_number_type_named(s + 5);
}

bool kj_np_is_dtype_attr(const kj_node *k) {
    return k && k->kind == KJ_E_ATTR && !strcmp(k->name, "dtype");
}

const char *kj_np_op_ufunc(kj_op op, bool unary) {
    if (unary)
        switch (op) {
        case KJ_OP_NEG: return "negative";
        case KJ_OP_POS: return "positive";
        case KJ_OP_INVERT: return "invert";
        default: return NULL;
        }
    switch (op) {
    case KJ_OP_ADD: return "add";
    case KJ_OP_SUB: return "subtract";
    case KJ_OP_MUL: return "multiply";
    case KJ_OP_DIV: return "true_divide";
    case KJ_OP_FLOORDIV: return "floor_divide";
    case KJ_OP_MOD: return "remainder";
    case KJ_OP_POW: return "power";
    case KJ_OP_LSHIFT: return "left_shift";
    case KJ_OP_RSHIFT: return "right_shift";
    case KJ_OP_BITAND: return "bitwise_and";
    case KJ_OP_BITOR: return "bitwise_or";
    case KJ_OP_BITXOR: return "bitwise_xor";
    case KJ_OP_EQ: return "equal";
    case KJ_OP_NE: return "not_equal";
    case KJ_OP_LT: return "less";
    case KJ_OP_LE: return "less_equal";
    case KJ_OP_GT: return "greater";
    case KJ_OP_GE: return "greater_equal";
    default: return NULL;
    }
}

bool kj_np_is_ewise(const kj_node *n) {
    if (!n->type || n->type->kind != KJ_T_ARRAY)
        return false;
    switch (n->kind) {
    case KJ_E_BINOP: return kj_np_op_ufunc(n->op, false) != NULL;
    case KJ_E_UNARY: return kj_np_op_ufunc(n->op, true) != NULL;
    case KJ_E_COMPARE: return n->nkids == 2;
    case KJ_E_CALL: {
        if (n->kids[0]->kind != KJ_E_FUNC || strncmp(n->kids[0]->name, "np.", 3) != 0 ||
            !kj_np_ufunc(n->kids[0]->name + 3))
            return false;
        for (int i = 1; i < n->nkids; i++)
            if (n->kids[i]->kind == KJ_E_KEYWORD)
                return false;   /* out=: evaluated into its target, not fused as a value */
        return true;
    }
    default: return false;
    }
}

/* np.moveaxis(a, source, destination), both constant ints, positional or
 * keywords: the order of a's axes once source is moved to destination. */
static int moved_axes(const kj_np_args *a, int first, int ndim, int *perm, char *why, size_t size) {
    const kj_node *given[2] = {kj_np_arg(a, first, "source"), kj_np_arg(a, first + 1, "destination")};
    static const char *const names[2] = {"source", "destination"};
    int64_t ax[2];
    for (int i = 0; i < 2; i++) {
        if (a->npos - first + a->nkw != 2 || !given[i] || !kj_const_int(given[i], 0, &ax[i])) {
            snprintf(why, size, "np.moveaxis takes one source and one destination axis, constant ints, here");
            return -1;
        }
        if (ax[i] < -ndim || ax[i] >= ndim) {   /* NumPy's AxisError message */
            snprintf(why, size, "%s: axis %lld is out of bounds for array of dimension %d", names[i], (long long)ax[i], ndim);
            return -1;
        }
        ax[i] = ax[i] < 0 ? ax[i] + ndim : ax[i];
    }
    for (int j = 0, k = 0; j < ndim; j++) {
        if (j == ax[1]) {
            perm[j] = (int)ax[0];
            continue;
        }
        k += k == ax[0];
        perm[j] = k++;
    }
    return 0;
}

int kj_np_axes_perm(const char *m, const kj_np_args *a, int first, int ndim, int *perm, char *why, size_t size) {
    if (!strcmp(m, "moveaxis!"))
        return moved_axes(a, first, ndim, perm, why, size);
    int n = a->npos - first;
    const kj_node *const *given = (const kj_node *const *)a->pos + first;
    if (a->nkw > 0 || (n == 1 && given[0]->kind == KJ_E_TUPLE)) {   /* a.transpose((1, 0)), axes=(1, 0) */
        const kj_node *t = a->nkw > 0 ? (a->nkw == 1 && !strcmp(a->kw[0]->name, "axes") && n == 0 ? a->kw[0]->kids[0] : NULL)
                                      : given[0];
        if (!t || t->kind != KJ_E_TUPLE) {
            snprintf(why, size, "%s takes the axes as constant ints here", m);
            return -1;
        }
        n = t->nkids;
        given = (const kj_node *const *)t->kids;
    }
    bool swap = !strcmp(m, "swapaxes");
    if (swap ? n != 2 : (n != 0 && n != ndim)) {
        snprintf(why, size, swap ? "swapaxes takes two axes" : "axes don't match array");
        return -1;
    }
    int64_t ax[64];
    for (int i = 0; i < n && i < 64; i++) {
        if (!given[i] || !kj_const_int(given[i], 0, &ax[i])) {
            snprintf(why, size, "%s takes the axes as constant ints here", m);
            return -1;
        }
        if (ax[i] < -ndim || ax[i] >= ndim) {
            snprintf(why, size, "axis %lld is out of bounds for array of dimension %d", (long long)ax[i], ndim);
            return -1;
        }
        ax[i] = ax[i] < 0 ? ax[i] + ndim : ax[i];
    }
    for (int k = 0; k < ndim; k++)
        perm[k] = swap || n == 0 ? (swap ? k : ndim - 1 - k) : (int)ax[k];
    if (swap) {
        perm[ax[0]] = (int)ax[1];
        perm[ax[1]] = (int)ax[0];
    }
    for (int k = 0; k < ndim; k++)
        for (int j = 0; j < k; j++)
            if (perm[j] == perm[k]) {
                snprintf(why, size, "repeated axis in transpose");
                return -1;
            }
    return 0;
}
