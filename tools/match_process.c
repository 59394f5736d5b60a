/* tools/match_process.c: engine child processes for `nnue match` (see match_process.h). */
#include "tools/match_process.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int proc_start(engine_proc *p, const char *command)
{
    memset(p, 0, sizeof *p);
    int in[2], out[2];
    if (pipe(in) != 0)
        return -1;
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]);
        return -1;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine is seen as a failed write, not a signal */
    p->pid = fork();
    if (p->pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->to = fdopen(in[1], "w");
    p->from = out[0];
    return p->to ? 0 : -1;
}

int proc_send(engine_proc *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int bad = vfprintf(p->to, fmt, ap) < 0;
    va_end(ap);
    bad |= fputc('\n', p->to) == EOF;
    bad |= fflush(p->to) != 0;
    return bad ? -1 : 0;
}

int proc_read_line(engine_proc *p, char *line, size_t size, long long timeout_ms)
{
    long long deadline = clock_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl || p->len == sizeof p->buf) {
            size_t n = nl ? (size_t)(nl - p->buf) : p->len;
            size_t copy = n < size - 1 ? n : size - 1;
            memcpy(line, p->buf, copy);
            line[copy] = 0;
            if (copy && line[copy - 1] == '\r')
                line[copy - 1] = 0;
            size_t used = nl ? n + 1 : n;
            memmove(p->buf, p->buf + used, p->len - used);
            p->len -= used;
            return 1;
        }
        long long left = deadline - clock_ms();
        if (left <= 0)
            return 0;
        struct pollfd fd = {p->from, POLLIN, 0};
        int r = poll(&fd, 1, (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r == 0 ? 0 : -1;
        ssize_t got = read(p->from, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p->len += (size_t)got;
    }
}

int proc_wait_for(engine_proc *p, const char *prefix, char *line, size_t size, long long timeout_ms)
{
    char buf[4096];
    long long deadline = clock_ms() + timeout_ms;
    for (;;) {
        int r = proc_read_line(p, buf, sizeof buf, deadline - clock_ms());
        if (r <= 0)
            return r;
        if (strncmp(buf, prefix, strlen(prefix)) == 0) {
            if (line)
                snprintf(line, size, "%s", buf);
            return 1;
        }
    }
}

void proc_stop(engine_proc *p)
{
    if (p->pid <= 0)
        return;
    if (p->to) {
        proc_send(p, "quit");
        fclose(p->to);
        p->to = NULL;
    }
    for (int i = 0; i < 100; i++) {
        if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
            p->pid = 0;
            break;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
    close(p->from);
}
