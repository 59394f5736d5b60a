/* games/chess/threats.c: nnue_chess_make_threats: a move's threat changes (include/nnue_board.h
 * nnue_threats), recorded while the move is made, from the position's bitboards.
 *
 * Facts (the bookkeeping Stockfish 19 does inside do_move, restated): a move is a few steps on
 * single squares, a piece lifted from a square, put on an empty one, or replaced by another on
 * an occupied one (a capture), and each step changes only threats that touch its square or run
 * through it:
 *  - lifting P from s removes P's threats from s, the threats onto P at s (pawns, knights,
 *    kings, and sliders whose first piece in that direction is s) and, for each such slider S,
 *    adds S's threat on the first piece beyond s on the same line (a discovered threat);
 *  - putting P on s is the reverse: P's threats from s and onto s added, each slider's threat
 *    beyond s removed (now blocked);
 *  - replacing Y by X on s keeps the occupancy: Y's threats from s go, X's come, and the threats
 *    onto s change victim.
 * The steps of one move follow each other on the board as it is in between, so their sum is the
 * difference of the boards; the discovered and blocked pairs listed twice with opposite signs are
 * paired off at the end (games/threat_log.h says why only those).
 * The steps run on a copy of the position's pieces; nnue_chess_make then makes the move. A filter
 * (nnue_threat_filter) is applied by the log, pair by pair. */
#include <string.h>

#include "games/chess/bitboard.h"
#include "games/threat_log.h"

/* The pieces of a position as the steps change them. */
typedef struct step_board {
    bb_t occupied, by_type[7], by_colour[2];
    uint8_t on[64];
} step_board;

/* The squares piece p on sq attacks that hold a piece, given the rook and bishop attacks from sq:
 * each kind's attacks masked in or out by the piece's type, with no branch on it (a jump on the
 * type mispredicted from one step to the next). */
static inline bb_t targets_of(const step_board *b, uint8_t p, int sq, bb_t rook, bb_t bishop)
{
    int t = NNUE_PIECE_TYPE(p);
    bb_t a = (chess_pawn_att[NNUE_PIECE_COLOUR(p)][sq] & -(bb_t)(t == NNUE_CHESS_PAWN)) |
             (chess_knight[sq] & -(bb_t)(t == NNUE_CHESS_KNIGHT)) | (chess_king[sq] & -(bb_t)(t == NNUE_CHESS_KING)) |
             (rook & -(bb_t)(t == NNUE_CHESS_ROOK || t == NNUE_CHESS_QUEEN)) |
             (bishop & -(bb_t)(t == NNUE_CHESS_BISHOP || t == NNUE_CHESS_QUEEN));
    return a & b->occupied;
}

/* Pieces attacking sq: pawns, knights and kings, and the sliders among the first pieces on its
 * lines (rook and bishop attacks from sq). */
static inline bb_t attackers_of(const step_board *b, int sq, bb_t sliders)
{
    bb_t pawns = b->by_type[NNUE_CHESS_PAWN];
    return (chess_knight[sq] & b->by_type[NNUE_CHESS_KNIGHT]) | (chess_king[sq] & b->by_type[NNUE_CHESS_KING]) |
           (chess_pawn_att[1][sq] & pawns & b->by_colour[0]) | (chess_pawn_att[0][sq] & pawns & b->by_colour[1]) |
           sliders;
}

static inline bb_t sliders_of(const step_board *b, bb_t rook, bb_t bishop)
{
    bb_t queens = b->by_type[NNUE_CHESS_QUEEN];
    return (rook & (b->by_type[NNUE_CHESS_ROOK] | queens)) | (bishop & (b->by_type[NNUE_CHESS_BISHOP] | queens));
}

/* The threats of piece p standing on sq: its own, onto it, and the sliders' beyond it (with
 * the opposite sign); `added` 1 for a put (p just placed), 0 for a lift (p still there). The
 * piece beyond sq from a slider s is the other first piece on their line: the line's squares
 * among sq's attacks, less s. */
static inline __attribute__((always_inline)) void touch(nnue_threat_log *l, const step_board *b, uint8_t p,
                                                         int sq, int added)
{
    bb_t occ = b->occupied, rook = rook_attacks(sq, occ), bishop = bishop_attacks(sq, occ);
    for (bb_t t = targets_of(b, p, sq, rook, bishop); t;) {
        int to = bb_pop(&t);
        nnue_threat_log_pair(l, added, p, sq, b->on[to], to);
    }
    bb_t sliders = sliders_of(b, rook, bishop);
    for (bb_t a = attackers_of(b, sq, sliders); a;) {
        int from = bb_pop(&a);
        nnue_threat_log_pair(l, added, b->on[from], from, p, sq);
    }
    for (bb_t s = sliders; s;) {
        int from = bb_pop(&s);
        bb_t beyond = chess_line[from][sq] & (rook | bishop) & occ & ~BB(from);
        if (beyond) {
            int z = bb_lsb(beyond);
            nnue_threat_log_xray(l, !added, b->on[from], from, b->on[z], z);
        }
    }
}

