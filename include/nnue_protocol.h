/* nnue_protocol.h: parsing one line of the UCI (chess) or USI (shogi) engine protocol.
 *
 * An engine reads lines from its GUI and hands each to nnue_protocol_parse, which splits it
 * into a command and its arguments without looking at a board: positions and moves stay text,
 * checked later against the game (nnue_chess_parse_fen / nnue_shogi_parse_usi ...). Tokens are
 * separated by any run of spaces or tabs; a trailing "\r\n" or "\n" is ignored.
 *
 * Commands understood (both protocols; the engine decides which to answer):
 *   uci | usi | isready | ucinewgame | usinewgame | stop | ponderhit | quit
 *   setoption name <id, may contain spaces> [value <text, may contain spaces>]
 *   position (startpos | fen <4 or 6 fields> | sfen <3 or 4 fields>) [moves <move>...]
 *   go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes|byoyomi <n>]... [infinite] [ponder]
 *      [mate <n>|infinite]   (USI "go mate")
 *   gameover <win|lose|draw>   (USI)
 *   debug [on|off], register ... (UCI; accepted, no arguments kept)
 * Errors (NNUE_E_SYNTAX, err->file = "protocol", line 1, column = 1-based character position
 * of the culprit): an unknown command, a missing or non-numeric value after a go parameter,
 * "position" without startpos/fen/sfen, a FEN/SFEN with the wrong number of
 * fields, more than NNUE_PROTOCOL_MAX_MOVES moves or a move longer than 7 characters, setoption
 * without "name", a line longer than NNUE_PROTOCOL_MAX_LINE. cmd->kind is then NNUE_CMD_ERROR. */
#ifndef NNUE_PROTOCOL_H
#define NNUE_PROTOCOL_H

#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NNUE_PROTOCOL_MAX_LINE 65536
#define NNUE_PROTOCOL_MAX_MOVES 2048

typedef enum nnue_cmd_kind {
    NNUE_CMD_ERROR = -1,
    NNUE_CMD_EMPTY = 0,   /* blank line */
    NNUE_CMD_UCI, NNUE_CMD_USI, NNUE_CMD_ISREADY, NNUE_CMD_NEWGAME, NNUE_CMD_SETOPTION,
    NNUE_CMD_POSITION, NNUE_CMD_GO, NNUE_CMD_STOP, NNUE_CMD_PONDERHIT, NNUE_CMD_QUIT,
    NNUE_CMD_GAMEOVER, NNUE_CMD_DEBUG, NNUE_CMD_REGISTER,
    NNUE_CMD_EVAL         /* "eval": not in the protocols; engines print the current position's evaluation */
} nnue_cmd_kind;

/* "go" limits; -1 = not given. Times in milliseconds; a negative clock (an overdrawn GUI
 * clock) reads as 0. */
typedef struct nnue_go_limits {
    long long wtime, btime, winc, binc, movetime, byoyomi, nodes;
    int movestogo, depth, mate;
    int infinite, ponder;   /* 0 or 1 */
} nnue_go_limits;

typedef struct nnue_command {
    nnue_cmd_kind kind;
    /* setoption */
    char option_name[128];
    char option_value[1024];
    int has_value;
    /* position: startpos = 1, or the FEN/SFEN text (fields joined by single spaces) */
    int startpos;
    char position[256];
    int move_count;
    char moves[NNUE_PROTOCOL_MAX_MOVES][8];
    /* go */
    nnue_go_limits go;
    /* gameover */
    char result[16];
} nnue_command;

/* Parses one line (NUL-terminated) into *cmd (about 20 KB: allocate it once, not per line).
 * Returns NNUE_OK, or NNUE_E_SYNTAX with err filled (see the top of this file), or NNUE_E_ARG
 * for NULL arguments. */
nnue_status nnue_protocol_parse(const char *line, nnue_command *cmd, nnue_error *err);

#ifdef __cplusplus
}
#endif
#endif
