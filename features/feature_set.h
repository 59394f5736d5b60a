/* features/feature_set.h: the contract every feature set fills (one file per set in features/).
 *
 * A feature set turns a board (include/nnue_board.h) seen from one
 * perspective (colour 0 or 1) into the indices of its active inputs, and a
 * move's delta into the indices that went away and came in. It never sees a
 * game's internals. Adding a set: one file in features/ defining a const
 * nnue_feature_set, and two lines in features/registry.c (its extern, its table entry; or,
 * from outside the library, nnue_register_internal_feature_set).
 *
 * The contract lives here, beside the sets and their registry, below core/arch/ (whose graph
 * holds a set and its parameters): features/ includes nothing of core/, only the floors
 * under it (base/yaml_read.h, base/board_undo.h) and simd/ (the kernels some sets list with). */
#ifndef NNUE_FEATURES_FEATURE_SET_H
#define NNUE_FEATURES_FEATURE_SET_H

#include <stdint.h>

#include "base/yaml_read.h"
#include "nnue_board.h"

#define NNUE_MAX_ACTIVE 64      /* default bound: active features per perspective (shogi: 38) */
#define NNUE_MAX_CHANGED 8      /* default bound: removed or added features per perspective, one move */
#define NNUE_MAX_ACTIVE_ANY 256 /* largest max_active / max_changed any set may declare */

/* Per-arch settings of a configurable set (the bullet-style "Chess768"); fixed sets ignore it. */
/* A feature set's parameters in one architecture. The set reads them from the YAML itself (its
 * `fields`, then `check_params`): the core only stores them. */
typedef struct nnue_feature_params {
    const struct nnue_feature_set *set; /* the set these parameters belong to (load/arch_ft.c sets it) */
    uint8_t king_buckets;          /* number of king buckets (1 = none) */
    uint8_t king_bucket_of[NNUE_MAX_SQUARES]; /* bucket of the own king's square (the set's view) */
    uint8_t mirror;                /* 1: mirror files when the own king stands on files e-h */
    uint8_t variant;               /* index into the set's variants[] (0 = the default) */
    uint8_t n_listed;              /* entries of listed[] as the YAML gave them */
    uint8_t listed[NNUE_MAX_SQUARES]; /* a list key's raw values (king_buckets), for check_params */
    /* The kernel table of the state a call runs for (simd/kernels.h; a state's own copy of its
     * sets' parameters carries it, core/eval/state.c), for the sets whose lists run a kernel
     * (shogi HalfKP's board part, Full_Threats' bit counts): nnue_fs_kernels(). NULL in the
     * architecture's own parameters: the scalar table. */
    const struct nnue_kernels *kernels;
    /* The set's board summaries (summary_bytes, below), which the state keeps per ply and hands in
     * for its calls of the hooks that take a board: summary_after, the summary of the board the
     * hook gets (`board`, or `after` of a move hook); summary_before, of the board before the
     * move (the move hooks: needs_refresh(), changed(), changed_both(), changed_threats()).
     * NULL in the architecture's own parameters (tests, the refresh cache's key, any other
     * caller): a set then takes what it needs from the board. */
    const void *summary_before, *summary_after;
} nnue_feature_params;

#define NNUE_FS_SUMMARY_BYTES 64 /* most bytes of a set's board summary */

/* What a set's YAML key handlers (nnue_feature_set.fields) receive as their target: the first
 * member of every struct load/arch_ft.c passes to them. */
typedef struct nnue_fs_ctx {
    nnue_feature_params *params;
} nnue_fs_ctx;

/* A named variant of a set (YAML `variant: NAME` in a set item): the same rules with other
 * tables, e.g. Full_Threats of Stockfish 18 (79,856 inputs) and of Stockfish 19 (59,808). */
typedef struct nnue_fs_variant {
    const char *name;              /* YAML value, e.g. "sfnnv16" */
    const char *display;           /* name in description strings */
    uint32_t hash;                 /* the set's Stockfish-style hash in this variant */
} nnue_fs_variant;

/* A move's threat changes as handed in beside its delta (include/nnue_board.h nnue_threats,
 * nnue_state_push_threats), as the state keeps them. */
typedef struct nnue_threat_span {
    const nnue_threat *removed, *added;
    int n_removed, n_added;
} nnue_threat_span;

