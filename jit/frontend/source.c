/* source: where a compiled function's text comes from. linecache has the
 * lines of files and of IPython cells alike; the whole text is parsed, as
 * CPython parsed it, and the definition is the one that starts at the code
 * object's first line. Only a text that no longer parses whole has the
 * function's block cut from it by indentation instead. */
#define PY_SSIZE_T_CLEAN
#include "jit/frontend/source.h"

#include <string.h>

static bool is(PyObject *node, const char *kind) { return strcmp(Py_TYPE(node)->tp_name, kind) == 0; }


static int indent_of(const char *s) {
    int n = 0;
    while (s[n] == ' ' || s[n] == '\t')
        n++;
    return n;
}

/* The function's block of lines (from its first decorator to its last
 * indented line), dedented, as one string; sets the offsets. */
static PyObject *source_block(kj_function *f, bool is_lambda, int *line_offset, int *col_offset) {
    Py_ssize_t total = PyList_GET_SIZE(f->source_lines);
    if (f->first_line < 1 || f->first_line > total)
        return NULL;
    const char *first = PyUnicode_AsUTF8(PyList_GET_ITEM(f->source_lines, f->first_line - 1));
    if (!first)
        return NULL;
    int base = indent_of(first);
    PyObject *parts = PyList_New(0);
    if (!parts)
        return NULL;
    bool in_body = false;
    /* a lambda is one line: its block ends there */
    if (is_lambda)
        total = f->first_line;
    for (Py_ssize_t i = f->first_line - 1; i < total; i++) {
        const char *s = PyUnicode_AsUTF8(PyList_GET_ITEM(f->source_lines, i));
        if (!s)
            break;
        int ind = indent_of(s);
        bool blank = s[ind] == 0 || s[ind] == '\n' || s[ind] == '\r' || s[ind] == '#';
        if (!blank && ind <= base) {
            if (in_body)
                break;
            if (strncmp(s + ind, "def ", 4) == 0)
                in_body = true;
        }
        PyObject *line = PyUnicode_FromString(blank ? "\n" : s + (ind < base ? ind : base));
        if (!line || PyList_Append(parts, line) < 0) {
            Py_XDECREF(line);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(line);
    }
    *line_offset = f->first_line - 1;
    *col_offset = base;
    PyObject *empty = PyUnicode_FromString("");
    PyObject *joined = empty ? PyUnicode_Join(empty, parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(parts);
    return joined;
}

/* ast.walk(tree): an iterator over its nodes, or NULL. */
static PyObject *walk_nodes(PyObject *tree) {
    static PyObject *walk;   /* ast.walk, owned for the process */
    if (!walk) {
        PyObject *ast = PyImport_ImportModule("ast");
        walk = ast ? PyObject_GetAttrString(ast, "walk") : NULL;
        Py_XDECREF(ast);
    }
    return walk ? PyObject_CallOneArg(walk, tree) : NULL;
}

/* The first lambda in a parsed line (borrowed from mod's tree, or NULL). */
static PyObject *find_lambda(PyObject *mod) {
    PyObject *it = walk_nodes(mod), *found = NULL, *node;
    while (it && (node = PyIter_Next(it))) {
        bool hit = is(node, "Lambda");
        Py_DECREF(node);   /* the tree (mod) keeps the node alive */
        if (hit) {
            found = node;
            break;
        }
    }
    Py_XDECREF(it);
    PyErr_Clear();
    return found;
}

static PyObject *parse(const char *text, const char *filename) {
    return Py_CompileStringExFlags(text, filename, Py_file_input,
                                   &(PyCompilerFlags){.cf_flags = PyCF_ONLY_AST,
                                                      /* 0 would mean Python 3.0: no f-strings */
                                                      .cf_feature_version = PY_MINOR_VERSION},
                                   -1);
}

static long lineno(PyObject *node) {
    PyObject *v = PyObject_GetAttrString(node, "lineno");
    long n = v ? PyLong_AsLong(v) : -1;
    Py_XDECREF(v);
    return n;
}

/* Where each definition of a parsed text starts: {line: FunctionDef} (its
 * first decorator's line, as co_firstlineno says) and {-line: the first
 * Lambda of that line}, as the tree is walked. */
static PyObject *index_definitions(PyObject *mod) {
    PyObject *index = PyDict_New(), *it = index ? walk_nodes(mod) : NULL, *node;
    bool ok = it != NULL;
    while (ok && (node = PyIter_Next(it))) {
        long line = 0;   /* 0: no definition (lines count from 1) */
        if (is(node, "FunctionDef") || is(node, "AsyncFunctionDef")) {
            PyObject *decorators = PyObject_GetAttrString(node, "decorator_list");
            line = decorators && PyList_Check(decorators) && PyList_GET_SIZE(decorators) > 0
                       ? lineno(PyList_GET_ITEM(decorators, 0))
                       : lineno(node);
            Py_XDECREF(decorators);
        } else if (is(node, "Lambda")) {
            line = -lineno(node);
        }
        PyObject *key = line != 0 ? PyLong_FromLong(line) : NULL;
        if (key)
            ok = (PyDict_Contains(index, key) || PyDict_SetItem(index, key, node) == 0) && !PyErr_Occurred();
        Py_XDECREF(key);
        Py_DECREF(node);
    }
    Py_XDECREF(it);
    if (!ok || PyErr_Occurred())
        Py_CLEAR(index);
    return index;
}

/* The index of the whole text of f's lines, kept for the last text asked
 * about: a module's functions compile one after another from one list of
 * lines (linecache keeps one while the file is unchanged). */
static PyObject *definitions_of(kj_function *f) {
    static PyObject *last_lines, *last_index;
    if (f->source_lines == last_lines)
        return Py_NewRef(last_index);
    PyObject *empty = PyUnicode_FromString("");
    PyObject *text = empty ? PyUnicode_Join(empty, f->source_lines) : NULL;
    Py_XDECREF(empty);
    const char *utf8 = text ? PyUnicode_AsUTF8(text) : NULL;
    PyObject *mod = utf8 ? parse(utf8, f->filename) : NULL;
    PyObject *index = mod ? index_definitions(mod) : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(text);
    if (!index)
        return NULL;
    Py_XSETREF(last_lines, Py_NewRef(f->source_lines));
    Py_XSETREF(last_index, Py_NewRef(index));
    return index;
}

int kj_source_def(kj_function *f, bool is_lambda, int *line_offset, int *col_offset, PyObject **def) {
    *def = NULL;
    *line_offset = *col_offset = 0;
    PyObject *index = definitions_of(f);
    if (index) {
        PyObject *key = PyLong_FromLong(is_lambda ? -(long)f->first_line : f->first_line);
        *def = key ? Py_XNewRef(PyDict_GetItemWithError(index, key)) : NULL;
        Py_XDECREF(key);
        Py_DECREF(index);
        return PyErr_Occurred() ? -1 : 0;
    }
    PyErr_Clear();   /* the text does not parse whole: the function's own block may */
    PyObject *src = source_block(f, is_lambda, line_offset, col_offset);
    PyObject *mod = src ? parse(PyUnicode_AsUTF8(src), f->filename) : NULL, *body = NULL;
    if (mod && is_lambda)
        *def = Py_XNewRef(find_lambda(mod));
    else if (mod && (body = PyObject_GetAttrString(mod, "body")) && PyList_GET_SIZE(body) > 0)
        *def = Py_NewRef(PyList_GET_ITEM(body, 0));
    Py_XDECREF(body);
    Py_XDECREF(mod);
    Py_XDECREF(src);
    return *def ? 0 : -1;
}

int kj_load_source(kj_function *f, PyObject *code) {
    static PyObject *getlines;   /* linecache.getlines, owned for the process */
    if (!getlines) {
        PyObject *lc = PyImport_ImportModule("linecache");
        getlines = lc ? PyObject_GetAttrString(lc, "getlines") : NULL;
        Py_XDECREF(lc);
        if (!getlines)
            return -1;
    }
    PyObject *fn = PyObject_GetAttrString(code, "co_filename");
    PyObject *first = PyObject_GetAttrString(code, "co_firstlineno");
    PyObject *globals = PyFunction_GetGlobals(f->py_func);
    int r = -1;
    if (fn && first) {
        f->filename = strdup(PyUnicode_AsUTF8(fn));
        f->first_line = (int)PyLong_AsLong(first);
        f->source_lines = PyObject_CallFunctionObjArgs(getlines, fn, globals, NULL);
        r = f->source_lines && PyList_Check(f->source_lines) && f->filename ? 0 : -1;
    }
    Py_XDECREF(fn);
    Py_XDECREF(first);
    return r;
}

/* {name: value} of the function's free variables (read at compile time,
 * like globals), or NULL when it has none. */
int kj_closure_values(PyObject *py_func, PyObject *code, PyObject **out) {
    *out = NULL;
    PyObject *cells = PyFunction_GetClosure(py_func);
    if (!cells || cells == Py_None)
        return 0;
    PyObject *names = PyObject_GetAttrString(code, "co_freevars");
    if (!names)
        return -1;
    PyObject *d = PyDict_New();
    for (Py_ssize_t i = 0; d && i < PyTuple_GET_SIZE(names) && i < PyTuple_GET_SIZE(cells); i++) {
        PyObject *v = PyCell_GET(PyTuple_GET_ITEM(cells, i));
        if (v && PyDict_SetItem(d, PyTuple_GET_ITEM(names, i), v) < 0)
            Py_CLEAR(d);
    }
    Py_DECREF(names);
    *out = d;
    return d ? 0 : -1;
}

