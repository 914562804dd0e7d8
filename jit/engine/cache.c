/* cache: making and loading the object files of cache=True functions.
 * Everything here runs with the GIL held (compiles and loads do). */
#define PY_SSIZE_T_CLEAN
#include "jit/engine/cache.h"
#include "jit/engine/compile.h"
#include "jit/engine/engine.h"
#include "profiler/profiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#define SYMBOL_PREFIX "kiln_obj_"

/* Names of kiln_obj_* symbols already defined in this process's JIT
 * (a set of str; the addresses of builtins never change in a process). */
static PyObject *defined_symbols;

/* {address: name} of the builtin exception classes (new reference). */
static PyObject *builtin_classes(void) {
    PyObject *builtins = PyEval_GetBuiltins(), *table = PyDict_New();   /* builtins: borrowed */
    if (!builtins || !table) {
        Py_XDECREF(table);
        return NULL;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(builtins, &pos, &key, &value)) {
        if (!PyType_Check(value) || !PyType_IsSubtype((PyTypeObject *)value, (PyTypeObject *)PyExc_BaseException))
            continue;
        PyObject *addr = PyLong_FromVoidPtr(value);
        int r = addr ? PyDict_SetItem(table, addr, key) : -1;
        Py_XDECREF(addr);
        if (r < 0) {
            Py_DECREF(table);
            return NULL;
        }
    }
    return table;
}

/* Whether constant c is, or holds, an integer turned into a pointer. */
static bool holds_address(LLVMValueRef c) {
    if (!c || !LLVMIsConstant(c))
        return false;
    if (LLVMIsAConstantExpr(c) && LLVMGetConstOpcode(c) == LLVMIntToPtr)
        return true;
    if (LLVMIsAGlobalValue(c))
        return false;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (holds_address(LLVMGetOperand(c, (unsigned)i)))
            return true;
    return false;
}

/* Replaces `inttoptr (i64 <address of a builtin exception class>)` operands
 * by external globals kiln_obj_<name>, appending the names to `names`.
 * Returns 1 when no other address is left in the module, 0 when one is
 * (the module still works here: the symbols are defined), -1 on error. */
static int relocate(LLVMModuleRef mod, PyObject *classes, PyObject *names) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    int clean = 1;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int n = LLVMGetNumOperands(in);
                for (int k = 0; k < n; k++) {
                    LLVMValueRef op = LLVMGetOperand(in, (unsigned)k);
                    if (!holds_address(op))
                        continue;
                    LLVMValueRef inner = LLVMIsAConstantExpr(op) && LLVMGetConstOpcode(op) == LLVMIntToPtr
                                             ? LLVMGetOperand(op, 0) : NULL;
                    PyObject *name = NULL;
                    if (inner && LLVMIsAConstantInt(inner)) {
                        PyObject *addr = PyLong_FromUnsignedLongLong(LLVMConstIntGetZExtValue(inner));
                        name = addr ? PyDict_GetItemWithError(classes, addr) : NULL;   /* borrowed */
                        Py_XDECREF(addr);
                        if (PyErr_Occurred())
                            return -1;
                    }
                    if (!name) {
                        clean = 0;
                        continue;
                    }
                    char sym[160];
                    snprintf(sym, sizeof sym, SYMBOL_PREFIX "%s", PyUnicode_AsUTF8(name));
                    LLVMValueRef g = LLVMGetNamedGlobal(mod, sym);
                    if (!g) {
                        g = LLVMAddGlobal(mod, LLVMInt8TypeInContext(ctx), sym);
                        LLVMSetLinkage(g, LLVMExternalLinkage);
                        PyObject *s = PyUnicode_FromString(sym);
                        if (!s || PyList_Append(names, s) < 0) {
                            Py_XDECREF(s);
                            return -1;
                        }
                        Py_DECREF(s);
                    }
                    LLVMSetOperand(in, (unsigned)k, g);
                }
            }
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
        if (holds_address(LLVMGetInitializer(g)))
            clean = 0;
    return clean;
}

