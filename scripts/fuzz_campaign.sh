#!/usr/bin/env bash
# scripts/fuzz_campaign.sh TARGET SECONDS [RUNS]: one long libFuzzer campaign (ASan+UBSan) of
# build-fuzz/fuzz/fuzz_TARGET from its seeds, under nice -n 19 (the machine is shared), until
# RUNS executions (default 10 million) or SECONDS. Corpus: build-fuzz/fuzz/corpus/TARGET (kept
# between campaigns); crashes: build-fuzz/fuzz/artifacts/TARGET-*; log with the final counts:
# build-fuzz/fuzz/campaign-TARGET.log. -max_len 4 MiB: libFuzzer would otherwise cut the
# 2 MiB net seeds to 1 MiB, and a cut net only reaches the error paths. Set up build-fuzz first (scripts/setup.sh --asan).
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1 seconds=$2 runs=${3:-10000000}
dir=build-fuzz/fuzz
ninja -C build-fuzz "fuzz/fuzz_$target" fuzz/seeds.stamp >/dev/null
mkdir -p "$dir/artifacts" "$dir/corpus/$target"
start=$(date +%s)
status=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  nice -n 19 "$dir/fuzz_$target" "$dir/corpus/$target" "$dir/seeds/$target" -runs="$runs" \
  -max_len=4194304 -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2560 -print_final_stats=1 \
  -artifact_prefix="$dir/artifacts/$target-" > "$dir/campaign-$target.log" 2>&1 || status=$?
end=$(date +%s)
echo "fuzz_$target: exit $status, $(grep -o 'stat::number_of_executed_units: [0-9]*' "$dir/campaign-$target.log" | tail -1 | grep -o '[0-9]*$') runs in $((end - start)) s wall" | tee -a "$dir/campaign-$target.log"
exit $status
