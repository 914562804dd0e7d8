/* cache: machine code of cache=True functions as relocatable object files
 * that another process can load instead of compiling (python/kiln/cache.py
 * keys, stores and checks the files; this layer makes and loads the code).
 *
 * An object file must not hold this process's addresses: the exception
 * classes compiled code raises (kj_raise embeds their address) become
 * external symbols kiln_obj_<name>, defined from the builtins module in
 * whichever process loads the file; code pointing at any other Python object
 * is not cached. Its externally visible functions are renamed after the
 * cache key (`prefix`), so entries loaded into one process never clash. */
#ifndef KILN_JIT_CACHE_H
#define KILN_JIT_CACHE_H

#include <llvm-c/Core.h>

#include "jit/core/unit.h"

/* Called by the compile driver after lowering. If top's dispatcher has a
 * _kiln_cache_prefix (set by kiln/cache.py for this compile), rewrites u->mod
 * for caching, renames the entry in entry_name and sets u->cache_object to
 * [None, entry name, [symbol names]] (the engine fills in the bytes). A
 * module that cannot be cached is left alone (u->cache_object stays NULL).
 * Returns 0, or -1 with u->err filled. */
int kj_cache_compile_hook(kj_unit *u, kj_instance *top, char *entry_name, size_t size);

/* Called by the engine for a unit with u->cache_object: the optimized
 * module as an object file (position independent, for the host CPU), its
 * bytes also stored in u->cache_object[0]. NULL with u->err filled. */
LLVMMemoryBufferRef kj_cache_emit(kj_unit *u, LLVMModuleRef mod);

/* Adds load_object and cache_target to the _kiln module. */
int kj_cache_init(PyObject *module);

#endif
