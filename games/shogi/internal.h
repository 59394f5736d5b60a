/* games/shogi/internal.h: padded-mailbox geometry, piece movement tables and
 * the helpers shared by the shogi adapter's files (not a public header). */
#ifndef NNUE_GAMES_SHOGI_INTERNAL_H
#define NNUE_GAMES_SHOGI_INTERNAL_H

#include <stdint.h>

#include "nnue_shogi.h"

#define SH_WALL 0x40u
#define SH_BLACK 0
#define SH_WHITE 1

enum {
    SH_PAWN = NNUE_SHOGI_PAWN, SH_LANCE, SH_KNIGHT, SH_SILVER, SH_GOLD, SH_BISHOP, SH_ROOK,
    SH_KING, SH_PRO_PAWN, SH_PRO_LANCE, SH_PRO_KNIGHT, SH_PRO_SILVER, SH_HORSE, SH_DRAGON
};

/* Cell of file index f (0..8 = files 1..9) and rank index r (0..8 = a..i). */
static inline int sh_cell(int f, int r) { return (f + 1) * 13 + r + 2; }
static inline int sh_cell_of_sq(int sq) { return sh_cell(sq / 9, sq % 9); }
extern const uint8_t sh_cell_sq[NNUE_SHOGI_CELLS];    /* cell -> square, 255 on walls */
extern const uint8_t sh_cell_rank[NNUE_SHOGI_CELLS];  /* cell -> rank index, 255 on walls */
static inline int sh_rank_of(int cell) { return sh_cell_rank[cell]; }
static inline int sh_sq_of_cell(int cell) { return sh_cell_sq[cell]; }

/* Rank counted from the colour's own far side: 0 = the last rank it moves towards. */
static inline int sh_rel_rank(int colour, int cell)
{
    int r = sh_rank_of(cell);
    return colour == SH_BLACK ? r : 8 - r;
}

/* Directions 0..7 (one step), 8..9 black's knight jumps, 10..11 white's.
 * Black moves towards rank a, i.e. "north" = -1. */
extern const int sh_offset[12];
extern const uint8_t sh_opposite[8];     /* index of the reverse direction */
extern const uint16_t sh_step_mask[32];  /* by piece code: directions it steps to */
extern const uint8_t sh_slide_mask[32];  /* by piece code: directions it slides along */
extern const uint8_t sh_promote[16];     /* type -> promoted type, 0 if it cannot promote */
extern const uint8_t sh_demote[16];      /* type -> unpromoted type (kings: king) */
extern const uint8_t sh_max_count[8];    /* pieces of each unpromoted kind in a set */
extern const char sh_letter[8];          /* unpromoted type -> uppercase SFEN letter */

static inline int sh_colour(unsigned piece) { return (int)(piece >> 4); }
static inline int sh_type(unsigned piece) { return (int)(piece & 15u); }

/* attacks.c: on a mailbox b (the position's or a modified copy). */
int sh_attackers_on(const uint8_t *b, int cell, int by, int *cells, int max);
int sh_attacked(const nnue_shogi_pos *pos, int cell, int by);
int sh_attackers(const nnue_shogi_pos *pos, int cell, int by, int *cells, int max);

/* movegen.c */
int sh_generate(const nnue_shogi_pos *pos, nnue_move *moves);
/* 1 if a piece of this type and colour could still move from cell (dead-end rule). */
int sh_can_stand(int colour, int type, int cell);
/* 1 if dropping a pawn of the side to move on cell mates the opponent. */
int sh_pawn_drop_mates(const nnue_shogi_pos *pos, int cell);

/* makemove.c: places/removes a piece on both the mailbox and the nnue_board. */
void sh_put(nnue_shogi_pos *pos, int cell, unsigned piece);

/* The descriptor's selector variables and match rules (selector.c, rules.c). */
#define SH_SELECTOR_VARS 18
extern const nnue_game_var sh_selector_vars[SH_SELECTOR_VARS];
void sh_selector_values(const nnue_board *board, int32_t *values); /* all of them at once */
int sh_adjudicate(const void *pos, const nnue_game_history *h, int *winner, const char **reason);
int sh_declaration_valid(const void *pos);

/* games/shogi/csa.c: a finished game as a CSA record (nnue_game.write_record). */
int nnue_shogi_write_csa(void *file, const nnue_game_record *game);

#endif
