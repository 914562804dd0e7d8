/* kiln.cuda.jit's compile: one kernel and its argument types through jit/'s
 * front end, inference and lowering with the CUDA or simulator target, then
 * PTX (GPU) or host machine code (simulator).
 *
 * The GPU kernel's parameters (what python/kiln/cuda/compiler.py passes):
 *   ptr errors   int64[8]: 0, or the raise site (1-based) of the first
 *                thread that raised, then its blockIdx.xyz and threadIdx.xyz
 *   then each argument flattened (see flat_params)
 * A kernel body raises (an index out of bounds, a division by zero) through
 * kj_rt_raise, which on the GPU is a function of the module: every call of
 * it gets its own site number, the Python class and message of each site go
 * back to Python, and the kernel's wrapper records the site and the thread.
 * So a bad index is an IndexError naming the kernel, never a fault.
 *
 * The simulator runs i32 entry(ptr ret, ptr words), the same flattened
 * arguments as 8-byte words, with exceptions through the host runtime
 * (kg_sim_launch). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "gpu/sim.h"
#include "gpu/targets.h"
#include "jit/engine/compile.h"
#include "jit/engine/engine.h"
#include "jit/frontend/frontend.h"
#include "jit/lower/lower.h"
#include "profiler/profiler.h"

/* Lowering's state with a builder, for building the wrapper with jit/'s helpers. */
static void init_lw(kj_lw *w, kj_unit *u) {
    kj_lw_init(w, u);
    w->b = LLVMCreateBuilderInContext(u->ctx);
}

/* The host runtime's helpers that GPU code may call, as LLVM IR: integer
 * powers (x ** n), by squaring as jit/runtime/runtime.c does. */
static const char gpu_runtime_ir[] =
    "define linkonce_odr i64 @kj_rt_ipow(i64 %base, i64 %exp) alwaysinline {\n"
    "entry:\n  br label %loop\n"
    "loop:\n"
    "  %r = phi i64 [1, %entry], [%r2, %body]\n"
    "  %b = phi i64 [%base, %entry], [%b2, %body]\n"
    "  %e = phi i64 [%exp, %entry], [%e2, %body]\n"
    "  %more = icmp sgt i64 %e, 0\n"
    "  br i1 %more, label %body, label %done\n"
    "body:\n"
    "  %bit = and i64 %e, 1\n"
    "  %odd = icmp ne i64 %bit, 0\n"
    "  %rb = mul i64 %r, %b\n"
    "  %r2 = select i1 %odd, i64 %rb, i64 %r\n"
    "  %b2 = mul i64 %b, %b\n"
    "  %e2 = ashr i64 %e, 1\n"
    "  br label %loop\n"
    "done:\n  ret i64 %r\n}\n";

/* Links the functions of `ir` into the unit's module if it calls any whose
 * name starts with prefix. */
static int link_if_used(kj_unit *u, const char *prefix, const char *ir) {
    bool used = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(u->mod); f && !used; f = LLVMGetNextFunction(f)) {
        size_t len;
        used = LLVMIsDeclaration(f) && strncmp(LLVMGetValueName2(f, &len), prefix, strlen(prefix)) == 0;
    }
    if (!used)
        return 0;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), prefix);
    LLVMModuleRef rng;
    char *msg = NULL;
    if (LLVMParseIRInContext(u->ctx, buf, &rng, &msg)) {   /* consumes buf */
        kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "%s IR: %s", prefix, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMSetTarget(rng, LLVMGetTarget(u->mod));
    LLVMSetDataLayout(rng, LLVMGetDataLayoutStr(u->mod));
    if (LLVMLinkModules2(u->mod, rng))
        return kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "cannot link the %s functions", prefix);
    return 0;
}

/* ---- GPU: raise sites and the kernel wrapper ----------------------------- */

/* The text of a constant string global (a raise message), or NULL. */
static const char *string_constant(LLVMValueRef v) {
    if (!v || LLVMIsNull(v))
        return NULL;
    if (!LLVMIsAGlobalVariable(v) && LLVMIsAConstantExpr(v))
        v = LLVMGetOperand(v, 0);
    LLVMValueRef init = LLVMIsAGlobalVariable(v) ? LLVMGetInitializer(v) : NULL;
    size_t len;
    return init && LLVMIsConstantString(init) ? LLVMGetAsString(init, &len) : NULL;
}

