/* dispatch: the Python callable a kiln.jit function becomes. A call types
 * its arguments (exact floats and ints inline, else kj_typeof: a few pointer
 * compares), finds the specialization compiled for those types by a linear
 * scan of a short list, unboxes the arguments (numbers into one 8-byte slot
 * each, anything else into a stack buffer laid out as LLVM lays out their
 * types), calls the machine code (counted, and timed or sampled, only while
 * a notebook cell records calls: profiler/profiler.h) and boxes the result
 * (an array argument returned unchanged is returned itself). A miss calls
 * the Python side (_specialize), which compiles. Per call of an identity
 * function this is about 240 instructions for a float, 275 for an int,
 * of which the fault guard's sigsetjmp takes 85 (callgrind);
 * bench/jit_vs_numba.py sets it against Numba's. */
#define PY_SSIZE_T_CLEAN
#include "jit/engine/compile.h"
#include "jit/runtime/fault.h"
#include "jit/frontend/frontend.h"
#include "jit/numpy/numpy_api.h"
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"
#include "jit/containers/sets.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/runtime.h"
#include "profiler/profiler.h"

#include <string.h>
#include <structmember.h>

#define MAX_ARGS KJ_SPEC_MAX_ARGS
/* Arguments of most calls fit on the stack; larger sets use the heap. */
#define ARG_BUFFER 1024
#define RET_BUFFER 256
/* The most arguments call_scalars takes; more go through call_buffered. */
#define SCALAR_ARGS 8

typedef struct {
    int nargs;
    const kj_type *key[MAX_ARGS];
    kj_spec *spec;               /* owned */
} entry;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *py_func;
    PyObject *dict;
    Py_ssize_t nparams;          /* py_func's positional parameters, or -1 */
    Py_ssize_t nfixed;           /* with *args: the positional parameters before it, or 0 */
    entry *entries;
    int nentries, cap;
} dispatcher;

/* ---- layout of values in memory, as LLVM's default data layout ---- */

static size_t align_of(const kj_type *t);

static size_t size_of(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_BOOL:
    case KJ_T_NONE: return 1;
    case KJ_T_INT: return (size_t)t->bits / 8;
    case KJ_T_FLOAT: return (size_t)t->bits / 8;
    case KJ_T_COMPLEX: return (size_t)t->bits / 8;
    case KJ_T_ARRAY: return 16 + 16 * (size_t)t->ndim;
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET:
    case KJ_T_STR: return 8;
    case KJ_T_TUPLE: {
        size_t off = 0, al = 1;
        for (int i = 0; i < t->n; i++) {
            size_t a = align_of(t->elems[i]);
            off = (off + a - 1) / a * a + size_of(t->elems[i]);
            if (a > al)
                al = a;
        }
        return (off + al - 1) / al * al;
    }
    case KJ_T_OPTIONAL: {
        size_t a = align_of(t->elem);
        return (a + size_of(t->elem) + a - 1) / a * a;
    }
    default: return 1;
    }
}

static size_t align_of(const kj_type *t) {
    switch (t->kind) {
    case KJ_T_COMPLEX: return (size_t)t->bits / 16;
    case KJ_T_ARRAY:
    case KJ_T_LIST:
    case KJ_T_DICT:
    case KJ_T_SET:
    case KJ_T_STR: return 8;
    case KJ_T_TUPLE: {
        size_t al = 1;
        for (int i = 0; i < t->n; i++)
            if (align_of(t->elems[i]) > al)
                al = align_of(t->elems[i]);
        return al;
    }
    case KJ_T_OPTIONAL: return align_of(t->elem);
    default: return size_of(t);
    }
}

static size_t field_offset(const kj_type *tuple, int index) {
    size_t off = 0;
    for (int i = 0; i <= index; i++) {
        size_t a = align_of(tuple->elems[i]);
        off = (off + a - 1) / a * a;
        if (i < index)
            off += size_of(tuple->elems[i]);
    }
    return off;
}

