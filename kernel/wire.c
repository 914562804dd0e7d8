/* The wire format of the Jupyter protocol: [ids..., <IDS|MSG>, hmac, header, parent_header,
 * metadata, content, buffers...]. Signatures are HMACs (the connection file's signature_scheme,
 * hmac-sha256 by default) over the four JSON frames, hex encoded, compared in constant time; a digest seen before is a replay and is rejected
 * (replay.c keeps the recent ones). */
#include "kernel/kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

/* ---- session ---- */

static void random_hex(char *out, size_t nbytes) {
    unsigned char raw[32];
    if (nbytes > sizeof raw) nbytes = sizeof raw;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, raw, nbytes) : -1;
    if (fd >= 0) close(fd);
    if (got != (ssize_t)nbytes) { /* no urandom: time and pid still make ids distinct */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^
                               (unsigned long long)getpid() << 40;
        for (size_t i = 0; i < nbytes; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            raw[i] = (unsigned char)(x >> 56);
        }
    }
    for (size_t i = 0; i < nbytes; i++) sprintf(out + 2 * i, "%02x", raw[i]);
}

/* jupyter_client takes "hmac-NAME" for any NAME that hashlib has as an attribute; these are
 * the hashes among them, with OpenSSL's names (hashlib's shake_* need a length and cannot key an
 * HMAC; its other attributes are not hashes). */
static const char *const schemes[][2] = {
    {"md5", "MD5"},           {"sha1", "SHA1"},           {"sha224", "SHA224"},
    {"sha256", "SHA256"},     {"sha384", "SHA384"},       {"sha512", "SHA512"},
    {"sha3_224", "SHA3-224"}, {"sha3_256", "SHA3-256"},   {"sha3_384", "SHA3-384"},
    {"sha3_512", "SHA3-512"}, {"blake2b", "BLAKE2B-512"}, {"blake2s", "BLAKE2S-256"},
};

static bool pick_digest(kn_session *s, const char *scheme, char *err, size_t errlen) {
    const char *name = strncmp(scheme, "hmac-", 5) == 0 ? scheme + 5 : NULL;
    const char *openssl = NULL;
    for (size_t i = 0; name && i < sizeof schemes / sizeof schemes[0]; i++)
        if (strcmp(name, schemes[i][0]) == 0) openssl = schemes[i][1];
    EVP_MD *md = openssl ? EVP_MD_fetch(NULL, openssl, NULL) : NULL;
    int size = md ? EVP_MD_get_size(md) : 0;
    EVP_MD_free(md);
    if (!openssl || size <= 0 || size > KN_MAX_DIGEST) {
        snprintf(err, errlen,
                 "unsupported signature_scheme \"%s\" in the connection file: %s", scheme,
                 openssl ? "this OpenSSL lacks that hash"
                         : "Kiln signs with hmac-NAME, NAME one of md5, sha1, sha224, sha256, "
                           "sha384, sha512, sha3_224, sha3_256, sha3_384, sha3_512, blake2b, "
                           "blake2s");
        return false;
    }
    snprintf(s->digest, sizeof s->digest, "%s", openssl);
    s->digest_len = (size_t)size;
    return true;
}

/* HMAC with the session's digest and key, set up once: each message's copy of it starts from
 * the key already hashed in, instead of looking the digest up and hashing the key again (which
 * made the signatures a fifth of an empty cell's time in the kernel). */
static EVP_MAC_CTX *keyed_hmac(const kn_session *s) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac); /* the context holds its own reference */
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)s->digest, 0),
        OSSL_PARAM_construct_end(),
    };
    if (ctx && EVP_MAC_init(ctx, s->key, s->key_len, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        ctx = NULL;
    }
    return ctx;
}

bool kn_session_init(kn_session *s, const unsigned char *key, size_t key_len, const char *scheme,
                     char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    char hex[33];
    random_hex(hex, 16);
    /* uuid4 layout, as jupyter_client's session ids */
    snprintf(s->id, sizeof s->id, "%.8s-%.4s-4%.3s-a%.3s-%.12s", hex, hex + 8, hex + 13, hex + 17,
             hex + 20);
    atomic_init(&s->counter, 0);
    pthread_mutex_init(&s->replay_lock, NULL);
    /* the scheme is checked even without a key, as jupyter_client's Session does */
    if (!pick_digest(s, scheme, err, errlen)) return false;
    if (key_len) {
        s->key = malloc(key_len);
        s->replay = kn_replay_new();
        if (s->key) memcpy(s->key, key, key_len);
        s->key_len = key_len;
        if (!s->key || !(s->keyed = keyed_hmac(s)) || !s->replay) {
            snprintf(err, errlen, "cannot set up HMAC-%s (OpenSSL)", s->digest);
            kn_session_free(s);
            return false;
        }
    }
    return true;
}

