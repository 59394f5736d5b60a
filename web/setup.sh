#!/usr/bin/env bash
# web/setup.sh: what the WebAssembly build needs, from Debian only: the packages (emscripten,
# binaryen, chromium for the browser test, dpkg-dev to unpack sources) and the C sources of the
# three libraries the library links (libyaml, zstd, nettle: Debian's source packages, fetched
# once into build-wasm/deps). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(emscripten binaryen chromium dpkg-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# node and npm: the machine's own (Node.js 20 with its npm), else Debian's.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
. scripts/apt_wait.sh
if [ ${#missing[@]} -gt 0 ]; then
  echo "web/setup: installing ${missing[*]}" >&2
  apt_get update -qq
  apt_get install -y -qq "${missing[@]}" >/dev/null
fi
deps=build-wasm/deps
mkdir -p "$deps"
# Debian's source packages: a deb-src twin of the binary sources, for apt-get source.
if ! ls "$deps"/libyaml-0.2.5 "$deps"/libzstd-* "$deps"/nettle-* >/dev/null 2>&1; then
  src_list=/etc/apt/sources.list.d/nnue-deb-src.sources
  if [ ! -f "$src_list" ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src_list"
    apt_get update -qq
  fi
  (cd "$deps" && apt_get source -qq libyaml libzstd nettle >/dev/null 2>&1) ||
    { echo "web/setup: apt-get source libyaml libzstd nettle failed" >&2; exit 1; }
fi
ls -d "$deps"/*/ | sed 's/^/web\/setup: source /' >&2
