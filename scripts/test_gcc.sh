#!/usr/bin/env bash
# The gcc build (clang + libomp is the main build; with gcc the library, the tool and the
# engines must build warning-free and the quick suites pass): configures build-gcc with gcc,
# builds everything, fails on any compiler warning in code outside tests/, then runs the core,
# features, chess, shogi, xiangqi, games, layout and extend suites.
# NNUE_GCC=0 in scripts/test.sh leaves it out.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v gcc >/dev/null || { echo "test_gcc: gcc is not installed" >&2; exit 1; }
if [ ! -f build-gcc/build.ninja ]; then
  CC=gcc meson setup build-gcc --buildtype=release -Dpython=disabled >/dev/null || exit 1
fi
log=build-gcc/compile.log
ninja -C build-gcc > "$log" 2>&1 || { cat "$log" >&2; echo "test_gcc: the gcc build failed" >&2; exit 1; }
if grep "warning:" "$log" | grep -v "/tests/" >/dev/null; then
  grep "warning:" "$log" | grep -v "/tests/" >&2
  echo "test_gcc: gcc warned (the library, tool and engines must build warning-free)" >&2
  exit 1
fi
meson test -C build-gcc --no-rebuild --print-errorlogs --num-processes 2 --suite core --suite features --suite chess \
  --suite shogi --suite xiangqi --suite games --suite layout --suite extend
