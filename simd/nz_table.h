/* simd/nz_table.h: set-bit positions of every byte value (see nz_table.c). */
#ifndef NNUE_SIMD_NZ_TABLE_H
#define NNUE_SIMD_NZ_TABLE_H

#include <stdint.h>

extern uint8_t nnue_nz_table[256][8];

#endif
