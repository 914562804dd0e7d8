/* engine: optimization and ORC. One LLJIT per process, created on the first
 * compile; each compile adds one module to its main JITDylib. Compiled code
 * is never removed (dispatchers keep their specializations for the life of
 * the process). Guarded by the GIL: compiles run with it held. */
#include "jit/engine.h"
#include "jit/cache.h"
#include "jit/nrt.h"
#include "jit/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "profiler/profiler.h"

static LLVMOrcLLJITRef jit;

void kj_llvm_init(void) {
    static int done;
    if (done)
        return;
    done = 1;
    /* glibc's vector math (libmvec): loops of llvm.exp/sin/log... widen to
     * its SIMD functions, found by the JIT's process search once loaded */
    bool mvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL) != NULL;
    const char *args[] = {"kiln", "-pass-remarks=loop-vectorize",
                          "-pass-remarks-missed=loop-vectorize",
                          "-pass-remarks-analysis=loop-vectorize", "-vector-library=LIBMVEC-X86"};
    LLVMParseCommandLineOptions(mvec ? 5 : 4, args, NULL);
}

/* Fills e from an LLVMErrorRef, consuming it. */
static int llvm_fail(kj_error *e, LLVMErrorRef err, const char *what) {
    char *msg = LLVMGetErrorMessage(err);
    kj_fail(e, KJ_ERR_INTERNAL, 0, 0, NULL, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

static int create_jit(kj_unit *u) {
    if (jit)
        return 0;
    kj_llvm_init();   /* libmvec loaded before any object (a cached one too) is linked */
    const kj_target *t = kj_target_cpu();
    if (!t->target_machine(t))
        return kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "LLVM has no target for this CPU");
    /* a second target machine for ORC's own use, owned by the builder */
    LLVMTargetMachineRef base = t->target_machine(t);
    char *cpu = LLVMGetTargetMachineCPU(base), *features = LLVMGetTargetMachineFeatureString(base);
    char *triple = LLVMGetTargetMachineTriple(base);
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        LLVMGetTargetMachineTarget(base), triple, cpu, features, LLVMCodeGenLevelAggressive,
        LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit, builder);
    if (err) {
        jit = NULL;
        return llvm_fail(&u->err, err, "cannot start the JIT");
    }
    LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(jit);
    /* the runtime, by address: _kiln.so is loaded RTLD_LOCAL, so dlsym
     * would not find it */
    int n = 0, n_core = 0;
    while (kj_runtime_symbols[n_core].name)
        n_core++;
    while (kj_nrt_symbols[n].name)
        n++;
    n += n_core;
    LLVMOrcCSymbolMapPair pairs[n];
    for (int i = 0; i < n; i++) {
        const kj_symbol *sym = i < n_core ? &kj_runtime_symbols[i] : &kj_nrt_symbols[i - n_core];
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, sym->name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)sym->addr;
        pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    err = LLVMOrcJITDylibDefine(dylib, LLVMOrcAbsoluteSymbols(pairs, (size_t)n));
    if (err)
        return llvm_fail(&u->err, err, "cannot define the runtime symbols");
    /* libm and libc from the process */
    LLVMOrcDefinitionGeneratorRef gen;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(jit),
                                                               NULL, NULL);
    if (err)
        return llvm_fail(&u->err, err, "cannot search the process for symbols");
    LLVMOrcJITDylibAddGenerator(dylib, gen);
    return 0;
}

/* ---- remarks ---- */

typedef struct {
    PyObject *list;
} remark_sink;

/* "file:line:col: message" -> dict {line, kind, message} */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    remark_sink *sink = opaque;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSRemark || !sink->list)
        return;
    char *desc = LLVMGetDiagInfoDescription(info);
    const char *msg = desc;
    long line = 0;
    /* skip "file:" then read "line:col: " (the file name may hold ':' only
     * in odd cases; take the last "N:N: " before the message) */
    for (const char *p = desc; *p; p++) {
        long l, c;
        int used = 0;
        if (*p == ':' && sscanf(p, ":%ld:%ld: %n", &l, &c, &used) == 2 && used > 0) {
            line = l;
            msg = p + used;
            break;
        }
    }
    /* the callback sees every pass's remarks once any is enabled: keep the
     * loop vectorizer's, which are the ones the notebook explains */
    if (strncmp(msg, "vectorized loop", 15) != 0 && strncmp(msg, "loop not vectorized", 19) != 0 &&
        strncmp(msg, "the cost-model indicates", 24) != 0) {
        LLVMDisposeMessage(desc);
        return;
    }
    const char *kind = strncmp(msg, "vectorized loop", 15) == 0        ? "vectorized"
                       : strncmp(msg, "loop not vectorized:", 20) == 0 ? "analysis"
                                                                       : "missed";
    PyObject *d = Py_BuildValue("{s:l,s:s,s:s}", "line", line, "kind", kind, "message", msg);
    if (d) {
        PyList_Append(sink->list, d);
        Py_DECREF(d);
    }
    PyErr_Clear();
    LLVMDisposeMessage(desc);
}

