#!/usr/bin/env bash
# Installs what the build needs (Debian packages by name) when missing, then
# configures build/ (with --asan also build-asan/, ASan+UBSan; build-tsan/, ThreadSanitizer,
# where only what the 'threads' suite runs is built; build-fuzz/, the libFuzzer targets and
# their seed corpora). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(meson ninja-build clang gcc libomp-dev libyaml-dev check pkg-config xz-utils graphviz stockfish fairy-stockfish python3 nettle-dev
  libzstd-dev zstd                                                                              # zstd nets (Pikafish)
  python3-mesonpy python3-cffi python3-numpy python3-distributed python3-pytest python3-venv)  # python/ (docs/python.md)
missing=()
for p in "${packages[@]}"; do
  # "$p:arch" too: with a foreign architecture installed (arm64 for the Arm build) a plain name
  # can be ambiguous to dpkg although the native package is there.
  dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$(dpkg --print-architecture)" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  . scripts/apt_wait.sh   # apt_get: waits while another apt or dpkg holds the lock
  apt_get update -qq
  apt_get install -y -qq "${missing[@]}" >/dev/null
fi

# Stockfish's release nets 17.1, 18 and 19 (scripts/fetch_nets.py: pinned sha256, from the npm
# registry's stockfish packages, else Stockfish's net server) into the cache the tests read
# (NNUE_NETS_DIR, default ~/.cache/nnue-nets): once, about 480 MB downloaded; later calls check
# them there. A failure is a warning: without the nets those tests skip and say so.
nets_dir="${NNUE_NETS_DIR:-$HOME/.cache/nnue-nets}"
/usr/bin/python3 scripts/fetch_nets.py --dir "$nets_dir" >/dev/null ||
  echo "setup: warning: Stockfish's release nets are not all in $nets_dir (above: why); the tests on them will skip" >&2

# The WebAssembly build's toolchain and sources (emscripten, Chromium for the page's test, the
# Debian sources of libyaml, zstd and nettle): web/setup.sh. A failure is a warning: the 'web'
# test then skips and says why.
web_log=$(mktemp)
bash web/setup.sh >/dev/null 2>"$web_log" || {
  grep -v '^web/setup: source ' "$web_log" >&2
  echo "setup: warning: web/setup.sh failed (above: why); the WebAssembly tests will skip" >&2
}
rm -f "$web_log"

export CC=clang
# A step's output only when it fails (a compile error must not end set-up silently).
quiet() {
  local log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then rm -f "$log"; return 0; fi
  cat "$log" >&2
  rm -f "$log"
  echo "setup: '$*' failed (above: its output)" >&2
  return 1
}
if [ ! -f build/build.ninja ]; then
  quiet meson setup build --buildtype=release
fi
quiet ninja -C build
if [ "${1:-}" = "--asan" ]; then
  if [ ! -f build-asan/build.ninja ]; then
    quiet meson setup build-asan --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
  fi
  quiet ninja -C build-asan
  if [ ! -f build-tsan/build.ninja ]; then
    quiet meson setup build-tsan --buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false
  fi
  quiet ninja -C build-tsan tests/threads/test_threads tests/threads/test_read_only tools/nnue examples/engine/nnue-uci examples/engine/nnue-usi
  if [ ! -f build-fuzz/build.ninja ]; then
    quiet meson setup build-fuzz --buildtype=debugoptimized -Dfuzz=true -Dtests=disabled
  fi
  quiet ninja -C build-fuzz
fi
