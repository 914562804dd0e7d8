/* The CUDA intrinsics of kiln.cuda.jit code: what kernels and device
 * functions may call, each declared in jit/'s registry of callables
 * (jit/core/callables.h) with its typing and lowering, for device code only:
 *
 *   cuda.threadIdx.x ... gridDim.z, cuda.warpsize     int64 values
 *   cuda.grid(n), cuda.gridsize(n)                    int64, or a tuple of n
 *   cuda.syncthreads()
 *   cuda.shared.array(shape, dtype), cuda.local.array(shape, dtype)
 *   cuda.atomic.add/sub/max/min/exch(ary, idx, val), cas(ary, idx, old, val)
 *   cuda.random.xoroshiro128p_{uniform,normal}_float{32,64}(states, i)
 *
 * The Python objects behind these names are python/kiln/cuda/intrinsics.py's
 * markers, which the front end reads (jit/frontend/globals.c). Everything
 * target-specific goes through the kj_target hooks, so one lowering serves
 * the GPU and the simulator. */
#define PY_SSIZE_T_CLEAN
#include "jit/core/callables.h"
#include "jit/infer/infer.h"
#include "jit/lower/lower.h"

#include <string.h>

#include "gpu/targets.h"

/* ---- shared by inference and lowering ----------------------------------- */

static const char *callee(const kj_node *n) {
    return n->kids[0]->name;
}

/* Argument `pos` of call n, or its keyword `kw`; NULL if absent. */
static kj_node *argument(kj_node *n, int pos, const char *kw) {
    int positional = 0;
    for (int i = 1; i < n->nkids; i++) {
        kj_node *k = n->kids[i];
        if (k->kind == KJ_E_KEYWORD) {
            if (kw && strcmp(k->name, kw) == 0)
                return k->kids[0];
        } else if (positional++ == pos) {
            return k;
        }
    }
    return NULL;
}

static int count_args(const kj_node *n) {
    return n->nkids - 1;
}

static const struct {
    const char *name;
    kj_sreg reg;
} sregs[] = {
    {"cuda.threadIdx.x", KJ_SREG_TID_X},     {"cuda.threadIdx.y", KJ_SREG_TID_Y},
    {"cuda.threadIdx.z", KJ_SREG_TID_Z},     {"cuda.blockDim.x", KJ_SREG_NTID_X},
    {"cuda.blockDim.y", KJ_SREG_NTID_Y},     {"cuda.blockDim.z", KJ_SREG_NTID_Z},
    {"cuda.blockIdx.x", KJ_SREG_CTAID_X},    {"cuda.blockIdx.y", KJ_SREG_CTAID_Y},
    {"cuda.blockIdx.z", KJ_SREG_CTAID_Z},    {"cuda.gridDim.x", KJ_SREG_NCTAID_X},
    {"cuda.gridDim.y", KJ_SREG_NCTAID_Y},    {"cuda.gridDim.z", KJ_SREG_NCTAID_Z},
    {"cuda.warpsize", KJ_SREG_WARPSIZE},
};

static int sreg_of(const char *name) {
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        if (strcmp(sregs[i].name, name) == 0)
            return (int)sregs[i].reg;
    return -1;
}

/* The element type a dtype argument names (np.float32, kiln.float32). */
static const kj_type *dtype_of(const kj_node *d) {
    if (!d || d->kind != KJ_E_FUNC || strncmp(d->name, "cast:", 5) != 0)
        return NULL;
    return kj_number_type_named(d->name + 5);
}

/* The constant shape of a shared/local array: an int or a tuple of ints.
 * Returns ndim (1..3... up to 8), or -1. */