/* ---- unboxing ---- */

typedef struct {
    PyObject *temps[MAX_ARGS];   /* arrays made from buffer objects, owned */
    int ntemps;
} call_state;

static int arg_error(PyObject *v, const kj_type *t) {
    PyErr_Format(PyExc_TypeError, "kiln: cannot pass %s as %s", Py_TYPE(v)->tp_name, t->name);
    return -1;
}

/* The low `bits` of x (little-endian) at dst: a store of the width, not a
 * memcpy of a variable size, which is a library call. */
static inline void store_int(char *dst, uint64_t x, int bits) {
    switch (bits) {
    case 8: *(uint8_t *)dst = (uint8_t)x; break;
    case 16: memcpy(dst, &(uint16_t){(uint16_t)x}, 2); break;
    case 32: memcpy(dst, &(uint32_t){(uint32_t)x}, 4); break;
    default: memcpy(dst, &x, 8); break;
    }
}

static int unbox(PyObject *v, const kj_type *t, char *dst, call_state *cs) {
    switch (t->kind) {
    case KJ_T_NONE:
    case KJ_T_FUNC:   /* the type says which function: nothing to pass */
        return 0;
    case KJ_T_BOOL: {
        int b = PyObject_IsTrue(v);
        if (b < 0)
            return -1;
        *(uint8_t *)dst = (uint8_t)b;
        return 0;
    }
    case KJ_T_INT: {
        uint64_t x;
        if (PyLong_CheckExact(v) || PyBool_Check(v)) {
            int overflow;
            long long s = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (!overflow) {   /* the common case: no error is possible */
                store_int(dst, (uint64_t)s, t->bits);
                return 0;
            }
            if (overflow > 0 && !t->is_signed)
                x = PyLong_AsUnsignedLongLong(v);
            else
                return PyErr_Format(PyExc_OverflowError, "kiln: %R does not fit in %s", v, t->name), -1;
        } else if (PyFloat_Check(v) || PyComplex_Check(v)) {
            return arg_error(v, t);
        } else {
            PyObject *i = PyNumber_Index(v);
            if (!i)
                return -1;
            x = t->is_signed ? (uint64_t)PyLong_AsLongLong(i) : PyLong_AsUnsignedLongLong(i);
            Py_DECREF(i);
        }
        if (PyErr_Occurred())
            return -1;
        store_int(dst, x, t->bits);
        return 0;
    }
    case KJ_T_FLOAT: {
        double d = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred())
            return -1;
        if (t->bits == 32)
            *(float *)dst = (float)d;
        else
            *(double *)dst = d;
        return 0;
    }
    case KJ_T_COMPLEX: {
        Py_complex z = PyComplex_AsCComplex(v);
        if (PyErr_Occurred())
            return -1;
        if (t->bits == 64) {
            ((float *)dst)[0] = (float)z.real;
            ((float *)dst)[1] = (float)z.imag;
        } else {
            ((double *)dst)[0] = z.real;
            ((double *)dst)[1] = z.imag;
        }
        return 0;
    }
    case KJ_T_ARRAY: {
        PyArrayObject *a;
        if (PyArray_Check(v)) {
            a = (PyArrayObject *)v;
        } else {
            if (cs->ntemps == MAX_ARGS)
                return arg_error(v, t);
            PyObject *tmp = PyArray_FromAny(v, NULL, 0, 0, 0, NULL);   /* shares the buffer */
            if (!tmp)
                return -1;
            cs->temps[cs->ntemps++] = tmp;
            a = (PyArrayObject *)tmp;
        }
        int flags = PyArray_FLAGS(a);
        if (kj_type_from_npy(PyArray_TYPE(a)) != t->elem || PyArray_NDIM(a) != t->ndim ||
            (t->layout == KJ_LAYOUT_C && !(flags & NPY_ARRAY_C_CONTIGUOUS)) ||
            (t->layout == KJ_LAYOUT_F && !(flags & NPY_ARRAY_F_CONTIGUOUS)) ||
            (!t->readonly && !(flags & NPY_ARRAY_WRITEABLE))) {
            PyErr_Format(PyExc_TypeError, "kiln: cannot pass an array of %S with %d dimensions%s as %s",
                         (PyObject *)PyArray_DESCR(a), PyArray_NDIM(a),
                         (flags & NPY_ARRAY_WRITEABLE) ? "" : " (read-only)", t->name);
            return -1;
        }
        void **p = (void **)dst;
        p[0] = a;
        p[1] = PyArray_DATA(a);
        int64_t *dims = (int64_t *)(dst + 16);
        for (int k = 0; k < t->ndim; k++) {
            dims[k] = PyArray_DIM(a, k);
            dims[t->ndim + k] = PyArray_STRIDE(a, k);
        }
        return 0;
    }
    case KJ_T_TUPLE:
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != t->n)
            return arg_error(v, t);
        for (int i = 0; i < t->n; i++)
            if (unbox(PyTuple_GET_ITEM(v, i), t->elems[i], dst + field_offset(t, i), cs) < 0)
                return -1;
        return 0;
    case KJ_T_OPTIONAL:
        *(uint8_t *)dst = v != Py_None;
        return v == Py_None ? 0 : unbox(v, t->elem, dst + align_of(t->elem), cs);
    case KJ_T_STR: {   /* its UTF-8, which the str keeps while the caller holds it */
        Py_ssize_t n;
        const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &n) : NULL;
        if (!s)
            return PyErr_Occurred() ? -1 : arg_error(v, t);
        if ((size_t)n != strlen(s)) {   /* compiled code reads up to the first NUL */
            PyErr_SetString(PyExc_ValueError, "kiln: cannot pass a string holding a NUL character ('\\0')");
            return -1;
        }
        *(const char **)dst = s;
        return 0;
    }
    default:
        return arg_error(v, t);
    }
}

