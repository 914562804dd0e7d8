/* lower_printf: print() on targets that print with C's printf (a GPU's
 * vprintf, jit/core/target.h printf_symbol). The format is made here, when
 * compiling: string constants, sep and end go into it as text, each number
 * as a conversion that numba-cuda's print uses (%lld, %llu, %f), a bool as
 * %s of "True" or "False"; the numbers travel in a buffer of 8-byte slots,
 * as vprintf reads them. */
#include "jit/lower/strings.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *text;
    size_t len, cap;
    bool failed;
} format;

static void put(format *f, const char *s, bool literal) {
    for (; *s; s++) {
        if (f->len + 3 > f->cap) {
            size_t cap = f->cap ? 2 * f->cap : 64;
            char *grown = realloc(f->text, cap);
            if (!grown) {
                f->failed = true;
                return;
            }
            f->text = grown, f->cap = cap;
        }
        if (literal && *s == '%')   /* the user's text: a % is printed, not a conversion */
            f->text[f->len++] = '%';
        f->text[f->len++] = *s;
        f->text[f->len] = 0;
    }
}

/* The text a keyword (sep=, end=) gives, or dflt; NULL when it is not a constant. */
static const char *keyword_text(const kj_node *n, const char *name, const char *dflt) {
    for (int i = 1; i < n->nkids; i++) {
        const kj_node *k = n->kids[i];
        if (k->kind == KJ_E_KEYWORD && strcmp(k->name, name) == 0)
            return k->kids[0]->kind == KJ_E_CONST ? k->kids[0]->str : NULL;
    }
    return dflt;
}

static LLVMValueRef fail(kj_lw *w, const kj_node *k, const char *what) {
    kj_fail(&w->u->err, KJ_ERR_UNSUPPORTED, k->line, k->col,
            "In a kernel, print numbers, bools and string constants (as numba-cuda does); format the rest "
            "on the host.", "print() on the %s target cannot print %s", w->u->target->name, what);
    return NULL;
}

LLVMValueRef kj_lower_printf(kj_lw *w, kj_node *n) {
    const char *sep = keyword_text(n, "sep", " "), *end = keyword_text(n, "end", "\n");
    if (!sep || !end)
        return fail(w, n, "a sep or end that is not a string constant");
    format f = {.text = calloc(64, 1), .cap = 64};
    if (!f.text) {
        kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "out of memory");
        return NULL;
    }
    LLVMValueRef slots[64];
    int nslots = 0, items = 0;
    for (int i = 1; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind == KJ_E_KEYWORD)
            continue;
        const kj_type *t = k->type;
        if (items++)
            put(&f, sep, true);
        if (t->kind == KJ_T_STR && k->kind == KJ_E_CONST) {
            put(&f, k->str, true);
            continue;
        }
        if (nslots == 64) {
            free(f.text);
            return fail(w, k, "more than 64 numbers at once");
        }
        LLVMValueRef v = kj_lower_expr(w, k);
        if (!v) {
            free(f.text);
            return NULL;
        }
        if (t->kind == KJ_T_BOOL) {
            put(&f, "%s", false);
            slots[nslots++] = LLVMBuildSelect(w->b, v, LLVMBuildGlobalStringPtr(w->b, "True", "true"),
                                              LLVMBuildGlobalStringPtr(w->b, "False", "false"), "");
        } else if (t->kind == KJ_T_FLOAT) {
            put(&f, "%f", false);
            slots[nslots++] = kj_cast(w, v, t, KJ_F64);
        } else if (t->kind == KJ_T_INT) {
            put(&f, t->is_signed ? "%lld" : "%llu", false);
            slots[nslots++] = kj_cast(w, v, t, t->is_signed ? KJ_I64 : kj_int(64, false));
        } else {
            free(f.text);
            return fail(w, k, t->kind == KJ_T_STR ? "a string made at run time" : t->name);
        }
    }
    put(&f, end, true);
    if (f.failed) {
        free(f.text);
        kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "out of memory");
        return NULL;
    }
    LLVMTypeRef buffer_type = LLVMArrayType2(w->i64, (unsigned)(nslots ? nslots : 1));
    LLVMValueRef buffer = kj_entry_alloca(w, buffer_type, "printf.args");
    for (int i = 0; i < nslots; i++) {
        LLVMValueRef idx[2] = {LLVMConstInt(w->i64, 0, 0), LLVMConstInt(w->i64, (unsigned)i, 0)};
        LLVMBuildStore(w->b, slots[i], LLVMBuildGEP2(w->b, buffer_type, buffer, idx, 2, ""));
    }
    LLVMValueRef fmt = LLVMBuildGlobalStringPtr(w->b, f.text, "printf.format");
    free(f.text);
    kj_call(w, w->u->target->printf_symbol, w->i32, 2, (LLVMTypeRef[]){w->ptr, w->ptr},
            (LLVMValueRef[]){fmt, buffer});
    return LLVMConstInt(w->i8, 0, 0);
}
