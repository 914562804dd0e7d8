/* dispatch: the Python callable a kiln.jit function becomes. A call types
 * its arguments (exact floats and ints inline, else kj_typeof: a few pointer
 * compares), finds the specialization compiled for those types by a linear
 * scan of a short list, unboxes the arguments (numbers into one 8-byte slot
 * each, anything else into a stack buffer laid out as LLVM lays out their
 * types), calls the machine code (counted, and timed or sampled, only while
 * a notebook cell records calls: profiler/profiler.h) and boxes the result
 * (an array argument returned unchanged is returned itself). A miss calls
 * the Python side (_specialize), which compiles. A few hundred
 * instructions a call, a third of them the fault guard's sigsetjmp
 * (bench/MEASURED.md); bench/jit_vs_numba.py sets it against Numba's. */
#define PY_SSIZE_T_CLEAN
#include "jit/engine/compile.h"
#include "jit/runtime/fault.h"
#include "jit/frontend/frontend.h"
#include "jit/core/numpy_api.h"
#include "jit/containers/dicts.h"
#include "jit/containers/lists.h"
#include "jit/containers/sets.h"
#include "jit/runtime/boxing.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/runtime.h"
#include "profiler/profiler.h"

#include <string.h>
#include <structmember.h>

#define MAX_ARGS KJ_SPEC_MAX_ARGS
_Static_assert(KJ_UNBOX_TEMPS >= MAX_ARGS, "a buffer object per argument fits kj_unbox_temps");
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
    PyObject *weakrefs;          /* a process that unpickled it finds it again by weak reference (pickling.py) */
    Py_ssize_t nparams;          /* py_func's positional parameters, or -1 */
    Py_ssize_t nfixed;           /* with *args: the positional parameters before it, or 0 */
    entry *entries;
    int nentries, cap;
    kj_fn_state state;           /* options, declared signatures, specializations (unit.h) */
} dispatcher;

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

static inline int unbox_arg(PyObject *v, const kj_type *t, char *dst, kj_unbox_temps *cs) {
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
    return kj_unbox(v, t, dst, cs);
}

static inline PyObject *box_result(const char *src, const kj_type *t) {
    if (t == type_f64)
        return PyFloat_FromDouble(*(const double *)src);
    if (t == type_i64)
        return PyLong_FromLongLong(*(const int64_t *)src);
    return kj_box_value(src, t);
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
        size_t a = kj_value_align(s->args[i]);
        off = (off + a - 1) / a * a;
        s->arg_offset[i] = (unsigned)off;
        off += kj_value_size(s->args[i]);
        scalars = scalars && fits_slot(s->args[i], false);
    }
    if (s->nargs > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "kiln: arguments too large");
        return -1;
    }
    s->args_size = (unsigned)off;
    s->ret_size = (unsigned)kj_value_size(s->ret);
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
    kj_unbox_temps cs;
    cs.ntemps = cs.nlists = 0;   /* (not = {0}: that would clear the whole arrays per call) */
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
    if (kj_unbox_release(&cs) < 0)   /* lists passed in take what the call left in them */
        Py_CLEAR(result);
    return result;
fail:
    if (buf != stack_args)
        PyMem_Free(buf);
    kj_unbox_release(&cs);
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
    /* a miss: the Python side picks or compiles the specialization, given
     * the arguments and, where each has one, their types (as typeof_spec
     * gives them) */
    PyObject *tuple = PyTuple_New(n), *specs = typed ? PyTuple_New(n) : Py_NewRef(Py_None);
    for (Py_ssize_t i = 0; tuple && i < n; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    for (Py_ssize_t i = 0; typed && specs && i < n; i++) {
        PyObject *t = kj_type_to_spec(key[i]);
        if (!t)
            Py_CLEAR(specs);
        else
            PyTuple_SET_ITEM(specs, i, t);
    }
    static PyObject *name;   /* interned for the process */
    if (!tuple || !specs || (!name && !(name = PyUnicode_InternFromString("_specialize")))) {
        Py_XDECREF(tuple);
        Py_XDECREF(specs);
        return NULL;
    }
    PyObject *spec = PyObject_CallMethodObjArgs(self, name, tuple, specs, NULL);
    Py_DECREF(tuple);
    Py_DECREF(specs);
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
    Py_VISIT(d->state.locked);
    Py_VISIT(d->state.specs);
    for (int i = 0; i < d->nentries; i++)
        Py_VISIT(d->entries[i].spec);
    return 0;
}

