/* engine: optimization and ORC. One LLJIT per process, created on the first
 * compile; each compile adds one module to its main JITDylib. Compiled code
 * is never removed (dispatchers keep their specializations for the life of
 * the process). Guarded by the GIL: compiles run with it held, but for
 * LLVM's optimization and machine code (leave_python). */
#include "jit/engine/engine.h"
#include "jit/engine/cache.h"
#include "jit/lower/cfg_loops.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/runtime.h"
#include "jit/lower/stream_stores.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "profiler/profiler.h"

static LLVMOrcLLJITRef jit;

/* LLVM's optimization and machine-code generation run without the GIL, so
 * that the user's other threads, and the notebook's line for a long
 * compile (kiln/magics/compile_progress.py), go on meanwhile: one thread at
 * a time, since compiles share their target machines. llvm_lock is only
 * ever taken without the GIL, because its holder may need the GIL back (a
 * loop remark: kj_remarks_on_diagnostic). */
static pthread_mutex_t llvm_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(const char *) doing;   /* kj_engine_doing */

static PyThreadState *leave_python(const char *what) {
    atomic_store(&doing, what);
    PyThreadState *ts = PyEval_SaveThread();
    pthread_mutex_lock(&llvm_lock);
    return ts;
}

static void back_to_python(PyThreadState *ts) {
    pthread_mutex_unlock(&llvm_lock);
    PyEval_RestoreThread(ts);
    atomic_store(&doing, NULL);
}

const char *kj_engine_doing(void) { return atomic_load(&doing); }

/* A thread of the parent may have held llvm_lock at the fork, which the
 * child's only thread could then never take. */
static void unlock_in_child(void) {
    pthread_mutex_init(&llvm_lock, NULL);
    atomic_store(&doing, NULL);
}

/* O2, not O3: it vectorizes the same loops (both run the loop and SLP
 * vectorizers) and the bench's steady times do not move, but it costs
 * about a quarter less optimization time; what O3 adds (aggressive
 * unswitching and inlining, argument promotion) did not pay on the
 * course's workloads (bench/jit_vs_numba.py) */
#define KJ_PIPELINE "default<O2>"

/* A module without loops (a formula, hypot calling square) gains nothing
 * from O2's loop and vectorizing passes, nor from the full code generator.
 * Its pipeline inlines, turns allocas into registers, and folds: O1's
 * simplification core without O1's attribute inference, global passes and
 * repeated clean-ups, which gave the same code but one instruction on four
 * such functions (branches and math calls, complex numbers, tuples and a
 * raise, array indexing) in about half the time (bench/MEASURED.md).
 * lower-expect first, as in O1, or the branches Kiln marks unlikely stay;
 * instcombine without verify-fixpoint, as O1 runs it: LLVM 19 otherwise
 * aborts the process when one round leaves something to fold (it did on
 * the corpus's mutual recursion).
 * Then mark_optnone gives it LLVM's fast instruction selector, and
 * straight_machine the code generator's pipeline for unoptimized code,
 * which builds and runs a third of the passes: its object for the bench's
 * hypot took a third of the time, for the same instructions but one
 * register. A loop anywhere in the module keeps the full path, so a scalar
 * function inlined into a loop (a callee, a vectorize kernel) still gets
 * it. */
#define KJ_PIPELINE_STRAIGHT                                                              \
    "function(lower-expect),"                                                             \
    "cgscc(inline,function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>))," \
    "function(simplifycfg)"

