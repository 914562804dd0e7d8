/* rt_np: host functions compiled NumPy code calls (sorting, printing,
 * random arrays, lists). KJ_RT_NP_SYMBOLS lists them for the engine. */
#ifndef KILN_JIT_RT_NP_H
#define KILN_JIT_RT_NP_H

#include <stdint.h>

#define KJ_RT_NP_SYMBOLS

#endif
