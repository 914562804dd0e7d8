/* At shutdown, the processes cells started and left running (a server, a shell pipeline, and
 * what those started in turn) are stopped too, as ipykernel does, so that a kernel leaves no
 * orphans behind: SIGTERM first, SIGKILL after a grace period. Descendants are found through
 * /proc, so children that moved to their own process group are found as well. */
#define _GNU_SOURCE
#include "kernel/kernel.h"

#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 8192

typedef struct proc {
    pid_t pid, ppid;
} proc;

/* State letter and parent pid from /proc/<pid>/stat; false when the process is gone. */
static bool read_stat(pid_t pid, char *state, pid_t *ppid) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    const char *close_paren = strrchr(line, ')'); /* the command name may hold spaces */
    int parent;
    if (!close_paren || sscanf(close_paren + 1, " %c %d", state, &parent) != 2) return false;
    *ppid = (pid_t)parent;
    return true;
}

/* Every descendant of this process, parents before their children. */
static size_t list_descendants(pid_t *out, size_t max) {
    static proc all[MAX_PROCS]; /* only the main thread runs this, once, at exit */
    size_t n_all = 0, n = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n_all < MAX_PROCS) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        pid_t pid = (pid_t)atoi(e->d_name), ppid;
        char state;
        if (read_stat(pid, &state, &ppid)) all[n_all++] = (proc){pid, ppid};
    }
    closedir(d);
    pid_t self = getpid();
    for (size_t i = 0; i < n_all && n < max; i++) /* direct children */
        if (all[i].ppid == self) out[n++] = all[i].pid;
    for (size_t head = 0; head < n; head++) /* then theirs, breadth first */
        for (size_t i = 0; i < n_all && n < max; i++)
            if (all[i].ppid == out[head]) out[n++] = all[i].pid;
    return n;
}

/* Reaps what has exited; returns how many of pids are still running. */
static size_t still_running(pid_t *pids, size_t n) {
    size_t alive = 0;
    for (size_t i = 0; i < n; i++) {
        if (pids[i] <= 0) continue;
        waitpid(pids[i], NULL, WNOHANG); /* our own children become zombies until reaped */
        char state;
        pid_t ppid;
        if (!read_stat(pids[i], &state, &ppid)) state = 'X';
        if (state == 'Z' || state == 'X') pids[i] = 0;
        else alive++;
    }
    return alive;
}

void kn_stop_children(int grace_ms) {
    static pid_t pids[MAX_PROCS];
    size_t n = list_descendants(pids, MAX_PROCS);
    if (n == 0) return;
    kn_log("stopping %zu process(es) started by cells", n);
    for (size_t i = 0; i < n; i++) kill(pids[i], SIGTERM);
    for (int waited = 0; still_running(pids, n) && waited < grace_ms; waited += 20)
        nanosleep(&(struct timespec){0, 20 * 1000000}, NULL);
    for (size_t i = 0; i < n; i++)
        if (pids[i] > 0) kill(pids[i], SIGKILL);
    still_running(pids, n);
}
