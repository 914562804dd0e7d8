/* The five sockets of a kernel, and the two threads that serve heartbeat and control so that
 * they answer while the main thread runs a cell. */
#include "kernel/kernel.h"

#include <Python.h> /* Py_GetVersion, callable before the interpreter starts */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#define PARENT_CHECK_MS 1000
#define HEARTBEAT_IVL_MS 1000     /* ZMTP pings to every peer of shell, control and stdin */
#define HEARTBEAT_TIMEOUT_MS 5000 /* a peer that answers none for this long is disconnected */

bool kn_thread_start(pthread_t *t, void *(*fn)(void *), void *arg) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0;
}

static void *bind_socket(kn_kernel *k, int type, int port, char *err, size_t errlen) {
    void *s = zmq_socket(k->ctx, type);
    if (!s) {
        snprintf(err, errlen, "zmq_socket: %s", zmq_strerror(zmq_errno()));
        return NULL;
    }
    int linger = 1000; /* let the last replies and the final idle reach the client */
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    if (type == ZMQ_ROUTER) {
        /* A reply goes by the identity its request came with, and a client's identity is its
         * session id, which every iopub subscriber sees. So a second connection claiming an
         * identity in use is refused (ZMQ_ROUTER_HANDOVER stays off), or a peer without the key
         * could take over the client's replies; and ZMTP heartbeats drop a connection that died
         * silently within seconds, so that its client, reconnecting, gets the identity back. */
        int ivl = HEARTBEAT_IVL_MS, timeout = HEARTBEAT_TIMEOUT_MS;
        zmq_setsockopt(s, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl);
        zmq_setsockopt(s, ZMQ_HEARTBEAT_TIMEOUT, &timeout, sizeof timeout);
    }
    if (type == ZMQ_PUB) {
        int hwm = 100000; /* outputs are coalesced; a deep queue only guards against floods */
        zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    }
    char addr[300];
    if (strcmp(k->conn.transport, "ipc") == 0)
        snprintf(addr, sizeof addr, "ipc://%s-%d", k->conn.ip, port);
    else
        snprintf(addr, sizeof addr, "%s://%s:%d", k->conn.transport, k->conn.ip, port);
    if (zmq_bind(s, addr) != 0) {
        snprintf(err, errlen, "cannot bind %s: %s", addr, zmq_strerror(zmq_errno()));
        zmq_close(s);
        return NULL;
    }
    return s;
}

/* language_info's version is the interpreter's, read before it starts. */
static char *build_kernel_info(void) {
    char version[32];
    snprintf(version, sizeof version, "%s", Py_GetVersion());
    version[strcspn(version, " ")] = '\0';
    char banner[512];
    snprintf(banner, sizeof banner,
             "Python %s - Kiln kernel (IPython shell; cells compiled with kiln.jit / %%%%jit)",
             Py_GetVersion());
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "status", "ok");
    cJSON_AddStringToObject(r, "protocol_version", KN_PROTOCOL_VERSION);
    cJSON_AddStringToObject(r, "implementation", "kiln");
    cJSON_AddStringToObject(r, "implementation_version", KILN_VERSION);
    cJSON *li = cJSON_AddObjectToObject(r, "language_info");
    cJSON_AddStringToObject(li, "name", "python");
    cJSON_AddStringToObject(li, "version", version);
    cJSON_AddStringToObject(li, "mimetype", "text/x-python");
    cJSON_AddStringToObject(li, "file_extension", ".py");
    cJSON_AddStringToObject(li, "pygments_lexer", "ipython3");
    cJSON *cm = cJSON_AddObjectToObject(li, "codemirror_mode");
    cJSON_AddStringToObject(cm, "name", "ipython");
    cJSON_AddNumberToObject(cm, "version", 3);
    cJSON_AddStringToObject(li, "nbconvert_exporter", "python");
    cJSON_AddStringToObject(r, "banner", banner);
    cJSON_AddBoolToObject(r, "debugger", false);
    static const char *links[][2] = {
        {"Python Reference", "https://docs.python.org/3.11"},
        {"IPython Reference", "https://ipython.readthedocs.io/en/stable/"},
        {"NumPy Reference", "https://numpy.org/doc/stable/reference/"},
        {"Matplotlib Reference", "https://matplotlib.org/contents.html"},
    };
    cJSON *hl = cJSON_AddArrayToObject(r, "help_links");
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "text", links[i][0]);
        cJSON_AddStringToObject(l, "url", links[i][1]);
        cJSON_AddItemToArray(hl, l);
    }
    char *s = cJSON_PrintUnformatted(r);
    cJSON_Delete(r);
    return s;
}