static int shape_of(const kj_node *s, int64_t dims[8]) {
    if (s && s->kind == KJ_E_CONST && s->type && s->type->kind == KJ_T_INT) {
        dims[0] = s->ival;
        return 1;
    }
    if (!s || s->kind != KJ_E_TUPLE || s->nkids < 1 || s->nkids > 8)
        return -1;
    for (int i = 0; i < s->nkids; i++) {
        const kj_node *k = s->kids[i];
        if (k->kind != KJ_E_CONST || !k->type || k->type->kind != KJ_T_INT)
            return -1;
        dims[i] = k->ival;
    }
    return s->nkids;
}

static bool is_random(const char *name, const char **kind) {
    if (strncmp(name, "cuda.random.xoroshiro128p_", 26) != 0)
        return false;
    *kind = name + 26;
    return true;
}

/* ---- inference ---------------------------------------------------------- */

static const kj_type *bad(kj_infer_ctx *c, kj_node *n, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static const kj_type *bad(kj_infer_ctx *c, kj_node *n, const char *hint, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return kj_infer_problem(c, n, hint, what);
}

static const kj_type *int_tuple(int n) {
    const kj_type *e[3] = {KJ_I64, KJ_I64, KJ_I64};
    return n == 1 ? KJ_I64 : kj_tuple(n, e);
}

static const kj_type *array_type(kj_infer_ctx *c, kj_node *n, const char *fn) {
    int64_t dims[8];
    int nd = shape_of(argument(n, 0, "shape"), dims);
    if (nd < 0)
        return bad(c, n, "Write the shape with constants, e.g. (TPB, TPB) with TPB a global int.",
                   "%s needs a constant shape", fn);
    for (int i = 0; i < nd; i++)
        if (dims[i] < 0 || (dims[i] == 0 && (nd > 1 || strcmp(fn, "cuda.local.array") == 0)))
            return bad(c, n, NULL, "%s: shape %lld is not allowed", fn, (long long)dims[i]);
    const kj_type *dt = dtype_of(argument(n, 1, "dtype"));
    if (!dt)
        return bad(c, n, "Pass a NumPy or kiln scalar type, e.g. dtype=np.float32.",
                   "%s needs a constant dtype", fn);
    return kj_array(dt, nd, KJ_LAYOUT_C, false);
}

/* The index argument of an atomic on an array of ndim dimensions. */
static bool index_ok(const kj_type *it, int ndim) {
    if (kj_is_intlike(it))
        return ndim == 1;
    if (it->kind != KJ_T_TUPLE || it->n != ndim)
        return false;
    for (int i = 0; i < it->n; i++)
        if (!kj_is_intlike(it->elems[i]))
            return false;
    return true;
}

static const kj_type *atomic_type(kj_infer_ctx *c, kj_node *n, const char *op) {
    bool cas = strcmp(op, "cas") == 0, old_cas = strcmp(op, "compare_and_swap") == 0;
    int want = cas ? 4 : 3;
    if (count_args(n) != want)
        return bad(c, n, NULL, "cuda.atomic.%s takes %d arguments", op, want);
    const kj_type *t[4];
    for (int i = 0; i < want; i++)
        if (!(t[i] = kj_infer_sub(c, n->kids[i + 1])))
            return NULL;
    if (t[0]->kind != KJ_T_ARRAY || t[0]->readonly)
        return bad(c, n, NULL, "cuda.atomic.%s needs a writable array first, got %s", op, t[0]->name);
    const kj_type *e = t[0]->elem;
    if (e->kind != KJ_T_INT && e->kind != KJ_T_FLOAT)
        return bad(c, n, NULL, "cuda.atomic.%s works on integer and float arrays, not %s", op, e->name);
    if (old_cas) {   /* compare_and_swap(ary, old, val): element 0 of a 1-d array */
        if (t[0]->ndim != 1 || e->kind != KJ_T_INT)
            return bad(c, n, NULL, "cuda.atomic.compare_and_swap needs a 1-d integer array");
        return e;
    }
    if (!index_ok(t[1], t[0]->ndim))
        return bad(c, n, "Index with one integer per dimension (a tuple for 2-d and 3-d arrays).",
                   "cuda.atomic.%s: index %s does not fit %s", op, t[1]->name, t[0]->name);
    if (cas && e->kind != KJ_T_INT)
        return bad(c, n, NULL, "cuda.atomic.cas works on integer arrays, not %s", e->name);
    for (int i = 2; i < want; i++)
        if (!kj_is_number(t[i]) || t[i]->kind == KJ_T_COMPLEX)
            return bad(c, n, NULL, "cuda.atomic.%s: the value must be a real number, got %s", op, t[i]->name);
    return e;
}

static const kj_type *intrinsic_type(kj_infer_ctx *c, kj_node *n) {
    const char *fn = callee(n), *kind;
    int nargs = count_args(n);
    if (sreg_of(fn) >= 0)
        return KJ_I64;
    if (strcmp(fn, "cuda.grid") == 0 || strcmp(fn, "cuda.gridsize") == 0) {
        kj_node *d = nargs == 1 ? n->kids[1] : NULL;
        if (!d || d->kind != KJ_E_CONST || !d->type || d->type->kind != KJ_T_INT || d->ival < 1 || d->ival > 3)
            return bad(c, n, "Write cuda.grid(1), cuda.grid(2) or cuda.grid(3).",
                       "%s takes a constant number of dimensions, 1 to 3", fn);
        return int_tuple((int)d->ival);
    }
    if (strcmp(fn, "cuda.syncthreads") == 0)
        return nargs == 0 ? kj_none() : bad(c, n, NULL, "cuda.syncthreads() takes no arguments");
    if (strcmp(fn, "cuda.shared.array") == 0 || strcmp(fn, "cuda.local.array") == 0)
        return array_type(c, n, fn);
    if (strncmp(fn, "cuda.atomic.", 12) == 0)
        return atomic_type(c, n, fn + 12);
    if (is_random(fn, &kind)) {
        const kj_type *s = nargs == 2 ? kj_infer_sub(c, n->kids[1]) : NULL;
        const kj_type *i = nargs == 2 ? kj_infer_sub(c, n->kids[2]) : NULL;
        if (nargs == 2 && (!s || !i))
            return NULL;
        if (!s || s->kind != KJ_T_ARRAY || s->elem != kj_int(64, false) || s->ndim != 2 || !kj_is_intlike(i))
            return bad(c, n, "Pass the states from create_xoroshiro128p_states and an integer index.",
                       "xoroshiro128p_%s(states, index) got other arguments", kind);
        if (strcmp(kind, "uniform_float32") == 0 || strcmp(kind, "normal_float32") == 0)
            return kj_float(32);
        if (strcmp(kind, "uniform_float64") == 0 || strcmp(kind, "normal_float64") == 0)
            return kj_float(64);
    }
    return bad(c, n, NULL, "%s is not supported in kernels", fn);
}

/* ---- lowering ----------------------------------------------------------- */

static LLVMValueRef sreg(kj_lw *w, const kj_target *t, kj_sreg r) {
    return LLVMBuildZExt(w->b, t->special_reg(t, w->mod, w->b, r), w->i64, "");
}

/* cuda.grid(n) or cuda.gridsize(n). */
static LLVMValueRef lower_grid(kj_lw *w, const kj_target *t, kj_node *n, bool size) {
    int nd = (int)n->kids[1]->ival;
    LLVMValueRef v[3];
    for (int d = 0; d < nd; d++) {
        LLVMValueRef ntid = sreg(w, t, (kj_sreg)(KJ_SREG_NTID_X + d));
        LLVMValueRef other = sreg(w, t, (kj_sreg)((size ? KJ_SREG_NCTAID_X : KJ_SREG_CTAID_X) + d));
        /* 32-bit registers in 64 bits: neither can wrap, and saying so lets
         * LLVM see that the indices are never negative */
        v[d] = LLVMBuildNUWMul(w->b, other, ntid, "");
        if (!size)
            v[d] = LLVMBuildNUWAdd(w->b, v[d], sreg(w, t, (kj_sreg)(KJ_SREG_TID_X + d)), "");
    }
    if (nd == 1)
        return v[0];
    LLVMValueRef tup = LLVMGetUndef(kj_lltype(w, n->type));
    for (int d = 0; d < nd; d++)
        tup = LLVMBuildInsertValue(w->b, tup, v[d], (unsigned)d, "");
    return tup;
}

/* An array struct over data with a constant C-order shape. */
static LLVMValueRef const_array(kj_lw *w, const kj_type *at, LLVMValueRef data, const int64_t *dims) {
    int nd = at->ndim;
    int64_t size = at->elem->kind == KJ_T_BOOL ? 1 : at->elem->bits / 8;
    LLVMValueRef shape[8], strides[8];
    int64_t stride = size;
    for (int i = nd - 1; i >= 0; i--) {
        shape[i] = LLVMConstInt(w->i64, (unsigned long long)dims[i], 0);
        strides[i] = LLVMConstInt(w->i64, (unsigned long long)stride, 0);
        stride *= dims[i] > 0 ? dims[i] : 1;
    }
    LLVMValueRef a = LLVMGetUndef(kj_lltype(w, at));
    a = LLVMBuildInsertValue(w->b, a, LLVMConstNull(w->ptr), 0, "");
    a = LLVMBuildInsertValue(w->b, a, data, 1, "");
    a = LLVMBuildInsertValue(w->b, a, LLVMConstArray2(w->i64, shape, (uint64_t)nd), 2, "");
    return LLVMBuildInsertValue(w->b, a, LLVMConstArray2(w->i64, strides, (uint64_t)nd), 3, "");
}

static LLVMValueRef lower_array_alloc(kj_lw *w, const kj_target *t, kj_node *n, bool shared) {
    int64_t dims[8], total = 1;
    int nd = shape_of(argument(n, 0, "shape"), dims);
    for (int i = 0; i < nd; i++)
        total *= dims[i];
    LLVMTypeRef mt = kj_llmemtype(w, n->type->elem);
    LLVMValueRef data;
    if (shared && total == 0) {
        /* cuda.shared.array(0, dtype): the launch's dynamic shared memory,
         * whose size only the launch knows; indexing it is not checked */
        data = kg_target_dynamic_shared(t, w->mod, w->b);
        dims[0] = INT32_MAX;
    } else if (shared) {
        data = kg_target_static_shared(t, w->mod, w->b, LLVMArrayType2(mt, (uint64_t)total));
        if (t == kg_target_simulator())
            kj_raise_if(w, LLVMBuildIsNull(w->b, data, ""), PyExc_MemoryError,
                        "no host memory for the simulator's shared array");
    } else {
        data = kj_entry_alloca(w, LLVMArrayType2(mt, (uint64_t)total), "local");
    }
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(data)) != 0)
        data = LLVMBuildAddrSpaceCast(w->b, data, w->ptr, "");
    return const_array(w, n->type, data, dims);
}

