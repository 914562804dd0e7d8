/* np_rewrite: NumPy calls the front end writes as other NumPy code that
 * Kiln compiles, the way NumPy itself defines them, so that they fuse and
 * vectorize with the rest of an expression:
 *   np.outer(a, b)          a.ravel()[:, None] * b.ravel()[None, :]
 *   np.count_nonzero(a)     np.sum(a != 0)                (axis= kept)
 *   np.isclose(a, b)        np.where(np.isfinite(a) & np.isfinite(b),
 *                                    np.abs(a - b) <= atol + rtol * np.abs(b), a == b)
 *                           (| np.isnan(a) & np.isnan(b) with equal_nan=True)
 *   np.allclose(a, b)       np.all(np.isclose(a, b))
 *   np.linalg.norm(x)       np.sqrt(np.sum(np.abs(x * 1.0) ** 2))
 *   np.linalg.norm(x, ord, axis=k)   the vector norm of each line: np.max(np.abs(x * 1.0), k) for inf,
 *                           np.sum(...) for 1, the root of the sum of squares for 2 (or None), of p-th powers for p
 *   np.nansum(a)            np.sum(np.where(np.isnan(a), 0, a))      (np.nanprod: 1 for NaN, np.prod)
 *   np.nanmean(a)           np.mean(a[~np.isnan(a)])                 (np.nanvar, nanstd, nanmedian: np.var, std, median)
 *   np.flip(a, axis)        a[::-1, ::-1, ...] (every axis), a[:, ::-1] (axis=1), a[..., ::-1] (axis=-1)
 *                           (np.flipud: axis 0, np.fliplr: axis 1)
 *   np.diff(a, n, axis)     a[..., 1:] - a[..., :-1], n times (along axis, the last by default)
 *   np.where(c)             np.nonzero(c)
 *   np.ptp(a, axis)         np.max(a, axis) - np.min(a, axis)
 *   np.average(a, axis)     np.mean(a, axis)              (no weights)
 *   np.logspace(a, b, n)    np.power(base, np.linspace(a, b, n))
 *   np.logaddexp(x, y)      NumPy's npy_logaddexp: x + log(2) where x == y, else
 *                           the larger plus np.log1p(np.exp(smaller - larger)); NaN stays
 *   np.logaddexp2(x, y)     the same in base 2 (np.exp2, log1p times log2(e))
 *   np.heaviside(x, h)      0 below 0, h at 0, 1 above, NaN stays
 *   np.sinc(x)              sin(y) / y with y = pi * np.where(x == 0, 1e-20, x), as NumPy
 *   np.expand_dims(a, k)    a[:, ..., None] with None at axis k (a constant)
 *   a.tolist()              list(a)                       (1-d: lists hold numbers)
 *   np.trace(a, k)          np.sum(np.diagonal(a, k))
 *   np.transpose(a, axes)   a.transpose(axes)             (np.swapaxes(a, i, j): a.swapaxes(i, j); np.moveaxis(a, s, d)
 *                           the same kind of view, its axes in the order moving s to d gives)
 *   a.clip(lo, hi)          np.clip(a, lo, hi)
 *   np.trapz(y, x, dx)      np.sum(d * (y[..., 1:] + y[..., :-1]) / 2.0, axis), d = np.diff(x) or dx
 *   np.array_equal(a, b)    a.shape == b.shape and np.all(a == b)
 *                           (| np.isnan(a) & np.isnan(b) with equal_nan=True)
 *   np.union1d(a, b)        np.unique(np.concatenate((a.ravel(), b.ravel())))
 *   np.intersect1d(a, b)    np.unique(a[np.isin(a, b)]), in the dtype of both (np.concatenate
 *                           with b.ravel()[:0])
 *   np.setdiff1d(a, b)      np.unique(a[~np.isin(a, b)])
 *   np.asfortranarray(a)    np.ascontiguousarray(a.T).T   (dtype= kept: a's transpose made C-contiguous, turned back)
 *   np.inner(a, b)          np.dot(a, b.T)                (1-d and 2-d)
 *   np.vdot(a, b)           np.dot(np.conj(a).ravel(), b.ravel())
 *   np.ediff1d(a)           a.ravel()[1:] - a.ravel()[:-1]
 *   np.take(a, i, axis)     a.ravel()[i], a[i] with axis=0
 *   np.extract(c, a)        a.ravel()[c.ravel() != 0]
 *   np.select(cs, xs, d)    np.where(cs[0], xs[0], np.where(cs[1], xs[1], ... d))
 *   np.rot90(m, k)          m[:, ::-1].swapaxes(0, 1) (k = 1), m[::-1, ::-1] (2),
 *                           m.swapaxes(0, 1)[:, ::-1] (3), m[:] (0); k a constant
 *   np.nancumsum(a)         np.cumsum(np.where(np.isnan(a), 0, a))   (np.nancumprod: 1, np.cumprod)
 *   np.tril_indices(n, k, m)  np.nonzero(np.tri(n, m, k) != 0)   (m: n when absent)
 *   np.triu_indices(n, k, m)  np.nonzero(np.tri(n, m, k - 1) == 0)
 *   np.hanning(M)           0.5 + 0.5 * np.cos(np.pi * n / d), n = np.arange(1 - M, M, 2),
 *                           d = M - 1 + (M == 1), which leaves NumPy's M < 1 (empty) and
 *                           M == 1 (one 1.0) to the formula; np.hamming: 0.54 + 0.46 * ...,
 *                           np.blackman: 0.42 + 0.5 * np.cos(...) + 0.08 * np.cos(2.0 * np.pi * n / d),
 *                           np.bartlett: np.where(n <= 0, 1 + n / d, 1 - n / d)
 *   np.isposinf(x)          x == np.inf                   (np.isneginf: x == -np.inf)
 *   np.signbit(x)           np.copysign(1.0, x) < 0       (set for -0.0 and a NaN with its sign bit, as NumPy's)
 *   np.fix(x)               np.trunc(x)                   (NumPy's ceil below 0 and floor above are a truncation)
 *   np.iscomplex(x)         np.imag(x) != 0               (np.isreal: == 0; the imaginary part of a real array is zeros)
 *   np.angle(z, deg)        np.arctan2(np.imag(z), np.real(z)), times 180 / pi with deg=True (a constant)
 *   np.modf(x)              (np.copysign(np.where(np.isinf(x), 0.0, x - np.trunc(x)), x), np.trunc(x))
 * and np.round in all its spellings becomes np.round(a, decimals) with
 * out= as a keyword, which inference and lowering treat as a ufunc. An
 * operand a rewrite reads twice must be a name or a constant, so that
 * nothing is computed twice. */
