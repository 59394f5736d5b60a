#!/bin/sh
# tests/simd/cpu_detect.sh TOOL SRC [no-qemu]: the kernel set is chosen from every extension it
# is compiled for (base/targets.h, base/cpu_x86.c), so a CPU or VM masking one of them gets
# a lower set, never SIGILL (issue 26, finding 5).
#  1. under qemu-x86_64 -cpu MODEL (Debian qemu-user): Haswell keeps avx2; Haswell without POPCNT
#     or BMI2, and Nehalem (no AVX), run scalar. Same values as the native run.
#  2. natively, NNUE_CPU_MASK hides features (and the OS's AVX/AVX-512 register state); each
#     level falls back to the next one whose whole list is left.
# Exit 77 (skipped) when the tool is not x86-64; part 1 is left out without qemu-x86_64 or with
# `no-qemu` (sanitizer builds: their shadow memory does not map under qemu-user).
set -u
tool=$1 src=$2 qemu=${3:-qemu}
[ "$(od -An -tx1 -j18 -N1 "$tool" | tr -d ' ')" = 3e ] || { echo "not an x86-64 tool: skipped"; exit 77; }
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
arch=$src/tests/simd/cpu_probe.yaml net=$dir/probe.nnue
fen='r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4'
echo "$fen" > "$dir/one.fen"
"$tool" init --seed 7 "$arch" "$net" >/dev/null || exit 1
expected=$("$tool" eval --arch "$arch" --net "$net" --fen "$fen") || exit 1
fail=0

# isa RUNNER...: the ISA `nnue bench` reports when run through RUNNER (or "died: STATUS").
isa() {
  out=$("$@" "$tool" bench --net "$net" --arch "$arch" --file "$dir/one.fen" --iter 1 --mode refresh 2>/dev/null)
  status=$?
  [ $status -eq 0 ] || { echo "died: $status"; return; }
  echo "$out" | sed -n 's/.* isa=\([a-z0-9]*\) .*/\1/p'
}

check() { # WHAT GOT WANT
  if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: $2, expected $3"; fail=1; fi
}

if [ "$qemu" = qemu ] && command -v qemu-x86_64 >/dev/null; then
  for case in Haswell-noTSX:avx2 Haswell-noTSX,-popcnt:scalar Haswell-noTSX,-bmi2:scalar Nehalem:scalar; do
    model=${case%:*}
    check "qemu -cpu $model" "$(isa qemu-x86_64 -cpu "$model")" "${case##*:}"
    got=$(qemu-x86_64 -cpu "$model" "$tool" eval --arch "$arch" --net "$net" --fen "$fen" 2>/dev/null)
    [ "$got" = "$expected" ] && same=yes || same="no ($got)"
    check "qemu -cpu $model eval, values as native" "$same" yes
  done
else
  echo "qemu-x86_64 part left out ($qemu; install qemu-user for it)"
fi

best=$(isa env)
echo "native: $best"
case $best in
vbmi512) masks="avx512vbmi2:vnni512 avx512vnni:avx512 avx512bw:avx2 os-avx512:avx2 popcnt:scalar" ;;
vnni512) masks="avx512vnni:avx512 avx512vl:avx2 avx512bw:avx2 os-avx512:avx2 bmi2:scalar popcnt:scalar os-avx:scalar" ;;
avx512) masks="avx512vl:avx2 os-avx512:avx2 bmi:scalar os-avx:scalar" ;;
avx2) masks="bmi:scalar bmi2:scalar popcnt:scalar os-avx:scalar" ;;
*) masks="" ;;
esac
for m in $masks; do
  check "NNUE_CPU_MASK=${m%:*}" "$(isa env NNUE_CPU_MASK="${m%:*}")" "${m##*:}"
done
exit $fail
