/* tests/simd/test_simd_kernels_features.c: the feature sets' and the board check's kernels
 * (board_scan, list_bytes, list_bytes_map) of every kernel set the CPU supports against their
 * scalar definitions, and the scalar pick of flagged rows; part of test_simd_kernels
 * (test_simd_kernels.c adds these cases). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_inputs.h"
#include "simd/kernels_scalar.h"
#include "support.h"

/* board_scan: against its definition, on boards of every size up to 90 squares (and a few longer
 * runs, past 255 vectors' worth of byte counts on the narrow sets) with a bad code now and then,
 * bytes past the end that must not count. */
START_TEST(board_scan)
{
    static uint8_t sq[8192];
    int tested = 0;
    for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        tested++;
        for (int rep = 0; rep < 4010; rep++) {
            int n = rep < 4000 ? rep % 90 + 1 : (int)sizeof sq - 1 - rep % 4000, max_type = pick(1, 15), bad_at = rnd() % 4 == 0 ? (int)(rnd() % (uint32_t)n) : -1;
            for (int i = 0; i < (int)sizeof sq; i++)
                sq[i] = i >= n ? 0xFF : rnd() % 3 ? 0 : (uint8_t)((rnd() & 16) | (uint32_t)pick(1, max_type));
            if (bad_at >= 0)
                sq[bad_at] = (uint8_t[]){0x20, 0x40, 0x80, 16, (uint8_t)(max_type + 1)}[rnd() % (max_type < 15 ? 5 : 4)];
            int want_bad = 0, want_count = 0, count = -1;
            for (int i = 0; i < n; i++) {
                want_bad |= (sq[i] & 0xE0) || (sq[i] & 15) > max_type || sq[i] == 16;
                want_count += sq[i] != 0;
            }
            unsigned got = k->board_scan(sq, n, max_type, &count);
            ck_assert_msg((got != 0) == want_bad && count == want_count, "%s board_scan n=%d max_type=%d: %u/%d, want %d/%d",
                          nnue_isa_label(isa), n, max_type, got, count, want_bad, want_count);
        }
    }
    ck_assert_int_eq(tested, (int)nnue_isa_best() + 1); /* every table has one */
}
END_TEST

/* list_bytes: against the scalar set on byte runs of 0..100 with every kind of byte (zero, a
 * table entry that is 0, high nibbles 0..15), random tables (table[0] = 0), offsets and strides, and rooms from
 * 0 to past the count: same entries, same count, nothing written at or past the room. */
START_TEST(list_bytes)
{
    uint8_t b[100];
    int32_t table[16];
    uint32_t want[2][80], got[2][80];
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 6000; rep++) {
            uint32_t n = rnd() % 101;
            int room = rep % 7 == 0 ? (int)(rnd() % 80) : 64, dense = (int)(rnd() % 4);
            for (int t = 1; t < 16; t++)
                table[t] = rnd() % 5 == 0 ? 0 : pick(-100000, 100000);
            table[0] = 0;
            for (uint32_t i = 0; i < n; i++)
                b[i] = (int)(rnd() % 4) < dense ? (uint8_t)rnd() : 0;
            int32_t stride = pick(-1000, 1000), a0 = pick(-1000000, 1000000), a1 = pick(-1000000, 1000000);
            memset(want, 0xAB, sizeof want);
            memset(got, 0xAB, sizeof got);
            int nw = nnue_kernels_scalar.list_bytes(b, n, table, stride, a0, a1, want[0], want[1], room);
            int ng = k->list_bytes(b, n, table, stride, a0, a1, got[0], got[1], room);
            ck_assert_msg(ng == nw && nw <= room, "%s list_bytes n=%u room=%d: %d entries, scalar %d",
                          nnue_isa_label(isa), n, room, ng, nw);
            ck_assert_msg(memcmp(want[0], got[0], (size_t)nw * 4) == 0 && memcmp(want[1], got[1], (size_t)nw * 4) == 0,
                          "%s list_bytes n=%u room=%d: entries differ", nnue_isa_label(isa), n, room);
            for (int j = room; j < 80; j++)
                ck_assert_msg(got[0][j] == 0xABABABABu && got[1][j] == 0xABABABABu, "%s list_bytes wrote past room %d",
                              nnue_isa_label(isa), room);
        }
    }
}
END_TEST