bool kn_channels_open(kn_kernel *k, char *err, size_t errlen) {
    pthread_mutex_init(&k->send_lock, NULL);
    k->kernel_info = build_kernel_info();
    k->ctx = zmq_ctx_new();
    if (!k->ctx || !k->kernel_info) {
        snprintf(err, errlen, "cannot create the ZeroMQ context");
        return false;
    }
    k->shell = bind_socket(k, ZMQ_ROUTER, k->conn.shell_port, err, errlen);
    if (!k->shell) return false;
    k->control = bind_socket(k, ZMQ_ROUTER, k->conn.control_port, err, errlen);
    if (!k->control) return false;
    k->stdin_sock = bind_socket(k, ZMQ_ROUTER, k->conn.stdin_port, err, errlen);
    if (!k->stdin_sock) return false;
    k->iopub = bind_socket(k, ZMQ_PUB, k->conn.iopub_port, err, errlen);
    if (!k->iopub) return false;
    k->hb = bind_socket(k, ZMQ_REP, k->conn.hb_port, err, errlen);
    if (!k->hb) return false;
    k->wake_rx = zmq_socket(k->ctx, ZMQ_PAIR);
    k->wake_tx = zmq_socket(k->ctx, ZMQ_PAIR);
    if (!k->wake_rx || !k->wake_tx || zmq_bind(k->wake_rx, "inproc://kiln-wake") != 0 ||
        zmq_connect(k->wake_tx, "inproc://kiln-wake") != 0) {
        snprintf(err, errlen, "cannot create the wake-up pair: %s", zmq_strerror(zmq_errno()));
        return false;
    }
    return true;
}

void kn_publish(kn_kernel *k, const char *msg_type, const char *parent, const char *content,
                const char *metadata, const kn_frame *buffers, size_t n_buffers) {
    char topic[128];
    snprintf(topic, sizeof topic, "kernel.%s.%s", k->session.id, msg_type);
    kn_frame t = {topic, strlen(topic)};
    pthread_mutex_lock(&k->send_lock);
    int rc = k->closing ? 0 : kn_msg_send(&k->session, k->iopub, &t, 1, msg_type, parent,
                                          metadata, content, buffers, n_buffers);
    pthread_mutex_unlock(&k->send_lock);
    if (rc < 0 && zmq_errno() != ETERM)
        kn_log("cannot publish %s: %s", msg_type, zmq_strerror(zmq_errno()));
}

void kn_publish_status(kn_kernel *k, const char *state, const char *parent) {
    char content[64];
    snprintf(content, sizeof content, "{\"execution_state\":\"%s\"}", state);
    kn_publish(k, "status", parent, content, NULL, NULL, 0);
}

void kn_reply(kn_kernel *k, void *sock, const kn_msg *req, const char *msg_type,
              const char *content, const char *metadata) {
    pthread_mutex_lock(&k->send_lock);
    int rc = k->closing ? 0 : kn_msg_send(&k->session, sock, req->ids, req->n_ids, msg_type,
                                          req->header.data, metadata, content, NULL, 0);
    pthread_mutex_unlock(&k->send_lock);
    if (rc < 0 && zmq_errno() != ETERM)
        kn_log("cannot send %s: %s", msg_type, zmq_strerror(zmq_errno()));
}

bool kn_reply_type(const char *request_type, char *out, size_t outlen) {
    size_t n = strlen(request_type);
    /* the reply's type goes into a header built as text: only plain names qualify */
    if (strspn(request_type, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n)
        return false;
    const char *suffix = "_request";
    if (n <= strlen(suffix) || strcmp(request_type + n - strlen(suffix), suffix) != 0 ||
        n + 1 > outlen)
        return false;
    snprintf(out, outlen, "%.*s_reply", (int)(n - strlen(suffix)), request_type);
    return true;
}

void kn_interrupt_main(kn_kernel *k) {
    /* One path for both interrupt modes: the SIGINT goes to the thread running cells, where
     * Python's handler (and any handler chained after it) turns it into KeyboardInterrupt. */
    pthread_kill(k->main_thread, SIGINT);
}

void kn_handle_shutdown(kn_kernel *k, void *sock, const kn_msg *req) {
    cJSON *content = cJSON_ParseWithLength(req->content.data, req->content.len);
    bool restart = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(content, "restart"));
    cJSON_Delete(content);
    char reply[64];
    snprintf(reply, sizeof reply, "{\"status\":\"ok\",\"restart\":%s}", restart ? "true" : "false");
    kn_reply(k, sock, req, "shutdown_reply", reply, NULL);
    /* ipykernel also tells every iopub subscriber the kernel is going away */
    kn_publish(k, "shutdown_reply", req->header.data, reply, NULL, NULL, 0);
    atomic_store(&k->restart_requested, restart);
    atomic_store(&k->shutdown_requested, true);
    kn_log("shutdown requested%s", restart ? " (restart)" : "");
}

