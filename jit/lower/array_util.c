/* array_util: arrays on owned memory, element access through strides,
 * and the counted loops the lowerings of arrays are built from
 * (array_util.h). */
#include "jit/lower/array_util.h"
#include "jit/lower/lower_nrt.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_np.h"

#include <llvm-c/DebugInfo.h>
#include <string.h>

static LLVMValueRef c64(kj_lw *w, long long v) { return LLVMConstInt(w->i64, (unsigned long long)v, 1); }

LLVMValueRef kj_np_itemsize(kj_lw *w, const kj_type *elem) {
    return c64(w, (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(w->mod), kj_llmemtype(w, elem)));
}

void kj_np_shape(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *shape) {
    for (int k = 0; k < nd; k++)
        shape[k] = kj_array_field(w, arr, 2, k);
}

void kj_np_strides(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *strides) {
    for (int k = 0; k < nd; k++)
        strides[k] = kj_array_field(w, arr, 3, k);
}

LLVMValueRef kj_np_size(kj_lw *w, LLVMValueRef arr, int nd) {
    LLVMValueRef s = c64(w, 1);
    for (int k = 0; k < nd; k++)
        s = LLVMBuildMul(w->b, s, kj_array_field(w, arr, 2, k), "");
    return s;
}

LLVMValueRef kj_np_make(kj_lw *w, const kj_type *t, LLVMValueRef owner, LLVMValueRef data,
                        LLVMValueRef *shape, LLVMValueRef *strides) {
    int nd = t->ndim;
    LLVMValueRef st[KJ_NP_MAXDIM];
    if (!strides) {   /* contiguous in the type's order: element access (lower_array.c) assumes it */
        bool fortran = t->layout == KJ_LAYOUT_F;
        LLVMValueRef s = kj_np_itemsize(w, t->elem);
        for (int i = 0; i < nd; i++) {
            int k = fortran ? i : nd - 1 - i;
            st[k] = s;
            s = LLVMBuildMul(w->b, s, shape[k], "");
        }
        strides = st;
    }
    LLVMValueRef v = LLVMGetUndef(kj_lltype(w, t));
    v = LLVMBuildInsertValue(w->b, v, owner, 0, "");
    v = LLVMBuildInsertValue(w->b, v, data, 1, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(w->i64, (unsigned)nd)), sr = sh;
    for (int k = 0; k < nd; k++) {
        sh = LLVMBuildInsertValue(w->b, sh, shape[k], (unsigned)k, "");
        sr = LLVMBuildInsertValue(w->b, sr, strides[k], (unsigned)k, "");
    }
    v = LLVMBuildInsertValue(w->b, v, sh, 2, "");
    return LLVMBuildInsertValue(w->b, v, sr, 3, "");
}

LLVMValueRef kj_np_tuple(kj_lw *w, const kj_type *t, int n, const LLVMValueRef *items) {
    LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, t));
    for (int i = 0; i < n; i++)
        tup = LLVMBuildInsertValue(w->b, tup, items[i], (unsigned)i, "");
    return tup;
}

LLVMValueRef kj_np_alloc(kj_lw *w, const kj_type *t, LLVMValueRef *shape, bool zeroed) {
    if (!kj_nrt_host_only(w, NULL, "creating arrays"))
        return LLVMGetUndef(kj_lltype(w, t));
    LLVMValueRef n = kj_np_itemsize(w, t->elem), zero = c64(w, 0);
    LLVMValueRef neg = LLVMConstInt(w->i1, 0, 0);
    for (int k = 0; k < t->ndim; k++) {
        neg = LLVMBuildOr(w->b, neg, LLVMBuildICmp(w->b, LLVMIntSLT, shape[k], zero, ""), "");
        n = LLVMBuildMul(w->b, n, shape[k], "");
    }
    kj_raise_if(w, neg, PyExc_ValueError, "negative dimensions are not allowed");
    LLVMValueRef block = kj_call(w, zeroed ? "kj_nrt_alloc_zeroed" : "kj_nrt_alloc", w->ptr, 1,
                                 (LLVMTypeRef[]){w->i64}, &n);
    kj_raise_if(w, LLVMBuildIsNull(w->b, block, ""), PyExc_MemoryError, "cannot allocate the array");
    LLVMValueRef one = c64(w, 1), hdr = c64(w, KJ_NRT_HEADER);
    LLVMValueRef owner = LLVMBuildGEP2(w->b, w->i8, block, &one, 1, "owner");
    LLVMValueRef data = LLVMBuildGEP2(w->b, w->i8, block, &hdr, 1, "data");
    return kj_nrt_temp(w, kj_np_make(w, t, owner, data, shape, NULL), t);
}

