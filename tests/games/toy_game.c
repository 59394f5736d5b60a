/* tests/games/toy_game.c: the toy 9x10 game's rules and descriptor (toy_game.h). The move
 * generator walks rays from each piece; the test's brute-force counter checks it another way. */
#include "toy_game.h"

#include <stdio.h>
#include <string.h>

static const int dfile[8] = {1, -1, 0, 0, 1, 1, -1, -1}, drank[8] = {0, 0, 1, -1, 1, -1, 1, -1};

static int on_board(int f, int r)
{
    return f >= 0 && f < TOY_FILES && r >= 0 && r < TOY_RANKS;
}

/* 1 when colour `by` attacks sq (rooks along clear lines, the king next to it). */
static int attacked(const nnue_board *b, int sq, int by)
{
    int f0 = sq % TOY_FILES, r0 = sq / TOY_FILES;
    for (int d = 0; d < 8; d++) {
        int f = f0 + dfile[d], r = r0 + drank[d];
        if (on_board(f, r) && b->piece_on[r * TOY_FILES + f] == NNUE_PIECE(by, TOY_KING))
            return 1;
    }
    for (int d = 0; d < 4; d++)
        for (int f = f0 + dfile[d], r = r0 + drank[d]; on_board(f, r); f += dfile[d], r += drank[d]) {
            uint8_t p = b->piece_on[r * TOY_FILES + f];
            if (p) {
                if (p == NNUE_PIECE(by, TOY_ROOK))
                    return 1;
                break;
            }
        }
    return 0;
}

static void make(void *position, nnue_move m, nnue_delta *delta)
{
    nnue_board *b = &((toy_pos *)position)->board;
    int from = TOY_FROM(m), to = TOY_TO(m);
    uint8_t p = b->piece_on[from], cap = TOY_CAPTURED(m);
    int us = NNUE_PIECE_COLOUR(p);
    if (delta) {
        memset(delta, 0, sizeof *delta);
        delta->dirty[0] = (nnue_dirty){p, p, (int8_t)from, (int8_t)to, 0, 0};
        if (cap)
            delta->dirty[1] = (nnue_dirty){cap, 0, (int8_t)to, NNUE_SQ_NONE, 0, 0};
        delta->count = cap ? 2 : 1;
        delta->king_moved[us] = NNUE_PIECE_TYPE(p) == TOY_KING;
    }
    b->piece_on[to] = p;
    b->piece_on[from] = 0;
    if (NNUE_PIECE_TYPE(p) == TOY_KING)
        b->king_sq[us] = (uint8_t)to;
    b->piece_count -= cap != 0;
    b->side_to_move ^= 1;
}

static void unmake(void *position, nnue_move m)
{
    nnue_board *b = &((toy_pos *)position)->board;
    int from = TOY_FROM(m), to = TOY_TO(m);
    uint8_t p = b->piece_on[to], cap = TOY_CAPTURED(m);
    b->piece_on[from] = p;
    b->piece_on[to] = cap;
    if (NNUE_PIECE_TYPE(p) == TOY_KING)
        b->king_sq[NNUE_PIECE_COLOUR(p)] = (uint8_t)from;
    b->piece_count += cap != 0;
    b->side_to_move ^= 1;
}

/* Adds from -> to if the target holds no own piece and no king, and the mover's king is safe. */
static int try_add(toy_pos *pos, int from, int to, nnue_move *moves, int n)
{
    nnue_board *b = &pos->board;
    uint8_t target = b->piece_on[to];
    int us = b->side_to_move;
    if (target && (NNUE_PIECE_COLOUR(target) == us || NNUE_PIECE_TYPE(target) == TOY_KING))
        return n;
    nnue_move m = TOY_MOVE(from, to, target);
    make(pos, m, NULL);
    int safe = !attacked(b, b->king_sq[us], !us);
    unmake(pos, m);
    if (safe)
        moves[n++] = m;
    return n;
}

static int legal_moves(const void *position, nnue_move *moves)
{
    toy_pos copy = *(const toy_pos *)position;  /* try_add makes and unmakes */
    const nnue_board *b = &copy.board;
    int n = 0;
    for (int sq = 0; sq < TOY_SQUARES; sq++) {
        uint8_t p = b->piece_on[sq];
        if (!p || NNUE_PIECE_COLOUR(p) != b->side_to_move)
            continue;
        int king = NNUE_PIECE_TYPE(p) == TOY_KING, f0 = sq % TOY_FILES, r0 = sq / TOY_FILES;
        for (int d = 0; d < (king ? 8 : 4); d++)
            for (int f = f0 + dfile[d], r = r0 + drank[d]; on_board(f, r); f += dfile[d], r += drank[d]) {
                n = try_add(&copy, sq, r * TOY_FILES + f, moves, n);
                if (king || b->piece_on[r * TOY_FILES + f])
                    break;
            }
    }
    return n;
}

static int fail(nnue_error *err, int column, const char *what)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = NNUE_E_SYNTAX;
        snprintf(err->file, sizeof err->file, "toy position");
        err->line = 1;
        err->column = column;
        err->offset = -1;
        snprintf(err->message, sizeof err->message, "%s", what);
    }
    return 1;
}