int kj_engine_finish(kj_unit *u, LLVMOrcThreadSafeContextRef tsc, const char *entry_name,
                     kj_engine_out *out) {
    memset(out, 0, sizeof *out);
    LLVMModuleRef mod = u->mod;
    u->mod = NULL;
    int rc = -1;
    remark_sink sink = {.list = PyList_New(0)};
    char *msg = NULL;
    if (create_jit(u) < 0 || !sink.list)
        goto dispose;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "internal: Kiln made invalid LLVM IR: %.400s", msg);
        LLVMDisposeMessage(msg);
        goto dispose;
    }
    LLVMDisposeMessage(msg);
    uint64_t t0 = kp_now_ns();
    LLVMContextSetDiagnosticHandler(u->ctx, on_diagnostic, &sink);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
    /* O2, not O3: it vectorizes the same loops (both run the loop and SLP
     * vectorizers) and the bench's steady times do not move, but it costs
     * about a quarter less optimization time; what O3 adds (aggressive
     * unswitching and inlining, argument promotion) did not pay on the
     * course's workloads (bench/jit_vs_numba.py) */
    LLVMErrorRef err = LLVMRunPasses(mod, "default<O2>", u->target->target_machine(u->target), opts);
    LLVMDisposePassBuilderOptions(opts);
    LLVMContextSetDiagnosticHandler(u->ctx, NULL, NULL);
    if (err) {
        llvm_fail(&u->err, err, "optimization failed");
        goto dispose;
    }
    out->optimize_ns = kp_now_ns() - t0;
    char *ir = LLVMPrintModuleToString(mod);
    out->ir = strdup(ir);
    LLVMDisposeMessage(ir);
    /* line tables served the remarks; machine code does not need them */
    LLVMStripModuleDebugInfo(mod);
    t0 = kp_now_ns();
    if (u->cache_object) {   /* cache=True: one object file, also written to disk (cache.c) */
        LLVMMemoryBufferRef obj = kj_cache_emit(u, mod);
        if (!obj)
            goto dispose;
        err = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), obj);
    } else {
        LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
        mod = NULL;
        err = LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm);
    }
    if (err) {
        llvm_fail(&u->err, err, "cannot add the module to the JIT");
        goto dispose;
    }
    LLVMOrcExecutorAddress addr = 0;
    err = LLVMOrcLLJITLookup(jit, &addr, entry_name);
    if (err) {
        llvm_fail(&u->err, err, "machine code generation failed");
        goto dispose;
    }
    out->codegen_ns = kp_now_ns() - t0;
    out->entry = (void *)(uintptr_t)addr;
    out->remarks = sink.list;
    sink.list = NULL;
    rc = 0;
dispose:
    if (mod)
        LLVMDisposeModule(mod);
    LLVMOrcDisposeThreadSafeContext(tsc);
    Py_XDECREF(sink.list);
    if (rc < 0) {
        free(out->ir);
        out->ir = NULL;
    }
    return rc;
}

int kj_engine_define_absolute(kj_unit *u, const char *name, void *addr) {
    if (create_jit(u) < 0)
        return -1;
    LLVMOrcCSymbolMapPair pair = {
        .Name = LLVMOrcLLJITMangleAndIntern(jit, name),
        .Sym = {.Address = (LLVMOrcExecutorAddress)(uintptr_t)addr,
                .Flags = {.GenericFlags = LLVMJITSymbolGenericFlagsExported, .TargetFlags = 0}},
    };
    LLVMErrorRef err = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), LLVMOrcAbsoluteSymbols(&pair, 1));
    return err ? llvm_fail(&u->err, err, "cannot define a symbol for cached code") : 0;
}

int kj_engine_add_object(kj_unit *u, LLVMMemoryBufferRef obj, const char *entry_name, void **entry) {
    if (create_jit(u) < 0) {
        LLVMDisposeMemoryBuffer(obj);
        return -1;
    }
    LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), obj);
    if (err)
        return llvm_fail(&u->err, err, "cannot add the cached object file");
    LLVMOrcExecutorAddress addr = 0;
    if ((err = LLVMOrcLLJITLookup(jit, &addr, entry_name)))
        return llvm_fail(&u->err, err, "cannot link the cached object file");
    *entry = (void *)(uintptr_t)addr;
    return 0;
}

char *kj_engine_asm(const char *ir) {
    const kj_target *t = kj_target_cpu();
    LLVMTargetMachineRef tm = t->target_machine(t);
    if (!tm) {
        PyErr_SetString(PyExc_RuntimeError, "LLVM has no target for this CPU");
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "kiln");
    LLVMModuleRef mod = NULL;
    char *msg = NULL, *result = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
        PyErr_Format(PyExc_RuntimeError, "cannot read back the IR: %s", msg);
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return NULL;
    }
    LLVMMemoryBufferRef out = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &out)) {
        PyErr_Format(PyExc_RuntimeError, "cannot emit assembly: %s", msg);
        LLVMDisposeMessage(msg);
    } else {
        size_t n = LLVMGetBufferSize(out);
        result = malloc(n + 1);
        if (result) {
            memcpy(result, LLVMGetBufferStart(out), n);
            result[n] = 0;
        }
        LLVMDisposeMemoryBuffer(out);
    }
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return result;
}
