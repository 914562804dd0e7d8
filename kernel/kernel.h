/* The kernel layer (kn_): what the files of kernel/ offer one another.
 *
 * Threads and who owns what:
 *   main thread     Python's main thread, which called _kiln_kernel.serve (holds the GIL while it
 *                   runs Python); owns the shell
 *                   and stdin sockets; it alone receives SIGINT (every other thread blocks it).
 *   control thread  owns the control socket: kernel_info, interrupt, shutdown, answered while a
 *                   cell runs, without Python.
 *   heartbeat       owns the heartbeat socket and echoes.
 *   capture reader  owns the read ends of the fd 1 / fd 2 pipes.
 *   iopub           the PUB socket is shared: every send holds kn_kernel.send_lock.
 *   closing         kn_publish and kn_reply hold send_lock and send nothing once
 *                   kn_channels_close has set closing under it, so the context never shuts
 *                   down in the middle of a multipart message (libzmq 4.3 then leaks the parts
 *                   already queued: the control thread's last "idle" raced the main thread's exit).
 */
#ifndef KILN_KERNEL_H
#define KILN_KERNEL_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define KN_PROTOCOL_VERSION "5.3"
#define KN_DELIMITER "<IDS|MSG>"

/* ---- log.c: the kernel's own log, on the stderr it was started with ---- */
void kn_log_init(void);        /* call before fd 2 is redirected */
int kn_log_fd(void);
void kn_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- connection.c ---- */
typedef struct kn_connection {
    char transport[16];
    char ip[256];
    unsigned char *key;     /* malloc'd bytes, of any length and content (NULs too); NULL if none */
    size_t key_len;
    char signature_scheme[32];
    int shell_port, control_port, stdin_port, iopub_port, hb_port;
} kn_connection;

/* Reads a connection file; on failure writes a reason into err and returns false. */
bool kn_connection_load(const char *path, kn_connection *out, char *err, size_t errlen);
void kn_connection_free(kn_connection *c);

/* ---- wire.c: message framing, HMAC signing, replay protection ---- */
typedef struct kn_frame {
    char *data; /* NUL-terminated copy (JSON frames are text; buffers may hold NULs) */
    size_t len;
} kn_frame;

typedef struct kn_msg {
    kn_frame *ids;   /* ROUTER identities, sent back with the reply */
    size_t n_ids;
    kn_frame header, parent, metadata, content; /* raw JSON text as received */
    kn_frame *buffers;
    size_t n_buffers;
    cJSON *header_json; /* parsed header; msg_type/msg_id point into it */
    const char *msg_type;
    const char *msg_id;
} kn_msg;

typedef enum kn_recv_status {
    KN_RECV_OK,     /* a verified message with a header naming its msg_type */
    KN_RECV_NONE,   /* nothing waiting (non-blocking receive) */
    KN_RECV_BAD,    /* a message was read, logged and dropped */
    KN_RECV_INTR,   /* a signal interrupted a blocking receive */
    KN_RECV_CLOSED, /* the context is shutting down */
} kn_recv_status;

/* ---- replay.c: the recent signatures, to reject a replayed message ---- */
/* What the set keeps of a digest: its first 32 bytes (a shorter one zero-padded). */
#define KN_DIGEST_LEN 32
#define KN_REPLAY_GENERATION 32768u /* remembers at least this many, at most twice as many */
typedef struct kn_digest_set kn_digest_set;
kn_digest_set *kn_replay_new(void);
void kn_replay_free(kn_digest_set *set);
/* Returns false if digest d was seen before; otherwise remembers it. */
bool kn_replay_add(kn_digest_set *set, const unsigned char d[KN_DIGEST_LEN]);

/* ---- utf8.c: text for JSON from arbitrary bytes ---- */
/* Length of the longest prefix of s[0..n) that does not end inside a UTF-8 sequence. */
size_t kn_utf8_complete_prefix(const unsigned char *s, size_t n);
/* The JSON string literal, quotes included, of s[0..n): every character kept (a NUL as \u0000),
 * invalid UTF-8 as U+FFFD (malloc'd; NULL when out of memory). */
char *kn_utf8_json_string(const unsigned char *s, size_t n);

#define KN_MAX_DIGEST 64 /* bytes of the longest HMAC (sha512, sha3_512, blake2b) */

