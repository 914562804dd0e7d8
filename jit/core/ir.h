/* ir: Kiln IR, a typed tree close to Python's statements and expressions.
 *
 * The front end (frontend.c) builds it from CPython's ast objects, resolving
 * every name to a local slot, a constant or a known function; inference
 * (infer.c) fills each node's type; lowering (lower*.c) turns it into LLVM IR
 * for a target. Nodes live in the function's arena and die with it. Nothing
 * here knows the target. */
#ifndef KILN_JIT_IR_H
#define KILN_JIT_IR_H

#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include "jit/core/types.h"

/* KJ_E_BINOP's ival when its + joins the parts of a tuple display with *x
 * in it (frontend.c): inference names the * in its errors. */
#define KJ_STARRED_JOIN 1

typedef enum {
    /* expressions */
    KJ_E_CONST,      /* a number, bool or None: type + ival/fval/fval2 */
    KJ_E_LOCAL,      /* local variable `slot` */
    KJ_E_FUNC,       /* a known function (builtin, math.*, a dispatcher): fn */
    KJ_E_EXC,        /* an exception class (pyobj), only in `raise` */
    KJ_E_BINOP,      /* op, kids[0], kids[1]; ival KJ_STARRED_JOIN for a + that joins (*a, *b) */
    KJ_E_UNARY,      /* op, kids[0] */
    KJ_E_COMPARE,    /* chain: kids[0] ops[0] kids[1] ops[1] kids[2] ... */
    KJ_E_BOOLOP,     /* op KJ_OP_AND / KJ_OP_OR over kids */
    KJ_E_IFEXP,      /* kids: test, body, orelse */
    KJ_E_CALL,       /* kids[0]: callee, kids[1..]: arguments */
    KJ_E_METHOD,     /* name(kids[0]=object, kids[1..]=arguments) */
    KJ_E_ATTR,       /* kids[0].name */
    KJ_E_INDEX,      /* kids[0][kids[1..]]: one kid per index position */
    KJ_E_SLICE,      /* kids: start, stop, step (NULL where omitted) */
    KJ_E_TUPLE,      /* kids */
    KJ_E_KEYWORD,    /* name=kids[0]: only among the arguments of a call or method */
    KJ_E_LIST,       /* [kids...] (containers/lists.h) */
    KJ_E_LISTCOMP,   /* [kids[0] for kids[1] in kids[2] if kids[3] if ...] (containers/lists.h) */
    KJ_E_DICT,       /* {kids[0]: kids[1], kids[2]: kids[3], ...} (dicts.h) */
    KJ_E_DICTCOMP,   /* {k: v for ...}: as KJ_E_LISTCOMP, kids[0] the display (k, v) (dicts.h) */
    KJ_E_SET,        /* {kids[0], kids[1], ...} (sets.h) */
    KJ_E_FSTRING,    /* f"...": kids are str constants and KJ_E_FORMAT parts (strings.c) */
    KJ_E_FORMAT,     /* {kids[0]!ival:str} inside an f-string: ival the conversion or 0, str the spec or NULL */
    KJ_E_STARRED,    /* *kids[0] (a local or a tuple display) among a call's arguments; inference
                        spreads it into the tuple's elements, so lowering never meets one */
    KJ_E_UNWRAP,     /* kids[0], an Optional used where its value is taken (a NumPy function's
                        argument): inference puts it there (kj_infer_value), lowering raises
                        Numba's TypeError when the value is None */
    KJ_E_ELLIPSIS,   /* ... in an array index: inference turns it into the slices it stands for
                        (full ones, or reversed ones with ival -1: np.flip), so lowering never meets one */
    /* statements */
    KJ_S_ASSIGN,     /* kids[0]: target (LOCAL, INDEX or TUPLE of those), kids[1]: value */
    KJ_S_AUGASSIGN,  /* op, kids[0]: target, kids[1]: value */
    KJ_S_EXPR,       /* kids[0] */
    KJ_S_IF,         /* kids[0]: test, body, orelse */
    KJ_S_WHILE,      /* kids[0]: test, body, orelse */
    KJ_S_FOR,        /* kids[0]: target, kids[1]: iterable, body, orelse */
    KJ_S_BREAK,
    KJ_S_CONTINUE,
    KJ_S_RETURN,     /* kids[0] or NULL */
    KJ_S_RAISE,      /* kids[0]: exception class (EXC), str: message or NULL */
    KJ_S_PASS,
    KJ_S_TRY,        /* body, orelse; kids: the KJ_S_EXCEPT handlers in order, then a KJ_S_FINALLY */
    KJ_S_EXCEPT,     /* kids: the exception classes (EXC) it catches, none for any; body */
    KJ_S_FINALLY,    /* body: what runs however the try statement ends */
} kj_node_kind;

