/* kiln-kernel: `kiln-kernel -f CONNECTION_FILE` (how Jupyter starts it), `kiln-kernel install`,
 * `kiln-kernel --sysinfo`, `kiln-kernel --version`. */
#include "kernel/kernel.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define CHILD_GRACE_MS 1000 /* how long a cell's leftover process gets to end on SIGTERM */

static void usage(FILE *out) {
    fprintf(out,
            "usage: kiln-kernel -f CONNECTION_FILE     run as a Jupyter kernel\n"
            "       kiln-kernel install [--user | --prefix DIR | --sys-prefix]\n"
            "                                           install the \"kiln\" kernelspec\n"
            "       kiln-kernel --sysinfo               describe this machine for Kiln\n"
            "       kiln-kernel --version               print Kiln's version\n");
}

static int run_kernel(const char *argv0, const char *connection_file) {
    static kn_kernel k; /* one per process; its threads and the interpreter refer to it */
    char err[512];
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
    /* A kernel started from a background job inherits SIGINT ignored (POSIX), and CPython leaves
     * an ignored SIGINT ignored: no interrupt would ever reach a cell. */
    signal(SIGINT, SIG_DFL);
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
    if (ok && kn_interp_init(&k, argv0, connection_file)) {
        kn_log("ready: session %s, %s", k.session.id, connection_file);
        kn_shell_loop(&k);
        status = 0;
    } else {
        kn_log("start-up failed");
    }
    kn_interp_finalize();
    kn_stop_children(CHILD_GRACE_MS);
    kn_capture_stop();
    kn_fatal_stop();
    kn_channels_close(&k);
    kn_session_free(&k.session);
    kn_log("stopped");
    return status;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "install") == 0) return kn_install_main(argc - 1, argv + 1);
    if (argc == 2 && strcmp(argv[1], "--sysinfo") == 0) return kn_interp_run_sysinfo(argv[0]);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("kiln-kernel %s\n", KILN_VERSION);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "-f") == 0) return run_kernel(argv[0], argv[2]);
    if (argc == 2 && strncmp(argv[1], "--f=", 4) == 0) return run_kernel(argv[0], argv[1] + 4);
    usage(stderr);
    return 2;
}