typedef struct kn_session {
    char id[40];               /* this process's session id */
    unsigned char *key;        /* malloc'd copy */
    size_t key_len;            /* 0: messages are neither signed nor checked */
    char digest[24];           /* OpenSSL's name of the HMAC's hash, from signature_scheme */
    size_t digest_len;         /* its output size in bytes, at most KN_MAX_DIGEST */
    void *keyed;               /* OpenSSL EVP_MAC_CTX: HMAC with the key set, copied for each
                                  message (read-only, shared by all threads) */
    atomic_ulong counter;      /* for msg ids */
    pthread_mutex_t replay_lock;
    kn_digest_set *replay;     /* recent digests, guarded by replay_lock */
} kn_session;

/* scheme is the connection file's signature_scheme, "hmac-" and a hashlib name, as jupyter_client
 * takes it; one OpenSSL lacks, or any other, is an error. */
bool kn_session_init(kn_session *s, const unsigned char *key, size_t key_len, const char *scheme,
                     char *err, size_t errlen);
void kn_session_free(kn_session *s);

/* The JSON object that text[0..len) holds and nothing else but whitespace, or NULL: trailing
 * bytes, a NUL, another kind of value or invalid JSON. */
cJSON *kn_json_object(const char *text, size_t len);

/* Receives one multipart message. dontwait: return KN_RECV_NONE instead of blocking. */
kn_recv_status kn_msg_recv(kn_session *s, void *sock, bool dontwait, kn_msg *out);
void kn_msg_free(kn_msg *m);

/* Sends a message; parent/metadata/content are JSON text (NULL means "{}"). ids are the routing
 * frames (ROUTER) or the topic (PUB). Returns 0, or -1 with errno from zmq. */
int kn_msg_send(kn_session *s, void *sock, const kn_frame *ids, size_t n_ids,
                const char *msg_type, const char *parent, const char *metadata,
                const char *content, const kn_frame *buffers, size_t n_buffers);

/* A message for a PUB socket, built and signed ahead of the time it is sent (fatal.c sends it
 * from a signal handler, where building it could deadlock). */
#define KN_PREPARED_PARTS 7 /* topic, delimiter, signature, header, parent, metadata, content */
typedef struct kn_prepared {
    char *data;                    /* malloc'd: the parts back to back */
    size_t len[KN_PREPARED_PARTS];
} kn_prepared;
bool kn_msg_prepare(kn_session *s, const kn_frame *topic, const char *msg_type,
                    const char *parent, const char *content, kn_prepared *out);
/* Sends it without allocating a copy of its data (zmq_send_const). Returns 0 or -1. */
int kn_msg_send_prepared(void *sock, const kn_prepared *p);

/* ---- channels.c: sockets, heartbeat and control threads, iopub ---- */
typedef struct kn_kernel {
    kn_session session;
    kn_connection conn;
    void *ctx;
    void *shell, *control, *stdin_sock, *iopub, *hb;
    void *wake_tx, *wake_rx;      /* inproc pair: control thread -> main loop, on shutdown;
                                     wake_tx is used by the control thread only */
    pthread_mutex_t send_lock;
    bool closing;                 /* guarded by send_lock */
    pthread_t main_thread, hb_thread, control_thread;
    bool hb_started, control_started;
    atomic_bool shutdown_requested;
    atomic_bool restart_requested;
    atomic_bool running_request;  /* the main thread is inside a shell request */
    char *kernel_info;            /* kernel_info_reply content, built once at start */
} kn_kernel;

/* Starts a thread with every signal blocked, so that SIGINT always reaches the main thread. */
bool kn_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);
bool kn_channels_open(kn_kernel *k, char *err, size_t errlen);
bool kn_channels_start_threads(kn_kernel *k);
void kn_channels_close(kn_kernel *k);

/* Publishes on iopub (thread-safe); parent is the request header's raw JSON or NULL. */
void kn_publish(kn_kernel *k, const char *msg_type, const char *parent, const char *content,
                const char *metadata, const kn_frame *buffers, size_t n_buffers);
void kn_publish_status(kn_kernel *k, const char *state, const char *parent);

