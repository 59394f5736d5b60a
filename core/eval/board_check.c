/* core/eval/board_check.c: see board_check.h. Piece codes follow include/nnue_board.h; the square
 * count, piece types, king and hands are the game descriptor's. */
#include "core/eval/board_check.h"

#include <string.h>

#include "base/error.h"

nnue_board_shape nnue_board_shape_of(const nnue_game *game)
{
    nnue_board_shape s = {game->name, game->files * game->ranks, game->piece_types, game->king_type,
                          game->hand_types, {0}, nnue_kernels_scalar.board_scan};
    for (int t = 1; t <= game->hand_types && t < NNUE_MAX_HAND_TYPES; t++)
        s.hand_cap[t] = s.hand_cap[NNUE_MAX_HAND_TYPES + t] = game->hand_caps ? game->hand_caps[t] : game->max_hand;
    return s;
}

void nnue_board_shape_use_kernels(nnue_board_shape *shape, const nnue_kernels *k)
{
    shape->scan = (k ? k : &nnue_kernels_scalar)->board_scan;
}

static int piece_fits(const nnue_board_shape *g, uint8_t piece)
{
    int type = NNUE_PIECE_TYPE(piece), colour = NNUE_PIECE_COLOUR(piece);
    return colour <= 1 && type >= 1 && type <= g->max_type;
}

#define BOARD_FAIL(...) (nnue_fail_at(err, NNUE_E_ARG, "nnue_board", 0, 0, __VA_ARGS__), -1)

int nnue_board_check(const nnue_board_shape *shape, const nnue_board *b, int *pieces, nnue_error *err)
{
    const nnue_board_shape g = *shape;
    const char *game = g.game;
    if (!b)
        return BOARD_FAIL("no board (NULL)");
    if (b->num_squares != g.squares)
        return BOARD_FAIL("num_squares is %d, a %s board has %d", b->num_squares, game, g.squares);
    if (b->side_to_move > 1)
        return BOARD_FAIL("side_to_move is %d, expected 0 or 1", b->side_to_move);
    int count;
    if (g.scan(b->piece_on, g.squares, g.max_type, &count))
        for (int sq = 0; sq < g.squares; sq++)
            if (b->piece_on[sq] && !piece_fits(&g, b->piece_on[sq]))
                return BOARD_FAIL("square %d holds piece code 0x%02x (colour %d, type %d): not a %s piece", sq,
                                  b->piece_on[sq], NNUE_PIECE_COLOUR(b->piece_on[sq]),
                                  NNUE_PIECE_TYPE(b->piece_on[sq]), game);
    if (count != b->piece_count)
        return BOARD_FAIL("piece_count is %d, the squares hold %d pieces", b->piece_count, count);
    for (int c = 0; c < 2; c++) {
        if (b->king_sq[c] >= g.squares)
            return BOARD_FAIL("king_sq[%d] is %d, outside the %d squares", c, b->king_sq[c], g.squares);
        if (b->piece_on[b->king_sq[c]] != NNUE_PIECE(c, g.king))
            return BOARD_FAIL("king_sq[%d] is %d, whose square holds 0x%02x, not colour %d's king (0x%02x)", c,
                              b->king_sq[c], b->piece_on[b->king_sq[c]], c, NNUE_PIECE(c, g.king));
    }
    /* Both hands at once (16 bytes, two words). A byte past its cap shows as a cleared high bit of
     * (cap | 0x80) - hand when both are below 128 (no borrow between bytes then); a byte of 128 or
     * more (either side) is flagged too, and the bytes one by one decide. */
    const uint64_t high = 0x8080808080808080ull, even = 0x00FF00FF00FF00FFull;
    uint64_t h[2], cap[2], flagged = 0;
    memcpy(h, b->hand, 16);
    memcpy(cap, g.hand_cap, 16);
    for (int w = 0; w < 2; w++)
        flagged |= ((h[w] | cap[w]) & high) | (~((cap[w] | high) - h[w]) & high);
    if (flagged)
        for (int i = 0; i < 16; i++)
            if (b->hand[i / 8][i % 8] > g.hand_cap[i])
                return BOARD_FAIL("hand[%d][%d] is %d, at most %d", i / 8, i % 8, b->hand[i / 8][i % 8], g.hand_cap[i]);
    /* 16 hand bytes summed in 16-bit lanes (at most 8 x 255 each): no carry between lanes */
    count += (int)(((h[0] & even) + ((h[0] >> 8) & even) + (h[1] & even) + ((h[1] >> 8) & even)) *
                       0x0001000100010001ull >>
                   48);
    if (pieces)
        *pieces = count;
    return 0;
}

int nnue_board_check_kings(const nnue_board_shape *g, const nnue_board *b, nnue_error *err)
{
    if (b && b->num_squares == g->squares && b->side_to_move <= 1 && b->king_sq[0] < g->squares &&
        b->king_sq[1] < g->squares)
        return 0;
    return nnue_board_check(g, b, NULL, err) != 0 ? -1 : 0; /* names what does not fit */
}