#include "jit/frontend/frontend_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    kj_function *f;
    int line, col;
    bool failed;   /* out of memory */
} rw;

static kj_node *node(rw *r, kj_node_kind kind, int nkids) {
    kj_node *n = kj_new_node(r->f, kind, r->line, r->col, nkids);
    r->failed = r->failed || !n;
    return n;
}

static kj_node *func(rw *r, const char *name) {
    kj_node *n = node(r, KJ_E_FUNC, 0);
    if (n && !(n->name = kj_strdup(r->f, name)))
        r->failed = true;
    return n;
}

static kj_node *call(rw *r, const char *name, int nargs, kj_node *a0, kj_node *a1, kj_node *a2) {
    kj_node *n = node(r, KJ_E_CALL, nargs + 1), *args[3] = {a0, a1, a2};
    if (!n)
        return NULL;
    n->kids[0] = func(r, name);
    for (int i = 0; i < nargs; i++)
        n->kids[i + 1] = args[i];
    return n;
}

/* A node with a name and one kid: obj.name() (KJ_E_METHOD), name=v (KJ_E_KEYWORD). */
static kj_node *named(rw *r, kj_node_kind kind, const char *name, kj_node *kid) {
    kj_node *n = node(r, kind, 1);
    if (n && !(n->name = kj_strdup(r->f, name)))
        r->failed = true;
    if (n)
        n->kids[0] = kid;
    return n;
}

/* Appends name=value to call c's arguments. */
static void add_keyword(rw *r, kj_node *c, const char *name, kj_node *value) {
    kj_node **kids = c ? kj_alloc(r->f, sizeof(kj_node *) * (size_t)(c->nkids + 1)) : NULL;
    if (!kids) {
        r->failed = true;
        return;
    }
    memcpy(kids, c->kids, sizeof(kj_node *) * (size_t)c->nkids);
    kids[c->nkids] = named(r, KJ_E_KEYWORD, name, value);
    c->kids = kids;
    c->nkids++;
}

static kj_node *two_kids(rw *r, kj_node_kind kind, kj_node *a, kj_node *b) {
    kj_node *n = node(r, kind, 2);
    if (n) {
        n->kids[0] = a;
        n->kids[1] = b;
    }
    return n;
}

/* a op b: an arithmetic (KJ_E_BINOP) or short-circuit (KJ_E_BOOLOP) node. */
static kj_node *with_op(rw *r, kj_node_kind kind, kj_op op, kj_node *a, kj_node *b) {
    kj_node *n = two_kids(r, kind, a, b);
    if (n)
        n->op = op;
    return n;
}

static kj_node *binop(rw *r, kj_op op, kj_node *a, kj_node *b) { return with_op(r, KJ_E_BINOP, op, a, b); }

static kj_node *compare(rw *r, kj_op op, kj_node *a, kj_node *b) {
    kj_node *n = node(r, KJ_E_COMPARE, 2);
    if (n && !(n->ops = kj_alloc(r->f, sizeof(kj_op))))
        r->failed = true;
    if (n && n->ops) {
        n->ops[0] = op;
        n->kids[0] = a;
        n->kids[1] = b;
    }
    return n;
}

static kj_node *constant(rw *r, const kj_type *t, int64_t i, double x) {
    kj_node *n = node(r, KJ_E_CONST, 0);
    if (n) {
        n->type = t;
        n->ival = i;
        n->fval = x;
    }
    return n;
}

/* lo:hi:step with int bounds, 0 standing for one left out. */
static kj_node *slice(rw *r, int64_t lo, int64_t hi, int64_t step) {
    kj_node *s = node(r, KJ_E_SLICE, 3);
    if (s && lo)
        s->kids[0] = constant(r, KJ_I64, lo, 0);
    if (s && hi)
        s->kids[1] = constant(r, KJ_I64, hi, 0);
    if (s && step)
        s->kids[2] = constant(r, KJ_I64, step, 0);
    return s;
}

/* x[:, None] (column) or x[None, :] (row). */
static kj_node *as_column_or_row(rw *r, kj_node *x, bool column) {
    kj_node *n = node(r, KJ_E_INDEX, 3), *all = slice(r, 0, 0, 0);
    if (n) {
        n->kids[0] = x;
        n->kids[column ? 1 : 2] = all;
        n->kids[column ? 2 : 1] = constant(r, kj_none(), 0, 0);
    }
    return n;
}

/* a with one slice on axis `axis` (from the end when negative) and every
 * other axis whole. */
static kj_node *slice_axis(rw *r, kj_node *a, int64_t axis, kj_node *one) {
    int before = axis >= 0 ? (int)axis : 0, after = axis >= 0 ? 0 : (int)(-axis - 1);
    kj_node *n = node(r, KJ_E_INDEX, 1 + before + (axis < 0) + 1 + after);
    if (!n)
        return NULL;
    int k = 0;
    n->kids[k++] = a;
    for (int i = 0; i < before; i++)
        n->kids[k++] = slice(r, 0, 0, 0);
    if (axis < 0)
        n->kids[k++] = node(r, KJ_E_ELLIPSIS, 0);
    n->kids[k++] = one;
    for (int i = 0; i < after; i++)
        n->kids[k++] = slice(r, 0, 0, 0);
    return n;
}

static kj_node *ravel(rw *r, kj_node *x) { return named(r, KJ_E_METHOD, "ravel", x); }

/* x[i], one index. */
static kj_node *index1(rw *r, kj_node *x, kj_node *i) { return two_kids(r, KJ_E_INDEX, x, i); }

static kj_node *tuple2(rw *r, kj_node *a, kj_node *b) { return two_kids(r, KJ_E_TUPLE, a, b); }

static kj_node *invert(rw *r, kj_node *x) {
    kj_node *n = node(r, KJ_E_UNARY, 1);
    if (n) {
        n->op = KJ_OP_INVERT;
        n->kids[0] = x;
    }
    return n;
}