/* Numbers every call of kj_rt_raise, appends (class, message) per site to
 * sites, and defines kj_rt_raise to store its site in @kiln_raise_site.
 * Sites are few and only reached on the error path. */
static int number_raise_sites(kj_lw *w, PyObject *sites) {
    LLVMValueRef raise = LLVMGetNamedFunction(w->mod, "kj_rt_raise");
    if (!raise)
        return 0;
    int k = 0;
    for (LLVMUseRef use = LLVMGetFirstUse(raise); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef call = LLVMGetUser(use);
        if (!LLVMIsACallInst(call))
            continue;
        LLVMValueRef cls_const = LLVMGetOperand(call, 0);
        uint64_t cls = LLVMIsAConstantExpr(cls_const)
                           ? LLVMConstIntGetZExtValue(LLVMGetOperand(cls_const, 0)) : 0;
        const char *msg = string_constant(LLVMGetOperand(call, 1));
        PyObject *item = Py_BuildValue("(Os)", cls ? (PyObject *)(uintptr_t)cls : Py_None, msg ? msg : "");
        if (!item || PyList_Append(sites, item) < 0) {
            Py_XDECREF(item);
            return kj_fail(&w->u->err, KJ_ERR_PYTHON, 0, 0, NULL, "sites");
        }
        Py_DECREF(item);
        LLVMSetOperand(call, 0, LLVMConstIntToPtr(LLVMConstInt(w->i64, (unsigned long long)++k, 0), w->ptr));
    }
    LLVMValueRef site = LLVMAddGlobalInAddressSpace(w->mod, w->i64, "kiln_raise_site", 1);
    LLVMSetInitializer(site, LLVMConstInt(w->i64, 0, 0));
    LLVMSetLinkage(site, LLVMInternalLinkage);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, raise, "entry"));
    LLVMBuildStore(w->b, LLVMBuildPtrToInt(w->b, LLVMGetParam(raise, 0), w->i64, ""), site);
    LLVMBuildRetVoid(w->b);
    LLVMSetLinkage(raise, LLVMInternalLinkage);
    return 0;
}

/* The first failing thread records its site, block and thread in errors. */
static void record_failure(kj_lw *w, const kj_target *t, LLVMValueRef errors) {
    LLVMValueRef site_g = LLVMGetNamedGlobal(w->mod, "kiln_raise_site");
    LLVMValueRef site = site_g ? LLVMBuildLoad2(w->b, w->i64, site_g, "") : LLVMConstInt(w->i64, 1, 0);
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(w->b, errors, LLVMConstInt(w->i64, 0, 0), site,
                                            LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
    LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(w->ctx, LLVMGetBasicBlockParent(LLVMGetInsertBlock(w->b)), "first");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(w->ctx, LLVMGetBasicBlockParent(LLVMGetInsertBlock(w->b)), "done");
    LLVMBuildCondBr(w->b, LLVMBuildExtractValue(w->b, x, 1, ""), first, done);
    LLVMPositionBuilderAtEnd(w->b, first);
    static const kj_sreg where[6] = {KJ_SREG_CTAID_X, KJ_SREG_CTAID_Y, KJ_SREG_CTAID_Z,
                                     KJ_SREG_TID_X, KJ_SREG_TID_Y, KJ_SREG_TID_Z};
    for (int i = 0; i < 6; i++) {
        LLVMValueRef p = LLVMBuildGEP2(w->b, w->i64, errors, (LLVMValueRef[]){LLVMConstInt(w->i64, (unsigned)i + 1, 0)}, 1, "");
        LLVMBuildStore(w->b, LLVMBuildZExt(w->b, t->special_reg(t, w->mod, w->b, where[i]), w->i64, ""), p);
    }
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, done);
}

/* The kernel's arguments travel flattened, on both targets:
 *   array        data pointer, i64 shape[ndim], i64 strides[ndim] (bytes)
 *   bool, int    i64
 *   float        double
 *   complex      double real, double imag
 *   tuple        its elements, each flattened (numbers only)
 * On the GPU they are the kernel's parameters; on the simulator, 8-byte
 * words of one array (sim_py.c). compiler.py's _flatten is the other side. */
#define MAX_FLAT KG_MAX_FLAT
_Static_assert(KG_MAX_FLAT == KJ_SPEC_MAX_ARGS * 17, "KG_MAX_FLAT: 17 parts for each argument");

typedef struct {
    LLVMValueRef fn;      /* GPU: the kernel, whose parameters are read in order */
    LLVMValueRef words;   /* simulator: the words, else NULL */
    unsigned next;
} flat_source;

