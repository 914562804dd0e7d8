/* loop_hints: what a loop's back edge tells LLVM's vectorizer and
 * unroller (llvm.loop metadata), for the loops lowering builds (lower.h). */
#include "jit/lower/lower.h"

#include <string.h>

static LLVMMetadataRef md_str(kj_lw *w, const char *s) { return LLVMMDStringInContext2(w->ctx, s, strlen(s)); }

/* Sets the back edge's !llvm.loop: a node naming itself, then the hints. */
static void hint_loop_n(kj_lw *w, LLVMValueRef back, int n, const LLVMMetadataRef *hints) {
    LLVMMetadataRef self = LLVMTemporaryMDNode(w->ctx, NULL, 0);
    LLVMMetadataRef ops[3] = {self, hints[0], n > 1 ? hints[1] : NULL};
    LLVMMetadataRef id = LLVMMDNodeInContext2(w->ctx, ops, (size_t)n + 1);
    LLVMMetadataReplaceAllUsesWith(self, id);
    LLVMSetMetadata(back, LLVMGetMDKindIDInContext(w->ctx, "llvm.loop", 9), LLVMMetadataAsValue(w->ctx, id));
}

static LLVMMetadataRef no_vectorizing(kj_lw *w) {   /* also no interleaving */
    LLVMMetadataRef off[2] = {md_str(w, "llvm.loop.vectorize.enable"), LLVMValueAsMetadata(LLVMConstInt(w->i1, 0, 0))};
    return LLVMMDNodeInContext2(w->ctx, off, 2);
}

static LLVMMetadataRef no_unrolling(kj_lw *w) {
    LLVMMetadataRef off = md_str(w, "llvm.loop.unroll.disable");
    return LLVMMDNodeInContext2(w->ctx, &off, 1);
}

/* The scalar loop left after vectorizing runs fewer iterations than one
 * vector step: not unrolled (unrolled, it was much of what an array
 * expression's ufunc loops compiled to). */
static void hint_vector_loop(kj_lw *w, LLVMValueRef back, bool one_step) {
    LLVMMetadataRef then[2] = {md_str(w, "llvm.loop.vectorize.followup_epilogue"), no_unrolling(w)};
    LLVMMetadataRef once[2] = {md_str(w, "llvm.loop.interleave.count"), LLVMValueAsMetadata(LLVMConstInt(w->i32, 1, 0))};
    LLVMMetadataRef hints[2] = {LLVMMDNodeInContext2(w->ctx, then, 2), LLVMMDNodeInContext2(w->ctx, once, 2)};
    hint_loop_n(w, back, one_step ? 2 : 1, hints);
}

void kj_loop_keep_scalar_edge(kj_lw *w, LLVMValueRef back) {
    LLVMMetadataRef hint = no_vectorizing(w);
    hint_loop_n(w, back, 1, &hint);
}

void kj_loop_keep_rolled_edge(kj_lw *w, LLVMValueRef back) {
    LLVMMetadataRef hints[2] = {no_vectorizing(w), no_unrolling(w)};
    hint_loop_n(w, back, 2, hints);
}

void kj_loop_vector_edge(kj_lw *w, LLVMValueRef back) { hint_vector_loop(w, back, false); }

void kj_loop_one_step_edge(kj_lw *w, LLVMValueRef back) { hint_vector_loop(w, back, true); }
