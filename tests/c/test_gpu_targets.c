/* The CUDA and simulator kj_targets as lowering will use them: one kernel
 * body, built only through the target's hooks (thread indices, barrier,
 * shared memory address space, atomics, math symbol), becomes PTX for the
 * GPU and, for the simulator, host code that ORC compiles and
 * kg_sim_launch runs, with the right results. And the host variant of the
 * device-side random number IR draws xoroshiro128+'s numbers.
 *
 * The kernel, per block of N threads:
 *   shared[tid] = sin(x[gid]); syncthreads();
 *   out[gid] = shared[N - 1 - tid];  atomic_add(count, 1)          */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "gpu/sim.h"
#include "gpu/targets.h"

#include "tests/c/check.h"

enum { N = 64 };

/* Emits the body. x, out, count are pointers in the target's global
 * address space. */
static void emit_body(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef out,
                      LLVMValueRef count) {
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef shared_type = LLVMArrayType2(f64, N);
    LLVMValueRef shared = LLVMAddGlobalInAddressSpace(m, shared_type, "shared", t->shared_as);
    LLVMSetInitializer(shared, LLVMGetUndef(shared_type));
    LLVMSetLinkage(shared, LLVMInternalLinkage);

    LLVMValueRef tid = t->special_reg(t, m, b, KJ_SREG_TID_X);
    LLVMValueRef ntid = t->special_reg(t, m, b, KJ_SREG_NTID_X);
    LLVMValueRef ctaid = t->special_reg(t, m, b, KJ_SREG_CTAID_X);
    LLVMValueRef gid = LLVMBuildAdd(b, LLVMBuildMul(b, ctaid, ntid, ""), tid, "gid");

    const char *sin_name = t->math_symbol(t, "sin", 64);
    LLVMTypeRef sin_type = LLVMFunctionType(f64, &f64, 1, 0);
    LLVMValueRef sin_fn = LLVMGetNamedFunction(m, sin_name);
    if (!sin_fn)
        sin_fn = LLVMAddFunction(m, sin_name, sin_type);
    LLVMValueRef xv = LLVMBuildLoad2(b, f64, LLVMBuildGEP2(b, f64, x, &gid, 1, ""), "");
    LLVMValueRef s = LLVMBuildCall2(b, sin_type, sin_fn, &xv, 1, "");
    LLVMValueRef idx[2] = {LLVMConstInt(i32, 0, 0), tid};
    LLVMBuildStore(b, s, LLVMBuildGEP2(b, shared_type, shared, idx, 2, ""));

    t->barrier(t, m, b);

    idx[1] = LLVMBuildSub(b, LLVMConstInt(i32, N - 1, 0), tid, "");
    LLVMValueRef other = LLVMBuildLoad2(b, f64, LLVMBuildGEP2(b, shared_type, shared, idx, 2, ""), "");
    LLVMBuildStore(b, other, LLVMBuildGEP2(b, f64, out, &gid, 1, ""));
    t->atomic_rmw(t, b, LLVMAtomicRMWBinOpAdd, count, LLVMConstInt(i64, 1, 0));
}

