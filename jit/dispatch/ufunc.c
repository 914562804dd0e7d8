/* ufunc: compiled loops handed to NumPy. _kiln.make_ufunc builds a real
 * numpy.ufunc (broadcasting, out=, reduce, accumulate, type resolution are
 * NumPy's own) whose loops call the kernels' LLVM loops, split across the
 * thread pool for target='parallel', and turn a kernel's exception into the
 * same Python exception. */
#define PY_SSIZE_T_CLEAN
#include "jit/dispatch/ufunc.h"
#include "jit/engine/compile.h"
#include "jit/runtime/fault.h"
#include "jit/core/numpy_api.h"
#include "jit/runtime/pool.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/runtime.h"

#include <numpy/ufuncobject.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

/* ---- the compile hook: the kernel's layout from its dispatcher ---- */

static int read_layout(PyObject *desc, kj_ufunc_layout *lay) {
    memset(lay, 0, sizeof *lay);
    if (!PyTuple_Check(desc) || PyTuple_GET_SIZE(desc) < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(desc, 0)))
        goto bad;
    const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0));
    if (strcmp(kind, "vectorize") == 0)
        return 0;
    if (strcmp(kind, "guvectorize") != 0 || PyTuple_GET_SIZE(desc) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(desc, 1)))
        goto bad;
    lay->generalized = true;
    PyObject *ops = PyTuple_GET_ITEM(desc, 1);
    if (PyTuple_GET_SIZE(ops) > KJ_UFUNC_MAX_OPS)
        goto bad;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(ops); k++) {
        PyObject *dims = PyTuple_GET_ITEM(ops, k);
        if (!PyTuple_Check(dims) || PyTuple_GET_SIZE(dims) > KJ_UFUNC_MAX_CORE)
            goto bad;
        lay->ncore[k] = (int)PyTuple_GET_SIZE(dims);
        for (int j = 0; j < lay->ncore[k]; j++)
            lay->core[k][j] = (int)PyLong_AsLong(PyTuple_GET_ITEM(dims, j));
    }
    return PyErr_Occurred() ? -1 : 0;
bad:
    PyErr_SetString(PyExc_ValueError, "kiln: malformed ufunc kernel description");
    return -1;
}

int kj_ufunc_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size) {
    PyObject *desc = PyObject_GetAttrString(top->dispatcher, "_kiln_ufunc");
    if (!desc) {
        PyErr_Clear();
        return 0;
    }
    kj_ufunc_layout lay;
    int r = read_layout(desc, &lay);
    Py_DECREF(desc);
    if (r < 0)
        return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "ufunc layout");
    if (lay.generalized && top->ret->kind != KJ_T_NONE)
        return kj_fail(&u->err, KJ_ERR_TYPING, top->f->first_line, 0,
                       "Write the results into the output arrays and return nothing.",
                       "a guvectorize kernel returns %s; it must return None", top->ret->name);
    if (!lay.generalized && !kj_is_number(top->ret))
        return kj_fail(&u->err, KJ_ERR_TYPING, top->f->first_line, 0,
                       "Return one number per element.", "a vectorize kernel returns %s", top->ret->name);
    return kj_ufunc_define_loop(u, top, &lay, entry_name, size);
}

/* ---- loops as NumPy sees them ---- */


typedef struct {
    kj_ufunc_loop loop;
    int nin, nops;     /* inputs; inputs + outputs */
    int ndims;         /* entries of dims after the outer length (core dimensions) */
    bool parallel;
    bool blocks;                   /* strided calls run contiguous blocks (below) */
    int esize[KJ_UFUNC_MAX_OPS];   /* each operand's element size (vectorize) */
} loop_data;

typedef struct {
    const loop_data *d;
    char **args;
    const npy_intp *dims, *steps;
} split;

/* Outer elements below which a parallel loop stays on the calling thread:
 * waking workers costs more than a few thousand simple elements. */
#define PARALLEL_MIN 4096

