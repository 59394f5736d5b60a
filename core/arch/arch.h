/* core/arch/arch.h: an architecture as a plain, immutable graph (loaded from YAML by load/arch_load.c).
 *
 * Data flow of one evaluation:
 *   board --features--> two accumulators (width values each, one per perspective)
 *         --ft activation, per perspective--> network input: [side to move, other side]
 *         --layers of stack `selector(board)`, in declaration order--> output layer value
 *   PSQT (when psqt_buckets > 0): psqt = (psqt_acc[stm][b] - psqt_acc[other][b]) / 2, b = stack.
 * Only one stack is evaluated per position, so everything after the FT lives in the stack.
 *
 * Hashes (Stockfish rules, shared/oracle/chess/FORMATS.md section 1) and the description
 * string are computed from this graph alone (core/arch/arch_hash.c, core/arch/arch_describe.c). */
#ifndef NNUE_CORE_ARCH_ARCH_H
#define NNUE_CORE_ARCH_ARCH_H

#include <stdint.h>

#include "core/arch/expr.h"
#include "base/arch_limits.h" /* NNUE_MAX_LAYERS and the other fixed sizes of the graph */
#include "features/feature_set.h"

/* Value types of weights and of the values between layers. NNUE_NONE: a tensor absent from the
 * file (an affine layer without biases: zeros in memory). */
typedef enum nnue_dtype { NNUE_I8, NNUE_U8, NNUE_I16, NNUE_I32, NNUE_F32, NNUE_NONE } nnue_dtype;

/* Activation applied to each perspective's accumulator (i16 values) to make the network input. */
typedef enum nnue_ft_activation {
    NNUE_FT_CLAMP,     /* out = clamp(acc, 0, clamp_max)                                 -> width values */
    NNUE_FT_PAIRWISE,  /* out[j] = clamp(acc[j]) * clamp(acc[j + width/2]) >> shift       -> width/2 values */
    NNUE_FT_SCRELU,    /* out = clamp(acc, 0, clamp_max)^2                                -> width values */
    NNUE_FT_SQRRELU    /* out = max(acc, 0)^2 (no upper clip)                              -> width values */
} nnue_ft_activation;

/* One feature set of the FT: its rows (weight_type values each, widened into the i16
 * accumulator) and PSQT rows are added for its active features. */
typedef struct nnue_ft_set {
    const nnue_feature_set *features;
    nnue_feature_params params;
    uint32_t inputs;            /* the set's dimensions */
    nnue_dtype weight_type;     /* i16 or i8, in memory */
    uint8_t file_i8;            /* the last set listed as i8 (Pikafish): i8 in the file, widened
                                   to i16 on load (the last set's rows are always i16 in memory) */
} nnue_ft_set;

/* Several sets (SFNNv10: Full_Threats i8 + HalfKAv2_hm i16) feed the same accumulators, listed
 * in file order in sets[]. features/params/inputs/weight_type repeat the LAST listed set (the
 * only one of single-set nets), whose weights are nnue_net.ft_weights. */
typedef struct nnue_ft_desc {
    const nnue_feature_set *features;
    nnue_feature_params params;
    uint32_t inputs;            /* feature dimensions of the last set */
    uint32_t total_inputs;      /* summed over all sets */
    int n_sets;
    nnue_ft_set sets[NNUE_MAX_FT_SETS];
    uint32_t width;             /* accumulator values per perspective (L1) */
    uint32_t psqt_buckets;      /* 0 = no PSQT */
    nnue_dtype weight_type;     /* i16 */
    nnue_dtype bias_type;       /* i16 */
    nnue_ft_activation activation;
    int32_t clamp_max;          /* 127 for Stockfish, QA=255 for bullet SCReLU */
    int shift;                  /* pairwise product shift (7) */
    uint32_t out_per_side;      /* values each perspective contributes to the network input */
} nnue_ft_desc;

/* Layer kinds; each has a vtable in layers/<kind>.c (see core/arch/layer.h). */
typedef struct nnue_layer_type nnue_layer_type;

/* How a raw-format block lays out a layer's weights over the stacks (loaded row-major,
 * [stack][output][padded input], whatever the file order). */
typedef enum nnue_weight_order {
    NNUE_ROW_MAJOR,            /* [stack][output][input]: Stockfish's affine layers, bullet's bucket_major */
    NNUE_INPUT_MAJOR,          /* [input][stack][output]: bullet's default (transposed on load) */
    NNUE_INPUT_MAJOR_PER_STACK, /* [stack][input][output]: each stack's matrix transposed */
    NNUE_INPUT_BLOCKS_OF_4      /* [stack][input / 4][output][input % 4]: Stormphrax's and Reckless's L1
                                   (their kernels' order) */
} nnue_weight_order;

