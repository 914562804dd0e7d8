/* gpu/sim_ir: what the simulator's passes over optimized IR share
 * (sim_races.c, sim_work.c). */
#ifndef KILN_GPU_SIM_IR_H
#define KILN_GPU_SIM_IR_H

#include <llvm-c/Core.h>

/* What a pointer points into: followed through address arithmetic and
 * casts (array data travel as 8-byte words) to what made it, as a load of
 * an argument's word, a kiln_sim_shared call, an argument or an alloca.
 * NULL where it forks (phi, select) or runs too deep: one unknown object. */
LLVMValueRef kg_sim_base_of(LLVMValueRef p);

#endif
