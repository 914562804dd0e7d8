/* np_kind: what inference and lowering ask of NumPy arrays (kind_ops.h),
 * answered by infer_np*.c and lower_np*.c: arithmetic, methods,
 * attributes and fancy indexing of arrays, np.* calls, stores into views
 * and masks, in-place operators, and arrays frozen from globals. */
#include "jit/core/kind_ops.h"
#include "jit/numpy/lower_np.h"

KJ_KIND_OPS(array, .kind = KJ_T_ARRAY,
            .binop_type = kj_np_binop_type,
            .unary_type = kj_np_unary_type,
            .attr_type = kj_np_attr_type,
            .method_type = kj_np_method_type,
            .index_type = kj_np_index_type,
            .module = "np.",
            .module_call_type = kj_np_call_type,
            .lowers = kj_np_lowers,
            .lower = kj_np_lower,
            .constant = kj_np_frozen,
            .augassign = kj_np_augassign,
            .stores = kj_np_lowers_store,
            .store = kj_np_store);