static LLVMValueRef next_flat(kj_lw *w, flat_source *s, LLVMTypeRef type) {
    if (!s->words)
        return LLVMGetParam(s->fn, s->next++);
    LLVMValueRef index = LLVMConstInt(w->i64, s->next++, 0);
    return LLVMBuildLoad2(w->b, type, LLVMBuildGEP2(w->b, w->i64, s->words, &index, 1, ""), "");
}

/* Appends the flattened parameter types of a (data pointers as gptr) to
 * params[*np]; -1 with err filled for what kernels cannot take. */
static int flat_params(kj_lw *w, const kj_instance *in, int i, const kj_type *a, LLVMTypeRef gptr,
                       LLVMTypeRef *params, int *np, bool in_tuple) {
    int need = a->kind == KJ_T_ARRAY ? 1 + 2 * a->ndim : a->kind == KJ_T_COMPLEX ? 2 : 1;
    if (a->kind != KJ_T_TUPLE && *np + need > MAX_FLAT)
        return kj_fail(&w->u->err, KJ_ERR_TYPING, in->f->first_line, 0, "Pass fewer or smaller arguments.",
                       "the kernel's arguments make more than %d numbers", MAX_FLAT);
    if (a->kind == KJ_T_ARRAY && !in_tuple) {
        params[(*np)++] = gptr;
        for (int d = 0; d < 2 * a->ndim; d++)
            params[(*np)++] = w->i64;
    } else if (kj_is_intlike(a)) {
        params[(*np)++] = w->i64;
    } else if (a->kind == KJ_T_FLOAT || a->kind == KJ_T_COMPLEX) {
        for (int k = 0; k < need; k++)
            params[(*np)++] = w->f64;
    } else if (a->kind == KJ_T_TUPLE) {
        for (int k = 0; k < a->n; k++)
            if (flat_params(w, in, i, a->elems[k], gptr, params, np, true) < 0)
                return -1;
    } else {
        return kj_fail(&w->u->err, KJ_ERR_TYPING, in->f->first_line, 0,
                       "Pass arrays, numbers (complex too), booleans or tuples of numbers to kernels.",
                       "kernel argument %d is %s%s, which kernels cannot take yet", i + 1,
                       in_tuple ? "a tuple holding a " : "a ", a->name);
    }
    return 0;
}

/* One argument of type a, rebuilt from its flattened parts. */
static LLVMValueRef build_arg(kj_lw *w, const kj_type *a, flat_source *s, LLVMTypeRef gptr) {
    switch (a->kind) {
    case KJ_T_ARRAY: {
        LLVMValueRef arr = LLVMGetUndef(kj_lltype(w, a));
        arr = LLVMBuildInsertValue(w->b, arr, LLVMConstNull(w->ptr), 0, "");
        /* noalias would be a lie (arguments may be views of one array);
         * the address space cast lets NVPTX use global loads */
        arr = LLVMBuildInsertValue(w->b, arr, LLVMBuildAddrSpaceCast(w->b, next_flat(w, s, gptr), w->ptr, ""), 1, "");
        for (int part = 0; part < 2; part++) {
            LLVMValueRef dims = LLVMGetUndef(LLVMArrayType2(w->i64, (uint64_t)a->ndim));
            for (int d = 0; d < a->ndim; d++)
                dims = LLVMBuildInsertValue(w->b, dims, next_flat(w, s, w->i64), (unsigned)d, "");
            arr = LLVMBuildInsertValue(w->b, arr, dims, (unsigned)part + 2, "");
        }
        return arr;
    }
    case KJ_T_COMPLEX: {
        LLVMValueRef z = LLVMGetUndef(kj_lltype(w, a));
        for (unsigned k = 0; k < 2; k++) {
            LLVMValueRef part = next_flat(w, s, w->f64);
            if (a->bits == 64)
                part = LLVMBuildFPTrunc(w->b, part, w->f32, "");
            z = LLVMBuildInsertValue(w->b, z, part, k, "");
        }
        return z;
    }
    case KJ_T_TUPLE: {
        LLVMValueRef t = LLVMGetUndef(kj_lltype(w, a));
        for (int k = 0; k < a->n; k++)
            t = LLVMBuildInsertValue(w->b, t, build_arg(w, a->elems[k], s, gptr), (unsigned)k, "");
        return t;
    }
    default: {
        const kj_type *wide = kj_is_intlike(a) ? KJ_I64 : KJ_F64;
        return kj_cast(w, next_flat(w, s, kj_is_intlike(a) ? w->i64 : w->f64), wide, a);
    }
    }
}

