/* simd/kernels_scalar.c: the plain C kernel set. It is the reference the vector sets
 * are tested against (tests/simd), and the set used on CPUs without a vector set. Same math as
 * the layers' scalar propagate functions, on the prepared layouts of kernels.h; the element-wise
 * kernels are kernels_scalar.h's definitions over the whole range. */
#include "simd/kernels.h"
#include "simd/kernels_scalar.h"
#include "simd/acc_sum_scalar.h"

static void acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                    const int16_t *const *add, int n_add, uint32_t n)
{
    nnue_ref_acc_i16(dst, src, sub, n_sub, add, n_add, 0, n);
}

static void acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub, const int8_t *const *add,
                   int n_add, uint32_t n)
{
    nnue_ref_acc_i8(dst, src, sub, n_sub, add, n_add, 0, n);
}

static void acc_mixed(int16_t *dst, const int16_t *src, const nnue_mixed_rows *r, uint32_t n)
{
    nnue_ref_acc_mixed(dst, src, r, 0, n);
    if (r->buckets)
        nnue_ref_acc_i32(r->psqt_dst, r->psqt_src, r->psub, r->n_sub16 + r->n_sub8, r->padd, r->n_add16 + r->n_add8, 0,
                         r->buckets);
}

static void acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                    const int32_t *const *add, int n_add, uint32_t n)
{
    nnue_ref_acc_i32(dst, src, sub, n_sub, add, n_add, 0, n);
}

static void ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    nnue_ref_ft_clamp_u8(acc, out, 0, n, max);
}

static void ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    nnue_ref_ft_pairwise_u8(acc, out, 0, half, max, shift);
}

static int nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    return nnue_ref_nonzero_groups(in, 0, groups, idx, 0);
}

/* The dense layer is the listed one over every group (idx NULL). */
static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w, const int32_t *bias,
                           int32_t *out, uint32_t n_out, uint32_t out_pad, uint32_t pairs)
{
    (void)pairs; /* the definition: every sum in i32 */
    for (uint32_t o = 0; o < n_out; o++) {
        uint32_t sum = (uint32_t)bias[o]; /* wraps like the vector adds (and like int64 truncated) */
        for (int i = 0; i < count; i++) {
            uint32_t g = idx ? idx[i] : (uint32_t)i;
            const int8_t *wg = w + ((size_t)g * out_pad + o) * 4;
            for (int k = 0; k < 4; k++)
                sum += (uint32_t)((int32_t)in[4 * g + k] * wg[k]);
        }
        out[o] = (int32_t)sum;
    }
}

static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                      uint32_t n_out, uint32_t out_pad, uint32_t pairs)
{
    affine_u8_list(in, NULL, (int)groups, w, bias, out, n_out, out_pad, pairs);
}

static int64_t sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    (void)wmax;
    return nnue_ref_sq_dot_i16(acc, w, 0, n, clip);
}

static void crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    nnue_ref_crelu_i32(in, out, 0, n, shift, max);
}

static void sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    (void)bound;
    nnue_ref_sqr_crelu_i32(in, out, 0, n, shift, max);
}

static void pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    nnue_ref_pack_u8(in, out, 0, n, n_pad);
}

static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                            int32_t m2, const int8_t *w2, const int32_t *b2)
{
    int32_t v[32], o[32];
    uint8_t h[32];
    crelu_i32(in, v, 32, s1, m1);
    pack_u8(v, h, 32, 32);
    affine_u8(h, 8, w1, b1, o, 32, 32, 0);
    crelu_i32(o, v, 32, s2, m2);
    pack_u8(v, h, 32, 32);
    affine_u8(h, 8, w2, b2, o, 1, 16, 0);
    return o[0];
}

static int32_t fc0_tail_32_32_1(const uint8_t *in, uint32_t groups, uint32_t pairs, const int8_t *w0,
                                const int32_t *b0, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                                int32_t m2, const int8_t *w2, const int32_t *b2)
{
    (void)pairs; /* the definition: every product widened on its own */
    int32_t o0[32];
    affine_u8(in, groups, w0, b0, o0, 32, 32, 0);
    return tail_32_32_1(o0, s1, m1, w1, b1, s2, m2, w2, b2);
}

static void affine_i32(const int32_t *in, uint32_t n_in, const int32_t *w, const int32_t *bias, int32_t *out,
                       uint32_t n_out, uint32_t out_pad)
{
    nnue_ref_affine_i32(in, n_in, w, bias, out, 0, n_out, out_pad);
}

/* --- fused heads (issue 47 item 3) --- */
static void affine_i16p(const int32_t *in, uint32_t n_in, const int16_t *w, const int32_t *bias, int32_t *out,
                        uint32_t n_out, uint32_t out_pad)
{
    nnue_ref_affine_i16p(in, n_in, w, bias, out, 0, n_out, out_pad);
}

static void act_u8(const int32_t *in, uint8_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    nnue_ref_act_u8(in, out, 0, n, shift, max, bound);
}

