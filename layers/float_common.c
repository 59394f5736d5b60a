/* layers/float_common.c: see float_common.h. */
#include "layers/float_common.h"

nnue_status nnue_read_f32_scale(yreader *r, yaml_node_t *v, void *target)
{
    nnue_layer *l = ((nnue_layer_ctx *)target)->layer;
    int64_t pair[2];
    nnue_status st = y_int_pair(r, v, 1, 1 << 30, 1, 1 << 30, pair, "'scale' ([numerator, denominator])");
    /* Both exact in double; the quotient rounded to double, then to float32. A double that lands
     * exactly halfway between two floats could round differently from num / den rounded once;
     * the loader says nothing about it: write a scale that is not such a value. */
    if (st == NNUE_OK)
        l->p.f32.scale = (float)((double)pair[0] / (double)pair[1]);
    return st;
}

nnue_status nnue_read_f32_max(yreader *r, yaml_node_t *v, void *target)
{
    nnue_layer *l = ((nnue_layer_ctx *)target)->layer;
    int64_t n;
    nnue_status st = y_int(r, v, 1, 1 << 24, &n, "'max' (an integer clip bound)");
    if (st == NNUE_OK)
        l->p.f32.max = (float)n;
    return st;
}

int nnue_f32_bias_tensor(const nnue_layer *l, nnue_tensor_shape *t)
{
    *t = (nnue_tensor_shape){"biases", NNUE_F32, NNUE_F32, 1, l->out_size, l->out_size};
    return 1;
}
