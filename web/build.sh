#!/usr/bin/env bash
# web/build.sh [--simd-only|--scalar-only]: the WebAssembly builds of the library with Debian's
# emscripten, into web/pkg/dist/: nnue-scalar.{mjs,wasm} (the portable kernels),
# nnue-simd128.{mjs,wasm} (built with -msimd128) and nnue-relaxed-simd.{mjs,wasm} (the SIMD128
# objects with the kernels built with -mrelaxed-simd as well); web/pkg/nnue.mjs picks the best
# module the engine validates. Inputs: the library's sources as the native build lists them (meson
# introspect of build/, configured first when missing), the generated built-in archs, web/src/
# and Debian's sources of libyaml, zstd and nettle (web/setup.sh fetches them). Objects are
# cached in build-wasm/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# setup's messages only when it fails: why the toolchain or a source could not be had.
setup_log=$(mktemp)
bash web/setup.sh 2>"$setup_log" || { cat "$setup_log" >&2; rm -f "$setup_log"; echo "web/build: web/setup.sh failed (above: why)" >&2; exit 1; }
rm -f "$setup_log"
# Debian's emscripten 3.1.6 beside this machine's node: emcc needs Debian's acorn.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
native=build
if [ ! -f "$native/build.ninja" ]; then
  native=build-wasm/native
  [ -f "$native/build.ninja" ] || CC=clang meson setup "$native" -Dtests=disabled >/dev/null