/* The body's arguments (after its ret pointer) into args[1..n]. */
static void build_args(kj_lw *w, kj_instance *in, flat_source *s, LLVMTypeRef gptr, LLVMValueRef *args) {
    for (int i = 0; i < in->f->nargs; i++)
        args[i + 1] = build_arg(w, in->args[i], s, gptr);
}

/* void name(ptr errors, flattened arguments...) around the body. */
static int define_kernel(kj_lw *w, kj_instance *in, const char *name) {
    const kj_target *t = w->u->target;
    int n = in->f->nargs, np = 1;
    LLVMTypeRef params[MAX_FLAT + 1];
    LLVMTypeRef gptr = LLVMPointerTypeInContext(w->ctx, t->global_as);
    params[0] = gptr;
    for (int i = 0; i < n; i++)
        if (flat_params(w, in, i, in->args[i], gptr, params, &np, false) < 0)
            return -1;
    LLVMValueRef fn = LLVMAddFunction(w->mod, name, LLVMFunctionType(w->vd, params, (unsigned)np, 0));
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    LLVMSetCurrentDebugLocation2(w->b, NULL);
    LLVMValueRef args[KJ_SPEC_MAX_ARGS + 1];
    args[0] = LLVMBuildAlloca(w->b, kj_lltype(w, in->ret), "ret");
    flat_source source = {.fn = fn, .next = 1};
    build_args(w, in, &source, gptr, args);
    LLVMValueRef st = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(in->llfn), in->llfn, args, (unsigned)n + 1, "");
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(w->ctx, fn, "raised");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(w->ctx, fn, "end");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntNE, st, LLVMConstInt(w->i32, 0, 0), ""), bad, end);
    LLVMPositionBuilderAtEnd(w->b, bad);
    record_failure(w, t, LLVMBuildAddrSpaceCast(w->b, LLVMGetParam(fn, 0), w->ptr, ""));
    LLVMBuildBr(w->b, end);
    LLVMPositionBuilderAtEnd(w->b, end);
    LLVMBuildRetVoid(w->b);
    t->finish_function(t, w->mod, fn, KJ_FN_KERNEL);
    return 0;
}

/* The simulator's entry, i32 name(ptr ret, ptr words): the body's status
 * (nonzero: it raised), its arguments read from the flattened words. */
static int define_sim_entry(kj_lw *w, kj_instance *in, const char *name) {
    LLVMTypeRef params[MAX_FLAT + 1];
    int np = 0;
    for (int i = 0; i < in->f->nargs; i++)   /* only to refuse what kernels cannot take */
        if (flat_params(w, in, i, in->args[i], w->ptr, params, &np, false) < 0)
            return -1;
    LLVMValueRef fn = LLVMAddFunction(w->mod, name, LLVMFunctionType(w->i32, (LLVMTypeRef[]){w->ptr, w->ptr}, 2, 0));
    /* the body's CPU and features, so that it can be inlined here */
    static const char *const copied[] = {"target-cpu", "target-features"};
    for (int k = 0; k < 2; k++) {
        LLVMAttributeRef attr = LLVMGetStringAttributeAtIndex(in->llfn, LLVMAttributeFunctionIndex, copied[k],
                                                              (unsigned)strlen(copied[k]));
        if (attr)
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, attr);
    }
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    LLVMSetCurrentDebugLocation2(w->b, NULL);
    LLVMValueRef args[KJ_SPEC_MAX_ARGS + 1];
    args[0] = LLVMGetParam(fn, 0);
    flat_source source = {.words = LLVMGetParam(fn, 1)};
    build_args(w, in, &source, w->ptr, args);
    LLVMBuildRet(w->b, LLVMBuildCall2(w->b, LLVMGlobalGetValueType(in->llfn), in->llfn, args,
                                      (unsigned)in->f->nargs + 1, ""));
    return 0;
}

/* A function the GPU cannot call (the host runtime's integer power, ...).
 * It can call LLVM's intrinsics, libdevice's __nv_ functions and the
 * driver's vprintf. */