/* ---- boxing ---- */

/* Whether array a is exactly the returned array of type t (data, shape,
 * strides, element type, writability). */
static int is_whole(PyArrayObject *a, const kj_type *t, const void *data, const int64_t *dims) {
    if (PyArray_DATA(a) != data || PyArray_NDIM(a) != t->ndim ||
        kj_type_from_npy(PyArray_TYPE(a)) != t->elem ||
        !t->readonly != !!(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE))
        return 0;
    for (int k = 0; k < t->ndim; k++)
        if (PyArray_DIM(a, k) != dims[k] || PyArray_STRIDE(a, k) != dims[t->ndim + k])
            return 0;
    return 1;
}

static PyObject *box(const char *src, const kj_type *t) {
    switch (t->kind) {
    case KJ_T_NONE: Py_RETURN_NONE;
    case KJ_T_FUNC: return Py_NewRef((PyObject *)t->obj);
    case KJ_T_STR: return PyUnicode_FromString(*(const char *const *)src);
    case KJ_T_BOOL: return PyBool_FromLong(*(const uint8_t *)src & 1);
    case KJ_T_INT:
        switch (t->bits) {
        case 8: return t->is_signed ? PyLong_FromLong(*(const int8_t *)src) : PyLong_FromLong(*(const uint8_t *)src);
        case 16: return t->is_signed ? PyLong_FromLong(*(const int16_t *)src) : PyLong_FromLong(*(const uint16_t *)src);
        case 32: return t->is_signed ? PyLong_FromLong(*(const int32_t *)src) : PyLong_FromUnsignedLong(*(const uint32_t *)src);
        default: return t->is_signed ? PyLong_FromLongLong(*(const int64_t *)src) : PyLong_FromUnsignedLongLong(*(const uint64_t *)src);
        }
    case KJ_T_FLOAT: return PyFloat_FromDouble(t->bits == 32 ? *(const float *)src : *(const double *)src);
    case KJ_T_COMPLEX:
        if (t->bits == 64)
            return PyComplex_FromDoubles(((const float *)src)[0], ((const float *)src)[1]);
        return PyComplex_FromDoubles(((const double *)src)[0], ((const double *)src)[1]);
    case KJ_T_OPTIONAL:
        if (!(*(const uint8_t *)src & 1))
            Py_RETURN_NONE;
        return box(src + align_of(t->elem), t->elem);
    case KJ_T_TUPLE: {
        PyObject *tup = PyTuple_New(t->n);
        for (int i = 0; tup && i < t->n; i++) {
            PyObject *x = box(src + field_offset(t, i), t->elems[i]);
            if (!x) {
                Py_CLEAR(tup);
                break;
            }
            PyTuple_SET_ITEM(tup, i, x);
        }
        return tup;
    }
    case KJ_T_LIST:
        return kj_list_box(*(void *const *)src, t);
    case KJ_T_DICT:
        return kj_dict_box(*(void *const *)src, t);
    case KJ_T_SET:
        return kj_set_box(*(void *const *)src, t);
    case KJ_T_ARRAY: {
        /* a NumPy array on the same memory, whose base keeps the memory
         * alive: the argument it views, or the block compiled code made
         * (the returned reference passes to the base object) */
        PyObject *owner = *(PyObject *const *)src;
        void *data = ((void *const *)src)[1];
        npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
        const int64_t *d = (const int64_t *)(src + 16);
        if (owner && !kj_nrt_is_block(owner) && PyArray_Check(owner) &&
            is_whole((PyArrayObject *)owner, t, data, d)) {
            /* an argument returned as it came: the same object, as Python
             * gives (`f(a) is a`), and no new view per call */
            Py_INCREF(owner);
            return owner;
        }
        for (int k = 0; k < t->ndim; k++) {
            dims[k] = (npy_intp)d[k];
            strides[k] = (npy_intp)d[t->ndim + k];
        }
        PyArray_Descr *descr = PyArray_DescrFromType(kj_type_to_npy(t->elem));
        if (!descr)
            return NULL;
        PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims, strides, data,
                                             t->readonly ? 0 : NPY_ARRAY_WRITEABLE, NULL);
        PyObject *base = arr && owner ? kj_nrt_base_object(owner) : NULL;
        if (base && PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
        if (owner && !base)
            Py_CLEAR(arr);
        return arr;
    }
    default:
        PyErr_Format(PyExc_TypeError, "kiln: cannot return %s to Python", t->name);
        return NULL;
    }
}

