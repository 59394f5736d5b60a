/* tools/progress.h: a one-line progress bar on stderr (percentage, count, rate, ETA) for long
 * batch runs. Drawn only when enabled (the caller passes isatty(stderr) && !--quiet), at most
 * five times a second; the line is cleared at the end so that the summary stands alone. */
#ifndef NNUE_TOOLS_PROGRESS_H
#define NNUE_TOOLS_PROGRESS_H

#include <stdint.h>

typedef struct progress {
    int enabled;
    uint64_t total;        /* 0 = unknown (input from a pipe): no percentage, no ETA */
    double start, last_draw;
} progress;

/* Seconds on a monotonic clock. */
double progress_now(void);

void progress_start(progress *p, int enabled, uint64_t total);
void progress_update(progress *p, uint64_t done);
void progress_finish(progress *p);

#endif
