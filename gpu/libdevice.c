/* libdevice.10.bc: where it is, and linking the part of it a kernel needs.
 *
 * Parsing all of libdevice (~500 functions) and linking it whole was most
 * of a math kernel's compile time (bench/MEASURED.md). Now it is parsed fully once
 * per process, only to learn which function calls which; each compile
 * loads it lazily (bodies not read), deletes every function the kernel's
 * calls cannot reach, and links the rest. */
#include "gpu/gpu.h"

#include <libgen.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

static int file_exists(const char *path) {
    return access(path, R_OK) == 0;
}

static char libdevice_file[4096];

static int try_root(const char *root) {
    if (!root || !*root)
        return 0;
    snprintf(libdevice_file, sizeof libdevice_file, "%s/nvvm/libdevice/libdevice.10.bc", root);
    return file_exists(libdevice_file);
}

/* The CUDA root that holds the nvcc found on PATH (…/bin/nvcc -> …). */
static int try_nvcc_on_path(void) {
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char nvcc[4096], real[4096];
        snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir);
        if (!file_exists(nvcc) || !realpath(nvcc, real))
            continue;
        found = try_root(dirname(dirname(real)));
    }
    free(copy);
    return found;
}

const char *kg_libdevice_path(void) {
    const char *explicit = getenv("KILN_LIBDEVICE");
    if (explicit && file_exists(explicit))
        return explicit;
    if (try_root(getenv("CUDA_HOME")) || try_root(getenv("CUDA_PATH")) ||
        try_root("/usr/local/cuda") || try_nvcc_on_path())
        return libdevice_file;
    return NULL;
}

/* The call graph of libdevice and its bytes. The mutex guards this state:
 * compiles may run without the GIL. */
static pthread_mutex_t libdevice_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int loaded;
    char *bytes;          /* the file */
    size_t size;
    size_t n;             /* defined functions */
    char **names;         /* sorted, for bsearch */
    size_t **callees;     /* per function: indices into names, ending with SIZE_MAX */
} libdevice;

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t function_index(const char *name) {
    char **hit = bsearch(&name, libdevice.names, libdevice.n, sizeof *libdevice.names, compare_names);
    return hit ? (size_t)(hit - libdevice.names) : SIZE_MAX;
}

/* The defined functions fn calls or takes the address of. */
static size_t *callees_of(LLVMValueRef fn) {
    size_t cap = 8, n = 0;
    size_t *out = malloc(cap * sizeof *out);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); out && bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); out && in; in = LLVMGetNextInstruction(in))
            for (int k = 0, ops = LLVMGetNumOperands(in); k < ops; k++) {
                LLVMValueRef op = LLVMGetOperand(in, (unsigned)k);
                if (!op || !LLVMIsAFunction(op) || LLVMIsDeclaration(op))
                    continue;
                size_t len, index = function_index(LLVMGetValueName2(op, &len));
                if (index == SIZE_MAX)
                    continue;
                if (n + 2 > cap) {
                    size_t *grown = realloc(out, (cap *= 2) * sizeof *out);
                    if (!grown) {
                        free(out);
                        return NULL;
                    }
                    out = grown;
                }
                out[n++] = index;
            }
    if (out)
        out[n] = SIZE_MAX;
    return out;
}

static int load_libdevice(kg_error *err) {
    if (libdevice.loaded)
        return 0;
    const char *path = kg_libdevice_path();
    if (!path)
        return kg_error_set(err, KG_ERR_LIBDEVICE, 0,
                            "this GPU kernel calls math functions, which come from CUDA's "
                            "libdevice.10.bc, and none was found: set CUDA_HOME to a CUDA toolkit "
                            "(looked in $KILN_LIBDEVICE, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda "
                            "and next to nvcc on PATH)");
    LLVMMemoryBufferRef buffer;
    char *message = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &message)) {
        kg_error_set(err, KG_ERR_LIBDEVICE, 0, "cannot read %s: %s", path, message);
        LLVMDisposeMessage(message);
        return -1;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef lib;
    int status = LLVMParseBitcodeInContext2(ctx, buffer, &lib)
                     ? kg_error_set(err, KG_ERR_LIBDEVICE, 0, "%s is not valid LLVM bitcode", path) : 0;
    if (status == 0) {
        libdevice.size = LLVMGetBufferSize(buffer);
        libdevice.bytes = malloc(libdevice.size);
        size_t n = 0;
        for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn))
            n += !LLVMIsDeclaration(fn);
        libdevice.names = calloc(n ? n : 1, sizeof *libdevice.names);
        libdevice.callees = calloc(n ? n : 1, sizeof *libdevice.callees);
        if (libdevice.bytes && libdevice.names && libdevice.callees) {
            memcpy(libdevice.bytes, LLVMGetBufferStart(buffer), libdevice.size);
            for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn)) {
                size_t len;
                if (!LLVMIsDeclaration(fn))
                    libdevice.names[libdevice.n++] = strdup(LLVMGetValueName2(fn, &len));
            }
            qsort(libdevice.names, libdevice.n, sizeof *libdevice.names, compare_names);
            for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn)) {
                size_t len;
                if (!LLVMIsDeclaration(fn))
                    libdevice.callees[function_index(LLVMGetValueName2(fn, &len))] = callees_of(fn);
            }
            libdevice.loaded = 1;
        } else {
            status = kg_error_set(err, KG_ERR_LIBDEVICE, 0, "out of memory reading %s", path);
        }
        LLVMDisposeModule(lib);
    }
    LLVMDisposeMemoryBuffer(buffer);
    LLVMContextDispose(ctx);
    return status;
}