/* ---- strided operands through contiguous blocks ----
 *
 * A kernel that calls math functions (cos, exp, ...) runs glibc's vector
 * versions of them (libmvec, `_ZGV...` in the IR) on the loop's contiguous
 * path only. Its strided path calls the scalar function per element (LLVM
 * made the same calls lane by lane after gathering the operands), and seed
 * 002's f(x, y) on every other element ran several times slower per
 * element than on contiguous ones. So, as NumPy buffers, a strided call of such a loop
 * runs in blocks: its strided inputs are copied into buffers on the stack,
 * the loop runs contiguous over the block, and a strided output is copied
 * out (bench/MEASURED.md: strided calls in blocks). Blocks
 * run only where no output overlaps an input other than exactly.
 *
 * Other kernels take the strided path, one element at a time (ufunc_loop.c):
 * memory decides their time. Copying them block by block was slower than
 * reading the inputs side by side, and LLVM's gathers were no faster than
 * single elements while taking a fifth of a cheap kernel's compile. */

#define BLOCK_BYTES 32768
#define BLOCK_MIN 64   /* fewer elements: the loop's own strided path */

/* Every other element of src into dst (contiguous): two 16-byte loads hold
 * the next elements, one shuffle packs them; a copy element by element ran
 * five times slower (about a cycle an element). Returns the elements done. */
