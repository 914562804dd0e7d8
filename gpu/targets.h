/* gpu/targets: the CUDA and CUDA-simulator targets of Kiln's compiler, as
 * jit/core/target.h asks for them. For jit/ (which has LLVM on its include
 * path); _kiln.c and Python-only code use gpu/gpu.h.
 *
 * CUDA: nvptx64-nvidia-cuda for the device's SM (sm_90 without a device);
 * arrays in global memory (addrspace 1), cuda.shared.array in addrspace 3,
 * local arrays in 5; math from libdevice (__nv_sin, __nv_sinf...); kernels
 * marked with nvvm.annotations. kg_ptx_from_module then makes the PTX.
 *
 * Simulator: the host CPU, with thread indices, barriers and dynamic shared
 * memory from gpu/sim.c. Lower a simulated kernel as a KJ_FN_ENTRY function
 * (i32 entry(ptr ret, ptr args)) and run it with kg_sim_launch. */
#ifndef KILN_GPU_TARGETS_H
#define KILN_GPU_TARGETS_H

#include "gpu/gpu.h"
#include "jit/core/target.h"

const kj_target *kg_target_cuda(void);
const kj_target *kg_target_simulator(void);

/* The block's dynamic shared memory (cuda.shared.array(0, dtype)), as a
 * pointer in t's shared address space, emitted at the builder. */
LLVMValueRef kg_target_dynamic_shared(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b);

/* A cuda.shared.array of type at (an LLVM array type) whose size is known at
 * compile time: a shared-memory global on the GPU; on the simulator memory
 * of the running launch (kiln_sim_shared), so that two host threads
 * launching the same kernel at once do not share it. */
LLVMValueRef kg_target_static_shared(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b, LLVMTypeRef at);

/* The SM Kiln compiles for: the device's compute capability (e.g. 90),
 * capped at the newest LLVM 19 knows; 90 without a GPU. */
int kg_ptx_default_sm(void);

/* An NVPTX target machine for sm (e.g. 90) at an opt level 0..3; the caller
 * disposes it. NULL with err filled if LLVM has no NVPTX. */
LLVMTargetMachineRef kg_nvptx_target_machine(int sm, int opt_level, kg_error *err);

#endif
