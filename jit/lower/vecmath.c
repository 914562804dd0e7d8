/* vecmath: the vector versions of math calls, from glibc's libmvec.
 * Names follow the x86 vector function ABI glibc implements:
 * _ZGV<isa>N<lanes><v per argument>_<function>, with isa b (SSE4), d (AVX2)
 * or e (AVX-512). */
#include "jit/lower/vecmath.h"
#include "jit/core/target.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The functions glibc 2.35+ vectorizes for every isa, as float64 and (with
 * an f suffix) float32. */
static const char *const unary[] = {
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "cbrt",
};
static const char *const binary[] = {"atan2", "hypot", "pow"};

static bool listed(const char *fn, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], fn))
            return true;
    return false;
}

/* The isas the host runs, as vector widths in bits (0: none), learned once
 * per process (compiles hold the GIL). libmvec is loaded here too: the
 * engine loads it as well, but a cached object may be linked before. */
typedef struct {
    bool known, usable;
    int widths[3];
    char isa[3];
} host_isas;

static const host_isas *host(const kj_target *t) {
    static host_isas h;
    if (h.known)
        return &h;
    h.known = true;
    LLVMTargetMachineRef tm = t->target_machine ? t->target_machine(t) : NULL;
    if (!tm || !dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL))
        return &h;
    char *triple = LLVMGetTargetMachineTriple(tm), *features = LLVMGetTargetMachineFeatureString(tm);
    /* these names are x86's; glibc's SSE versions run on any x86-64 */
    bool x86 = !strncmp(triple, "x86_64", 6);
    const struct { char isa; int width; bool has; } all[3] = {
        {'b', 128, x86},
        {'d', 256, x86 && strstr(features, "+avx2")},
        {'e', 512, x86 && strstr(features, "+avx512f")},
    };
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (all[i].has) {
            h.isa[n] = all[i].isa;
            h.widths[n++] = all[i].width;
        }
    h.usable = n > 0;
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(features);
    return &h;
}

/* Adds f to the module's llvm.compiler.used, so the declaration survives
 * until the vectorizer looks for it (unused declarations are deleted
 * early in the pipeline). */
static void keep(kj_lw *w, LLVMValueRef f) {
    LLVMValueRef old = LLVMGetNamedGlobal(w->mod, "llvm.compiler.used");
    int count = old ? LLVMGetNumOperands(LLVMGetInitializer(old)) : 0;
    LLVMValueRef *items = malloc(sizeof *items * (size_t)(count + 1));
    if (!items)
        return;   /* the call then stays scalar */
    unsigned n = 0;
    for (int i = 0; i < count; i++)
        items[n++] = LLVMGetOperand(LLVMGetInitializer(old), (unsigned)i);
    if (old)
        LLVMDeleteGlobal(old);
    items[n++] = f;
    LLVMTypeRef at = LLVMArrayType2(w->ptr, n);
    LLVMValueRef g = LLVMAddGlobal(w->mod, at, "llvm.compiler.used");
    LLVMSetInitializer(g, LLVMConstArray2(w->ptr, items, n));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
    free(items);
}

/* Whether fn, on floats of `bits`, has libmvec versions the host runs; the
 * float type into *ft. */
static const host_isas *vectorizable(kj_lw *w, const char *fn, int bits, int nargs, LLVMTypeRef *ft) {
    const kj_target *t = w->u->target;
    if (strcmp(t->name, "cpu") != 0 || (bits != 32 && bits != 64))
        return NULL;
    if (!(nargs == 1 ? listed(fn, unary, sizeof unary / sizeof *unary)
                     : nargs == 2 && listed(fn, binary, sizeof binary / sizeof *binary)))
        return NULL;
    const host_isas *h = host(t);
    if (!h->usable)
        return NULL;
    *ft = bits == 32 ? LLVMFloatTypeInContext(w->ctx) : LLVMDoubleTypeInContext(w->ctx);
    return h;
}

/* The declaration of libmvec's fn for isa at `lanes` lanes, kept alive. */
static LLVMValueRef vector_function(kj_lw *w, char isa, unsigned lanes, const char *fn, int bits, int nargs,
                                    LLVMTypeRef ft, char *name, size_t len) {
    snprintf(name, len, "_ZGV%cN%u%s_%s%s", isa, lanes, nargs == 1 ? "v" : "vv", fn, bits == 32 ? "f" : "");
    LLVMTypeRef vt = LLVMVectorType(ft, lanes);
    LLVMValueRef vf = LLVMGetNamedFunction(w->mod, name);
    if (!vf) {
        vf = LLVMAddFunction(w->mod, name, LLVMFunctionType(vt, (LLVMTypeRef[]){vt, vt}, (unsigned)nargs, 0));
        keep(w, vf);
    }
    return vf;
}

/* The call site's "vector-function-abi-variant": what the vectorizer may
 * call instead, and that it reads no memory (the libm function may set
 * errno; array expressions never read it, and a call that touches memory
 * is not widened). */
