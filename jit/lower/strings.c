/* strings: the lowering of string constants, f-strings, == on strings,
 * print() and raise with an f-string message (see strings.h; their typing
 * is infer/infer_strings.c). */
#include "jit/runtime/runtime.h"
#include "jit/lower/strings.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/rt_print.h"

#include <stdio.h>
#include <string.h>

bool kj_str_float_spec(const char *spec) {
    size_t n = spec ? strlen(spec) : 0;
    return n > 0 && strchr("eEfFgG", spec[n - 1]) != NULL;
}

bool kj_str_lowers(const kj_node *n) {
    switch (n->kind) {
    case KJ_E_CONST: return n->type && n->type->kind == KJ_T_STR;
    case KJ_E_FSTRING:
    case KJ_E_FORMAT: return true;   /* str(x) */
    case KJ_E_COMPARE: return n->nkids == 2 && n->kids[0]->type && n->kids[0]->type->kind == KJ_T_STR;
    case KJ_E_CALL: return n->kids[0]->kind == KJ_E_FUNC && !strcmp(n->kids[0]->name, "print") && !n->aux;
    default: return false;
    }
}

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

static LLVMValueRef cstr(kj_lw *w, const char *s) {
    return s ? LLVMBuildGlobalStringPtr(w->b, s, "str") : LLVMConstNull(w->ptr);
}

static void format_text(kj_lw *w, LLVMValueRef buf, LLVMValueRef s) {
    kj_call(w, "kj_fmt_str", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){buf, s});
}

/* v (of type t) formatted into buf with format spec `spec` (NULL: as
 * f"{v}" and str() show it). */
static void format_value(kj_lw *w, LLVMValueRef buf, LLVMValueRef v, const kj_type *t, const char *spec_text) {
    LLVMValueRef spec = cstr(w, spec_text);
    if (t->kind == KJ_T_STR) {
        format_text(w, buf, v);
    } else if (t->kind == KJ_T_BOOL && !spec_text) {
        kj_call(w, "kj_fmt_bool", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->i64},
                (LLVMValueRef[]){buf, LLVMBuildZExt(w->b, v, w->i64, "")});
    } else if (t->kind == KJ_T_FLOAT || kj_str_float_spec(spec_text)) {
        LLVMValueRef d = kj_cast(w, v, t, KJ_F64);
        kj_call(w, "kj_fmt_float", w->vd, 4, (LLVMTypeRef[]){w->ptr, w->f64, w->i64, w->ptr},
                (LLVMValueRef[]){buf, d, c64(w, t->kind == KJ_T_FLOAT && t->bits == 32), spec});
    } else {
        bool u = t->kind == KJ_T_INT && !t->is_signed;
        kj_call(w, "kj_fmt_int", w->vd, 4, (LLVMTypeRef[]){w->ptr, w->i64, w->i64, w->ptr},
                (LLVMValueRef[]){buf, kj_cast(w, v, t, u ? kj_int(64, false) : KJ_I64), c64(w, u), spec});
    }
}

static LLVMValueRef transient(kj_lw *w, kj_node *k);

static void format_part(kj_lw *w, LLVMValueRef buf, kj_node *part) {
    if (part->kind == KJ_E_FSTRING) {   /* s + t + u, an f-string inside: into the same buffer */
        kj_at(w, part);
        for (int i = 0; i < part->nkids; i++)
            format_part(w, buf, part->kids[i]);
        return;
    }
    if (part->kind != KJ_E_FORMAT) {   /* a constant piece, a string */
        format_text(w, buf, transient(w, part));
        return;
    }
    kj_node *k = part->kids[0];
    const kj_type *t = k->type->kind == KJ_T_OPTIONAL ? k->type->elem : k->type;
    format_value(w, buf, kj_cast(w, transient(w, k), k->type, t), t, part->str && *part->str ? part->str : NULL);
}

/* An f-string formatted into the next of the thread's few ring buffers
 * (rt_print.c), which later f-strings reuse. */
static LLVMValueRef format_in_ring(kj_lw *w, kj_node *n) {
    LLVMValueRef buf = kj_call(w, "kj_fmt_begin", w->ptr, 0, NULL, NULL);
    if (n->kind == KJ_E_FORMAT) {   /* str(x) */
        format_part(w, buf, n);
        return buf;
    }
    for (int i = 0; i < n->nkids; i++)
        format_part(w, buf, n->kids[i]);
    return buf;
}

/* A string used at once (printed, compared, formatted into another, the
 * message of a raise): an f-string can stay in the ring. One that is kept
 * (assigned, returned, passed on) is copied out of it (kj_str_lower). */
