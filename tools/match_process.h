/* tools/match_process.h: an engine program run as a child process, spoken to over pipes, one
 * text line at a time (for `nnue match`). */
#ifndef NNUE_TOOLS_MATCH_PROCESS_H
#define NNUE_TOOLS_MATCH_PROCESS_H

#include <stdio.h>
#include <sys/types.h>

typedef struct engine_proc {
    pid_t pid;
    FILE *to;              /* the engine's stdin */
    int from;              /* the engine's stdout (stderr is left to the terminal) */
    char buf[1 << 16];
    size_t len;            /* bytes in buf not yet returned as lines */
} engine_proc;

/* Runs `command` through /bin/sh. Returns 0, or -1 (errno set) if it cannot be started. */
int proc_start(engine_proc *p, const char *command);

/* Writes one line (a newline is added) and flushes. Returns 0, or -1 when the engine is gone. */
int proc_send(engine_proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Next line without its newline: 1, 0 when timeout_ms passed first, -1 at the end of output. */
int proc_read_line(engine_proc *p, char *line, size_t size, long long timeout_ms);

/* Reads lines until one starts with `prefix` (copied into line if non-NULL): 1, 0 on timeout,
 * -1 at the end of output. */
int proc_wait_for(engine_proc *p, const char *prefix, char *line, size_t size, long long timeout_ms);

/* Sends quit, waits up to a second, then kills it. */
void proc_stop(engine_proc *p);

#endif