/* The one-time LLVM set-up costs milliseconds of CPU. kj_engine_warm_up
 * runs it on a thread from `import kiln`, to overlap the user's own work,
 * in the order a first compile needs it:
 *  1. options, the CPU's target machine, a first run of the pipeline for
 *     loop-free modules;
 *  2. a small function's object, made by the machine a loop-free module
 *     uses (straight_machine), then the LLJIT, which links that object;
 *  3. the same function with the full code generator (object_machine), and
 *     if no compile has begun by then, a function like the ones users
 *     write (warm_ir) through the pipeline and object_machine, so that the
 *     first compile finds that code warm (bench/MEASURED.md: LLVM
 *     warm-up).
 * A small first compile right after the import waits for step 2 before it
 * emits. Emitting with a machine the thread has already used, rather than
 * alongside it with a cold one, made the bench's first calls faster.
 *
 * What each side waits for (wait_for_warm_up): a compile waits for step 1
 * before it optimizes with the CPU's target machine (kj_llvm_init), for
 * the thread to be done with the machine it emits with (straight_machine,
 * object_machine), and for the LLJIT before it links (create_jit; a cache
 * load too). A compile (or cache load) that begins before step 3's second
 * part keeps it from starting. Otherwise the two threads share no LLVM
 * object: each builds its modules in its own context (LLVM allows separate
 * contexts and target machines on separate threads). The thread touches no
 * Python object and holds no GIL. warm_state is written before the thread
 * starts and after it is joined (at fork and at exit), both under the
 * GIL. */
enum { WARM_NONE, WARM_RUNNING, WARM_DONE };
static int warm_state = WARM_NONE;   /* main thread only */
static pthread_t warm_thread;
static _Thread_local bool on_warm_thread;
static pthread_mutex_t warm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t warm_cond = PTHREAD_COND_INITIALIZER;
/* guarded by warm_lock: the thread is done with the CPU's target machine,
 * the JIT, straight_machine, object_machine; a compile has begun (then
 * warm_ir is skipped) */
static bool phase_one_done, jit_ready, straight_machine_free, object_machine_free;
static bool compile_began;

/* KILN_JIT_ASAN=1 (tests/sanitizers.sh, in a process with the sanitizer's
 * runtime preloaded): every access of compiled code is checked as a C file
 * built with -fsanitize=address would be, so an overrun of an array by a
 * few elements is reported where it happens instead of reading a
 * neighbour's memory. */
static bool jit_asan;
static bool options_set;   /* by the warm-up thread before it is joined, or under the GIL */

/* The function this thread is optimizing or turning into machine code,
 * for the fatal-error message. */
static _Thread_local const char *compiling;

/* LLVM's report_fatal_error ends the process once its handler returns (its
 * state cannot be trusted after one, so there is no safe way back to
 * Python): what remains is to say so, in words, rather than LLVM's bare
 * "LLVM ERROR" or an abort. */
static void on_llvm_fatal(const char *reason) {
    fprintf(stderr,
            "\nkiln: LLVM stopped with a fatal error%s%s: %s\n"
            "kiln: this is a bug in Kiln, not in your code. LLVM cannot go on after a fatal error, so the "
            "process ends now. Please report it with the function and the argument types.\n",
            compiling ? " while compiling " : "", compiling ? compiling : "", reason ? reason : "(no reason given)");
    fflush(stderr);
}

static void set_options(void) {
    if (options_set)
        return;   /* LLVM's options may only be parsed once */
    options_set = true;
    pthread_atfork(NULL, NULL, unlock_in_child);
    LLVMInstallFatalErrorHandler(on_llvm_fatal);
    /* glibc's vector math (libmvec): loops of llvm.exp/sin/log... widen to
     * its SIMD functions, found by the JIT's process search once loaded */
    bool mvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL) != NULL;
    /* -unroll-max-count=4: runtime unrolling by 8 (what the host's cost
     * model picks for loops left scalar) made a fifth of optimization plus
     * machine-code time on the bench's loops, and by 4 they run as fast
     * (bench/jit_vs_numba.py).
     * -force-ordered-reductions: a float sum without fastmath may still
     * vectorize, its adds kept in source order (one lane after another)
     * while the rest of the loop body runs in vector lanes; the result is
     * the same to the bit, and a sum of np.sqrt runs several times faster.
     * AArch64 has this on by default; x86 only offers the option. */
    const char *args[10] = {"kiln", "-pass-remarks=loop-vectorize",
                            "-pass-remarks-missed=loop-vectorize",
                            "-pass-remarks-analysis=loop-vectorize", "-unroll-max-count=4",
                            "-force-ordered-reductions"};
    int n = 6;
    if (mvec)
        args[n++] = "-vector-library=LIBMVEC-X86";
    const char *asan = getenv("KILN_JIT_ASAN");
    jit_asan = asan && strcmp(asan, "1") == 0;
    if (jit_asan) {
        /* the sanitizer's runtime is the preloaded one: the JIT runs no
         * module constructor to register globals or check its version */
        args[n++] = "-asan-globals=0";
        args[n++] = "-asan-guard-against-version-mismatch=0";
    }
    LLVMParseCommandLineOptions(n, args, NULL);
}