static int parse(void *position, const char *text, nnue_error *err)
{
    toy_pos pos;
    memset(&pos, 0, sizeof pos);
    nnue_board *b = &pos.board;
    b->num_squares = TOY_SQUARES;
    int kings[2] = {0, 0}, rooks[2] = {0, 0}, rank = TOY_RANKS - 1, file = 0, i = 0;
    for (; text[i] && text[i] != ' '; i++) {
        char c = text[i];
        if (c == '/') {
            if (file != TOY_FILES || rank == 0)
                return fail(err, i + 1, "a rank of 9 squares, 10 ranks");
            rank--, file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
        } else if (strchr("KRkr", c) && c) {
            int colour = c >= 'a', type = c == 'K' || c == 'k' ? TOY_KING : TOY_ROOK;
            if (file >= TOY_FILES)
                return fail(err, i + 1, "a rank of 9 squares");
            int sq = rank * TOY_FILES + file++;
            b->piece_on[sq] = NNUE_PIECE(colour, type);
            b->piece_count++;
            if (type == TOY_KING)
                kings[colour]++, b->king_sq[colour] = (uint8_t)sq;
            else
                rooks[colour]++;
        } else {
            return fail(err, i + 1, "a piece letter (K R k r), a digit 1-9 or '/'");
        }
        if (file > TOY_FILES)
            return fail(err, i + 1, "a rank of 9 squares");
    }
    if (rank != 0 || file != TOY_FILES)
        return fail(err, i + 1, "10 ranks of 9 squares");
    if (kings[0] != 1 || kings[1] != 1 || rooks[0] > 2 || rooks[1] > 2)
        return fail(err, 1, "one king and at most two rooks a side");
    if (text[i] != ' ' || (text[i + 1] != 'w' && text[i + 1] != 'b') || text[i + 2])
        return fail(err, i + 2, "a space and the side to move, 'w' or 'b'");
    b->side_to_move = text[i + 1] == 'b';
    if (attacked(b, b->king_sq[!b->side_to_move], b->side_to_move))
        return fail(err, 1, "the side not to move out of check");
    *(toy_pos *)position = pos;
    return 0;
}

static void format(const void *position, char *buf, unsigned size)
{
    const nnue_board *b = &((const toy_pos *)position)->board;
    char out[128];
    int n = 0;
    for (int rank = TOY_RANKS - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < TOY_FILES; file++) {
            uint8_t p = b->piece_on[rank * TOY_FILES + file];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty), empty = 0;
            char c = NNUE_PIECE_TYPE(p) == TOY_KING ? 'K' : 'R';
            out[n++] = NNUE_PIECE_COLOUR(p) ? (char)(c + 'a' - 'A') : c;
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        out[n++] = rank ? '/' : ' ';
    }
    out[n++] = b->side_to_move ? 'b' : 'w';
    out[n] = 0;
    snprintf(buf, size, "%s", out);
}

static void format_move(nnue_move m, char *buf, unsigned size)
{
    int from = TOY_FROM(m), to = TOY_TO(m);
    snprintf(buf, size, "%c%d%c%d", 'a' + from % TOY_FILES, from / TOY_FILES, 'a' + to % TOY_FILES, to / TOY_FILES);
}

static int parse_move(const void *position, const char *text, nnue_move *move, nnue_error *err)
{
    nnue_move moves[NNUE_MAX_MOVES];
    int n = legal_moves(position, moves);
    for (int i = 0; i < n; i++) {
        char name[8];
        format_move(moves[i], name, sizeof name);
        if (strcmp(name, text) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    return fail(err, 0, "not a legal move");
}

static const nnue_board *board(const void *position)
{
    return &((const toy_pos *)position)->board;
}

static int in_check(const void *position)
{
    const nnue_board *b = board(position);
    return attacked(b, b->king_sq[b->side_to_move], !b->side_to_move);
}

/* Selector variable: the file of the side to move's king, 0..8 (a YAML may read it). */
static int32_t stm_king_file(const nnue_board *b)
{
    return b->king_sq[b->side_to_move] % TOY_FILES;
}

static const nnue_game_var vars[] = {{"toy_king_file", 0, 8, stm_king_file}};
static const char *const piece_names[] = {"R", "K"};
static const char *const probes[] = {TOY_START, "4k4/9/9/9/9/9/9/9/9/R3K3R w", NULL};

const nnue_game toy_game = {
    .name = "toy9x10",
    .files = TOY_FILES,
    .ranks = TOY_RANKS,
    .piece_types = TOY_KING,
    .king_type = TOY_KING,
    .max_pieces = 6,
    .piece_names = piece_names,
    .vars = vars,
    .n_vars = 1,
    .start = TOY_START,
    .position_word = "fen",
    .protocol = "uci",
    .colour_names = {"white", "black"},
    .counter_fields = 0,
    .max_plies = 200,
    .probes = probes,
    .pos_size = sizeof(toy_pos),
    .parse = parse,
    .format = format,
    .legal_moves = legal_moves,
    .make = make,
    .unmake = unmake,
    .parse_move = parse_move,
    .format_move = format_move,
    .board = board,
    .in_check = in_check,
    .size = sizeof(nnue_game),
};
