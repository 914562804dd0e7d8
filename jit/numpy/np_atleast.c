/* np_atleast: np.atleast_1d, np.atleast_2d and np.atleast_3d of one
 * array or number in compiled code, typing and lowering. An array with
 * enough dimensions comes back as it is; one with fewer is a view of it
 * with axes of length 1 added where NumPy adds them (in front, and for
 * atleast_3d a 2-d array's third behind: (n,) -> (1, n, 1), (m, n) ->
 * (m, n, 1)); a number becomes a new array of one element. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <string.h>

#define FAIL KJ_INFER_FAIL

static int rank_of(const char *m) {
    if (!strcmp(m, "atleast_1d"))
        return 1;
    if (!strcmp(m, "atleast_2d"))
        return 2;
    return !strcmp(m, "atleast_3d") ? 3 : 0;
}

static const kj_type *atleast_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    int rank = rank_of(m);
    const kj_type *x = a->npos == 1 && a->nkw == 0 ? kj_np_arg_type(c, a->pos[0]) : NULL;
    if (a->npos != 1 || a->nkw != 0)
        FAIL(c, n, "Call it once per array.", "np.%s takes one array or number here", m);
    if (!x)
        return NULL;
    if (x->kind != KJ_T_ARRAY) {
        if (!(kj_is_number(x) || x->kind == KJ_T_BOOL))
            FAIL(c, n, NULL, "np.%s takes an array or a number, got %s", m, x->name);
        return kj_array(x, rank, KJ_LAYOUT_C, false);
    }
    if (x->ndim >= rank)
        return x;
    return kj_array(x->elem, rank, x->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A, x->readonly);
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef lower_atleast(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;   /* the rank is the result type's */
    kj_node *xn = a->pos[0];
    const kj_type *xt = xn->type, *t = n->type;
    int rank = t->ndim;
    LLVMValueRef x = kj_lower_expr(w, xn), shape[KJ_NP_MAXDIM], strides[KJ_NP_MAXDIM];
    if (xt->kind != KJ_T_ARRAY) {
        for (int d = 0; d < rank; d++)
            shape[d] = c64(w, 1);
        LLVMValueRef out = kj_np_alloc(w, t, shape, false);
        kj_np_store_elem(w, kj_array_field(w, out, 1, 0), x, xt, t->elem);
        return out;
    }
    if (xt->ndim >= rank)
        return x;
    /* x's axes, and where they go among the result's */
    int nd = xt->ndim, first = rank == 3 && nd == 2 ? 0 : rank == 3 && nd == 1 ? 1 : rank - nd;
    LLVMValueRef size = kj_np_itemsize(w, t->elem);
    for (int d = rank - 1; d >= 0; d--) {   /* an added axis takes the C stride, keeping a C array C */
        bool own = d >= first && d < first + nd;
        shape[d] = own ? kj_array_field(w, x, 2, d - first) : c64(w, 1);
        strides[d] = own ? kj_array_field(w, x, 3, d - first) : size;
        size = LLVMBuildMul(w->b, shape[d], strides[d], "");
    }
    return kj_np_make(w, t, kj_array_field(w, x, 0, 0), kj_array_field(w, x, 1, 0), shape, strides);
}

KJ_CALLABLE(atleast_1d, .name = "np.atleast_1d", .targets = KJ_ON_ANY, .np_type = atleast_type, .np_lower = lower_atleast);
KJ_CALLABLE(atleast_2d, .name = "np.atleast_2d", .targets = KJ_ON_ANY, .np_type = atleast_type, .np_lower = lower_atleast);
KJ_CALLABLE(atleast_3d, .name = "np.atleast_3d", .targets = KJ_ON_ANY, .np_type = atleast_type, .np_lower = lower_atleast);