LLVMValueRef kj_np_ptr(kj_lw *w, LLVMValueRef arr, int nd, LLVMValueRef *idx) {
    LLVMValueRef off = c64(w, 0);
    for (int k = 0; k < nd; k++)
        off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, idx[k], kj_array_field(w, arr, 3, k), ""), "");
    return LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, "");
}

/* A value of type t as it is held in registers, from its form in memory
 * (kj_llmemtype: bools as bytes, tuples packed), and back. */
static LLVMValueRef from_memory(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    if (t->kind == KJ_T_BOOL)
        return LLVMBuildICmp(w->b, LLVMIntNE, v, LLVMConstInt(w->i8, 0, 0), "");
    if (t->kind != KJ_T_TUPLE)
        return v;
    LLVMValueRef r = LLVMGetUndef(kj_lltype(w, t));
    for (int i = 0; i < t->n; i++)
        r = LLVMBuildInsertValue(w->b, r, from_memory(w, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i]),
                                 (unsigned)i, "");
    return r;
}

static LLVMValueRef to_memory(kj_lw *w, LLVMValueRef v, const kj_type *t) {
    if (t->kind == KJ_T_BOOL)
        return LLVMBuildZExt(w->b, v, w->i8, "");
    if (t->kind != KJ_T_TUPLE)
        return v;
    LLVMValueRef r = LLVMGetUndef(kj_llmemtype(w, t));
    for (int i = 0; i < t->n; i++)
        r = LLVMBuildInsertValue(w->b, r, to_memory(w, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i]),
                                 (unsigned)i, "");
    return r;
}

LLVMValueRef kj_np_load(kj_lw *w, LLVMValueRef p, const kj_type *et) {
    return from_memory(w, LLVMBuildLoad2(w->b, kj_llmemtype(w, et), p, ""), et);
}

LLVMValueRef kj_np_store_elem(kj_lw *w, LLVMValueRef p, LLVMValueRef v, const kj_type *vt, const kj_type *et) {
    return LLVMBuildStore(w->b, to_memory(w, kj_cast(w, v, vt, et), et), p);
}

/* Whether arr's elements lie without gaps, the last axis varying fastest
 * (C order) or the first (Fortran order), known when t's layout says so. */
static LLVMValueRef dense(kj_lw *w, LLVMValueRef arr, const kj_type *t, bool fortran) {
    if (t->layout == (fortran ? KJ_LAYOUT_F : KJ_LAYOUT_C) || t->ndim == 0)
        return LLVMConstInt(w->i1, 1, 0);
    LLVMValueRef ok = LLVMConstInt(w->i1, 1, 0), expect = kj_np_itemsize(w, t->elem);
    for (int i = 0; i < t->ndim; i++) {
        int k = fortran ? i : t->ndim - 1 - i;
        LLVMValueRef len = kj_array_field(w, arr, 2, k), st = kj_array_field(w, arr, 3, k);
        LLVMValueRef good = LLVMBuildOr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, st, expect, ""),
                                        LLVMBuildICmp(w->b, LLVMIntSLE, len, c64(w, 1), ""), "");
        ok = LLVMBuildAnd(w->b, ok, good, "");
        expect = LLVMBuildMul(w->b, expect, len, "");
    }
    return ok;
}

LLVMValueRef kj_np_is_contiguous(kj_lw *w, LLVMValueRef arr, const kj_type *t) { return dense(w, arr, t, false); }

LLVMValueRef kj_np_is_fortran(kj_lw *w, LLVMValueRef arr, const kj_type *t) { return dense(w, arr, t, true); }

LLVMValueRef kj_np_loop_begin(kj_lw *w, kj_np_loop *l, LLVMValueRef n) {
    l->scalar = l->one_step = l->rolled = false;
    l->slot = kj_entry_alloca(w, w->i64, "np.i");
    l->n = n;
    LLVMBuildStore(w->b, c64(w, 0), l->slot);
    l->cond = kj_new_bb(w, "np.cond");
    l->body = kj_new_bb(w, "np.body");
    l->exit = kj_new_bb(w, "np.exit");
    LLVMBuildBr(w->b, l->cond);
    LLVMPositionBuilderAtEnd(w->b, l->cond);
    LLVMValueRef i = LLVMBuildLoad2(w->b, w->i64, l->slot, "");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, i, n, ""), l->body, l->exit);
    LLVMPositionBuilderAtEnd(w->b, l->body);
    return LLVMBuildLoad2(w->b, w->i64, l->slot, "i");
}

