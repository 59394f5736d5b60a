/* formats/net_layer_tensors.h: reading the layers' tensors of a net, the part every format shares
 * (formats/net_layer_tensors.c). */
#ifndef NNUE_CORE_FORMATS_NET_LAYER_TENSORS_H
#define NNUE_CORE_FORMATS_NET_LAYER_TENSORS_H

#include "core/arch/layer.h"
#include "formats/net_read.h"
#include "formats/weights.h"

/* Allocates every stack's tensors of every layer, zeroed (w->layer_weights[stack * n_layers + i]). */
nnue_status nr_layer_tensors_alloc(nnue_weights *w, nr_stream *s);
/* Zeroes the padding columns (cols .. stride) of a loaded tensor, counting in w->padding_nonzero
 * the values that were not zero: a padding column multiplies inputs that are always zero, so
 * the engines never read it, and their trainers leave values there. */
void nr_zero_padding(nnue_weights *w, const nnue_tensor_shape *t, void *data);
/* Fails (naming the value and its byte offset, 4 bytes a value from start) unless every one of
 * count float32 values is finite. */
nnue_status nr_check_finite(nr_stream *s, const float *v, uint64_t count, uint64_t start, const char *section);

#endif
