/* The C interface the compiler uses to reach PTX: a kernel built with the
 * LLVM-C builder becomes PTX with an .entry; IR that does not verify is an
 * error value, not a crash; xoroshiro states match Numba's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "gpu/gpu.h"

#include "tests/c/check.h"

/* void fill(float addrspace(1)* p) { p[tid.x] = 1.5f; } */
static LLVMModuleRef build_fill(LLVMContextRef ctx, int with_terminator) {
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("fill", ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), f32 = LLVMFloatTypeInContext(ctx);
    LLVMTypeRef gptr = LLVMPointerTypeInContext(ctx, 1);
    LLVMTypeRef fn_type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &gptr, 1, 0);
    LLVMValueRef fn = LLVMAddFunction(m, "fill", fn_type);
    LLVMValueRef tid = LLVMAddFunction(m, "llvm.nvvm.read.ptx.sreg.tid.x", LLVMFunctionType(i32, NULL, 0, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef index = LLVMBuildCall2(b, LLVMFunctionType(i32, NULL, 0, 0), tid, NULL, 0, "tid");
    LLVMValueRef slot = LLVMBuildGEP2(b, f32, LLVMGetParam(fn, 0), &index, 1, "slot");
    LLVMBuildStore(b, LLVMConstReal(f32, 1.5), slot);
    if (with_terminator)
        LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    kg_ptx_mark_kernel(m, fn);
    return m;
}

static void test_builder_kernel_to_ptx(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = build_fill(ctx, 1);
    kg_ptx_options options = {.compute_capability = 90, .opt_level = 3};
    char *ptx = NULL;
    kg_error err = {0};
    CHECK(kg_ptx_from_module(m, &options, &ptx, &err) == 0);
    CHECK(ptx && strstr(ptx, ".entry fill("));
    CHECK(ptx && strstr(ptx, ".target sm_90"));
    CHECK(ptx && strstr(ptx, "st.global"));  /* the store stays a global-space store */
    free(ptx);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void test_unverifiable_module_is_an_error(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = build_fill(ctx, 0); /* no ret: the verifier refuses it */
    kg_ptx_options options = {.compute_capability = 90, .opt_level = 3};
    char *ptx = (char *)1;
    kg_error err = {0};
    CHECK(kg_ptx_from_module(m, &options, &ptx, &err) == -1);
    CHECK(ptx == NULL);
    CHECK(err.kind == KG_ERR_LLVM);
    CHECK(strstr(err.message, "does not verify") != NULL);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void test_xoroshiro_states_match_numba(void) {
    /* From numba.cuda.random.init_xoroshiro128p_states_cpu(states, 1, 0). */
    const uint64_t expected[4] = {10451216379200822465ULL, 10451216379200822465ULL,
                                  8341117667364343960ULL, 7824662623250379246ULL};
    uint64_t states[4] = {0};
    kg_xoroshiro_init_states(states, 2, 1, 0);
    CHECK(memcmp(states, expected, sizeof states) == 0);
    kg_xoroshiro_init_states(states, 0, 1, 0); /* n = 0 writes nothing */
    CHECK(memcmp(states, expected, sizeof states) == 0);
}

int main(void) {
    test_builder_kernel_to_ptx();
    test_unverifiable_module_is_an_error();
    test_xoroshiro_states_match_numba();
    return check_exit_status();
}
