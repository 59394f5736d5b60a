/* games/shogi/csa.c: shogi game records in CSA notation (the Computer Shogi Association's text
 * format, version 2.2), for `nnue match --out`: "V2.2", the players (N+ sente, N- gote), the
 * start position (PI for the standard one, else P1..P9 rows and P+/P- hands), "+" (sente to
 * move) or "-", one line per move ("+7776FU": colour, from file and rank, "00" for a drop, to
 * file and rank, the piece after the move), then the end: %TORYO (the side to move has lost:
 * mated or resigned), %SENNICHITE (repetition), %KACHI (a winning declaration), %CHUDAN (cut
 * short, e.g. the ply cap), and a comment line with the reason. */
#include <stdio.h>
#include <string.h>

#include "games/shogi/internal.h"

/* CSA's two letters of piece types 1..14 (include/nnue_board.h order). */
static const char *const csa_piece[] = {"", "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU",
                                        "TO", "NY", "NK", "NG", "UM", "RY"};

/* The promoted type of an unpromoted one (pawn..silver +8, bishop and rook +7). */
static int promoted(int type)
{
    return type <= NNUE_SHOGI_SILVER ? type + 8 : type == NNUE_SHOGI_BISHOP ? NNUE_SHOGI_HORSE : NNUE_SHOGI_DRAGON;
}

static void csa_move(const nnue_shogi_pos *pos, nnue_move m, char *buf, size_t size)
{
    int to = NNUE_SHOGI_MOVE_TO(m), from = NNUE_SHOGI_MOVE_FROM(m), type;
    char sign = pos->board.side_to_move == 0 ? '+' : '-';
    if (NNUE_SHOGI_MOVE_IS_DROP(m)) {
        type = NNUE_SHOGI_MOVE_TYPE(m);
        snprintf(buf, size, "%c00%d%d%s", sign, to / 9 + 1, to % 9 + 1, csa_piece[type]);
        return;
    }
    type = NNUE_PIECE_TYPE(pos->board.piece_on[from]);
    if (NNUE_SHOGI_MOVE_IS_PROMOTE(m))
        type = promoted(type);
    snprintf(buf, size, "%c%d%d%d%d%s", sign, from / 9 + 1, from % 9 + 1, to / 9 + 1, to % 9 + 1, csa_piece[type]);
}

/* P1..P9 (rank 1 first, files 9 to 1 in a row) and the hands. */
static void write_board(FILE *f, const nnue_shogi_pos *pos)
{
    for (int rank = 1; rank <= 9; rank++) {
        fprintf(f, "P%d", rank);
        for (int file = 9; file >= 1; file--) {
            uint8_t p = pos->board.piece_on[(file - 1) * 9 + rank - 1];
            if (p)
                fprintf(f, "%c%s", NNUE_PIECE_COLOUR(p) ? '-' : '+', csa_piece[NNUE_PIECE_TYPE(p)]);
            else
                fputs(" * ", f);
        }
        fputc('\n', f);
    }
    for (int c = 0; c < 2; c++) {
        int any = 0;
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++)
            any |= pos->board.hand[c][t];
        if (!any)
            continue;
        fprintf(f, "P%c", c ? '-' : '+');
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++)
            for (int k = 0; k < pos->board.hand[c][t]; k++)
                fprintf(f, "00%s", csa_piece[t]);
        fputc('\n', f);
    }
}

int nnue_shogi_write_csa(void *file, const nnue_game_record *g)
{
    FILE *f = file;
    nnue_shogi_pos pos;
    nnue_error err;
    if (nnue_shogi_parse_sfen(&pos, g->start, &err) != NNUE_OK)
        return -1;
    fprintf(f, "V2.2\nN+%s\nN-%s\n", g->names[0], g->names[1]);
    if (strcmp(g->start, NNUE_SHOGI_START_SFEN) == 0)
        fputs("PI\n", f);
    else
        write_board(f, &pos);
    fputs(pos.board.side_to_move == 0 ? "+\n" : "-\n", f);
    for (int i = 0; i < g->plies; i++) {
        nnue_move m;
        char text[16];
        if (nnue_shogi_parse_usi(&pos, g->moves[i], &m, &err) != NNUE_OK)
            return -1;
        csa_move(&pos, m, text, sizeof text);
        fprintf(f, "%s\n", text);
        nnue_shogi_make(&pos, m, NULL);
    }
    const char *end = g->declared ? "%KACHI" : g->winner < 0 && g->repetition ? "%SENNICHITE"
                                   : g->winner < 0                          ? "%CHUDAN"
                                                                            : "%TORYO";
    fprintf(f, "%s\n'%s, %s\n", end, g->reason,
            g->winner < 0 ? "draw" : g->winner == 0 ? "sente (+) wins" : "gote (-) wins");
    return 0;
}
