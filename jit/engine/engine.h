/* engine: LLVM set-up, the optimization pipeline (new pass manager, O2,
 * with loop-vectorize remarks captured per compile) and the ORC LLJIT that
 * turns modules into machine code for the host. */
#ifndef KILN_JIT_ENGINE_H
#define KILN_JIT_ENGINE_H

#include <stdint.h>
#include <llvm-c/Orc.h>

#include "jit/core/unit.h"
#include "jit/runtime/runtime.h"

/* Parses LLVM's command-line options once per process (loop-vectorize
 * remarks on). Other layers that need LLVM options must go through here:
 * LLVM's options may only be parsed once. Every use of LLVM starts here:
 * it first waits for the warm-up thread's first step (options, the CPU's
 * target machine, a first run of a pipeline), if one runs; machine code
 * and the JIT wait for the steps that use them (engine.c). */
void kj_llvm_init(void);

/* Starts LLVM's one-time set-up on a background thread (called at import;
 * KILN_NO_WARM_UP=1 in the environment leaves it to the first compile). */
void kj_engine_warm_up(void);

typedef struct {
    char *ir;            /* optimized IR (malloc'd) */
    PyObject *remarks;   /* new list of dicts {line, kind, message} */
    uint64_t optimize_ns, codegen_ns;
    void *entry;         /* address of the unit's entry function */
    int after_optimize;  /* what the target's after_optimize hook returned, or 0 */
} kj_engine_out;

/* Verifies, optimizes and JIT-compiles u->mod (created in the context of
 * tsc), then looks up entry_name. Consumes the module and tsc either way.
 * Returns 0, or -1 with u->err filled. */
int kj_engine_finish(kj_unit *u, LLVMOrcThreadSafeContextRef tsc, const char *entry_name,
                     kj_engine_out *out);

/* What LLVM is doing for a compile at this moment, without the GIL
 * ("optimizing", "generating machine code"), or NULL. Any thread. */
const char *kj_engine_doing(void);

/* LLVM's diagnostic handler during a compile (remarks.c): the loop
 * vectorizer's remarks appended to the list that opaque (a PyObject **)
 * points to, when it points to one. */
void kj_remarks_on_diagnostic(LLVMDiagnosticInfoRef info, void *opaque);
/* An "ordered" remark for each line of optimized mod with a float
 * reduction vectorized in order. */
void kj_remarks_add_ordered(LLVMModuleRef mod, PyObject *list);
/* An "unused" remark for each loop of u's function, if it returns None,
 * that optimized mod no longer runs (unused_loops.c). */
void kj_remarks_add_unused(kj_unit *u, LLVMModuleRef mod, PyObject *list);

/* The runtime's symbols beyond runtime.c's core (nrt, NumPy helpers,
 * lists, dicts, print, sort, random, linalg), for the
 * engine to define in the JIT; NULL-terminated (symbols.c). */
extern const kj_symbol kj_library_symbols[];

/* mod as the object file the JIT links (position-independent, for the
 * host), or NULL with u->err filled. */
LLVMMemoryBufferRef kj_engine_emit(kj_unit *u, LLVMModuleRef mod);

/* For cached code (cache.c): defines an absolute symbol in the JIT (each
 * name once per process), and adds an object file (consumed), looking up
 * entry_name in it. Return 0, or -1 with u->err filled. */
int kj_engine_define_absolute(kj_unit *u, const char *name, void *addr);
int kj_engine_add_object(kj_unit *u, LLVMMemoryBufferRef obj, const char *entry_name, void **entry);

/* The host assembly of an IR module text; malloc'd, NULL with a Python
 * exception set on failure. */
char *kj_engine_asm(const char *ir);

#endif