static LLVMValueRef transient(kj_lw *w, kj_node *k) {
    if (k->kind != KJ_E_FSTRING && k->kind != KJ_E_FORMAT)
        return kj_lower_expr(w, k);
    kj_at(w, k);
    return format_in_ring(w, k);
}

/* kj_rt_raise(cls, msg): the runtime keeps the exception for the caller. */
static void call_raise(kj_lw *w, PyObject *cls, LLVMValueRef msg) {
    LLVMValueRef cls_v = LLVMConstIntToPtr(LLVMConstInt(w->i64, (uintptr_t)cls, 0), w->ptr);
    kj_call(w, "kj_rt_raise", w->vd, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){cls_v, msg});
}

void kj_str_raise_value(kj_lw *w, PyObject *cls, LLVMValueRef v, const kj_type *t) {
    LLVMValueRef buf = kj_call(w, "kj_fmt_begin", w->ptr, 0, NULL, NULL);
    format_text(w, buf, cstr(w, KJ_RT_VALUE_MARK));
    if (t->kind == KJ_T_TUPLE) {   /* Python's tuple repr: (1, 2), (1,) */
        format_text(w, buf, cstr(w, "("));
        for (int i = 0; i < t->n; i++) {
            format_value(w, buf, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i], NULL);
            format_text(w, buf, cstr(w, i + 1 < t->n ? ", " : t->n == 1 ? "," : ""));
        }
        format_text(w, buf, cstr(w, ")"));
    } else {
        format_value(w, buf, v, t, NULL);
    }
    call_raise(w, cls, buf);
}

/* ---- print ---- */

typedef struct {
    LLVMValueRef items[64][4];   /* kind, typenum, ndim, ptr */
    int n;
} print_items;

static void add_item(kj_lw *w, print_items *p, int kind, int typenum, int64_t ndim, LLVMValueRef ptr) {
    if (p->n == 64)
        return;
    LLVMValueRef *it = p->items[p->n++];
    it[0] = LLVMConstInt(w->i32, (unsigned)kind, 0);
    it[1] = LLVMConstInt(w->i32, (unsigned)typenum, 0);
    it[2] = c64(w, ndim);
    it[3] = ptr ? ptr : LLVMConstNull(w->ptr);
}

static LLVMValueRef spill(kj_lw *w, LLVMValueRef v) {
    LLVMValueRef slot = kj_entry_alloca(w, LLVMTypeOf(v), "print.arg");
    LLVMBuildStore(w->b, v, slot);
    return slot;
}

/* The items of type t as placeholders: a tuple item and its fields'
 * NumPy type numbers (rt_print.c reads a list of tuples' item type so). */
static void add_type(kj_lw *w, print_items *p, const kj_type *t) {
    if (t->kind != KJ_T_TUPLE) {
        add_item(w, p, KJ_PRINT_NONE, kj_type_to_npy(t), 0, NULL);
        return;
    }
    add_item(w, p, KJ_PRINT_TUPLE, 0, t->n, NULL);
    for (int i = 0; i < t->n; i++)
        add_type(w, p, t->elems[i]);
}

static void add_value(kj_lw *w, print_items *p, LLVMValueRef v, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_TUPLE:
        add_item(w, p, KJ_PRINT_TUPLE, 0, t->n, NULL);
        for (int i = 0; i < t->n; i++)
            add_value(w, p, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i]);
        return;
    case KJ_T_ARRAY: add_item(w, p, KJ_PRINT_ARRAY, kj_type_to_npy(t->elem), t->ndim, spill(w, v)); return;
    case KJ_T_LIST:
        if (t->elem && t->elem->kind == KJ_T_TUPLE) {   /* ndim 1: the item type follows */
            add_item(w, p, KJ_PRINT_LIST, 0, 1, spill(w, v));
            add_type(w, p, t->elem);
            return;
        }
        add_item(w, p, KJ_PRINT_LIST, t->elem ? kj_type_to_npy(t->elem) : 12, 0, spill(w, v));
        return;
    case KJ_T_DICT:
        add_item(w, p, KJ_PRINT_DICT, 0, t->n, spill(w, v));
        for (int i = 0; i < t->n; i++)
            add_type(w, p, t->elems[i]);
        return;
    case KJ_T_SET:
        add_item(w, p, KJ_PRINT_SET, 0, t->elem != NULL, spill(w, v));
        if (t->elem)
            add_type(w, p, t->elem);
        return;
    case KJ_T_STR: add_item(w, p, KJ_PRINT_STR, 0, 0, spill(w, v)); return;
    case KJ_T_NONE: add_item(w, p, KJ_PRINT_NONE, 0, 0, NULL); return;
    case KJ_T_BOOL: add_item(w, p, KJ_PRINT_BOOL, 0, 0, spill(w, LLVMBuildZExt(w->b, v, w->i64, ""))); return;
    case KJ_T_FLOAT: add_item(w, p, KJ_PRINT_FLOAT, kj_type_to_npy(t), 0, spill(w, kj_cast(w, v, t, KJ_F64))); return;
    case KJ_T_COMPLEX: add_item(w, p, KJ_PRINT_COMPLEX, 0, 0, spill(w, kj_cast(w, v, t, kj_complex(128)))); return;
    default: {
        bool u = t->kind == KJ_T_INT && !t->is_signed;
        add_item(w, p, u ? KJ_PRINT_UINT : KJ_PRINT_INT, 0, 0, spill(w, kj_cast(w, v, t, u ? kj_int(64, false) : KJ_I64)));
        return;
    }
    }
}