PyObject *kj_box_value(const char *src, const kj_type *t) { return box(src, t); }

/* ---- the scalar fast path ---- */

/* float64 and int64, the commonest argument and result types, looked up
 * once (kj_dispatch_init) so that a call passing or returning them types,
 * unboxes and boxes them inline: a third of a scalar call's instructions
 * were the calls and switches of the general path. */
static const kj_type *type_f64, *type_i64;

/* kj_typeof(v), with exact floats and ints (not bools) answered inline. */
static inline const kj_type *typeof_arg(PyObject *v) {
    if (PyFloat_CheckExact(v))
        return type_f64;
    if (PyLong_CheckExact(v))
        return type_i64;
    return kj_typeof(v);
}

static inline int unbox_arg(PyObject *v, const kj_type *t, char *dst, call_state *cs) {
    if (t == type_f64 && PyFloat_CheckExact(v)) {
        *(double *)dst = PyFloat_AS_DOUBLE(v);
        return 0;
    }
    if (t == type_i64 && PyLong_CheckExact(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow) {
            memcpy(dst, &x, 8);
            return 0;
        }   /* unbox says why it does not fit */
    }
    return unbox(v, t, dst, cs);
}

static inline PyObject *box_result(const char *src, const kj_type *t) {
    if (t == type_f64)
        return PyFloat_FromDouble(*(const double *)src);
    if (t == type_i64)
        return PyLong_FromLongLong(*(const int64_t *)src);
    return box(src, t);
}