static int create_jit(kj_error *e);
static LLVMModuleRef warm_module(void);
static LLVMMemoryBufferRef warm_emit(LLVMTargetMachineRef tm, LLVMModuleRef mod);
static void warm_link(LLVMMemoryBufferRef obj);
static void warm_object_machine(void);
static void mark_optnone(LLVMModuleRef mod);
static LLVMTargetMachineRef host_machine(LLVMCodeGenOptLevel level, LLVMRelocMode reloc);
static LLVMTargetMachineRef straight_machine(void);
static LLVMTargetMachineRef object_machine(void);

/* The warm-up thread's side: sets *flag to value for the waiting threads. */
static void warm_set(bool *flag, bool value) {
    pthread_mutex_lock(&warm_lock);
    *flag = value;
    pthread_cond_broadcast(&warm_cond);
    pthread_mutex_unlock(&warm_lock);
}

/* warm_ir goes through only if no compile has begun; true if it may. */
static bool no_compile_began(void) {
    pthread_mutex_lock(&warm_lock);
    bool none = !compile_began;
    pthread_mutex_unlock(&warm_lock);
    return none;
}

/* A compile's side (or a cache load's): warm_ir, if it has not started,
 * will not, and this waits until the thread has set *ready. A no-op on the
 * thread itself and once it is joined. */
static void wait_for_warm_up(const bool *ready) {
    if (warm_state != WARM_RUNNING || on_warm_thread)
        return;
    pthread_mutex_lock(&warm_lock);
    compile_began = true;
    while (!*ready)
        pthread_cond_wait(&warm_cond, &warm_lock);
    pthread_mutex_unlock(&warm_lock);
}

/* The steps of the set-up (above). Failures only cost their head start:
 * the first compile meets them again, and reports them. */
static void *warm_up(void *arg) {
    (void)arg;
    on_warm_thread = true;
    kj_error e = {0};
    kj_llvm_init();
    LLVMModuleRef mod = warm_module();
    warm_set(&phase_one_done, true);
    LLVMContextRef ctx = mod ? LLVMGetModuleContext(mod) : NULL;
    LLVMModuleRef full = mod ? LLVMCloneModule(mod) : NULL;   /* for step 3 */
    LLVMMemoryBufferRef obj = NULL;
    if (mod) {
        mark_optnone(mod);   /* as a loop-free module, the common first compile */
        obj = warm_emit(straight_machine(), mod);
    }
    warm_set(&straight_machine_free, true);
    if (create_jit(&e) == 0 && obj)
        warm_link(obj);
    else if (obj)
        LLVMDisposeMemoryBuffer(obj);
    warm_set(&jit_ready, true);
    if (full) {
        if ((obj = warm_emit(object_machine(), full)))
            LLVMDisposeMemoryBuffer(obj);
        LLVMContextDispose(ctx);
        if (no_compile_began())
            warm_object_machine();
    }
    warm_set(&object_machine_free, true);
    return NULL;
}

/* Waits for the whole warm-up thread; a no-op on that thread itself. */
static void join_warm_up(void) {
    if (warm_state == WARM_RUNNING && !on_warm_thread) {
        pthread_join(warm_thread, NULL);
        warm_state = WARM_DONE;
    }
}

