/* np_rewrite: NumPy calls that the front end writes as other code Kiln
 * compiles, the way NumPy itself defines them, so that they fuse and
 * vectorize with the rest of an expression (np.count_nonzero(a) becomes
 * np.sum(a != 0)). Such a call's registry entry (callables.h) names its
 * rewrite; the file that declares the entry writes the replacement with the
 * node builders below. a.m(...) is looked up as "ndarray.m", np.m(...) as
 * "np.m". */
#ifndef KILN_JIT_NP_REWRITE_H
#define KILN_JIT_NP_REWRITE_H

#include <stdbool.h>

#include "jit/core/callables.h"
#include "jit/core/errors.h"
#include "jit/core/ir.h"

/* One call being rewritten: new nodes go in f's arena at the call's place. */
typedef struct kj_rewrite {
    kj_function *f;
    kj_error *e;
    int line, col;
    bool method;    /* the call is a.m(...): its kids[0] is a */
    bool refused;   /* kj_rw_refuse reported why the call cannot be compiled */
    bool failed;    /* out of memory */
} kj_rewrite;

/* Declares the entry of name ("np.trapz", "ndarray.round") whose calls
 * become what fn returns. */
#define KJ_REWRITE(id, name_, fn) KJ_CALLABLE(id, .name = name_, .targets = KJ_ON_ANY, .rewrite = fn)

/* Replaces call n by what its entry's rewrite returns (in place); leaves
 * it as it is where there is none. Returns -1 with e set when the call
 * cannot be compiled. */
int kj_np_rewrite_call(kj_function *f, kj_error *e, kj_node *n);

/* Reports (an error of the user's call, at its place) why its arguments
 * cannot be compiled, and what to do (hint, or NULL); fmt has one %s, for
 * name. Returns NULL, for a rewrite to return. */
kj_node *kj_rw_refuse(kj_rewrite *r, const char *hint, const char *fmt, const char *name);

/* The call's arguments by parameter (params: NumPy's names, in order,
 * NULL-terminated): positional ones first, then keywords at their
 * parameter's place. A keyword no parameter has, a parameter given twice
 * or too many positional ones are recorded, for the rewrite to refuse. */
typedef struct {
    kj_node *arg[6];
    const char *unknown;   /* a keyword no parameter has, or NULL */
    bool too_many;
} kj_rw_args;
void kj_rw_bind(const kj_node *n, const char *const *params, kj_rw_args *a);
/* kj_rw_bind, and false after refusing the call (hint, and fmt with one %s
 * for name) where one of the first `required` parameters is missing, a
 * keyword is one no parameter has, or there are too many. */
bool kj_rw_args_of(kj_rewrite *r, const kj_node *n, const char *const *params, int required, kj_rw_args *a,
                   const char *hint, const char *fmt, const char *name);

/* Whether k may be read twice in a rewrite (np.nanmean(x) as
 * np.mean(x[~np.isnan(x)])): a name or a constant, or an expression of them
 * with no effect and the same value each time it is computed (operators,
 * indexing, NumPy's and math's functions; not a kiln function's call, which
 * may have effects, nor NumPy's random numbers or np.empty). Read twice, an
 * expression is computed twice. */
bool kj_rw_plain(const kj_node *k);

/* Node builders. Each gives a new node, or NULL with r->failed set; a NULL
 * operand only makes a node that is never used, as r->failed then stands. */
kj_node *kj_rw_node(kj_rewrite *r, kj_node_kind kind, int nkids);
kj_node *kj_rw_call(kj_rewrite *r, const char *name, int nargs, kj_node *a0, kj_node *a1, kj_node *a2);
/* A node with a name and one kid: obj.name() (KJ_E_METHOD), name=v (KJ_E_KEYWORD), obj.name (KJ_E_ATTR). */
kj_node *kj_rw_named(kj_rewrite *r, kj_node_kind kind, const char *name, kj_node *kid);
/* Appends name=value to call c's arguments. */
void kj_rw_keyword(kj_rewrite *r, kj_node *c, const char *name, kj_node *value);
/* a op b: an arithmetic (KJ_E_BINOP) or short-circuit (KJ_E_BOOLOP) node. */
kj_node *kj_rw_op(kj_rewrite *r, kj_node_kind kind, kj_op op, kj_node *a, kj_node *b);
kj_node *kj_rw_binop(kj_rewrite *r, kj_op op, kj_node *a, kj_node *b);
kj_node *kj_rw_compare(kj_rewrite *r, kj_op op, kj_node *a, kj_node *b);
kj_node *kj_rw_invert(kj_rewrite *r, kj_node *x);   /* ~x */
kj_node *kj_rw_int(kj_rewrite *r, int64_t v);
kj_node *kj_rw_float(kj_rewrite *r, double v);
kj_node *kj_rw_none(kj_rewrite *r);
/* lo:hi:step with int bounds, 0 standing for one left out. */
kj_node *kj_rw_slice(kj_rewrite *r, int64_t lo, int64_t hi, int64_t step);
/* x[i], one index. */
kj_node *kj_rw_index(kj_rewrite *r, kj_node *x, kj_node *i);
/* a with index one on axis `axis` (from the end when negative) and every
 * other axis whole. */
kj_node *kj_rw_slice_axis(kj_rewrite *r, kj_node *a, int64_t axis, kj_node *one);
/* x[:, None] (column) or x[None, :] (row). */
kj_node *kj_rw_column_or_row(kj_rewrite *r, kj_node *x, bool column);
kj_node *kj_rw_ravel(kj_rewrite *r, kj_node *x);    /* x.ravel() */
kj_node *kj_rw_swap01(kj_rewrite *r, kj_node *x);   /* x.swapaxes(0, 1) */
kj_node *kj_rw_tuple2(kj_rewrite *r, kj_node *a, kj_node *b);

#endif