/* ---- calling ---- */

static PyObject *raise_from_compiled(void) {
    kj_rt_error_to_python(kj_rt_take_error());
    return NULL;
}

/* The profiler's record of s's calls, named after py_func, which made the
 * first call. Returns 0, or -1 with an exception. */
static int make_call_record(kj_spec *s, PyObject *py_func) {
    PyObject *name = py_func ? PyObject_GetAttrString(py_func, "__qualname__") : NULL;  /* owned here */
    if (!name)
        PyErr_Clear();  /* the record is only unnamed in the report */
    s->calls = kp_calls_new(name, s->signature);
    Py_XDECREF(name);
    if (!s->calls) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Whether a value of t is passed, or returned, in one 8-byte slot by
 * call_scalars: a number that is not complex (or, returned, None). */
static bool fits_slot(const kj_type *t, bool returned) {
    return t->kind == KJ_T_BOOL || t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT ||
           (returned && t->kind == KJ_T_NONE);
}

/* Works out where each argument of s goes in the argument buffer, whether
 * its calls can take call_scalars, and makes its call record: once, on its
 * first call. Returns 0, or -1 with a TypeError when they do not fit. */
static int lay_out(kj_spec *s, PyObject *py_func) {
    size_t off = 0;
    bool scalars = s->nargs <= SCALAR_ARGS && fits_slot(s->ret, true);
    for (int i = 0; i < s->nargs; i++) {
        size_t a = align_of(s->args[i]);
        off = (off + a - 1) / a * a;
        s->arg_offset[i] = (unsigned)off;
        off += size_of(s->args[i]);
        scalars = scalars && fits_slot(s->args[i], false);
    }
    if (s->nargs > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "kiln: arguments too large");
        return -1;
    }
    s->args_size = (unsigned)off;
    s->ret_size = (unsigned)size_of(s->ret);
    s->scalar_call = scalars;
    if (!s->calls && make_call_record(s, py_func) < 0)
        return -1;
    s->laid_out = true;
    return 0;
}

/* Runs s's machine code on unboxed arguments: the status it returns, with
 * the error pending in the runtime when it is not 0. */
static inline int run_entry(kj_spec *s, void *ret, void **ptrs) {
    kj_interrupt_flag = 0;
    /* counted while a cell's footer will show it, and timed when long or
     * sampled (profiler.h): two clock reads cost as much as a short call */
    kp_calls *record = s->calls;
    bool timed = kp_call_starts(record);
    uint64_t t0 = timed ? kp_ticks() : 0;
    int status;
    if (s->nogil) {
        Py_BEGIN_ALLOW_THREADS
        status = kj_guarded_entry(s->entry, ret, ptrs);
        Py_END_ALLOW_THREADS
    } else {
        status = kj_guarded_entry(s->entry, ret, ptrs);
    }
    if (timed)
        kp_call_timed(record, kp_ticks() - t0);
    return status;
}

/* Calls s, laid out and taking only numbers (scalar_call): each argument in
 * an 8-byte slot and no buffers or temporaries to check, in a frame a
 * fifth of call_buffered's size. Inlined into the dispatcher's hot path,
 * where a call of its own cost 25 instructions in 240. */
static inline __attribute__((always_inline)) PyObject *call_scalars(kj_spec *s, PyObject *const *args,
                                                                    Py_ssize_t n) {
    uint64_t slots[SCALAR_ARGS], ret;
    void *ptrs[SCALAR_ARGS];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (unbox_arg(args[i], s->args[i], (char *)&slots[i], NULL) < 0)
            return NULL;
        ptrs[i] = &slots[i];
    }
    PyObject *result = run_entry(s, &ret, ptrs) == 0 ? box_result((const char *)&ret, s->ret) : raise_from_compiled();
    kj_fmt_forget_kept_if_any();   /* strings the call made and kept */
    return result;
}