void kj_engine_warm_up(void) {
    if (warm_state != WARM_NONE)
        return;
    warm_state = WARM_DONE;   /* unless the thread starts: then the first compile does the set-up */
    /* fork() while the thread holds LLVM's locks would leave the child
     * unable to take them, and exit() would run LLVM's static destructors
     * under it: both wait for the set-up to end first. At exit the wait
     * comes at the end of Python's finalization (Py_AtExit), as an atexit
     * handler alone runs too late: the destructors of statics that LLVM
     * first builds on the thread, after this registration, run before it
     * (a `python -c "import kiln"` crashed 4 times in 150 that way). The
     * atexit handler stays for an exit() that skips finalization. */
    const char *off = getenv("KILN_NO_WARM_UP");
    if ((off && *off && strcmp(off, "0") != 0) || pthread_atfork(join_warm_up, NULL, NULL) != 0 ||
        Py_AtExit(join_warm_up) != 0 || atexit(join_warm_up) != 0)
        return;
    warm_state = WARM_RUNNING;
    if (pthread_create(&warm_thread, NULL, warm_up, NULL) != 0)
        warm_state = WARM_DONE;
}

void kj_llvm_init(void) {
    wait_for_warm_up(&phase_one_done);
    set_options();   /* the thread calls this first, before the pipeline */
}

/* Fills e from an LLVMErrorRef, consuming it. */
static int llvm_fail(kj_error *e, LLVMErrorRef err, const char *what) {
    char *msg = LLVMGetErrorMessage(err);
    kj_fail(e, KJ_ERR_INTERNAL, 0, 0, NULL, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

static int create_jit(kj_error *e) {
    wait_for_warm_up(&jit_ready);   /* the JIT from one thread at a time */
    kj_llvm_init();   /* libmvec loaded before any object (a cached one too) is linked */
    if (jit)
        return 0;
    /* a target machine for ORC's own use, owned by the builder */
    LLVMTargetMachineRef tm = host_machine(LLVMCodeGenLevelAggressive, LLVMRelocDefault);
    if (!tm)
        return kj_fail(e, KJ_ERR_INTERNAL, 0, 0, NULL, "LLVM has no target for this CPU");
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit, builder);
    if (err) {
        jit = NULL;
        return llvm_fail(e, err, "cannot start the JIT");
    }
    LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(jit);
    kj_stream_init();
    /* the runtime, by address: _kiln.so is loaded RTLD_LOCAL, so dlsym
     * would not find it */
    int n = 0, n_core = 0;
    while (kj_runtime_symbols[n_core].name)
        n_core++;
    while (kj_library_symbols[n].name)
        n++;
    n += n_core;
    LLVMOrcCSymbolMapPair pairs[n];
    for (int i = 0; i < n; i++) {
        const kj_symbol *sym = i < n_core ? &kj_runtime_symbols[i] : &kj_library_symbols[i - n_core];
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, sym->name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)sym->addr;
        pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    err = LLVMOrcJITDylibDefine(dylib, LLVMOrcAbsoluteSymbols(pairs, (size_t)n));
    if (err)
        return llvm_fail(e, err, "cannot define the runtime symbols");
    /* libm and libc from the process */
    LLVMOrcDefinitionGeneratorRef gen;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(jit),
                                                               NULL, NULL);
    if (err)
        return llvm_fail(e, err, "cannot search the process for symbols");
    LLVMOrcJITDylibAddGenerator(dylib, gen);
    return 0;
}