static void offer(kj_lw *w, LLVMValueRef call, const char *variants, size_t len) {
    const char *key = "vector-function-abi-variant";
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateStringAttribute(w->ctx, key, (unsigned)strlen(key), variants, (unsigned)len));
    unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(w->ctx, memory, 0));
}

void kj_np_vector_variants(kj_lw *w, LLVMValueRef call, const char *fn, int bits, int nargs) {
    LLVMTypeRef ft;
    const host_isas *h = vectorizable(w, fn, bits, nargs, &ft);
    if (!h)
        return;
    size_t len;
    const char *scalar = LLVMGetValueName2(LLVMGetCalledValue(call), &len);
    char variants[512] = "", name[64];
    size_t used = 0;
    for (int i = 0; i < 3 && h->widths[i]; i++) {
        unsigned lanes = (unsigned)(h->widths[i] / bits);
        vector_function(w, h->isa[i], lanes, fn, bits, nargs, ft, name, sizeof name);
        /* the mangled part names the scalar callee, the parenthesis the symbol */
        int k = snprintf(variants + used, sizeof variants - used, "%s_ZGV%cN%u%s_%.*s(%s)", used ? "," : "",
                         h->isa[i], lanes, nargs == 1 ? "v" : "vv", (int)len, scalar, name);
        if (k < 0 || (size_t)k >= sizeof variants - used)
            return;
        used += (size_t)k;
    }
    offer(w, call, variants, used);
}

/* kiln.simd.<fn>[f]: one element through libmvec's version at isa's
 * width (x in every lane, lane 0 kept). Never inlined, so that the
 * vectorizer sees a scalar call it may widen to that same version. */
static LLVMValueRef one_lane(kj_lw *w, char isa, unsigned lanes, const char *fn, int bits, int nargs,
                             LLVMTypeRef ft) {
    char name[64], vname[64];
    snprintf(name, sizeof name, "kiln.simd.%s%s", fn, bits == 32 ? "f" : "");
    LLVMValueRef f = LLVMGetNamedFunction(w->mod, name);
    if (f)
        return f;
    LLVMValueRef vf = vector_function(w, isa, lanes, fn, bits, nargs, ft, vname, sizeof vname);
    LLVMTypeRef vt = LLVMVectorType(ft, lanes);
    f = LLVMAddFunction(w->mod, name, LLVMFunctionType(ft, (LLVMTypeRef[]){ft, ft}, (unsigned)nargs, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    const char *attrs[] = {"noinline", "nounwind", "willreturn", "nosync", "nofree"};
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i])), 0));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName("memory", 6), 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(w->ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(w->ctx, f, "entry"));
    LLVMValueRef args[2];
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(LLVMInt32TypeInContext(w->ctx), lanes));
    for (int i = 0; i < nargs; i++) {
        LLVMValueRef one = LLVMBuildInsertElement(b, LLVMGetPoison(vt), LLVMGetParam(f, (unsigned)i),
                                                  LLVMConstInt(LLVMInt32TypeInContext(w->ctx), 0, 0), "");
        args[i] = LLVMBuildShuffleVector(b, one, LLVMGetPoison(vt), zeros, "");
    }
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(vf), vf, args, (unsigned)nargs, "");
    LLVMBuildRet(b, LLVMBuildExtractElement(b, r, LLVMConstInt(LLVMInt32TypeInContext(w->ctx), 0, 0), ""));
    LLVMDisposeBuilder(b);
    return f;
}

LLVMValueRef kj_np_simd_math(kj_lw *w, LLVMValueRef call, const char *fn, int bits, int nargs) {
    LLVMTypeRef ft;
    const host_isas *h = vectorizable(w, fn, bits, nargs, &ft);
    if (!h)
        return call;
    /* one isa, the widest below AVX-512 (LLVM prefers 256-bit vectors even
     * where AVX-512 runs): glibc's versions for different isas may round
     * differently */
    int i = h->widths[1] == 256 ? 1 : 0;
    unsigned lanes = (unsigned)(h->widths[i] / bits);
    LLVMValueRef f = one_lane(w, h->isa[i], lanes, fn, bits, nargs, ft);
    LLVMValueRef args[2];
    for (int k = 0; k < nargs; k++)
        args[k] = LLVMGetArgOperand(call, (unsigned)k);
    LLVMValueRef lane = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(f), f, args, (unsigned)nargs, "");
    LLVMInstructionEraseFromParent(call);
    char variants[160], vname[64];
    vector_function(w, h->isa[i], lanes, fn, bits, nargs, ft, vname, sizeof vname);
    int k = snprintf(variants, sizeof variants, "_ZGV%cN%u%s_kiln.simd.%s%s(%s)", h->isa[i], lanes,
                     nargs == 1 ? "v" : "vv", fn, bits == 32 ? "f" : "", vname);
    if (k > 0 && (size_t)k < sizeof variants)
        offer(w, lane, variants, (size_t)k);
    return lane;
}
