#!/usr/bin/env bash
# web/setup.sh: what the WebAssembly build needs, from Debian only: the packages (emscripten,
# binaryen, clang-19 for the relaxed-simd kernels, chromium for the browser test, dpkg-dev to
# unpack sources) and the C sources of the three libraries the library links (libyaml, zstd,
# nettle: Debian's source packages, fetched once into build-wasm/deps). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(emscripten binaryen clang-19 chromium dpkg-dev)
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
src_list=/etc/apt/sources.list.d/nnue-deb-src.sources
need_sources() { ! ls -d "$deps"/libyaml-*/ "$deps"/libzstd-*/ "$deps"/nettle-*/ >/dev/null 2>&1; }
if need_sources && [ ! -f "$src_list" ]; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src_list"
  apt_get update -qq
fi
# One source package: the version apt picks first, then every version `apt-cache showsrc`
# lists, until one downloads (an archive that moved on, e.g. a security update whose source the
# mirror no longer serves, must not stop the build). apt's own error is shown when none does.
fetch_source() { # PACKAGE DIR-GLOB
  local pkg=$1 glob=$2 log version
  ls -d "$deps"/$glob/ >/dev/null 2>&1 && return 0
  log=$(mktemp)
  for version in "" $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -ruV); do
    if (cd "$deps" && apt_get source -qq "$pkg${version:+=$version}" >/dev/null 2>>"$log") &&
       ls -d "$deps"/$glob/ >/dev/null 2>&1; then
      [ -n "$version" ] && echo "web/setup: $pkg: took version $version (the newest did not download)" >&2
      rm -f "$log"
      return 0
    fi
  done
  echo "web/setup: apt-get source $pkg failed for every version apt-cache showsrc lists; apt said:" >&2
  sed -n '/^E: /p' "$log" | sort -u | sed -n 1,5p >&2
  rm -f "$log"
  return 1
}
failed=0
fetch_source libyaml 'libyaml-*' || failed=1
fetch_source libzstd 'libzstd-*' || failed=1
fetch_source nettle 'nettle-*' || failed=1
[ $failed = 0 ] || { echo "web/setup: the WebAssembly build's C sources are missing (above: why)" >&2; exit 1; }
ls -d "$deps"/*/ | sed 's/^/web\/setup: source /' >&2
