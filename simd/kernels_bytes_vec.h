/* simd/kernels_bytes_vec.h: the byte and bit kernels of the feature sets and the board check
 * (kernels.h board_scan, list_bytes), written once like kernels_vec.h (which
 * includes this file before its table, after the set's vec_<isa>.h) and, like it, the scalar
 * definitions (kernels_scalar.h) where no vector step applies.
 *
 * board_scan: whole vectors of square bytes over vec.h's byte operations (VEC_BYTES squares a
 * step): the bad-code tests ORed into one vector (a bit of 0xE0; a type past max_type as a
 * nonzero saturating difference; the code 16), the empty squares counted per byte lane (at most
 * 255 steps between two sums). The last partial vector is the vector ending at n with the lanes
 * already seen masked to zero (an empty square: neither bad nor occupied); a board shorter than
 * one vector is copied into a zeroed one. A set naming its own (VEC_BOARD_SCAN) skips this.
 *
 * list_bytes, list_bytes_map: the scalar definitions compiled for the set (BMI's tzcnt/blsr on
 * x86-64), unless the set names vector ones (VEC_LIST_BYTES, VEC_LIST_BYTES_MAP:
 * simd/list_bytes_avx512.h, compress stores).
 */
#ifndef NNUE_SIMD_KERNELS_BYTES_VEC_H
#define NNUE_SIMD_KERNELS_BYTES_VEC_H

#ifndef VEC_BOARD_SCAN
/* Lane masks: window + VEC_BYTES - r keeps lanes r.. of a vector. */
static const uint8_t board_scan_window[2 * VEC_BYTES] = {
    [VEC_BYTES... 2 * VEC_BYTES - 1] = 0xFF,
};

VEC_TARGET static inline vec_t board_scan_bad(vec_t p, vec_t high, vec_t type, vec_t most, vec_t no_type)
{
    return vec_or_u8(vec_or_u8(vec_and_u8(p, high), vec_subs_u8(vec_and_u8(p, type), most)), vec_cmpeq_u8(p, no_type));
}

VEC_KERNEL unsigned board_scan(const uint8_t *squares, int n, int max_type, int *count)
{
    const vec_t high = vec_set1_u8(0xE0), type = vec_set1_u8(15), most = vec_set1_u8((uint8_t)max_type);
    const vec_t no_type = vec_set1_u8(16), none = vec_zero();
    vec_t bad = none, empty = none;
    int empties = 0, i = 0, steps = 0;
    for (; i + VEC_BYTES <= n; i += VEC_BYTES) {
        vec_t p = vec_load(squares + i);
        bad = vec_or_u8(bad, board_scan_bad(p, high, type, most, no_type));
        empty = vec_sub_u8(empty, vec_cmpeq_u8(p, none)); /* +1 per empty square */
        if (++steps == 255) {
            empties += vec_sum_u8(empty);
            empty = none;
            steps = 0;
        }
    }
    if (i < n) {
        vec_t p;
        if (n >= VEC_BYTES) {
            p = vec_and_u8(vec_load(squares + n - VEC_BYTES), vec_load(board_scan_window + (n - i)));
            empties -= VEC_BYTES - (n - i); /* the masked lanes count as empty */
        } else {
            uint8_t part[VEC_BYTES] = {0};
            memcpy(part, squares, (size_t)n);
            p = vec_load(part);
            empties -= VEC_BYTES - n;
        }
        bad = vec_or_u8(bad, board_scan_bad(p, high, type, most, no_type));
        empty = vec_sub_u8(empty, vec_cmpeq_u8(p, none));
    }
    *count = n - (empties + vec_sum_u8(empty));
    return vec_any_u8(bad);
}
#define VEC_BOARD_SCAN board_scan
#endif

#ifndef VEC_LIST_BYTES
VEC_KERNEL int list_bytes(const uint8_t *b, uint32_t n, const int32_t *table, int32_t stride, int32_t a0, int32_t a1,
                          uint32_t *o0, uint32_t *o1, int room)
{
    return nnue_ref_list_bytes(b, 0, n, table, stride, a0, a1, o0, o1, 0, room);
}
#define VEC_LIST_BYTES list_bytes
#endif

#ifndef VEC_LIST_BYTES_MAP
VEC_KERNEL int list_bytes_map(const uint8_t *b, uint32_t n, const int32_t *table, const uint8_t *map0,
                              const uint8_t *map1, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1, int room)
{
    return nnue_ref_list_bytes_map(b, 0, n, table, map0, map1, a0, a1, o0, o1, 0, room);
}
#define VEC_LIST_BYTES_MAP list_bytes_map
#endif

#endif
