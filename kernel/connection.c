/* The connection file jupyter writes for a kernel: transport, ip, ports, key and scheme. */
#include "kernel/kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open connection file %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *bigger = cap < (1u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                snprintf(err, errlen, "connection file %s is too large", path);
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

static bool get_string(const cJSON *root, const char *name, char *out, size_t outlen,
                       const char *fallback, char *err, size_t errlen) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, name);
    const char *s = cJSON_IsString(v) ? v->valuestring : fallback;
    if (!s) {
        snprintf(err, errlen, "connection file lacks \"%s\"", name);
        return false;
    }
    if (strlen(s) >= outlen) {
        snprintf(err, errlen, "connection file: \"%s\" is too long", name);
        return false;
    }
    strcpy(out, s);
    return true;
}

static bool get_port(const cJSON *root, const char *name, int *out, char *err, size_t errlen) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, name);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 65535) {
        snprintf(err, errlen, "connection file: \"%s\" must be a port number", name);
        return false;
    }
    *out = v->valueint;
    return true;
}

bool kn_connection_load(const char *path, kn_connection *out, char *err, size_t errlen) {
    char *text = read_file(path, err, errlen);
    if (!text) return false;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsObject(root)) {
        snprintf(err, errlen, "connection file %s is not a JSON object", path);
        cJSON_Delete(root);
        return false;
    }
    bool ok = get_string(root, "transport", out->transport, sizeof out->transport, "tcp", err, errlen) &&
              get_string(root, "ip", out->ip, sizeof out->ip, "127.0.0.1", err, errlen) &&
              get_string(root, "key", out->key, sizeof out->key, "", err, errlen) &&
              get_string(root, "signature_scheme", out->signature_scheme,
                         sizeof out->signature_scheme, "hmac-sha256", err, errlen) &&
              get_port(root, "shell_port", &out->shell_port, err, errlen) &&
              get_port(root, "control_port", &out->control_port, err, errlen) &&
              get_port(root, "stdin_port", &out->stdin_port, err, errlen) &&
              get_port(root, "iopub_port", &out->iopub_port, err, errlen) &&
              get_port(root, "hb_port", &out->hb_port, err, errlen);
    cJSON_Delete(root);
    if (ok && out->key[0] && strcmp(out->signature_scheme, "hmac-sha256") != 0) {
        snprintf(err, errlen, "unsupported signature_scheme \"%s\" (Kiln signs with hmac-sha256)",
                 out->signature_scheme);
        return false;
    }
    return ok;
}