/* The address of element idx (an int or a tuple) of arr, Python's negative
 * indices and, with boundscheck, an IndexError out of range. */
static LLVMValueRef element_address(kj_lw *w, kj_node *arr_node, kj_node *idx_node) {
    const kj_type *at = arr_node->type, *it = idx_node->type;
    LLVMValueRef arr = kj_lower_expr(w, arr_node), idx = kj_lower_expr(w, idx_node);
    LLVMValueRef off = LLVMConstInt(w->i64, 0, 0);
    for (int k = 0; k < at->ndim; k++) {
        const kj_type *kt = it->kind == KJ_T_TUPLE ? it->elems[k] : it;
        LLVMValueRef i = it->kind == KJ_T_TUPLE ? LLVMBuildExtractValue(w->b, idx, (unsigned)k, "") : idx;
        bool is_signed = kt->kind == KJ_T_INT && kt->is_signed;
        i = LLVMBuildIntCast2(w->b, i, w->i64, is_signed, "");
        LLVMValueRef len = kj_array_field(w, arr, 2, k);
        if (is_signed) {
            LLVMValueRef neg = LLVMBuildICmp(w->b, LLVMIntSLT, i, LLVMConstInt(w->i64, 0, 0), "");
            i = LLVMBuildSelect(w->b, neg, LLVMBuildAdd(w->b, i, len, ""), i, "");
        }
        if (w->inst->opts.boundscheck)
            kj_raise_if(w, LLVMBuildICmp(w->b, LLVMIntUGE, i, len, ""), PyExc_IndexError, "index out of bounds");
        off = LLVMBuildAdd(w->b, off, LLVMBuildMul(w->b, i, kj_array_field(w, arr, 3, k), ""), "");
    }
    return LLVMBuildGEP2(w->b, w->i8, kj_array_field(w, arr, 1, 0), &off, 1, "");
}

