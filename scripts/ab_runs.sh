#!/usr/bin/env bash
# scripts/ab_runs.sh MODE ROUNDS NET ARCH POSITIONS OLD NEW: two builds of `nnue` on one workload in
# short alternating runs (one iteration of one mode each, about half a second), then each build's
# fastest run and 20th-percentile run and the ratios NEW/OLD (below 1 = NEW is faster).
#
# Why, beside ../shared/anchors/ab: on the 2-core VMs the same binary runs at two speeds that switch
# every few seconds (chess incremental ~950 or ~1,500 ns); ab's rounds of three iterations of every
# mode (~8 s) often span a switch, and its A/A ratios reached 1.11. Runs this short mostly fall within
# one speed, and with 21 rounds or more both builds meet the fast one: an A/A gave 1.005 (0.996).
# The fastest runs are the measurement; the 20th percentile says whether it held. Nothing else may run
# meanwhile (compare and ab take the same lock). Example (docs/speed.md):
#   scripts/ab_runs.sh incremental 25 nn-ad9b42354671.nnue archs/sfnnv5.yaml \
#     ../shared/oracle/chess/corpusA.fen old/tools/nnue build/tools/nnue
set -euo pipefail
[ $# -eq 7 ] || { echo "usage: ab_runs.sh MODE ROUNDS NET ARCH POSITIONS OLD NEW" >&2; exit 2; }
mode=$1 rounds=$2 net=$3 arch=$4 pos=$5 old=$6 new=$7
exec 9>"${TMPDIR:-/tmp}/nnue-bench.lock"
flock 9
# one run: "ns checksum"
run() {
    local out
    out=$("$1" bench --net "$net" --arch "$arch" --file "$pos" --iter 1 --mode "$mode" 2>&1) ||
        { echo "$out" >&2; exit 1; }
    echo "$(grep -o 'ns/eval=[0-9.]*' <<<"$out" | cut -d= -f2) $(grep -o 'checksum_raw=[0-9-]*' <<<"$out")"
}
a=() b=()
for ((k = 0; k < rounds; k++)); do
    ra=$(run "$old") rb=$(run "$new")
    [ "${ra#* }" = "${rb#* }" ] || { echo "ab_runs: the builds disagree: ${ra#* } against ${rb#* }" >&2; exit 1; }
    a+=("${ra%% *}") b+=("${rb%% *}")
done
python3 - "${a[*]}" "${b[*]}" <<'EOF'
import statistics, sys
a = sorted(map(float, sys.argv[1].split()))
b = sorted(map(float, sys.argv[2].split()))
q = max(1, len(a) // 5)
print(f"old fastest {a[0]:.0f} p20 {a[q]:.0f} median {statistics.median(a):.0f}; "
      f"new fastest {b[0]:.0f} p20 {b[q]:.0f} median {statistics.median(b):.0f}")
print(f"new/old fastest {b[0] / a[0]:.3f} (p20 {b[q] / a[q]:.3f}) over {len(a)} rounds")
EOF
