#!/usr/bin/env bash
# web/test/test_web.sh SRC BUILD: the WebAssembly build's tests (meson test 'web', plain builds):
# builds it (web/build.sh: scalar, SIMD128 and relaxed SIMD), then
#   1. node_goldens.mjs: every build against the engines' goldens and incremental == full;
#   2. tests/simd/wasm_kernels.sh: every SIMD128 and relaxed-SIMD kernel against the scalar one;
#   3. node_errors.mjs: bad input gives NnueError with the library's message, and the module works on;
#   4. npm_test.sh: the npm package installed from its tarball into an empty folder;
#   5. browser_test.mjs: the page in headless Chromium from a local server.
# Exits 77 (skipped, saying why) when emscripten or node is missing, or web/setup.sh cannot
# provide them and the Debian sources (scripts/setup.sh runs it first).
set -uo pipefail
src=$1 build=$2
cd "$src"
# The toolchain and the C sources come from Debian (web/setup.sh): when they cannot be had (no
# network, an archive that serves none of the source versions), the tests skip saying why.
setup_log=$build/web-setup.log
if ! bash web/setup.sh >"$setup_log" 2>&1; then
  echo "SKIP: web/setup.sh could not provide the WebAssembly toolchain or sources: $(grep -v '^web/setup: source ' "$setup_log" | tr '\n' ' ' | cut -c1-600)"
  exit 77
fi
for need in emcc node; do
  command -v $need >/dev/null || { echo "SKIP: no $need (bash web/setup.sh installs the WebAssembly toolchain)"; exit 77; }
done
shared=${NNUE_SHARED_DIR:-$src/../shared}
nets=${NNUE_NETS_DIR:-$HOME/.cache/nnue-nets}
tool=$build/tools/nnue
bash tools/starter_data.sh "$build" >/dev/null 2>&1 || echo "note: no Stockfish 15.1 net (Debian's stockfish): its checks skip"
# Pikafish's random net (its goldens' net) is made by the Pikafish anchor, as
# tests/xiangqi/test_xiangqi_eval.c makes it; the anchor needs AVX-512 VNNI (elsewhere that
# check skips, saying so).
xq_net=$build/nets/pikafish-random-20261125.nnue.zst
if [ ! -f "$xq_net" ] && [ -x "$shared/anchors/pikafish-nnuebench" ]; then
  printf 'randomnet %s 20261125\nquit\n' "$build/nets/pikafish.tmp" | "$shared/anchors/pikafish-nnuebench" >/dev/null 2>&1 &&
    zstd -q -f "$build/nets/pikafish.tmp" -o "$xq_net.tmp" 2>/dev/null && mv "$xq_net.tmp" "$xq_net"
  rm -f "$build/nets/pikafish.tmp"
fi
bash web/build.sh >"$build/web-build.log" 2>&1 || { tail -20 "$build/web-build.log"; echo "FAIL: web/build.sh"; exit 1; }
status=0
. web/test/node_relaxed_flag.sh
read -ra relaxed <<<"$(node_relaxed_flag node)"
node "${relaxed[@]}" web/test/node_goldens.mjs "$src" "$shared" "$nets" "$build/nets" "$tool" || status=1
bash tests/simd/wasm_kernels.sh || { echo "FAIL: the SIMD128 kernels against scalar (tests/simd/wasm_kernels.sh)"; status=1; }
# Without the flag: where node has no relaxed SIMD, load() falls back to SIMD128 and says why it
# cannot load the relaxed-simd build.
node web/test/node_errors.mjs "$src" "$build/nets" || status=1
bash web/test/npm_test.sh "$tool" || status=1
# The tool for node: runs with plain `node` (no flag) and takes NNUE_ISA from node's environment.
"$tool" init --seed 2 sfnnv1 "$build/nets/web-cli-v1.nnue" >/dev/null
cli_line() { node build-wasm/nnue-cli-simd128.js bench --net "$build/nets/web-cli-v1.nnue" --file data/positions.fen \
  --iter 1 --mode incremental 2>&1 | grep '^bench '; }
native_sum=$("$tool" bench --net "$build/nets/web-cli-v1.nnue" --file data/positions.fen --iter 1 --mode incremental |
  grep -o 'checksum_total=[-0-9]*')
plain=$(cli_line) forced=$(NNUE_ISA=scalar cli_line)
if [[ $plain == *isa=simd128* && $forced == *isa=scalar* && $plain == *"$native_sum "* && $forced == *"$native_sum "* ]]; then
  echo "ok: the tool in node: plain 'node' runs it, NNUE_ISA=scalar is honoured, $native_sum as native"
else
  echo "FAIL: the tool in node: '$plain' / with NNUE_ISA=scalar: '$forced' (native $native_sum)"; status=1
fi
relaxed_runs=$(node "${relaxed[@]}" --input-type=module \
  -e "import { relaxedSimdSupported } from './web/pkg/nnue.mjs'; console.log(relaxedSimdSupported())" 2>/dev/null)
relaxed_line=$(node "${relaxed[@]}" build-wasm/nnue-cli-relaxed-simd.js bench --net "$build/nets/web-cli-v1.nnue" \
  --file data/positions.fen --iter 1 --mode incremental 2>&1 | grep '^bench ')
if [ "$relaxed_runs" != true ]; then
  echo "SKIP: the relaxed-simd tool: this node ($(node --version)) runs no relaxed SIMD"
elif [[ $relaxed_line == *isa=relaxed-simd* && $relaxed_line == *"$native_sum "* ]]; then
  echo "ok: the relaxed-simd tool in node ${relaxed[*]}: $native_sum as native"
else
  echo "FAIL: the relaxed-simd tool in node ${relaxed[*]}: '$relaxed_line' (native $native_sum)"; status=1
fi
# The screenshot is written to the build and over docs/web-page.png (the docs show what the
# page looks like now; git shows whether it changed).
docs_shot=""
[ -w "$src/docs" ] && docs_shot=$src/docs/web-page.png
node --experimental-websocket --no-warnings web/test/browser_test.mjs "$src" "$tool" "$nets" "$build/nets" \
  "$build/web-page.png" $docs_shot || status=1
exit $status
