/* core/net/known_nets.c: the release nets of Stockfish by SHA-256, and the SFNNv4/v5 default.
 * Facts: each Stockfish release names its default net nn-<sha256[0:12]>.nnue (EvalFileDefaultName
 * in evaluate.h); the architecture of each release is in shared/oracle/chess/FORMATS.md section 1
 * (v4 = sf_15, v5 = sf_15.1); SFNNv5 came to Stockfish's master with nn-3c0aa92af1da (May 2022)
 * and every later net with those hashes has the v5 layout, which makes v5 the better guess for an
 * unknown file. The random nets of shared/oracle/chess (FORMATS.md section 8, sha256 listed there)
 * were the default nets of sf_15 / sf_15.1 builds and are listed too. Stockfish 19's net and its
 * architecture: docs/formats-sfnnv16.md. Stockfish 17's and 17.1's big nets and their small net
 * (EvalFileDefaultNameBig / Small of sf_17 and sf_17.1; 18 keeps that small net; 17's L1 is 3072
 * as 17.1's, nnue_architecture.h) and 18's big net: shared/oracle/chess (FORMATS.md
 * section 9), the nets the release packages embed (shared/nets/stockfish-nets). */
#include "core/net/known_nets.h"

#include <string.h>

/* Stockfish 17's and 17.1's to_cp coefficients (uci.cpp of sf_17, sf_17.1; docs/units.md). */
static const double sf17_0[] = {-37.45051876, 121.19101539, -132.78783573, 420.70576692};
static const double sf17_1[] = {-13.50030198, 40.92780883, -36.82753545, 386.83004070};

static const known_net table[] = {
    {"82215d0fd0df", "SFNNv1", "Stockfish 12 default net", NULL, NULL},
    {"62ef826d1a6d", "SFNNv1", "Stockfish 13 default net", NULL, NULL},
    {"3475407dc199", "SFNNv2", "Stockfish 14 default net", NULL, NULL},
    {"13406b1dcbe0", "SFNNv3", "Stockfish 14.1 default net", NULL, NULL},
    {"6877cd24400e", "SFNNv4", "Stockfish 15 default net", NULL, NULL},
    {"3c0aa92af1da", "SFNNv5", "first SFNNv5 net of Stockfish master (May 2022)", NULL, NULL},
    {"ad9b42354671", "SFNNv5", "Stockfish 15.1 default net", NULL, NULL},
    {"5af11540bbfe", "SFNNv6", "Stockfish 16 default net", NULL, NULL},
    {"1111cefa1111", "SFNNv9", "Stockfish 17 default net (big)", "Stockfish 17", sf17_0},
    {"1c0000000000", "SFNNv9", "Stockfish 17.1 default net (big)", "Stockfish 17.1", sf17_1},
    {"37f18f62d772", "SFNNv8-small", "Stockfish 17.1 and 18 small net", NULL, NULL},
    {"c288c895ea92", "SFNNv10", "Stockfish 18 default net (big)", NULL, NULL},
    {"1a298aa575a0", "SFNNv16", "Stockfish 19 default net", NULL, NULL},
    {"a85d884a0723", "SFNNv4", "random SFNNv4 test net of the oracle data (evaluated by sf_15)", NULL, NULL},
    {"1f384aa9369d", "SFNNv5", "random SFNNv5 test net of the oracle data (evaluated by sf_15.1)", NULL, NULL},
};

const known_net *known_net_find(const char *sha256_hex)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strncmp(sha256_hex, table[i].sha12, 12) == 0)
            return &table[i];
    return NULL;
}

const char *known_nets_default_choice(const char *const *names, int count)
{
    static const char *const v4_v5[] = {"SFNNv4", "SFNNv5"};
    int has_v5 = 0;
    for (int i = 0; i < count; i++) {
        if (strcmp(names[i], v4_v5[0]) != 0 && strcmp(names[i], v4_v5[1]) != 0)
            return NULL;
        has_v5 |= strcmp(names[i], v4_v5[1]) == 0;
    }
    return has_v5 ? v4_v5[1] : NULL;
}

int known_nets_written_for(const char *description, char *name, size_t size)
{
    static const char head[] = "Random net for ";
    if (!description || strncmp(description, head, sizeof head - 1) != 0)
        return 0;
    const char *start = description + sizeof head - 1, *end = strstr(start, " (seed ");
    if (!end || end == start || (size_t)(end - start) >= size || !strstr(end, "), written by nnue init."))
        return 0;
    memcpy(name, start, (size_t)(end - start));
    name[end - start] = 0;
    return 1;
}