/* --- Byte lists and bit counts for the feature sets --- */
static unsigned board_scan(const uint8_t *squares, int n, int max_type, int *count)
{
    unsigned bad = 0;
    *count = 0;
    nnue_ref_board_scan(squares, 0, (uint32_t)n, max_type, &bad, count);
    return bad != 0;
}

static int list_bytes(const uint8_t *b, uint32_t n, const int32_t *table, int32_t stride, int32_t a0, int32_t a1,
                      uint32_t *o0, uint32_t *o1, int room)
{
    return nnue_ref_list_bytes(b, 0, n, table, stride, a0, a1, o0, o1, 0, room);
}

static int list_bytes_map(const uint8_t *b, uint32_t n, const int32_t *table, const uint8_t *map0,
                          const uint8_t *map1, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1, int room)
{
    return nnue_ref_list_bytes_map(b, 0, n, table, map0, map1, a0, a1, o0, o1, 0, room);
}

static void acc_sum(int16_t *dst, const int16_t *bias, int32_t *psqt_dst, const nnue_sum_part *parts, int n_parts,
                    uint32_t width, uint32_t buckets)
{
    nnue_ref_sum_flags(parts, n_parts);
    nnue_ref_acc_sum(dst, bias, parts, n_parts, width, 0, width);
    nnue_ref_psqt_sum(psqt_dst, parts, n_parts, buckets, 0, buckets);
}

/* --- The SFNN head after fc0 (issues 47/48): the plain path's kernels in a row --- */
static int32_t head_u8(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1, const int32_t *b1, const int8_t *w2,
                       const int32_t *b2)
{
    uint8_t in[64 + 2 * 64 + 4] = {0};
    int32_t o1[64], o2[1];
    uint32_t m0 = h->m0, n1 = h->n1 == 64 ? 64 : 32, at = h->fc2_all ? 2 * m0 : 0;
    act_u8(x, in, m0, h->sq0[0], h->sq0[1], h->sq0[2]);
    act_u8(x, in + m0, m0, h->cr0[0], h->cr0[1], 0);
    affine_u8(in, (2 * m0 + 3) / 4, w1, b1, o1, n1, n1, 0);
    if (!h->fc2_all)
        memset(in, 0, sizeof in);
    if (h->sq1[2] > 0) {
        act_u8(o1, in + at, n1, h->sq1[0], h->sq1[1], h->sq1[2]);
        at += n1;
    }
    act_u8(o1, in + at, n1, h->cr1[0], h->cr1[1], 0);
    affine_u8(in, (at + n1 + 3) / 4, w2, b2, o2, 1, 16, 0);
    return o2[0];
}

static int ft_pairwise_nz(const int16_t *acc, uint8_t *out, uint32_t at, uint32_t half, int32_t max, int shift,
                          uint16_t *idx, int count)
{
    nnue_ref_ft_pairwise_u8(acc, out + at, 0, half, max, shift);
    return nnue_ref_nonzero_groups(out, at / 4, (at + half) / 4, idx, count);
}

static void affine_u8_spans(const uint8_t *in, uint32_t n1, const uint32_t *at, uint32_t n2, const int8_t *w,
                            uint32_t row, const int32_t *bias, int32_t *out, uint32_t n_out)
{
    for (uint32_t o = 0; o < n_out; o++) {
        const int8_t *wo = w + (size_t)o * row;
        uint32_t sum = (uint32_t)bias[o] + nnue_ref_dot_u8(in, wo, n1) + nnue_ref_dot_u8(in + at[o], wo + n1, n2);
        out[o] = (int32_t)sum;
    }
}

static int32_t head_u8_fc0(const nnue_head_u8 *h, const uint8_t *in, const uint16_t *idx, uint32_t count,
                           uint32_t pairs, const int8_t *w0, const int32_t *b0, int32_t *o0, const int8_t *w1,
                           const int32_t *b1, const int8_t *w2, const int32_t *b2)
{
    (void)pairs; /* the definition sums in 32 bits */
    if (idx)
        affine_u8_list(in, idx, (int)count, w0, b0, o0, h->n0, NNUE_HEAD_FC0_PAD(h->n0), 0);
    else
        affine_u8(in, count, w0, b0, o0, h->n0, NNUE_HEAD_FC0_PAD(h->n0), 0);
    return head_u8(h, o0, w1, b1, w2, b2);
}

const nnue_kernels nnue_kernels_scalar = {
    NNUE_ISA_SCALAR, acc_i16, acc_i32, ft_clamp_u8, ft_pairwise_u8, nonzero_groups, affine_u8, affine_u8_list,
    sq_dot_i16, crelu_i32, sqr_crelu_i32, pack_u8, acc_i8, tail_32_32_1, fc0_tail_32_32_1, board_scan,
    affine_i32,
    affine_i16p,
    act_u8,
    list_bytes,
    acc_mixed,
    acc_sum,
    head_u8,
    ft_pairwise_nz,
    affine_u8_spans,
    head_u8_fc0,
    list_bytes_map,
};
