#!/usr/bin/env bash
# tests/simd/wasm_kernels.sh: test_simd_kernels.c and the files it is made of (every kernel against the scalar set) built with
# Debian's emscripten and -msimd128, run under node: the SIMD128 set kernel by kernel (native
# builds cannot run it). Check is stood in for by tests/simd/wasm/check.h. Exit 0 when all passed.
# Run by web/test/test_web.sh (meson test 'web'), which checks emcc and node are there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}   # Debian's emcc needs Debian's acorn
emcc -O2 -msimd128 -std=gnu11 -Itests/simd/wasm -I. -Iinclude tests/simd/test_simd_kernels.c tests/simd/test_simd_kernels_features.c \
  tests/simd/test_simd_kernels_refresh.c tests/simd/test_simd_kernels_rows.c tests/simd/test_simd_kernels_spans.c \
  tests/simd/test_simd_kernels_pairs.c \
  simd/kernels.c layers/plan_pairs.c simd/kernels_scalar.c simd/kernels_simd128.c simd/nz_table.c base/isa.c base/cpu_x86.c -o "$out/t.js"
node --no-experimental-fetch "$out/t.js"   # its loader would fetch() a file path otherwise