/* The scalar set's list_bytes against a plain reading of the contract (kernels.h). */
START_TEST(list_bytes_definition)
{
    uint8_t b[90];
    int32_t table[16] = {0, 90, 252, 414, 576, 738, 900, 1224, 0, 738, 738, 738, 738, 1062, 1386, 0};
    uint32_t o[2][90];
    for (int rep = 0; rep < 2000; rep++) {
        uint32_t n = rnd() % 91;
        for (uint32_t i = 0; i < n; i++)
            b[i] = rnd() % 2 ? 0 : (uint8_t)((rnd() % 2) << 4 | rnd() % 16);
        int32_t a0 = pick(0, 125388), a1 = pick(0, 125388);
        int got = nnue_kernels_scalar.list_bytes(b, n, table, 81, a0, a1, o[0], o[1], 90), k = 0;
        for (uint32_t i = 0; i < n; i++) {
            int32_t t = table[b[i] & 15], c = 81 * (b[i] >> 4);
            if (!t)
                continue;
            ck_assert_msg(o[0][k] == (uint32_t)(a0 + t + c + (int32_t)i) && o[1][k] == (uint32_t)(a1 + t - c - (int32_t)i),
                          "scalar list_bytes entry %d (byte %u) differs from the contract", k, i);
            k++;
        }
        ck_assert_int_eq(got, k);
    }
}
END_TEST

/* list_bytes_map: against the scalar set on byte runs of 0..100 (any byte, zero or not), random
 * 32-entry tables (table[0] = 0, other entries 0 now and then) and square maps, offsets, and rooms
 * from 0 to past the count (the HalfKA sets pass exactly their 32 or 40): same entries, same
 * count, nothing written at or past the room. */
START_TEST(list_bytes_map)
{
    uint8_t b[100], map[2][100];
    int32_t table[32];
    uint32_t want[2][80], got[2][80];
    int tested = 0;
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        tested++;
        for (int rep = 0; rep < 6000; rep++) {
            uint32_t n = rnd() % 101;
            int room = rep % 4 == 0 ? (int)(rnd() % 80) : rep % 4 == 1 ? 40 : rep % 4 == 2 ? 32 : 64;
            int dense = (int)(rnd() % 4);
            for (int t = 0; t < 32; t++)
                table[t] = t && rnd() % 5 ? pick(-100000, 100000) : 0;
            for (uint32_t i = 0; i < n; i++) {
                b[i] = (int)(rnd() % 4) < dense ? (uint8_t)rnd() : 0;
                map[0][i] = (uint8_t)rnd();
                map[1][i] = (uint8_t)rnd();
            }
            int32_t a0 = pick(-1000000, 1000000), a1 = pick(-1000000, 1000000);
            memset(want, 0xAB, sizeof want);
            memset(got, 0xAB, sizeof got);
            int nw = nnue_kernels_scalar.list_bytes_map(b, n, table, map[0], map[1], a0, a1, want[0], want[1], room);
            int ng = k->list_bytes_map(b, n, table, map[0], map[1], a0, a1, got[0], got[1], room);
            ck_assert_msg(ng == nw && nw <= room, "%s list_bytes_map n=%u room=%d: %d entries, scalar %d",
                          nnue_isa_label(isa), n, room, ng, nw);
            ck_assert_msg(memcmp(want[0], got[0], (size_t)nw * 4) == 0 && memcmp(want[1], got[1], (size_t)nw * 4) == 0,
                          "%s list_bytes_map n=%u room=%d: entries differ", nnue_isa_label(isa), n, room);
            for (int j = room; j < 80; j++)
                ck_assert_msg(got[0][j] == 0xABABABABu && got[1][j] == 0xABABABABu,
                              "%s list_bytes_map wrote past room %d", nnue_isa_label(isa), room);
        }
    }
    ck_assert_int_eq(tested, (int)nnue_isa_best()); /* every table above the scalar one */
}
END_TEST

