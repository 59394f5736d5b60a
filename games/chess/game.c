/* games/chess/game.c: the chess vtable (nnue_game_chess) for the tool and the
 * generic tests, and the fast perft (bulk counting at depth 1). */
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

const nnue_game nnue_game_chess = {
    .name = "chess",
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
    .start = NNUE_CHESS_START_FEN,
};