/* vectorize: with the loop and SLP vectorizers, as compiles of loops run it */
static LLVMErrorRef run_pipeline(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *passes,
                                 bool vectorize) {
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(opts, vectorize);
    LLVMPassBuilderOptionsSetSLPVectorization(opts, vectorize);
    LLVMErrorRef err = LLVMRunPasses(mod, passes, tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    return err;
}

/* The array global `name` (llvm.used and its kin) without fn. */
static void drop_from_used(LLVMModuleRef mod, const char *name, LLVMValueRef fn) {
    LLVMValueRef used = LLVMGetNamedGlobal(mod, name);
    if (!used)
        return;
    LLVMValueRef init = LLVMGetInitializer(used);
    int n = LLVMGetNumOperands(init), kept = 0;
    LLVMValueRef items[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) {
        LLVMValueRef item = LLVMGetOperand(init, (unsigned)i);
        if (item != fn)
            items[kept++] = item;
    }
    if (kept == n)
        return;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(mod), 0);
    LLVMDeleteGlobal(used);
    if (kept == 0)
        return;
    LLVMTypeRef at = LLVMArrayType2(ptr, (uint64_t)kept);
    LLVMValueRef g = LLVMAddGlobal(mod, at, name);
    LLVMSetInitializer(g, LLVMConstArray2(ptr, items, (uint64_t)kept));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
}

static LLVMErrorRef instrument_for_asan(LLVMModuleRef mod, LLVMTargetMachineRef tm) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned kind = LLVMGetEnumAttributeKindForName("sanitize_address", 16);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    LLVMErrorRef err = run_pipeline(mod, tm, "asan", false);
    /* its constructor only calls __asan_init, which the preloaded runtime
     * has run; as a static initializer each module's would clash in the JIT */
    LLVMValueRef ctors = LLVMGetNamedGlobal(mod, "llvm.global_ctors");
    if (ctors)
        LLVMDeleteGlobal(ctors);
    LLVMValueRef ctor = LLVMGetNamedFunction(mod, "asan.module_ctor");
    if (ctor) {
        drop_from_used(mod, "llvm.used", ctor);
        drop_from_used(mod, "llvm.compiler.used", ctor);
        LLVMDeleteFunction(ctor);
    }
    return err;
}

/* As lower.c sets them on every function it makes. */
static void set_cpu_attributes(LLVMValueRef fn, LLVMTargetMachineRef tm) {
    char *cpu = LLVMGetTargetMachineCPU(tm), *features = LLVMGetTargetMachineFeatureString(tm);
    LLVMAddTargetDependentFunctionAttr(fn, "target-cpu", cpu);
    LLVMAddTargetDependentFunctionAttr(fn, "target-features", features);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
}

/* Every function of the optimized mod gets optnone (with noinline, which
 * LLVM requires beside it, in place of alwaysinline): the code generator
 * then selects instructions with FastISel and skips its machine-level
 * optimizations. */
static void mark_optnone(LLVMModuleRef mod) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned optnone_kind = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned noinline_kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAttributeRef optnone = LLVMCreateEnumAttribute(ctx, optnone_kind, 0);
    LLVMAttributeRef noinline = LLVMCreateEnumAttribute(ctx, noinline_kind, 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, always);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline);
    }
}

/* One small function (*ret = x + x for the double x that args[0] points
 * at), with the host's CPU attributes as lower.c sets them, through a
 * pipeline, in a context of its own: what LLVM builds on first use (pass
 * registry, the subtarget) is then ready for the first real compile. NULL
 * if that failed. */
static LLVMModuleRef warm_module(void) {
    const kj_target *t = kj_target_cpu();
    LLVMTargetMachineRef tm = t->target_machine(t);
    if (!tm)
        return NULL;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("kiln_warm_up", ctx);
    LLVMSetTarget(mod, t->triple(t));
    LLVMSetDataLayout(mod, t->data_layout(t));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), f64 = LLVMDoubleTypeInContext(ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), params[] = {ptr, ptr};
    LLVMValueRef fn = LLVMAddFunction(mod, "kiln_warm_up", LLVMFunctionType(i32, params, 2, 0));
    set_cpu_attributes(fn, tm);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef arg = LLVMBuildLoad2(b, ptr, LLVMGetParam(fn, 1), "arg");
    LLVMValueRef x = LLVMBuildLoad2(b, f64, arg, "x");
    LLVMBuildStore(b, LLVMBuildFAdd(b, x, x, "twice"), LLVMGetParam(fn, 0));
    LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
    LLVMDisposeBuilder(b);
    /* the loop-free pipeline, as the common first compile runs it: the bench's
     * loop-free first calls took less than after O2 here, and its loops' no
     * longer (bench/MEASURED.md: LLVM warm-up) */
    LLVMErrorRef err = run_pipeline(mod, tm, KJ_PIPELINE_STRAIGHT, false);
    if (err) {
        LLVMConsumeError(err);
        LLVMDisposeModule(mod);
        LLVMContextDispose(ctx);
        return NULL;
    }
    return mod;
}