void kj_np_loop_keep_scalar(kj_np_loop *l) { l->scalar = true; }

void kj_np_loop_elementwise(kj_np_loop *l) { l->one_step = true; }

void kj_np_loop_keep_rolled(kj_np_loop *l) { l->scalar = l->rolled = true; }

void kj_np_loop_end(kj_lw *w, kj_np_loop *l) {
    LLVMValueRef i = LLVMBuildLoad2(w->b, w->i64, l->slot, "");
    LLVMBuildStore(w->b, LLVMBuildNSWAdd(w->b, i, c64(w, 1), ""), l->slot);
    LLVMValueRef back = LLVMBuildBr(w->b, l->cond);
    if (l->scalar)
        (l->rolled ? kj_loop_keep_rolled_edge : kj_loop_keep_scalar_edge)(w, back);
    else
        (l->one_step ? kj_loop_one_step_edge : kj_loop_vector_edge)(w, back);
    LLVMPositionBuilderAtEnd(w->b, l->exit);
}

void kj_np_nest_begin(kj_lw *w, kj_np_nest *s, int nd, LLVMValueRef *shape, LLVMValueRef *idx) {
    s->nd = nd;
    for (int k = 0; k < nd; k++)
        idx[k] = kj_np_loop_begin(w, &s->loops[k], shape[k]);
}

void kj_np_nest_end(kj_lw *w, kj_np_nest *s) {
    for (int k = s->nd - 1; k >= 0; k--)
        kj_np_loop_end(w, &s->loops[k]);
}

/* Copies count elements between contiguous data, converting them: one
 * flat loop of unit steps, which LLVM vectorizes. */
static void copy_flat(kj_lw *w, LLVMValueRef dst, const kj_type *de, LLVMValueRef src, const kj_type *se,
                      LLVMValueRef count) {
    kj_np_loop l;
    LLVMValueRef i = kj_np_loop_begin(w, &l, count);
    LLVMValueRef v = kj_np_load(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, se), src, &i, 1, ""), se);
    kj_np_store_elem(w, LLVMBuildGEP2(w->b, kj_llmemtype(w, de), dst, &i, 1, ""), v, se, de);
    kj_np_loop_elementwise(&l);
    kj_np_loop_end(w, &l);
}

void kj_np_copy_into(kj_lw *w, LLVMValueRef dst, const kj_type *dt, LLVMValueRef src, const kj_type *st) {
    int nd = st->ndim;
    LLVMValueRef both = LLVMBuildAnd(w->b, kj_np_is_contiguous(w, src, st), kj_np_is_contiguous(w, dst, dt), "");
    bool always = LLVMIsAConstantInt(both) && LLVMConstIntGetZExtValue(both);
    LLVMBasicBlockRef flat = kj_new_bb(w, "copy.flat"), strided = kj_new_bb(w, "copy.strided"),
                      done = kj_new_bb(w, "copy.done");
    LLVMBuildCondBr(w->b, both, flat, strided);
    LLVMPositionBuilderAtEnd(w->b, flat);
    copy_flat(w, kj_array_field(w, dst, 1, 0), dt->elem, kj_array_field(w, src, 1, 0), st->elem,
              kj_np_size(w, src, nd));
    LLVMBuildBr(w->b, done);
    LLVMPositionBuilderAtEnd(w->b, strided);
    if (always) {   /* never taken: nothing to compile there */
        LLVMBuildUnreachable(w->b);
    } else {
        LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
        kj_np_shape(w, src, nd, shape);
        kj_np_nest nest;
        kj_np_nest_begin(w, &nest, nd, shape, idx);
        LLVMValueRef v = kj_np_load(w, kj_np_ptr(w, src, nd, idx), st->elem);
        kj_np_store_elem(w, kj_np_ptr(w, dst, nd, idx), v, st->elem, dt->elem);
        kj_np_nest_end(w, &nest);
        LLVMBuildBr(w->b, done);
    }
    LLVMPositionBuilderAtEnd(w->b, done);
}