/* Defines kiln_obj_<name> for each name not defined yet in this process. */
static int define_symbols(kj_unit *u, PyObject *names) {
    if (!defined_symbols && !(defined_symbols = PySet_New(NULL)))
        return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache symbols");
    PyObject *builtins = PyEval_GetBuiltins();
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
        PyObject *sym = PyList_GET_ITEM(names, i);
        int known = PySet_Contains(defined_symbols, sym);
        if (known < 0)
            return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache symbols");
        if (known)
            continue;
        const char *s = PyUnicode_AsUTF8(sym);
        PyObject *cls = s && strncmp(s, SYMBOL_PREFIX, strlen(SYMBOL_PREFIX)) == 0 && builtins
                            ? PyDict_GetItemString(builtins, s + strlen(SYMBOL_PREFIX)) : NULL;
        if (!cls || !PyType_Check(cls))
            return kj_fail(&u->err, KJ_ERR_INTERNAL, 0, 0, NULL, "a cached function needs %s, which this "
                           "Python does not have", s ? s : "?");
        if (kj_engine_define_absolute(u, s, cls) < 0)
            return -1;
        if (PySet_Add(defined_symbols, sym) < 0)
            return kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache symbols");
    }
    return 0;
}

/* Gives every function and global the object file exports a name made of
 * the prefix, the entry <prefix>_entry. */
static void rename_exports(LLVMModuleRef mod, const char *prefix, char *entry_name, size_t size) {
    int n = 0;
    char name[200];
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMLinkage l = LLVMGetLinkage(fn);
        if (LLVMIsDeclaration(fn) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage)
            continue;
        size_t len;
        const char *old = LLVMGetValueName2(fn, &len);
        bool is_entry = strcmp(old, entry_name) == 0;
        if (is_entry)
            snprintf(name, sizeof name, "%s_entry", prefix);
        else
            snprintf(name, sizeof name, "%s_%d", prefix, n++);
        LLVMSetValueName2(fn, name, strlen(name));
        if (is_entry)
            snprintf(entry_name, size, "%s", name);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
        LLVMLinkage l = LLVMGetLinkage(g);
        if (LLVMIsDeclaration(g) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage)
            continue;
        snprintf(name, sizeof name, "%s_g%d", prefix, n++);
        LLVMSetValueName2(g, name, strlen(name));
    }
}

int kj_cache_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size) {
    PyObject *prefix = PyObject_GetAttrString(top->dispatcher, "_kiln_cache_prefix");
    if (!prefix || prefix == Py_None || !PyUnicode_Check(prefix)) {
        Py_XDECREF(prefix);
        PyErr_Clear();
        return 0;
    }
    PyObject *classes = builtin_classes(), *names = PyList_New(0);
    int clean = classes && names ? relocate(u->mod, classes, names) : -1;
    int rc = 0;
    if (clean < 0 || define_symbols(u, names) < 0) {
        if (u->err.kind == KJ_ERR_NONE)
            kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache");
        rc = -1;
    } else if (clean) {
        rename_exports(u->mod, PyUnicode_AsUTF8(prefix), entry_name, size);
        u->cache_object = Py_BuildValue("[OsO]", Py_None, entry_name, names);
        if (!u->cache_object)
            rc = kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache");
    }
    Py_XDECREF(classes);
    Py_XDECREF(names);
    Py_DECREF(prefix);
    return rc;
}

LLVMMemoryBufferRef kj_cache_emit(kj_unit *u, LLVMModuleRef mod) {
    LLVMMemoryBufferRef buf = kj_engine_emit(u, mod);
    if (!buf)
        return NULL;
    PyObject *bytes = PyBytes_FromStringAndSize(LLVMGetBufferStart(buf), (Py_ssize_t)LLVMGetBufferSize(buf));
    if (!bytes || PyList_SetItem(u->cache_object, 0, bytes) < 0) {   /* steals bytes */
        LLVMDisposeMemoryBuffer(buf);
        kj_fail(&u->err, KJ_ERR_PYTHON, 0, 0, NULL, "cache");
        return NULL;
    }
    return buf;
}

/* ---- loading ---- */

