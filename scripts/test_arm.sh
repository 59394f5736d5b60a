#!/usr/bin/env bash
# The Arm (AArch64) tests on an x86-64 Debian machine: installs Debian's aarch64 cross toolchain,
# qemu-user and the arm64 builds of the libraries (multiarch: dpkg --add-architecture arm64) when
# missing, cross-builds into build-arm/ (scripts/aarch64-linux-gnu.ini), and runs under qemu:
#   - the simd suite: every NEON kernel against the scalar one (test_simd_kernels), the float
#     kernels against affine_f32 (test_simd_f32), and whole nets
#     evaluated both ways (simd_*: corpus, movesA, random walks);
#   - the golden tests of the library on every non-slow reference net, on scalar and neon;
#   - the random-net tests (every layer type / feature set: every ISA and the incremental path);
#   - cli_goldens: `nnue eval` on a chess and a shogi net, detected ISA (must be neon) and forced.
# Ends with "N passed, N failed, N skipped" (scripts/summarize.py). Exit 1 when anything failed.
# Check's fork-per-test is off (CK_FORK=no): a forked child runs orders of magnitude slower under
# qemu-user 7.2. Safe to run repeatedly; docs/development.md: Arm.
set -uo pipefail
cd "$(dirname "$0")/.."

native=(meson ninja-build pkg-config python3 xz-utils gcc-aarch64-linux-gnu qemu-user)
arm64=(libyaml-dev check libsubunit-dev nettle-dev libzstd-dev)
missing=()
for p in "${native[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$(dpkg --print-architecture)" >/dev/null 2>&1 || missing+=("$p")
done
for p in "${arm64[@]}"; do
  dpkg -s "$p:arm64" >/dev/null 2>&1 || missing+=("$p:arm64")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test_arm: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! dpkg --print-foreign-architectures | grep -x arm64 >/dev/null; then
    $SUDO dpkg --add-architecture arm64
  fi
  APT_WAIT_WHO=test_arm; . scripts/apt_wait.sh   # apt_get: waits while another apt or dpkg holds the lock
  { apt_get update -qq && apt_get install -y -qq "${missing[@]}" >/dev/null; } \
    || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
fi

if [ ! -f build-arm/build.ninja ]; then
  meson setup build-arm --cross-file scripts/aarch64-linux-gnu.ini --buildtype=release >/dev/null \
    || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
fi
ninja -C build-arm tools/nnue tests/simd/test_simd_kernels tests/simd/test_simd_f32 tests/simd/test_simd_nets \
  tests/eval/test_eval_goldens tests/eval/test_eval_random_nets >/dev/null \
  || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# The tests above: the simd suite and the goldens / random-net / CLI tests of the eval suite,
# without the 'slow' ones.
mapfile -t tests < <(meson test -C build-arm --no-rebuild --list --no-suite slow 2>/dev/null |
  sed -n 's/^nnue:\(simd\|eval\) \/ \(test_simd_kernels\|test_simd_f32\|simd_.*\|goldens_.*\|random_net_.*\|cli_goldens\)$/\2/p')
status=0
CK_FORK=no OMP_NUM_THREADS=1 meson test -C build-arm --no-rebuild --print-errorlogs --num-processes 2 \
  "${tests[@]}" || status=1
/usr/bin/python3 scripts/summarize.py build-arm/meson-logs/testlog.json
exit $status
