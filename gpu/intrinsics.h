/* gpu/intrinsics: what kiln.cuda.jit code may call, through each phase of
 * jit/'s compiler. The front end, inference and lowering each hand these
 * names to this file with one check (globals.c, infer.c, lower_expr.c):
 *
 *   cuda.threadIdx.x ... gridDim.z, cuda.warpsize     int64 values
 *   cuda.grid(n), cuda.gridsize(n)                    int64, or a tuple of n
 *   cuda.syncthreads()
 *   cuda.shared.array(shape, dtype), cuda.local.array(shape, dtype)
 *   cuda.atomic.add/sub/max/min/exch(ary, idx, val), cas(ary, idx, old, val)
 *   cuda.random.xoroshiro128p_{uniform,normal}_float{32,64}(states, i)
 *
 * The Python objects behind these names are python/kiln/cuda/intrinsics.py's
 * markers; kiln's type objects (kiln.float32) become casts here as well. */
#ifndef KILN_GPU_INTRINSICS_H
#define KILN_GPU_INTRINSICS_H

#include "jit/infer_np.h"

/* The front end: if v is a kiln.cuda marker or a kiln type object, sets
 * *out to its IR (NULL on a Python error) and returns 1; else returns 0. */
int kg_value_node(kj_function *f, PyObject *v, int line, int col, kj_node **out);

/* Whether n is a call of one of the names above. */
bool kg_cuda_call(const kj_node *n);
/* Inference of such a call. */
const kj_type *kg_cuda_call_type(kj_infer_ctx *c, kj_node *n);
/* Lowering of such a call (an error on the host CPU target). */
LLVMValueRef kg_cuda_lower(kj_lw *w, kj_node *n);

#endif