/* Control requests never touch Python, so they are answered even while a cell holds the GIL. */
static void handle_control(kn_kernel *k, kn_msg *m) {
    kn_publish_status(k, "busy", m->header.data);
    char reply_type[128];
    if (strcmp(m->msg_type, "kernel_info_request") == 0) {
        kn_reply(k, k->control, m, "kernel_info_reply", k->kernel_info, NULL);
    } else if (strcmp(m->msg_type, "interrupt_request") == 0) {
        if (atomic_load(&k->running_request)) kn_interrupt_main(k);
        kn_reply(k, k->control, m, "interrupt_reply", "{\"status\":\"ok\"}", NULL);
    } else if (strcmp(m->msg_type, "shutdown_request") == 0) {
        kn_handle_shutdown(k, k->control, m);
        if (atomic_load(&k->running_request)) kn_interrupt_main(k); /* end the running cell */
        zmq_send(k->wake_tx, "", 0, ZMQ_DONTWAIT);
    } else if (kn_reply_type(m->msg_type, reply_type, sizeof reply_type)) {
        kn_log("control: %s is not served on the control channel", m->msg_type);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "status", "error");
        cJSON_AddStringToObject(c, "ename", "UnsupportedRequest");
        char evalue[200];
        snprintf(evalue, sizeof evalue, "%s is not served on the control channel", m->msg_type);
        cJSON_AddStringToObject(c, "evalue", evalue);
        cJSON_AddArrayToObject(c, "traceback");
        char *text = cJSON_PrintUnformatted(c);
        cJSON_Delete(c);
        kn_reply(k, k->control, m, reply_type, text, NULL);
        free(text);
    } else {
        kn_log("control: ignored unknown message type %s", m->msg_type);
    }
    kn_publish_status(k, "idle", m->header.data);
}

/* Stops the main loop (and the cell it runs) when the process that started the kernel is gone,
 * as ipykernel's parent poller does: a kernel whose notebook server was killed would otherwise
 * live on as an orphan holding its ports. */
static void stop_if_orphaned(kn_kernel *k, pid_t parent) {
    if (parent <= 1 || getppid() == parent || atomic_load(&k->shutdown_requested)) return;
    kn_log("the parent process %d is gone; shutting down", (int)parent);
    atomic_store(&k->shutdown_requested, true);
    if (atomic_load(&k->running_request)) kn_interrupt_main(k);
    zmq_send(k->wake_tx, "", 0, ZMQ_DONTWAIT);
}

static void *control_thread(void *arg) {
    kn_kernel *k = arg;
    pid_t parent = getppid();
    for (;;) {
        zmq_pollitem_t item = {k->control, 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&item, 1, PARENT_CHECK_MS);
        if (rc < 0 && zmq_errno() == ETERM) break;
        stop_if_orphaned(k, parent);
        if (rc <= 0) continue;
        kn_msg m;
        kn_recv_status st = kn_msg_recv(&k->session, k->control, true, &m);
        if (st == KN_RECV_CLOSED) break;
        if (st != KN_RECV_OK) continue;
        handle_control(k, &m);
        kn_msg_free(&m);
    }
    return NULL;
}

static void *heartbeat_thread(void *arg) {
    kn_kernel *k = arg;
    for (;;) {
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        if (zmq_msg_recv(&msg, k->hb, 0) < 0) {
            zmq_msg_close(&msg);
            if (zmq_errno() == EINTR) continue;
            break;
        }
        int more = zmq_msg_more(&msg);
        if (zmq_msg_send(&msg, k->hb, more ? ZMQ_SNDMORE : 0) < 0) {
            zmq_msg_close(&msg);
            if (zmq_errno() == ETERM) break;
        }
    }
    return NULL;
}

bool kn_channels_start_threads(kn_kernel *k) {
    k->main_thread = pthread_self();
    k->hb_started = kn_thread_start(&k->hb_thread, heartbeat_thread, k);
    k->control_started = k->hb_started && kn_thread_start(&k->control_thread, control_thread, k);
    return k->control_started;
}

void kn_channels_close(kn_kernel *k) {
    if (!k->ctx) return;
    pthread_mutex_lock(&k->send_lock);
    k->closing = true;
    pthread_mutex_unlock(&k->send_lock);
    zmq_ctx_shutdown(k->ctx); /* blocking calls in the other threads return ETERM */
    if (k->hb_started) pthread_join(k->hb_thread, NULL);
    if (k->control_started) pthread_join(k->control_thread, NULL);
    void **socks[] = {&k->shell, &k->control, &k->stdin_sock, &k->iopub, &k->hb, &k->wake_rx,
                      &k->wake_tx};
    for (size_t i = 0; i < sizeof socks / sizeof socks[0]; i++)
        if (*socks[i]) {
            zmq_close(*socks[i]);
            *socks[i] = NULL;
        }
    zmq_ctx_term(k->ctx);
    k->ctx = NULL;
    free(k->kernel_info);
    k->kernel_info = NULL;
    pthread_mutex_destroy(&k->send_lock);
}
