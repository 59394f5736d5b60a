/* games/shogi/movegen.c: legal move generation. Pins and checks are found
 * first, so every generated move is legal without a make/test/unmake:
 * pinned pieces stay on their pin line, in check only captures of the
 * checker, interpositions (moves and drops) and safe king moves remain.
 * Promotion, dead-end, nifu and pawn-drop-mate rules are applied here. */
#include <string.h>

#include "games/shogi/internal.h"

typedef struct gen_ctx {
    const nnue_shogi_pos *pos;
    nnue_move *moves;
    int n;
    int us;
    int checks;                         /* number of pieces giving check */
    uint8_t pin[NNUE_SHOGI_CELLS];      /* pin line id (direction + 1) or 0 */
    uint8_t target[NNUE_SHOGI_CELLS];   /* in single check: checker and blocking cells */
} gen_ctx;

int sh_can_stand(int colour, int type, int cell)
{
    int rr = sh_rel_rank(colour, cell);
    if (type == SH_PAWN || type == SH_LANCE)
        return rr >= 1;
    if (type == SH_KNIGHT)
        return rr >= 2;
    return 1;
}

/* Adds a board move of piece p (not a king) if pins and checks allow it,
 * in its promoting and/or non-promoting form. */
static inline void add_move(gen_ctx *g, int from, int to, unsigned p, unsigned captured)
{
    if (g->pin[from] && g->pin[to] != g->pin[from])
        return;
    if (g->checks && !g->target[to])
        return;
    int t = sh_type(p);
    unsigned base = (unsigned)NNUE_SHOGI_MOVE(sh_sq_of_cell(from), sh_sq_of_cell(to), 0, t, captured);
    if (sh_promote[t] && (sh_rel_rank(g->us, from) <= 2 || sh_rel_rank(g->us, to) <= 2)) {
        g->moves[g->n++] = base | NNUE_SHOGI_MOVE_PROMOTE;
        if (!sh_can_stand(g->us, t, to))
            return;
    }
    g->moves[g->n++] = base;
}

static void piece_moves(gen_ctx *g, int from, unsigned p)
{
    const uint8_t *b = g->pos->cell;
    int them = g->us ^ 1;
    unsigned m = sh_step_mask[p & 31];
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        int to = from + sh_offset[i];
        unsigned q = b[to];
        if (q == 0 || sh_colour(q) == them)
            add_move(g, from, to, p, q);
    }
    m = sh_slide_mask[p & 31];
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        int d = sh_offset[i], to = from + d;
        while (b[to] == 0) {
            add_move(g, from, to, p, 0);
            to += d;
        }
        if (sh_colour(b[to]) == them)
            add_move(g, from, to, p, b[to]);
    }
}

static void king_moves(gen_ctx *g, int from)
{
    uint8_t b[NNUE_SHOGI_CELLS];
    memcpy(b, g->pos->cell, sizeof b);
    b[from] = 0;    /* a slider's line continues through the king's old cell */
    int them = g->us ^ 1;
    for (int i = 0; i < 8; i++) {
        int to = from + sh_offset[i];
        unsigned q = b[to];
        if ((q == 0 || sh_colour(q) == them) && !sh_attackers_on(b, to, them, NULL, 1))
            g->moves[g->n++] = NNUE_SHOGI_MOVE(sh_sq_of_cell(from), sh_sq_of_cell(to), 0,
                                               SH_KING, q);
    }
}