static int dispatcher_clear(dispatcher *d) {
    Py_CLEAR(d->py_func);
    Py_CLEAR(d->dict);
    Py_CLEAR(d->state.locked);
    Py_CLEAR(d->state.specs);
    for (int i = 0; i < d->nentries; i++)
        Py_CLEAR(d->entries[i].spec);
    d->nentries = 0;
    return 0;
}

static void dispatcher_dealloc(dispatcher *d) {
    PyObject_GC_UnTrack(d);
    if (d->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)d);
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

/* ---- the compile state, as Python reads and sets it ---- */

/* The keys of _kiln_options (kiln.jit's _options makes them,
 * python/kiln/dispatcher.py) and where each is kept. */
static const struct {
    const char *name;
    size_t at;
} option_flags[] = {
    {"nogil", offsetof(kj_fn_state, opts.nogil)},
    {"boundscheck", offsetof(kj_fn_state, opts.boundscheck)},
    {"numpy_errors", offsetof(kj_fn_state, opts.numpy_errors)},
    {"parallel", offsetof(kj_fn_state, opts.parallel)},
    {"no_interrupt_poll", offsetof(kj_fn_state, opts.no_interrupt_poll)},
    {"cache", offsetof(kj_fn_state, cache)},
};
#define N_OPTION_FLAGS (sizeof option_flags / sizeof option_flags[0])

static PyObject *options_get(PyObject *self, void *closure) {
    (void)closure;
    const kj_fn_state *st = &((dispatcher *)self)->state;
    PyObject *o = PyDict_New(), *flags = o ? PyLong_FromUnsignedLong(st->opts.fastmath) : NULL;
    bool ok = flags && PyDict_SetItemString(o, "fastmath_flags", flags) == 0;
    Py_XDECREF(flags);
    for (size_t i = 0; ok && i < N_OPTION_FLAGS; i++)
        ok = PyDict_SetItemString(o, option_flags[i].name, *(const bool *)((const char *)st + option_flags[i].at) ? Py_True
                                                                                                             : Py_False) == 0;
    PyObject *view = ok ? PyDictProxy_New(o) : NULL;   /* read-only: a change goes through the setter */
    Py_XDECREF(o);
    return view;
}

/* Sets the options a dict names (a new function's: all of them); an
 * unknown one is refused, and then none is set. */
static int options_set(PyObject *self, PyObject *v, void *closure) {
    (void)closure;
    if (!v || !PyDict_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "_kiln_options is a dict of kiln.jit's options");
        return -1;
    }
    kj_fn_state st = ((dispatcher *)self)->state;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(v, &pos, &key, &value)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (k && !strcmp(k, "fastmath_flags")) {
            unsigned long flags = PyLong_AsUnsignedLong(value);
            if (PyErr_Occurred())
                return -1;
            if (flags > 127) {
                PyErr_SetString(PyExc_ValueError, "fastmath_flags holds LLVM's fast-math flags, 0 to 127");
                return -1;
            }
            st.opts.fastmath = (unsigned)flags;
            continue;
        }
        size_t i = 0;
        while (k && i < N_OPTION_FLAGS && strcmp(option_flags[i].name, k) != 0)
            i++;
        if (!k || i == N_OPTION_FLAGS) {
            PyErr_Format(PyExc_KeyError, "%R is not one of kiln.jit's options", key);
            return -1;
        }
        int truth = PyObject_IsTrue(value);
        if (truth < 0)
            return -1;
        *(bool *)((char *)&st + option_flags[i].at) = truth;
    }
    ((dispatcher *)self)->state.opts = st.opts;
    ((dispatcher *)self)->state.cache = st.cache;
    return 0;
}

