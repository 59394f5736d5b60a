/* core/arch/layer_weights.h: the handle of one layer's tensors in one stack, as the layer-type
 * contract (core/arch/layer.h: propagate) receives it and a loaded net (core/net/net.h) holds
 * them, [stacks * n_layers]. Its own header, below both, so that a layer type never needs the
 * net: a layer reads the arrays it is handed, whoever loaded them. */
#ifndef NNUE_CORE_ARCH_LAYER_WEIGHTS_H
#define NNUE_CORE_ARCH_LAYER_WEIGHTS_H

#include "base/arch_limits.h"

/* A layer's tensors in one stack (core/arch/layer.h nnue_tensor_shape), in the layer's order; an
 * affine layer's are its biases (int32) and weights (int8_t or int16_t rows, its weight_type). */
typedef struct nnue_layer_weights {
    union {
        struct {
            void *biases;
            void *weights;
        };
        void *tensor[NNUE_MAX_TENSORS];
    };
} nnue_layer_weights;

#endif
