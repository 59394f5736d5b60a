/* layers/dual_f32.c: PlentyChess's dual activation on float32 values, n inputs -> 2n outputs:
 *   out[o]     = min(max(x[o], 0), max)     (clipped ReLU)
 *   out[n + o] = min(x[o] * x[o], max)      (the square of the unclipped value, then clipped)
 * one float32 multiply and plain min/max; max defaults to 1. Facts:
 * shared/oracle/third/plentychess/FACTS.md, "Forward pass" step 4 (h = [clamp(pre, 0, 1),
 * min(pre * pre, 1)]: a negative pre-activation gives a positive square). min and max are
 * nnue_f32_min/max (simd/kernels_f32.h: a NaN gives the bound, -0 gives +0), so neither half
 * carries a NaN. Not hashed. */
#include <math.h>
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.f32.max = 1.0f;
}

static const yfield fields[] = {
    {"max", 0, nnue_read_f32_max},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    (void)buf, (void)size;
    l->out_size = 2 * l->in_size;
    return NULL;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "DualClippedReLUSquareF32[%u;max=%g]", l->out_size, (double)l->p.f32.max);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const float *x = NNUE_F32_IN(inputs[0]);
    float *y = NNUE_F32_OUT(out), max = l->p.f32.max;
    uint32_t n = l->in_size;
    for (uint32_t o = 0; o < n; o++) {
        y[o] = nnue_f32_min(nnue_f32_max(x[o], 0.0f), max);
        y[n + o] = nnue_f32_min(x[o] * x[o], max);
    }
}

const nnue_layer_type nnue_layer_dual_f32 = {
    .name = "dual_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = shape, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .flow = NNUE_FLOW_F32,
};
