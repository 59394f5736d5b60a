/* examples/engine/time_budget.c: how long to think, from the "go" parameters.
 *
 * movetime: all of it minus a safety margin (the overhead), as a hard limit only: the time is
 * granted for this move alone, so nothing is saved by stopping an iteration early. A clock: the remaining time shared over the moves
 * to go (movestogo, else 30), plus most of the increment; USI byoyomi is time granted again
 * on every move, so nearly all of it is used. The hard limit (checked during the search)
 * lets an unfinished iteration run on to at most a few times the target, never past a quarter
 * of the clock. depth, nodes, infinite alone: no time limit. */
#include <time.h>

#include "engine.h"

long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long long at_least_1(long long v)
{
    return v < 1 ? 1 : v;
}

void time_budget(const nnue_go_limits *go, int colour, int usi, long long overhead, long long *soft,
                 long long *hard)
{
    *soft = *hard = -1;
    if (go->infinite)
        return;
    if (go->movetime >= 0) {
        *hard = at_least_1(go->movetime - overhead);
        return;
    }
    /* UCI: wtime is the first mover's (white); USI: btime is the first mover's (black, sente). */
    int first = (colour == 0);
    long long time = usi ? (first ? go->btime : go->wtime) : (first ? go->wtime : go->btime);
    long long inc = usi ? (first ? go->binc : go->winc) : (first ? go->winc : go->binc);
    long long byoyomi = go->byoyomi > 0 ? go->byoyomi : 0;
    if (time < 0 && byoyomi == 0)
        return;
    if (time < 0)
        time = 0;
    if (inc < 0)
        inc = 0;
    int moves_to_go = go->movestogo > 0 ? (go->movestogo < 30 ? go->movestogo : 30) : 30;
    long long target = time / moves_to_go + inc * 3 / 4 + byoyomi * 9 / 10;
    long long cap = time / 4 + inc + byoyomi - overhead;   /* never more than this */
    *hard = at_least_1(target * 3 < cap ? target * 3 : cap);
    *soft = at_least_1(target - overhead < *hard ? target - overhead : *hard);
}
