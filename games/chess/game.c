/* games/chess/game.c: the chess descriptor and vtable (nnue_game_chess) for core, the tool
 * and the generic tests, and the fast perft (bulk counting at depth 1). */
#include "games/chess/bitboard.h"

static unsigned long long perft_rec(nnue_chess_pos *p, int depth)
{
    nnue_move moves[NNUE_MAX_MOVES];
    int n = nnue_chess_legal_moves(p, moves);
    if (depth <= 1)
        return (unsigned long long)n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        nnue_chess_make(p, moves[i], NULL);
        total += perft_rec(p, depth - 1);
        nnue_chess_unmake(p, moves[i]);
    }
    return total;
}

unsigned long long nnue_chess_perft(nnue_chess_pos *pos, int depth)
{
    if (!pos)
        return 0;
    return depth <= 0 ? 1 : perft_rec(pos, depth);
}

static int v_parse(void *pos, const char *text, nnue_error *err)
{
    return (int)nnue_chess_parse_fen(pos, text, err);
}

static void v_format(const void *pos, char *buf, unsigned size)
{
    nnue_chess_to_fen(pos, buf, size);
}

static int v_legal_moves(const void *pos, nnue_move *moves)
{
    return nnue_chess_legal_moves(pos, moves);
}

static void v_make(void *pos, nnue_move move, nnue_delta *delta)
{
    nnue_chess_make(pos, move, delta);
}

static void v_make_threats(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats)
{
    nnue_chess_make_threats(pos, move, delta, threats);
}

static void v_make_threats_filtered(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                    const nnue_threat_filter *filter)
{
    nnue_chess_make_threats_filtered(pos, move, delta, threats, filter);
}

static void v_unmake(void *pos, nnue_move move)
{
    nnue_chess_unmake(pos, move);
}

static int v_parse_move(const void *pos, const char *text, nnue_move *move, nnue_error *err)
{
    return (int)nnue_chess_parse_uci(pos, text, move, err);
}

static void v_format_move(nnue_move move, char *buf, unsigned size)
{
    nnue_chess_move_to_uci(move, buf, size);
}

static const nnue_board *v_board(const void *pos)
{
    return &((const nnue_chess_pos *)pos)->board;
}

static int v_in_check(const void *pos)
{
    return nnue_chess_in_check(pos);
}

static unsigned long long v_perft(void *pos, int depth)
{
    return nnue_chess_perft(pos, depth);
}

/* Stockfish's material count (evaluate.cpp of 17+, the centipawn models' m): pawns 1, knights
 * and bishops 3, rooks 5, queens 9, of both sides. */
static int v_material(const nnue_board *b)
{
    static const int weight[8] = {[NNUE_CHESS_PAWN] = 1, [NNUE_CHESS_KNIGHT] = 3, [NNUE_CHESS_BISHOP] = 3,
                                 [NNUE_CHESS_ROOK] = 5, [NNUE_CHESS_QUEEN] = 9, [NNUE_CHESS_KING] = 0};
    int m = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b->piece_on[sq])
            m += weight[NNUE_PIECE_TYPE(b->piece_on[sq]) & 7];
    return m;
}

static const char *const piece_names[] = {"P", "N", "B", "R", "Q", "K"};

/* Positions `nnue convert` evaluates with both nets: start, open game, pawn ending, Kiwipete. */
static const char *const probes[] = {
    NNUE_CHESS_START_FEN,
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/2k5/3p4/p2P1p2/P2P1P2/8/5K2/8 b - - 3 51",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    NULL,
};

const nnue_game nnue_game_chess = {
    .name = "chess",
    .files = 8,
    .ranks = 8,
    .piece_types = NNUE_CHESS_KING,
    .king_type = NNUE_CHESS_KING,
    .max_pieces = 32,
    .piece_names = piece_names,
    .start = NNUE_CHESS_START_FEN,
    .position_word = "fen",
    .protocol = "uci",
    .colour_names = {"white", "black"},
    .counter_fields = 2,
    .max_plies = 400,
    .probes = probes,
    .pos_size = sizeof(nnue_chess_pos),
    .parse = v_parse,
    .format = v_format,
    .legal_moves = v_legal_moves,
    .make = v_make,
    .unmake = v_unmake,
    .parse_move = v_parse_move,
    .format_move = v_format_move,
    .board = v_board,
    .in_check = v_in_check,
    .perft = v_perft,
    .adjudicate = chess_adjudicate,
    .human_move = chess_san,
    .size = sizeof(nnue_game),
    .make_threats = v_make_threats,
    .make_threats_filtered = v_make_threats_filtered,
    .material = v_material,
};