/* x.swapaxes(0, 1) */
static kj_node *swap01(rw *r, kj_node *x) {
    kj_node *n = node(r, KJ_E_METHOD, 3);
    if (n && !(n->name = kj_strdup(r->f, "swapaxes")))
        r->failed = true;
    if (n) {
        n->kids[0] = x;
        n->kids[1] = constant(r, KJ_I64, 0, 0);
        n->kids[2] = constant(r, KJ_I64, 1, 0);
    }
    return n;
}

/* The window functions' positions n = np.arange(1 - M, M, 2); new nodes
 * each time, as each use of a subexpression needs its own. */
static kj_node *window_positions(rw *r, kj_node *M) {
    return call(r, "np.arange", 3, binop(r, KJ_OP_SUB, constant(r, KJ_I64, 1, 0), M), M, constant(r, KJ_I64, 2, 0));
}

/* n / (M - 1 + (M == 1)), times factor first when there is one (NumPy's
 * pi * n / (M - 1)). */
static kj_node *window_phase(rw *r, kj_node *M, kj_node *factor) {
    kj_node *n = window_positions(r, M);
    kj_node *d = binop(r, KJ_OP_ADD, binop(r, KJ_OP_SUB, M, constant(r, KJ_I64, 1, 0)),
                       compare(r, KJ_OP_EQ, M, constant(r, KJ_I64, 1, 0)));
    return binop(r, KJ_OP_DIV, factor ? binop(r, KJ_OP_MUL, factor, n) : n, d);
}

/* np.hanning, np.hamming, np.blackman or np.bartlett (name m) of M (read
 * several times): NumPy's formulas, in its order of operations. */
static kj_node *window(rw *r, const char *m, kj_node *M) {
    if (!strcmp(m, "bartlett")) {
        return call(r, "np.where", 3, compare(r, KJ_OP_LE, window_positions(r, M), constant(r, KJ_I64, 0, 0)),
                    binop(r, KJ_OP_ADD, constant(r, KJ_I64, 1, 0), window_phase(r, M, NULL)),
                    binop(r, KJ_OP_SUB, constant(r, KJ_I64, 1, 0), window_phase(r, M, NULL)));
    }
    kj_node *pi = constant(r, KJ_F64, 0, 3.141592653589793);
    kj_node *cos1 = call(r, "np.cos", 1, window_phase(r, M, pi), NULL, NULL);
    if (!strcmp(m, "blackman")) {
        kj_node *two_pi = binop(r, KJ_OP_MUL, constant(r, KJ_F64, 0, 2.0), constant(r, KJ_F64, 0, 3.141592653589793));
        kj_node *cos2 = call(r, "np.cos", 1, window_phase(r, M, two_pi), NULL, NULL);
        return binop(r, KJ_OP_ADD,
                     binop(r, KJ_OP_ADD, constant(r, KJ_F64, 0, 0.42), binop(r, KJ_OP_MUL, constant(r, KJ_F64, 0, 0.5), cos1)),
                     binop(r, KJ_OP_MUL, constant(r, KJ_F64, 0, 0.08), cos2));
    }
    bool hann = !strcmp(m, "hanning");
    return binop(r, KJ_OP_ADD, constant(r, KJ_F64, 0, hann ? 0.5 : 0.54),
                 binop(r, KJ_OP_MUL, constant(r, KJ_F64, 0, hann ? 0.5 : 0.46), cos1));
}

/* The call's arguments by parameter (params: NumPy's names, in order,
 * NULL-terminated): positional ones first, then keywords at their
 * parameter's place. A keyword no parameter has, a parameter given twice
 * or too many positional ones are recorded, for the caller to refuse. */
typedef struct {
    kj_node *arg[6];
    const char *unknown;   /* a keyword no parameter has, or NULL */
    bool too_many;
} call_args;

static void bind(const kj_node *n, int first, const char *const *params, call_args *a) {
    memset(a, 0, sizeof *a);
    int np = 0;
    while (params[np])
        np++;
    for (int i = first, pos = 0; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind != KJ_E_KEYWORD) {
            if (pos < np)
                a->arg[pos++] = k;
            else
                a->too_many = true;
            continue;
        }
        int at = 0;
        while (at < np && strcmp(params[at], k->name) != 0)
            at++;
        if (at == np || a->arg[at])
            a->unknown = k->name;
        else
            a->arg[at] = k->kids[0];
    }
}

static bool read_twice_ok(const kj_node *k) { return k->kind == KJ_E_LOCAL || k->kind == KJ_E_CONST; }

/* np.isclose(a, b, rtol, atol, equal_nan) as its elementwise expression. */
static kj_node *isclose(rw *r, call_args *a) {
    kj_node *x = a->arg[0], *y = a->arg[1];
    kj_node *rtol = a->arg[2] ? a->arg[2] : constant(r, KJ_F64, 0, 1e-05);
    kj_node *atol = a->arg[3] ? a->arg[3] : constant(r, KJ_F64, 0, 1e-08);
    kj_node *finite = binop(r, KJ_OP_BITAND, call(r, "np.isfinite", 1, x, NULL, NULL), call(r, "np.isfinite", 1, y, NULL, NULL));
    kj_node *within = compare(r, KJ_OP_LE, call(r, "np.absolute", 1, binop(r, KJ_OP_SUB, x, y), NULL, NULL),
                              binop(r, KJ_OP_ADD, atol, binop(r, KJ_OP_MUL, rtol, call(r, "np.absolute", 1, y, NULL, NULL))));
    kj_node *close = call(r, "np.where", 3, finite, within, compare(r, KJ_OP_EQ, x, y));
    if (a->arg[4]) {   /* equal_nan: a NaN in both places counts as close */
        kj_node *both_nan = binop(r, KJ_OP_BITAND, call(r, "np.isnan", 1, x, NULL, NULL), call(r, "np.isnan", 1, y, NULL, NULL));
        close = binop(r, KJ_OP_BITOR, close, binop(r, KJ_OP_BITAND, both_nan, a->arg[4]));
    }
    return close;
}

/* np.logaddexp(x, y) (base2: np.logaddexp2) as NumPy's npy_logaddexp
 * computes it, elementwise. */