/* The scalar set's list_bytes_map against a plain reading of the contract (kernels.h). */
START_TEST(list_bytes_map_definition)
{
    uint8_t b[90], map[2][90];
    int32_t table[32];
    uint32_t o[2][90];
    for (int rep = 0; rep < 2000; rep++) {
        uint32_t n = rnd() % 91;
        for (int t = 0; t < 32; t++)
            table[t] = t && rnd() % 4 ? pick(-1700, 1700) : 0;
        for (uint32_t i = 0; i < n; i++) {
            b[i] = rnd() % 2 ? 0 : (uint8_t)rnd();
            map[0][i] = (uint8_t)(rnd() % 81);
            map[1][i] = (uint8_t)(rnd() % 81);
        }
        int32_t a0 = pick(0, 125388), a1 = pick(0, 125388);
        int got = nnue_kernels_scalar.list_bytes_map(b, n, table, map[0], map[1], a0, a1, o[0], o[1], 90), k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!table[b[i] & 31])
                continue;
            ck_assert_msg(o[0][k] == (uint32_t)(a0 + table[b[i] & 31] + map[0][i]) &&
                              o[1][k] == (uint32_t)(a1 + table[(b[i] ^ 16) & 31] + map[1][i]),
                          "scalar list_bytes_map entry %d (byte %u) differs from the contract", k, i);
            k++;
        }
        ck_assert_int_eq(got, k);
    }
}
END_TEST

/* nnue_ref_pick_flagged (simd/kernels_scalar.h: the patched rows of a move's lists,
 * core/eval/accumulator.c; a refresh picks them in acc_sum, test_simd_kernels_refresh.c): against a
 * plain reading of its contract on lists of 0..300 entries over bit sets of 4096 bits with none,
 * about a quarter or all set, nothing written past the room (n). */
START_TEST(pick_flagged)
{
    static uint64_t bits[64];
    uint32_t idx[300], got[310];
    for (int rep = 0; rep < 3000; rep++) {
        int n = (int)(rnd() % 301), fill = rep % 3;
        for (int w = 0; w < 64; w++)
            bits[w] = fill == 0 ? 0 : fill == 2 ? ~0ull : (uint64_t)rnd() << 32 ^ rnd() ^ (uint64_t)rnd() << 17;
        if (fill == 1)
            for (int w = 0; w < 64; w++)
                bits[w] &= (uint64_t)rnd() << 32 ^ rnd(); /* about a quarter set */
        for (int i = 0; i < n; i++)
            idx[i] = rnd() % 4096;
        memset(got, 0xAB, sizeof got);
        int m = nnue_ref_pick_flagged(idx, n, bits, got), want = 0;
        for (int i = 0; i < n; i++)
            if (bits[idx[i] / 64] >> (idx[i] % 64) & 1) {
                ck_assert_msg(want < m && got[want] == idx[i], "pick_flagged n=%d: entry %d differs", n, want);
                want++;
            }
        ck_assert_msg(m == want, "pick_flagged n=%d: %d picked, want %d", n, m, want);
        for (int j = n; j < 310; j++) /* room for n: the definition writes every entry it reads */
            ck_assert_msg(got[j] == 0xABABABABu, "pick_flagged wrote past n = %d", n);
    }
}
END_TEST

void add_feature_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, pick_flagged);
    tcase_add_test(tc, list_bytes_map);
    tcase_add_test(tc, list_bytes_map_definition);
    tcase_add_test(tc, board_scan);
    tcase_add_test(tc, list_bytes);
    tcase_add_test(tc, list_bytes_definition);
}