LLVMValueRef kj_np_copy(kj_lw *w, LLVMValueRef src, const kj_type *st, const kj_type *et) {
    const kj_type *t = kj_array(et, st->ndim, KJ_LAYOUT_C, false);
    LLVMValueRef shape[KJ_NP_MAXDIM];
    kj_np_shape(w, src, st->ndim, shape);
    LLVMValueRef dst = kj_np_alloc(w, t, shape, false);
    kj_np_copy_into(w, dst, t, src, st);
    return dst;
}

void kj_np_fill(kj_lw *w, LLVMValueRef arr, const kj_type *t, LLVMValueRef v, const kj_type *vt) {
    LLVMValueRef shape[KJ_NP_MAXDIM], idx[KJ_NP_MAXDIM];
    kj_np_shape(w, arr, t->ndim, shape);
    v = kj_cast(w, v, vt, t->elem);
    kj_np_nest nest;
    kj_np_nest_begin(w, &nest, t->ndim, shape, idx);
    kj_np_store_elem(w, kj_np_ptr(w, arr, t->ndim, idx), v, t->elem, t->elem);
    kj_np_nest_end(w, &nest);
}

void kj_np_shape_arg(kj_lw *w, kj_node *k, LLVMValueRef *shape) {
    LLVMValueRef v = kj_lower_expr(w, k);
    const kj_type *t = k->type;
    if (t->kind != KJ_T_TUPLE) {
        shape[0] = kj_cast(w, v, t, KJ_I64);
        return;
    }
    for (int i = 0; i < t->n; i++)
        shape[i] = kj_cast(w, LLVMBuildExtractValue(w->b, v, (unsigned)i, ""), t->elems[i], KJ_I64);
}

LLVMValueRef kj_np_value(kj_lw *w, kj_node *k, const kj_type *t) {
    return kj_cast(w, kj_lower_expr(w, k), k->type, t);
}

void kj_np_raise_i64x3_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v,
                          LLVMValueRef v2, LLVMValueRef v3) {
    LLVMBasicBlockRef ok = kj_raise_begin(w, cond);
    LLVMValueRef cls_v = LLVMConstIntToPtr(LLVMConstInt(w->i64, (uintptr_t)cls, 0), w->ptr);
    kj_call(w, "kj_np_raise_i64", w->vd, 5, (LLVMTypeRef[]){w->ptr, w->ptr, w->i64, w->i64, w->i64},
            (LLVMValueRef[]){cls_v, LLVMBuildGlobalStringPtr(w->b, fmt, "fmt"), v, v2, v3});
    kj_raise_end(w, ok);
}

void kj_np_raise_i64x2_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v,
                          LLVMValueRef v2) {
    kj_np_raise_i64x3_if(w, cond, cls, fmt, v, v2, c64(w, 0));
}

void kj_np_raise_i64_if(kj_lw *w, LLVMValueRef cond, PyObject *cls, const char *fmt, LLVMValueRef v) {
    kj_np_raise_i64x2_if(w, cond, cls, fmt, v, c64(w, 0));
}

LLVMValueRef kj_np_i64_array(kj_lw *w, int n, LLVMValueRef *vals) {
    LLVMValueRef a = kj_entry_alloca(w, LLVMArrayType2(w->i64, (unsigned)(n > 0 ? n : 1)), "vals");
    for (int i = 0; i < n; i++)
        LLVMBuildStore(w->b, vals[i], LLVMBuildGEP2(w->b, w->i64, a, (LLVMValueRef[]){c64(w, i)}, 1, ""));
    return a;
}

LLVMValueRef kj_np_axis(kj_lw *w, LLVMValueRef asked, int nd) {
    LLVMValueRef axis = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, asked, c64(w, 0), ""),
                                        LLVMBuildAdd(w->b, asked, c64(w, nd), ""), asked, "axis");
    kj_np_prepare_axis_error();
    LLVMBasicBlockRef ok = kj_raise_begin(w, LLVMBuildICmp(w->b, LLVMIntUGE, axis, c64(w, nd), ""));
    kj_call(w, "kj_np_raise_axis", w->vd, 2, (LLVMTypeRef[]){w->i64, w->i64}, (LLVMValueRef[]){asked, c64(w, nd)});
    kj_raise_end(w, ok);
    return axis;
}
