/* games/shogi/game.c: the shogi descriptor and vtable (nnue_game_shogi), and perft. */
#include <stdlib.h>

#include "games/shogi/internal.h"

static unsigned long long perft_rec(nnue_shogi_pos *pos, int depth, nnue_move *stack)
{
    int n = sh_generate(pos, stack);
    if (depth <= 1)
        return (unsigned long long)n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        nnue_shogi_make(pos, stack[i], NULL);
        total += perft_rec(pos, depth - 1, stack + n);
        nnue_shogi_unmake(pos, stack[i]);
    }
    return total;
}

unsigned long long nnue_shogi_perft(nnue_shogi_pos *pos, int depth)
{
    if (!pos)
        return 0;
    if (depth <= 0)
        return 1;
    /* Each ply uses at most NNUE_MAX_MOVES entries of the move stack. */
    nnue_move local[NNUE_MAX_MOVES * 8];
    nnue_move *stack = local;
    if (depth > 8 && !(stack = malloc(sizeof *stack * NNUE_MAX_MOVES * (size_t)depth)))
        return 0;
    unsigned long long n = perft_rec(pos, depth, stack);
    if (stack != local)
        free(stack);
    return n;
}

static int v_parse(void *pos, const char *text, struct nnue_error *err)
{
    return (int)nnue_shogi_parse_sfen(pos, text, err);
}

static void v_format(const void *pos, char *buf, unsigned size)
{
    nnue_shogi_to_sfen(pos, buf, size);
}

static int v_legal_moves(const void *pos, nnue_move *moves)
{
    return sh_generate(pos, moves);
}

static void v_make(void *pos, nnue_move move, nnue_delta *delta)
{
    nnue_shogi_make(pos, move, delta);
}

static void v_unmake(void *pos, nnue_move move)
{
    nnue_shogi_unmake(pos, move);
}

static int v_parse_move(const void *pos, const char *text, nnue_move *move, struct nnue_error *err)
{
    return (int)nnue_shogi_parse_usi(pos, text, move, err);
}

static void v_format_move(nnue_move move, char *buf, unsigned size)
{
    nnue_shogi_move_to_usi(move, buf, size);
}

static const nnue_board *v_board(const void *pos)
{
    return &((const nnue_shogi_pos *)pos)->board;
}

static int v_in_check(const void *pos)
{
    return nnue_shogi_in_check(pos);
}

static unsigned long long v_perft(void *pos, int depth)
{
    return nnue_shogi_perft(pos, depth);
}

static const char *const piece_names[] = {"P", "L", "N", "S", "G", "B", "R", "K",
                                           "+P", "+L", "+N", "+S", "+B", "+R"};

/* Positions `nnue convert` evaluates with both nets: start, two openings. */
static const char *const probes[] = {
    NNUE_SHOGI_START_SFEN,
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
    "ln1g1g1nl/1ks2r3/1ppppsbpp/p4pp2/9/P1P1P1P2/1P1PSP1PP/1BK1GS1R1/LN1G3NL b - 31",
    NULL,
};

/* A full set per type (pawns 18, lances .. golds 4, bishops and rooks 2): a hand slot past
 * these would index another type's hand features. */
static const uint8_t shogi_hand_caps[NNUE_MAX_HAND_TYPES] = {0, 18, 4, 4, 4, 4, 2, 2};

const nnue_game nnue_game_shogi = {
    .name = "shogi",
    .files = 9,
    .ranks = 9,
    .piece_types = NNUE_SHOGI_DRAGON,
    .king_type = NNUE_SHOGI_KING,
    .hand_types = NNUE_SHOGI_ROOK,
    .max_hand = 18,
    .hand_caps = shogi_hand_caps,
    .write_record = nnue_shogi_write_csa,
    .max_pieces = 40,
    .piece_names = piece_names,
    .vars = sh_selector_vars,
    .n_vars = SH_SELECTOR_VARS,
    .var_values = sh_selector_values,
    .start = NNUE_SHOGI_START_SFEN,
    .position_word = "sfen",
    .protocol = "usi",
    .colour_names = {"black", "white"},
    .counter_fields = 1,
    .max_plies = 512,
    .probes = probes,
    .pos_size = sizeof(nnue_shogi_pos),
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
    .adjudicate = sh_adjudicate,
    .declaration_valid = sh_declaration_valid,
    .size = sizeof(nnue_game),
};
/* 111-byte board (90 squares) + 143 cells + 2 king cells: no padding before pawn_files. */
_Static_assert(sizeof(nnue_shogi_pos) == 264, "nnue_shogi_pos has no padding");
