#!/usr/bin/env bash
# tests/simd/wasm_kernels.sh: test_simd_kernels.c and the files it is made of (every kernel against
# the scalar set) built with Debian's emscripten and -msimd128, run under node: the SIMD128 set
# kernel by kernel (native builds cannot run it); then the same with -mrelaxed-simd (the
# relaxed-simd module's kernels: compiled by Debian's clang-19 with emcc's flags, as web/build.sh
# does, and run where node has relaxed SIMD: node 20 behind --experimental-wasm-relaxed-simd).
# Check is stood in for by tests/simd/wasm/check.h. Exit 0 when all passed.
# Run by web/test/test_web.sh (meson test 'web'), which checks emcc and node are there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}   # Debian's emcc needs Debian's acorn
sources=(tests/simd/test_simd_kernels.c tests/simd/test_simd_kernels_features.c tests/simd/test_simd_kernels_refresh.c
  tests/simd/test_simd_kernels_rows.c tests/simd/test_simd_kernels_spans.c tests/simd/test_simd_kernels_pairs.c
  simd/kernels.c layers/plan_pairs.c simd/kernels_scalar.c simd/kernels_simd128.c simd/nz_table.c base/isa.c
  base/cpu_x86.c)
flags=(-O2 -msimd128 -std=gnu11 -Itests/simd/wasm -I. -Iinclude)
emcc "${flags[@]}" "${sources[@]}" -o "$out/t.js"
node --no-experimental-fetch "$out/t.js"   # its loader would fetch() a file path otherwise

. web/test/node_relaxed_flag.sh
read -ra relaxed <<<"$(node_relaxed_flag node)"
read -ra emcc_cflags <<<"$(emcc --cflags)"
objs=()
for src in "${sources[@]}"; do
  objs+=("$out/$(echo "$src" | tr '/' '_').o")
  clang-19 "${emcc_cflags[@]}" -mcpu=mvp "${flags[@]}" -mrelaxed-simd -c "$src" -o "${objs[-1]}"
done
emcc -O2 -msimd128 "${objs[@]}" -o "$out/r.js"
node "${relaxed[@]}" --no-experimental-fetch "$out/r.js"