static kj_node *logaddexp(rw *r, kj_node *x, kj_node *y, bool base2) {
    const double ln2 = 0.6931471805599453, log2e = 1.4426950408889634;
    kj_node *tail[2];
    for (int k = 0; k < 2; k++) {   /* x + log1p(exp(y - x)) where x is larger, and the mirror */
        kj_node *big = k ? y : x, *small = k ? x : y;
        kj_node *e = call(r, base2 ? "np.exp2" : "np.exp", 1, binop(r, KJ_OP_SUB, small, big), NULL, NULL);
        kj_node *l = call(r, "np.log1p", 1, e, NULL, NULL);
        tail[k] = binop(r, KJ_OP_ADD, big, base2 ? binop(r, KJ_OP_MUL, l, constant(r, KJ_F64, 0, log2e)) : l);
    }
    kj_node *unordered = binop(r, KJ_OP_SUB, x, y);   /* a NaN */
    kj_node *rest = call(r, "np.where", 3, compare(r, KJ_OP_GT, x, y), tail[0],
                         call(r, "np.where", 3, compare(r, KJ_OP_LT, x, y), tail[1], unordered));
    kj_node *equal = binop(r, KJ_OP_ADD, x, constant(r, KJ_F64, 0, base2 ? 1.0 : ln2));
    return call(r, "np.where", 3, compare(r, KJ_OP_EQ, x, y), equal, rest);
}

/* np.array_equal(a, b, equal_nan): same shape, and every element equal. */
static kj_node *array_equal(rw *r, call_args *a) {
    kj_node *x = a->arg[0], *y = a->arg[1];
    kj_node *same_shape = compare(r, KJ_OP_EQ, named(r, KJ_E_ATTR, "shape", x), named(r, KJ_E_ATTR, "shape", y));
    kj_node *equal = compare(r, KJ_OP_EQ, x, y);
    if (a->arg[2]) {
        kj_node *both_nan = binop(r, KJ_OP_BITAND, call(r, "np.isnan", 1, x, NULL, NULL), call(r, "np.isnan", 1, y, NULL, NULL));
        equal = binop(r, KJ_OP_BITOR, equal, binop(r, KJ_OP_BITAND, both_nan, a->arg[2]));
    }
    return with_op(r, KJ_E_BOOLOP, KJ_OP_AND, same_shape, call(r, "np.all", 1, equal, NULL, NULL));
}

/* np.linalg.norm(x, ord, axis) of the lines along axis (NULL: of all of x,
 * the 2-norm only), as NumPy's: ints as floats; inf and -inf the largest
 * and smallest magnitude, 1 their sum, 2 the root of the sum of squares,
 * p the p-th root of the sum of p-th powers. */
static kj_node *vector_norm(rw *r, kj_node *x, double ord, kj_node *axis) {
    kj_node *mag = call(r, "np.absolute", 1, binop(r, KJ_OP_MUL, x, constant(r, KJ_F64, 0, 1.0)), NULL, NULL);
    int nargs = axis ? 2 : 1;
    if (ord == INFINITY || ord == -INFINITY)
        return call(r, ord > 0 ? "np.max" : "np.min", nargs, mag, axis, NULL);
    if (ord == 1.0)
        return call(r, "np.sum", nargs, mag, axis, NULL);
    bool two = ord == 2.0;
    kj_node *power = two ? constant(r, KJ_I64, 2, 0) : constant(r, KJ_F64, 0, ord);
    kj_node *total = call(r, "np.sum", nargs, binop(r, KJ_OP_POW, mag, power), axis, NULL);
    return two ? call(r, "np.sqrt", 1, total, NULL, NULL) : binop(r, KJ_OP_POW, total, constant(r, KJ_F64, 0, 1.0 / ord));
}

/* np.union1d, np.intersect1d or np.setdiff1d (name m) of x and y: the
 * sorted unique values of either, of both, of x only; NULL (r not failed)
 * when an operand read twice is not a name or a constant. */
static kj_node *set_operation(rw *r, const char *m, kj_node *x, kj_node *y) {
    if (m[0] == 'u')
        return call(r, "np.unique", 1, call(r, "np.concatenate", 1, tuple2(r, ravel(r, x), ravel(r, y)), NULL, NULL), NULL, NULL);
    if (!read_twice_ok(x) || (m[0] == 'i' && !read_twice_ok(y)))
        return NULL;
    kj_node *in = call(r, "np.isin", 2, x, y, NULL);
    kj_node *kept = index1(r, x, m[0] == 's' ? invert(r, in) : in);
    if (m[0] == 'i') {   /* NumPy joins both arrays' values: the result takes their common dtype */
        kj_node *none = node(r, KJ_E_SLICE, 3);   /* [:0] */
        if (none)
            none->kids[1] = constant(r, KJ_I64, 0, 0);
        kept = call(r, "np.concatenate", 1, tuple2(r, kept, index1(r, ravel(r, y), none)), NULL, NULL);
    }
    return call(r, "np.unique", 1, kept, NULL, NULL);
}

static int refuse(kj_error *e, const kj_node *n, const char *hint, const char *fmt, const char *name) {
    return kj_fail(e, KJ_ERR_TYPING, n->line, n->col, hint, fmt, name);
}

/* np.round(a, decimals, out), np.around, np.round_, a.round(decimals);
 * NULL when the arguments are not those. */
static kj_node *round_call(rw *r, kj_node *n, bool method_form, call_args *a) {
    static const char *const params[] = {"a", "decimals", "out", NULL};
    if (method_form) {
        bind(n, 1, params + 1, a);
        memmove(&a->arg[1], &a->arg[0], sizeof a->arg[0] * 2);
        a->arg[0] = n->kids[0];
    } else {
        bind(n, 1, params, a);
    }
    if (!a->arg[0] || a->unknown || a->too_many)
        return NULL;
    kj_node *decimals = a->arg[1] ? a->arg[1] : constant(r, KJ_I64, 0, 0);
    kj_node *c = call(r, "np.round", 2, a->arg[0], decimals, NULL);
    if (a->arg[2])   /* out= stays a keyword: the ufuncs' way */
        add_keyword(r, c, "out", a->arg[2]);
    return c;
}

