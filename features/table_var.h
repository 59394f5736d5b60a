/* features/table_var.h: the contract of a table variable, a selector variable whose value comes
 * from a table the net file stores (YaneuraOu's game progress: features/shogi_progress.c).
 *
 * A YAML stack selector names it like any board fact ("progress * 8 / 256"); naming it adds its
 * section to the file (after the feature transformer, before the stacks: a u32 hash, then
 * `values` int32), folds its hash into the header's file hash (xor), and bounds its value by
 * lo..hi for the selector's range check. The net keeps the table (`values` int32 read from the
 * file, then `derived` more that `prepare` fills once at load); an evaluation asks `value`.
 * The variable reads boards of one game, like a feature set, so it lives beside them; the
 * graph (core/arch/expr.c) finds it by name here and never names its file.
 * Adding one: a file in features/, two lines in features/table_var.c, or from outside the
 * library nnue_register_table_var (the rules of base/registry.h). */
#ifndef NNUE_FEATURES_TABLE_VAR_H
#define NNUE_FEATURES_TABLE_VAR_H

#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

struct nnue_kernels;

typedef struct nnue_table_var {
    const char *name;          /* as selectors name it */
    const char *game;          /* the game whose boards it reads */
    int32_t lo, hi;            /* its values on every board */
    const char *section;       /* the file section, for messages ("progress") */
    uint32_t hash;             /* the u32 that opens the section; xor-ed into the file hash */
    uint32_t values;           /* int32 values of the section after its hash */
    uint32_t derived;          /* int32 values prepare() adds after them in memory (0: none) */
    /* Fills table[values .. values + derived) from the file's values (may be NULL). */
    void (*prepare)(int32_t *table);
    /* The value on a board, lo..hi; *measure (when not NULL) gets the quantity it was bucketed
     * from (progress: the int64 sum). k: the kernel table of the state the call runs for
     * (simd/kernels.h), never NULL, for a variable whose walk of the board runs a kernel. */
    int32_t (*value)(const struct nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t *measure);
    /* Optional, all three or none: the value kept incrementally, as a sum of two perspectives'
     * shares that moves update like an accumulator (core/eval/table_parts.c keeps them per ply).
     * parts(): both perspectives' shares on a board, from scratch (out[persp]); part_move():
     * perspective persp's share after a move (`after` the board right after it, as feature sets'
     * changed() get it) from its share before, or -1 (*part untouched) when the move changes what
     * orients that perspective (its own king moved): then the state takes parts() afresh;
     * value_of(): the value, and *measure as value() gives them, from the two shares. value()
     * must equal value_of() of parts()'. */
    void (*parts)(const struct nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t out[2]);
    int (*part_move)(const int32_t *table, const nnue_board *after, const nnue_delta *delta, int persp,
                     int64_t *part);
    int32_t (*value_of)(const int32_t *table, const int64_t parts[2], int64_t *measure);
    /* Optional, with the three above: both perspectives' shares after a move in one call, 0 with
     * parts[0] and parts[1] as part_move would leave them, or -1 with neither touched when part_move
     * would refuse either (the state then asks part_move for each). One walk of the delta for the
     * two: the usual case, a move below an evaluated position. */
    int (*part_move_both)(const int32_t *table, const nnue_board *after, const nnue_delta *delta, int64_t parts[2]);
    /* Random tables for `nnue init` (may be NULL: zeros): value k of the file's section from a
     * random 32-bit r. */
    int32_t (*random_value)(uint32_t k, uint32_t r);
} nnue_table_var;

/* Registry (features/table_var.c): by name (NULL when unknown), by index (NULL past the last),
 * and at run time (NNUE_OK; NNUE_E_ARG with err naming what is missing or the taken name). */
const nnue_table_var *nnue_table_var_find(const char *name);
const nnue_table_var *nnue_table_var_at(int i);
nnue_status nnue_register_table_var(const nnue_table_var *var, nnue_error *err);

#endif
