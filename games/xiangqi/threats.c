/* games/xiangqi/threats.c: xq_make_threats: a move's threat changes (include/nnue_board.h
 * nnue_threats), recorded while the move is made, from attack tables (bitboard.h) around the two
 * squares it changes. The pairs are those of FullThreats_xiangqi (features/xiangqi_threats.c):
 * every piece's attacks on occupied squares, either colour, kings included.
 *
 * A move lifts its piece from `from`, then puts it on the empty `to` or replaces the piece
 * there (a capture). Each step changes only threats that touch its square or run through it:
 *  - lifting P from s removes P's threats from s and the threats onto s; occupancy on s no
 *    longer blocks: on each line through s, a rook whose first piece was s now attacks the
 *    first piece beyond s; a cannon whose screen was s loses its target (the first piece
 *    beyond s) and takes the next one; a cannon whose target was s (its screen the piece next
 *    to s) takes the first piece beyond s; a horse with its leg on s and an elephant with its
 *    eye on s gain their targets over s;
 *  - putting P on an empty s is the reverse (signs flipped);
 *  - replacing Y by X on s keeps the occupancy: Y's threats from s go, X's come, and the threats
 *    onto s change victim.
 * The steps run one after the other on a copy of the pieces, so their sum is the difference of
 * the boards; pairs through s (indirect) are paired off at the end (games/threat_log.h). */
#include <string.h>

#include "games/threat_log.h"
#include "games/xiangqi/bitboard.h"

/* The pieces as the steps change them. */
typedef struct step_board {
    xq_bb occ;
    xq_bb piece[16]; /* the squares of each piece, by xq_piece_slot */
    uint8_t on[XQ_SQUARES];
} step_board;

/* The first and second pieces beyond a square s in each orthogonal direction (-1: none), and the
 * same as two square sets (a missing piece left out). They do not depend on s's own occupancy,
 * so one scan serves a step before and after it. */
typedef struct lines {
    int8_t first[4], second[4];
    xq_bb firsts, seconds;
} lines;

static void scan_lines(const step_board *b, int s, lines *v)
{
    v->firsts = v->seconds = 0;
    for (int d = 0; d < 4; d++) {
        int f, g;
        xq_first_two_on(b->occ, s, d, &f, &g);
        v->first[d] = (int8_t)f;
        v->second[d] = (int8_t)g;
        v->firsts |= xq_bit(f & 127); /* -1 is bit 127, past every square: masked off below */
        v->seconds |= xq_bit(g & 127);
    }
    v->firsts &= b->occ;
    v->seconds &= b->occ;
}

/* All ones when c holds, else 0. */
static inline xq_bb xq_when(int c)
{
    return (xq_bb)0 - (xq_bb)(c != 0);
}

/* The occupied squares p on s attacks: a rook the first piece of each line, a cannon the second. */
static xq_bb targets(const step_board *b, uint8_t p, int s, const lines *v)
{
    int t = NNUE_PIECE_TYPE(p);
    if (t == XQ_ROOK)
        return v->firsts;
    if (t == XQ_CANNON)
        return v->seconds;
    return xq_step_targets(p, s, b->occ);
}

/* The squares of the horses, elephants, advisors, kings and pawns that attack s (bitboard.h's
 * rules, from the pieces' squares: xq_horse_from, xq_pawn_from and the symmetric steps). */
static xq_bb step_attackers(const step_board *b, int s)
{
    xq_bb a = 0, horses = b->piece[XQ_KNIGHT] | b->piece[8 + XQ_KNIGHT];
    xq_bb elephants = b->piece[XQ_BISHOP] | b->piece[8 + XQ_BISHOP];
    for (int d = 0; d < 4; d++) /* a leg or eye off the board (-1) reads bit 127, always clear; its tables are 0 */
        a |= ((xq_horse_from[s][d] & horses) | (xq_elephant_to[s][d] & elephants)) &
             xq_when(!((b->occ >> (xq_diag_next[s][d] & 127)) & 1));
    a |= xq_advisor_to[s] & (b->piece[XQ_ADVISOR] | b->piece[8 + XQ_ADVISOR]);
    a |= xq_king_to[s] & (b->piece[XQ_KING] | b->piece[8 + XQ_KING]);
    return a | (xq_pawn_from[0][s] & b->piece[XQ_PAWN]) | (xq_pawn_from[1][s] & b->piece[8 + XQ_PAWN]);
}

/* The rooks first and the cannons second on the lines from s, then the stepping pieces: no
 * branch on the pieces found. */
static xq_bb attackers(const step_board *b, int s, const lines *v)
{
    return step_attackers(b, s) | (v->firsts & (b->piece[XQ_ROOK] | b->piece[8 + XQ_ROOK])) |
           (v->seconds & (b->piece[XQ_CANNON] | b->piece[8 + XQ_CANNON]));
}

static void log_targets(nnue_threat_log *l, const step_board *b, int added, uint8_t p, int s, const lines *v)
{
    for (xq_bb t = targets(b, p, s, v); t; t &= t - 1) {
        int to = xq_lsb(t);
        nnue_threat_log_pair(l, added, p, s, b->on[to], to);
    }
}

/* The rooks and cannons on the side a1, a2 (first and second piece from s) whose attacks across
 * s change when s empties (`freed`: 1 on a lift, 0 on a put); v1, v2: the pieces on the other
 * side (-1: none). */
