/* nnue_extend.h: adding layer types and feature sets from outside the library.
 *
 * An extension is code of your own (an engine's, or a shared object the tool and the engines
 * load) that registers new pieces under new names; from then on YAML architectures can name them
 * exactly like the built-in ones (`type: NAME` for a layer, `features: NAME` for a feature set),
 * and every part of the library works with them: loading and writing nets (`nnue init` writes
 * random weights from the tensors a layer declares), evaluation, incremental updates, `nnue arch`.
 * Every kind registers through one naming scheme, nnue_register_<kind>: nnue_register_layer_type
 * and nnue_register_feature_set below, nnue_register_game (nnue_board.h). The older names
 * (nnue_ext_register_layer_type, nnue_ext_register_feature_set, nnue_game_register) still work
 * and stay exported; they are deprecated (end of this header, and nnue_board.h).
 *
 * ABI promise: the structs below are frozen for NNUE_EXTEND_ABI 1. Every descriptor starts with
 * `abi`, set to NNUE_EXTEND_ABI by the extension when it is compiled; a library refuses a
 * descriptor whose number it does not know (with a message naming both numbers). A change to a
 * struct here raises NNUE_EXTEND_ABI and is listed in CHANGELOG.md; a library keeps accepting
 * the numbers it accepted before.
 *
 * Rules (those of nnue_error.h apply): a descriptor and everything it points to must stay
 * valid until the process ends (a static const struct); registering the same descriptor again is
 * a no-op; another descriptor under a name already taken (built-in or registered) is refused.
 * Registration is thread-safe. The hooks are called from many threads at once and must not keep
 * state between calls.
 *
 * Names (layer types, feature sets, parameter keys) follow the rule of the built-in ones: 1 to 95
 * characters, a letter or '_' first, then letters, digits and '_'; others are refused. */
#ifndef NNUE_EXTEND_H
#define NNUE_EXTEND_H

#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NNUE_EXTEND_ABI 1

#define NNUE_EXT_MAX_PARAMS 8   /* YAML parameters of one layer type */
#define NNUE_EXT_MAX_TENSORS 2  /* tensors a layer keeps per stack */
#define NNUE_EXT_MAX_INPUTS 4   /* inputs of one layer */

/* ---- Layer types ---------------------------------------------------------------------------- */

/* The values a layer reads and writes. Both live in 4-byte slots of int32_t arrays: float values
 * are stored as float (read them through `const float *`, write through `float *`). The network
 * input (the feature transformer's output) is int32; the last layer must write int32. */
typedef enum nnue_ext_value { NNUE_EXT_INT32 = 0, NNUE_EXT_FLOAT32 = 1 } nnue_ext_value;

/* The value type of a tensor, in the file and in memory (little-endian in the file). */
typedef enum nnue_ext_dtype {
    NNUE_EXT_I8 = 0, NNUE_EXT_U8 = 1, NNUE_EXT_I16 = 2, NNUE_EXT_I32 = 3, NNUE_EXT_F32 = 4
} nnue_ext_dtype;

/* One layer of an architecture, as the hooks see it. */
typedef struct nnue_ext_layer {
    uint32_t in_size;                          /* values in, all inputs together */
    uint32_t out_size;                         /* values out: shape() sets it (before: in_size) */
    int n_inputs;
    uint32_t input_sizes[NNUE_EXT_MAX_INPUTS]; /* values of each input, in YAML order */
    double param[NNUE_EXT_MAX_PARAMS];         /* the type's parameters, in the order of its keys */
} nnue_ext_layer;

/* One tensor a layer keeps per stack: rows x cols values of dtype, row-major, in the file (in
 * the order tensors() gives them, after the layers before it) and in memory alike. */
typedef struct nnue_ext_tensor {
    const char *name;                          /* "weights", "biases": a raw format's LAYER.NAME */
    nnue_ext_dtype dtype;
    uint32_t rows, cols;
} nnue_ext_tensor;

typedef struct nnue_ext_layer_type {
    uint32_t abi;                              /* NNUE_EXTEND_ABI */
    const char *name;                          /* the YAML `type:` value */
    int min_inputs, max_inputs;                /* 1..NNUE_EXT_MAX_INPUTS */
    nnue_ext_value input, output;              /* value types read and written */
    /* Optional: the type's own YAML keys (numbers), NULL-terminated, at most NNUE_EXT_MAX_PARAMS,
     * and one default per key (NULL, or a NaN entry: the key is required). */
    const char *const *params;
    const double *param_defaults;
    /* Optional: checks the parameters and input sizes and sets layer->out_size; returns a message
     * (static storage) saying what is wrong, or NULL. NULL hook: out_size = in_size. */
    const char *(*shape)(nnue_ext_layer *layer);
    /* Optional: the tensors of one stack (at most NNUE_EXT_MAX_TENSORS); returns how many. */
    int (*tensors)(const nnue_ext_layer *layer, nnue_ext_tensor out[NNUE_EXT_MAX_TENSORS]);
    /* Required: out[out_size] from inputs[i][input_sizes[i]] and this stack's tensors
     * (tensors[k] holds tensor k as declared). The definition of the layer: no SIMD path
     * replaces it. */
    void (*propagate)(const nnue_ext_layer *layer, const void *const *tensors, const int32_t *const *inputs,
                      int32_t *out);
    /* The layer's step in the Stockfish-style network hash: hash = hash_step + previous hash
     * (0: the layer leaves the hash alone). The description shows it as NAME[out<-in]. */
    uint32_t hash_step;
} nnue_ext_layer_type;