static int check_resolved(kj_unit *u, const kj_instance *top) {
    for (LLVMValueRef f = LLVMGetFirstFunction(u->mod); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && strncmp(name, "llvm.", 5) != 0 && strncmp(name, "__nv_", 5) != 0 &&
            strcmp(name, u->target->printf_symbol) != 0)
            return kj_fail(&u->err, KJ_ERR_UNSUPPORTED, top->f->first_line, 0,
                           "Write it another way in the kernel, or compute it on the host.",
                           "the kernel needs %s, which Kiln has only on the CPU", name);
    }
    return 0;
}

/* ---- the compile ------------------------------------------------------- */

static void kernel_name(const kj_function *f, char *out, size_t size) {
    const char *q = strrchr(f->qualname, '.');
    snprintf(out, size, "%s", q ? q + 1 : f->qualname);
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
}

static void ignore_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    (void)info, (void)opaque;
}

/* The simulator's runtime, given to the JIT once per process. */
static int define_sim_symbols(kj_unit *u) {
    static bool done;
    for (int i = 0; !done && kg_sim_symbols[i].name; i++)
        if (kj_engine_define_absolute(u, kg_sim_symbols[i].name, kg_sim_symbols[i].addr) < 0)
            return -1;
    done = true;
    return 0;
}

/* _kiln.cuda_compile(kernel, argspecs, target, fastmath, signature) where
 * target is "cuda" or "simulator" and signature names the argument types in
 * the compile record (the footer's "compiled kernel(float32, ...)"). GPU: (ptx, kernel_name, sites, seconds,
 * remarks); simulator: (entry_address, fibers, seconds, remarks). Remarks: the kernel's loops
 * optimized away as unused (unused_loops.c), in inspect_remarks' shape. */