static void line_side(nnue_threat_log *l, const step_board *b, int freed, int a1, int a2, int v1, int v2)
{
    int t1 = NNUE_PIECE_TYPE(b->on[a1]);
    if (t1 == XQ_ROOK)
        nnue_threat_log_xray(l, freed, b->on[a1], a1, b->on[v1], v1);
    if (t1 == XQ_CANNON) {
        nnue_threat_log_xray(l, !freed, b->on[a1], a1, b->on[v1], v1);
        if (v2 >= 0)
            nnue_threat_log_xray(l, freed, b->on[a1], a1, b->on[v2], v2);
    }
    if (a2 >= 0 && NNUE_PIECE_TYPE(b->on[a2]) == XQ_CANNON)
        nnue_threat_log_xray(l, freed, b->on[a2], a2, b->on[v1], v1);
}

/* The threats of other pieces that run through s, which changes from occupied to empty
 * (freed = 1) or back (0); b->occ leaves s out either way. */
static void log_through(nnue_threat_log *l, const step_board *b, int freed, int s, const lines *v)
{
    for (int d = 0; d < 4; d += 2) {
        int p1 = v->first[d], q1 = v->first[d ^ 1];
        if (p1 < 0 || q1 < 0)
            continue; /* nothing on one side: no line across s */
        line_side(l, b, freed, q1, v->second[d ^ 1], p1, v->second[d]);
        line_side(l, b, freed, p1, v->second[d], q1, v->second[d ^ 1]);
    }
    for (int d = 0; d < 4; d++) {
        int h = xq_next[s][d], e = xq_diag_next[s][d];
        if (h >= 0 && NNUE_PIECE_TYPE(b->on[h]) == XQ_KNIGHT)
            for (xq_bb t = xq_horse_over[s][d] & b->occ; t; t &= t - 1)
                nnue_threat_log_xray(l, freed, b->on[h], h, b->on[xq_lsb(t)], xq_lsb(t));
        if (e >= 0 && NNUE_PIECE_TYPE(b->on[e]) == XQ_BISHOP)
            for (xq_bb t = xq_elephant_over[s][d] & b->occ; t; t &= t - 1)
                nnue_threat_log_xray(l, freed, b->on[e], e, b->on[xq_lsb(t)], xq_lsb(t));
    }
}

/* The direct pairs of piece p on s: its own threats and those onto it. */
static void log_direct(nnue_threat_log *l, const step_board *b, int added, uint8_t p, int s, const lines *v)
{
    log_targets(l, b, added, p, s, v);
    for (xq_bb a = attackers(b, s, v); a; a &= a - 1) {
        int from = xq_lsb(a);
        nnue_threat_log_pair(l, added, b->on[from], from, p, s);
    }
}

static void lift_step(nnue_threat_log *l, step_board *b, int s)
{
    lines v;
    scan_lines(b, s, &v);
    log_direct(l, b, 0, b->on[s], s, &v);
    b->occ &= ~xq_bit(s);
    b->piece[xq_piece_slot(b->on[s])] &= ~xq_bit(s);
    b->on[s] = 0;
    log_through(l, b, 1, s, &v);
}

static void put_step(nnue_threat_log *l, step_board *b, uint8_t p, int s)
{
    lines v;
    scan_lines(b, s, &v);
    log_through(l, b, 0, s, &v);
    b->occ |= xq_bit(s);
    b->piece[xq_piece_slot(p)] |= xq_bit(s);
    b->on[s] = p;
    log_direct(l, b, 1, p, s, &v);
}

/* y on s becomes x: the occupancy, so every attack, stays. */
static void replace_step(nnue_threat_log *l, step_board *b, uint8_t x, int s)
{
    lines v;
    scan_lines(b, s, &v);
    uint8_t y = b->on[s];
    log_targets(l, b, 0, y, s, &v);
    for (xq_bb a = attackers(b, s, &v); a; a &= a - 1) {
        int from = xq_lsb(a);
        nnue_threat_log_pair(l, 0, b->on[from], from, y, s);
        nnue_threat_log_pair(l, 1, b->on[from], from, x, s);
    }
    b->piece[xq_piece_slot(y)] &= ~xq_bit(s);
    b->piece[xq_piece_slot(x)] |= xq_bit(s);
    b->on[s] = x;
    log_targets(l, b, 1, x, s, &v);
}

void xq_make_threats(xq_pos *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                     const nnue_threat_filter *filter)
{
    if (threats) {
        step_board b;
        memcpy(b.on, pos->board.piece_on, sizeof b.on);
        b.occ = (xq_bb)pos->occupied[1] << 64 | pos->occupied[0];
        for (int k = 0; k < 16; k++)
            b.piece[k] = (xq_bb)pos->by_piece[k][1] << 64 | pos->by_piece[k][0];
        nnue_threat_log l;
        nnue_threat_log_start(&l, threats, filter);
        int from = XQ_FROM(move), to = XQ_TO(move);
        uint8_t piece = b.on[from];
        lift_step(&l, &b, from);
        if (b.on[to])
            replace_step(&l, &b, piece, to);
        else
            put_step(&l, &b, piece, to);
        nnue_threat_log_end(&l);
    }
    xq_make(pos, move, delta);
}