/* Calls s, laid out, with arguments of any type: each unboxed where
 * lay_out placed it in a buffer on the stack (or the heap). Inlined into
 * call_spec, the hot path of calls passing arrays: a call of its own cost
 * them 15 instructions. */
static inline __attribute__((always_inline)) PyObject *call_buffered(kj_spec *s, PyObject *const *args,
                                                                     Py_ssize_t n) {
    _Alignas(16) char stack_args[ARG_BUFFER];
    _Alignas(16) char retbuf[RET_BUFFER];
    void *ptrs[MAX_ARGS];
    call_state cs;
    cs.ntemps = 0;   /* (not = {0}: that would clear the whole array per call) */
    char *buf = s->args_size <= sizeof stack_args ? stack_args : PyMem_Malloc(s->args_size);
    if (!buf)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        char *dst = buf + s->arg_offset[i];
        if (unbox_arg(args[i], s->args[i], dst, &cs) < 0)
            goto fail;
        ptrs[i] = dst;
    }
    size_t rsize = s->ret_size;
    char *ret = rsize <= sizeof retbuf ? retbuf : PyMem_Malloc(rsize);
    if (!ret) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *result = run_entry(s, ret, ptrs) == 0 ? box_result(ret, s->ret) : raise_from_compiled();
    kj_fmt_forget_kept_if_any();   /* the strings the call kept: a returned one is boxed by now */
    if (ret != retbuf)
        PyMem_Free(ret);
    if (buf != stack_args)
        PyMem_Free(buf);
    for (int i = 0; i < cs.ntemps; i++)
        Py_DECREF(cs.temps[i]);
    return result;
fail:
    if (buf != stack_args)
        PyMem_Free(buf);
    for (int i = 0; i < cs.ntemps; i++)
        Py_DECREF(cs.temps[i]);
    return NULL;
}

/* Calls s, which the dispatcher of py_func found or made for these args,
 * laying it out on its first call. */
static PyObject *call_spec(kj_spec *s, PyObject *py_func, PyObject *const *args, Py_ssize_t n) {
    if (!s->laid_out && lay_out(s, py_func) < 0)
        return NULL;
    return s->scalar_call ? call_scalars(s, args, n) : call_buffered(s, args, n);
}

static kj_spec *lookup(dispatcher *d, const kj_type *const *key, int n) {
    for (int i = 0; i < d->nentries; i++) {
        entry *e = &d->entries[i];
        if (e->nargs != n)
            continue;
        int k = 0;
        while (k < n && e->key[k] == key[k])
            k++;
        if (k == n)
            return e->spec;
    }
    return NULL;
}

static int add_entry(dispatcher *d, const kj_type *const *key, int n, kj_spec *s) {
    if (d->nentries == d->cap) {
        int cap = d->cap ? d->cap * 2 : 4;
        entry *e = PyMem_Realloc(d->entries, sizeof(entry) * (size_t)cap);
        if (!e)
            return -1;
        d->entries = e;
        d->cap = cap;
    }
    entry *e = &d->entries[d->nentries++];
    e->nargs = n;
    memcpy(e->key, key, sizeof(kj_type *) * (size_t)n);
    Py_INCREF(s);
    e->spec = s;
    return 0;
}

/* Keywords or left-out defaults: the Python side binds them the way the
 * function's signature says and calls again with every parameter by
 * position, so the fast path above only ever sees complete positional calls. */
static PyObject *call_bound(PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames) {
    PyObject *bind = PyObject_GetAttrString(self, "_call_bound");
    if (!bind)
        return NULL;
    PyObject *r = PyObject_Vectorcall(bind, args, (size_t)n, kwnames);
    Py_DECREF(bind);
    return r;
}

