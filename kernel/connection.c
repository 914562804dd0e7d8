/* The connection file jupyter writes for a kernel: transport, ip, ports, key and scheme. */
#include "kernel/kernel.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *out_len, char *err, size_t errlen) {
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
    bool failed = ferror(f);
    fclose(f);
    if (buf && failed) {
        snprintf(err, errlen, "cannot read connection file %s", path);
        free(buf);
        return NULL;
    }
    if (!buf) {
        if (cap == 4096) snprintf(err, errlen, "out of memory reading connection file %s", path);
        return NULL;
    }
    buf[len] = '\0';
    *out_len = len;
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

/* ---- the key, as bytes ----
 * cJSON's strings end at their first NUL, and a key may hold "\u0000": jupyter_client signs with
 * every byte of key.encode(). So the key's bytes are decoded here from the file's text, with their
 * length. cJSON has already checked the whole text is valid JSON. */

static const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

static int hex4(const char *p, const char *end) {
    if (end - p < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = p[i], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(unsigned char *out, uint32_t cp) {
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes the string literal at p (its opening quote) into out (room for end - p bytes), or only
 * skips it when out is NULL. Returns the position after the closing quote, or NULL when it is
 * not a valid literal (cJSON has rejected those already, lone surrogates included). */
static const char *json_string(const char *p, const char *end, unsigned char *out, size_t *len) {
    size_t n = 0;
    for (p++; p < end && *p != '"'; p++) {
        unsigned char c = (unsigned char)*p;
        if (c != '\\') {
            if (out) out[n] = c;
            n++;
            continue;
        }
        if (++p == end) return NULL;
        const char *simple = strchr("\"\\/bfnrt", *p);
        if (*p && simple) {
            if (out) out[n] = (unsigned char)"\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            n++;
            continue;
        }
        int cp = *p == 'u' ? hex4(p + 1, end) : -1;
        if (cp < 0) return NULL;
        p += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return NULL;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            int lo = end - p > 2 && p[1] == '\\' && p[2] == 'u' ? hex4(p + 3, end) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF) return NULL;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
        }
        unsigned char utf8[4];
        size_t m = put_utf8(utf8, (uint32_t)cp);
        if (out) memcpy(out + n, utf8, m);
        n += m;
    }
    if (p == end) return NULL;
    if (len) *len = n;
    return p + 1;
}

/* Skips one JSON value (valid JSON, as cJSON found it). */
static const char *json_skip(const char *p, const char *end) {
    p = skip_ws(p, end);
    if (p == end) return NULL;
    if (*p == '"') return json_string(p, end, NULL, NULL);
    if (*p != '{' && *p != '[') { /* a number, true, false or null */
        while (p < end && *p && strchr("+-.0123456789eEtruefalsn", *p)) p++;
        return p;
    }
    char close = *p == '{' ? '}' : ']';
    p = skip_ws(p + 1, end);
    while (p && p < end && *p != close) {
        if (close == '}') {
            p = json_string(p, end, NULL, NULL);
            p = p ? skip_ws(p, end) : NULL;
            if (!p || p == end || *p != ':') return NULL;
            p++;
        }
        p = json_skip(p, end);
        p = p ? skip_ws(p, end) : NULL;
        if (p && p < end && *p == ',') p = skip_ws(p + 1, end);
    }
    return p && p < end ? p + 1 : NULL;
}

/* The bytes of the top-level member "key" (the last one, as Python's json keeps), malloc'd. */
static bool read_key(const char *text, size_t len, kn_connection *out, char *err, size_t errlen) {
    const char *p = skip_ws(text, text + len), *end = text + len;
    unsigned char name[4];
    size_t name_len;
    p = skip_ws(p + 1, end); /* past '{' */
    while (p && p < end && *p != '}') {
        /* member names longer than "key" are only skipped, never copied */
        const char *after = json_string(p, end, NULL, &name_len);
        bool is_key = after && name_len == 3 && json_string(p, end, name, &name_len) &&
                      memcmp(name, "key", 3) == 0;
        p = after ? skip_ws(after, end) : NULL;
        if (!p || p == end || *p != ':') break;
        p = skip_ws(p + 1, end);
        if (is_key && p < end && *p == '"') {
            unsigned char *key = malloc((size_t)(end - p) + 1);
            size_t key_len = 0;
            const char *next = key ? json_string(p, end, key, &key_len) : NULL;
            if (!next) {
                free(key);
                snprintf(err, errlen, key ? "connection file: cannot decode its \"key\""
                                          : "out of memory reading the connection file's key");
                return false;
            }
            free(out->key);
            out->key = key;
            out->key_len = key_len;
            p = next;
        } else {
            p = json_skip(p, end);
        }
        p = p ? skip_ws(p, end) : NULL;
        if (p && p < end && *p == ',') p = skip_ws(p + 1, end);
    }
    if (!p || p == end) {
        snprintf(err, errlen, "connection file: cannot read its \"key\"");
        return false;
    }
    return true;
}

void kn_connection_free(kn_connection *c) {
    free(c->key);
    c->key = NULL;
    c->key_len = 0;
}

bool kn_connection_load(const char *path, kn_connection *out, char *err, size_t errlen) {
    size_t len = 0;
    char *text = read_file(path, &len, err, errlen);
    if (!text) return false;
    cJSON *root = kn_json_object(text, len);
    if (!root) {
        snprintf(err, errlen, "connection file %s is not one valid JSON object", path);
        cJSON_Delete(root);
        free(text);
        return false;
    }
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(root, "key");
    bool ok = get_string(root, "transport", out->transport, sizeof out->transport, "tcp", err, errlen) &&
              get_string(root, "ip", out->ip, sizeof out->ip, "127.0.0.1", err, errlen) &&
              get_string(root, "signature_scheme", out->signature_scheme,
                         sizeof out->signature_scheme, "hmac-sha256", err, errlen) &&
              get_port(root, "shell_port", &out->shell_port, err, errlen) &&
              get_port(root, "control_port", &out->control_port, err, errlen) &&
              get_port(root, "stdin_port", &out->stdin_port, err, errlen) &&
              get_port(root, "iopub_port", &out->iopub_port, err, errlen) &&
              get_port(root, "hb_port", &out->hb_port, err, errlen);
    if (ok && key && !cJSON_IsString(key)) {
        snprintf(err, errlen, "connection file: \"key\" must be a string");
        ok = false;
    }
    cJSON_Delete(root);
    out->key = NULL;
    out->key_len = 0;
    ok = ok && (!key || read_key(text, len, out, err, errlen));
    free(text);
    return ok;
}