/* The declared signatures, a list of (argspecs, retspec or None), or None
 * (any types); a copy, so that what compiles see changes only when set. */
static PyObject *locked_get(PyObject *self, void *closure) {
    (void)closure;
    PyObject *locked = ((dispatcher *)self)->state.locked;
    return locked ? PyList_GetSlice(locked, 0, PyList_GET_SIZE(locked)) : Py_NewRef(Py_None);
}

static int locked_set(PyObject *self, PyObject *v, void *closure) {
    (void)closure;
    PyObject *copy = v && v != Py_None ? PySequence_List(v) : NULL;
    if (v && v != Py_None && !copy)
        return -1;
    for (Py_ssize_t i = 0; copy && i < PyList_GET_SIZE(copy); i++) {
        PyObject *sig = PyList_GET_ITEM(copy, i);
        if (!PyTuple_Check(sig) || PyTuple_GET_SIZE(sig) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(sig, 0))) {
            Py_DECREF(copy);
            PyErr_SetString(PyExc_TypeError, "_kiln_locked_sigs holds (argspecs tuple, retspec or None) pairs");
            return -1;
        }
    }
    Py_XSETREF(((dispatcher *)self)->state.locked, copy);
    return 0;
}

/* The specializations compiled, oldest first (a tuple). */
static PyObject *compiled_get(PyObject *self, void *closure) {
    (void)closure;
    PyObject *specs = ((dispatcher *)self)->state.specs;
    return specs ? PyList_AsTuple(specs) : PyTuple_New(0);
}

/* _kiln_keep(spec): spec joins the specializations, in the place of one
 * compiled before for the same argument types. */
static PyObject *dispatcher_keep(PyObject *self, PyObject *spec) {
    kj_fn_state *st = &((dispatcher *)self)->state;
    if (!PyObject_TypeCheck(spec, &kj_spec_type)) {
        PyErr_SetString(PyExc_TypeError, "_kiln_keep(spec) takes a Specialization");
        return NULL;
    }
    if (!st->specs && !(st->specs = PyList_New(0)))
        return NULL;
    const kj_spec *s = (const kj_spec *)spec;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(st->specs); i++) {
        const kj_spec *old = (const kj_spec *)PyList_GET_ITEM(st->specs, i);
        if (old->nargs == s->nargs && !memcmp(old->args, s->args, sizeof(kj_type *) * (size_t)s->nargs))   /* types are unique */
            return PyList_SetItem(st->specs, i, Py_NewRef(spec)) < 0 ? NULL : Py_NewRef(Py_None);
    }
    return PyList_Append(st->specs, spec) < 0 ? NULL : Py_NewRef(Py_None);
}

static PyMethodDef dispatcher_methods[] = {
    {"_call_spec", (PyCFunction)(void (*)(void))dispatcher_call_spec, METH_FASTCALL,
     "Call one specialization with these arguments."},
    {"_kiln_keep", dispatcher_keep, METH_O, "Keep a specialization compiled, in the place of one for the same types."},
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
    {"_kiln_options", options_get, options_set, "the compile options (kiln.jit's keywords), kept in C: a read-only view", NULL},
    {"_kiln_locked_sigs", locked_get, locked_set, "the declared signatures, or None", NULL},
    {"_kiln_compiled", compiled_get, NULL, "the specializations compiled, oldest first", NULL},
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
    .tp_weaklistoffset = offsetof(dispatcher, weakrefs),
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
    kj_fn_state_register(offsetof(dispatcher, state));
    Py_INCREF(&dispatcher_type);
    if (PyModule_AddObject(module, "Dispatcher", (PyObject *)&dispatcher_type) < 0) {
        Py_DECREF(&dispatcher_type);
        return -1;
    }
    return PyModule_AddFunctions(module, module_methods);
}