void kn_session_free(kn_session *s) {
    EVP_MAC_CTX_free(s->keyed);
    s->keyed = NULL;
    kn_replay_free(s->replay);
    s->replay = NULL;
    free(s->key);
    s->key = NULL;
    s->key_len = 0;
    pthread_mutex_destroy(&s->replay_lock);
}

/* The HMAC of the frames, s->digest_len bytes into out. */
static bool hmac_frames(const kn_session *s, const kn_frame *frames, size_t n,
                        unsigned char out[KN_MAX_DIGEST]) {
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(s->keyed);
    if (!ctx) return false;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++)
        ok = EVP_MAC_update(ctx, (const unsigned char *)frames[i].data, frames[i].len) == 1;
    size_t outlen = 0;
    ok = ok && EVP_MAC_final(ctx, out, &outlen, KN_MAX_DIGEST) == 1 && outlen == s->digest_len;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

static void to_hex(const unsigned char *d, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

/* ---- receive ---- */

cJSON *kn_json_object(const char *text, size_t len) {
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!cJSON_IsObject(v) || !end) {
        cJSON_Delete(v);
        return NULL;
    }
    /* cJSON stops after the first value; the rest must be blank */
    for (const char *p = end; p < text + len; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            cJSON_Delete(v);
            return NULL;
        }
    return v;
}

void kn_msg_free(kn_msg *m) {
    for (size_t i = 0; i < m->n_ids; i++) free(m->ids[i].data);
    free(m->ids);
    free(m->header.data);
    free(m->parent.data);
    free(m->metadata.data);
    free(m->content.data);
    for (size_t i = 0; i < m->n_buffers; i++) free(m->buffers[i].data);
    free(m->buffers);
    cJSON_Delete(m->header_json);
    memset(m, 0, sizeof *m);
}

typedef struct frame_list {
    kn_frame *v;
    size_t n, cap;
} frame_list;

static bool frames_push(frame_list *l, zmq_msg_t *part) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        kn_frame *v = realloc(l->v, cap * sizeof *v);
        if (!v) return false;
        l->v = v;
        l->cap = cap;
    }
    size_t len = zmq_msg_size(part);
    char *data = malloc(len + 1);
    if (!data) return false;
    memcpy(data, zmq_msg_data(part), len);
    data[len] = '\0';
    l->v[l->n++] = (kn_frame){data, len};
    return true;
}

static void frames_free(frame_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i].data);
    free(l->v);
}

/* Moves frame i out of the list (the list no longer frees it). */
static kn_frame take(frame_list *l, size_t i) {
    kn_frame f = l->v[i];
    l->v[i] = (kn_frame){NULL, 0};
    return f;
}

static kn_recv_status recv_frames(void *sock, bool dontwait, frame_list *l) {
    bool more = true, first = true, ok = true;
    while (more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        int rc = zmq_msg_recv(&part, sock, first && dontwait ? ZMQ_DONTWAIT : 0);
        if (rc < 0) {
            int e = zmq_errno();
            zmq_msg_close(&part);
            if (e == EINTR && first) return KN_RECV_INTR;
            if (e == EINTR) continue; /* the rest of a multipart message is already queued */
            if (e == EAGAIN) return KN_RECV_NONE;
            return KN_RECV_CLOSED;
        }
        first = false;
        more = zmq_msg_more(&part);
        /* keep reading to the last part even when out of memory, so the next message starts
         * at its own first frame */
        if (ok && !frames_push(l, &part)) ok = false;
        zmq_msg_close(&part);
    }
    if (!ok) {
        kn_log("dropped a message: out of memory while reading its frames");
        return KN_RECV_BAD;
    }
    return KN_RECV_OK;
}

