/* simd/kernels_f32_head.h: kernels_f32.h's head, one call for a run of small float layers (issue
 * 47 item 3: PlentyChess's, Viridithas's and Reckless's heads after their int8 first layer).
 * Included by kernels_f32_vec.h after its affine kernels. Each step is its layer's propagate
 * written again on buffer slots: the same C expressions, in the same order (fmaf one fused
 * instruction of the level, the clips kernels_f32.h's nnue_f32_min/max, the library built with
 * -ffp-contract=off), so the values are the layers' bit for bit; the compiler makes the
 * element-wise loops vectors of the level. The affine steps are this file's includer's
 * affine kernels. */

/* The element-wise loops are a few vectors long (16 to 64 values): vectors of the level without
 * the compiler's 4-fold interleaving, which would leave them to its scalar remainder loop. */
#if defined(__clang__)
#define HEAD_LOOP _Pragma("clang loop interleave_count(1)")
#else
#define HEAD_LOOP
#endif

VECF_TARGET static inline __attribute__((always_inline)) float head_clip(float x, float max)
{
    return nnue_f32_min(nnue_f32_max(x, 0.0f), max);
}

VECF_KERNEL void head_f32(const nnue_f32_head *h, const int32_t *in, uint32_t stack, float *buf)
{
    for (int s = 0; s < h->n_steps; s++) {
        const nnue_f32_step *st = &h->steps[s];
        /* a step's output slot never overlaps its inputs' (layers/plan_f32.c) */
        const float *restrict x = buf + st->in, *restrict x2 = buf + st->in2;
        float *restrict y = buf + st->out, m = st->param;
        uint32_t n = st->n_out;
        switch (st->op) {
        case NNUE_F32_DEQUANTIZE:
            dequantize_f32(in, n, m, st->b[stack], y);
            break;
        case NNUE_F32_AFFINE:
            affine_f32(x, st->n_in, st->w[stack], st->b[stack], y, n, st->pad);
            break;
        case NNUE_F32_AFFINE_LANES:
            affine_lanes_f32(x, st->n_in, st->w[stack], st->b[stack], y, n, st->pad);
            break;
        case NNUE_F32_CRELU:
            HEAD_LOOP for (uint32_t i = 0; i < n; i++)
                y[i] = head_clip(x[i], m);
            break;
        case NNUE_F32_SQR_CRELU:
            HEAD_LOOP for (uint32_t i = 0; i < n; i++) {
                float c = head_clip(x[i], m);
                y[i] = c * c;
            }
            break;
        case NNUE_F32_DUAL: {
            uint32_t k = st->n_in;
            HEAD_LOOP for (uint32_t o = 0; o < k; o++) {
                y[o] = nnue_f32_min(nnue_f32_max(x[o], 0.0f), m);
                y[k + o] = nnue_f32_min(x[o] * x[o], m);
            }
            break;
        }
        case NNUE_F32_HARDSWISH: {
            const float sixth = 1.0f / 6.0f;
            HEAD_LOOP for (uint32_t i = 0; i < n; i++) {
                float gate = nnue_f32_min(nnue_f32_max(x[i] + 3.0f, 0.0f), 6.0f);
                float product = x[i] * gate;
                y[i] = product * sixth;
            }
            break;
        }
        case NNUE_F32_MUL:
            HEAD_LOOP for (uint32_t i = 0; i < n; i++)
                y[i] = x[i] * x2[i];
            break;
        case NNUE_F32_ADD:
            HEAD_LOOP for (uint32_t i = 0; i < n; i++)
                y[i] = x[i] + x2[i];
            break;
        case NNUE_F32_COPY:
            memcpy(y, x, n * sizeof(float));
            break;
        default: { /* NNUE_F32_TO_I32 */
            int32_t *o32 = (int32_t *)(void *)y;
            HEAD_LOOP for (uint32_t i = 0; i < n; i++) {
                float v = x[i] * m;
                o32[i] = isnan(v) ? 0 : v >= 2147483648.0f ? INT32_MAX : v <= -2147483648.0f ? INT32_MIN : (int32_t)v;
            }
            break;
        }
        }
    }
}
