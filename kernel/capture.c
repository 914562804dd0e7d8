/* Output captured at the file-descriptor level: fd 1 and fd 2 become pipes read by one thread,
 * so that printf from C, from compiled code and from child processes lands in the cell that
 * produced it, in order with Python's own prints (which also go through fd 1 / fd 2).
 *
 * Output is coalesced: a stream message is sent when its text has waited FLUSH_DELAY_MS, grew
 * past FLUSH_BYTES, or the other stream starts writing, and at every request boundary. So a loop
 * printing 100,000 lines arrives as a handful of large messages, complete and in order.
 *
 * Locking: `lock` guards the buffers, the parent header and the pipe reads; both the reader
 * thread and the main thread (at request boundaries) drain the pipes while holding it. */
#define _GNU_SOURCE
#include "kernel/kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FLUSH_DELAY_MS 50
#define FLUSH_BYTES (1u << 20)
#define PIPE_BYTES (1 << 20)
#define BATCH_PAUSE_NS 1000000

typedef struct stream {
    const char *name;
    int target_fd;  /* 1 or 2 */
    int saved_fd;   /* the original, restored at stop */
    int read_fd;
    char *buf;
    size_t len, cap;
    double first_ms; /* when the oldest pending byte arrived */
} stream;

static struct {
    kn_kernel *k;
    pthread_mutex_t lock;
    stream out[2];
    char *parent; /* raw header of the request output belongs to; NULL before any */
    int stop_pipe[2];
    pthread_t reader;
    bool running;
} cap = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Sends the pending text of one stream (lock held). `all`: also a trailing partial sequence. */
static void send_stream(stream *st, bool all) {
    size_t n = all ? st->len : kn_utf8_complete_prefix((unsigned char *)st->buf, st->len);
    if (n == 0) return;
    /* written as text: cJSON's strings end at a NUL, and Python prints NULs */
    char *text = kn_utf8_json_string((unsigned char *)st->buf, n);
    size_t len = text ? strlen(text) + strlen(st->name) + 32 : 0;
    char *json = text ? malloc(len) : NULL;
    if (json) snprintf(json, len, "{\"name\":\"%s\",\"text\":%s}", st->name, text);
    free(text);
    if (json) kn_publish(cap.k, "stream", cap.parent, json, NULL, NULL, 0);
    else kn_log("dropped %zu bytes of %s: out of memory", n, st->name);
    free(json);
    memmove(st->buf, st->buf + n, st->len - n);
    st->len -= n;
    st->first_ms = now_ms();
}

static void append(stream *st, const char *data, size_t n) {
    if (st->len + n > st->cap) {
        size_t cap = st->cap ? st->cap : 65536;
        while (cap < st->len + n) cap *= 2;
        char *b = realloc(st->buf, cap);
        if (!b) {
            kn_log("dropped %zu bytes of %s: out of memory", n, st->name);
            return;
        }
        st->buf = b;
        st->cap = cap;
    }
    if (st->len == 0) st->first_ms = now_ms();
    memcpy(st->buf + st->len, data, n);
    st->len += n;
}