static PyObject *py_cuda_compile(PyObject *self, PyObject *pyargs) {
    (void)self;
    PyObject *kernel, *argspecs;
    const char *target;
    int fastmath = 0;
    const char *signature = NULL;   /* for the compile record: "(float32, ...)" */
    if (!PyArg_ParseTuple(pyargs, "OO!s|pz", &kernel, &PyTuple_Type, &argspecs, &target, &fastmath, &signature))
        return NULL;
    bool gpu = strcmp(target, "cuda") == 0;
    int nargs = (int)PyTuple_GET_SIZE(argspecs);
    if (nargs > KJ_SPEC_MAX_ARGS)
        return PyErr_Format(PyExc_TypeError, "a kernel takes at most %d arguments", KJ_SPEC_MAX_ARGS);
    const kj_type *args[KJ_SPEC_MAX_ARGS + 1];
    for (int i = 0; i < nargs; i++)
        if (!(args[i] = kj_type_from_spec(PyTuple_GET_ITEM(argspecs, i))))
            return NULL;
    kj_llvm_init();
    uint64_t phase[KP_PHASE_COUNT] = {0};
    kj_unit u = {.target = gpu ? kg_target_cuda() : kg_target_simulator()};
    if (gpu && !u.target->data_layout(u.target))
        return PyErr_Format(PyExc_RuntimeError, "this LLVM has no NVPTX target");
    kj_instance *top = kj_compile_front(&u, kernel, nargs, args, NULL, false, phase);
    if (!top)
        return kj_unit_fail(&u);
    if (top->ret->kind != KJ_T_NONE) {
        kj_fail(&u.err, KJ_ERR_TYPING, top->f->first_line, 0,
                "Write results into an array argument, or make it a device function (device=True).",
                "a kernel returns nothing, but %s returns %s", top->f->qualname, top->ret->name);
        u.err_function = top->f;
        return kj_unit_fail(&u);
    }
    /* CUDA C and Numba contract a * b + c into one fma by default: kernels
     * here too, on the GPU and the simulator alike (same results on both) */
    for (kj_instance *in = u.instances; in; in = in->next)
        in->opts.fastmath |= LLVMFastMathAllowContract;
    LLVMOrcThreadSafeContextRef tsc = gpu ? NULL : LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef ctx = gpu ? LLVMContextCreate() : LLVMOrcThreadSafeContextGetContext(tsc);
    if (gpu)   /* the loop-vectorize remarks jit/ turns on are for the host; not printed */
        LLVMContextSetDiagnosticHandler(ctx, ignore_diagnostic, NULL);
    /* PTX gets .loc lines only (LLVM's DebugDirectivesOnly, 3, which the C
     * API does not name): full line tables would mark it ".target debug" */
    LLVMDWARFEmissionKind emission = gpu ? (LLVMDWARFEmissionKind)3 : LLVMDWARFEmissionLineTablesOnly;
    int status = kj_compile_module(&u, top, ctx, emission, phase);
    uint64_t t0 = kp_now_ns();   /* the runtime's IR linked and the kernel's wrapper count in lowering */
    if (status == 0)
        status = link_if_used(&u, "kiln_xoroshiro128p_", kg_xoroshiro_ir(gpu));
    if (status == 0 && gpu)
        status = link_if_used(&u, "kj_rt_ipow", gpu_runtime_ir);
    PyObject *result = NULL;
    char name[128];
    kernel_name(top->f, name, sizeof name);
    if (gpu) {
        PyObject *sites = PyList_New(0);
        kj_lw w;
        init_lw(&w, &u);
        if (status == 0 && sites && number_raise_sites(&w, sites) == 0 && define_kernel(&w, top, name) == 0 &&
            check_resolved(&u, top) == 0) {
            phase[KP_PHASE_LOWERING] += kp_now_ns() - t0;
            kg_ptx_options o = {.compute_capability = 0, .opt_level = 3, .fast_math = fastmath,
                                .optimize_ns = &phase[KP_PHASE_OPTIMIZE], .codegen_ns = &phase[KP_PHASE_CODEGEN]};
            char *ptx = NULL;
            kg_error err;
            if (kg_ptx_from_module(u.mod, &o, &ptx, &err) < 0) {
                kj_fail(&u.err, KJ_ERR_INTERNAL, 0, 0, NULL, "%s", err.message);
            } else {
                PyObject *stats = kj_phase_stats(phase), *remarks = PyList_New(0);
                if (remarks)   /* the module, optimized for the GPU, still has its lines */
                    kj_remarks_add_unused(&u, u.mod, remarks);
                if (stats && remarks) {   /* N: Py_BuildValue takes both, even when it fails */
                    result = Py_BuildValue("(ssONN)", ptx, name, sites, stats, remarks);
                } else {
                    Py_XDECREF(stats);
                    Py_XDECREF(remarks);
                }
                free(ptx);
            }
        }
        LLVMDisposeBuilder(w.b);
        Py_XDECREF(sites);
        LLVMDisposeModule(u.mod);
        LLVMContextDispose(u.ctx);
        if (!result && u.err.kind == KJ_ERR_NONE && PyErr_Occurred())
            kj_fail(&u.err, KJ_ERR_PYTHON, 0, 0, NULL, "compile");
    } else {
        char entry_name[160];
        snprintf(entry_name, sizeof entry_name, "%s_flat", top->symbol);
        if (status == 0) {
            kj_lw w;
            init_lw(&w, &u);
            status = define_sim_entry(&w, top, entry_name);
            LLVMDisposeBuilder(w.b);
        }
        int barrier = status == 0 ? kg_sim_module_uses_barrier(u.mod) : 0;
        phase[KP_PHASE_LOWERING] += kp_now_ns() - t0;
        kj_engine_out out = {0};
        if (status < 0 || define_sim_symbols(&u) < 0) {
            LLVMDisposeModule(u.mod);
            LLVMOrcDisposeThreadSafeContext(tsc);
        } else if (kj_engine_finish(&u, tsc, entry_name, &out) == 0) {
            phase[KP_PHASE_OPTIMIZE] = out.optimize_ns;
            phase[KP_PHASE_CODEGEN] = out.codegen_ns;
            PyObject *stats = kj_phase_stats(phase);
            int fibers = barrier || out.after_optimize > 0;   /* interleaving points: sim_races.c */
            result = stats ? Py_BuildValue("(KONO)", (unsigned long long)(uintptr_t)out.entry,
                                           fibers ? Py_True : Py_False, stats, out.remarks)
                           : NULL;
            free(out.ir);
            Py_XDECREF(out.remarks);
        }
    }
    if (!result) {
        if (!u.err_function)
            u.err_function = top->f;
        return kj_unit_fail(&u);
    }
    kj_compile_record(&u, top, signature ? signature : name, phase);
    kj_unit_free(&u);
    return result;
}

static PyMethodDef methods[] = {
    {"cuda_compile", py_cuda_compile, METH_VARARGS,
     "cuda_compile(kernel, argspecs, 'cuda' | 'simulator', fastmath=False, signature=None): a kiln.cuda.jit "
     "kernel compiled "
     "(gpu/cuda_compile.c says what comes back)."},
    {NULL, NULL, 0, NULL},
};

int kg_cuda_compile_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
