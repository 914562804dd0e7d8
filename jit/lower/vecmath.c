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

void kj_np_vector_variants(kj_lw *w, LLVMValueRef call, const char *fn, int bits, int nargs) {
    const kj_target *t = w->u->target;
    if (strcmp(t->name, "cpu") != 0 || (bits != 32 && bits != 64))
        return;
    if (!(nargs == 1 ? listed(fn, unary, sizeof unary / sizeof *unary)
                     : nargs == 2 && listed(fn, binary, sizeof binary / sizeof *binary)))
        return;
    const host_isas *h = host(t);
    if (!h->usable)
        return;
    LLVMTypeRef ft = bits == 32 ? LLVMFloatTypeInContext(w->ctx) : LLVMDoubleTypeInContext(w->ctx);
    size_t len;
    const char *scalar = LLVMGetValueName2(LLVMGetCalledValue(call), &len);
    char variants[512] = "", name[64];
    size_t used = 0;
    for (int i = 0; i < 3 && h->widths[i]; i++) {
        unsigned lanes = (unsigned)(h->widths[i] / bits);
        snprintf(name, sizeof name, "_ZGV%cN%u%s_%s%s", h->isa[i], lanes, nargs == 1 ? "v" : "vv", fn,
                 bits == 32 ? "f" : "");
        LLVMTypeRef vt = LLVMVectorType(ft, lanes);
        LLVMValueRef vf = LLVMGetNamedFunction(w->mod, name);
        if (!vf) {
            vf = LLVMAddFunction(w->mod, name, LLVMFunctionType(vt, (LLVMTypeRef[]){vt, vt}, (unsigned)nargs, 0));
            keep(w, vf);
        }
        /* the mangled part names the scalar callee, the parenthesis the symbol */
        int k = snprintf(variants + used, sizeof variants - used, "%s_ZGV%cN%u%s_%.*s(%s)", used ? "," : "",
                         h->isa[i], lanes, nargs == 1 ? "v" : "vv", (int)len, scalar, name);
        if (k < 0 || (size_t)k >= sizeof variants - used)
            return;
        used += (size_t)k;
    }
    const char *key = "vector-function-abi-variant";
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateStringAttribute(w->ctx, key, (unsigned)strlen(key), variants, (unsigned)used));
    /* the libm function may set errno; array expressions never read it, and
     * a call that touches memory is not widened */
    unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(w->ctx, memory, 0));
}