static LLVMValueRef lower_print(kj_lw *w, kj_node *n) {
    if (w->u->target->printf_symbol)
        return kj_lower_printf(w, n);
    if (!kj_nrt_host_only(w, n, "print()"))
        return LLVMConstInt(w->i8, 0, 0);
    print_items p = {.n = 0};
    LLVMValueRef sep = LLVMConstNull(w->ptr), end = LLVMConstNull(w->ptr);
    for (int i = 1; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind == KJ_E_KEYWORD) {
            LLVMValueRef s = transient(w, k->kids[0]);
            if (!strcmp(k->name, "sep"))
                sep = s;
            else
                end = s;
            continue;
        }
        add_value(w, &p, transient(w, k), k->type);
    }
    LLVMTypeRef item = LLVMStructTypeInContext(w->ctx, (LLVMTypeRef[]){w->i32, w->i32, w->i64, w->ptr}, 4, 0);
    LLVMValueRef arr = kj_entry_alloca(w, LLVMArrayType2(item, (unsigned)(p.n ? p.n : 1)), "print.items");
    for (int i = 0; i < p.n; i++)
        for (int f = 0; f < 4; f++) {
            LLVMValueRef idx[3] = {c64(w, 0), c64(w, i), LLVMConstInt(w->i32, (unsigned)f, 0)};
            LLVMBuildStore(w->b, p.items[i][f],
                           LLVMBuildGEP2(w->b, LLVMArrayType2(item, (unsigned)(p.n ? p.n : 1)), arr, idx, 3, ""));
        }
    kj_call(w, "kj_print", w->vd, 4, (LLVMTypeRef[]){w->i64, w->ptr, w->ptr, w->ptr},
            (LLVMValueRef[]){c64(w, p.n), arr, sep, end});
    return LLVMConstInt(w->i8, 0, 0);
}

LLVMValueRef kj_str_lower(kj_lw *w, kj_node *n) {
    switch (n->kind) {
    case KJ_E_CONST: return cstr(w, n->str);
    case KJ_E_FSTRING:
    case KJ_E_FORMAT: {   /* kept until the call from Python returns (rt_print.c) */
        LLVMValueRef kept = kj_call(w, "kj_fmt_keep", w->ptr, 1, (LLVMTypeRef[]){w->ptr}, (LLVMValueRef[]){format_in_ring(w, n)});
        kj_raise_if(w, LLVMBuildIsNull(w->b, kept, ""), PyExc_MemoryError, NULL);
        return kept;
    }
    case KJ_E_COMPARE: {
        LLVMValueRef a = transient(w, n->kids[0]), b = transient(w, n->kids[1]);   /* left first, as Python */
        LLVMValueRef eq = kj_str_equal(w, a, b);
        return n->ops[0] == KJ_OP_EQ ? eq : LLVMBuildNot(w->b, eq, "");
    }
    default: return lower_print(w, n);
    }
}

LLVMValueRef kj_str_equal(kj_lw *w, LLVMValueRef a, LLVMValueRef b) {
    LLVMValueRef r = kj_call(w, "strcmp", w->i32, 2, (LLVMTypeRef[]){w->ptr, w->ptr}, (LLVMValueRef[]){a, b});
    return LLVMBuildICmp(w->b, LLVMIntEQ, r, LLVMConstInt(w->i32, 0, 0), "");
}

void kj_str_raise(kj_lw *w, kj_node *s) {
    call_raise(w, s->kids[0]->pyobj, transient(w, s->kids[1]));
    kj_unwind(w, LLVMConstInt(w->i32, 1, 0));
    LLVMPositionBuilderAtEnd(w->b, kj_new_bb(w, "after.raise"));
}