/* Marks pinned pieces and, in single check, the cells that answer the check. */
static void find_pins_and_checks(gen_ctx *g, int king)
{
    const uint8_t *b = g->pos->cell;
    int us = g->us, them = us ^ 1;
    memset(g->pin, 0, sizeof g->pin);
    for (int i = 0; i < 8; i++) {
        int d = sh_offset[i], t = king + d;
        while (b[t] == 0)
            t += d;
        if (sh_colour(b[t]) != us)
            continue;
        int t2 = t + d;
        while (b[t2] == 0)
            t2 += d;
        unsigned p2 = b[t2];
        if (sh_colour(p2) == them && ((sh_slide_mask[p2 & 31] >> sh_opposite[i]) & 1))
            for (int c = king + d; c != t2 + d; c += d)
                g->pin[c] = (uint8_t)(i + 1);
    }
    int checkers[4];
    g->checks = sh_attackers_on(b, king, them, checkers, 3);
    if (g->checks != 1)
        return;
    memset(g->target, 0, sizeof g->target);
    g->target[checkers[0]] = 1;
    for (int i = 0; i < 8; i++) {
        int d = sh_offset[i], t = king + d;
        while (b[t] == 0)
            t += d;
        if (t != checkers[0])
            continue;
        for (int c = king + d; c != t; c += d)
            g->target[c] = 1;
        break;
    }
}

static void drops(gen_ctx *g)
{
    const nnue_shogi_pos *pos = g->pos;
    const uint8_t *hand = pos->board.hand[g->us];
    int types[7], nt = 0, has_pawn = hand[SH_PAWN] > 0;
    for (int t = SH_LANCE; t <= SH_ROOK; t++)
        if (hand[t])
            types[nt++] = t;
    if (!nt && !has_pawn)
        return;
    int us = g->us;
    unsigned pawn_files = pos->pawn_files[us];
    int mate_cell = pos->king_cell[us ^ 1] - sh_offset[us == SH_BLACK ? 0 : 1];
    for (int f = 0; f < 9; f++) {
        int pawn_ok = has_pawn && !((pawn_files >> f) & 1);
        for (int r = 0; r < 9; r++) {
            int cell = sh_cell(f, r);
            if (pos->cell[cell] || (g->checks && !g->target[cell]))
                continue;
            int rr = sh_rel_rank(us, cell), sq = f * 9 + r;
            if (pawn_ok && rr >= 1 && (cell != mate_cell || !sh_pawn_drop_mates(pos, cell)))
                g->moves[g->n++] = NNUE_SHOGI_MOVE(0, sq, NNUE_SHOGI_MOVE_DROP, SH_PAWN, 0);
            for (int k = 0; k < nt; k++) {
                int t = types[k];
                if ((t == SH_LANCE && rr < 1) || (t == SH_KNIGHT && rr < 2))
                    continue;
                g->moves[g->n++] = NNUE_SHOGI_MOVE(0, sq, NNUE_SHOGI_MOVE_DROP, t, 0);
            }
        }
    }
}

int sh_generate(const nnue_shogi_pos *pos, nnue_move *moves)
{
    gen_ctx g;
    g.pos = pos;
    g.moves = moves;
    g.n = 0;
    g.us = pos->board.side_to_move;
    int king = pos->king_cell[g.us];
    find_pins_and_checks(&g, king);
    if (g.checks < 2) {
        for (int f = 0; f < 9; f++)
            for (int r = 0; r < 9; r++) {
                int cell = sh_cell(f, r);
                unsigned p = pos->cell[cell];
                if (p && sh_colour(p) == g.us && cell != king)
                    piece_moves(&g, cell, p);
            }
        drops(&g);
    }
    king_moves(&g, king);
    return g.n;
}

int sh_pawn_drop_mates(const nnue_shogi_pos *pos, int cell)
{
    nnue_shogi_pos copy = *pos;
    copy.cell[cell] = (uint8_t)NNUE_PIECE(pos->board.side_to_move, SH_PAWN);
    copy.board.side_to_move ^= 1;
    nnue_move moves[NNUE_MAX_MOVES];
    return sh_generate(&copy, moves) == 0;
}

int nnue_shogi_legal_moves(const nnue_shogi_pos *pos, nnue_move *moves)
{
    /* A position that never went through nnue_shogi_parse_sfen (zeroed memory) has no walls:
     * the ray scans would run off the mailbox. Cell 0 is a wall in every parsed position. */
    if (!pos || !moves || pos->cell[0] != SH_WALL)
        return 0;
    return sh_generate(pos, moves);
}
