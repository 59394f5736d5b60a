#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs the whole suite twice: the release
# build, and an ASan/UBSan build (without the 'slow' suite); then the 'threads'
# suite in a ThreadSanitizer build (build-tsan, only those targets are built), and
# the fuzz smoke runs (build-fuzz: each libFuzzer target a few seconds from its seeds), and on an
# x86-64 host the Arm run (scripts/test_arm.sh: NEON kernels and goldens cross-built for AArch64,
# under qemu-user; about 3.5 min; NNUE_ARM=0 leaves it out), then the gcc build (scripts/test_gcc.sh:
# warning-free library, tool and engines, the quick suites; NNUE_GCC=0 leaves it out). Ends with the
# line "N passed, N failed, N skipped" counting Check test cases; a test
# program that skipped (exit 77, reference data absent) counts once as skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
# Wall time of each stage, so that the CI budget (45 min on 2 cores; ~41 on a slow VM) can be checked.
stage() { echo "test.sh: $1 done at $((SECONDS / 60)) min $((SECONDS % 60)) s" >&2; }
bash scripts/setup.sh --asan || { echo "0 passed, 1 failed"; exit 1; }
stage "setup (packages, 4 builds)"

status=0
meson test -C build --print-errorlogs --num-processes 2 || status=1
stage "release suite"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs --num-processes 2 --no-suite slow --timeout-multiplier 4 \
  || status=1
stage "ASan/UBSan suite"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  meson test -C build-tsan --no-rebuild --print-errorlogs --num-processes 2 --suite threads \
  --timeout-multiplier 4 || status=1
meson test -C build-fuzz --no-rebuild --print-errorlogs --num-processes 2 --suite fuzz || status=1
stage "TSan and fuzz smoke suites"

logs=(build/meson-logs/testlog.json build-asan/meson-logs/testlog.json build-tsan/meson-logs/testlog.json
  build-fuzz/meson-logs/testlog.json)
if [ "${NNUE_GCC:-1}" != 0 ]; then
  rm -f build-gcc/meson-logs/testlog.json   # a failed build leaves none: counted as a failure
  bash scripts/test_gcc.sh | grep -v '^[0-9]* passed, ' || status=1
  logs+=(build-gcc/meson-logs/testlog.json)
  stage "gcc build and quick suites"
fi
if [ "$(uname -m)" = x86_64 ] && [ "${NNUE_ARM:-1}" != 0 ]; then
  rm -f build-arm/meson-logs/testlog.json   # a failed install or build leaves none: counted as a failure
  bash scripts/test_arm.sh | grep -v '^[0-9]* passed, ' || status=1   # its line is in the total below
  logs+=(build-arm/meson-logs/testlog.json)
  stage "Arm run"
fi
/usr/bin/python3 scripts/summarize.py "${logs[@]}"
exit $status
