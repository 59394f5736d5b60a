/* formats/weights.h: a net file's weights as the format readers fill them
 * (formats/net_formats.h): plain arrays and the header's fields, in the layout the kernels
 * use (core/net/net.h describes it), and nothing of the net object (no lifetime, no derived rows,
 * no plan). nnue_net_load (core/net/net_load.c) hands one to a reader and takes its arrays into
 * the net. */
#ifndef NNUE_CORE_FORMATS_WEIGHTS_H
#define NNUE_CORE_FORMATS_WEIGHTS_H

#include <stdint.h>

#include "core/arch/arch.h"
#include "core/arch/layer_weights.h"

typedef struct nnue_weights {
    const nnue_arch *arch;             /* what the file is read as (the caller's) */
    uint32_t version, file_hash;       /* from the header (stockfish format), else 0 */
    char *description;                 /* from the header, NUL-terminated; NULL when none */
    int16_t *ft_biases;
    int16_t *ft_weights;               /* the last listed feature set's rows */
    int32_t *ft_psqt;                  /* [total inputs][buckets]: every set's PSQT rows, in set order */
    void *ft_extra[NNUE_MAX_FT_SETS];  /* the weight rows of the sets before the last */
    nnue_layer_weights *layer_weights; /* [stacks * n_layers], allocated by the caller */
    int32_t *tables[NNUE_EXPR_MAX_VARS]; /* the selector's table variables (features/table_var.h) */
    uint64_t padding_nonzero;          /* padding-column weights the file held non-zero (zeroed) */
} nnue_weights;

#endif
