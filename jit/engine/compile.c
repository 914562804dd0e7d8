/* compile: runs the phases for one dispatcher and signature, times them,
 * and wraps the result as a Specialization. */
#define PY_SSIZE_T_CLEAN
#include "jit/engine/compile.h"
#include "jit/engine/engine.h"
#include "jit/frontend/frontend.h"
#include "jit/lower/lower.h"
#include "jit/engine/cache.h"
#include "profiler/profiler.h"

#include <stdio.h>
#include <string.h>
#include <structmember.h>

/* ---- annotations: the types of the locals each line mentions ---- */

static int note_node(PyObject *lines, kj_function *f, kj_node *n);

static int note_block(PyObject *lines, kj_function *f, kj_block *b) {
    for (int i = 0; i < b->n; i++)
        if (note_node(lines, f, b->items[i]) < 0)
            return -1;
    return 0;
}

static int note_node(PyObject *lines, kj_function *f, kj_node *n) {
    if (!n)
        return 0;
    if (n->kind == KJ_E_LOCAL && f->locals[n->slot].type) {
        PyObject *key = PyLong_FromLong(n->line);
        if (!key)
            return -1;
        PyObject *d = PyDict_GetItemWithError(lines, key);
        if (!d) {
            if (PyErr_Occurred() || !(d = PyDict_New()) || PyDict_SetItem(lines, key, d) < 0) {
                Py_XDECREF(d);
                Py_DECREF(key);
                return -1;
            }
            Py_DECREF(d);
        }
        Py_DECREF(key);
        PyObject *tn = PyUnicode_FromString(f->locals[n->slot].type->name);
        int r = tn ? PyDict_SetItemString(d, f->locals[n->slot].name, tn) : -1;
        Py_XDECREF(tn);
        if (r < 0)
            return -1;
    }
    for (int i = 0; i < n->nkids; i++)
        if (note_node(lines, f, n->kids[i]) < 0)
            return -1;
    if (note_block(lines, f, &n->body) < 0 || note_block(lines, f, &n->orelse) < 0)
        return -1;
    return 0;
}

static int max_line(kj_block *b, int m);
static int max_line_node(kj_node *n, int m) {
    if (!n)
        return m;
    if (n->line > m)
        m = n->line;
    for (int i = 0; i < n->nkids; i++)
        m = max_line_node(n->kids[i], m);
    return max_line(&n->orelse, max_line(&n->body, m));
}
static int max_line(kj_block *b, int m) {
    for (int i = 0; i < b->n; i++)
        m = max_line_node(b->items[i], m);
    return m;
}

static PyObject *annotations(kj_function *f) {
    PyObject *lines = PyDict_New(), *out = PyList_New(0);
    if (!lines || !out || note_block(lines, f, &f->body) < 0)
        goto fail;
    {
        /* the parameters on the def line */
        PyObject *d = PyDict_New();
        if (!d)
            goto fail;
        for (int i = 0; i < f->nargs; i++) {
            PyObject *tn = PyUnicode_FromString(f->locals[i].type ? f->locals[i].type->name : "?");
            if (!tn || PyDict_SetItemString(d, f->locals[i].name, tn) < 0) {
                Py_XDECREF(tn);
                Py_DECREF(d);
                goto fail;
            }
            Py_DECREF(tn);
        }
        int def_line = f->first_line;
        for (int l = f->first_line; l <= PyList_GET_SIZE(f->source_lines); l++) {
            const char *s = PyUnicode_AsUTF8(PyList_GET_ITEM(f->source_lines, l - 1));
            while (s && (*s == ' ' || *s == '\t'))
                s++;
            if (s && strncmp(s, "def ", 4) == 0) {
                def_line = l;
                break;
            }
        }
        PyObject *key = PyLong_FromLong(def_line);
        int r = key ? PyDict_SetItem(lines, key, d) : -1;
        Py_XDECREF(key);
        Py_DECREF(d);
        if (r < 0)
            goto fail;
    }
    int last = max_line(&f->body, f->first_line);
    for (int l = f->first_line; l <= last && l <= PyList_GET_SIZE(f->source_lines); l++) {
        PyObject *key = PyLong_FromLong(l);
        PyObject *d = key ? PyDict_GetItemWithError(lines, key) : NULL;
        Py_XDECREF(key);
        if (PyErr_Occurred())
            goto fail;
        PyObject *src = PyList_GET_ITEM(f->source_lines, l - 1);
        PyObject *stripped = PyObject_CallMethod(src, "rstrip", "s", "\r\n");
        PyObject *item = stripped ? Py_BuildValue("(iNO)", l, stripped, d ? d : Py_None) : NULL;
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            goto fail;
        }
        Py_DECREF(item);
    }
    Py_DECREF(lines);
    return out;