static npy_intp copy_evens(char *dst, const char *src, npy_intp n, int size) {
    npy_intp i = 0;
#if defined(__x86_64__)
    if (size == 4)
        for (; i + 4 <= n; i += 4) {
            __m128 lo = _mm_loadu_ps((const float *)(src + 8 * i)), hi = _mm_loadu_ps((const float *)(src + 8 * i + 16));
            _mm_storeu_ps((float *)(dst + 4 * i), _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
        }
    if (size == 8)
        for (; i + 2 <= n; i += 2) {
            __m128d lo = _mm_loadu_pd((const double *)(src + 16 * i)), hi = _mm_loadu_pd((const double *)(src + 16 * i + 16));
            _mm_storeu_pd((double *)(dst + 8 * i), _mm_unpacklo_pd(lo, hi));
        }
#else
    (void)dst, (void)src, (void)n, (void)size;
#endif
    return i;
}

static void copy_strided(char *dst, npy_intp dst_step, const char *src, npy_intp src_step, npy_intp n,
                         int size) {
    if (dst_step == size && src_step == 2 * size) {
        npy_intp done = copy_evens(dst, src, n, size);
        dst += done * dst_step, src += done * src_step, n -= done;
    }
    switch (size) {   /* a known size: one move per element */
#define COPY(bytes)                                                                       \
    case bytes:                                                                           \
        for (npy_intp i = 0; i < n; i++, dst += dst_step, src += src_step)                \
            memcpy(dst, src, bytes);                                                      \
        return;
        COPY(1) COPY(2) COPY(4) COPY(8) COPY(16)
#undef COPY
    default:
        for (npy_intp i = 0; i < n; i++, dst += dst_step, src += src_step)
            memcpy(dst, src, (size_t)size);
    }
}

static bool worth_blocks(const loop_data *d, npy_intp n, const npy_intp *steps) {
    if (!d->blocks || n < BLOCK_MIN)
        return false;
    for (int k = 0; k < d->nops; k++)
        if (steps[k] != d->esize[k])
            return true;
    return false;
}

/* The loop over n elements in blocks; guarded: through kj_guarded_loop. */
static int run_blocked(const loop_data *d, char **args, npy_intp n, const npy_intp *steps, bool guarded) {
    _Alignas(64) char buffer[BLOCK_BYTES];
    npy_intp row = 0;
    for (int k = 0; k < d->nops; k++)
        row += steps[k] != d->esize[k] ? d->esize[k] : 0;
    npy_intp block = BLOCK_BYTES / row;
    char *part[KJ_UFUNC_MAX_OPS], *buf[KJ_UFUNC_MAX_OPS];
    npy_intp unit[KJ_UFUNC_MAX_OPS];
    char *next = buffer;
    for (int k = 0; k < d->nops; k++) {
        unit[k] = d->esize[k];
        buf[k] = steps[k] != d->esize[k] ? next : NULL;
        next += buf[k] ? block * d->esize[k] : 0;
    }
    for (npy_intp lo = 0; lo < n; lo += block) {
        npy_intp m = n - lo < block ? n - lo : block;
        for (int k = 0; k < d->nops; k++) {
            part[k] = buf[k] ? buf[k] : args[k] + lo * steps[k];
            if (buf[k] && k < d->nin)
                copy_strided(buf[k], d->esize[k], args[k] + lo * steps[k], steps[k], m, d->esize[k]);
        }
        int st = guarded ? kj_guarded_loop(d->loop, part, &m, unit) : d->loop(part, &m, unit, NULL);
        if (st != 0)
            return st;
        for (int k = d->nin; k < d->nops; k++)
            if (buf[k])
                copy_strided(args[k] + lo * steps[k], steps[k], buf[k], d->esize[k], m, d->esize[k]);
    }
    return 0;
}

static int run_part(void *ctx, int64_t lo, int64_t hi, int64_t slot) {
    (void)slot;
    split *s = ctx;
    char *args[KJ_UFUNC_MAX_OPS];
    npy_intp dims[1 + KJ_UFUNC_MAX_OPS * KJ_UFUNC_MAX_CORE];
    for (int k = 0; k < s->d->nops; k++)
        args[k] = s->args[k] + lo * s->steps[k];
    memcpy(dims + 1, s->dims + 1, sizeof(npy_intp) * (size_t)s->d->ndims);
    dims[0] = hi - lo;
    if (worth_blocks(s->d, dims[0], s->steps))   /* the overlap was ruled out before the split */
        return run_blocked(s->d, args, dims[0], s->steps, false);
    return s->d->loop(args, dims, s->steps, NULL);
}

/* Whether elements of one part of the loop may read what another part
 * writes: NumPy's reduce passes the accumulator as input and output with
 * step 0, accumulate reads the output one element behind. Only an output
 * that is exactly an input (out=x) or touches no input may be split. */
static bool outputs_overlap_inputs(const loop_data *d, char **args, npy_intp n, const npy_intp *steps) {
    const npy_intp slack = 64;   /* covers the last element's bytes (and a gufunc core's start) */
    for (int o = d->nin; o < d->nops; o++) {
        if (steps[o] == 0)
            return true;
        char *olo = args[o] + (steps[o] < 0 ? (n - 1) * steps[o] : 0);
        char *ohi = args[o] + (steps[o] > 0 ? (n - 1) * steps[o] : 0) + slack;
        for (int k = 0; k < d->nops; k++) {
            if (k == o || (args[k] == args[o] && steps[k] == steps[o] && k < d->nin))
                continue;
            char *lo = args[k] + (steps[k] < 0 ? (n - 1) * steps[k] : 0);
            char *hi = args[k] + (steps[k] > 0 ? (n - 1) * steps[k] : 0) + slack;
            if (lo < ohi && olo < hi)
                return true;
        }
    }
    return false;
}

/* NumPy may call this without the GIL: the exception is set after taking it. */
static void ufunc_entry(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
    const loop_data *d = data;
    int st;
    kj_interrupt_flag = 0;   /* a SIGINT from before the call is CPython's to raise, not the loop's */
    bool parts = d->parallel && (dims[0] >= PARALLEL_MIN || d->ndims > 0) && !kj_pool_in_body();
    bool blocks = worth_blocks(d, dims[0], steps);
    if ((parts || blocks) && outputs_overlap_inputs(d, args, dims[0], steps))
        parts = blocks = false;   /* element by element, in order */
    if (parts) {
        split s = {d, args, dims, steps};
        st = kj_pool_run(dims[0], run_part, &s);
    } else if (blocks) {
        st = run_blocked(d, args, dims[0], steps, true);
    } else {
        st = kj_guarded_loop(d->loop, args, dims, steps);
    }
    kj_fmt_forget_kept_if_any();   /* strings a kernel kept cannot leave it: its outputs are numbers */
    if (st == 0)
        return;
    kj_rt_error e = kj_rt_take_error();
    PyGILState_STATE g = PyGILState_Ensure();
    if (!PyErr_Occurred())
        kj_rt_error_to_python(e);
    PyGILState_Release(g);
}

/* ---- the ufunc object and what it keeps alive ---- */

typedef struct {
    PyUFuncGenericFunction *funcs;
    void **data;
    loop_data *loops;
    char *types;
    char *name, *doc, *signature;
    PyObject *specs;   /* owned: the Specializations whose machine code the loops are */
} keep;

static void keep_free(PyObject *capsule) {
    keep *k = PyCapsule_GetPointer(capsule, "kiln.ufunc");
    if (!k)
        return;
    free(k->funcs);
    free(k->data);
    free(k->loops);
    free(k->types);
    free(k->name);
    free(k->doc);
    free(k->signature);
    Py_XDECREF(k->specs);
    free(k);
}

/* _kiln.make_ufunc(name, doc, nin, nout, loops, identity, signature, parallel):
 * loops is a list of (Specialization, (type number per operand)); identity
 * one of NumPy's PyUFunc_Zero / One / None / ReorderableNone codes;
 * signature a gufunc layout string or None; ndims the number of distinct
 * core dimensions in it. */
static PyObject *make_ufunc(PyObject *self, PyObject *a) {
    (void)self;
    const char *name, *doc, *signature = NULL;
    int nin, nout, identity, parallel, ndims;
    PyObject *loops;
    if (!PyArg_ParseTuple(a, "ssiiO!izpi", &name, &doc, &nin, &nout, &PyList_Type, &loops, &identity,
                          &signature, &parallel, &ndims))
        return NULL;
    int nops = nin + nout;
    Py_ssize_t n = PyList_GET_SIZE(loops);
    if (n < 1 || nin < 1 || nout < 1 || nops > KJ_UFUNC_MAX_OPS || ndims < 0 ||
        ndims > KJ_UFUNC_MAX_OPS * KJ_UFUNC_MAX_CORE) {
        PyErr_SetString(PyExc_ValueError, "kiln: a ufunc needs at least one loop, input and output");
        return NULL;
    }
    keep *k = calloc(1, sizeof *k);
    if (!k)
        return PyErr_NoMemory();
    k->funcs = calloc((size_t)n, sizeof *k->funcs);
    k->data = calloc((size_t)n, sizeof *k->data);
    k->loops = calloc((size_t)n, sizeof *k->loops);
    k->types = calloc((size_t)(n * nops), 1);
    k->name = strdup(name);
    k->doc = strdup(doc);
    k->signature = signature ? strdup(signature) : NULL;
    k->specs = PyList_New(0);
    PyObject *capsule = PyCapsule_New(k, "kiln.ufunc", keep_free);
    if (!capsule) {
        free(k);
        return NULL;
    }
    if (!k->funcs || !k->data || !k->loops || !k->types || !k->name || !k->doc || !k->specs ||
        (signature && !k->signature)) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(loops, i), *spec, *typenums;
        if (!PyArg_ParseTuple(item, "O!O!", &kj_spec_type, &spec, &PyTuple_Type, &typenums) ||
            PyTuple_GET_SIZE(typenums) != nops || PyList_Append(k->specs, spec) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "kiln: a loop gives one type per operand");
            Py_DECREF(capsule);
            return NULL;
        }
        for (int j = 0; j < nops; j++)
            k->types[i * nops + j] = (char)PyLong_AsLong(PyTuple_GET_ITEM(typenums, j));
        kj_spec *sp = (kj_spec *)spec;
        k->loops[i] = (loop_data){.loop = (kj_ufunc_loop)(void *)sp->entry, .nin = nin, .nops = nops,
                                  .ndims = ndims, .parallel = parallel,
                                  .blocks = ndims == 0 && sp->ir && strstr(sp->ir, "@_ZGV")};
        for (int j = 0; j < nops && ndims == 0; j++) {
            const kj_type *t = j < nin ? sp->args[j] : sp->ret;
            k->loops[i].esize[j] = t->kind == KJ_T_BOOL ? 1 : t->bits / 8;
        }
        k->funcs[i] = (PyUFuncGenericFunction)ufunc_entry;
        k->data[i] = &k->loops[i];
    }
    if (PyErr_Occurred()) {
        Py_DECREF(capsule);
        return NULL;
    }
    PyObject *uf = PyUFunc_FromFuncAndDataAndSignature(k->funcs, k->data, k->types, (int)n, nin, nout,
                                                       identity, k->name, k->doc, 0, k->signature);
    if (!uf) {
        Py_DECREF(capsule);
        return NULL;
    }
    ((PyUFuncObject *)uf)->obj = capsule;   /* the ufunc owns it now: NumPy decrefs obj on dealloc */
    return uf;
}

static PyMethodDef methods[] = {
    {"make_ufunc", make_ufunc, METH_VARARGS,
     "make_ufunc(name, doc, nin, nout, [(spec, typenums)], identity, signature, parallel, ndims)"},
    {NULL, NULL, 0, NULL},
};

int kj_ufunc_init(PyObject *module) {
    import_umath1(-1);
    return PyModule_AddFunctions(module, methods);
}
