/* stream_stores: see stream_stores.h. */
#include "jit/lower/stream_stores.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read by compiled code (a runtime symbol): the bytes a loop must touch
 * before it streams. Never, until kj_stream_init finds the cache's size. */
int64_t kj_stream_min_bytes = INT64_MAX;

/* The size in bytes of the CPU's largest cache, from Linux's sysfs; 0 if
 * unknown. (glibc's sysconf reports 320 MiB for this machine's 32 MiB L3.) */
static int64_t largest_cache_bytes(void) {
    int64_t best = 0;
    for (int i = 0; i < 16; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        long long v = 0;
        char unit = 0;
        int got = fscanf(f, "%lld%c", &v, &unit);
        fclose(f);
        if (got < 1)
            continue;
        int64_t bytes = v * (unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024 * 1024 * 1024 : 1);
        if (bytes > best)
            best = bytes;
    }
    return best;
}

static void find_threshold(void) {
    /* KILN_STREAM_MIN_BYTES sets the threshold (tests stream small arrays) */
    const char *env = getenv("KILN_STREAM_MIN_BYTES");
    if (env && *env) {
        kj_stream_min_bytes = strtoll(env, NULL, 10);
        return;
    }
    int64_t cache = largest_cache_bytes();
    kj_stream_min_bytes = cache > 0 ? cache / 2 : INT64_MAX;
}

void kj_stream_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_threshold);
}

bool kj_stream_possible(kj_lw *w) {
#if defined(__x86_64__)
    return strcmp(w->u->target->name, "cpu") == 0;
#else
    (void)w;
    return false;
#endif
}

LLVMValueRef kj_stream_wanted(kj_lw *w, LLVMValueRef bytes) {
    LLVMValueRef g = LLVMGetNamedGlobal(w->mod, "kj_stream_min_bytes");
    if (!g) {
        g = LLVMAddGlobal(w->mod, w->i64, "kj_stream_min_bytes");
        LLVMSetLinkage(g, LLVMExternalLinkage);
    }
    LLVMValueRef min = LLVMBuildLoad2(w->b, w->i64, g, "stream.min");
    return LLVMBuildICmp(w->b, LLVMIntSGE, bytes, min, "stream");
}

void kj_stream_assume_aligned(kj_lw *w, LLVMValueRef data) {
    unsigned id = LLVMLookupIntrinsicID("llvm.assume", 11);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(w->mod, id, NULL, 0);
    LLVMValueRef bundle_args[2] = {data, LLVMConstInt(w->i64, 64, 0)};
    LLVMOperandBundleRef bundle = LLVMCreateOperandBundle("align", 5, bundle_args, 2);
    LLVMValueRef yes = LLVMConstInt(w->i1, 1, 0);
    LLVMBuildCallWithOperandBundles(w->b, LLVMIntrinsicGetType(w->ctx, id, NULL, 0), fn, &yes, 1, &bundle, 1, "");
    LLVMDisposeOperandBundle(bundle);
}

/* The marker: an alias scope list of one scope that no access is declared
 * apart from, so it tells alias analysis nothing. (Declaring the loop's
 * loads apart from it would spare the vectorizer its overlap checks, but
 * scoped no-alias metadata holds for every execution of the accesses: a
 * loop re-running `x = x * 2 + 1` reads what it wrote before.) */
static LLVMMetadataRef marker(LLVMContextRef ctx) {
    LLVMMetadataRef domain_name = LLVMMDStringInContext2(ctx, "kiln.stream.domain", 18);
    LLVMMetadataRef scope_ops[2] = {LLVMMDStringInContext2(ctx, "kiln.stream", 11),
                                    LLVMMDNodeInContext2(ctx, &domain_name, 1)};
    LLVMMetadataRef scope = LLVMMDNodeInContext2(ctx, scope_ops, 2);
    return LLVMMDNodeInContext2(ctx, &scope, 1);
}

static unsigned scope_kind(LLVMContextRef ctx) { return LLVMGetMDKindIDInContext(ctx, "alias.scope", 11); }

void kj_stream_mark(kj_lw *w, LLVMValueRef store) {
    LLVMSetMetadata(store, scope_kind(w->ctx), LLVMMetadataAsValue(w->ctx, marker(w->ctx)));
}

void kj_stream_fence(kj_lw *w) { kj_call_intrinsic(w, "llvm.x86.sse.sfence", NULL, 0, NULL); }

void kj_stream_finish(LLVMModuleRef mod) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMValueRef mark = LLVMMetadataAsValue(ctx, marker(ctx));
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(mod);
    unsigned kind = scope_kind(ctx);
    LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0));
    LLVMValueRef nontemporal = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, &one, 1));
    unsigned nontemporal_kind = LLVMGetMDKindIDInContext(ctx, "nontemporal", 11);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!LLVMIsAStoreInst(in) || LLVMGetMetadata(in, kind) != mark)
                    continue;
                LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(in, 0));
                unsigned long long size = LLVMStoreSizeOfType(layout, t);
                /* x86's streaming stores: whole aligned vectors of 16-64 bytes */
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && size >= 16 && size <= 64 &&
                    (size & (size - 1)) == 0 && LLVMGetAlignment(in) >= size)
                    LLVMSetMetadata(in, nontemporal_kind, nontemporal);
            }
}