static PyObject *dispatcher_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    dispatcher *d = (dispatcher *)self;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if ((kwnames && PyTuple_GET_SIZE(kwnames) > 0) || (n != d->nparams && d->nparams >= 0) || n < d->nfixed)
        return call_bound(self, args, n, kwnames);
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "kiln: compiled functions take at most 32 arguments");
        return NULL;
    }
    const kj_type *key[MAX_ARGS];
    bool typed = true;
    for (Py_ssize_t i = 0; i < n; i++)
        typed = (key[i] = typeof_arg(args[i])) != NULL && typed;
    kj_spec *s = typed ? lookup(d, key, (int)n) : NULL;
    if (s)   /* scalar_call is set once s is laid out, so call_spec's check can be skipped */
        return s->scalar_call ? call_scalars(s, args, n) : call_spec(s, d->py_func, args, n);
    /* a miss: the Python side picks or compiles the specialization */
    PyObject *tuple = PyTuple_New(n);
    if (!tuple)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(tuple, i, args[i]);
    }
    static PyObject *name;   /* interned for the process */
    if (!name && !(name = PyUnicode_InternFromString("_specialize"))) {
        Py_DECREF(tuple);
        return NULL;
    }
    PyObject *spec = PyObject_CallMethodOneArg(self, name, tuple);
    Py_DECREF(tuple);
    if (!spec)
        return NULL;
    if (!PyObject_TypeCheck(spec, &kj_spec_type) || ((kj_spec *)spec)->nargs != n) {
        Py_DECREF(spec);
        PyErr_SetString(PyExc_TypeError, "kiln: _specialize must return a Specialization");
        return NULL;
    }
    if (typed && add_entry(d, key, (int)n, (kj_spec *)spec) < 0) {
        Py_DECREF(spec);
        return PyErr_NoMemory();
    }
    PyObject *r = call_spec((kj_spec *)spec, d->py_func, args, n);
    Py_DECREF(spec);
    return r;
}

/* ---- the type ---- */

static PyObject *dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *py_func;
    static char *names[] = {"py_func", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Dispatcher", names, &py_func))
        return NULL;
    dispatcher *d = (dispatcher *)type->tp_alloc(type, 0);
    if (!d)
        return NULL;
    d->vectorcall = dispatcher_vectorcall;
    Py_INCREF(py_func);
    d->py_func = py_func;
    /* **kwargs and keyword-only parameters are not compiled (the front end
     * says so): such calls go through as given; so do calls that fill a
     * function's *args (each argument typed on its own), once they give every
     * parameter before it */
    d->nparams = -1;
    if (PyFunction_Check(py_func)) {
        PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(py_func);
        if (code->co_kwonlyargcount == 0 && !(code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)))
            d->nparams = code->co_argcount;
        else if (code->co_kwonlyargcount == 0 && !(code->co_flags & CO_VARKEYWORDS))
            d->nfixed = code->co_argcount;
    }
    return (PyObject *)d;
}

static int dispatcher_traverse(dispatcher *d, visitproc visit, void *arg) {
    Py_VISIT(d->py_func);
    Py_VISIT(d->dict);
    for (int i = 0; i < d->nentries; i++)
        Py_VISIT(d->entries[i].spec);
    return 0;
}

static int dispatcher_clear(dispatcher *d) {
    Py_CLEAR(d->py_func);
    Py_CLEAR(d->dict);
    for (int i = 0; i < d->nentries; i++)
        Py_CLEAR(d->entries[i].spec);
    d->nentries = 0;
    return 0;
}

static void dispatcher_dealloc(dispatcher *d) {
    PyObject_GC_UnTrack(d);
    dispatcher_clear(d);
    PyMem_Free(d->entries);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

/* Calls spec directly (a signature compiled ahead, or a test). */
static PyObject *dispatcher_call_spec(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n < 1 || !PyObject_TypeCheck(args[0], &kj_spec_type)) {
        PyErr_SetString(PyExc_TypeError, "_call_spec(spec, *args)");
        return NULL;
    }
    kj_spec *s = (kj_spec *)args[0];
    if (s->nargs != n - 1) {
        PyErr_Format(PyExc_TypeError, "kiln: this signature takes %d arguments, %zd given", s->nargs, n - 1);
        return NULL;
    }
    return call_spec(s, ((dispatcher *)self)->py_func, args + 1, n - 1);
}

