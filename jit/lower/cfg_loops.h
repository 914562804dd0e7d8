/* cfg_loops: loops in a module's control flow, for the engine's choice of
 * code generator (engine.c). */
#ifndef KILN_JIT_CFG_LOOPS_H
#define KILN_JIT_CFG_LOOPS_H

#include <stdbool.h>
#include <llvm-c/Core.h>

/* Whether any function defined in mod has a loop in its control flow. */
bool kj_module_has_loops(LLVMModuleRef mod);

#endif