static LLVMValueRef lower_atomic(kj_lw *w, const kj_target *t, kj_node *n, const char *op) {
    const kj_type *e = n->type;
    bool fp = e->kind == KJ_T_FLOAT, sgn = e->kind == KJ_T_INT && e->is_signed;
    if (strcmp(op, "compare_and_swap") == 0 || strcmp(op, "cas") == 0) {
        bool old_form = op[0] == 'c' && op[1] == 'o';
        LLVMValueRef p;
        if (old_form) {
            kj_node zero = {.kind = KJ_E_CONST, .type = KJ_I64, .line = n->line, .col = n->col};
            p = element_address(w, n->kids[1], &zero);
        } else {
            p = element_address(w, n->kids[1], n->kids[2]);
        }
        int first = old_form ? 2 : 3;
        LLVMValueRef old = kj_cast(w, kj_lower_expr(w, n->kids[first]), n->kids[first]->type, e);
        LLVMValueRef val = kj_cast(w, kj_lower_expr(w, n->kids[first + 1]), n->kids[first + 1]->type, e);
        LLVMValueRef r = LLVMBuildAtomicCmpXchg(w->b, p, old, val, LLVMAtomicOrderingMonotonic,
                                                LLVMAtomicOrderingMonotonic, 0);
        return LLVMBuildExtractValue(w->b, r, 0, "");
    }
    static const struct {
        const char *name;
        LLVMAtomicRMWBinOp i, u, f;
    } ops[] = {
        {"add", LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpFAdd},
        {"sub", LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpFSub},
        {"max", LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpFMax},
        {"min", LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMin, LLVMAtomicRMWBinOpFMin},
        {"exch", LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (strcmp(ops[k].name, op) != 0)
            continue;
        LLVMValueRef p = element_address(w, n->kids[1], n->kids[2]);
        LLVMValueRef v = kj_cast(w, kj_lower_expr(w, n->kids[3]), n->kids[3]->type, e);
        return t->atomic_rmw(t, w->b, fp ? ops[k].f : sgn ? ops[k].i : ops[k].u, p, v);
    }
    kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "internal: atomic %s", op);
    return LLVMGetUndef(kj_lltype(w, e));
}