int kj_np_rewrite_call(kj_function *f, kj_error *e, kj_node *n) {
    bool method_form = n->kind == KJ_E_METHOD;
    const char *m = method_form ? n->name
                    : n->kids[0]->kind == KJ_E_FUNC && !strncmp(n->kids[0]->name, "np.", 3) ? n->kids[0]->name + 3
                                                                                                : NULL;
    if (!m || (method_form && strcmp(m, "round") != 0 && strcmp(m, "tolist") != 0 && strcmp(m, "clip") != 0 &&
               strcmp(m, "take") != 0))
        return 0;
    rw r = {f, n->line, n->col, false};
    call_args a;
    kj_node *out = NULL;
    if (!strcmp(m, "round") || !strcmp(m, "round_") || !strcmp(m, "around")) {
        if (!(out = round_call(&r, n, method_form, &a)) && !r.failed)
            return refuse(e, n, NULL, "%s takes the array, decimals and out= only", "np.round");
    } else if (method_form && !strcmp(m, "clip")) {
        static const char *const params[] = {"min", "max", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || !a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, "Give both bounds: a.clip(lo, hi).", "%s takes both bounds here", "a.clip");
        out = call(&r, "np.clip", 3, n->kids[0], a.arg[0], a.arg[1]);
    } else if (!strcmp(m, "trapz")) {
        static const char *const params[] = {"y", "x", "dx", "axis", NULL};
        bind(n, 1, params, &a);
        int64_t axis;
        if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[3], -1, &axis) || (a.arg[1] && (a.arg[2] || axis != -1)))
            return refuse(e, n, "Write the axis as a number.",
                          "np.%s takes y, then x (along the last axis) or dx, and a constant axis here", m);
        if (!read_twice_ok(a.arg[0]) || (a.arg[1] && !read_twice_ok(a.arg[1])))
            return refuse(e, n, "Assign them to names first: y = ...; np.trapz(y).", "np.%s takes names or constants in compiled code", m);
        /* NumPy's: add.reduce(d * (y[1:] + y[:-1]) / 2.0) along axis, d = diff(x) or dx */
        kj_node *d = a.arg[1] ? binop(&r, KJ_OP_SUB, slice_axis(&r, a.arg[1], -1, slice(&r, 1, 0, 0)),
                                      slice_axis(&r, a.arg[1], -1, slice(&r, 0, -1, 0)))
                              : a.arg[2] ? a.arg[2] : constant(&r, KJ_F64, 0, 1.0);
        kj_node *sums = binop(&r, KJ_OP_ADD, slice_axis(&r, a.arg[0], axis, slice(&r, 1, 0, 0)),
                              slice_axis(&r, a.arg[0], axis, slice(&r, 0, -1, 0)));
        kj_node *areas = binop(&r, KJ_OP_DIV, binop(&r, KJ_OP_MUL, d, sums), constant(&r, KJ_F64, 0, 2.0));
        out = call(&r, "np.sum", 2, areas, constant(&r, KJ_I64, axis, 0), NULL);
    } else if (!method_form && (!strcmp(m, "transpose") || !strcmp(m, "swapaxes") || !strcmp(m, "moveaxis"))) {
        /* np.transpose(a, axes), np.swapaxes(a, i, j): the methods of a;
         * np.moveaxis a method of the same kind that arrays have not, named
         * so that `a.moveaxis(...)`, which NumPy refuses, stays refused */
        if (n->nkids < 2 || n->kids[1]->kind == KJ_E_KEYWORD)
            return refuse(e, n, NULL, "np.%s takes the array first", m);
        out = node(&r, KJ_E_METHOD, n->nkids - 1);
        if (out && !(out->name = kj_strdup(f, strcmp(m, "moveaxis") ? m : "moveaxis!")))
            r.failed = true;
        for (int i = 1; out && i < n->nkids; i++)
            out->kids[i - 1] = n->kids[i];
    } else if (!strcmp(m, "tolist")) {
        if (!method_form || n->nkids != 1)
            return refuse(e, n, NULL, "%s takes no arguments", "a.tolist()");
        out = call(&r, "list", 1, n->kids[0], NULL, NULL);
    } else if (!strcmp(m, "where") && n->nkids == 2 && n->kids[1]->kind != KJ_E_KEYWORD) {
        out = call(&r, "np.nonzero", 1, n->kids[1], NULL, NULL);
    } else if (!strcmp(m, "outer")) {
        static const char *const params[] = {"a", "b", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes two arrays here", m);
        out = binop(&r, KJ_OP_MUL, as_column_or_row(&r, named(&r, KJ_E_METHOD, "ravel", a.arg[0]), true),
                    as_column_or_row(&r, named(&r, KJ_E_METHOD, "ravel", a.arg[1]), false));
    } else if (!strcmp(m, "count_nonzero")) {
        static const char *const params[] = {"a", "axis", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes an array and axis= here", m);
        kj_node *nonzero = compare(&r, KJ_OP_NE, a.arg[0], constant(&r, KJ_I64, 0, 0));
        out = call(&r, "np.sum", a.arg[1] ? 2 : 1, nonzero, a.arg[1], NULL);
    } else if (!strcmp(m, "isclose") || !strcmp(m, "allclose")) {
        static const char *const params[] = {"a", "b", "rtol", "atol", "equal_nan", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes a, b, rtol, atol and equal_nan here", m);
        if (!read_twice_ok(a.arg[0]) || !read_twice_ok(a.arg[1]))
            return refuse(e, n, "Assign them to names first: x = ...; np.isclose(x, y).",
                          "np.%s compares names or constants in compiled code", m);
        out = isclose(&r, &a);
        if (m[0] == 'a')
            out = call(&r, "np.all", 1, out, NULL, NULL);
    } else if (!strcmp(m, "array_equal")) {
        static const char *const params[] = {"a1", "a2", "equal_nan", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes two arrays and equal_nan here", m);
        if (!read_twice_ok(a.arg[0]) || !read_twice_ok(a.arg[1]))
            return refuse(e, n, "Assign them to names first: x = ...; np.array_equal(x, y).",
                          "np.%s takes names or constants in compiled code", m);
        out = array_equal(&r, &a);
    } else if (!strcmp(m, "norm")) {   /* np.linalg.norm: the front end names NumPy's functions by their own names */
        static const char *const params[] = {"x", "ord", "axis", "keepdims", NULL};
        bind(n, 1, params, &a);
        double ord = 2.0;
        int64_t axis;
        bool along = a.arg[2] && kj_const_int(a.arg[2], 0, &axis);
        bool ord_given = a.arg[1] && !(a.arg[1]->kind == KJ_E_CONST && a.arg[1]->type && a.arg[1]->type->kind == KJ_T_NONE);
        if (a.arg[0] && ord_given && !a.arg[2] && !a.arg[3] && !a.unknown && !a.too_many)
            return 0;   /* a vector's or a matrix's norm, as x's dimensions say: typed and lowered as a call */
        if (!a.arg[0] || a.arg[3] || a.unknown || a.too_many || (a.arg[2] && !along) ||
            (ord_given && (!along || !kj_const_number(a.arg[1], &ord) || ord == 0.0)))
            return refuse(e, n, "Give a constant int axis= for a norm of each line (ord= then the vector norm's, not 0).",
                          "np.linalg.%s takes the array, ord=, and a constant axis= here", m);
        out = vector_norm(&r, a.arg[0], ord, along ? a.arg[2] : NULL);
    } else if (!strcmp(m, "nansum") || !strcmp(m, "nanprod") || !strcmp(m, "nanmean") || !strcmp(m, "nanvar") ||
               !strcmp(m, "nanstd") || !strcmp(m, "nanmedian") || !strcmp(m, "nancumsum") || !strcmp(m, "nancumprod")) {
        static const char *const params[] = {"a", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, "Reduce along an axis with np.where(np.isnan(a), 0, a).sum(axis) and the like.",
                          "np.%s takes only the array here", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: x = ...; np.nanmean(x).",
                          "np.%s takes a name or a constant in compiled code", m);
        kj_node *nan = call(&r, "np.isnan", 1, a.arg[0], NULL, NULL);
        if (!strcmp(m, "nansum") || !strcmp(m, "nanprod") || !strncmp(m, "nancum", 6)) {   /* NaN as the operation's identity */
            bool cum = m[3] == 'c', sum = m[cum ? 6 : 3] == 's';
            const char *plain = cum ? (sum ? "np.cumsum" : "np.cumprod") : sum ? "np.sum" : "np.prod";
            out = call(&r, plain, 1, call(&r, "np.where", 3, nan, constant(&r, KJ_I64, sum ? 0 : 1, 0), a.arg[0]), NULL, NULL);
        } else {   /* of the values that are not NaN: np.mean(a[~np.isnan(a)]) */
            kj_node *kept = node(&r, KJ_E_INDEX, 2), *not_nan = node(&r, KJ_E_UNARY, 1);
            if (kept && not_nan) {
                not_nan->op = KJ_OP_INVERT;
                not_nan->kids[0] = nan;
                kept->kids[0] = a.arg[0];
                kept->kids[1] = not_nan;
            }
            char plain[16];
            snprintf(plain, sizeof plain, "np.%s", m + 3);
            out = call(&r, plain, 1, kept, NULL, NULL);
        }
    } else if (!strcmp(m, "flip") || !strcmp(m, "flipud") || !strcmp(m, "fliplr")) {
        static const char *const params[] = {"m", "axis", NULL};
        bind(n, 1, params, &a);
        int64_t axis = m[4] == 'u' ? 0 : 1;
        bool every = m[4] == 0 && (!a.arg[1] || (a.arg[1]->kind == KJ_E_CONST && a.arg[1]->type->kind == KJ_T_NONE));
        if (!a.arg[0] || a.unknown || a.too_many || (m[4] && a.arg[1]) || (!every && m[4] == 0 && !kj_const_int(a.arg[1], 0, &axis)))
            return refuse(e, n, "Write the axis as a number, or index with ::-1 yourself.",
                          "np.%s takes an array and a constant axis here", m);
        if (every) {   /* a[<...>] whose ellipsis stands for reversed slices */
            out = node(&r, KJ_E_INDEX, 2);
            kj_node *dots = node(&r, KJ_E_ELLIPSIS, 0);
            if (out && dots) {
                dots->ival = -1;
                out->kids[0] = a.arg[0];
                out->kids[1] = dots;
            }
        } else {
            out = slice_axis(&r, a.arg[0], axis, slice(&r, 0, 0, -1));
        }
    } else if (!strcmp(m, "diff")) {
        static const char *const params[] = {"a", "n", "axis", NULL};
        bind(n, 1, params, &a);
        int64_t times, axis;
        if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 1, &times) || !kj_const_int(a.arg[2], -1, &axis) ||
            times < 0 || times > 8)
            return refuse(e, n, "Write n and axis as numbers.", "np.%s takes an array, n (0 to 8) and axis as constants here", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: x = ...; np.diff(x).",
                          "np.%s takes a name or a constant in compiled code", m);
        out = a.arg[0];
        for (int64_t i = 0; i < times; i++)
            out = binop(&r, KJ_OP_SUB, slice_axis(&r, out, axis, slice(&r, 1, 0, 0)), slice_axis(&r, out, axis, slice(&r, 0, -1, 0)));
    } else if (!strcmp(m, "ptp") || !strcmp(m, "average")) {
        static const char *const params[] = {"a", "axis", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, m[0] == 'a' ? "Weigh the values yourself: np.sum(w * a) / np.sum(w)." : NULL,
                          "np.%s takes an array and axis here", m);
        int nargs = a.arg[1] ? 2 : 1;
        if (m[0] == 'a') {
            out = call(&r, "np.mean", nargs, a.arg[0], a.arg[1], NULL);
        } else {
            if (!read_twice_ok(a.arg[0]) || (a.arg[1] && !read_twice_ok(a.arg[1])))
                return refuse(e, n, "Assign it to a name first: x = ...; np.ptp(x).", "np.%s takes a name or a constant in compiled code", m);
            out = binop(&r, KJ_OP_SUB, call(&r, "np.max", nargs, a.arg[0], a.arg[1], NULL),
                        call(&r, "np.min", nargs, a.arg[0], a.arg[1], NULL));
        }
    } else if (!strcmp(m, "logspace")) {
        static const char *const params[] = {"start", "stop", "num", "endpoint", "base", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes start, stop, num, endpoint and base here", m);
        kj_node *grid = call(&r, "np.linspace", a.arg[2] ? 3 : 2, a.arg[0], a.arg[1], a.arg[2]);
        if (a.arg[3])
            add_keyword(&r, grid, "endpoint", a.arg[3]);
        out = call(&r, "np.power", 2, a.arg[4] ? a.arg[4] : constant(&r, KJ_F64, 0, 10.0), grid, NULL);
    } else if (!strcmp(m, "logaddexp") || !strcmp(m, "logaddexp2") || !strcmp(m, "heaviside")) {
        static const char *const params[] = {"x1", "x2", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes two operands here", m);
        if (!read_twice_ok(a.arg[0]) || !read_twice_ok(a.arg[1]))
            return refuse(e, n, "Assign them to names first: x = ...; np.logaddexp(x, y).",
                          "np.%s takes names or constants in compiled code", m);
        if (m[0] == 'l') {
            out = logaddexp(&r, a.arg[0], a.arg[1], m[9] == '2');
        } else {   /* NumPy's heaviside: x itself where it is NaN */
            kj_node *x = a.arg[0], *zero = constant(&r, KJ_I64, 0, 0);
            kj_node *at_zero = call(&r, "np.where", 3, compare(&r, KJ_OP_EQ, x, zero), a.arg[1], x);
            kj_node *above = call(&r, "np.where", 3, compare(&r, KJ_OP_GT, x, zero), constant(&r, KJ_F64, 0, 1.0), at_zero);
            out = call(&r, "np.where", 3, compare(&r, KJ_OP_LT, x, zero), constant(&r, KJ_F64, 0, 0.0), above);
        }
    } else if (!strcmp(m, "sinc")) {
        static const char *const params[] = {"x", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes one operand", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: x = ...; np.sinc(x).", "np.%s takes a name or a constant in compiled code", m);
        kj_node *y[2];
        for (int k = 0; k < 2; k++) {   /* written twice: each is computed in the same fused loop */
            kj_node *nonzero = call(&r, "np.where", 3, compare(&r, KJ_OP_EQ, a.arg[0], constant(&r, KJ_I64, 0, 0)),
                                    constant(&r, KJ_F64, 0, 1.0e-20), a.arg[0]);
            y[k] = binop(&r, KJ_OP_MUL, constant(&r, KJ_F64, 0, 3.141592653589793), nonzero);
        }
        out = binop(&r, KJ_OP_DIV, call(&r, "np.sin", 1, y[0], NULL, NULL), y[1]);
    } else if (!strcmp(m, "trace")) {
        static const char *const params[] = {"a", "offset", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, "Sum a diagonal of a 2-d array: np.sum(a.diagonal(k)).", "np.%s takes a 2-d array and offset here", m);
        out = call(&r, "np.sum", 1, call(&r, "np.diagonal", a.arg[1] ? 2 : 1, a.arg[0], a.arg[1], NULL), NULL, NULL);
    } else if (!strcmp(m, "expand_dims")) {
        static const char *const params[] = {"a", "axis", NULL};
        bind(n, 1, params, &a);
        int64_t axis;
        if (!a.arg[0] || !a.arg[1] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 0, &axis))
            return refuse(e, n, "Write the axis as a number, or index with None yourself: a[:, None].",
                          "np.%s takes an array and a constant axis here", m);
        out = slice_axis(&r, a.arg[0], axis, constant(&r, kj_none(), 0, 0));
    } else if (!strcmp(m, "union1d") || !strcmp(m, "intersect1d") || !strcmp(m, "setdiff1d")) {
        static const char *const params[] = {"ar1", "ar2", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes two arrays here", m);
        out = set_operation(&r, m, a.arg[0], a.arg[1]);
        if (!out && !r.failed)
            return refuse(e, n, "Assign them to names first: x = ...; np.setdiff1d(x, y).",
                          "np.%s takes names or constants in compiled code", m);
    } else if (!strcmp(m, "asfortranarray")) {
        static const char *const params[] = {"a", "dtype", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes an array and dtype= here", m);
        kj_node *c = call(&r, "np.ascontiguousarray", 1, named(&r, KJ_E_ATTR, "T", a.arg[0]), NULL, NULL);
        if (c && a.arg[1])
            add_keyword(&r, c, "dtype", a.arg[1]);
        out = named(&r, KJ_E_ATTR, "T", c);
    } else if (!strcmp(m, "inner") || !strcmp(m, "vdot")) {
        static const char *const params[] = {"a", "b", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes two arrays", m);
        out = m[0] == 'i' ? call(&r, "np.dot", 2, a.arg[0], named(&r, KJ_E_ATTR, "T", a.arg[1]), NULL)
                          : call(&r, "np.dot", 2, ravel(&r, call(&r, "np.conj", 1, a.arg[0], NULL, NULL)),
                                 ravel(&r, a.arg[1]), NULL);
    } else if (!strcmp(m, "ediff1d")) {
        static const char *const params[] = {"ary", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, "Join the ends yourself: np.concatenate((begin, np.ediff1d(x), end)).",
                          "np.%s takes only the array here", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: x = ...; np.ediff1d(x).", "np.%s takes a name or a constant in compiled code", m);
        out = binop(&r, KJ_OP_SUB, index1(&r, ravel(&r, a.arg[0]), slice(&r, 1, 0, 0)),
                    index1(&r, ravel(&r, a.arg[0]), slice(&r, 0, -1, 0)));
    } else if (!strcmp(m, "take")) {   /* np.take(a, indices, axis) or a.take(indices, axis) */
        static const char *const params[] = {"a", "indices", "axis", NULL};
        bind(n, 1, method_form ? params + 1 : params, &a);
        kj_node *arr = method_form ? n->kids[0] : a.arg[0], *indices = a.arg[method_form ? 0 : 1],
                *axis_arg = a.arg[method_form ? 1 : 2];
        bool flat = !axis_arg || (axis_arg->kind == KJ_E_CONST && axis_arg->type && axis_arg->type->kind == KJ_T_NONE);
        int64_t axis = 0;
        if (!indices || a.unknown || a.too_many || (!flat && (!kj_const_int(axis_arg, 0, &axis) || axis != 0)))
            return refuse(e, n, "Along another axis, index it yourself: a[:, idx] (a copy), a[:, i] for one index i.",
                          "np.%s takes an array, indices and axis=None or 0 here", m);
        out = index1(&r, flat ? ravel(&r, arr) : arr, indices);
    } else if (!strcmp(m, "extract")) {
        static const char *const params[] = {"condition", "arr", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[1] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes a condition and an array", m);
        out = index1(&r, ravel(&r, a.arg[1]), compare(&r, KJ_OP_NE, ravel(&r, a.arg[0]), constant(&r, KJ_I64, 0, 0)));
    } else if (!strcmp(m, "select")) {
        static const char *const params[] = {"condlist", "choicelist", "default", NULL};
        bind(n, 1, params, &a);
        kj_node *cs = a.arg[0], *xs = a.arg[1];
        if (!cs || !xs || a.unknown || a.too_many || (cs->kind != KJ_E_LIST && cs->kind != KJ_E_TUPLE) ||
            (xs->kind != KJ_E_LIST && xs->kind != KJ_E_TUPLE) || cs->nkids != xs->nkids || cs->nkids == 0)
            return refuse(e, n, "Write the conditions and the choices out: np.select([a > 0, a < 0], [a, -a], 0).",
                          "np.%s takes lists of conditions and choices, of one length, written in the call", m);
        out = a.arg[2] ? a.arg[2] : constant(&r, KJ_I64, 0, 0);
        for (int i = cs->nkids - 1; i >= 0; i--)   /* the first condition that holds wins */
            out = call(&r, "np.where", 3, cs->kids[i], xs->kids[i], out);
    } else if (!strcmp(m, "tril_indices") || !strcmp(m, "triu_indices")) {
        static const char *const params[] = {"n", "k", "m", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes n, k and m", m);
        if (!a.arg[2] && !read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: n = ...; np.tril_indices(n).", "np.%s takes n as a name or a constant in compiled code", m);
        bool lower = m[3] == 'l';
        kj_node *k = a.arg[1] ? a.arg[1] : constant(&r, KJ_I64, 0, 0);
        kj_node *tri = call(&r, "np.tri", 3, a.arg[0], a.arg[2] ? a.arg[2] : a.arg[0],
                            lower ? k : binop(&r, KJ_OP_SUB, k, constant(&r, KJ_I64, 1, 0)));
        out = call(&r, "np.nonzero", 1, compare(&r, lower ? KJ_OP_NE : KJ_OP_EQ, tri, constant(&r, KJ_I64, 0, 0)), NULL, NULL);
    } else if (!strcmp(m, "hanning") || !strcmp(m, "hamming") || !strcmp(m, "blackman") || !strcmp(m, "bartlett")) {
        static const char *const params[] = {"M", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes the number of points M", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first, then pass the name.",
                          "np.%s takes M as a name or a constant in compiled code", m);
        out = window(&r, m, a.arg[0]);
    } else if (!strcmp(m, "isposinf") || !strcmp(m, "isneginf") || !strcmp(m, "signbit") || !strcmp(m, "fix")) {
        static const char *const params[] = {"x", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes one operand here (no out=)", m);
        if (m[0] == 'f') {
            out = call(&r, "np.trunc", 1, a.arg[0], NULL, NULL);
        } else if (m[0] == 's') {
            kj_node *sign = call(&r, "np.copysign", 2, constant(&r, KJ_F64, 0, 1.0), a.arg[0], NULL);
            out = compare(&r, KJ_OP_LT, sign, constant(&r, KJ_I64, 0, 0));
        } else {
            out = compare(&r, KJ_OP_EQ, a.arg[0], constant(&r, KJ_F64, 0, m[2] == 'p' ? INFINITY : -INFINITY));
        }
    } else if (!strcmp(m, "iscomplex") || !strcmp(m, "isreal")) {
        static const char *const params[] = {"x", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes one operand here", m);
        out = compare(&r, m[2] == 'c' ? KJ_OP_NE : KJ_OP_EQ, call(&r, "np.imag", 1, a.arg[0], NULL, NULL),
                      constant(&r, KJ_I64, 0, 0));
    } else if (!strcmp(m, "angle")) {
        static const char *const params[] = {"z", "deg", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many || (a.arg[1] && !kj_const_int(a.arg[1], 0, &(int64_t){0})))
            return refuse(e, n, "Write deg=True or deg=False.", "np.%s takes z and a constant deg here", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first: z = ...; np.angle(z).",
                          "np.%s takes a name or a constant in compiled code", m);
        int64_t deg = 0;
        kj_const_int(a.arg[1], 0, &deg);
        out = call(&r, "np.arctan2", 2, call(&r, "np.imag", 1, a.arg[0], NULL, NULL),
                   call(&r, "np.real", 1, a.arg[0], NULL, NULL), NULL);
        if (deg)
            out = binop(&r, KJ_OP_MUL, out, constant(&r, KJ_F64, 0, 180.0 / M_PI));
    } else if (!strcmp(m, "modf")) {
        static const char *const params[] = {"x", NULL};
        bind(n, 1, params, &a);
        if (!a.arg[0] || a.unknown || a.too_many)
            return refuse(e, n, NULL, "np.%s takes one operand here (no out=)", m);
        if (!read_twice_ok(a.arg[0]))
            return refuse(e, n, "Assign it to a name first, then pass the name.",
                          "np.%s takes x as a name or a constant in compiled code", m);
        kj_node *x = a.arg[0], *inf = call(&r, "np.isinf", 1, x, NULL, NULL);
        kj_node *rest = binop(&r, KJ_OP_SUB, x, call(&r, "np.trunc", 1, x, NULL, NULL));
        kj_node *frac = call(&r, "np.where", 3, inf, constant(&r, KJ_F64, 0, 0.0), rest);
        out = tuple2(&r, call(&r, "np.copysign", 2, frac, x, NULL), call(&r, "np.trunc", 1, x, NULL, NULL));
    } else if (!strcmp(m, "rot90")) {
        static const char *const params[] = {"m", "k", NULL};
        bind(n, 1, params, &a);
        int64_t k;
        if (!a.arg[0] || a.unknown || a.too_many || !kj_const_int(a.arg[1], 1, &k))
            return refuse(e, n, "Write k as a number; rotate in other axes with swapaxes and ::-1.",
                          "np.%s takes an array and a constant k here", m);
        kj_node *x = a.arg[0];
        switch (((k % 4) + 4) % 4) {   /* NumPy's: a flip and a swap of the first two axes */
        case 0: out = slice_axis(&r, x, 0, slice(&r, 0, 0, 0)); break;
        case 1: out = swap01(&r, slice_axis(&r, x, 1, slice(&r, 0, 0, -1))); break;
        case 2: out = slice_axis(&r, slice_axis(&r, x, 0, slice(&r, 0, 0, -1)), 1, slice(&r, 0, 0, -1)); break;
        default: out = slice_axis(&r, swap01(&r, x), 1, slice(&r, 0, 0, -1)); break;
        }
    } else {
        return 0;
    }
    if (r.failed || !out)
        return kj_fail(e, KJ_ERR_INTERNAL, n->line, n->col, NULL, "out of memory");
    *n = *out;   /* the call becomes its rewrite, in place */
    return 0;
}
