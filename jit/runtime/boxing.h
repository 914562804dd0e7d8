/* boxing: values of compiled code's types as Python objects and back
 * (boxing.c), and the runtime's own boxing of the containers compiled code
 * makes (rt_list.c, rt_dict.c). */
#ifndef KILN_JIT_BOXING_H
#define KILN_JIT_BOXING_H

#include "jit/core/types.h"
#include "jit/core/numpy_api.h"

/* The bytes a value of type t takes, and its alignment, as LLVM's default
 * data layout has them (tuples as structs, an Optional as a flag before
 * its value). */
size_t kj_value_size(const kj_type *t);
size_t kj_value_align(const kj_type *t);
/* The bytes an item of a compiled list, set or dict of type t takes:
 * there a tuple is packed, its fields one after another (kj_llmemtype). */
size_t kj_item_size(const kj_type *t);

/* The arrays kj_unbox made from buffer objects for one call, owned: the
 * caller releases them after the call. One per argument at most. */
#define KJ_UNBOX_TEMPS 32
typedef struct {
    PyObject *temps[KJ_UNBOX_TEMPS];
    int ntemps;
    /* Python lists passed in, each with the compiled list made of its items
     * and those items as first laid out: kj_unbox_reflect gives the list
     * what the call left in its copy, as Numba's reflected lists do */
    struct {
        PyObject *list;
        void *owner;
        const kj_type *type;
        void *before;
    } lists[KJ_UNBOX_TEMPS];
    int nlists;
} kj_unbox_temps;

/* Python value v as a value of type t at dst. Returns 0, or -1 with a
 * TypeError (or OverflowError) set. */
int kj_unbox(PyObject *v, const kj_type *t, char *dst, kj_unbox_temps *temps);
/* After the call, raised or not: each Python list passed in takes the items
 * of its compiled copy where the call changed them, and the copies and
 * temps are released. An exception of the call stays the one raised.
 * Returns 0, or -1 with an exception. */
int kj_unbox_release(kj_unbox_temps *temps);
/* The Python value of a value of type t laid out at src (an array's
 * reference on its owner passes to the NumPy array's base); NULL with an
 * exception. */
PyObject *kj_box_value(const char *src, const kj_type *t);

/* A Python list, dict or set of a container's items; each takes over the
 * reference on owner (rt_list.c, rt_dict.c). */
PyObject *kj_list_box(void *owner, const kj_type *t);
PyObject *kj_dict_box(void *owner, const kj_type *t);
PyObject *kj_set_box(void *owner, const kj_type *t);
/* A Python number or tuple of numbers from an item as lists and dicts lay
 * them out (bools as bytes, tuples packed; rt_list.c). */
PyObject *kj_box_item(const char *p, const kj_type *t);

#endif