static bool check_signature(kn_session *s, const kn_frame *sig, const kn_frame *signed_frames) {
    if (!s->key_len) return true;
    unsigned char digest[KN_MAX_DIGEST] = {0};
    char hex[2 * KN_MAX_DIGEST + 1];
    if (!hmac_frames(s, signed_frames, 4, digest)) {
        kn_log("dropped a message: HMAC computation failed");
        return false;
    }
    to_hex(digest, s->digest_len, hex);
    size_t hex_len = 2 * s->digest_len;
    if (sig->len != hex_len || CRYPTO_memcmp(hex, sig->data, hex_len) != 0) {
        kn_log("dropped a message: %s signature", sig->len ? "bad" : "missing");
        return false;
    }
    pthread_mutex_lock(&s->replay_lock);
    bool fresh = kn_replay_add(s->replay, digest); /* zero-padded past a short digest */
    pthread_mutex_unlock(&s->replay_lock);
    if (!fresh) kn_log("dropped a message: replayed signature %.16s...", hex);
    return fresh;
}

kn_recv_status kn_msg_recv(kn_session *s, void *sock, bool dontwait, kn_msg *out) {
    memset(out, 0, sizeof *out);
    frame_list l = {0};
    kn_recv_status st = recv_frames(sock, dontwait, &l);
    if (st != KN_RECV_OK) {
        frames_free(&l);
        return st;
    }
    size_t delim = 0;
    while (delim < l.n && !(l.v[delim].len == strlen(KN_DELIMITER) &&
                            memcmp(l.v[delim].data, KN_DELIMITER, l.v[delim].len) == 0))
        delim++;
    if (delim == l.n || l.n - delim < 6) {
        kn_log("dropped a message: %zu frames, %s", l.n,
               delim == l.n ? "no <IDS|MSG> delimiter" : "fewer than the five after the delimiter");
        frames_free(&l);
        return KN_RECV_BAD;
    }
    if (!check_signature(s, &l.v[delim + 1], &l.v[delim + 2])) {
        frames_free(&l);
        return KN_RECV_BAD;
    }
    out->n_ids = delim;
    out->ids = delim ? calloc(delim, sizeof *out->ids) : NULL;
    out->n_buffers = l.n - delim - 6;
    out->buffers = out->n_buffers ? calloc(out->n_buffers, sizeof *out->buffers) : NULL;
    if ((delim && !out->ids) || (out->n_buffers && !out->buffers)) {
        kn_log("dropped a message: out of memory");
        frames_free(&l);
        kn_msg_free(out);
        return KN_RECV_BAD;
    }
    for (size_t i = 0; i < delim; i++) out->ids[i] = take(&l, i);
    out->header = take(&l, delim + 2);
    out->parent = take(&l, delim + 3);
    out->metadata = take(&l, delim + 4);
    out->content = take(&l, delim + 5);
    for (size_t i = 0; i < out->n_buffers; i++) out->buffers[i] = take(&l, delim + 6 + i);
    frames_free(&l);

    /* Each JSON frame is echoed (the header as the parent of every reply and output) or handed
     * on as text, so each must be one JSON object and nothing more: trailing bytes in a header
     * would reach every client in iopub's parent_header, where they cannot decode it. */
    const kn_frame *json_frames[] = {&out->parent, &out->metadata, &out->content};
    static const char *const names[] = {"parent_header", "metadata", "content"};
    out->header_json = kn_json_object(out->header.data, out->header.len);
    if (!out->header_json) {
        kn_log("dropped a message: header is not one valid JSON object");
        kn_msg_free(out);
        return KN_RECV_BAD;
    }
    for (int i = 0; i < 3; i++) {
        cJSON *v = kn_json_object(json_frames[i]->data, json_frames[i]->len);
        if (!v) {
            kn_log("dropped a message: %s is not one valid JSON object", names[i]);
            kn_msg_free(out);
            return KN_RECV_BAD;
        }
        cJSON_Delete(v);
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(out->header_json, "msg_type");
    if (!cJSON_IsString(type) || !type->valuestring[0]) {
        kn_log("dropped a message: header has no msg_type");
        kn_msg_free(out);
        return KN_RECV_BAD;
    }
    out->msg_type = type->valuestring;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(out->header_json, "msg_id");
    out->msg_id = cJSON_IsString(id) ? id->valuestring : "";
    return KN_RECV_OK;
}

/* ---- send ---- */

static void iso_now(char *out, size_t len) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, len, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, len - n, ".%06ldZ", ts.tv_nsec / 1000);
}

static int send_part(void *sock, const void *data, size_t len, bool more) {
    for (;;) {
        if (zmq_send(sock, data, len, more ? ZMQ_SNDMORE : 0) >= 0) return 0;
        if (zmq_errno() != EINTR) return -1;
    }
}

