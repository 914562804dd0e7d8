/* callables: the registry through which the compiler's stages find what a
 * name called in compiled code means. An entry names the callable as
 * compiled code spells it ("np.cross", "cuda.grid"), the targets it
 * compiles for, and its typing and lowering; the file that implements it
 * declares it there with KJ_CALLABLE, so adding a function touches that one
 * file (and its test). jit/ finds entries by name and knows none of the
 * files behind them: gpu/intrinsics.c declares kiln.cuda's this way.
 *
 * Entries are collected by the linker into the section kiln_callables
 * (hence the extension links libkiln whole: CMakeLists.txt). */
#ifndef KILN_JIT_CALLABLES_H
#define KILN_JIT_CALLABLES_H

#include "jit/core/kind_ops.h"
#include "jit/core/unit.h"

typedef struct kj_np_args kj_np_args;   /* numpy/np_funcs.h */
typedef struct kj_rewrite kj_rewrite;   /* frontend/np_rewrite.h */

/* One element of a NumPy ufunc to compute (an entry's elem): from the n
 * operands x of types xt, as they are, a value of result type rt; at is
 * where an error is reported (NULL: nowhere in the user's code). */
typedef struct kj_elem {
    kj_lw *w;
    const struct kj_callable *k;
    kj_node *at;
    int n;
    LLVMValueRef *x;
    const kj_type *const *xt;
    const kj_type *rt;
} kj_elem;

/* Where a callable compiles: host code (the CPU), device code (kiln.cuda
 * kernels and device functions, on a GPU or the simulator), or both. */
enum { KJ_ON_HOST = 1, KJ_ON_DEVICE = 2, KJ_ON_ANY = 3 };

typedef struct kj_callable {
    const char *name;
    unsigned targets;
    /* A NumPy function ("np.<m>") or array method ("ndarray.<m>", whose
     * array is the call's first kid): typed and lowered with its
     * arguments parsed as NumPy's (kj_np_args, by infer_np.c and
     * lower_np.c); m is the name after "np." or "ndarray.". */
    const kj_type *(*np_type)(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a);
    LLVMValueRef (*np_lower)(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a);
    /* Or a call typed and lowered as it stands (infer.c, lower_expr.c). */
    const kj_type *(*type)(kj_infer_ctx *c, kj_node *n);
    LLVMValueRef (*lower)(kj_lw *w, kj_node *n);
    /* Or a builtin, math, cmath or random function (lower/builtins.h):
     * typed from its arguments' types alone (NULL, with a reason in why
     * where it has one, for arguments it does not take) and lowered from
     * their values, at types at; args_lower NULL: only a loop's iterable
     * (range, zip), which the loop lowers. data is the entry's own, for
     * typings and lowerings that several entries share. */
    const kj_type *(*args_type)(const struct kj_callable *k, int n, const kj_type *const *a, char *why,
                                size_t why_size);
    LLVMValueRef (*args_lower)(kj_lw *w, const struct kj_callable *k, kj_node *n, LLVMValueRef *args,
                               const kj_type *const *at);
    const void *data;
    /* Or a NumPy ufunc (numpy/ufuncs.h): nin operands, broadcast against
     * each other, its result typed by NumPy's own promotion (np_dtype.c).
     * elem computes one element (kj_elem) of real operands, elem_complex
     * one where an operand or the result is complex; either gives NULL for
     * types it does not take, or is NULL (kj_np_elem_op reports it).
     * scalar: the builtin entry that computes it on numbers instead, where
     * that gives NumPy's answer (math.sin for np.sin); without one, numbers
     * are one element. cheap: an element costs less to compute than to
     * load and store, so loops of it write around the cache
     * (lower_np_ewise.c). */
    int nin;
    LLVMValueRef (*elem)(const kj_elem *e);
    LLVMValueRef (*elem_complex)(const kj_elem *e);
    const char *scalar;
    bool cheap;
    /* Or a method of a list, set or dict ("list.append"; kind_ops.h's
     * methods names the kind's prefix): typed from the container's type
     * self and the types a of its na positional arguments, which the stage
     * typed (an optional as its value), keyword the one keyword argument it
     * takes, if any (list.sort's reverse); lowered by lower, the container
     * the call's first kid. */
    const kj_type *(*method_type)(kj_infer_ctx *c, kj_node *n, const kj_type *self, int na, const kj_type *const *a);
    const char *keyword;
    /* And, in any role or none, code the front end writes the call as
     * (frontend/np_rewrite.h): the node that replaces call n (m: the name
     * after "np." or "ndarray."), n itself to leave it to the entry's other
     * role (np.where(c) becomes np.nonzero(c), np.where(c, x, y) stays the
     * ufunc), or NULL where it cannot be compiled (kj_rw_refuse said why). */
    kj_node *(*rewrite)(kj_rewrite *r, kj_node *n, const char *m);
} kj_callable;

/* Declares a registry entry (designated initializers of kj_callable); id
 * is any name unique in its file. */
#define KJ_CALLABLE(id, ...)                                                                    \
    static const kj_callable kj_callable_##id = {__VA_ARGS__};                                 \
    static const kj_callable *const kj_callable_entry_##id                                     \
        __attribute__((used, section("kiln_callables"))) = &kj_callable_##id

/* Declares method name_ ("list.append") of a container, on the host. */
#define KJ_METHOD(id, name_, type_fn, lower_fn)                                                  \
    KJ_CALLABLE(id, .name = name_, .targets = KJ_ON_HOST, .method_type = type_fn, .lower = lower_fn)

/* The entry named name ("np.cross"), or NULL. */
const kj_callable *kj_callable_named(const char *name);
/* The entry of NumPy function np.m, or NULL. */
const kj_callable *kj_np_callable(const char *m);
/* The entry of array method a.m ("ndarray.<m>") that types and lowers it,
 * or NULL. */
const kj_callable *kj_np_method(const char *m);
/* The entry of method m of containers of kind prefix ("list"), or NULL. */
const kj_callable *kj_container_method(const char *prefix, const char *m);
/* The entry of the container method call n calls (a KJ_E_METHOD whose
 * container is typed), or NULL. */
const kj_callable *kj_container_method_of_call(const kj_node *n);
/* The names after "<prefix>." of the entries named so, in alphabetical
 * order, as a list in words ("a, b and c") in buf (cut to fit size). */
void kj_callable_names_under(const char *prefix, char *buf, size_t size);
/* The entry of NumPy ufunc np.m (numpy/ufuncs.h), or NULL. "where" and
 * "clip" count as ufuncs. */
const kj_callable *kj_np_ufunc(const char *m);
/* The entry of the function call n calls (a KJ_E_CALL of a KJ_E_FUNC), if
 * the registry has it and types it as it stands; else NULL. */
const kj_callable *kj_callable_of_call(const kj_node *n);
/* Whether entry k compiles for unit u's target; if not, reports at n
 * that it does not, and what to do. */
bool kj_callable_fits_target(kj_unit *u, const kj_callable *k, const kj_node *n);

#endif