static LLVMValueRef lower_random(kj_lw *w, kj_node *n, const char *kind) {
    LLVMValueRef states = kj_array_field(w, kj_lower_expr(w, n->kids[1]), 1, 0);
    LLVMValueRef i = LLVMBuildIntCast2(w->b, kj_lower_expr(w, n->kids[2]), w->i64,
                                       n->kids[2]->type->kind == KJ_T_INT && n->kids[2]->type->is_signed, "");
    char name[80];
    snprintf(name, sizeof name, "kiln_xoroshiro128p_%s", kind);
    /* defined by the IR the compile links in (gpu/cuda_compile.c) */
    return kj_call(w, name, kj_lltype(w, n->type), 2, (LLVMTypeRef[]){w->ptr, w->i64},
                   (LLVMValueRef[]){states, i});
}

static LLVMValueRef lower_intrinsic(kj_lw *w, kj_node *n) {
    const kj_target *t = w->u->target;   /* device code: the registry checked */
    const char *fn = callee(n), *kind;
    int r = sreg_of(fn);
    if (r >= 0)
        return sreg(w, t, (kj_sreg)r);
    if (strcmp(fn, "cuda.grid") == 0 || strcmp(fn, "cuda.gridsize") == 0)
        return lower_grid(w, t, n, fn[9] == 's');
    if (strcmp(fn, "cuda.syncthreads") == 0) {
        t->barrier(t, w->mod, w->b);
        return LLVMConstInt(w->i8, 0, 0);
    }
    if (strcmp(fn, "cuda.shared.array") == 0 || strcmp(fn, "cuda.local.array") == 0)
        return lower_array_alloc(w, t, n, fn[5] == 's');
    if (strncmp(fn, "cuda.atomic.", 12) == 0)
        return lower_atomic(w, t, n, fn + 12);
    if (is_random(fn, &kind))
        return lower_random(w, n, kind);
    kj_fail(&w->u->err, KJ_ERR_INTERNAL, n->line, n->col, NULL, "internal: cannot lower %s", fn);
    return LLVMGetUndef(kj_lltype(w, n->type));
}

