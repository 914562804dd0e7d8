#include "jit/lower_np.h"
static LLVMValueRef later(kj_lw *w, kj_node *n) {
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n->line, n->col, NULL, "not yet");
    return LLVMGetUndef(kj_lltype(w, n->type));
}
LLVMValueRef kj_np_lower_random(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) { (void)m; (void)a; return later(w, n); }
LLVMValueRef kj_np_lower_fancy_index(kj_lw *w, kj_node *n) { return later(w, n); }
void kj_np_store_fancy(kj_lw *w, kj_node *target, LLVMValueRef v, const kj_type *vt) { (void)v; (void)vt; later(w, target); }
LLVMValueRef kj_np_lower_sorting(kj_lw *w, kj_node *n, const char *m, const kj_np_args *a) { (void)m; (void)a; return later(w, n); }
