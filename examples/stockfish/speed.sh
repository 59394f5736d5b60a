#!/usr/bin/env bash
# examples/stockfish/speed.sh: nodes per second of Stockfish (15.1, or 19's code with --version 19)
# on libnnue against the unmodified engine, both built from the same source with the same compiler and flags
# (build.sh --plain), on Stockfish's `bench`, alternating (unmodified first in odd rounds,
# patched first in even ones). Prints each round, then the ratio (libnnue / unmodified) of each
# side's fastest round and the median of the rounds' ratios. Every round must search the same
# number of nodes on both sides (else it stops: the evaluations differ).
#
#   bash examples/stockfish/speed.sh [--rounds N] [BUILD.SH OPTIONS...] [-- BENCH ARGS]
#
# N defaults to 9; BENCH ARGS to none (Stockfish's default: 16 MB hash, 1 thread, depth 13).
# The options before `--` go to build.sh (--version, --build, --src, --net, --out, --arch, --comp).
# Stockfish 19's code loads its net at run time: nn-1a298aa575a0.nnue from $NNUE_NETS_DIR (default
# ~/.cache/nnue-nets, where scripts/fetch_nets.py sf19 puts it), sent as `setoption EvalFile`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=9 opts=() bench=() version=15.1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --version) version=$2; opts+=("$1" "$2"); shift 2 ;;
    --) shift; bench=("$@"); break ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed -e '/^set /d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) opts+=("$1"); shift ;;
  esac
done
case $rounds in ''|*[!0-9]*|0) echo "speed.sh: --rounds takes a positive count" >&2; exit 2 ;; esac
mapfile -t engines < <(bash "$here/build.sh" --plain ${opts[@]+"${opts[@]}"})
patched=${engines[0]} plain=${engines[1]}

evalfile=''
if [ "$version" = 19 ]; then
  evalfile=${NNUE_NETS_DIR:-${HOME:-/tmp}/.cache/nnue-nets}/nn-1a298aa575a0.nnue
  [ -f "$evalfile" ] || { echo "speed.sh: no $evalfile (python3 scripts/fetch_nets.py sf19)" >&2; exit 1; }
fi

# One bench: "NODES NPS" (Stockfish prints its summary on stderr); 19's net set first.
run() {
  { [ -z "$evalfile" ] || echo "setoption name EvalFile value $evalfile"; echo "bench ${bench[*]}"; echo quit; } |
    "$1" 2>&1 >/dev/null |
    awk -F: '/^Nodes searched/ { n = $2 + 0 } /^Nodes\/second/ { s = $2 + 0 } END { print n, s }'
}

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; $(uname -m)"
lib=$({ [ -z "$evalfile" ] || echo "setoption name EvalFile value $evalfile"; printf 'eval\nquit\n'; } | "$patched" 2>&1 | sed -n 's/^ \{0,1\}NNUE by \(libnnue [^ ]* ([^)]*)\).*/\1/p')
echo "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown), ${lib:-libnnue: no eval line}," \
  "built with $(cut -d' ' -f2- "$(dirname "$patched")/../.built")"
echo "bench ${bench[*]:-(default: 16 1 13)}; $rounds rounds, alternating"
ratios=() best_plain=0 best_patched=0
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then a=$(run "$plain"); b=$(run "$patched"); else b=$(run "$patched"); a=$(run "$plain"); fi
  read -r na sa <<< "$a"
  read -r nb sb <<< "$b"
  if [ -z "$na" ] || [ "$na" != "$nb" ]; then
    echo "speed.sh: round $r: nodes differ (unmodified ${na:-none}, libnnue ${nb:-none})" >&2; exit 1
  fi
  ratio=$(awk -v a="$sa" -v b="$sb" 'BEGIN { printf "%.3f", b / a }')
  ratios+=("$ratio")
  ((sa > best_plain)) && best_plain=$sa
  ((sb > best_patched)) && best_patched=$sb
  printf 'round %d: nodes %d, nps unmodified %d, libnnue %d, ratio %s\n' "$r" "$na" "$sa" "$sb" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
printf 'fastest round: unmodified %d nps, libnnue %d nps: ratio %s\n' "$best_plain" "$best_patched" \
  "$(awk -v a="$best_plain" -v b="$best_patched" 'BEGIN { printf "%.3f", b / a }')"
printf 'median of the rounds'"'"' ratios: %s\n' "$median"