/* Marks in `keep` the functions reachable from those the module declares. */
static int reachable(LLVMModuleRef module, char *keep, kg_error *err) {
    size_t *stack = malloc((libdevice.n + 1) * sizeof *stack), top = 0;
    if (!stack)
        return kg_error_set(err, KG_ERR_LLVM, 0, "out of memory");
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (!LLVMIsDeclaration(fn) || len <= 5 || strncmp(name, "__nv_", 5) != 0)
            continue;
        size_t index = function_index(name);
        if (index == SIZE_MAX) {
            free(stack);
            return kg_error_set(err, KG_ERR_LIBDEVICE, 0, "libdevice has no function %s: the kernel "
                                "calls a math function the GPU does not provide", name);
        }
        if (!keep[index])
            keep[index] = 1, stack[top++] = index;
    }
    while (top) {
        const size_t *callee = libdevice.callees[stack[--top]];
        for (; callee && *callee != SIZE_MAX; callee++)
            if (!keep[*callee])
                keep[*callee] = 1, stack[top++] = *callee;
    }
    free(stack);
    return 0;
}

/* libdevice, lazily loaded into the module's context, less what it does
 * not reach. Caller holds libdevice_lock. */
static LLVMModuleRef needed_part(LLVMModuleRef module, kg_error *err) {
    if (load_libdevice(err) < 0)
        return NULL;
    char *keep = calloc(libdevice.n + 1, 1);
    if (!keep) {
        kg_error_set(err, KG_ERR_LLVM, 0, "out of memory");
        return NULL;
    }
    LLVMModuleRef lib = NULL;
    if (reachable(module, keep, err) == 0) {
        LLVMMemoryBufferRef copy = LLVMCreateMemoryBufferWithMemoryRangeCopy(libdevice.bytes, libdevice.size,
                                                                             "libdevice.10.bc");
        if (LLVMGetBitcodeModuleInContext2(LLVMGetModuleContext(module), copy, &lib)) { /* takes copy */
            lib = NULL;
            kg_error_set(err, KG_ERR_LIBDEVICE, 0, "libdevice did not load lazily");
        }
    }
    for (LLVMValueRef fn = lib ? LLVMGetFirstFunction(lib) : NULL, next; fn; fn = next) {
        next = LLVMGetNextFunction(fn);
        size_t len, index = function_index(LLVMGetValueName2(fn, &len));
        /* Nothing kept refers to a dropped function, and unread bodies
         * refer to nothing: deleting them is safe. */
        if (index != SIZE_MAX && !keep[index])
            LLVMDeleteFunction(fn);
    }
    free(keep);
    return lib;
}

int kg_libdevice_link(LLVMModuleRef module, kg_error *err) {
    pthread_mutex_lock(&libdevice_lock);
    LLVMModuleRef lib = needed_part(module, err);
    pthread_mutex_unlock(&libdevice_lock);
    if (!lib)
        return -1;
    /* libdevice says nvptx64-nvidia-gpulibs; match it to avoid the linker's
     * mismatch warning on stderr. */
    LLVMSetTarget(lib, LLVMGetTarget(module));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(module));
    if (LLVMLinkModules2(module, lib)) /* destroys lib either way */
        return kg_error_set(err, KG_ERR_LLVM, 0, "linking libdevice into the kernel module failed");
    return 0;
}

