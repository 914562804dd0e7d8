/* The main loop: requests on the shell socket, one at a time, on the thread that owns Python.
 * Every request is framed by busy / idle on iopub; an execute that fails with stop_on_error
 * aborts the executes already queued behind it, as ipykernel does. */
#include "kernel/kernel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* Returns true when this request asks to abort the queue behind it. */
static bool handle_shell(kn_kernel *k, kn_msg *m, bool aborting) {
    kn_interp_discard_pending_interrupt();
    bool stop = false;
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
        char *reply = kn_interp_handle(k, m, &stop);
        if (reply && is_request)
            kn_reply(k, k->shell, m, reply_type, reply, NULL);
        else if (reply)
            kn_log("shell: %s is not a request; its answer is dropped", m->msg_type);
        free(reply);
    }
    atomic_store(&k->running_request, false);
    kn_publish_status(k, "idle", m->header.data);
    return stop;
}

/* Handles every message waiting on shell; false once the context is closing. */
static bool serve_pending(kn_kernel *k) {
    bool aborting = false;
    for (;;) {
        kn_msg m;
        kn_recv_status st = kn_msg_recv(&k->session, k->shell, true, &m);
        if (st == KN_RECV_NONE) return true;
        if (st == KN_RECV_CLOSED) return false;
        if (st != KN_RECV_OK) continue;
        if (handle_shell(k, &m, aborting)) aborting = true;
        kn_msg_free(&m);
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
