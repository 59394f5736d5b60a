/* tests/features/fs_check.h: the incremental-versus-full checker shared by the feature tests.
 *
 * For one move of a game (through the generic nnue_game vtable, include/nnue_board.h) and a
 * list of feature sets, it checks for both perspectives:
 *  - active() invariants: every index < dimensions, no repeats (shogi: only the BonaPiece-0
 *    padding index may repeat), the expected count (shogi: 38 for HalfKP, 40 for the HalfKA
 *    sets; chess: one per feature piece); active_both(), when a set has it, writes the same
 *    list in the same order, and changed_both() what changed() writes for each perspective;
 *  - needs_refresh() is 1 exactly when the perspective's "king state" changed (the own king
 *    square, or for Chess768 its bucket and mirror state), computed here independently;
 *  - without refresh: multiset(active(before)) - removed + added == multiset(active(after));
 *  - unmake restores the same active lists.
 * Failures abort the running Check test with the position and move in the message. */
#ifndef NNUE_TESTS_FS_CHECK_H
#define NNUE_TESTS_FS_CHECK_H

#include <stdint.h>

#include "features/feature_set.h"
#include "nnue_board.h"
#include "support.h"

/* Cheap assertion for hot loops (ck_assert_* reports every success to the parent). */
#define FS_REQUIRE(cond, ...)            \
    do {                                 \
        if (!(cond))                     \
            ck_abort_msg(__VA_ARGS__);   \
    } while (0)

typedef struct fs_case {
    const char *label;                   /* for messages */
    const nnue_feature_set *fs;
    const nnue_feature_params *params;   /* NULL for fixed sets */
} fs_case;

/* The cases of a game: every registered set of that game, Chess768 with several params, a set
 * with variants once per variant (Full_Threats/sfnnv10, Full_Threats/sfnnv16). */
#define FS_MAX_CASES 12
int fs_cases_for(const char *game, fs_case *cases, int max);

/* Cwtch (4 buckets, mirror), Obsidian (1 bucket, mirror), and 4 buckets without mirror. */
extern const nnue_feature_params fs_params_cwtch, fs_params_obsidian, fs_params_nomirror;
/* Stormphrax (16 buckets, mirror, merged kings: variant 1) and PlentyChess (12 buckets, mirror). */
extern const nnue_feature_params fs_params_stormphrax, fs_params_plentychess;

/* The game's vtable; fails the test when the adapter is not registered. */
const nnue_game *fs_game(const char *name);

/* Checks active() invariants; writes the indices to out and returns the count. */
int fs_check_active(const fs_case *c, const nnue_board *board, int persp, uint32_t *out,
                    const char *where);

/* Checks one move given as before/after boards and its delta (no game needed). Returns the
 * number of (case, perspective) pairs that were updated incrementally. */
int fs_check_delta(const fs_case *cases, int n, const nnue_board *before,
                   const nnue_board *after, const nnue_delta *delta, const char *where);

/* Makes `move` on pos, checks every case and perspective, unmakes and checks restoration.
 * If after_text is not NULL, also checks that the position after the move has the same
 * active features as after_text parsed from scratch. Returns the number of
 * (case, perspective) pairs that were updated incrementally. */
int fs_check_move(const nnue_game *g, void *pos, nnue_move move, const fs_case *cases, int n,
                  const char *after_text, const char *where);

/* Every legal move of the position `text`; returns the number of moves checked. */
int fs_check_all_moves(const nnue_game *g, const char *text, const fs_case *cases, int n);

/* Multiset equality of two index lists (sorted copies). */
int fs_same_multiset(const uint32_t *a, int na, const uint32_t *b, int nb);

#endif
