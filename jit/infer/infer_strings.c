/* infer_strings: the types of f-strings, str(x) and print() (lowered by
 * lower/strings.c, whose header says what strings can do). */
#include "jit/infer/infer_ctx.h"
#include "jit/lower/strings.h"
#include "jit/runtime/rt_print.h"

#include <string.h>

#define FAIL KJ_INFER_FAIL

const kj_type *kj_str_expr_type(kj_infer_ctx *c, kj_node *n) {
    if (n->kind == KJ_E_FSTRING) {
        for (int i = 0; i < n->nkids; i++)
            if (!kj_value_of(kj_infer_sub(c, n->kids[i])))
                return NULL;
        return kj_str();
    }
    const kj_type *t = kj_value_of(kj_infer_sub(c, n->kids[0]));
    if (!t)
        return NULL;
    bool number = kj_is_number(t) && t->kind != KJ_T_COMPLEX;
    if (!number && t->kind != KJ_T_STR)
        FAIL(c, n, "Format numbers and strings; print arrays with print().", "f-strings in compiled code cannot format %s",
             t->name);
    const char *spec = n->str;
    bool ok = !spec || !*spec ||
              (number && (kj_fmt_spec_ok(spec, true) || (kj_is_intlike(t) && kj_fmt_spec_ok(spec, false))) &&
               (kj_is_intlike(t) || kj_str_float_spec(spec)));
    if (!ok)
        FAIL(c, n, "Use [0][width][.precision][type] with type d, e, f or g.",
             "the format spec '%s' is not supported for %s in compiled code", spec, t->name);
    return kj_str();
}

static bool printable(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (!printable(t->elems[i]))
                return false;
        return true;
    case KJ_T_OPTIONAL: return false;
    case KJ_T_ARRAY: return kj_type_to_npy(t->elem) >= 0;
    case KJ_T_LIST: return !t->elem || (t->elem->kind != KJ_T_ARRAY && t->elem->kind != KJ_T_LIST);   /* print its items one by one */
    case KJ_T_DICT: return !t->n || t->elems[1]->kind != KJ_T_ARRAY;   /* print its arrays one by one */
    case KJ_T_SET: return true;   /* of numbers and tuples of them */
    default: return kj_is_number(t) || t->kind == KJ_T_STR || t->kind == KJ_T_NONE;
    }
}

const kj_type *kj_str_call_type(kj_infer_ctx *c, kj_node *n, const char *name, int nargs,
                                const kj_type *const *args, bool *handled) {
    if (strcmp(name, "str") == 0) {   /* str(x) is f"{x}" */
        *handled = true;
        if (nargs != 1 || n->kids[1]->kind == KJ_E_KEYWORD)
            FAIL(c, n, NULL, "str() in compiled code takes one number or string");
        n->kind = KJ_E_FORMAT;   /* one {x} part of an f-string, standing alone */
        n->kids[0] = n->kids[1];
        n->nkids = 1;
        n->str = NULL;
        n->ival = 0;
        return kj_str_expr_type(c, n);
    }
    *handled = strcmp(name, "print") == 0;
    if (!*handled)
        return NULL;
    for (int i = 0; i < nargs; i++) {
        kj_node *k = n->kids[i + 1];
        const kj_type *t = args[i];
        if (k->kind == KJ_E_KEYWORD) {
            if ((strcmp(k->name, "sep") && strcmp(k->name, "end")) || t->kind != KJ_T_STR)
                FAIL(c, k, NULL, "print() in compiled code takes sep= and end= strings only");
            continue;
        }
        if (!printable(t))
            FAIL(c, k, NULL, "print() in compiled code cannot print %s", t->name);
    }
    return kj_none();
}