/* Reads what the pipe holds now (lock held). Returns false at end of file. */
static bool drain(int i) {
    stream *st = &cap.out[i], *other = &cap.out[1 - i];
    char chunk[65536];
    for (;;) {
        ssize_t n = read(st->read_fd, chunk, sizeof chunk);
        if (n > 0) {
            /* the other stream wrote first: send its text so the two stay in order */
            if (other->len) send_stream(other, true);
            append(st, chunk, (size_t)n);
            if (st->len >= FLUSH_BYTES) send_stream(st, false);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        return n != 0;
    }
}

static void *reader_thread(void *arg) {
    (void)arg;
    bool open[2] = {true, true};
    while (open[0] || open[1]) {
        struct pollfd p[3] = {
            {cap.out[0].read_fd, POLLIN, 0},
            {cap.out[1].read_fd, POLLIN, 0},
            {cap.stop_pipe[0], POLLIN, 0},
        };
        if (!open[0]) p[0].fd = -1;
        if (!open[1]) p[1].fd = -1;
        int timeout = -1;
        pthread_mutex_lock(&cap.lock);
        for (int i = 0; i < 2; i++)
            if (cap.out[i].len) {
                int left = (int)(cap.out[i].first_ms + FLUSH_DELAY_MS - now_ms());
                if (left < 0) left = 0;
                if (timeout < 0 || left < timeout) timeout = left;
            }
        pthread_mutex_unlock(&cap.lock);
        int rc = poll(p, 3, timeout);
        if (rc < 0 && errno != EINTR) break;
        pthread_mutex_lock(&cap.lock);
        for (int i = 0; i < 2; i++)
            if (open[i] && (p[i].revents & (POLLIN | POLLHUP))) open[i] = drain(i);
        double t = now_ms();
        for (int i = 0; i < 2; i++)
            if (cap.out[i].len && t - cap.out[i].first_ms >= FLUSH_DELAY_MS) send_stream(&cap.out[i], false);
        pthread_mutex_unlock(&cap.lock);
        if (p[2].revents) break;
        /* a writer that just wrote usually writes more: let it fill the pipe for a moment
         * instead of waking for every line (100,000 prints become ~100 reads) */
        if (rc > 0) nanosleep(&(struct timespec){0, BATCH_PAUSE_NS}, NULL);
    }
    return NULL;
}

bool kn_capture_start(kn_kernel *k) {
    cap.k = k;
    cap.out[0] = (stream){.name = "stdout", .target_fd = 1, .saved_fd = -1, .read_fd = -1};
    cap.out[1] = (stream){.name = "stderr", .target_fd = 2, .saved_fd = -1, .read_fd = -1};
    if (pipe2(cap.stop_pipe, O_CLOEXEC) != 0) return false;
    for (int i = 0; i < 2; i++) {
        stream *st = &cap.out[i];
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) return false;
        fcntl(fds[0], F_SETPIPE_SZ, PIPE_BYTES); /* fewer writer stalls; best effort */
        fcntl(fds[0], F_SETFL, O_NONBLOCK);
        fflush(i == 0 ? stdout : stderr);
        st->saved_fd = fcntl(st->target_fd, F_DUPFD_CLOEXEC, 3);
        if (st->saved_fd < 0 || dup2(fds[1], st->target_fd) < 0) return false;
        close(fds[1]); /* fd 1/2 is now the only write end: children inherit it */
        st->read_fd = fds[0];
    }
    /* C stdio on a pipe is fully buffered; by line keeps printf in order with Python's prints */
    setvbuf(stdout, NULL, _IOLBF, 0);
    cap.running = kn_thread_start(&cap.reader, reader_thread, NULL);
    return cap.running;
}

void kn_capture_flush(void) {
    if (!cap.running) return;
    pthread_mutex_lock(&cap.lock);
    for (int i = 0; i < 2; i++) drain(i);
    for (int i = 0; i < 2; i++) send_stream(&cap.out[i], true);
    pthread_mutex_unlock(&cap.lock);
}

void kn_capture_set_parent(const char *parent) {
    char *copy = parent ? strdup(parent) : NULL;
    pthread_mutex_lock(&cap.lock);
    if (cap.running) {
        for (int i = 0; i < 2; i++) drain(i);
        for (int i = 0; i < 2; i++) send_stream(&cap.out[i], true);
    }
    free(cap.parent);
    cap.parent = copy;
    pthread_mutex_unlock(&cap.lock);
}

void kn_capture_stop(void) {
    if (!cap.running) return;
    fflush(stdout);
    fflush(stderr);
    kn_capture_flush();
    /* restore the original fds: the pipes' write ends close, the reader sees end of file */
    for (int i = 0; i < 2; i++) dup2(cap.out[i].saved_fd, cap.out[i].target_fd);
    ssize_t w = write(cap.stop_pipe[1], "x", 1);
    (void)w;
    pthread_join(cap.reader, NULL);
    cap.running = false;
    for (int i = 0; i < 2; i++) {
        close(cap.out[i].saved_fd);
        close(cap.out[i].read_fd);
        free(cap.out[i].buf);
        cap.out[i].buf = NULL;
    }
    close(cap.stop_pipe[0]);
    close(cap.stop_pipe[1]);
    free(cap.parent);
    cap.parent = NULL;
}
