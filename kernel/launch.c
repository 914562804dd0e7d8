/* `kiln-kernel -f FILE` and `--sysinfo` go on in Debian's /usr/bin/python3, which loads the kernel
 * as the extension module _kiln_kernel (kernel/serve.c), instead of in an interpreter linked into
 * this executable. Debian builds /usr/bin/python3 with link-time optimization across CPython's
 * files; the libpython3.11 it ships for embedding (shared, or either static archive) is built
 * without, and ran plain Python 10-20% slower than ipykernel in the kernel
 * (bench/pure_python.py). Hosted in python3, a cell runs on the same interpreter code as in
 * ipykernel. exec keeps the pid that Jupyter signals and waits for. */
#include "kernel/kernel.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run by python3 -c: puts the glue's folder on sys.path after the working directory (which
 * `-c` puts first, as `python -m ipykernel_launcher` does) and hands over to it. */
static const char BOOT[] = "import sys; sys.path.insert(1, sys.argv[1]); "
                           "import kiln_kernel_main; kiln_kernel_main.main()";

int kn_launch(const char *mode, const char *connection_file) {
    const kn_paths *where = kn_paths_get();
    char exe[PATH_MAX] = "kiln-kernel", path[3 * PATH_MAX + 3] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = '\0';
    /* the folders to put first on sys.path: the _kiln_kernel module's, and the tree's kiln
     * package and extension when run from the build */
    snprintf(path, sizeof path, "%s", where->module);
    for (size_t i = 0; i < 2; i++)
        if (where->tree_python[i]) {
            size_t used = strlen(path);
            snprintf(path + used, sizeof path - used, ":%s", where->tree_python[i]);
        }
    /* A kernel started from a background job inherits SIGINT ignored (POSIX), and exec and
     * CPython leave an ignored SIGINT ignored: no interrupt would ever reach a cell. */
    signal(SIGINT, SIG_DFL);
#ifdef KILN_SANITIZER_RUNTIME
    /* The sanitized build (KILN_ASAN): python3 must load the sanitizers' runtime before the
     * sanitized module. Only python3: kiln_kernel_main.py takes it out of the environment again,
     * and the kernel's children (!cmd, subprocess) run as they would without it. */
    if (!getenv("LD_PRELOAD")) {
        setenv("LD_PRELOAD", KILN_SANITIZER_RUNTIME, 1);
        setenv("KILN_SANITIZER_PRELOADED", "1", 1);
    }
#endif
    char *argv[] = {(char *)KILN_PYTHON_EXECUTABLE, (char *)"-c", (char *)BOOT,
                    (char *)where->glue, exe, where->with_kiln ? (char *)"1" : (char *)"0",
                    path, (char *)mode, (char *)connection_file, NULL};
    execv(KILN_PYTHON_EXECUTABLE, argv);
    fprintf(stderr, "kiln-kernel: cannot run %s: %s\n", KILN_PYTHON_EXECUTABLE, strerror(errno));
    return 1;
}
