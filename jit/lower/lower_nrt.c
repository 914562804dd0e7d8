/* lower_nrt: reference counting in the generated code (the rules are in
 * lower_nrt.h). Increments are inlined (an owner's low bit says whether it
 * is a counted block; arrays passed in from Python never are, so their
 * cost is one test); decrements call the runtime, which may free. */
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/nrt.h"

#include <stdlib.h>
#include <string.h>

typedef struct kj_nrt_fn {
    LLVMValueRef *all;          /* every temporary slot (ptr allocas) */
    int nall, cap_all;
    LLVMValueRef *live;         /* the slots of statements being lowered */
    int nlive, cap_live;
    LLVMBasicBlockRef cleanup;
    LLVMValueRef status;        /* i32 alloca */
} kj_nrt_fn;

static bool active(kj_lw *w) { return w->nrt != NULL; }

bool kj_nrt_host_only(kj_lw *w, const kj_node *n, const char *what) {
    if (strcmp(w->u->target->name, "cpu") == 0)
        return true;
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, n ? n->line : 0, n ? n->col : 0,
            "Allocate on the host and pass the arrays in.", "%s is not supported on the %s target", what,
            w->u->target->name);
    return false;
}

bool kj_nrt_counted(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_ARRAY:
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET: return true;
    case KJ_T_OPTIONAL: return kj_nrt_counted(t->elem);
    case KJ_T_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (kj_nrt_counted(t->elems[i]))
                return true;
        return false;
    default: return false;
    }
}

typedef void (*owner_fn)(kj_lw *w, LLVMValueRef owner, void *ctx);

/* Calls fn on every owner inside v (NULL owners for absent optionals). */
static void each_owner(kj_lw *w, LLVMValueRef v, const kj_type *t, LLVMValueRef present,
                       owner_fn fn, void *ctx) {
    switch (t->kind) {
    case KJ_T_ARRAY:
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET: {
        LLVMValueRef o = t->kind == KJ_T_ARRAY ? LLVMBuildExtractValue(w->b, v, 0, "owner") : v;
        if (present)
            o = LLVMBuildSelect(w->b, present, o, LLVMConstNull(w->ptr), "");
        fn(w, o, ctx);
        return;
    }
    case KJ_T_OPTIONAL: {
        if (!kj_nrt_counted(t->elem))
            return;
        LLVMValueRef p = LLVMBuildExtractValue(w->b, v, 0, "");
        if (present)
            p = LLVMBuildAnd(w->b, p, present, "");
        each_owner(w, LLVMBuildExtractValue(w->b, v, 1, ""), t->elem, p, fn, ctx);
        return;
    }
    case KJ_T_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (kj_nrt_counted(t->elems[i]))
                each_owner(w, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i], present,
                           fn, ctx);
        return;
    default: return;
    }
}

/* Branches on whether owner is a block (tagged): only those are counted.
 * The builder is left in the block for a block owner; returns the block to
 * branch to afterwards. Inline, so that LLVM drops the test and the count
 * for an owner it knows (a gufunc's core arrays have none). */
static LLVMBasicBlockRef if_block_owner(kj_lw *w, LLVMValueRef owner, const char *name) {
    LLVMValueRef bits = LLVMBuildPtrToInt(w->b, owner, w->i64, "");
    LLVMValueRef tagged = LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildAnd(w->b, bits, LLVMConstInt(w->i64, 1, 0), ""),
                                        LLVMConstInt(w->i64, 0, 0), "");
    LLVMBasicBlockRef yes = kj_new_bb(w, name), done = kj_new_bb(w, "owner.done");
    LLVMBuildCondBr(w->b, tagged, yes, done);
    LLVMPositionBuilderAtEnd(w->b, yes);
    return done;
}

