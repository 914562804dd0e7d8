/* np_meshgrid: np.meshgrid(x, y, ...) of 1-d arrays in compiled code,
 * typing and lowering: a tuple of new arrays, each repeating one input
 * along its axis; indexing 'xy' (NumPy's default) or 'ij'. */
#include "jit/core/callables.h"
#include "jit/numpy/lower_np.h"

#include <stdio.h>
#include <string.h>

#define FAIL KJ_INFER_FAIL

static const kj_type *meshgrid_type(kj_infer_ctx *c, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *ix = kj_np_arg(a, -1, "indexing");
    static const char *const known[] = {"indexing", NULL};
    bool ok = a->npos >= 1 && a->npos <= 3 && kj_np_only_keywords(a, known) &&
              (!ix || (ix->kind == KJ_E_CONST && ix->str && (!strcmp(ix->str, "xy") || !strcmp(ix->str, "ij"))));
    const kj_type *e[3];
    for (int i = 0; ok && i < a->npos; i++) {
        const kj_type *x = kj_np_arg_type(c, a->pos[i]);
        if (!x)
            return NULL;
        ok = x->kind == KJ_T_ARRAY && x->ndim == 1;
        e[i] = ok ? kj_array(x->elem, a->npos, KJ_LAYOUT_C, false) : NULL;
    }
    if (!ok)
        FAIL(c, n, "Ravel the inputs first.", "np.meshgrid takes one to three 1-d arrays and indexing='xy' or 'ij' here");
    return kj_tuple(a->npos, e);
}

/* np.meshgrid(x, y, ..., indexing): output k repeats input k along its
 * axis (with 'xy', NumPy's default, the first two swap places). */
static LLVMValueRef lower_meshgrid(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) {
    (void)m;
    kj_node *ix = kj_np_arg(a, -1, "indexing");
    bool xy = !ix || !strcmp(ix->str, "xy");
    int nd = a->npos;
    LLVMValueRef in[3], shape[3];
    int along[3];   /* the axis each input runs along */
    for (int k = 0; k < nd; k++) {
        in[k] = kj_lower_expr(w, a->pos[k]);
        along[k] = xy && nd > 1 && k < 2 ? 1 - k : k;
        shape[along[k]] = kj_array_len(w, in[k]);
    }
    LLVMValueRef out = LLVMGetUndef(kj_lltype(w, n->type));
    for (int k = 0; k < nd; k++) {
        const kj_type *t = n->type->elems[k], *it = a->pos[k]->type;
        LLVMValueRef arr = kj_np_alloc(w, t, shape, false), idx[3];
        kj_np_nest nest;
        kj_np_nest_begin(w, &nest, nd, shape, idx);
        kj_np_store_elem(w, kj_np_ptr(w, arr, nd, idx), kj_array_item(w, in[k], it, idx[along[k]]), it->elem, t->elem);
        kj_np_nest_end(w, &nest);
        out = LLVMBuildInsertValue(w->b, out, arr, (unsigned)k, "");
    }
    return out;
}

KJ_CALLABLE(meshgrid, .name = "np.meshgrid", .targets = KJ_ON_ANY, .np_type = meshgrid_type, .np_lower = lower_meshgrid);
