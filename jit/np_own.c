/* np_own: see np_own.h. */
#include "jit/np_own.h"

#include <string.h>

#define OWN(np_name, part) {np_name, kj_np_##part##_type, kj_np_lower_##part}

static const kj_np_own own[] = {
    OWN("nan_to_num", nan_to_num), OWN("cross", cross), OWN("kron", kron), OWN("atleast_1d", atleast),
    OWN("atleast_2d", atleast), OWN("atleast_3d", atleast), OWN("frexp", frexp), OWN("trim_zeros", trim_zeros),
    OWN("vander", vander), OWN("delete", delete), OWN("split", split), OWN("array_split", split),
    OWN("hsplit", split), OWN("vsplit", split), OWN("dsplit", split), OWN("resize", resize), OWN("indices", indices),
    OWN("geomspace", geomspace), OWN("polyval", polyval), OWN("unwrap", unwrap),
    OWN("put", put), OWN("place", put),
};

const kj_np_own *kj_np_own_of(const char *m) {
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (!strcmp(own[i].name, m))
            return &own[i];
    return NULL;
}
