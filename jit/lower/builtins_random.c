/* builtins_random: Python's random module in compiled code (builtins.h):
 * random(), uniform(a, b), randint(a, b) and seed(n), on the runtime's
 * per-thread xoshiro256** state, which NumPy's np.random in compiled code
 * shares, so one seed governs both. */
#include "jit/lower/builtins.h"

#include <stdio.h>
#include <string.h>

#define RANDOM_SUPPORTS "Compiled code supports random.random(), uniform(a, b), randint(a, b) and seed(n)."

/* One step of xoshiro256** on this thread's state, inline (the same
 * generator as kj_rt_random): a uniform double in [0, 1). */
static LLVMValueRef random_double(kj_lw *w) {
    LLVMBuilderRef b = w->b;
    LLVMValueRef st = kj_call(w, "kj_rt_rng_state", w->ptr, 0, NULL, NULL);
    LLVMValueRef decl = LLVMGetNamedFunction(w->mod, "kj_rt_rng_state");
    static const char *attrs[] = {"nounwind", "willreturn", "nofree", "nosync"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i])), 0));
    /* memory(none): the pointer is the same for every call on a thread */
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName("memory", 6), 0));
    LLVMValueRef p[4], s[4];
    for (int i = 0; i < 4; i++) {
        LLVMValueRef idx = LLVMConstInt(w->i64, (unsigned)i, 0);
        p[i] = LLVMBuildGEP2(b, w->i64, st, &idx, 1, "");
        s[i] = LLVMBuildLoad2(b, w->i64, p[i], "");
    }
#define ROTL(x, k) LLVMBuildOr(b, LLVMBuildShl(b, x, LLVMConstInt(w->i64, k, 0), ""), \
                               LLVMBuildLShr(b, x, LLVMConstInt(w->i64, 64 - (k), 0), ""), "")
    LLVMValueRef r = LLVMBuildMul(b, ROTL(LLVMBuildMul(b, s[1], LLVMConstInt(w->i64, 5, 0), ""), 7),
                                  LLVMConstInt(w->i64, 9, 0), "");
    LLVMValueRef t = LLVMBuildShl(b, s[1], LLVMConstInt(w->i64, 17, 0), "");
    s[2] = LLVMBuildXor(b, s[2], s[0], "");
    s[3] = LLVMBuildXor(b, s[3], s[1], "");
    s[1] = LLVMBuildXor(b, s[1], s[2], "");
    s[0] = LLVMBuildXor(b, s[0], s[3], "");
    s[2] = LLVMBuildXor(b, s[2], t, "");
    s[3] = ROTL(s[3], 45);
#undef ROTL
    for (int i = 0; i < 4; i++)
        LLVMBuildStore(b, s[i], p[i]);
    LLVMValueRef top = LLVMBuildUIToFP(b, LLVMBuildLShr(b, r, LLVMConstInt(w->i64, 11, 0), ""), w->f64, "");
    return LLVMBuildFMul(b, top, LLVMConstReal(w->f64, 0x1.0p-53), "random");
}

/* The arguments a random function takes: want of them, numbers, ints only
 * if ints; if not, why. */
static bool takes(int n, const kj_type *const *a, int want, bool ints, char *why, size_t why_size) {
    bool ok = n == want && kj_builtin_numbers(n, a, true);
    for (int i = 0; ok && ints && i < n; i++)
        ok = kj_is_intlike(a[i]);
    if (!ok)
        snprintf(why, why_size, RANDOM_SUPPORTS);
    return ok;
}

static const kj_type *random_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 0, false, why, why_size) ? KJ_F64 : NULL;
}

static LLVMValueRef random_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                 const kj_type *const *at) {
    (void)k, (void)n, (void)args, (void)at;
    return random_double(w);
}
KJ_BUILTIN(random_random, "random.random", random_type, random_lower, NULL);

static const kj_type *uniform_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, false, why, why_size) ? KJ_F64 : NULL;
}

static LLVMValueRef uniform_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                  const kj_type *const *at) {
    (void)k, (void)n;
    LLVMBuilderRef b = w->b;
    LLVMValueRef lo = kj_cast(w, args[0], at[0], KJ_F64), hi = kj_cast(w, args[1], at[1], KJ_F64);
    LLVMValueRef u = random_double(w);
    return LLVMBuildFAdd(b, lo, LLVMBuildFMul(b, LLVMBuildFSub(b, hi, lo, ""), u, ""), "");
}
KJ_BUILTIN(random_uniform, "random.uniform", uniform_type, uniform_lower, NULL);

static const kj_type *randint_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 2, true, why, why_size) ? KJ_I64 : NULL;
}

static LLVMValueRef randint_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args,
                                  const kj_type *const *at) {
    (void)k, (void)n;
    LLVMValueRef lo = kj_cast(w, args[0], at[0], KJ_I64), hi = kj_cast(w, args[1], at[1], KJ_I64);
    kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntSLT, hi, lo, ""), PyExc_ValueError, "empty range for randint()");
    return kj_call(w, "kj_rt_randint", w->i64, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){lo, hi});
}
KJ_BUILTIN(random_randint, "random.randint", randint_type, randint_lower, NULL);

static const kj_type *seed_type(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k;
    return takes(n, a, 1, true, why, why_size) ? kj_none() : NULL;
}

static LLVMValueRef seed_lower(kj_lw *w, const kj_callable *k, kj_node *n, LLVMValueRef *args, const kj_type *const *at) {
    (void)k, (void)n;
    LLVMValueRef s = kj_cast(w, args[0], at[0], KJ_I64);
    kj_call(w, "kj_rt_seed", w->vd, 1, (LLVMTypeRef[]){w->i64}, &s);
    return LLVMConstInt(w->i8, 0, 0);   /* None */
}
KJ_BUILTIN(random_seed, "random.seed", seed_type, seed_lower, NULL);

/* random's functions without an entry (builtins.h) */
static const kj_type *random_refused(const kj_callable *k, int n, const kj_type *const *a, char *why, size_t why_size) {
    (void)k, (void)n, (void)a;
    snprintf(why, why_size, RANDOM_SUPPORTS);
    return NULL;
}
KJ_BUILTIN(random_module, "random.", random_refused, NULL, NULL);