typedef struct nnue_feature_set {
    const char *name;              /* name used in YAML: "HalfKP", "HalfKAv2_hm", ... */
    const char *game;              /* name of the game it reads (nnue_game.name) */
    const char *display;           /* name in description strings, e.g. "HalfKP(Friend)" */
    uint32_t hash;                 /* Stockfish-style hash of the set (0 if the format has none) */
    /* Optional: the variants a YAML set item may name, NULL-name-terminated; [0] is the default
     * and repeats display and hash. NULL: the set has one form. */
    const nnue_fs_variant *variants;
    /* Bounds of active() and of each list changed() writes; 0 = NNUE_MAX_ACTIVE / NNUE_MAX_CHANGED.
     * At most NNUE_MAX_ACTIVE_ANY (Full_Threats: a move changes many attacks). */
    uint16_t max_active, max_changed;
    /* Most pieces (on the board and in hands, kings included) of a board this set takes: for
     * every such board active() stays within max_active (the set's comment says why), and the
     * state refuses a board with more (core/eval/state.c), so the worst-case ranges of the weights
     * (core/net/net_ranges.c, max_active rows) hold for every board evaluated. 0 = not declared. */
    uint8_t max_pieces;
    /* Optional: a bound beyond the piece count (PP_3Wide: at most 16 pawns, so that its pairs fit
     * max_active). NULL, or a message (static or in buf) saying why the board is refused. */
    const char *(*board_fits)(const nnue_feature_params *params, const nnue_board *board, char *buf, size_t size);
    /* 1: changed() reads more of `after` than the moved pieces' context (Full_Threats reads the
     * whole board), so the state hands it the exact board after each move of a lazy update. */
    uint8_t exact_board;
    /* With exact_board: 1 when changed() and changed_both() stay defined on any bytes of `after`
     * besides the kings' squares and the side to move (indices below dimensions(), lists within
     * max_changed: PP_3Wide reads only which squares hold pawns), so evaluate() need not check
     * the board whole before a one-move step of this set. 0: it does. */
    uint8_t changed_any_board;
    /* With changed_threats: 1 when it reads of `after` only the kings' squares and the side to
     * move (Full_Threats: the perspectives' orientation), the rest coming from the handed-in
     * threats push checked; evaluate() then checks only those before such a step. 0: the board
     * whole. */
    uint8_t threats_read_kings;
    /* 1: needs_refresh() reads the whole board, not only the kings, the delta and the summaries
     * (a rule that weighs every piece and keeps no summary), so the state checks every pushed
     * board whole first. (Without it, a push checks only what push reads: core/eval/state.c.
     * Pikafish's mirror rule weighs every piece through its summary: features/xiangqi_context.h.) */
    uint8_t refresh_reads_board;
    /* 1: active() fills its list up to max_pieces' worth of features with padding features when
     * the board holds fewer pieces (YaneuraOu's shogi sets), and changed() never takes padding
     * out: a refresh then holds max_pieces' worth whatever the board, which is what the state
     * counts from (so a delta that adds a piece past it is refused). */
    uint8_t pads_to_max;
    /* Number of inputs (may depend on params, e.g. king buckets * 768). */
    uint32_t (*dimensions)(const nnue_feature_params *params);
    /* Optional: the set's own YAML keys ({NULL}-terminated; target: nnue_fs_ctx), written beside
     * `features: NAME` in the feature_transformer mapping, or inside the set's item of a list. */
    const yfield *fields;
    /* Optional: checks and completes the parameters once every key was read (e.g. king bucket
     * tables against mirroring); returns a message (static or in buf), NULL when fine. */
    const char *(*check_params)(nnue_feature_params *params, char *buf, size_t size);
    /* Writes the active indices of perspective persp; returns how many (<= the set's max_active). */
    int (*active)(const nnue_feature_params *params, const nnue_board *board, int persp,
                  uint32_t *out);
    /* Indices removed and added by a move whose result is `after` (the board right after that
     * move, also when several moves are applied at once). Only called when needs_refresh() is 0
     * for that perspective. Writes counts to *n_removed, *n_added (each <= max_changed). */
    void (*changed)(const nnue_feature_params *params, const nnue_board *after,
                    const nnue_delta *delta, int persp, uint32_t *removed, int *n_removed,
                    uint32_t *added, int *n_added);
    /* 1 when the move invalidates every feature of persp (e.g. its own king moved). */
    int (*needs_refresh)(const nnue_feature_params *params, const nnue_board *after,
                         const nnue_delta *delta, int persp);
    /* The refresh rule as data: the own-king context of persp that orients its indices (king
     * square, bucket and mirror state, board half), < refresh_keys(params). needs_refresh() is 1
     * exactly when a move changes it (tests/features check that from these, not from the set's
     * name). The refresh cache (core/eval/refresh_cache.h) keys its slots with it; exactness never
     * depends on it (the cache diffs the active lists). Both NULL: no move forces a refresh. */
    uint32_t (*refresh_keys)(const nnue_feature_params *params);
    uint32_t (*refresh_key)(const nnue_feature_params *params, const nnue_board *board, int persp);
    /* Optional: active() of both perspectives in one pass over the board (out[p], n[p] as
     * active(persp = p) would write them, same order). NULL = active() twice. */
    void (*active_both)(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                        int n[2]);
    /* Optional: changed() of both perspectives in one pass (removed[p], n_removed[p], ... as
     * changed(persp = p) would write them, same order), called only when neither perspective
     * needs a refresh. NULL = changed() twice. */
    void (*changed_both)(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                         uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2]);
    /* Optional, for sets whose features are threats (Full_Threats): what changed() writes for
     * perspectives lo..hi (removed[p], n_removed[p], ... for lo <= p <= hi, same indices, maybe
     * in another order), from the move's threat changes handed in with it instead of from the
     * boards; called only when the move came with them. The piece codes and squares are checked
     * against the game (core/eval/board_check.c), each list holds at most NNUE_MAX_THREATS (the
     * set's max_changed must allow that many indices). NULL: changed()/changed_both() always. */
    void (*changed_threats)(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            const nnue_threat_span *threats, int lo, int hi, uint32_t *const removed[2],
                            int n_removed[2], uint32_t *const added[2], int n_added[2]);
    /* Optional, with changed_threats: 1 when a handed-in threat (its codes and squares already
     * checked against the game) is an attack of the set's tables: its attacker reaches `to` from
     * `from` on an empty board. 0 refuses the push (nnue_state_push_threats), so changed_threats
     * maps only pairs whose indices stay below dimensions(). NULL: every pair fitting the game. */
    int (*threat_is_attack)(const nnue_feature_params *params, const nnue_threat *threat);
    /* Optional, with threat_is_attack, for a game of at most 64 squares and piece types 1..7: the
     * same rule as a table, which push reads instead of calling it (core/eval/push_check.c):
     * threat_attacks[(colour << 3 | type) * 64 + from] has bit `to` set exactly when
     * threat_is_attack accepts that attacker on `from` attacking `to`, whatever the victim (16 x
     * 64 words). NULL: push calls threat_is_attack. */
    const uint64_t *threat_attacks;
    /* Optional, with changed_threats: the pairs that can be features (nnue_threat_filter's rule:
     * bit y of victims[x] set when attacker code x on victim code y maps to an index for some
     * perspective, king square and squares; codes below 32), for recorders to leave the others
     * out (nnue_state_threat_filter). Must pass every pair changed_threats maps to an index
     * (tests/features check it square by square). NULL: every pair. */
    void (*threat_pairs)(const nnue_feature_params *params, uint32_t victims[32]);
    /* 1: needs_refresh(persp) is 0 whenever persp's own king did not move (neither
     * delta->king_moved[persp] nor a dirty entry taking the game's king of that colour from one
     * square to another: nnue_fs_own_king_moved), whatever the board; push then calls it only
     * after such a move (tests/features check the claim on random moves). */
    uint8_t refresh_on_own_king_move;
    /* Optional, all three or none: a summary of the whole board that the move hooks read
     * (Pikafish's king buckets and mirror weigh every piece: features/xiangqi_context.h), which the
     * state keeps per ply and hands in (params->summary_before, summary_after) instead of the set
     * retaking it from the board at each call. summary(): from a board; summary_move(): from the
     * summary of the board before a move, and the move (`after` and `delta` as changed() gets
     * them). Both are defined on any bytes (the state calls them before it checks a board whole,
     * and a summary of a board that does not fit the game never decides an update); summary_bytes <=
     * NNUE_FS_SUMMARY_BYTES, every byte written (tests compare summaries byte by byte: a move's
     * summary equals the summary of the board after it). Sets with the same three keep one
     * summary in a state (Pikafish's two sets share theirs). */
    uint16_t summary_bytes;
    void (*summary)(const nnue_feature_params *params, const nnue_board *board, void *out);
    void (*summary_move)(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                         const void *before, void *out);
} nnue_feature_set;

