/* symbols: what compiled code links beyond runtime.c's core, by address
 * (the engine defines them in the JIT: _kiln.so is loaded RTLD_LOCAL, so
 * a lookup by name would not find them). */
#include "jit/engine/engine.h"
#include "jit/lower/stream_stores.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_dict.h"
#include "jit/runtime/rt_linalg.h"
#include "jit/runtime/rt_list.h"
#include "jit/runtime/rt_np.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/rt_random.h"
#include "jit/runtime/rt_sort.h"
#include "jit/runtime/rt_stats.h"

const kj_symbol kj_library_symbols[] = {
    {"kj_nrt_alloc", (void *)kj_nrt_alloc},
    {"kj_nrt_alloc_zeroed", (void *)kj_nrt_alloc_zeroed},
    {"kj_nrt_incref", (void *)kj_nrt_incref},
    {"kj_nrt_decref", (void *)kj_nrt_decref},
    {"kj_stream_min_bytes", (void *)&kj_stream_min_bytes},   /* array expressions (stream_stores.h) */
    KJ_RT_NP_SYMBOLS
    KJ_RT_LIST_SYMBOLS
    KJ_RT_DICT_SYMBOLS
    KJ_RT_PRINT_SYMBOLS
    KJ_RT_SORT_SYMBOLS
    KJ_RT_RANDOM_SYMBOLS
    KJ_RT_LINALG_SYMBOLS
    KJ_RT_STATS_SYMBOLS
    {NULL, NULL},
};