/* mod (disposed, not its context) as an object file; NULL if that failed. */
static LLVMMemoryBufferRef warm_emit(LLVMTargetMachineRef tm, LLVMModuleRef mod) {
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (tm && LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj)) {
        LLVMDisposeMessage(msg);
        obj = NULL;
    }
    LLVMDisposeModule(mod);
    return obj;
}

/* The object (consumed) linked into the JIT: the linking layer, too,
 * builds itself on first use. */
static void warm_link(LLVMMemoryBufferRef obj) {
    LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), obj);
    LLVMOrcExecutorAddress addr;
    if (!err)
        err = LLVMOrcLLJITLookup(jit, &addr, "kiln_warm_up");
    if (err)
        LLVMConsumeError(err);
}

/* Step 3's function: the shape of a compiled function (results
 * through %ret, arguments through %args) with what most of them hold: a
 * call to inline, a loop the vectorizer widens, float and int arithmetic
 * and a math intrinsic. */
static const char warm_ir[] =
    "define internal double @kiln_warm_square(double %x) {\n"
    "  %y = fmul double %x, %x\n"
    "  ret double %y\n"
    "}\n"
    "declare double @llvm.sqrt.f64(double)\n"
    "define i32 @kiln_warm_loop(ptr %ret, ptr %args) {\n"
    "entry:\n"
    "  %data = load ptr, ptr %args\n"
    "  %len_at = getelementptr i8, ptr %args, i64 8\n"
    "  %len_ptr = load ptr, ptr %len_at\n"
    "  %n = load i64, ptr %len_ptr\n"
    "  %any = icmp sgt i64 %n, 0\n"
    "  br i1 %any, label %loop, label %done\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %next, %loop ]\n"
    "  %acc = phi double [ 0.0, %entry ], [ %sum, %loop ]\n"
    "  %at = getelementptr double, ptr %data, i64 %i\n"
    "  %x = load double, ptr %at\n"
    "  %sq = call double @kiln_warm_square(double %x)\n"
    "  %root = call double @llvm.sqrt.f64(double %sq)\n"
    "  %sum = fadd double %acc, %root\n"
    "  %next = add nsw i64 %i, 1\n"
    "  %more = icmp slt i64 %next, %n\n"
    "  br i1 %more, label %loop, label %done\n"
    "done:\n"
    "  %result = phi double [ 0.0, %entry ], [ %sum, %loop ]\n"
    "  store double %result, ptr %ret\n"
    "  ret i32 0\n"
    "}\n";

/* The warm-up's vectorization remarks go nowhere (LLVM's own handler
 * would print them). */
static void drop_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    (void)info;
    (void)opaque;
}

/* warm_ir through the pipeline and to an object, both with object_machine,
 * in a context of its own; the object is dropped. */
static void warm_object_machine(void) {
    const kj_target *t = kj_target_cpu();
    LLVMTargetMachineRef tm = object_machine();
    if (!tm)
        return;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, drop_diagnostic, NULL);
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(warm_ir, sizeof warm_ir - 1, "kiln_warm_loop", 0);
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {   /* takes buf */
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return;
    }
    LLVMSetTarget(mod, t->triple(t));
    LLVMSetDataLayout(mod, t->data_layout(t));
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            set_cpu_attributes(fn, tm);
    LLVMErrorRef err = run_pipeline(mod, tm, KJ_PIPELINE, true);
    if (err)
        LLVMConsumeError(err);
    else if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj))
        LLVMDisposeMessage(msg);
    else
        LLVMDisposeMemoryBuffer(obj);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
}

