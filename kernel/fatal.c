/* Last words: when code in a cell kills the process (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT: a
 * null pointer through ctypes, os.abort(), a C stack overflow), the notebook is told on iopub which
 * signal and which cell, instead of seeing the kernel vanish; then the process dies as it would
 * have.
 *
 * Nothing is built in the handler: when a request starts, the message for each signal is built
 * and signed (kn_fatal_arm), and the handler only hands those frames to the iopub socket. It
 * takes send_lock with trylock, so that a thread that died holding it cannot hang the handler,
 * and an alarm ends the process should libzmq itself be stuck. */
#include "kernel/kernel.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ALT_STACK_BYTES (256 * 1024) /* after a stack overflow the handler runs here */
#define LOCK_TRIES 200               /* of 5 ms: another thread's send ends well within */
#define WIRE_MS 300                  /* for libzmq's I/O thread to write the message out */
#define ALARM_S 3                    /* the longest the process lingers in the handler */

static const struct {
    int sig;
    const char *name, *what;
} fatal[] = {
    {SIGSEGV, "SIGSEGV", "a segmentation fault: memory read or written where none is mapped"},
    {SIGBUS, "SIGBUS", "a bus error: memory that cannot be accessed"},
    {SIGILL, "SIGILL", "an illegal instruction"},
    {SIGFPE, "SIGFPE", "an arithmetic fault"},
    {SIGABRT, "SIGABRT", "abort() was called"},
};
#define N_FATAL (sizeof fatal / sizeof fatal[0])

typedef struct words {
    kn_prepared msg[N_FATAL];
} words;

static kn_kernel *kernel;
static words *_Atomic current; /* what the handler sends; NULL: nothing */
static words *retired;         /* the set before current, freed at the next change (main thread) */
static words *idle;            /* between requests: no parent, no cell */
static atomic_int dying;
static void *alt_stack;        /* kept for the process's life */
static char log_line[N_FATAL][96]; /* written before the handler is installed */

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) continue;
}

static void last_words(int sig) {
    size_t i = 0;
    while (i < N_FATAL && fatal[i].sig != sig) i++;
    words *w = atomic_load(&current);
    if (i == N_FATAL || !w) return;
    ssize_t logged = write(kn_log_fd(), log_line[i], strlen(log_line[i]));
    (void)logged;
    signal(SIGALRM, SIG_DFL);
    alarm(ALARM_S);
    bool locked = false;
    for (int t = 0; t < LOCK_TRIES && !locked; t++) {
        locked = pthread_mutex_trylock(&kernel->send_lock) == 0;
        if (!locked) sleep_ms(5);
    }
    /* the lock stays held: no other message may follow this one */
    if (!locked || kernel->closing || kn_msg_send_prepared(kernel->iopub, &w->msg[i]) < 0) return;
    sleep_ms(WIRE_MS);
}

static void on_fatal(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    int saved_errno = errno;
    if (atomic_exchange(&dying, 1) == 0) last_words(sig);
    /* then the default action: at once for a signal that was sent (abort() raises one); for a
     * fault, when the instruction runs again after the return */
    signal(sig, SIG_DFL);
    if (info->si_code <= 0) raise(sig);
    errno = saved_errno;
}

static void free_words(words *w) {
    if (!w) return;
    for (size_t i = 0; i < N_FATAL; i++) free(w->msg[i].data);
    free(w);
}

/* The messages for parent (NULL: none), `during` saying what ran ("" for nothing). */
static words *build(const char *parent, const char *during) {
    words *w = calloc(1, sizeof *w);
    char topic[128];
    snprintf(topic, sizeof topic, "kernel.%s.error", kernel->session.id);
    kn_frame t = {topic, strlen(topic)};
    for (size_t i = 0; w && i < N_FATAL; i++) {
        char evalue[256], line[512];
        snprintf(evalue, sizeof evalue, "the kernel died: %s%s", fatal[i].name, during);
        snprintf(line, sizeof line, "%s (%s); its variables are lost", evalue, fatal[i].what);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "ename", "KernelDied");
        cJSON_AddStringToObject(c, "evalue", evalue);
        cJSON_AddItemToObject(c, "traceback", cJSON_CreateStringArray((const char *[]){line}, 1));
        char *content = cJSON_PrintUnformatted(c);
        cJSON_Delete(c);
        bool ok = content && kn_msg_prepare(&kernel->session, &t, "error", parent, content, &w->msg[i]);
        free(content);
        if (!ok) {
            free_words(w);
            w = NULL;
        }
    }
    if (!w) kn_log("cannot prepare the message for a fatal signal: out of memory");
    return w;
}

/* Makes w what the handler sends; the set it replaces is freed at the next change, since the
 * handler, on another thread, may be reading it now. */
static void make_current(words *w) {
    words *old = atomic_exchange(&current, w);
    if (atomic_load(&dying)) return;
    if (retired != idle) free_words(retired);
    retired = old;
}

bool kn_fatal_start(kn_kernel *k) {
    kernel = k;
    idle = build(NULL, "");
    if (!idle) return false;
    atomic_store(&current, idle);
    /* the main thread's alternate stack; compiled code's fault handler (jit/runtime/fault.c) uses the one
     * a thread has */
    alt_stack = malloc(ALT_STACK_BYTES);
    stack_t ss = {.ss_sp = alt_stack, .ss_size = ALT_STACK_BYTES};
    if (alt_stack && sigaltstack(&ss, NULL) != 0) kn_log("no alternate signal stack: %s", strerror(errno));
    for (size_t i = 0; i < N_FATAL; i++)
        snprintf(log_line[i], sizeof log_line[i], "[kiln-kernel] dying of %s; telling iopub\n",
                 fatal[i].name);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FATAL; i++)
        if (sigaction(fatal[i].sig, &sa, NULL) != 0) {
            kn_log("cannot handle %s: %s", fatal[i].name, strerror(errno));
            return false;
        }
    return true;
}

void kn_fatal_arm(const char *parent, const char *during) {
    if (!kernel) return;
    words *w = build(parent, during);
    make_current(w ? w : idle);
}

void kn_fatal_disarm(void) {
    if (kernel) make_current(idle);
}

void kn_fatal_stop(void) {
    if (!kernel) return;
    make_current(NULL);
    make_current(NULL); /* retires and frees the last request's set */
    free_words(idle);
    idle = retired = NULL;
}