typedef enum {
    KJ_OP_ADD, KJ_OP_SUB, KJ_OP_MUL, KJ_OP_DIV, KJ_OP_FLOORDIV, KJ_OP_MOD, KJ_OP_POW,
    KJ_OP_LSHIFT, KJ_OP_RSHIFT, KJ_OP_BITAND, KJ_OP_BITOR, KJ_OP_BITXOR,
    KJ_OP_NEG, KJ_OP_POS, KJ_OP_NOT, KJ_OP_INVERT,
    KJ_OP_EQ, KJ_OP_NE, KJ_OP_LT, KJ_OP_LE, KJ_OP_GT, KJ_OP_GE, KJ_OP_IS, KJ_OP_ISNOT,
    KJ_OP_AND, KJ_OP_OR,
    KJ_OP_IN, KJ_OP_NOTIN,       /* x in lst (containers/lists.h) */
} kj_op;

typedef struct kj_node kj_node;

typedef struct {
    kj_node **items;
    int n, cap;
} kj_block;

struct kj_node {
    kj_node_kind kind;
    int line, col;               /* file line (1-based), column (0-based) */
    kj_op op;
    int slot;                    /* KJ_E_LOCAL */
    const char *name;            /* KJ_E_FUNC ("math.sqrt"), ATTR, METHOD */
    const char *str;             /* KJ_S_RAISE message */
    PyObject *pyobj;             /* borrowed, kept alive by the function: dispatcher, exception */
    int64_t ival;                /* KJ_E_CONST ints and bools */
    double fval, fval2;          /* KJ_E_CONST floats and complex */
    kj_node **kids;
    int nkids;
    kj_op *ops;                  /* KJ_E_COMPARE: nkids - 1 operators */
    int *arg_order;              /* KJ_E_CALL of a kiln function given keywords out of its parameters'
                                  * order: the argument kids' indexes (from 1) in the order the source
                                  * evaluates them, -1 ended, the rest after; NULL: left to right */
    kj_block body, orelse;
    const kj_type *type;         /* set by inference */
    void *aux;                   /* inference's note for lowering (a callee) */
    bool may_be_unbound;         /* KJ_E_LOCAL: a read some path reaches before an assignment (unbound.c) */
    int diverges;                /* 1 + the index of a kid that never comes back (types.h's kj_never),
                                  * evaluated whenever n is: n is never too, and lowering evaluates
                                  * its kids up to that one; 0 otherwise */
};

typedef struct {
    const char *name;
    const kj_type *type;         /* unification of everything assigned */
    int line;                    /* where it got its first type */
    bool is_arg;
    bool may_be_unbound;         /* some read of it may find it unassigned (unbound.c) */
    bool comprehension_own;      /* a list comprehension's target, a name only inside it */
} kj_local;

/* One function being compiled: its source, its IR, its locals. */
typedef struct kj_function {
    PyObject *py_func;           /* owned */
    char *qualname;
    char *filename;              /* file or cell name */
    int first_line;              /* line of `def` in the file */
    PyObject *source_lines;      /* owned list of str (the whole file or cell) */
    int nargs;
    int vararg;                  /* 1 + the slot of the *args parameter (a tuple), or 0 */
    kj_local *locals;
    int nlocals, cap_locals;
    kj_block body;
    PyObject *keep;              /* owned list: objects the IR points at */
    /* the arena */
    struct kj_chunk *chunks;
} kj_function;

/* An index that is None (np.newaxis): a new axis of length 1 in the view. */
static inline bool kj_is_newaxis(const kj_node *i) {
    return i->kind == KJ_E_CONST && i->type && i->type->kind == KJ_T_NONE;
}
/* The index node of an array's axis `axis` in index node n (kids[1..]),
 * past any newaxis, or NULL when the index leaves that axis whole. */
kj_node *kj_index_of_axis(const kj_node *n, int axis);
/* A constant int (or bool) argument's value in *v, def when k is absent;
 * false when it is not one. */
bool kj_const_int(const kj_node *k, int64_t def, int64_t *v);
/* The positions slice node s (its bounds constant ints, typed) takes from n
 * items, as Python's slice.indices gives them, into out (room for n);
 * their count, or -1 when a bound is not a constant int or the step is 0. */
int kj_const_slice_positions(const kj_node *s, int n, int *out);
/* A constant int or float, or its negation (-np.inf), as a double in *v. */
bool kj_const_number(const kj_node *k, double *v);
/* Whether kid k of n is evaluated whenever n is: not the branches of
 * `x if c else y`, the operands of `and` / `or` after the first, the
 * comparisons of a chain after the first, nor a comprehension's parts but
 * the iterable it starts with. */
bool kj_kid_always_evaluated(const kj_node *n, int k);
/* Index node n (typed) as a[:, idx]: one array among slices. The axis the
 * array takes positions along, or -1 when n is not of that form. */
int kj_index_gather_axis(const kj_node *n);

void *kj_alloc(kj_function *f, size_t size);
kj_node *kj_new_node(kj_function *f, kj_node_kind kind, int line, int col, int nkids);
int kj_block_push(kj_function *f, kj_block *b, kj_node *n);
char *kj_strdup(kj_function *f, const char *s);   /* in the arena */
void kj_function_free(kj_function *f);

#endif