int kj_engine_finish(kj_unit *u, LLVMOrcThreadSafeContextRef tsc, const char *entry_name,
                     kj_engine_out *out) {
    memset(out, 0, sizeof *out);
    LLVMModuleRef mod = u->mod;
    u->mod = NULL;
    int rc = -1;
    PyObject *remarks = u->loop_remarks ? u->loop_remarks : PyList_New(0);   /* takes the unit's */
    u->loop_remarks = NULL;
    char *msg = NULL;
    compiling = u->err_function ? u->err_function->qualname : NULL;
    if (!remarks)
        goto dispose;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "internal: Kiln made invalid LLVM IR: %.400s", msg);
        LLVMDisposeMessage(msg);
        goto dispose;
    }
    LLVMDisposeMessage(msg);
    bool straight = !kj_module_has_loops(mod);
    uint64_t t0 = kp_now_ns();
    LLVMContextSetDiagnosticHandler(u->ctx, kj_remarks_on_diagnostic, &remarks);
    LLVMTargetMachineRef tm = u->target->target_machine(u->target);
    PyThreadState *ts = leave_python("optimizing");
    LLVMErrorRef err = run_pipeline(mod, tm, straight ? KJ_PIPELINE_STRAIGHT : KJ_PIPELINE, !straight);
    back_to_python(ts);
    LLVMContextSetDiagnosticHandler(u->ctx, NULL, NULL);
    if (err) {
        llvm_fail(&u->err, err, "optimization failed");
        goto dispose;
    }
    out->optimize_ns = kp_now_ns() - t0;
    if (!straight)
        kj_stream_finish(mod);
    if (u->target->after_optimize)
        out->after_optimize = u->target->after_optimize(u->target, mod);
    if (jit_asan && (err = instrument_for_asan(mod, u->target->target_machine(u->target)))) {
        llvm_fail(&u->err, err, "AddressSanitizer's instrumentation failed");
        goto dispose;
    }
    kj_remarks_add_ordered(mod, remarks);
    if (straight)
        mark_optnone(mod);   /* before the IR is kept: inspect_asm shows the code that runs */
    else   /* a module without loops has none to lose */
        kj_remarks_add_unused(u, mod, remarks);
    char *ir = LLVMPrintModuleToString(mod);
    out->ir = strdup(ir);
    LLVMDisposeMessage(ir);
    /* line tables served the remarks; machine code does not need them */
    LLVMStripModuleDebugInfo(mod);
    /* machine code on this thread, while the warm-up thread may still run
     * ORC's own compiler (for cache=True the object also goes to disk,
     * cache.c); then the object is linked into the JIT, after that thread */
    t0 = kp_now_ns();
    LLVMMemoryBufferRef obj = u->cache_object ? kj_cache_emit(u, mod) : kj_engine_emit(u, mod);
    if (!obj)
        goto dispose;
    uint64_t emit_ns = kp_now_ns() - t0;
    if (create_jit(&u->err) < 0) {
        LLVMDisposeMemoryBuffer(obj);
        goto dispose;
    }
    t0 = kp_now_ns();
    err = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), obj);
    if (err) {
        llvm_fail(&u->err, err, "cannot add the module to the JIT");
        goto dispose;
    }
    LLVMOrcExecutorAddress addr = 0;
    err = LLVMOrcLLJITLookup(jit, &addr, entry_name);
    if (err) {
        llvm_fail(&u->err, err, "cannot link the compiled code");
        goto dispose;
    }
    out->codegen_ns = emit_ns + (kp_now_ns() - t0);
    out->entry = (void *)(uintptr_t)addr;
    out->remarks = remarks;
    remarks = NULL;
    rc = 0;
