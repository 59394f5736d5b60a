/* simd/kernels_avx512.h: AVX-512 kernels shared by the AVX-512 and VNNI sets (internal). */
#ifndef NNUE_SIMD_KERNELS_AVX512_H
#define NNUE_SIMD_KERNELS_AVX512_H

#include "simd/kernels.h"

void nnue_avx512_acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                         const int16_t *const *add, int n_add, uint32_t n);
void nnue_avx512_acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub,
                        const int8_t *const *add, int n_add, uint32_t n);
void nnue_avx512_acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                         const int32_t *const *add, int n_add, uint32_t n);
void nnue_avx512_ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max);
void nnue_avx512_ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift);
int nnue_avx512_nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx);
int64_t nnue_avx512_sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax);

void nnue_avx512_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max);
void nnue_avx512_sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound);
void nnue_avx512_pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad);
unsigned nnue_avx512_board_scan(const uint8_t *squares, int n, int max_type, int *count); /* board_scan_avx512.c */

#endif