int nnue_board_fits(const nnue_game *game, const nnue_board *b)
{
    nnue_board_shape g = nnue_board_shape_of(game);
    return nnue_board_check(&g, b, NULL, NULL) == 0;
}

static int location_fits(const nnue_board_shape *g, int sq, uint8_t piece, int slot)
{
    if (sq == NNUE_SQ_NONE)
        return 1;
    if (sq == NNUE_SQ_HAND)
        return NNUE_PIECE_TYPE(piece) <= g->hand_types && piece_fits(g, piece) &&
               slot < g->hand_cap[NNUE_PIECE_TYPE(piece)];
    return sq >= 0 && sq < g->squares && piece_fits(g, piece);
}

int nnue_delta_check(const nnue_board_shape *shape, const nnue_delta *d, nnue_error *err)
{
    const nnue_board_shape g = *shape;
    const char *game = g.game;
    if (!d)
        return nnue_fail_at(err, NNUE_E_ARG, "nnue_delta", 0, 0, "no delta (NULL)"), -1;
    if (d->count > NNUE_MAX_DIRTY)
        return nnue_fail_at(err, NNUE_E_ARG, "nnue_delta", 0, 0, "count is %d, at most %d", d->count, NNUE_MAX_DIRTY),
               -1;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        int old_ok = location_fits(&g, x->old_sq, x->old_piece, x->old_slot);
        if (!old_ok || !location_fits(&g, x->new_sq, x->new_piece, x->new_slot))
            return nnue_fail_at(err, NNUE_E_ARG, "nnue_delta", 0, 0,
                                "dirty[%d]: %s square %d, piece 0x%02x, slot %d does not fit a %s board", i,
                                old_ok ? "new" : "old", old_ok ? x->new_sq : x->old_sq,
                                old_ok ? x->new_piece : x->old_piece, old_ok ? x->new_slot : x->old_slot, game);
    }
    return 0;
}

/* Nonzero when some threat of t[0..n) does not fit: a piece byte must be colour 0 or 1 with a type
 * 1..max_type, a square byte below squares. Two threats (8 bytes: piece, square, piece, square
 * each) a step, in one word: a byte of 0x80 | x minus a value below 0x80 borrows from no other
 * byte, and its high bit says x >= that value. */
static unsigned threats_bad(const nnue_threat *t, int n, int max_type, int squares)
{
    const uint64_t high = 0x8080808080808080ull, piece = 0x00FF00FF00FF00FFull, square = ~piece;
    const uint64_t ones = 0x0101010101010101ull, past_type = (uint64_t)(max_type + 1) * ones & piece;
    const uint64_t limit = (uint64_t)squares * ones & square;
    uint64_t bad = 0;
    for (int i = 0; i < n; i += 2) {
        uint64_t w;
        if (i + 2 <= n)
            memcpy(&w, t + i, 8);
        else { /* the last one, beside a fitting threat (piece 0x01 on square 0 onto another) */
            nnue_threat pair[2] = {t[i], {1, 0, 1, 0}};
            memcpy(&w, pair, 8);
        }
        uint64_t type = (w & 0x000F000F000F000Full) | (high & piece);
        bad |= (w & 0x00E000E000E000E0ull) | ((type - past_type) & high & piece) | (~(type - (ones & piece)) & high & piece);
        bad |= (w & high & square) | ((((w & square) | (high & square)) - limit) & high & square);
    }
    return bad != 0;
}

int nnue_threats_check(const nnue_board_shape *shape, const nnue_threats *t, nnue_error *err)
{
    if (t->n_removed > NNUE_MAX_THREATS || t->n_added > NNUE_MAX_THREATS)
        return nnue_fail_at(err, NNUE_E_ARG, "nnue_threats", 0, 0, "n_removed %d, n_added %d: at most %d each",
                            t->n_removed, t->n_added, NNUE_MAX_THREATS),
               -1;
    if (!threats_bad(t->removed, t->n_removed, shape->max_type, shape->squares) &&
        !threats_bad(t->added, t->n_added, shape->max_type, shape->squares))
        return 0;
    for (int k = 0; k < 2; k++) {
        const nnue_threat *list = k ? t->added : t->removed;
        int n = k ? t->n_added : t->n_removed;
        for (int i = 0; i < n; i++) {
            const nnue_threat *x = &list[i];
            if (!piece_fits(shape, x->attacker) || !piece_fits(shape, x->victim) || x->from >= shape->squares ||
                x->to >= shape->squares)
                return nnue_fail_at(err, NNUE_E_ARG, "nnue_threats", 0, 0,
                                    "%s[%d]: piece 0x%02x on square %d attacking piece 0x%02x on square %d does "
                                    "not fit a %s board",
                                    k ? "added" : "removed", i, x->attacker, x->from, x->victim, x->to, shape->game),
                       -1;
        }
    }
    return 0;
}

int nnue_delta_fits(const nnue_game *game, const nnue_delta *d)
{
    nnue_board_shape g = nnue_board_shape_of(game);
    return nnue_delta_check(&g, d, NULL) == 0;
}