static void test_cuda_target_makes_ptx(void) {
    const kj_target *t = kg_target_cuda();
    CHECK(strcmp(t->triple(t), "nvptx64-nvidia-cuda") == 0 && t->data_layout(t) && t->target_machine(t));
    CHECK(strcmp(t->math_symbol(t, "atan2", 32), "__nv_atan2f") == 0);
    CHECK(t->math_symbol(t, "no_such_function", 64) == NULL);

    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("k", ctx);
    LLVMTypeRef gptr = LLVMPointerTypeInContext(ctx, t->global_as);
    LLVMTypeRef params[3] = {gptr, gptr, gptr};
    LLVMValueRef fn = LLVMAddFunction(m, "mirror_sin", LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 3, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    emit_body(t, m, b, LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), LLVMGetParam(fn, 2));
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    t->finish_function(t, m, fn, KJ_FN_KERNEL);

    kg_ptx_options options = {.compute_capability = 90, .opt_level = 3};
    char *ptx = NULL;
    kg_error err = {0};
    int status = kg_ptx_from_module(m, &options, &ptx, &err);
    CHECK(status == 0);
    if (status != 0)
        fprintf(stderr, "%s\n", err.message);
    CHECK(ptx && strstr(ptx, ".entry mirror_sin("));
    CHECK(ptx && strstr(ptx, "bar.sync"));
    CHECK(ptx && strstr(ptx, ".shared"));
    CHECK(ptx && strstr(ptx, "atom.global.add"));
    CHECK(ptx && strstr(ptx, "%tid.x"));
    CHECK(ptx && !strstr(ptx, ".extern .func")); /* __nv_sin came from libdevice */
    free(ptx);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* i32 mirror_sin(ptr ret, ptr args), args = {ptr x, ptr out, ptr count}. */
static LLVMModuleRef simulator_module(LLVMContextRef ctx, const kj_target *t) {
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("k", ctx);
    LLVMSetTarget(m, t->triple(t));
    LLVMSetDataLayout(m, t->data_layout(t));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef params[2] = {ptr, ptr};
    LLVMValueRef fn = LLVMAddFunction(m, "mirror_sin", LLVMFunctionType(i32, params, 2, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef args = LLVMGetParam(fn, 1), slots[3];
    for (unsigned i = 0; i < 3; i++) {
        LLVMValueRef k = LLVMConstInt(LLVMInt64TypeInContext(ctx), i, 0);
        slots[i] = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, ptr, args, &k, 1, ""), "");
    }
    emit_body(t, m, b, slots[0], slots[1], slots[2]);
    LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
    LLVMDisposeBuilder(b);
    t->finish_function(t, m, fn, KJ_FN_ENTRY);
    return m;
}

static int consume(LLVMErrorRef e, const char *what) {
    if (!e)
        return 0;
    char *message = LLVMGetErrorMessage(e);
    fprintf(stderr, "%s: %s\n", what, message);
    LLVMDisposeErrorMessage(message);
    failures++;
    return -1;
}

/* An LLJIT holding m (which it takes), with the simulator's runtime and the
 * process's libm visible; NULL after reporting a failure. */
static LLVMOrcLLJITRef jit_module(LLVMModuleRef m, LLVMOrcThreadSafeContextRef tsc) {
    LLVMOrcLLJITRef jit;
    if (consume(LLVMOrcCreateLLJIT(&jit, NULL), "LLJIT"))
        return NULL;
    LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcCSymbolMapPair pairs[8];
    int n = 0;
    for (; kg_sim_symbols[n].name; n++) {
        pairs[n].Name = LLVMOrcLLJITMangleAndIntern(jit, kg_sim_symbols[n].name);
        pairs[n].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)kg_sim_symbols[n].addr;
        pairs[n].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported;
        pairs[n].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcDefinitionGeneratorRef libm;
    consume(LLVMOrcJITDylibDefine(dylib, LLVMOrcAbsoluteSymbols(pairs, (size_t)n)), "define");
    consume(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&libm, LLVMOrcLLJITGetGlobalPrefix(jit), NULL,
                                                                 NULL), "process symbols");
    LLVMOrcJITDylibAddGenerator(dylib, libm);
    if (consume(LLVMOrcLLJITAddLLVMIRModule(jit, dylib, LLVMOrcCreateNewThreadSafeModule(m, tsc)), "add")) {
        consume(LLVMOrcDisposeLLJIT(jit), "dispose");
        return NULL;
    }
    return jit;
}

static void *lookup(LLVMOrcLLJITRef jit, const char *name) {
    LLVMOrcExecutorAddress address = 0;
    return consume(LLVMOrcLLJITLookup(jit, &address, name), name) ? NULL : (void *)(uintptr_t)address;
}

static void test_simulator_target_runs_on_the_host(void) {
    const kj_target *t = kg_target_simulator();
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMModuleRef m = simulator_module(LLVMOrcThreadSafeContextGetContext(tsc), t);
    CHECK(kg_sim_module_uses_barrier(m));
    LLVMOrcLLJITRef jit = jit_module(m, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    kg_sim_entry entry = jit ? (kg_sim_entry)lookup(jit, "mirror_sin") : NULL;
    if (entry) {
        enum { BLOCKS = 3 };
        double x[BLOCKS * N], out[BLOCKS * N];
        long long count = 0;
        for (int i = 0; i < BLOCKS * N; i++)
            x[i] = (i - 90) * 0.37, out[i] = NAN;
        void *args[3] = {x, out, &count};
        kg_sim_config config = {.grid = {BLOCKS, 1, 1}, .block = {N, 1, 1}, .dynamic_shared = 0, .fibers = 1};
        kg_error err = {0};
        CHECK(kg_sim_launch(entry, NULL, args, &config, &err) == 0);
        for (int blk = 0; blk < BLOCKS; blk++)
            for (int tid = 0; tid < N; tid++)
                CHECK(out[blk * N + tid] == sin(x[blk * N + (N - 1 - tid)]));
        CHECK(count == BLOCKS * N);
    }
    if (jit)
        consume(LLVMOrcDisposeLLJIT(jit), "dispose");
}

/* i32 reverse(ptr ret, ptr args) for the simulator, or void reverse(ptr
 * out) as a CUDA kernel: dyn = dynamic shared float[ntid];
 * dyn[tid] = tid; syncthreads(); out[tid] = dyn[ntid - 1 - tid]. */
static LLVMModuleRef dynamic_shared_module(LLVMContextRef ctx, const kj_target *t) {
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("dyn", ctx);
    int sim = t == kg_target_simulator();
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, sim ? 0 : t->global_as);
    LLVMTypeRef params[2] = {ptr, ptr};
    LLVMTypeRef type = sim ? LLVMFunctionType(i32, params, 2, 0)
                           : LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 1, 0);
    LLVMValueRef fn = LLVMAddFunction(m, "reverse", type);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef out = sim ? LLVMBuildLoad2(b, ptr, LLVMGetParam(fn, 1), "out") : LLVMGetParam(fn, 0);
    LLVMValueRef dyn = kg_target_dynamic_shared(t, m, b);
    LLVMValueRef tid = t->special_reg(t, m, b, KJ_SREG_TID_X), ntid = t->special_reg(t, m, b, KJ_SREG_NTID_X);
    LLVMBuildStore(b, LLVMBuildSIToFP(b, tid, f32, ""), LLVMBuildGEP2(b, f32, dyn, &tid, 1, ""));
    t->barrier(t, m, b);
    LLVMValueRef mirror = LLVMBuildSub(b, LLVMBuildSub(b, ntid, LLVMConstInt(i32, 1, 0), ""), tid, "");
    LLVMValueRef v = LLVMBuildLoad2(b, f32, LLVMBuildGEP2(b, f32, dyn, &mirror, 1, ""), "");
    LLVMBuildStore(b, v, LLVMBuildGEP2(b, f32, out, &tid, 1, ""));
    if (sim)
        LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
    else
        LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    t->finish_function(t, m, fn, sim ? KJ_FN_ENTRY : KJ_FN_KERNEL);
    return m;
}