/* ---- the registry's entries ---------------------------------------------- */

#define INTRINSIC(id, cuda_name) \
    KJ_CALLABLE(id, .name = cuda_name, .targets = KJ_ON_DEVICE, .type = intrinsic_type, .lower = lower_intrinsic)
INTRINSIC(tid_x, "cuda.threadIdx.x");
INTRINSIC(tid_y, "cuda.threadIdx.y");
INTRINSIC(tid_z, "cuda.threadIdx.z");
INTRINSIC(ntid_x, "cuda.blockDim.x");
INTRINSIC(ntid_y, "cuda.blockDim.y");
INTRINSIC(ntid_z, "cuda.blockDim.z");
INTRINSIC(ctaid_x, "cuda.blockIdx.x");
INTRINSIC(ctaid_y, "cuda.blockIdx.y");
INTRINSIC(ctaid_z, "cuda.blockIdx.z");
INTRINSIC(nctaid_x, "cuda.gridDim.x");
INTRINSIC(nctaid_y, "cuda.gridDim.y");
INTRINSIC(nctaid_z, "cuda.gridDim.z");
INTRINSIC(warpsize, "cuda.warpsize");
INTRINSIC(grid, "cuda.grid");
INTRINSIC(gridsize, "cuda.gridsize");
INTRINSIC(syncthreads, "cuda.syncthreads");
INTRINSIC(shared_array, "cuda.shared.array");
INTRINSIC(local_array, "cuda.local.array");
INTRINSIC(atomic_add, "cuda.atomic.add");
INTRINSIC(atomic_sub, "cuda.atomic.sub");
INTRINSIC(atomic_max, "cuda.atomic.max");
INTRINSIC(atomic_min, "cuda.atomic.min");
INTRINSIC(atomic_exch, "cuda.atomic.exch");
INTRINSIC(atomic_cas, "cuda.atomic.cas");
INTRINSIC(atomic_compare_and_swap, "cuda.atomic.compare_and_swap");
INTRINSIC(uniform_float32, "cuda.random.xoroshiro128p_uniform_float32");
INTRINSIC(uniform_float64, "cuda.random.xoroshiro128p_uniform_float64");
INTRINSIC(normal_float32, "cuda.random.xoroshiro128p_normal_float32");
INTRINSIC(normal_float64, "cuda.random.xoroshiro128p_normal_float64");