/* A new message's header (into header, of hcap bytes) and signature (into sig, "" without a
 * key), and its four signed frames in f, which point into header and the arguments. */
static bool sign_message(kn_session *s, const char *msg_type, const char *parent,
                         const char *metadata, const char *content, char *header, size_t hcap,
                         char sig[2 * KN_MAX_DIGEST + 1], kn_frame f[4]) {
    char date[48];
    iso_now(date, sizeof date);
    unsigned long n = atomic_fetch_add(&s->counter, 1);
    int hlen = snprintf(header, hcap,
                        "{\"msg_id\":\"%s_%d_%lu\",\"msg_type\":\"%s\",\"username\":\"kernel\","
                        "\"session\":\"%s\",\"date\":\"%s\",\"version\":\"" KN_PROTOCOL_VERSION "\"}",
                        s->id, (int)getpid(), n, msg_type, s->id, date);
    if (hlen < 0 || (size_t)hlen >= hcap) return false;
    f[0] = (kn_frame){header, (size_t)hlen};
    f[1] = (kn_frame){(char *)(parent ? parent : "{}"), parent ? strlen(parent) : 2};
    f[2] = (kn_frame){(char *)(metadata ? metadata : "{}"), metadata ? strlen(metadata) : 2};
    f[3] = (kn_frame){(char *)(content ? content : "{}"), content ? strlen(content) : 2};
    sig[0] = '\0';
    if (s->key_len) {
        unsigned char digest[KN_MAX_DIGEST];
        if (!hmac_frames(s, f, 4, digest)) return false;
        to_hex(digest, s->digest_len, sig);
    }
    return true;
}

int kn_msg_send(kn_session *s, void *sock, const kn_frame *ids, size_t n_ids,
                const char *msg_type, const char *parent, const char *metadata,
                const char *content, const kn_frame *buffers, size_t n_buffers) {
    char header[512], sig[2 * KN_MAX_DIGEST + 1];
    kn_frame signed_frames[4];
    if (!sign_message(s, msg_type, parent, metadata, content, header, sizeof header, sig,
                      signed_frames))
        return -1;
    for (size_t i = 0; i < n_ids; i++)
        if (send_part(sock, ids[i].data, ids[i].len, true) < 0) return -1;
    if (send_part(sock, KN_DELIMITER, strlen(KN_DELIMITER), true) < 0) return -1;
    if (send_part(sock, sig, strlen(sig), true) < 0) return -1;
    for (int i = 0; i < 4; i++)
        if (send_part(sock, signed_frames[i].data, signed_frames[i].len, i < 3 || n_buffers) < 0)
            return -1;
    for (size_t i = 0; i < n_buffers; i++)
        if (send_part(sock, buffers[i].data, buffers[i].len, i + 1 < n_buffers) < 0) return -1;
    return 0;
}

bool kn_msg_prepare(kn_session *s, const kn_frame *topic, const char *msg_type,
                    const char *parent, const char *content, kn_prepared *out) {
    char header[512], sig[2 * KN_MAX_DIGEST + 1];
    kn_frame f[4];
    memset(out, 0, sizeof *out);
    if (!sign_message(s, msg_type, parent, NULL, content, header, sizeof header, sig, f))
        return false;
    const kn_frame parts[KN_PREPARED_PARTS] = {
        *topic, {KN_DELIMITER, strlen(KN_DELIMITER)}, {sig, strlen(sig)}, f[0], f[1], f[2], f[3]};
    size_t total = 0;
    for (int i = 0; i < KN_PREPARED_PARTS; i++) total += parts[i].len;
    out->data = malloc(total ? total : 1);
    if (!out->data) return false;
    for (int i = 0, at = 0; i < KN_PREPARED_PARTS; at += (int)parts[i].len, i++) {
        memcpy(out->data + at, parts[i].data, parts[i].len);
        out->len[i] = parts[i].len;
    }
    return true;
}

int kn_msg_send_prepared(void *sock, const kn_prepared *p) {
    size_t at = 0;
    for (int i = 0; i < KN_PREPARED_PARTS; at += p->len[i], i++) {
        /* zmq_send_const keeps a reference to the data instead of allocating a copy */
        int flags = i + 1 < KN_PREPARED_PARTS ? ZMQ_SNDMORE : 0;
        while (zmq_send_const(sock, p->data + at, p->len[i], flags) < 0)
            if (zmq_errno() != EINTR) return -1;
    }
    return 0;
}
