/* simd/vec.h: the vector layer's contract. The kernels are written once against it
 * (kernels_vec.h); each instruction set defines it in one header, simd/vec_<isa>.h, which
 * includes this file first. A new instruction set is that header, a kernels_<isa>.c of a few
 * lines (the header, VEC_TABLE, VEC_ISA, kernels_vec.h), its level in base/isa.h and its CPU
 * check in base/isa.c; tests/simd then compares it with the scalar set.
 *
 * A header defines:
 *   vec_t, VEC_BYTES     one integer vector and its width in bytes (16, 32 or 64)
 *   VEC_TARGET           the attribute every function of the set carries (base/targets.h), or empty
 *   VEC_ACC_TILE         vectors kept in registers per pass over the accumulator rows
 *   VEC_ACC_TILE_I16     optional: the same where every row is i16 (acc_i16; default VEC_ACC_TILE)
 *   VEC_AFFINE_BLOCKS    output vectors (1..4) summed per pass of the u8 x i8 affine kernel
 *   VEC_AFFINE_UNROLL    input groups in flight there (independent sums per output vector)
 * and, as static inline functions (memory operands unaligned; i16/i32 arithmetic wrapping):
 *   vec_zero, vec_set1_i16, vec_set1_i32, vec_load(p), vec_store(p, v)
 *   vec_load_i8_i16(p)   VEC_BYTES / 2 bytes at p sign-extended to i16 lanes
 *   vec_load_i16_i32(p)  VEC_BYTES / 4 i16 values at p sign-extended to i32 lanes
 *   vec_add_i16, vec_sub_i16, vec_add_i32, vec_sub_i32, vec_mullo_i16, vec_mullo_i32 (low halves)
 *   vec_max_i16, vec_min_i16, vec_max_i32, vec_min_i32, vec_min_u32, vec_abs_i32
 *   vec_srl_i16(v, n), vec_srl_i32(v, n), vec_sra_i32(v, n)   shifts by a run-time count
 *   vec_srai8_i16(v), vec_slli8_i16(v)   i16 lanes shifted by 8, arithmetic right and left (the
 *                        paired i8 rows' second values and the first values' correction: paired_i8.h)
 *   vec_madd_i16(a, b)   a[2k] * b[2k] + a[2k + 1] * b[2k + 1] in i32 lane k (pmaddwd)
 *   vec_packus_i16(a, b) the i16 lanes of a then b saturated to u8, in order
 *   vec_min_u8(a, b)     the smaller of each pair of u8 lanes
 *   vec_packus_i32(a, b) the i32 lanes of a then b saturated to u16, in order
 *   vec_widen_add_i64(s, v)    s (i64 lanes) + every i32 lane of v sign-extended; which lane of s
 *                              takes which lane of v is free (only the total is read)
 *   vec_dot_i32_i64(s, a, b)   s (i64 lanes) + every a[k] * b[k] in i64, lanes free as above
 *   vec_nz_mask_i32(v)   bit k set when i32 lane k is not zero
 *   vec_nz_store8(dst, pos, base)   dst[k] = base + pos[k], k < 8 (u16 dst, u8 pos)
 *   optional (VEC_NZ_BASE): vnz_t, vnz_base(g), vnz_next(b) (+ 8), vec_nz_store8v(dst, pos, b): the
 *   same with the base held in a vector across steps (kernels_vec.h falls back to a u16)
 *   optional (VEC_NZ_COMPRESS, with VEC_NZ_BASE): vnz_base(g) the numbers g..g+15, vnz_next16(b)
 *   (+ 16), vec_nz_compress16(dst, bits, b): the lanes of b whose bit is set, stored in order (16
 *   entries written); kernels_vec.h then lists 16 bits a step instead of bytes through the table
 * The u8 x i8 dot product (the affine layers' inner step), in any representation the set likes:
 *   vdot_t, vdot_zero()  a running sum per output lane (VEC_BYTES / 4 outputs)
 *   vdot_input(p)        the 4 input bytes at p in the form vdot_add takes (a broadcast)
 *   vdot_add(s, x, w)    s + for each output k: sum over i < 4 of x's byte i times the i8 w[4k + i];
 *                        exact for input bytes <= 127 (sums of two products fit in i16)
 *   vdot_sum(s)          the sums as i32 lanes, wrapping
 *   vdot_add_bytes(s, p, w)   s + the products of VEC_BYTES input bytes at p (<= 127) and the
 *                        i8 w, lane by lane: a dot product along the input (output-major layers);
 *                        which lane of vdot_sum takes which product is free (only the total is read)
 *   vec_hsum_i32(v)      the sum of v's i32 lanes, wrapping
 *   optional (VEC_DOT_PAIRS 1): vdot_prod16(x, w) a group's products as vdot_add takes them, in
 *                        i16 lanes (each the two products of half a group), and vdot_widen(s, p)
 *                        s + such lanes widened, so that vdot_widen(s, vdot_prod16(x, w)) =
 *                        vdot_add(s, x, w); several groups' products are added in i16 before one
 *                        widening, exact only where no output's lane can overflow, which
 *                        layers/plan_pairs.c proves per 16-output block (kernels.h head_u8_fc0's
 *                        pairs word: two, four or eight groups)
 * Optional, VEC_MASKED: partial vectors, for sets whose vector is wider than the short rows
 * (PSQT rows of 8 i32, small layers of 15..32 outputs on 512 bits). k counts lanes, 0 <= k <=
 * the vector's lanes of that type; lanes from k on load as zero, memory from lane k on is neither
 * read nor written (no fault past a row's end):
 *   vec_load_n_i16(p, k), vec_store_n_i16(p, v, k), vec_load_n_i32(p, k), vec_store_n_i32(p, v, k)
 *   vec_load_n_i8_i16(p, k)   k bytes at p sign-extended to i16 lanes
 *   vec_store_n_u8(p, v, k)   the low k bytes of v
 *   vec_store_n_i32_u8(p, v, k)   the low byte of each of the first k i32 lanes, k bytes at p
 * With them the kernels do a row's last partial vector in vectors too; without, the scalar code.
 * Bytes, for kernels_bytes_vec.h's board_scan (a set naming its own VEC_BOARD_SCAN may leave them
 * out): vec_set1_u8(x), vec_and_u8, vec_or_u8, vec_sub_u8 (wrapping), vec_subs_u8 (saturating at
 * 0), vec_cmpeq_u8 (0xFF where equal, else 0), vec_any_u8(v) (1 when a bit is set), vec_sum_u8(v)
 * (the sum of the byte lanes).
 * Optional: VEC_TAIL_32_32_1 names the set's own kernels.h tail_32_32_1 (NULL otherwise);
 * VEC_BOARD_SCAN and VEC_LIST_BYTES its own board_scan and list_bytes (kernels_bytes_vec.h's
 * otherwise). */
#ifndef NNUE_SIMD_VEC_H
#define NNUE_SIMD_VEC_H

#include <stdint.h>
#include <string.h>

#endif