typedef struct nnue_layer {
    const nnue_layer_type *type;
    char name[NNUE_NAME_MAX];
    int n_inputs;
    int inputs[NNUE_MAX_LAYER_INPUTS]; /* layer indices; NNUE_INPUT_NETWORK = the FT output */
    uint32_t input_sizes[NNUE_MAX_LAYER_INPUTS];
    uint32_t in_size;           /* total input values (sum over inputs) */
    uint32_t out_size;
    nnue_dtype value_type;      /* of its output values: NNUE_I32 or NNUE_F32 (load/arch_layers.c) */
    int line, column;           /* where the layer was declared, for messages */
    union {
        struct {                /* affine / affine_sparse */
            nnue_dtype weight_type, bias_type;
            uint32_t padded_in;             /* rows padded to a multiple of pad_to */
            uint32_t pad_to;
            nnue_weight_order order;
            int32_t sum_divisor;            /* 1 = none; bullet: y = sum / QA + bias (truncating) */
            int sum_shift;                  /* 0 = none; Stormphrax: y = (sum >> shift) + bias (floor) */
            int sparse;                     /* input is mostly zero: kernel hint only */
        } affine;
        struct {                                        /* crelu: clamp(y >> shift, 0, max); sqr_crelu: min(max, (y*y) >> shift) */
            int shift;
            int32_t max;
            int32_t sq_bound;   /* sqr_crelu: smallest a with (a * a) >> shift >= max, 0 = none (the kernel's `bound`) */
        } relu;
        struct {                /* affine_shard: i8 weights, i32 biases, rows of padded_in values */
            uint32_t padded_in, common, shard, groups;
        } shard;
        struct { uint32_t offset, size; } slice;
        struct { int32_t num, den; } skip;              /* out = in0 + in1 * num / den (C division) */
        struct { int32_t num, den; } scale;             /* out = (int64) in * num / den (C division) */
        struct { uint32_t groups; int shift; } pairwise;/* per group: first half * second half >> shift */
        struct { uint32_t size; } pool;                 /* avg/max over consecutive windows */
        struct { int shift; } quantmoid;
        struct { float scale; float max; uint32_t lanes; } f32; /* float layers: a scale or a clip bound;
                                                           affine_f32: partial sums (0 = one chain) */
        double ext[8];                                  /* a layer type of an extension: its parameters (layers/extension.c) */
    } p;
} nnue_layer;

#define NNUE_INPUT_NETWORK (-1)

/* How a net file is laid out. */
typedef enum nnue_format_kind {
    NNUE_FORMAT_STOCKFISH,  /* header (version, hash, description), FT section, stack sections */
    NNUE_FORMAT_RAW         /* header-less blocks in a declared order, then padding (bullet) */
} nnue_format_kind;

typedef enum nnue_tensor {
    NNUE_T_FT_WEIGHTS, NNUE_T_FT_BIASES, NNUE_T_FT_PSQT,
    NNUE_T_LAYER                    /* raw format: a tensor of a layer (block.layer, block.index), all stacks */
} nnue_tensor;

typedef struct nnue_block {
    nnue_tensor tensor;
    int layer, index;              /* NNUE_T_LAYER: layer index, and which of its tensors (core/arch/layer.h) */
    int set;                       /* NNUE_T_FT_WEIGHTS: which feature set's rows (ft.sets[set]) */
    char set_name[NNUE_NAME_MAX];  /* its YAML `set:` ("" = the last listed set) */
    char name[NNUE_NAME_MAX + 16]; /* as written in the YAML: "ft.weights", "out.biases", ... */
    nnue_dtype dtype;
    nnue_weight_order order;       /* a layer's weight matrix: how the stacks' rows and columns are laid out */
    int line, column;              /* where the block was declared, for messages */
} nnue_block;

/* How a raw net's blocks are wrapped (formats/net_formats.h: one reader each). */
typedef enum nnue_container {
    NNUE_CONTAINER_PLAIN,   /* the blocks as little-endian arrays, then padding (bullet) */
    NNUE_CONTAINER_CBNF,    /* Stormphrax: a 64-byte CBNF header, then the blocks, optionally one zstd frame */
    NNUE_CONTAINER_VARINT   /* PlentyChess: every value a LEB128 varint (floats as their bit patterns) */
} nnue_container;

