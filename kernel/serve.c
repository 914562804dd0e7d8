/* The kernel proper: `_kiln_kernel.serve(connection_file)`, called by kernel/py/kiln_kernel_main.py
 * in /usr/bin/python3 once kiln-kernel has exec'd it (kernel/launch.c says why). It opens the
 * sockets, starts the channel and capture threads, serves requests on this, Python's main
 * thread, until a shutdown, and closes everything again before returning. */
#include "kernel/kernel.h"

#include <signal.h>

#define CHILD_GRACE_MS 1000 /* how long a cell's leftover process gets to end on SIGTERM */

int kn_serve(const char *connection_file, bool *finalize) {
    static kn_kernel k; /* one per process; its threads and the interpreter refer to it */
    char err[512];
    *finalize = true;
    kn_log_init();
    bool loaded = kn_connection_load(connection_file, &k.conn, err, sizeof err);
    if (!loaded || !kn_session_init(&k.session, k.conn.key, k.conn.key_len,
                                    k.conn.signature_scheme, err, sizeof err)) {
        kn_log("%s", err);
        kn_connection_free(&k.conn);
        return 1;
    }
    kn_connection_free(&k.conn); /* the session keeps its own copy of the key */
    if (!k.session.key_len)
        kn_log("the connection file's key is empty: messages are neither signed nor checked");
    /* SIGINT stays blocked in every thread but this one (zmq's own threads included): an
     * interrupt must reach the thread running the cell. */
    sigset_t sigint, old;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigint, &old);
    int status = 1;
    bool ok = kn_channels_open(&k, err, sizeof err);
    if (!ok) kn_log("%s", err);
    ok = ok && kn_channels_start_threads(&k);
    ok = ok && kn_capture_start(&k);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    ok = ok && kn_fatal_start(&k);
    if (ok && kn_interp_init(&k, connection_file)) {
        kn_log("ready: session %s, %s", k.session.id, connection_file);
        kn_shell_loop(&k);
        status = 0;
    } else {
        kn_log("start-up failed");
    }
    *finalize = kn_interp_finish();
    kn_stop_children(CHILD_GRACE_MS);
    kn_capture_stop();
    kn_fatal_stop();
    kn_channels_close(&k);
    kn_session_free(&k.session);
    kn_log("stopped");
    return status;
}
