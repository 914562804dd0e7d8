/* target: what lowering asks of the machine it generates code for.
 *
 * The front end, the IR (ir.h), the types (types.h) and type inference know
 * nothing of the target. Lowering (lower*.c) turns typed IR into LLVM IR and
 * asks a kj_target for everything that differs between the host CPU, CUDA and
 * the CUDA simulator: triple and data layout, address spaces, the GPU
 * intrinsics (thread indices, barriers, atomics), which library symbol
 * implements a math function, and how a function becomes an entry point.
 *
 * The host CPU target is kj_target_cpu() (target_cpu.c). The gpu/ layer
 * builds its own kj_target values (CUDA, simulator) against this header. */
#ifndef KILN_JIT_TARGET_H
#define KILN_JIT_TARGET_H

#include <stdbool.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

/* The GPU special registers lowering may ask for (cuda.threadIdx.x, ...). */
typedef enum {
    KJ_SREG_TID_X, KJ_SREG_TID_Y, KJ_SREG_TID_Z,
    KJ_SREG_NTID_X, KJ_SREG_NTID_Y, KJ_SREG_NTID_Z,
    KJ_SREG_CTAID_X, KJ_SREG_CTAID_Y, KJ_SREG_CTAID_Z,
    KJ_SREG_NCTAID_X, KJ_SREG_NCTAID_Y, KJ_SREG_NCTAID_Z,
    KJ_SREG_WARPSIZE,
} kj_sreg;

/* The kinds of function lowering produces. */
typedef enum {
    KJ_FN_INTERNAL,   /* called only from compiled code (inlinable) */
    KJ_FN_ENTRY,      /* called by the dispatcher: i32 entry(ptr ret, ptr args) */
    KJ_FN_KERNEL,     /* a GPU kernel launched by the driver */
} kj_fn_kind;

typedef struct kj_target kj_target;

struct kj_target {
    const char *name;             /* "cpu", "cuda", "cuda-simulator" */

    /* Where machine code goes. The CPU target answers from the host. */
    const char *(*triple)(const kj_target *t);
    const char *(*data_layout)(const kj_target *t);
    /* A target machine for optimization and code emission; owned by the
     * target, valid for the life of the process. NULL if none can be made. */
    LLVMTargetMachineRef (*target_machine)(const kj_target *t);

    /* Address spaces of memory reached by pointers: arrays passed in
     * (global), block-shared memory, per-thread local memory. 0 on the CPU. */
    unsigned global_as, shared_as, local_as;

    /* Whether compiled loops poll the interrupt flag (host only: GPU code
     * cannot be interrupted that way) and whether the runtime is reachable
     * (exceptions set by kj_rt_raise; a GPU target records an error code). */
    bool poll_interrupts;
    bool has_runtime;
    /* Whether a range loop whose range proves some bounds checks of its
     * body is emitted twice, with and without them (lower_range_checks.c). */
    bool version_checked_loops;
    /* Whether range(start, stop, step) with a step that is not a literal (a
     * GPU grid-stride loop) steps its index instead of counting iterations
     * (lower.c, lower_for_strided_range). */
    bool step_strided_ranges;
    /* Whether engine.c's optimizer may vectorize a float sum without
     * fastmath, its adds kept in order; lower.c then leaves the loops that
     * gain nothing from it scalar (lower_strict_sums.c). */
    bool vectorizes_ordered_sums;

    /* The symbol of the library function computing `fn` ("sin", "pow",
     * "atan2", ...; the names of C's math.h for double) for a float of
     * `bits` 32 or 64, e.g. "sinf" on the CPU or "__nv_sinf" with libdevice.
     * NULL when the target has none (lowering then reports the function as
     * unsupported on this target). */
    const char *(*math_symbol)(const kj_target *t, const char *fn, int bits);

    /* print() as C's printf of a format made when compiling and a buffer
     * of 8-byte arguments (CUDA's vprintf, whose output numba-cuda's print
     * formats: ints %lld, floats %f), this function's symbol; NULL where
     * print() calls Python's (the CPU). lower_printf.c. */
    const char *printf_symbol;

    /* GPU intrinsics; NULL members on the CPU. Each emits at the builder's
     * position and returns the value (an i32 for special registers). */
    LLVMValueRef (*special_reg)(const kj_target *t, LLVMModuleRef m,
                                LLVMBuilderRef b, kj_sreg reg);
    void (*barrier)(const kj_target *t, LLVMModuleRef m, LLVMBuilderRef b);
    /* Atomic read-modify-write on a pointer to global or shared memory;
     * returns the old value. */
    LLVMValueRef (*atomic_rmw)(const kj_target *t, LLVMBuilderRef b,
                               LLVMAtomicRMWBinOp op, LLVMValueRef ptr,
                               LLVMValueRef val);

    /* Called once per lowered function, after its body: sets linkage,
     * calling convention and entry annotations (nvvm.annotations "kernel"
     * on CUDA). */
    void (*finish_function)(const kj_target *t, LLVMModuleRef m,
                            LLVMValueRef fn, kj_fn_kind kind);

    /* Called on the optimized module before its machine code is made, or
     * NULL; what it returns is kj_engine_out.after_optimize (the simulator
     * interleaves its threads there: gpu/sim_races.c). */
    int (*after_optimize)(const kj_target *t, LLVMModuleRef m);

    void *impl;                   /* the target's own state */
};

/* The host CPU target (ORC JIT). Never NULL. */
const kj_target *kj_target_cpu(void);

#endif