/* Registers a layer type. NNUE_OK; NNUE_E_ARG (err says why) for NULL, another abi number, a
 * missing name or propagate, bad input counts or parameter keys, or a name already taken. */
nnue_status nnue_register_layer_type(const nnue_ext_layer_type *type, nnue_error *err);

/* ---- Feature sets --------------------------------------------------------------------------- */

/* A feature set turns a board seen from one side (persp 0 or 1) into the indices of its active
 * inputs, and a move (its delta, nnue_board.h) into the indices that went away and came in. */
typedef struct nnue_ext_feature_set {
    uint32_t abi;                              /* NNUE_EXTEND_ABI */
    const char *name;                          /* the YAML `features:` value, also its description name */
    const char *game;                          /* the game it reads (nnue_game.name: "chess", ...) */
    uint32_t dimensions;                       /* inputs, indices 0..dimensions-1 */
    uint32_t hash;                             /* Stockfish-style hash of the set (0: none) */
    uint16_t max_active;                       /* most active features of one side (<= 256; 0: 64) */
    uint16_t max_changed;                      /* most removed, and most added, by one move (<= 256; 0: 8) */
    uint8_t max_pieces;                        /* most pieces of a board it takes (boards with more are refused; 0: any) */
    /* active and changed: every index below dimensions, counts within max_active / max_changed;
     * a list that breaks this is not used, and nnue_evaluate refuses the position (returns 0,
     * nnue_state_error() names the set, the hook and the value) until the hook behaves. */
    /* Required: writes the active indices of persp to out; returns how many. */
    int (*active)(const nnue_board *board, int persp, uint32_t *out);
    /* Required: the indices a move removed and added for persp; `after` is the board after the
     * move. Called only when needs_refresh() is 0 for persp. */
    void (*changed)(const nnue_board *after, const nnue_delta *delta, int persp, uint32_t *removed,
                    int *n_removed, uint32_t *added, int *n_added);
    /* Optional: 1 when the move changes every feature of persp (its king moved, say); the
     * library then calls active() instead. NULL: never. */
    int (*needs_refresh)(const nnue_board *after, const nnue_delta *delta, int persp);
} nnue_ext_feature_set;

/* Registers a feature set. NNUE_OK; NNUE_E_ARG (err says why) for NULL, another abi number, a
 * missing member, bounds over 256, an unknown game, or a name already taken. */
nnue_status nnue_register_feature_set(const nnue_ext_feature_set *set, nnue_error *err);

/* ---- Loading extensions --------------------------------------------------------------------- */

/* A shared object is an extension when it defines this function, under this name:
 *     nnue_status nnue_extension_init(nnue_error *err)
 * which registers its pieces (the calls above, or nnue_register_game) and returns NNUE_OK. */
#define NNUE_EXTENSION_INIT "nnue_extension_init"
typedef nnue_status (*nnue_extension_init_fn)(nnue_error *err);

/* Opens the shared object at path and runs its nnue_extension_init. NNUE_E_IO when it cannot be
 * opened (err carries the loader's reason), NNUE_E_ARG when it has no such function, else what
 * the function returns. Loading the same file twice runs its init twice (registering the same
 * descriptors again is a no-op). The object stays loaded until the process ends. */
nnue_status nnue_ext_load(const char *path, nnue_error *err);

/* Loads each file of the environment variable NNUE_EXTENSIONS (paths separated by ':'), in
 * order; NNUE_OK when it is unset or empty. Stops at the first failure (err names the file). */
nnue_status nnue_ext_load_env(nnue_error *err);

/* ---- Older names (deprecated) ---------------------------------------------------------------- */

/* The calls above under their names before the one scheme: the same behaviour, kept exported
 * for programs and extensions built against an older header. */
nnue_status nnue_ext_register_layer_type(const nnue_ext_layer_type *type, nnue_error *err)
    NNUE_DEPRECATED("use nnue_register_layer_type");
nnue_status nnue_ext_register_feature_set(const nnue_ext_feature_set *set, nnue_error *err)
    NNUE_DEPRECATED("use nnue_register_feature_set");

#ifdef __cplusplus
}
#endif

#endif