static void incref_owner(kj_lw *w, LLVMValueRef owner, void *ctx) {
    (void)ctx;
    LLVMBasicBlockRef done = if_block_owner(w, owner, "incref");
    LLVMValueRef minus1 = LLVMConstInt(w->i64, (unsigned long long)-1, 1);
    LLVMValueRef count = LLVMBuildGEP2(w->b, w->i8, owner, &minus1, 1, "refcnt");
    LLVMBuildAtomicRMW(w->b, LLVMAtomicRMWBinOpAdd, count, LLVMConstInt(w->i64, 1, 0),
                       LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

static void decref_owner(kj_lw *w, LLVMValueRef owner, void *ctx) {
    (void)ctx;
    LLVMBasicBlockRef done = if_block_owner(w, owner, "decref");
    kj_call(w, "kj_nrt_decref", w->vd, 1, (LLVMTypeRef[]){w->ptr}, &owner);
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

void kj_nrt_incref_value(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    if (active(w))
        each_owner(w, v, t, NULL, incref_owner, NULL);
}

void kj_nrt_decref_value(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    if (active(w))
        each_owner(w, v, t, NULL, decref_owner, NULL);
}

void kj_nrt_replace(kj_lw *w, LLVMValueRef slot, LLVMValueRef v, const kj_type *t) {
    if (!active(w) || !kj_nrt_counted(t))
        return;
    kj_nrt_incref_value(w, v, t);
    kj_nrt_decref_value(w, LLVMBuildLoad2(w->b, kj_lltype(w, t), slot, "old"), t);
}

/* An alloca in the entry block, set to zero there (so the cleanup block
 * may read it on any path). */
static LLVMValueRef zeroed_slot(kj_lw *w, LLVMTypeRef t, const char *name) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(w->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(w->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMBuildStore(b, LLVMConstNull(t), a);
    LLVMDisposeBuilder(b);
    return a;
}

static void push(LLVMValueRef **arr, int *n, int *cap, LLVMValueRef v) {
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 16;
        LLVMValueRef *a = realloc(*arr, sizeof *a * (size_t)c);
        if (!a)
            return;   /* out of memory while compiling: the slot is still zero-initialized */
        *arr = a;
        *cap = c;
    }
    (*arr)[(*n)++] = v;
}

static void temp_owner(kj_lw *w, LLVMValueRef owner, void *ctx) {
    (void)ctx;
    kj_nrt_fn *s = w->nrt;
    LLVMValueRef slot = zeroed_slot(w, w->ptr, "temp");
    /* a loop may come back here before the statement ends */
    decref_owner(w, LLVMBuildLoad2(w->b, w->ptr, slot, ""), NULL);
    LLVMBuildStore(w->b, owner, slot);
    push(&s->all, &s->nall, &s->cap_all, slot);
    push(&s->live, &s->nlive, &s->cap_live, slot);
}

LLVMValueRef kj_nrt_temp(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    if (active(w))
        each_owner(w, v, t, NULL, temp_owner, NULL);
    return v;
}

int kj_nrt_mark(kj_lw *w) { return active(w) ? w->nrt->nlive : 0; }

void kj_nrt_release(kj_lw *w, int mark) {
    if (!active(w))
        return;
    kj_nrt_fn *s = w->nrt;
    for (; s->nlive > mark; s->nlive--) {
        LLVMValueRef slot = s->live[s->nlive - 1];
        decref_owner(w, LLVMBuildLoad2(w->b, w->ptr, slot, ""), NULL);
        LLVMBuildStore(w->b, LLVMConstNull(w->ptr), slot);
    }
}

/* Whether local i holds a reference of its own: every counted local but an
 * argument the body never rebinds, which borrows the caller's for the whole
 * call (no increment at entry, no decrement at exit: less for LLVM to
 * compile, and nothing to do per call). */
static bool owns_reference(kj_function *f, int i) {
    const kj_type *t = f->locals[i].type;
    if (!t || !kj_nrt_counted(t))
        return false;
    return i >= f->nargs || kj_binds_in_block(&f->body, i);
}

void kj_nrt_function_begin(kj_lw *w) {
    w->nrt = NULL;
    if (strcmp(w->u->target->name, "cpu") != 0)
        return;
    kj_nrt_fn *s = calloc(1, sizeof *s);
    if (!s)
        return;
    w->nrt = s;
    s->status = zeroed_slot(w, w->i32, "status");
    s->cleanup = kj_new_bb(w, "cleanup");
    kj_function *f = w->f;
    for (int i = 0; i < f->nlocals; i++) {
        if (!owns_reference(f, i))
            continue;
        const kj_type *t = f->locals[i].type;
        if (i < f->nargs)   /* the local owns a reference of its own */
            kj_nrt_incref_value(w, LLVMBuildLoad2(w->b, kj_lltype(w, t), w->slots[i], ""), t);
        else
            LLVMBuildStore(w->b, LLVMConstNull(kj_lltype(w, t)), w->slots[i]);
    }
}

void kj_nrt_ret(kj_lw *w, LLVMValueRef status) {
    if (!active(w)) {
        LLVMBuildRet(w->b, status);
        return;
    }
    LLVMBuildStore(w->b, status, w->nrt->status);
    LLVMBuildBr(w->b, w->nrt->cleanup);
}

void kj_nrt_function_end(kj_lw *w) {
    kj_nrt_fn *s = w->nrt;
    if (!s)
        return;
    LLVMPositionBuilderAtEnd(w->b, s->cleanup);
    LLVMSetCurrentDebugLocation2(w->b, NULL);
    kj_at(w, &(kj_node){.line = w->f->first_line});
    kj_function *f = w->f;
    for (int i = 0; i < f->nlocals; i++)
        if (owns_reference(f, i))
            kj_nrt_decref_value(w, LLVMBuildLoad2(w->b, kj_lltype(w, f->locals[i].type), w->slots[i], ""),
                                f->locals[i].type);
    for (int i = 0; i < s->nall; i++)
        decref_owner(w, LLVMBuildLoad2(w->b, w->ptr, s->all[i], ""), NULL);
    LLVMBuildRet(w->b, LLVMBuildLoad2(w->b, w->i32, s->status, ""));
    free(s->all);
    free(s->live);
    free(s);
    w->nrt = NULL;
}
