/* infer_method: the types of calls of the methods of lists, sets and
 * dicts (x.append(v), s.union(t)): the arguments are typed here, then the
 * method's registry entry (callables.h) types the call. */
#include "jit/infer/infer_ctx.h"
#include "jit/core/callables.h"

#include <string.h>

#define FAIL KJ_INFER_FAIL

/* A method has no more positional arguments than set.union is given in
 * practice. */
enum { MAX_ARGS = 16 };

const kj_type *kj_infer_method_refused(ti *c, kj_node *n, const kj_type *self, bool known) {
    const char *prefix = kj_kind_ops_of(self->kind)->methods;
    char names[512], hint[600];
    kj_callable_names_under(prefix, names, sizeof names);
    snprintf(hint, sizeof hint, "In compiled code, %s has the methods %s.", prefix, names);
    FAIL(c, n, hint, "%s has no method '%s'%s in compiled code", prefix, n->name, known ? " with these arguments" : "");
}

const kj_type *kj_infer_container_method(ti *c, kj_node *n, const kj_type *self) {
    const char *prefix = kj_kind_ops_of(self->kind)->methods;
    const kj_callable *k = kj_container_method(prefix, n->name);
    if (!k)
        return kj_infer_method_refused(c, n, self, false);
    const kj_type *a[MAX_ARGS];
    int na = 0;
    for (int i = 1; i < n->nkids; i++) {
        kj_node *arg = n->kids[i];
        if (arg->kind == KJ_E_KEYWORD) {
            if (!k->keyword || strcmp(arg->name, k->keyword) != 0)
                FAIL(c, arg, NULL, "%s.%s takes no keyword argument '%s' in compiled code", prefix, n->name, arg->name);
            if (!kj_value_of(kj_infer_sub(c, arg->kids[0])))
                return NULL;
            continue;
        }
        if (na == MAX_ARGS)
            FAIL(c, n, NULL, "too many arguments for %s.%s", prefix, n->name);
        if (!(a[na++] = kj_value_of(kj_infer_sub(c, arg))))
            return NULL;
    }
    return k->method_type(c, n, self, na, a);
}