static void test_dynamic_shared_memory_on_both_targets(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = dynamic_shared_module(ctx, kg_target_cuda());
    kg_ptx_options options = {.compute_capability = 90, .opt_level = 3};
    char *ptx = NULL;
    kg_error err = {0};
    CHECK(kg_ptx_from_module(m, &options, &ptx, &err) == 0);
    CHECK(ptx && strstr(ptx, ".extern .shared .align 16 .b8 kiln_dynamic_shared[]"));
    free(ptx);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);

    const kj_target *t = kg_target_simulator();
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMModuleRef sim = dynamic_shared_module(LLVMOrcThreadSafeContextGetContext(tsc), t);
    LLVMSetTarget(sim, t->triple(t));
    LLVMSetDataLayout(sim, t->data_layout(t));
    LLVMOrcLLJITRef jit = jit_module(sim, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    kg_sim_entry entry = jit ? (kg_sim_entry)lookup(jit, "reverse") : NULL;
    if (entry) {
        float out[48];
        void *args[1] = {out};
        kg_sim_config config = {.grid = {1, 1, 1}, .block = {48, 1, 1}, .dynamic_shared = 48 * sizeof(float), .fibers = 1};
        CHECK(kg_sim_launch(entry, NULL, args, &config, &err) == 0);
        for (int i = 0; i < 48; i++)
            CHECK(out[i] == (float)(47 - i));
    }
    if (jit)
        consume(LLVMOrcDisposeLLJIT(jit), "dispose");
}

/* The xoroshiro128+ step, written out here independently of the IR. */
static uint64_t next_state(uint64_t *s) {
    uint64_t s0 = s[0], s1 = s[1], result = s0 + s1;
    s1 ^= s0;
    s[0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
    s[1] = (s1 << 36) | (s1 >> 28);
    return result;
}

static void test_host_random_ir_matches_the_algorithm(void) {
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
    const char *ir = kg_xoroshiro_ir(0);
    LLVMModuleRef m = NULL;
    char *message = NULL;
    LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "xoroshiro");
    CHECK(LLVMParseIRInContext(ctx, buffer, &m, &message) == 0);
    LLVMDisposeMessage(message);
    LLVMOrcLLJITRef jit = m ? jit_module(m, tsc) : NULL;
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (!jit)
        return;
    typedef double (*draw64)(uint64_t *, int64_t);
    typedef float (*draw32)(uint64_t *, int64_t);
    draw64 uniform64 = (draw64)lookup(jit, "kiln_xoroshiro128p_uniform_float64");
    draw32 uniform32 = (draw32)lookup(jit, "kiln_xoroshiro128p_uniform_float32");
    draw64 normal64 = (draw64)lookup(jit, "kiln_xoroshiro128p_normal_float64");
    if (uniform64 && uniform32 && normal64) {
        uint64_t states[2 * 4], mine[2];
        kg_xoroshiro_init_states(states, 4, 99, 0);
        memcpy(mine, &states[2 * 3], sizeof mine);
        for (int k = 0; k < 100; k++) {
            CHECK(uniform64(states, 3) == (double)(next_state(mine) >> 11) * 0x1p-53);
            CHECK(uniform32(states, 3) == (float)((double)(next_state(mine) >> 11) * 0x1p-53));
            double u1 = (double)(next_state(mine) >> 11) * 0x1p-53, u2 = (double)(next_state(mine) >> 11) * 0x1p-53;
            CHECK(normal64(states, 3) == sqrt(-2.0 * log(u1)) * cos(0x1.921fb54442d18p+2 * u2));
        }
        CHECK(memcmp(mine, &states[2 * 3], sizeof mine) == 0);
    }
    consume(LLVMOrcDisposeLLJIT(jit), "dispose");
}

int main(void) {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    test_cuda_target_makes_ptx();
    test_simulator_target_runs_on_the_host();
    test_host_random_ir_matches_the_algorithm();
    test_dynamic_shared_memory_on_both_targets();
    return check_exit_status();
}