/* The registry (features/registry.c): what the rest of the library asks, never a set's own file
 * nor the table itself (load/arch_ft.c looks sets up by name here). nnue_feature_sets[]:
 * the built-in sets, NULL-terminated. find: by YAML name (built-in, then registered); at: set i
 * of all known ones (built-in, then registered), NULL past the last. */
extern const nnue_feature_set *const nnue_feature_sets[];
const nnue_feature_set *nnue_feature_set_find(const char *name);
const nnue_feature_set *nnue_feature_set_at(int i);
/* Hash and display name of a set in the variant its params choose. */
uint32_t nnue_feature_set_hash(const nnue_feature_set *fs, const nnue_feature_params *params);
const char *nnue_feature_set_display(const nnue_feature_set *fs, const nnue_feature_params *params);

/* Adds a set at run time (a test's or an engine's own; it must outlive every arch naming it).
 * The registration scheme's name (nnue_register_<kind>) for this internal contract; outside the
 * library a set registers through include/nnue_extend.h's nnue_register_feature_set.
 * NNUE_OK, or NNUE_E_ARG (err says which) for a NULL or incomplete set (name, game, display,
 * dimensions, active, changed, needs_refresh), a name taken by another set, or a full table.
 * Thread-safe; the same set again is a no-op (base/registry.h, the rule of every registry). */
#define NNUE_MAX_REGISTERED_SETS 16
nnue_status nnue_register_internal_feature_set(const nnue_feature_set *set, nnue_error *err);

/* Sets registered through include/nnue_extend.h (features/extension.c) check their hooks' lists
 * (counts within the set's bounds, indices below its dimensions) and give an empty list for a
 * bad one. is_extension: 1 for such a set. extension_fault: the first fault this thread met since
 * the last call (in buf), cleared; NULL when none. */
int nnue_fs_is_extension(const nnue_feature_set *fs);
const char *nnue_fs_extension_fault(char *buf, size_t size);

#endif
