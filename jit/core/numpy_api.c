/* numpy_api: the one definition of NumPy's C API table for the jit layer
 * (numpy_api.h), filled once at module import. */
#define KJ_NUMPY_DEFINE_API
#include "jit/core/numpy_api.h"

int kj_numpy_api_import(void) {
    import_array1(-1);
    return 0;
}
