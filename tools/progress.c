/* tools/progress.c: the progress bar of tools/progress.h. */
#include "tools/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(progress *p, int enabled, uint64_t total)
{
    p->enabled = enabled;
    p->total = total;
    p->start = progress_now();
    p->last_draw = 0;
}

static void draw(const progress *p, uint64_t done, double now)
{
    double secs = now - p->start;
    double rate = secs > 0 ? (double)done / secs : 0;
    if (p->total) {
        uint64_t shown = done < p->total ? done : p->total;
        int width = 24, filled = (int)((double)width * (double)shown / (double)p->total);
        char bar[32];
        for (int i = 0; i < width; i++)
            bar[i] = i < filled ? '#' : '.';
        bar[width] = 0;
        double eta = rate > 0 ? (double)(p->total - shown) / rate : 0;
        fprintf(stderr, "\r%5.1f%% [%s] %" PRIu64 "/%" PRIu64 "  %.0f pos/s  ETA %d:%02d\033[K",
                100.0 * (double)shown / (double)p->total, bar, shown, p->total, rate, (int)eta / 60, (int)eta % 60);
    } else {
        fprintf(stderr, "\r%" PRIu64 " positions  %.0f pos/s  %d:%02d elapsed\033[K", done, rate, (int)secs / 60,
                (int)secs % 60);
    }
    fflush(stderr);
}

void progress_update(progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    double now = progress_now();
    if (now - p->last_draw < 0.2)
        return;
    p->last_draw = now;
    draw(p, done, now);
}

void progress_finish(progress *p)
{
    if (p->enabled && p->last_draw > 0) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}