fail:
    Py_XDECREF(lines);
    Py_XDECREF(out);
    return NULL;
}

/* ---- the Specialization type ---- */

static void spec_dealloc(kj_spec *s) {
    free(s->args);
    free(s->ir);
    free(s->asm_text);
    Py_XDECREF(s->remarks);
    Py_XDECREF(s->stats);
    Py_XDECREF(s->annotations);
    Py_XDECREF(s->signature);
    Py_XDECREF(s->keep);
    Py_XDECREF(s->parallel);
    Py_XDECREF(s->object);
    kp_calls_release(s->calls);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *spec_get_argtypes(kj_spec *s, void *closure) {
    (void)closure;
    PyObject *t = PyTuple_New(s->nargs);
    for (int i = 0; t && i < s->nargs; i++) {
        PyObject *x = kj_type_to_spec(s->args[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *spec_get_restype(kj_spec *s, void *closure) {
    (void)closure;
    return kj_type_to_spec(s->ret);
}

static PyObject *spec_get_llvm(kj_spec *s, void *closure) {
    (void)closure;
    return PyUnicode_FromString(s->ir ? s->ir : "");
}

static PyObject *spec_get_asm(kj_spec *s, void *closure) {
    (void)closure;
    if (!s->asm_text && !(s->asm_text = kj_engine_asm(s->ir ? s->ir : "")))
        return NULL;
    return PyUnicode_FromString(s->asm_text);
}

static PyObject *spec_get_address(kj_spec *s, void *closure) {
    (void)closure;
    return PyLong_FromVoidPtr((void *)s->entry);
}

static PyGetSetDef spec_getset[] = {
    {"argtypes", (getter)spec_get_argtypes, NULL, "argument type specs", NULL},
    {"restype", (getter)spec_get_restype, NULL, "return type spec", NULL},
    {"address", (getter)spec_get_address, NULL, "the entry's address (a kiln.cfunc's C function)", NULL},
    {"llvm", (getter)spec_get_llvm, NULL, "optimized LLVM IR", NULL},
    {"asm", (getter)spec_get_asm, NULL, "host assembly", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef spec_members[] = {
    {"remarks", T_OBJECT, offsetof(kj_spec, remarks), READONLY, "loop-vectorize remarks"},
    {"stats", T_OBJECT, offsetof(kj_spec, stats), READONLY, "seconds per compile phase"},
    {"annotations", T_OBJECT, offsetof(kj_spec, annotations), READONLY, "types per line"},
    {"signature", T_OBJECT, offsetof(kj_spec, signature), READONLY, "the signature as text"},
    {"parallel", T_OBJECT, offsetof(kj_spec, parallel), READONLY, "prange loop records (parallel_lower.c)"},
    {"object", T_OBJECT, offsetof(kj_spec, object), READONLY, "cache=True: [object bytes, entry, symbols] or None"},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject kj_spec_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_kiln.Specialization",
    .tp_basicsize = sizeof(kj_spec),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Machine code for one function and one signature.",
    .tp_dealloc = (destructor)spec_dealloc,
    .tp_getset = spec_getset,
    .tp_members = spec_members,
};

/* ---- the driver ---- */

/* What may make a compiled function's entry something else (a ufunc loop,
 * a C function: dispatch/ registers them at import), each asked in turn. */
#define KJ_ENTRY_HOOKS_MAX 4
static kj_entry_hook entry_hooks[KJ_ENTRY_HOOKS_MAX];
static int n_entry_hooks;

void kj_unit_free(kj_unit *u) {
    kj_instance *in = u->instances;
    while (in) {
        kj_instance *next = in->next;
        kj_function_free(in->f);
        free(in->args);
        free(in);
        in = next;
    }
    u->instances = NULL;
    Py_CLEAR(u->parallel_report);
    Py_CLEAR(u->cache_object);
    Py_CLEAR(u->loop_remarks);
    kj_function_free(u->orphan);
    u->orphan = NULL;
}

PyObject *kj_unit_fail(kj_unit *u) {
    kj_error_set_python(&u->err, u->err_function);
    kj_unit_free(u);
    return NULL;
}

static PyObject *signature_text(int n, const kj_type *const *args) {
    char buf[1024];
    size_t used = snprintf(buf, sizeof buf, "(");
    for (int i = 0; i < n && used < sizeof buf; i++)
        used += snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", args[i]->name);
    if (used < sizeof buf)
        snprintf(buf + used, sizeof buf - used, ")");
    return PyUnicode_FromString(buf);
}

/* A function with *args compiles with its trailing arguments as one tuple
 * (the entry packs them, lower.c): fills packed with the instance's types
 * from the n types a call passes and returns how many, or -1 with a Python
 * exception set. */
static int pack_varargs(PyObject *dispatcher, int n, const kj_type *const *flat, const kj_type **packed) {
    memcpy(packed, flat, sizeof(kj_type *) * (size_t)n);
    PyObject *fn = PyObject_GetAttrString(dispatcher, "py_func");
    if (!fn)
        return -1;
    int r = n;
    if (PyFunction_Check(fn) && (((PyCodeObject *)PyFunction_GET_CODE(fn))->co_flags & CO_VARARGS)) {
        int k = ((PyCodeObject *)PyFunction_GET_CODE(fn))->co_argcount;
        if (n < k) {
            PyErr_Format(PyExc_TypeError, "%S() takes at least %d positional argument(s) but %d were given",
                         ((PyFunctionObject *)fn)->func_qualname, k, n);
            r = -1;
        } else if (!(packed[k] = kj_tuple(n - k, flat + k))) {
            PyErr_Format(PyExc_TypeError, "%S(): too many arguments for *args (%d)",
                         ((PyFunctionObject *)fn)->func_qualname, n - k);
            r = -1;
        } else {
            r = k + 1;
        }
    }
    Py_DECREF(fn);
    return r;
}

/* The types a call from Python passes, one per argument, from those of
 * instance `in` (whose *args parameter holds a tuple). */
static void flatten_args(const kj_instance *in, const kj_type **out) {
    for (int i = 0, k = 0; i < in->f->nargs; i++) {
        if (in->f->vararg != i + 1) {
            out[k++] = in->args[i];
            continue;
        }
        for (int j = 0; j < in->args[i]->n; j++)
            out[k++] = in->args[i]->elems[j];
    }
}

kj_instance *kj_compile_front(kj_unit *u, PyObject *dispatcher, int nargs, const kj_type *const *args,
                              const kj_type *ret, bool exact, uint64_t *phase) {
    uint64_t t0 = kp_now_ns();
    if (exact)
        u->exact_dispatcher = dispatcher;
    kj_instance *top = kj_unit_instance(u, dispatcher, nargs, args);
    u->exact_dispatcher = NULL;   /* a call of itself in its body finds the declared signatures again */
    if (!top)
        return NULL;
    if (ret) {
        top->ret = ret;
        top->ret_declared = true;
    }
    phase[KP_PHASE_PARSE] = kp_now_ns() - t0;
    t0 = kp_now_ns();
    if (kj_infer(u, top) < 0)
        return NULL;
    /* callees were parsed during inference: their parse counts in typing */
    phase[KP_PHASE_TYPING] = kp_now_ns() - t0;
    return top;
}

int kj_compile_module(kj_unit *u, kj_instance *top, LLVMContextRef ctx, LLVMDWARFEmissionKind emission,
                      uint64_t *phase) {
    uint64_t t0 = kp_now_ns();
    u->ctx = ctx;
    u->mod = LLVMModuleCreateWithNameInContext(top->symbol, ctx);
    LLVMSetTarget(u->mod, u->target->triple(u->target));
    LLVMSetDataLayout(u->mod, u->target->data_layout(u->target));
    u->di = LLVMCreateDIBuilder(u->mod);
    const char *fname = top->f->filename;
    u->di_file = LLVMDIBuilderCreateFile(u->di, fname, strlen(fname), "", 0);
    u->di_cu = LLVMDIBuilderCreateCompileUnit(u->di, LLVMDWARFSourceLanguagePython, u->di_file, "kiln", 4, 1, "", 0,
                                              0, "", 0, emission, 0, 0, 0, "", 0, "", 0);
    LLVMAddModuleFlag(u->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 3, 0)));
    int lowered = kj_lower_unit(u);
    LLVMDIBuilderFinalize(u->di);
    LLVMDisposeDIBuilder(u->di);
    u->di = NULL;
    phase[KP_PHASE_LOWERING] = kp_now_ns() - t0;
    return lowered;
}

void kj_compile_record(const kj_unit *u, const kj_instance *top, const char *signature, const uint64_t *phase) {
    kp_compile_record rec = {.function = top->f->qualname, .signature = signature, .target = u->target->name};
    memcpy(rec.phase_ns, phase, sizeof rec.phase_ns);
    kp_record_compile(&rec);
}

PyObject *kj_phase_stats(const uint64_t *phase) {
    static const char *const names[KP_PHASE_COUNT] = {"parse", "typing", "lowering", "optimize", "codegen"};
    PyObject *stats = PyDict_New();
    for (int i = 0; stats && i < KP_PHASE_COUNT; i++) {
        PyObject *v = PyFloat_FromDouble((double)phase[i] * 1e-9);
        if (!v || PyDict_SetItemString(stats, names[i], v) < 0)
            Py_CLEAR(stats);
        Py_XDECREF(v);
    }
    return stats;
}

PyObject *kj_compile_py(PyObject *self, PyObject *pyargs) {
    (void)self;
    PyObject *dispatcher, *argspecs, *retspec;
    if (!PyArg_ParseTuple(pyargs, "OO!O", &dispatcher, &PyTuple_Type, &argspecs, &retspec))
        return NULL;
    int nargs = (int)PyTuple_GET_SIZE(argspecs);
    const kj_type *args[nargs > 0 ? nargs : 1];
    for (int i = 0; i < nargs; i++)
        if (!(args[i] = kj_type_from_spec(PyTuple_GET_ITEM(argspecs, i))))
            return NULL;
    const kj_type *ret = retspec == Py_None ? NULL : kj_type_from_spec(retspec);
    if (retspec != Py_None && !ret)
        return NULL;
    uint64_t phase[KP_PHASE_COUNT] = {0};
    kj_unit u = {.target = kj_target_cpu()};
    const kj_type *packed[nargs + 1];
    int npacked = pack_varargs(dispatcher, nargs, args, packed);
    if (npacked < 0)
        return NULL;
    /* the explicit signature of this compile wins over the declared ones */
    kj_instance *top = kj_compile_front(&u, dispatcher, npacked, packed, ret, true, phase);
    if (!top)
        return kj_unit_fail(&u);
    /* LLVM from here on: the front end and inference above ran while the
     * warm-up thread (engine.c) may still have been setting LLVM up */
    kj_llvm_init();
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    if (kj_compile_module(&u, top, LLVMOrcThreadSafeContextGetContext(tsc), LLVMDWARFEmissionLineTablesOnly,
                          phase) < 0) {
        LLVMDisposeModule(u.mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return kj_unit_fail(&u);
    }
    char entry_name[160];
    snprintf(entry_name, sizeof entry_name, "%s_entry", top->symbol);
    int failed = 0;
    for (int i = 0; !failed && i < n_entry_hooks; i++)
        failed = entry_hooks[i](&u, top, entry_name, sizeof entry_name) < 0;
    if (failed || kj_cache_compile_hook(&u, top, entry_name, sizeof entry_name) < 0) {   /* cache=True (cache.c) */
        LLVMDisposeModule(u.mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return kj_unit_fail(&u);
    }
    kj_engine_out out;
    u.err_function = top->f;
    if (kj_engine_finish(&u, tsc, entry_name, &out) < 0)
        return kj_unit_fail(&u);
    phase[KP_PHASE_OPTIMIZE] = out.optimize_ns;
    phase[KP_PHASE_CODEGEN] = out.codegen_ns;

    kj_spec *s = PyObject_New(kj_spec, &kj_spec_type);
    if (!s) {
        free(out.ir);
        Py_XDECREF(out.remarks);
        kj_unit_free(&u);
        return NULL;
    }
    s->laid_out = false;
    s->calls = NULL;
    s->entry = (kj_entry_fn)out.entry;
    s->nargs = nargs;
    s->args = calloc((size_t)nargs + 1, sizeof(kj_type *));
    if (s->args)
        flatten_args(top, s->args);
    s->ret = top->ret;
    s->nogil = top->opts.nogil;
    s->ir = out.ir;
    s->asm_text = NULL;
    s->remarks = out.remarks;
    s->annotations = annotations(top->f);
    s->signature = s->args ? signature_text(nargs, s->args) : NULL;
    s->keep = PyList_New(0);
    s->parallel = u.parallel_report ? u.parallel_report : PyList_New(0);   /* takes the unit's reference */
    u.parallel_report = NULL;
    s->object = u.cache_object ? u.cache_object : Py_NewRef(Py_None);   /* takes the unit's reference */
    u.cache_object = NULL;
    for (kj_instance *in = u.instances; in && s->keep; in = in->next)
        if (in->f && in->f->keep && PyList_Append(s->keep, in->f->keep) < 0)
            break;
    s->stats = kj_phase_stats(phase);
    if (!s->annotations || !s->signature || !s->keep || !s->parallel || !s->stats || !s->args) {
        Py_DECREF(s);
        kj_unit_free(&u);
        return NULL;
    }
    kj_compile_record(&u, top, PyUnicode_AsUTF8(s->signature), phase);
    kj_unit_free(&u);
    return (PyObject *)s;
}

void kj_compile_add_entry_hook(kj_entry_hook hook) {
    if (n_entry_hooks < KJ_ENTRY_HOOKS_MAX)
        entry_hooks[n_entry_hooks++] = hook;
}

int kj_compile_init(PyObject *module) {
    if (PyType_Ready(&kj_spec_type) < 0)
        return -1;
    Py_INCREF(&kj_spec_type);
    if (PyModule_AddObject(module, "Specialization", (PyObject *)&kj_spec_type) < 0) {
        Py_DECREF(&kj_spec_type);
        return -1;
    }
    return 0;
}