/* The header values a CBNF file must carry (its hidden size and output buckets are the FT width
 * and the stack count). */
typedef struct nnue_cbnf_header {
    uint8_t arch, ft_activation, input_buckets;
    uint16_t flags;                /* bit 0 (zstd payload) is the file's choice, the others required */
} nnue_cbnf_header;

typedef struct nnue_format {
    nnue_format_kind kind;
    nnue_container container;      /* raw: how the blocks are wrapped */
    nnue_cbnf_header cbnf;         /* raw, container cbnf: the required header values */
    uint32_t version;              /* stockfish: 0x7AF32F16 or 0x7AF32F20 */
    int leb128;                    /* stockfish: FT arrays as COMPRESSED_LEB128 blocks */
    int32_t description_bytes;     /* stockfish: expected description length, -1 = any */
    int fixed_hashes;              /* stockfish: FT and network hashes given in the YAML ('hashes') */
    uint32_t fixed_ft_hash, fixed_network_hash;
    int ft_hash_combined;          /* stockfish, several sets: FT hash folds every set's hash (SFNNv16) */
    int psqt_per_set;              /* stockfish, several sets: each set's PSQT follows its weights (SFNNv16) */
    int n_blocks;                  /* raw */
    nnue_block blocks[NNUE_MAX_BLOCKS];
    uint32_t pad_to;               /* raw: file size rounded up to a multiple of this (1 = none) */
    char pad_text[32];             /* raw: padding bytes repeat this text ("bullet"); "" = zeros */
    char generated[NNUE_NAME_MAX]; /* stockfish: YaneuraOu's generated architecture name; a file whose
                                      description names another shape (Network=...) is refused */
} nnue_format;

/* Final score: total = (psqt + positional) / output_divisor (truncating), clamped to
 * -clamp..clamp when clamp != 0, then, if scale_den != 0, final = total * scale_num / scale_den
 * (truncating). */
typedef struct nnue_output {
    int32_t divisor;               /* Stockfish OutputScale 16; 1 for bullet */
    int32_t clamp;                 /* YaneuraOu's VALUE_MAX_EVAL 31753; 0 = none */
    int32_t scale_num, scale_den;  /* bullet: 400 / 16320; 0 = no final scaling */
} nnue_output;

/* How the net's own engine prints its values in centipawns (the YAML's `centipawns:` key,
 * docs/arch-yaml.md; core/net/net_centipawns.c applies it). Unset: no conversion checked. */
typedef enum nnue_cp_source {
    NNUE_CP_FROM_NOTHING,   /* no `centipawns:` key */
    NNUE_CP_FROM_DIVIDE,    /* total * 100 / divisor, truncated */
    NNUE_CP_FROM_MATERIAL,  /* Stockfish 17+'s model: round(100 * v / a(material)), coefficients a[] */
    NNUE_CP_FROM_RELEASE,   /* only the release net tells (core/net/known_nets.c); why: for any other file */
    NNUE_CP_FROM_NONE       /* none on purpose; why says why */
} nnue_cp_source;

typedef struct nnue_arch_cp {
    nnue_cp_source source;
    int32_t divisor;
    double a[4];
    char engine[48];               /* whose conversion ("Stockfish 18") */
    char why[320];
} nnue_arch_cp;

typedef struct nnue_arch {
    char name[NNUE_NAME_MAX];
    char path[256];                /* YAML file it came from */
    char game[16];                 /* the game's name, as the YAML 'game' key gives it */
    const nnue_game *game_desc;    /* its descriptor (registry lookup at load; never NULL) */
    nnue_format format;
    nnue_ft_desc ft;
    uint32_t stacks;               /* layer stacks (= output buckets) */
    nnue_expr selector;            /* stack index from board facts; constant 0 for one stack */
    int n_layers;
    nnue_layer layers[NNUE_MAX_LAYERS];  /* one stack's graph; the last layer is the output */
    nnue_output output;
    nnue_arch_cp centipawns;
    /* Derived from the graph (core/arch/arch_hash.c, core/arch/arch_describe.c). */
    uint32_t ft_hash, network_hash, file_hash;
    uint64_t parameters;           /* weights and biases, all stacks */
    uint64_t file_size;            /* exact expected bytes (stockfish: with the description
                                      of description_length bytes; LEB128 nets: 0 = variable) */
} nnue_arch;

#endif