fi
ninja -C "$native" core/arch/builtin_archs_data.c >/dev/null 2>&1 || ninja -C "$native" >/dev/null
lib_sources=$(meson introspect "$native" --targets | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "nnue" and t["type"] == "shared library":
        for ts in t["target_sources"]:
            print("\n".join(ts.get("sources", []) + ts.get("generated_sources", [])))
        break')
[ -n "$lib_sources" ] || { echo "web/build: no sources of the library in $native" >&2; exit 1; }

deps=build-wasm/deps
yaml_dir=$(ls -d $deps/libyaml-*/ | head -1)
zstd_dir=$(ls -d $deps/libzstd-*/ | head -1)
nettle_dir=$(ls -d $deps/nettle-*/ | head -1)
mkdir -p build-wasm/include
ln -sfn "$root/$nettle_dir" build-wasm/include/nettle   # <nettle/sha2.h>
[ -f build-wasm/include/nettle/version.h ] ||
  sed -e 's/@MAJOR_VERSION@/3/; s/@MINOR_VERSION@/8/' "$nettle_dir/version.h.in" >"$nettle_dir/version.h"

common=(-O3 -DNDEBUG -std=gnu11 -ffp-contract=off -Wno-unused-command-line-argument)
# emcc's Python driver costs ~0.3 s a file (over a minute of this build on 2 cores), so objects
# come from the clang it runs, given the flags it adds (`emcc --cflags`): the same objects byte for
# byte. emcc stays the compiler when its clang cannot be found this way.
cc=(emcc)
probe=$(mktemp -d)
echo 'int probe;' >"$probe/probe.c"
emcc_clang=$(emcc -v -c "$probe/probe.c" -o "$probe/probe.o" 2>&1 |
  awk '/-target wasm32/ { gsub(/"/, "", $1); print $1; exit }') || emcc_clang=""
rm -rf "$probe"
emcc_flags=$(emcc --cflags 2>/dev/null) || emcc_flags=""
emcc_cflags=()
[[ $emcc_flags == -* ]] && read -ra emcc_cflags <<<"$emcc_flags"
if [ -n "$emcc_clang" ] && [ -x "$emcc_clang" ] && [ ${#emcc_cflags[@]} -gt 0 ]; then
  cc=("$emcc_clang" "${emcc_cflags[@]}")
fi
# Relaxed SIMD's dot is past emscripten 3.1.6's clang 14: the translation units whose code
# depends on __wasm_relaxed_simd__ are compiled by Debian's clang-19 (web/setup.sh installs it)
# with emcc's flags; the module links them with the SIMD128 objects of everything else.
relaxed_sources=(simd/kernels_simd128.c base/isa.c)
relaxed_cc=()
if [ ${#emcc_cflags[@]} -gt 0 ] && command -v clang-19 >/dev/null; then
  relaxed_cc=(clang-19 "${emcc_cflags[@]}" -mcpu=mvp)
fi
dep_sources=()
for f in "$yaml_dir"src/*.c; do dep_sources+=("yaml:$f"); done
for f in "$zstd_dir"lib/common/*.c "$zstd_dir"lib/decompress/*.c "$zstd_dir"lib/compress/*.c; do
  dep_sources+=("zstd:$f"); done
for f in sha256.c sha256-compress.c write-be32.c; do dep_sources+=("nettle:$nettle_dir$f"); done

build_variant() { # NAME EXTRA_FLAGS...
  local name=$1; shift
  local obj=build-wasm/$name objs=() pids=0
  # The relaxed-simd module: only relaxed_sources are its own objects, the rest are simd128's.
  local own_obj=$obj
  if [ "$name" = relaxed-simd ]; then
    obj=build-wasm/simd128
    [ ${#relaxed_cc[@]} -gt 0 ] ||
      { echo "web/build: no clang-19 or no emcc --cflags: the relaxed-simd module needs both" >&2; exit 1; }
  fi
  mkdir -p "$obj"
  # An object is rebuilt when its source, or any header of the tree (coarse but never stale:
  # one header changed rebuilds every object of ours), is newer.
  local newest_header
  newest_header=$(find include base io core features games simd training tools web/src -name '*.h' -printf '%T@ %p\n' |
    sort -n | tail -1 | cut -d' ' -f2)
  compile() { # OUT SRC FLAGS...
    local out=$1 src=$2; shift 2
    local with=("${cc[@]}")
    if [ "$own_obj" != "$obj" ]; then
      local rel=${src#$root/} own=""
      for r in "${relaxed_sources[@]}"; do [ "$rel" = "$r" ] && own=1; done
      [ -n "$own" ] || return 0   # simd128's object, built before
      out=$own_obj/${out#$obj/}; with=("${relaxed_cc[@]}")
    fi
    if [ ! -f "$out" ] || [ "$src" -nt "$out" ] || { [[ $src != "$root/$deps"* && $src != "$deps"* ]] &&
         [ "$newest_header" -nt "$out" ]; }; then
      "${with[@]}" "${common[@]}" "$@" -c "$src" -o "$out"
    fi
  }
  mkdir -p "$own_obj"
  # ... and every object of the folder when the compilers or flags changed (build.sh edited).
  local stamp="${cc[*]} ${common[*]} $*"
  [ "$own_obj" = "$obj" ] || stamp="${relaxed_cc[*]} ${common[*]} $*"
  if [ "$(cat "$own_obj/flags" 2>/dev/null)" != "$stamp" ]; then
    rm -f "$own_obj"/*.o
    printf '%s' "$stamp" >"$own_obj/flags"
  fi
  for entry in "${dep_sources[@]}"; do
    local kind=${entry%%:*} src=${entry#*:}
    local out=$obj/dep-$kind-$(basename "$src" .c).o
    case $kind in
      yaml) compile "$out" "$src" "$@" -I"$yaml_dir"include -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 \
              -DYAML_VERSION_PATCH=5 '-DYAML_VERSION_STRING="0.2.5"' -w & ;;
      zstd) compile "$out" "$src" "$@" -DZSTD_DISABLE_ASM -DZSTD_MULTITHREAD=0 -w & ;;
      nettle) compile "$out" "$src" "$@" -I"$nettle_dir" -w & ;;
    esac
    objs+=("$out")
    pids=$((pids + 1)); if [ $pids -ge 2 ]; then wait -n; pids=$((pids - 1)); fi
  done
  wait
  local flags=(-I. -Iinclude -Ibuild-wasm/include -I"$yaml_dir"include -I"$zstd_dir"lib
               '-DNNUE_PROJECT_VERSION="'"$(meson introspect "$native" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"'"')
  for src in $lib_sources web/src/nnue_web.c; do
    local rel=${src#$root/}
    local out=$obj/$(echo "$rel" | tr '/' '_' | sed 's/\.c$/.o/')
    compile "$out" "$src" "$@" "${flags[@]}" -Wall -Wextra -Wno-unused-parameter &
    objs+=("$out")
    pids=$((pids + 1)); if [ $pids -ge 2 ]; then wait -n; pids=$((pids - 1)); fi
  done
  wait
  if [ "$own_obj" != "$obj" ]; then
    for i in "${!objs[@]}"; do
      for r in "${relaxed_sources[@]}"; do
        [ "${objs[$i]}" = "$obj/$(echo "$r" | tr '/' '_' | sed 's/\.c$/.o/')" ] && objs[$i]=$own_obj/${objs[$i]#$obj/}
      done
    done
  fi
  mkdir -p web/pkg/dist
  emcc "${common[@]}" "$@" "${objs[@]}" -o "web/pkg/dist/nnue-$name.mjs" \
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createNnueModule -sENVIRONMENT=web,worker \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB -sTOTAL_STACK=1MB \
    -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAPU8,HEAPU32,ENV \
    -sEXPORTED_FUNCTIONS=_malloc,_free -sFILESYSTEM=1
  cp LICENSE web/pkg/LICENSE   # npm pack takes it: package.json says MIT
  echo "web/build: web/pkg/dist/nnue-$name.mjs and .wasm ($(wc -c <"web/pkg/dist/nnue-$name.wasm") bytes)"
  # The command-line tool for node (its file system is the machine's: NODERAWFS), to run
  # `nnue bench` on the same workload as the native tool (web/test/bench.sh). Not in the package.
  local tool_sources tool_objs=()
  tool_sources=$(meson introspect "$native" --targets | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "nnue" and t["type"] == "executable":
        for ts in t["target_sources"]:
            print("\n".join(ts.get("sources", [])))
        break')
  for src in $tool_sources web/src/omp_single.c; do
    local out=$obj/cli_$(basename "$src" .c).o
    compile "$out" "$src" "$@" "${flags[@]}" '-DNNUE_TOOL_VERSION="wasm"' '-DNNUE_INSTALLED_ARCHS_DIR="/nonexistent"' \
      '-DNNUE_BIN_TO_ARCHS="../share/nnue/archs"' -w &
    tool_objs+=("$out")
    pids=$((pids + 1)); if [ $pids -ge 2 ]; then wait -n; pids=$((pids - 1)); fi
  done
  wait
  local lib_objs=()
  for o in "${objs[@]}"; do [[ $o == *web_src_nnue_web.o ]] || lib_objs+=("$o"); done
  emcc "${common[@]}" "$@" "${lib_objs[@]}" "${tool_objs[@]}" -o "build-wasm/nnue-cli-$name.js" \
    -sENVIRONMENT=node -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB \
    -sTOTAL_STACK=4MB -sEXIT_RUNTIME=1 --pre-js web/src/cli_pre.js
  echo "web/build: build-wasm/nnue-cli-$name.js (the tool in node)"
}

case "${1:-}" in
  --scalar-only) build_variant scalar ;;
  --simd-only) build_variant simd128 -msimd128; build_variant relaxed-simd -msimd128 -mrelaxed-simd ;;
  *) build_variant scalar; build_variant simd128 -msimd128
     build_variant relaxed-simd -msimd128 -mrelaxed-simd ;;
esac