static PyMethodDef dispatcher_methods[] = {
    {"_call_spec", (PyCFunction)(void (*)(void))dispatcher_call_spec, METH_FASTCALL,
     "Call one specialization with these arguments."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef dispatcher_members[] = {
    {"py_func", T_OBJECT, offsetof(dispatcher, py_func), READONLY, "the Python function"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(dispatcher, vectorcall), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(dispatcher, dict), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef dispatcher_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject dispatcher_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kiln.Dispatcher",
    .tp_basicsize = sizeof(dispatcher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A function compiled by kiln.jit on its first call with new argument types.",
    .tp_new = dispatcher_new,
    .tp_dealloc = (destructor)dispatcher_dealloc,
    .tp_traverse = (traverseproc)dispatcher_traverse,
    .tp_clear = (inquiry)dispatcher_clear,
    .tp_vectorcall_offset = offsetof(dispatcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_dictoffset = offsetof(dispatcher, dict),
    .tp_methods = dispatcher_methods,
    .tp_members = dispatcher_members,
    .tp_getset = dispatcher_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* _kiln.install_dispatcher_methods(dict): the kiln package's Python
 * methods (_specialize, inspect_types, ...) join the C type, so calls stay
 * on the vectorcall path with no Python subclass in between. */
static PyObject *install_methods(PyObject *self, PyObject *methods) {
    (void)self;
    if (!PyDict_Check(methods)) {
        PyErr_SetString(PyExc_TypeError, "install_dispatcher_methods(dict)");
        return NULL;
    }
    if (PyDict_Update(dispatcher_type.tp_dict, methods) < 0)
        return NULL;
    PyType_Modified(&dispatcher_type);
    Py_RETURN_NONE;
}

static PyObject *typeof_spec(PyObject *self, PyObject *v) {
    (void)self;
    const kj_type *t = kj_typeof(v);
    if (!t)
        Py_RETURN_NONE;
    return kj_type_to_spec(t);
}

static PyObject *type_name(PyObject *self, PyObject *spec) {
    (void)self;
    const kj_type *t = kj_type_from_spec(spec);
    return t ? PyUnicode_FromString(t->name) : NULL;
}

static PyObject *can_convert(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO", &a, &b))
        return NULL;
    const kj_type *ta = kj_type_from_spec(a), *tb = ta ? kj_type_from_spec(b) : NULL;
    if (!tb)
        return NULL;
    return PyBool_FromLong(kj_can_convert(ta, tb));
}

static PyMethodDef module_methods[] = {
    {"can_convert", can_convert, METH_VARARGS, "Whether a value of spec a may be passed as spec b."},
    {"install_dispatcher_methods", install_methods, METH_O, NULL},
    {"typeof_spec", typeof_spec, METH_O, "The type spec Kiln gives a value, or None."},
    {"type_name", type_name, METH_O, "The name of a type spec."},
    {"compile", kj_compile_py, METH_VARARGS, "compile(dispatcher, argspecs, retspec) -> Specialization"},
    {NULL, NULL, 0, NULL},
};

int kj_dispatch_init(PyObject *module) {
    type_f64 = kj_float(64);
    type_i64 = KJ_I64;
    if (PyType_Ready(&dispatcher_type) < 0)
        return -1;
    kj_dispatcher_type = &dispatcher_type;
    Py_INCREF(&dispatcher_type);
    if (PyModule_AddObject(module, "Dispatcher", (PyObject *)&dispatcher_type) < 0) {
        Py_DECREF(&dispatcher_type);
        return -1;
    }
    return PyModule_AddFunctions(module, module_methods);
}
