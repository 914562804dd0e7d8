/* The main loop: requests on the shell socket, one at a time, on the thread that owns Python.
 * Every request is framed by busy / idle on iopub; an execute that fails with stop_on_error
 * aborts the executes already queued behind it, as ipykernel does. */
#include "kernel/kernel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

typedef struct msg_queue {
    kn_msg *v;
    size_t n, cap;
} msg_queue;

/* Takes every message already waiting on shell, without handling it. */
static void take_waiting(kn_kernel *k, msg_queue *q) {
    for (;;) {
        kn_msg m;
        kn_recv_status st = kn_msg_recv(&k->session, k->shell, true, &m);
        if (st == KN_RECV_NONE || st == KN_RECV_CLOSED) return;
        if (st != KN_RECV_OK) continue;
        if (q->n == q->cap) {
            size_t cap = q->cap ? 2 * q->cap : 16;
            kn_msg *v = realloc(q->v, cap * sizeof *v);
            if (!v) { /* cannot keep it for its aborted reply: drop it, loudly */
                kn_log("dropped queued %s while aborting: out of memory", m.msg_type);
                kn_msg_free(&m);
                continue;
            }
            q->v = v;
            q->cap = cap;
        }
        q->v[q->n++] = m;
    }
}

/* One request. `aborting`: an execute is answered "aborted" instead of run. When an execute
 * fails with stop_on_error, the requests already waiting are moved into `aborted` before the
 * reply goes out, so that only those, and not the ones the client sends after seeing the
 * reply, are aborted. */
static void handle_shell(kn_kernel *k, kn_msg *m, bool aborting, msg_queue *aborted) {
    kn_interp_discard_pending_interrupt();
    atomic_store(&k->running_request, true);
    kn_publish_status(k, "busy", m->header.data);
    char reply_type[128];
    bool is_request = kn_reply_type(m->msg_type, reply_type, sizeof reply_type);
    if (strcmp(m->msg_type, "kernel_info_request") == 0) {
        kn_reply(k, k->shell, m, "kernel_info_reply", k->kernel_info, NULL);
    } else if (strcmp(m->msg_type, "shutdown_request") == 0) {
        kn_handle_shutdown(k, k->shell, m);
    } else if (aborting && strcmp(m->msg_type, "execute_request") == 0) {
        kn_log("aborted execute_request %s after an error (stop_on_error)", m->msg_id);
        kn_reply(k, k->shell, m, "execute_reply", "{\"status\":\"aborted\"}", "{\"status\":\"aborted\"}");
    } else {
        bool stop = false;
        char *reply = kn_interp_handle(m, &stop);
        if (stop && aborted) take_waiting(k, aborted);
        if (reply && is_request)
            kn_reply(k, k->shell, m, reply_type, reply, NULL);
        else if (reply)
            kn_log("shell: %s is not a request; its answer is dropped", m->msg_type);
        free(reply);
    }
    atomic_store(&k->running_request, false);
    kn_publish_status(k, "idle", m->header.data);
}

/* Handles every message waiting on shell; false once the context is closing. */
static bool serve_pending(kn_kernel *k) {
    for (;;) {
        kn_msg m;
        kn_recv_status st = kn_msg_recv(&k->session, k->shell, true, &m);
        if (st == KN_RECV_NONE) return true;
        if (st == KN_RECV_CLOSED) return false;
        if (st != KN_RECV_OK) continue;
        msg_queue aborted = {0};
        handle_shell(k, &m, false, &aborted);
        kn_msg_free(&m);
        for (size_t i = 0; i < aborted.n; i++) {
            handle_shell(k, &aborted.v[i], true, NULL);
            kn_msg_free(&aborted.v[i]);
        }
        free(aborted.v);
        if (atomic_load(&k->shutdown_requested)) return true;
    }
}

void kn_shell_loop(kn_kernel *k) {
    kn_publish_status(k, "starting", NULL);
    while (!atomic_load(&k->shutdown_requested)) {
        zmq_pollitem_t items[] = {{k->shell, 0, ZMQ_POLLIN, 0}, {k->wake_rx, 0, ZMQ_POLLIN, 0}};
        kn_interp_release_gil();
        int rc = zmq_poll(items, 2, -1);
        int err = zmq_errno();
        kn_interp_acquire_gil();
        if (rc < 0) {
            if (err == EINTR) continue; /* a SIGINT while idle; discarded before the next cell */
            kn_log("shell poll failed: %s", zmq_strerror(err));
            break;
        }
        if (items[1].revents & ZMQ_POLLIN) {
            char byte;
            zmq_recv(k->wake_rx, &byte, 1, ZMQ_DONTWAIT);
        }
        if (!serve_pending(k)) break;
    }
}
