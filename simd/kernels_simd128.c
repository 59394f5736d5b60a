/* simd/kernels_simd128.c: the WebAssembly SIMD128 kernel set, nnue_kernels_simd128: the kernels
 * of kernels_vec.h on the vector layer of vec_simd128.h. Compiled to nothing except in a wasm
 * build with -msimd128 (web/build.sh's simd128 module), where it is the best level. */
#if defined(__wasm_simd128__)
#include "simd/vec_simd128.h"

#define VEC_TABLE nnue_kernels_simd128
#define VEC_ISA NNUE_ISA_SIMD128
#include "simd/kernels_vec.h"
#endif
