/* cfg_loops: whether any function of a module has a cycle in its control
 * flow graph (a loop), found by a depth-first search for a back edge: an
 * edge to a block that is still on the search's path. */
#include "jit/lower/cfg_loops.h"

#include <stdint.h>
#include <stdlib.h>

enum { UNSEEN, ON_PATH, FINISHED };

/* The state of each block, in an open-addressed table keyed by the block's
 * address (LLVM gives blocks no index). */
typedef struct {
    LLVMBasicBlockRef *keys;
    unsigned char *state;
    size_t mask;
} block_states;

static unsigned char *state_of(block_states *s, LLVMBasicBlockRef bb) {
    size_t i = ((uintptr_t)bb >> 4) * 0x9E3779B97F4A7C15u & s->mask;
    while (s->keys[i] && s->keys[i] != bb)
        i = (i + 1) & s->mask;
    s->keys[i] = bb;
    return &s->state[i];
}

typedef struct {
    LLVMBasicBlockRef bb;
    unsigned next_successor;
} frame;

/* 1 if fn has a loop, 0 if not, -1 if out of memory. */
static int function_has_loop(LLVMValueRef fn) {
    size_t nblocks = LLVMCountBasicBlocks(fn), size = 16;
    while (size < 2 * nblocks)
        size *= 2;
    block_states s = {calloc(size, sizeof *s.keys), calloc(size, 1), size - 1};
    frame *path = malloc(nblocks * sizeof *path);   /* a block is on the path at most once */
    int found = -1;
    if (!s.keys || !s.state || !path)
        goto out;
    found = 0;
    size_t depth = 0;
    path[depth++] = (frame){LLVMGetEntryBasicBlock(fn), 0};
    *state_of(&s, path[0].bb) = ON_PATH;
    while (depth > 0 && !found) {
        frame *top = &path[depth - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(top->bb);
        if (!term || top->next_successor >= LLVMGetNumSuccessors(term)) {
            *state_of(&s, top->bb) = FINISHED;
            depth--;
            continue;
        }
        LLVMBasicBlockRef succ = LLVMGetSuccessor(term, top->next_successor++);
        unsigned char *st = state_of(&s, succ);
        if (*st == ON_PATH)
            found = 1;
        else if (*st == UNSEEN) {
            *st = ON_PATH;
            path[depth++] = (frame){succ, 0};
        }
    }
out:
    free(s.keys);
    free(s.state);
    free(path);
    return found;
}

bool kj_module_has_loops(LLVMModuleRef mod) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && function_has_loop(fn) != 0)
            return true;   /* out of memory counts as a loop: the full code generator then */
    return false;
}
