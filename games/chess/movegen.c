/* games/chess/movegen.c: legal move generation. Checks and pins are computed
 * first so that every generated move is legal without trying it: in check only
 * evasions (block or capture a single checker, or king moves) are produced,
 * pinned pieces stay on their pin line, king moves avoid attacked squares (with
 * the king itself removed from the occupancy), en passant is verified by
 * removing both pawns, castling checks the squares the king crosses. */
#include "games/chess/bitboard.h"

typedef struct gen_state {
    const nnue_chess_pos *p;
    int us, them, ksq;
    bb_t own, occ, pinned, target;
    nnue_move *out;
} gen_state;

static inline void add(gen_state *g, int from, int to, int promo, unsigned kind)
{
    *g->out++ = NNUE_CHESS_MOVE(from, to, promo, kind);
}

/* Own pieces standing alone between the king and an enemy slider. */
static bb_t pinned_pieces(const nnue_chess_pos *p, int us, int ksq)
{
    int them = us ^ 1;
    bb_t rq = (p->by_type[NNUE_CHESS_ROOK] | p->by_type[NNUE_CHESS_QUEEN]) & p->by_colour[them];
    bb_t bq = (p->by_type[NNUE_CHESS_BISHOP] | p->by_type[NNUE_CHESS_QUEEN]) & p->by_colour[them];
    bb_t snipers = (rook_attacks(ksq, 0) & rq) | (bishop_attacks(ksq, 0) & bq);
    bb_t pinned = 0;
    while (snipers) {
        int s = bb_pop(&snipers);
        bb_t between = chess_between[ksq][s] & p->occupied;
        if (between && !(between & (between - 1)))
            pinned |= between & p->by_colour[us];
    }
    return pinned;
}

/* Destinations allowed for the piece on `from` (target, cut to the pin line). */
static inline bb_t allowed(const gen_state *g, int from)
{
    return (g->pinned & BB(from)) ? g->target & chess_line[g->ksq][from] : g->target;
}

static void gen_pawn_moves(gen_state *g)
{
    const nnue_chess_pos *p = g->p;
    int us = g->us;
    int up = us == 0 ? 8 : -8;
    bb_t start_rank = us == 0 ? 0x000000000000FF00ull : 0x00FF000000000000ull;
    bb_t enemy = p->by_colour[g->them];
    bb_t pawns = pieces_of(p, us, NNUE_CHESS_PAWN);
    while (pawns) {
        int from = bb_pop(&pawns);
        bb_t ok = allowed(g, from);
        bb_t dest = chess_pawn_att[us][from] & enemy;
        int one = from + up;
        if (!(g->occ & BB(one))) {
            dest |= BB(one);
            if ((BB(from) & start_rank) && !(g->occ & BB(one + up)))
                dest |= BB(one + up);
        }
        dest &= ok;
        while (dest) {
            int to = bb_pop(&dest);
            if (BB(to) & (RANK_1 | RANK_8)) {
                add(g, from, to, NNUE_CHESS_QUEEN, NNUE_CHESS_MOVE_NORMAL);
                add(g, from, to, NNUE_CHESS_ROOK, NNUE_CHESS_MOVE_NORMAL);
                add(g, from, to, NNUE_CHESS_BISHOP, NNUE_CHESS_MOVE_NORMAL);
                add(g, from, to, NNUE_CHESS_KNIGHT, NNUE_CHESS_MOVE_NORMAL);
            } else {
                add(g, from, to, 0, NNUE_CHESS_MOVE_NORMAL);
            }
        }
    }
}

/* En passant: legal iff the king is not attacked once both pawns are gone and
 * the capturing pawn stands on the target square. */
static void gen_en_passant(gen_state *g)
{
    const nnue_chess_pos *p = g->p;
    int ep = p->ep;
    if (ep < 0)
        return;
    int victim = ep ^ 8;
    bb_t takers = chess_pawn_att[g->them][ep] & pieces_of(p, g->us, NNUE_CHESS_PAWN);
    bb_t rq = (p->by_type[NNUE_CHESS_ROOK] | p->by_type[NNUE_CHESS_QUEEN]) & p->by_colour[g->them];
    bb_t bq = (p->by_type[NNUE_CHESS_BISHOP] | p->by_type[NNUE_CHESS_QUEEN]) &
              p->by_colour[g->them];
    bb_t others = p->by_colour[g->them] & ~BB(victim);
    while (takers) {
        int from = bb_pop(&takers);
        bb_t occ = (g->occ ^ BB(from) ^ BB(victim)) | BB(ep);
        /* Checks by non-sliders: only the victim pawn can give one that this resolves. */
        bb_t near = (chess_pawn_att[g->us][g->ksq] & p->by_type[NNUE_CHESS_PAWN]) |
                    (chess_knight[g->ksq] & p->by_type[NNUE_CHESS_KNIGHT]);
        if (near & others)
            continue;
        if ((rook_attacks(g->ksq, occ) & rq) || (bishop_attacks(g->ksq, occ) & bq))
            continue;
        add(g, from, ep, 0, NNUE_CHESS_MOVE_EP);
    }
}