/* Sends a reply to req on sock (shell or control). */
void kn_reply(kn_kernel *k, void *sock, const kn_msg *req, const char *msg_type,
              const char *content, const char *metadata);

/* "foo_request" -> "foo_reply" into out; false when the type is not a request. */
bool kn_reply_type(const char *request_type, char *out, size_t outlen);

/* Shutdown from either channel: reply, tell iopub, stop the main loop. */
void kn_handle_shutdown(kn_kernel *k, void *sock, const kn_msg *req);
void kn_interrupt_main(kn_kernel *k);

/* ---- capture.c: fd 1 and fd 2 captured into coalesced stream messages ---- */
bool kn_capture_start(kn_kernel *k);
/* Flushes what is pending under the old parent, then attributes output to this one. */
void kn_capture_set_parent(const char *parent);
/* Sends everything written to fd 1 / fd 2 so far (the caller flushed its stdio). */
void kn_capture_flush(void);
void kn_capture_stop(void);

/* ---- fatal.c: one last message on iopub when a fatal signal ends the process ---- */
/* Handles SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (main thread, before the shell imports kiln,
 * so that handlers installed later, compiled code's, pass them on here). */
bool kn_fatal_start(kn_kernel *k);
/* From now on the message is parented to parent (a request's header), `during` finishing
 * "the kernel died: SIGSEGV" (" while running cell 3"). Main thread. */
void kn_fatal_arm(const char *parent, const char *during);
void kn_fatal_disarm(void); /* back to a message parented to nothing */
void kn_fatal_stop(void);   /* nothing is sent any more: the sockets are about to close */

/* ---- serve.c: the kernel, from start to shutdown, in the Python that loaded _kiln_kernel ---- */
/* Returns the exit status; *finalize is false when the interpreter must not be finalized. */
int kn_serve(const char *connection_file, bool *finalize);

/* ---- interp.c: the _kiln_kernel module and the IPython shell ---- */
bool kn_interp_init(kn_kernel *k, const char *connection_file);
/* Runs a shell request through the shell glue; returns reply content JSON (malloc'd) or NULL
 * for messages without a reply; *stop_queue is set when stop_on_error asks to abort. */
char *kn_interp_handle(const kn_msg *req, bool *stop_queue);
/* Flushes Python's and C's stdio, then the capture pipes (main thread, GIL held). */
void kn_interp_flush_output(void);
/* Clears a SIGINT that arrived while idle so it does not hit the next cell. */
void kn_interp_discard_pending_interrupt(void);
/* The main loop lets other Python threads run while it waits for a request. */
void kn_interp_release_gil(void);
void kn_interp_acquire_gil(void);
/* Ends the IPython session; returns whether the interpreter may be finalized. */
bool kn_interp_finish(void);

/* ---- pystream.c: sys.stdout / sys.stderr as line-buffered writers on fd 1 / fd 2 ---- */
struct _object; /* PyObject, without making every kernel file include Python.h */
int kn_pystream_add_type(struct _object *module); /* adds _kiln_kernel.FdWriter */

/* ---- children.c: no orphan processes ---- */
/* SIGTERM to the processes this kernel started that still run, SIGKILL after grace_ms. */
void kn_stop_children(int grace_ms);

/* ---- shell.c: the main loop over the shell socket ---- */
void kn_shell_loop(kn_kernel *k);

/* ---- paths.c: the kernel's own files, in the source tree or installed ---- */
typedef struct kn_paths {
    char glue[PATH_MAX];           /* the shell glue: kiln_kernel_shell.py and its siblings */
    char share[PATH_MAX];           /* kernelspec/ with the logos */
    char module[PATH_MAX];         /* the folder of the _kiln_kernel extension module */
    const char *tree_python[2];    /* put first on sys.path when run from the build (NULL installed) */
    bool with_kiln;                /* installed, or the build has the _kiln extension beside it */
} kn_paths;
const kn_paths *kn_paths_get(void);

/* ---- launch.c: `-f` and `--sysinfo` go on in /usr/bin/python3 ---- */
/* mode is "-f" (with the connection file) or "--sysinfo"; returns only when exec fails. */
int kn_launch(const char *mode, const char *connection_file);

/* ---- install.c: `kiln-kernel install` ---- */
int kn_install_main(int argc, char **argv);

#endif