static PyObject *fail_load(kj_unit *u) {
    kj_error_set_python(&u->err, NULL);
    return NULL;
}

/* _kiln.load_object(obj, entry, symbols, argspecs, retspec, nogil, ir,
 * remarks, annotations, parallel, signature) -> Specialization: the object
 * file another process made with cache=True, linked into this one. */
static PyObject *load_object(PyObject *self, PyObject *a) {
    (void)self;
    const char *obj, *entry, *ir;
    Py_ssize_t nobj;
    PyObject *symbols, *argspecs, *retspec, *remarks, *annotations, *parallel, *signature;
    int nogil;
    if (!PyArg_ParseTuple(a, "y#sO!O!OpsO!O!O!U", &obj, &nobj, &entry, &PyList_Type, &symbols, &PyTuple_Type,
                          &argspecs, &retspec, &nogil, &ir, &PyList_Type, &remarks, &PyList_Type, &annotations,
                          &PyList_Type, &parallel, &signature))
        return NULL;
    int nargs = (int)PyTuple_GET_SIZE(argspecs);
    const kj_type **args = calloc((size_t)nargs + 1, sizeof *args);
    if (!args)
        return PyErr_NoMemory();
    for (int i = 0; i < nargs; i++)
        if (!(args[i] = kj_type_from_spec(PyTuple_GET_ITEM(argspecs, i)))) {
            free(args);
            return NULL;
        }
    const kj_type *ret = kj_type_from_spec(retspec);
    if (!ret) {
        free(args);
        return NULL;
    }
    uint64_t t0 = kp_now_ns();
    kj_unit u = {.target = kj_target_cpu()};
    void *addr = NULL;
    if (define_symbols(&u, symbols) < 0 ||
        kj_engine_add_object(&u, LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, (size_t)nobj, entry), entry,
                             &addr) < 0) {   /* the buffer is consumed either way */
        free(args);
        return fail_load(&u);
    }
    kj_spec *s = PyObject_New(kj_spec, &kj_spec_type);
    if (!s) {
        free(args);
        return NULL;
    }
    /* every field zero first: fields this file does not know start empty */
    memset((char *)s + sizeof(PyObject), 0, sizeof *s - sizeof(PyObject));
    s->entry = (kj_entry_fn)addr;
    s->nargs = nargs;
    s->args = args;
    s->ret = ret;
    s->nogil = nogil;
    s->ir = strdup(ir);
    Py_INCREF(remarks);
    s->remarks = remarks;
    Py_INCREF(annotations);
    s->annotations = annotations;
    Py_INCREF(parallel);
    s->parallel = parallel;
    Py_INCREF(signature);
    s->signature = signature;
    Py_INCREF(Py_None);
    s->object = Py_None;
    s->keep = PyList_New(0);
    s->stats = Py_BuildValue("{s:d}", "cache_load", (double)(kp_now_ns() - t0) * 1e-9);
    if (!s->ir || !s->keep || !s->stats) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    return (PyObject *)s;
}

/* What machine code depends on besides the source: LLVM's version and the
 * host's triple, CPU and features (part of every cache key). */
static PyObject *cache_target(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    const kj_target *t = kj_target_cpu();
    LLVMTargetMachineRef tm = t->target_machine(t);
    if (!tm)
        return PyErr_Format(PyExc_RuntimeError, "LLVM has no target for this CPU");
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    char *cpu = LLVMGetTargetMachineCPU(tm), *features = LLVMGetTargetMachineFeatureString(tm);
    char *triple = LLVMGetTargetMachineTriple(tm);
    PyObject *r = PyUnicode_FromFormat("llvm %u.%u.%u %s %s %s", major, minor, patch, triple, cpu, features);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    return r;
}

static PyMethodDef methods[] = {
    {"load_object", load_object, METH_VARARGS, "Links a cached object file; returns its Specialization."},
    {"cache_target", cache_target, METH_NOARGS, "LLVM version, triple, CPU and features, for cache keys."},
    {NULL, NULL, 0, NULL},
};

int kj_cache_init(PyObject *module) { return PyModule_AddFunctions(module, methods); }