/* Squares from a to b on one rank, both included. */
static bb_t rank_span(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return (BB(hi) << 1) - BB(lo); /* wraps to the right set for hi = 63 */
}

/* Castling, standard and Chess960 alike: the king goes to the g/c file, the rook to f/d; every
 * square either crosses (destinations included) is empty but for these two pieces, and no square
 * the king crosses or lands on is attacked once both have left (that also catches the rook
 * shielding its own king on the first rank). The side is not in check here. */
static void gen_castling(gen_state *g)
{
    const nnue_chess_pos *p = g->p;
    int us = g->us, them = g->them, base = us == 0 ? 0 : 56;
    for (int queenside = 0; queenside < 2; queenside++) {
        int k = 2 * us + queenside;
        if (!(p->castling & (1 << k)))
            continue;
        int ksq = g->ksq, rsq = p->castle_rook[k];
        int kto = base + (queenside ? 2 : 6), rto = base + (queenside ? 3 : 5);
        bb_t both = BB(ksq) | BB(rsq);
        if (g->occ & (rank_span(ksq, kto) | rank_span(rsq, rto)) & ~both)
            continue;
        bb_t occ = g->occ ^ both, path = rank_span(ksq, kto) & ~BB(ksq);
        int safe = !chess_attacked(p, kto, them, occ);
        while (safe && path)
            safe = !chess_attacked(p, bb_pop(&path), them, occ);
        if (safe)
            add(g, ksq, kto, 0, NNUE_CHESS_MOVE_CASTLE);
    }
}

int nnue_chess_legal_moves(const nnue_chess_pos *p, nnue_move *moves)
{
    if (!p || !moves)
        return 0;
    gen_state g;
    g.p = p;
    g.us = p->board.side_to_move;
    g.them = g.us ^ 1;
    g.ksq = p->board.king_sq[g.us];
    g.own = p->by_colour[g.us];
    g.occ = p->occupied;
    g.out = moves;

    bb_t checkers = chess_attackers_to(p, g.ksq, g.occ) & p->by_colour[g.them];

    /* King steps. */
    bb_t occ_no_king = g.occ ^ BB(g.ksq);
    bb_t steps = chess_king[g.ksq] & ~g.own;
    while (steps) {
        int to = bb_pop(&steps);
        if (!chess_attacked(p, to, g.them, occ_no_king))
            add(&g, g.ksq, to, 0, NNUE_CHESS_MOVE_NORMAL);
    }
    if (checkers & (checkers - 1))
        return (int)(g.out - moves);   /* double check: king moves only */

    g.pinned = pinned_pieces(p, g.us, g.ksq);
    g.target = checkers ? chess_between[g.ksq][bb_lsb(checkers)] | checkers : ~g.own;

    bb_t knights = pieces_of(p, g.us, NNUE_CHESS_KNIGHT) & ~g.pinned;
    while (knights) {
        int from = bb_pop(&knights);
        bb_t dest = chess_knight[from] & g.target;
        while (dest)
            add(&g, from, bb_pop(&dest), 0, NNUE_CHESS_MOVE_NORMAL);
    }
    bb_t diag = (p->by_type[NNUE_CHESS_BISHOP] | p->by_type[NNUE_CHESS_QUEEN]) & g.own;
    while (diag) {
        int from = bb_pop(&diag);
        bb_t dest = bishop_attacks(from, g.occ) & allowed(&g, from);
        while (dest)
            add(&g, from, bb_pop(&dest), 0, NNUE_CHESS_MOVE_NORMAL);
    }
    bb_t straight = (p->by_type[NNUE_CHESS_ROOK] | p->by_type[NNUE_CHESS_QUEEN]) & g.own;
    while (straight) {
        int from = bb_pop(&straight);
        bb_t dest = rook_attacks(from, g.occ) & allowed(&g, from);
        while (dest)
            add(&g, from, bb_pop(&dest), 0, NNUE_CHESS_MOVE_NORMAL);
    }
    gen_pawn_moves(&g);
    gen_en_passant(&g);
    if (!checkers)
        gen_castling(&g);
    return (int)(g.out - moves);
}

int nnue_chess_in_check(const nnue_chess_pos *p)
{
    if (!p)
        return 0;
    int us = p->board.side_to_move;
    return chess_attacked(p, p->board.king_sq[us], us ^ 1, p->occupied);
}
