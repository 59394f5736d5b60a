/* core/eval/ft_activation.c: the reference activation of the feature transformer's output
 * (FORMATS.md section 4: clamp, pairwise product, squared clipped and squared ReLU), shared by
 * the scalar forward pass (core/eval/forward.c) and the layers the SIMD pass leaves scalar
 * (core/eval/forward_fast.c). */
#include "core/eval/ft_activation.h"

static inline int32_t clamp32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Writes out_per_side values for one perspective. */
void nnue_ft_transform(const nnue_ft_desc *ft, const int16_t *acc, int32_t *out)
{
    int32_t max = ft->clamp_max;
    switch (ft->activation) {
    case NNUE_FT_CLAMP:
        for (uint32_t j = 0; j < ft->width; j++)
            out[j] = clamp32(acc[j], 0, max);
        break;
    case NNUE_FT_PAIRWISE: {
        uint32_t half = ft->width / 2;
        for (uint32_t j = 0; j < half; j++)
            out[j] = clamp32(acc[j], 0, max) * clamp32(acc[j + half], 0, max) >> ft->shift;
        break;
    }
    case NNUE_FT_SCRELU:
        for (uint32_t j = 0; j < ft->width; j++) {
            int32_t c = clamp32(acc[j], 0, max);
            out[j] = c * c;
        }
        break;
    case NNUE_FT_SQRRELU:
        for (uint32_t j = 0; j < ft->width; j++) {
            int32_t c = acc[j] > 0 ? acc[j] : 0;
            out[j] = c * c;
        }
        break;
    }
}
