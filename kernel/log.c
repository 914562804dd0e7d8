/* The kernel's own log. fd 2 is captured into the notebook once cells run, so the log keeps a
 * duplicate of the stderr the kernel was started with (the terminal or jupyter's log). */
#include "kernel/kernel.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int log_fd = 2; /* written once in kn_log_init, before any thread starts */

void kn_log_init(void) {
    int fd = dup(2);
    if (fd >= 0) log_fd = fd;
}

int kn_log_fd(void) { return log_fd; }

void kn_log(const char *fmt, ...) {
    char line[2048];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "[kiln-kernel %02d:%02d:%02d.%03ld] ", tm.tm_hour,
                     tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) len = sizeof line - 2;
    line[len++] = '\n';
    /* one write() per line keeps lines from different threads whole */
    ssize_t w = write(log_fd, line, len);
    (void)w;
}
