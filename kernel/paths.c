/* Where the kernel's own files are. Run from its build folder, it uses the source tree: the
 * shell glue in kernel/py, the logos in share/, the _kiln_kernel module built beside it, and the
 * tree's kiln package and built extension first on sys.path, so an edit shows without
 * installing. Installed (`cmake --install`, as scripts/setup.sh does), it uses PREFIX/share/kiln
 * and PREFIX/lib/kiln (the module) beside PREFIX/bin, and imports the kiln
 * package installed for its Python (site-packages), so that users who cannot read the tree
 * (a JupyterHub's students) run it too. */
#include "kernel/kernel.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static kn_paths paths;
static bool found;

/* dirname() of a copy: dirname may write into its argument. */
static void parent_of(const char *path, char *out, size_t len) {
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    snprintf(out, len, "%s", dirname(copy));
}

/* Whether a build folder holds the _kiln extension (a build of the kernel alone does not). */
static bool has_extension(const char *dir) {
    DIR *d = opendir(dir);
    bool found_it = false;
    for (struct dirent *e; d && !found_it && (e = readdir(d));)
        found_it = strncmp(e->d_name, "_kiln", 5) == 0 && strstr(e->d_name, ".so") != NULL;
    if (d) closedir(d);
    return found_it;
}

const kn_paths *kn_paths_get(void) {
    if (found) return &paths;
    found = true;
    char exe[PATH_MAX] = "", exe_dir[PATH_MAX] = "", build[PATH_MAX] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = '\0';
    parent_of(exe, exe_dir, sizeof exe_dir);
    bool in_build = realpath(KILN_BUILD_DIR, build) && strcmp(build, exe_dir) == 0;
    if (in_build || n <= 0) {
        snprintf(paths.glue, sizeof paths.glue, "%s", KILN_KERNEL_PY_DIR);
        snprintf(paths.share, sizeof paths.share, "%s", KILN_SHARE_DIR);
        snprintf(paths.module, sizeof paths.module, "%s", KILN_KERNEL_MODULE_DIR);
        paths.tree_python[0] = KILN_PYTHON_BUILD_DIR;
        paths.tree_python[1] = KILN_PYTHON_SRC_DIR;
        paths.with_kiln = has_extension(KILN_PYTHON_BUILD_DIR);
        return &paths;
    }
    char prefix[PATH_MAX];
    parent_of(exe_dir, prefix, sizeof prefix);
    paths.with_kiln = true;
    snprintf(paths.glue, sizeof paths.glue, "%.*s/share/kiln/kernel", PATH_MAX - 32, prefix);
    snprintf(paths.share, sizeof paths.share, "%.*s/share/kiln", PATH_MAX - 32, prefix);
    snprintf(paths.module, sizeof paths.module, "%.*s/lib/kiln", PATH_MAX - 32, prefix);
    return &paths;
}
