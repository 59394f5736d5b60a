/* tests/simd/wasm/support.h: stands in for tests/support.h in the WebAssembly run of
 * test_simd_kernels.c (tests/simd/wasm_kernels.sh), which needs only the Check macros. */
#include "check.h"