static void put(step_board *b, uint8_t p, int sq)
{
    b->occupied |= BB(sq);
    b->by_type[NNUE_PIECE_TYPE(p)] |= BB(sq);
    b->by_colour[NNUE_PIECE_COLOUR(p)] |= BB(sq);
    b->on[sq] = p;
}

static void lift(step_board *b, int sq)
{
    uint8_t p = b->on[sq];
    b->occupied &= ~BB(sq);
    b->by_type[NNUE_PIECE_TYPE(p)] &= ~BB(sq);
    b->by_colour[NNUE_PIECE_COLOUR(p)] &= ~BB(sq);
    b->on[sq] = 0;
}

static void lift_step(nnue_threat_log *l, step_board *b, int sq)
{
    touch(l, b, b->on[sq], sq, 0);
    lift(b, sq);
}

static void put_step(nnue_threat_log *l, step_board *b, uint8_t p, int sq)
{
    put(b, p, sq);
    touch(l, b, p, sq, 1);
}

/* Piece y on sq becomes x (a capture onto sq): the occupancy stays. */
static void replace_step(nnue_threat_log *l, step_board *b, uint8_t x, int sq)
{
    uint8_t y = b->on[sq];
    bb_t occ = b->occupied, rook = rook_attacks(sq, occ), bishop = bishop_attacks(sq, occ);
    for (bb_t t = targets_of(b, y, sq, rook, bishop); t;) {
        int to = bb_pop(&t);
        nnue_threat_log_pair(l, 0, y, sq, b->on[to], to);
    }
    for (bb_t in = attackers_of(b, sq, sliders_of(b, rook, bishop)); in;) {
        int from = bb_pop(&in);
        nnue_threat_log_pair(l, 0, b->on[from], from, y, sq);
        nnue_threat_log_pair(l, 1, b->on[from], from, x, sq);
    }
    lift(b, sq);
    put(b, x, sq);
    for (bb_t t = targets_of(b, x, sq, rook, bishop); t;) {
        int to = bb_pop(&t);
        nnue_threat_log_pair(l, 1, x, sq, b->on[to], to);
    }
}

void nnue_chess_make_threats_filtered(nnue_chess_pos *p, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                      const nnue_threat_filter *filter)
{
    if (!p || !threats)
        return;
    step_board b;
    b.occupied = p->occupied;
    memcpy(b.by_type, p->by_type, sizeof b.by_type);
    memcpy(b.by_colour, p->by_colour, sizeof b.by_colour);
    memcpy(b.on, p->board.piece_on, sizeof b.on);
    nnue_threat_log l;
    nnue_threat_log_start(&l, threats, filter);
    int from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move), promo = NNUE_CHESS_MOVE_PROMO(move);
    unsigned kind = NNUE_CHESS_MOVE_KIND(move);
    int us = p->board.side_to_move;
    uint8_t piece = b.on[from], after = promo ? NNUE_PIECE(us, promo) : piece;
    if (kind == NNUE_CHESS_MOVE_CASTLE) {
        /* The rook squares as include/nnue_chess.h states them: the rook of that right to the
         * f or d file; the king to `to`. Either may stay on its square (Chess960). */
        int kingside = SQ_FILE(to) == 6;
        int rf = p->castle_rook[2 * us + !kingside], rt = (to & 56) + (kingside ? 5 : 3);
        uint8_t rook = NNUE_PIECE(us, NNUE_CHESS_ROOK);
        if (from != to)
            lift_step(&l, &b, from);
        if (rf != rt)
            lift_step(&l, &b, rf);
        if (from != to)
            put_step(&l, &b, piece, to);
        if (rf != rt)
            put_step(&l, &b, rook, rt);
    } else if (kind == NNUE_CHESS_MOVE_EP) {
        lift_step(&l, &b, from);
        lift_step(&l, &b, to ^ 8);
        put_step(&l, &b, after, to);
    } else {
        lift_step(&l, &b, from);
        if (b.on[to])
            replace_step(&l, &b, after, to);
        else
            put_step(&l, &b, after, to);
    }
    nnue_threat_log_end(&l);
    nnue_chess_make(p, move, delta);
}

void nnue_chess_make_threats(nnue_chess_pos *p, nnue_move move, nnue_delta *delta, nnue_threats *threats)
{
    nnue_chess_make_threats_filtered(p, move, delta, threats, NULL);
}
