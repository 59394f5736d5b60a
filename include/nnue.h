/* nnue.h: public C API of the nnue library.
 *
 * Typical use in an engine:
 *   nnue_net *net;    nnue_net_load_auto("nn-ad9b42354671.nnue", &net, &err);   (shared by threads)
 *                     (or nnue_arch_load("my.yaml", &arch, &err) + nnue_net_load(arch, path, ...))
 *   nnue_state *st = nnue_state_new(net, 256);                              (one per thread)
 *   nnue_state_reset(st, board);                  at the root (board: your nnue_board view)
 *   after make():   nnue_state_push(st, board, &delta);
 *   nnue_evaluate(st, board, &detail);            detail.total: side to move's view
 *   after unmake(): nnue_state_pop(st);
 *
 * The board and delta come from the shipped adapters (nnue_chess.h, nnue_shogi.h) or from an
 * engine's own board code: it keeps an nnue_board current and writes one nnue_delta per move
 * by the rules of nnue_board.h (examples/own_board.c; docs/engines.md).
 *
 * Scores are integers from the side to move's point of view. Every fallible call returns an
 * nnue_status and fills the caller's nnue_error; the library never prints or exits. */
#ifndef NNUE_H
#define NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"
#include "nnue_netfile.h" /* net files: choosing an architecture, header facts, writing nets */

