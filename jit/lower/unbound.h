/* unbound: the reads of locals that may find them unassigned (unbound.c). */
#ifndef KILN_JIT_UNBOUND_H
#define KILN_JIT_UNBOUND_H

#include "jit/core/ir.h"

/* Marks every read of a local that some path reaches before the local is
 * assigned (the node's and the local's may_be_unbound); returns whether
 * there is one. */
bool kj_find_unbound_reads(kj_function *f);

#endif