dispose:
    compiling = NULL;
    if (mod)
        LLVMDisposeModule(mod);
    LLVMOrcDisposeThreadSafeContext(tsc);
    Py_XDECREF(remarks);
    if (rc < 0) {
        free(out->ir);
        out->ir = NULL;
    }
    return rc;
}

/* A new target machine for the host, as the CPU target's own at another
 * code-generation level, relocation model and the JIT's code model (large
 * on x86-64); NULL if LLVM has no target. */
static LLVMTargetMachineRef host_machine(LLVMCodeGenOptLevel level, LLVMRelocMode reloc) {
    const kj_target *t = kj_target_cpu();
    LLVMTargetMachineRef base = t->target_machine(t);
    if (!base)
        return NULL;
    char *cpu = LLVMGetTargetMachineCPU(base), *features = LLVMGetTargetMachineFeatureString(base);
    char *triple = LLVMGetTargetMachineTriple(base);
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(LLVMGetTargetMachineTarget(base), triple, cpu,
                                                      features, level, reloc, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    return tm;
}

/* The host target machines for the objects the JIT links (and cache=True
 * writes): position-independent code with the JIT's code model, as ORC's
 * own compiler made them until the first compile emitted its object
 * itself, so the code is the same. The small code model gave the
 * closest-pair loop of bench/jit_vs_numba.py, without its polls, the same
 * instructions at other addresses, and twice the run time on a Zen 5.
 * object_machine has the full code generator; straight_machine, the one
 * for unoptimized code, takes the modules mark_optnone went over. Each is
 * kept for the process, made on first use (by the warm-up thread, if one
 * runs), and waited for while the thread uses it. NULL if LLVM has no
 * target. */
static LLVMTargetMachineRef object_machine(void) {
    static LLVMTargetMachineRef tm;
    wait_for_warm_up(&object_machine_free);
    if (!tm)
        tm = host_machine(LLVMCodeGenLevelAggressive, LLVMRelocPIC);
    return tm;
}

static LLVMTargetMachineRef straight_machine(void) {
    static LLVMTargetMachineRef tm;
    wait_for_warm_up(&straight_machine_free);
    if (!tm)
        tm = host_machine(LLVMCodeGenLevelNone, LLVMRelocPIC);
    return tm;
}

/* Whether mark_optnone went over mod (its first function tells). */
static bool marked_optnone(LLVMModuleRef mod) {
    unsigned optnone_kind = LLVMGetEnumAttributeKindForName("optnone", 7);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone_kind) != NULL;
    return false;
}

/* The machine that emits mod: the code that runs, for inspect_asm too.
 * Code instrumented for AddressSanitizer goes through the code generator
 * for unoptimized code: the sanitizer checks what the optimized IR reads
 * and writes, the full code generator's output is what every ordinary run
 * checks, and it spent most of a sanitized campaign's time on the
 * instrumented modules. */
static LLVMTargetMachineRef machine_for(LLVMModuleRef mod) {
    return jit_asan || marked_optnone(mod) ? straight_machine() : object_machine();
}

LLVMMemoryBufferRef kj_engine_emit(kj_unit *u, LLVMModuleRef mod) {
    LLVMTargetMachineRef tm = machine_for(mod);
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (!tm) {
        kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "LLVM has no target for this CPU");
        return NULL;
    }
    PyThreadState *ts = leave_python("generating machine code");
    LLVMBool failed = LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj);
    back_to_python(ts);
    if (failed) {
        kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "machine code generation failed: %s", msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return obj;
}

int kj_engine_define_absolute(kj_unit *u, const char *name, void *addr) {
    if (create_jit(&u->err) < 0)
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
    if (create_jit(&u->err) < 0) {
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
    LLVMTargetMachineRef tm = machine_for(mod);
    LLVMMemoryBufferRef out = NULL;
    if (!tm) {
        PyErr_SetString(PyExc_RuntimeError, "LLVM has no target for this CPU");
    } else if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &out)) {
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
