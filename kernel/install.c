/* `kiln-kernel install [--user | --prefix DIR | --sys-prefix]`: writes the "kiln" kernelspec
 * (kernel.json naming this executable, and the logos from share/kernelspec) where
 * `jupyter kernelspec list` looks, like `jupyter kernelspec install` would. */
#include "kernel/kernel.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdirs(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb");
    if (!in) return false;
    FILE *out = fopen(to, "wb");
    bool ok = out != NULL;
    char buf[8192];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    fclose(in);
    if (out && fclose(out) != 0) ok = false;
    return ok;
}

/* The data directory (…/share/jupyter) the chosen flag points at. */
static bool data_dir(int argc, char **argv, char *out, size_t len) {
    if (argc == 1) { /* like `jupyter kernelspec install`: system-wide */
        snprintf(out, len, "/usr/local/share/jupyter");
        return true;
    }
    if (argc == 2 && strcmp(argv[1], "--user") == 0) {
        const char *data = getenv("JUPYTER_DATA_DIR");
        const char *xdg = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        if (data && *data) snprintf(out, len, "%s", data);
        else if (xdg && *xdg) snprintf(out, len, "%s/jupyter", xdg);
        else snprintf(out, len, "%s/.local/share/jupyter", home ? home : ".");
        return true;
    }
    if (argc == 3 && strcmp(argv[1], "--prefix") == 0) {
        snprintf(out, len, "%s/share/jupyter", argv[2]);
        return true;
    }
    if (argc == 2 && strcmp(argv[1], "--sys-prefix") == 0) {
        snprintf(out, len, "%s/share/jupyter", KILN_PYTHON_PREFIX);
        return true;
    }
    return false;
}

int kn_install_main(int argc, char **argv) {
    char dir[PATH_MAX - 64], exe[PATH_MAX];
    if (!data_dir(argc, argv, dir, sizeof dir)) {
        fprintf(stderr, "usage: kiln-kernel install [--user | --prefix DIR | --sys-prefix]\n");
        return 2;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "kiln-kernel install: cannot find its own path: %s\n", strerror(errno));
        return 1;
    }
    exe[n] = '\0';
    char spec[PATH_MAX];
    snprintf(spec, sizeof spec, "%s/kernels/kiln", dir);
    if (mkdirs(spec) != 0) {
        fprintf(stderr, "kiln-kernel install: cannot create %s: %s\n", spec, strerror(errno));
        return 1;
    }
    cJSON *k = cJSON_CreateObject();
    cJSON *argv_json = cJSON_AddArrayToObject(k, "argv");
    cJSON_AddItemToArray(argv_json, cJSON_CreateString(exe));
    cJSON_AddItemToArray(argv_json, cJSON_CreateString("-f"));
    cJSON_AddItemToArray(argv_json, cJSON_CreateString("{connection_file}"));
    cJSON_AddStringToObject(k, "display_name", "Python 3 (Kiln)");
    cJSON_AddStringToObject(k, "language", "python");
    cJSON_AddStringToObject(k, "interrupt_mode", "signal");
    cJSON *md = cJSON_AddObjectToObject(k, "metadata");
    cJSON_AddBoolToObject(md, "debugger", false);
    char *text = cJSON_Print(k);
    cJSON_Delete(k);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/kernel.json", spec);
    FILE *f = fopen(path, "w");
    bool ok = f && text && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    free(text);
    if (!ok) {
        fprintf(stderr, "kiln-kernel install: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    static const char *logos[] = {"logo-32x32.png", "logo-64x64.png", "logo-svg.svg"};
    for (size_t i = 0; i < sizeof logos / sizeof logos[0]; i++) {
        char from[PATH_MAX + 32], to[PATH_MAX + 32];
        snprintf(from, sizeof from, "%s/kernelspec/%s", kn_paths_get()->share, logos[i]);
        snprintf(to, sizeof to, "%s/%s", spec, logos[i]);
        if (!copy_file(from, to)) fprintf(stderr, "kiln-kernel install: no logo %s\n", from);
    }
    printf("Installed kernelspec kiln in %s\n", spec);
    return 0;
}