#ifdef __cplusplus
extern "C" {
#endif

/* Version of these headers (tests/core check it equals the meson project version). */
#define NNUE_VERSION_MAJOR 0
#define NNUE_VERSION_MINOR 1
#define NNUE_VERSION_PATCH 0
#define NNUE_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons. */
#define NNUE_VERSION_NUMBER (NNUE_VERSION_MAJOR * 10000 + NNUE_VERSION_MINOR * 100 + NNUE_VERSION_PATCH)

/* Version of the library actually linked ("0.1.0"); compare with NNUE_VERSION_STRING to catch
 * a header / shared-library mismatch. */
const char *nnue_version(void);

typedef struct nnue_arch nnue_arch;
typedef struct nnue_net nnue_net;
typedef struct nnue_state nnue_state;

/* Architecture from a YAML file (docs/arch-yaml.md). Free with nnue_arch_free. */
nnue_status nnue_arch_load(const char *path, nnue_arch **out, nnue_error *err);
void nnue_arch_free(nnue_arch *arch);

/* Architecture from len bytes of YAML text (need not be NUL-terminated); name labels the text
 * in error messages ("<string>" when NULL), e.g. "my_arch.yaml:12:3: ...". */
nnue_status nnue_arch_load_string(const char *yaml, size_t len, const char *name, nnue_arch **out,
                                  nnue_error *err);

/* Architectures compiled into the library: every .yaml file of archs/ in the source tree at build
 * time, sorted by name. Names are the file names without ".yaml" ("sfnnv5", "shogi_halfkp").
 * name/yaml return NULL for an index out of range; yaml sets *length (if non-NULL). */
int nnue_arch_builtin_count(void);
const char *nnue_arch_builtin_name(int index);
const char *nnue_arch_builtin_yaml(int index, size_t *length);
/* Loads the built-in architecture of that name; NNUE_E_ARG listing the names if there is none. */
nnue_status nnue_arch_load_builtin(const char *name, nnue_arch **out, nnue_error *err);
/* One rule for every place an architecture is named (the tool's --arch, the engines' EvalArch):
 * a built-in name (nnue_arch_builtin_name: "sfnnv5", "cwtch6", ...) or else a YAML file path. */
nnue_status nnue_arch_load_named(const char *name_or_path, nnue_arch **out, nnue_error *err);

/* The largest net the library reads, decompressed. A zstd-compressed net (one frame that records
 * its size, as Pikafish ships them) is checked before anything is allocated: against twice its
 * architecture's plain size (plus 1 MiB) when the architecture is known, else against this. */
#define NNUE_MAX_NET_BYTES (2ull << 30)

/* Net file for an architecture (the arch is copied; it may be freed afterwards). A large net is
 * read with short-lived helper threads (its rows prefaulted, a large LEB128 block decoded in two
 * halves), joined before the call returns; the environment variable OMP_NUM_THREADS=1 keeps all
 * of the library's work on the calling thread. */
nnue_status nnue_net_load(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err);
void nnue_net_free(nnue_net *net);

/* The net's warning, or NULL. Today: the worst case computed from the weights says an int16
 * accumulator value (with the feature set's maximum number of active features), the int32 PSQT
 * sum or an affine layer's int32 sum can overflow; the text names the file and the neuron or
 * layer. The net still evaluates (sums wrap like the engines'); the library never prints:
 * callers decide (the tool prints it; its --strict refuses such nets). The worst case is
 * computed on the first call (here or nnue_net_range_report; a pass over every weight, about a
 * tenth of a second on a release net), not by the load: a caller that never asks never pays.
 * Safe from any thread; the result is computed once. */
const char *nnue_net_warning(const nnue_net *net);

/* The worst-case ranges behind that warning, as `nnue info` prints them (one "name  value" line
 * per item: accumulator, PSQT, each affine layer's input range and sums). Returns the length the
 * full text needs (like snprintf). */
size_t nnue_net_range_report(const nnue_net *net, char *buf, size_t size);

/* Net from size bytes in memory (a net embedded in the engine's binary, or read by the engine
 * itself). The bytes are only read during the call. name labels the net in error messages
 * ("<memory>" when NULL); byte offsets in errors are offsets into data. */
nnue_status nnue_net_load_memory(const nnue_arch *arch, const void *data, size_t size, const char *name,
                                 nnue_net **out, nnue_error *err);

/* Net file (or bytes) in Stockfish / YaneuraOu format whose architecture is picked among the
 * built-in ones from the header: same version and file hash and, for uncompressed files, the
 * exact size. No YAML file is read. SFNNv4 (Stockfish 15) and SFNNv5 (Stockfish 15.1) nets
 * share hashes and size: Stockfish's release nets are known by their SHA-256 (nn-ad9b42354671 is
 * SFNNv5), and any other file of those hashes is taken as SFNNv5, the layout of every later net.
 * A net written by `nnue init` names its architecture in its description: only that one is
 * taken (the file hash leaves out stacks and PSQT buckets, so another may share it); NNUE_E_HASH
 * naming it when it is not built in. The file's own feature-transformer encoding (LEB128 or
 * plain) is read whatever the architecture's YAML says.
 * NNUE_E_HASH when no built-in architecture fits (load the YAML yourself), NNUE_E_AMBIGUOUS
 * naming them when several still do. A file whose first word is no built-in net version is read
 * as a raw net: a CBNF header (Stormphrax) fitting one built-in architecture loads with it;
 * header-less (raw: bullet, Cwtch, Obsidian, Reckless, Viridithas, PlentyChess) nets always
 * need their architecture named (nnue_arch_load_builtin): NNUE_E_HASH, the message naming the
 * built-in candidates the file's size (decompressed, for a zstd frame) or LEB128 value count fits. */
nnue_status nnue_net_load_auto(const char *path, nnue_net **out, nnue_error *err);
nnue_status nnue_net_load_auto_memory(const void *data, size_t size, const char *name, nnue_net **out,
                                      nnue_error *err);

/* A self-describing net: a header-less net and the YAML of its architecture in one file (the
 * "NNUEYAML" container that `nnue convert --to self-describing` writes; docs/tool.md). Loads the
 * architecture from the embedded YAML and the net with it (the net keeps its own copy). Errors
 * name the file, or "FILE (embedded YAML)" with the YAML's line and column, or "FILE (embedded
 * net at byte N)" with offsets into the embedded net. The _memory form reads size bytes at data
 * (name labels them; "<memory>" when NULL). */
nnue_status nnue_net_load_self_describing(const char *path, nnue_net **out, nnue_error *err);
nnue_status nnue_net_load_self_describing_memory(const void *data, size_t size, const char *name, nnue_net **out,
                                                 nnue_error *err);
/* 1 when the n bytes at head begin a self-describing net (its 8-byte magic "NNUEYAML"), else 0:
 * a front end reads a file's first 8 bytes and picks nnue_net_load_self_describing. */
int nnue_net_is_self_describing(const void *head, size_t n);

/* Result of one evaluation, all from the side to move's point of view.
 *   psqt       = (psqt_acc[stm][bucket] - psqt_acc[other][bucket]) / 2   (0 without PSQT)
 *   positional = the output layer's raw value
 *   total      = (psqt + positional) / output divisor (truncating; Stockfish's 16)
 *   scaled     = total * scale_num / scale_den when the arch declares output.scale
 *                (bullet nets: centipawns), else total */
typedef struct nnue_eval_detail {
    int bucket;
    int32_t psqt;
    int32_t positional;
    int32_t total;
    int32_t scaled;
} nnue_eval_detail;

/* Centipawns (docs/units.md): a net's values as its own engine prints them, only where that
 * conversion was checked against the engine; otherwise none, and why. The rule is data: the
 * architecture's `centipawns:` key (docs/arch-yaml.md: Stockfish 15.1's divisor, the material
 * models of Stockfish 18 and 19), the known release net by its SHA-256 where only the release
 * tells (SFNNv9 nets ran in Stockfish 17 and 17.1 with different models), or the scaled value
 * of a raw architecture with output.scale (bullet nets). */
typedef enum nnue_cp_kind {
    NNUE_CP_NONE,     /* no checked conversion: why says why */
    NNUE_CP_DIVIDE,   /* cp = total * 100 / divisor, truncated toward zero (Stockfish 15.1: 361) */
    NNUE_CP_SCALED,   /* cp = scaled */
    NNUE_CP_MATERIAL  /* Stockfish 17+: cp = round(100 * v / a), v = psqt / 16 + positional / 16 (each
                         truncated), a = ((a0 m + a1) m + a2) m + a3, m = clamp(material, 17, 78) / 58,
                         material = the game's count (nnue_game.material; chess: pawns + 3 knights
                         + 3 bishops + 5 rooks + 9 queens of both sides) */
} nnue_cp_kind;

typedef struct nnue_cp_rule {
    nnue_cp_kind kind;
    int divisor;       /* NNUE_CP_DIVIDE */
    double a[4];       /* NNUE_CP_MATERIAL: a0..a3 */
    char engine[48];   /* whose conversion ("Stockfish 18"); "" for NNUE_CP_SCALED and NNUE_CP_NONE */
    char why[400];     /* NNUE_CP_NONE: why there is none (one sentence, for a note to the user) */
    const nnue_game *game; /* NNUE_CP_MATERIAL: the game whose material hook counts (the arch's) */
} nnue_cp_rule;

/* The rule of nets of arch (a NULL arch: NNUE_CP_NONE). sha256_hex: the net file's SHA-256 as 64
 * hex digits, or NULL when unknown; read only when nnue_cp_rule_needs_sha256(arch) says 1. A
 * material model over a game without a material hook is NNUE_CP_NONE ("no material rule for
 * game NAME"). */
void nnue_cp_rule_for(const nnue_arch *arch, const char *sha256_hex, nnue_cp_rule *rule);
/* 1 when the rule of arch depends on which file the net is (its SHA-256), else 0. */
int nnue_cp_rule_needs_sha256(const nnue_arch *arch);
/* The rule of the net file at path for arch, the file read for its SHA-256 only when the rule
 * needs it. Returns 0, or -1 when the file was needed and could not be read (the rule is then
 * the one of an unknown file). */
int nnue_cp_rule_for_file(const nnue_arch *arch, const char *path, nnue_cp_rule *rule);
/* cp from an evaluation (side to move's view, as the detail) by the rule: returns 1 and sets
 * *cp, or 0 for NNUE_CP_NONE or a NULL pointer (rule->why says why). position: the position text
 * the detail was evaluated on (NNUE_CP_MATERIAL: read by the rule's game, whose material hook
 * counts it; "startpos" is the start position; NULL counts 58, where a = a(1); 0 when the text
 * does not parse or the game has no material hook). */
int nnue_cp_convert(const nnue_cp_rule *rule, const nnue_eval_detail *detail, const char *position, int *cp);

/* Per-thread evaluation state: a stack of accumulators, one entry per ply, max_ply deep. */
nnue_state *nnue_state_new(const nnue_net *net, int max_ply);
void nnue_state_free(nnue_state *state);

/* Forgets everything and starts a root position (its accumulators are computed lazily).
 * Returns 0, or -1 when the board does not fit the net's game (wrong square count, a piece code
 * of another game, a king missing from its king_sq, piece_count wrong, a hand past a full set):
 * nnue_state_error() says which field, square or piece. Evaluations then return 0 with
 * detail.bucket = -1 until a fitting board is given. */
int nnue_state_reset(nnue_state *state, const nnue_board *board);

/* After a move was made: board is the position after it, delta what changed. Push checks what
 * it reads (a few nanoseconds): the delta (count, squares, hand slots, piece codes), the board's
 * square count, side to move and king squares (in range), and the pieces the accumulators will
 * hold (the count of the board each was last refreshed from plus each move's net change) against
 * the net's feature sets' limit; the rest of the board is checked whole where it is read (by
 * nnue_evaluate for a refresh and for sets that read every square after the move), or at every push with
 * nnue_state_set_whole_board_checks. Returns 0; -1 when the stack is full
 * (max_ply; nothing pushed) or when the board or the delta does not fit the game
 * (nnue_state_error() says what; the entry is pushed but its delta never applied: the position
 * is then refreshed from the board, which nnue_evaluate checks whole). Pops stay balanced either
 * way except for a full stack. */
int nnue_state_push(nnue_state *state, const nnue_board *board, const nnue_delta *delta);

/* nnue_state_push with the move's threat changes (nnue_board.h nnue_threats; NULL = plain push):
 * a threat feature set of the net (Full_Threats) then maps those instead of listing them from the
 * boards before and after the move, with the same result. The lists are copied. Besides what
 * push checks, each threat's piece codes and squares must fit the game, each count be at most
 * NNUE_MAX_THREATS and, for a net whose threat set reads them, each pair be an attack (the
 * attacker reaches `to` from `from` on an empty board; from == to never), else -1 as for a bad
 * delta (nnue_state_error() names the entry). */
int nnue_state_push_threats(nnue_state *state, const nnue_board *board, const nnue_delta *delta,
                            const nnue_threats *threats);

/* 1 when a feature set of the state's net maps handed-in threat changes (chess Full_Threats,
 * Pikafish's threats), else 0. The one rule for callers: record a move's threat changes at make
 * time (nnue_game_make_threats_filtered through nnue_state_threat_filter, or an engine's own
 * attack tables) and push them with
 * nnue_state_push_threats only when this says 1; otherwise make and push plainly, since the
 * net reads no threat feature and recording them is wasted work. */
int nnue_state_takes_threats(const nnue_state *state);

/* The threat pairs the state's net can read (nnue_board.h nnue_threat_filter), for a recorder
 * to leave the others out (nnue_game_make_threats_filtered, nnue_chess_make_threats_filtered, or
 * an engine's own): NULL exactly when nnue_state_takes_threats is 0. Owned by the state, constant
 * for its life. */
const nnue_threat_filter *nnue_state_threat_filter(const nnue_state *state);

/* Why the last nnue_state_reset() or nnue_state_push() returned -1, or nnue_evaluate() refused
 * its board: code NNUE_E_ARG, file "nnue_board" or "nnue_delta", and a message naming the field,
 * square, piece code or limit. code is NNUE_OK when the last of those calls succeeded. Valid
 * until the next call on the state. */
const nnue_error *nnue_state_error(const nnue_state *state);

/* After the move was unmade. */
void nnue_state_pop(nnue_state *state);

/* The number of entries above the root: moves pushed since the last reset and not popped (a
 * push refused for a board or delta that does not fit counts, see nnue_state_push; one refused
 * for a full stack does not). 0 for a NULL state. */
int nnue_state_ply(const nnue_state *state);

/* Marks the current position's accumulators as not computed (forces a full refresh). */
void nnue_state_invalidate(nnue_state *state);

/* Checks every board given to push and evaluate whole, as reset() does (off by default: they
 * check what they read, see nnue_state_push). For bringing up an engine's board adapter: a
 * corrupted square is reported at the move that produced it, not only when a refresh reads it.
 * Costs about 10 ns per call (a 9x9 board). */
void nnue_state_set_whole_board_checks(nnue_state *state, int on);

/* Bucket refresh cache ("Finny tables"), off by default. When a pushed move forces a perspective
 * to refresh (its own king moved to another block of features), the state keeps, per
 * perspective and per king context of the feature set (king square, or king bucket and mirror
 * state), the last accumulator computed there with its active features, and applies only the
 * features that differ instead of summing all of them. Results are bit-identical either way.
 * The cache is never used for a position with no computed ancestor (after reset() or
 * invalidate(): a true from-scratch refresh), so it only serves refreshes inside a push
 * sequence. Turning it on or off also empties it. About 2 * keys * (width * 2 + 900) bytes per
 * state, allocated on first use (sfnnv5: 64 keys, width 1024: ~380 KB). Off by default: measured
 * with `nnue bench` (CPU ns/eval, off -> on) it pays only on shallow trees of small nets: chess
 * sf 15.1 net, `--mode tree --depth 2` 481 -> 442, depth 3 453 -> 459, `--mode incremental`
 * 672 -> 696 (docs/speed.md); shogi HalfKP depth 2 273 -> 269, incremental 361 -> 352; SFNNv9 (width 3072, ~2.3 MB
 * of slots) incremental 1926 -> 2329. Try it on your search. */
void nnue_state_set_refresh_cache(nnue_state *state, int on);

/* Evaluates the current position (board must be the one given to the last reset/push: the
 * accumulators follow the pushed deltas). The board is checked first, the whole of it as reset()
 * checks it when the update reads it all (a perspective refreshed from it, several moves applied
 * at once, a set that reads every square: Full_Threats or FullThreats_xiangqi listing a move's
 * threats from the board), else the square count, side to move and king squares, all an incremental
 * update reads (Full_Threats and FullThreats_xiangqi after a move pushed with its threats,
 * nnue_state_push_threats, read only the kings; PP_3Wide only whether squares hold pawns, defined
 * for any byte); the layer-stack bucket then takes piece_count (and shogi's hands, Pikafish's rook
 * and minor counts from the squares, defined for any byte) as given, clamped into range. No byte is
 * read out of bounds whatever the board. Returns detail->total; detail may be NULL. A board
 * that does not fit gives 0 with detail.bucket = -1 (nnue_state_error() says why). */
int32_t nnue_evaluate(nnue_state *state, const nnue_board *board, nnue_eval_detail *detail);

/* Many positions at once, in parallel (OpenMP; threads <= 0: OpenMP's default; never more
 * threads than positions): positions[i] is a position text the net's game parses (a six-field
 * FEN, an SFEN), out[i] its evaluation. A position that does not parse or fit gives
 * out[i].bucket = -1 and zeros. Returns the number of such positions; *first_error (if non-NULL)
 * says why the first of them failed (column of the text) and *first_bad (if non-NULL) is its
 * index, count when none failed. A NULL net, positions or out, or threads above
 * NNUE_MAX_BATCH_THREADS, fails every position (NNUE_E_ARG; *first_bad = 0). */
#define NNUE_MAX_BATCH_THREADS 1024
size_t nnue_eval_batch(const nnue_net *net, const char *const *positions, size_t count, int threads,
                       nnue_eval_detail *out, nnue_error *first_error, size_t *first_bad);

/* An architecture's identity, as `nnue arch` prints it (for bindings that cannot read the
 * struct): its name ("SFNNv5"), description string (returns the length it needs, like
 * snprintf; buf may be NULL when size is 0), the three Stockfish hashes (any pointer may be
 * NULL), and its game. nnue_net_arch: the net's own copy (valid while the net lives). */
const char *nnue_arch_name(const nnue_arch *arch);
size_t nnue_arch_describe(const nnue_arch *arch, char *buf, size_t size);
void nnue_arch_hashes(const nnue_arch *arch, uint32_t *file_hash, uint32_t *ft_hash, uint32_t *network_hash);
const nnue_game *nnue_arch_game(const nnue_arch *arch);
const nnue_arch *nnue_net_arch(const nnue_net *net);

/* An architecture's file layout and sizes, as `nnue arch` prints them. Later versions may add
 * fields at the end: nnue_arch_layout_get fills the first size bytes (pass sizeof *out) and
 * zeroes what it does not know; a NULL arch gives all zeros. */
typedef struct nnue_arch_layout {
    int raw;                    /* 0: Stockfish format (header, feature transformer, stacks);
                                   1: raw blocks in the YAML's order (bullet and its successors) */
    int container;              /* raw: 0 plain arrays, 1 a CBNF header first, 2 every value a varint */
    uint32_t version;           /* Stockfish format: the header's version word */
    int leb128;                 /* Stockfish format: the YAML writes the FT as COMPRESSED_LEB128 */
    int32_t description_bytes;  /* Stockfish format: the description's fixed length, -1 = any */
    uint64_t parameters;        /* weights and biases over all stacks */
    uint64_t file_size;         /* exact bytes of a file (Stockfish format: with a description of
                                   description_bytes, none when any); 0 when it varies (LEB128) */
    int feature_sets;           /* feature sets of the feature transformer (2: threats beside pieces) */
    int reencodable;            /* 1: Stockfish format, one feature set of i16 weights and biases, so
                                   nnue_net_convert writes it plain or LEB128 (nnue_netfile.h) */
} nnue_arch_layout;
void nnue_arch_layout_get(const nnue_arch *arch, nnue_arch_layout *out, size_t size);

/* A Graphviz (dot) picture of the architecture's layer graph, as `nnue arch --dot` prints it, to
 * file (a FILE *). Returns 0, or -1 when writing failed (or arch or file is NULL). */
int nnue_arch_write_dot(const nnue_arch *arch, void *file);

/* A net file of deterministic random weights for arch, as `nnue init --seed SEED` writes it
 * (same seed, same bytes; loads with nnue_net_load(arch, ...)): to path (written under a
 * temporary name and renamed: never half a file at path), or to memory (*data malloc'ed by the
 * library, *size bytes; free with nnue_bytes_free). For trying a new YAML before a trained net
 * exists, and for tests. */
nnue_status nnue_net_write_random(const nnue_arch *arch, const char *path, uint64_t seed, nnue_error *err);
nnue_status nnue_net_random_memory(const nnue_arch *arch, uint64_t seed, void **data, size_t *size, nnue_error *err);
void nnue_bytes_free(void *data);

/* Name of the kernel set in use: "scalar", "avx2", "avx512", "vnni512", "vbmi512" (x86-64), "neon"
 * (AArch64), "simd128" (WebAssembly built with SIMD128) or "relaxed-simd" (with relaxed SIMD). */
const char *nnue_isa_name(void);

#ifdef __cplusplus
}
#endif
#endif
