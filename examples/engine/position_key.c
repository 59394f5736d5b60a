/* examples/engine/position_key.c: Zobrist hash keys computed from the nnue_board and kept up to
 * date from each move's nnue_delta, so the same code serves chess and shogi.
 *
 * A key xors one random number per (piece code, square), per (colour, hand type, hand slot)
 * and one for "colour 1 to move". The delta rules of nnue_board.h say which piece left which
 * square or hand slot and where it went, which is exactly what the key needs. */
#include "engine.h"

#define HAND_SLOTS 19   /* shogi: 18 pawns at most in one hand */

static uint64_t piece_keys[32][NNUE_MAX_SQUARES];
static uint64_t hand_keys[2][NNUE_MAX_HAND_TYPES][HAND_SLOTS];
static uint64_t side_key;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void init_keys(void)
{
    uint64_t seed = 20261123;
    for (int p = 0; p < 32; p++)
        for (int sq = 0; sq < NNUE_MAX_SQUARES; sq++)
            piece_keys[p][sq] = splitmix(&seed);
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < NNUE_MAX_HAND_TYPES; t++)
            for (int s = 0; s < HAND_SLOTS; s++)
                hand_keys[c][t][s] = splitmix(&seed);
    side_key = splitmix(&seed);
}

uint64_t key_of_board(const nnue_board *b)
{
    pthread_once(&keys_once, init_keys);
    uint64_t key = b->side_to_move ? side_key : 0;
    for (int sq = 0; sq < b->num_squares; sq++)
        if (b->piece_on[sq])
            key ^= piece_keys[b->piece_on[sq] & 31][sq];
    for (int c = 0; c < 2; c++)
        for (int t = 1; t < NNUE_MAX_HAND_TYPES; t++)
            for (int s = 0; s < b->hand[c][t] && s < HAND_SLOTS; s++)
                key ^= hand_keys[c][t][s];
    return key;
}

/* The key of one piece at one location (board square or hand slot); 0 when it is nowhere. */
static uint64_t location_key(uint8_t piece, int sq, int slot)
{
    if (sq >= 0)
        return piece_keys[piece & 31][sq];
    if (sq == NNUE_SQ_HAND && slot < HAND_SLOTS)
        return hand_keys[NNUE_PIECE_COLOUR(piece) & 1][NNUE_PIECE_TYPE(piece) & 7][slot];
    return 0;
}

uint64_t key_after(uint64_t key, const nnue_delta *d)
{
    key ^= side_key;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *e = &d->dirty[i];
        key ^= location_key(e->old_piece, e->old_sq, e->old_slot);
        key ^= location_key(e->new_piece, e->new_sq, e->new_slot);
    }
    return key;
}
