#!/usr/bin/env bash
# scripts/fuzz_campaign.sh TARGET CPU_SECONDS [RUNS]: one long libFuzzer campaign (ASan+UBSan) of
# build-fuzz/fuzz/fuzz_TARGET from its seeds, under nice -n 19 (the machine is shared), until
# RUNS executions (default 10 million) or CPU_SECONDS of CPU time (user + system), whichever
# comes first. The budget is CPU time, not wall time, because a niced process on a busy machine
# gets little of the wall clock; a watchdog reads the fuzzer's CPU time and stops it with
# SIGINT, after which libFuzzer prints its final stats and exits 72.
# Corpus: build-fuzz/fuzz/corpus/TARGET (kept between campaigns); crashes:
# build-fuzz/fuzz/artifacts/TARGET-*; log with the final counts: build-fuzz/fuzz/campaign-TARGET.log.
# -max_len 4 MiB: libFuzzer would otherwise cut the 2 MiB net seeds to 1 MiB, and a cut net only
# reaches the error paths. -timeout is per input in wall seconds; it is generous because a niced
# process can wait long for a core (a real hang still trips it). Set up build-fuzz first
# (scripts/setup.sh --asan).
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1 cpu_budget=$2 runs=${3:-10000000}
dir=build-fuzz/fuzz
log="$dir/campaign-$target.log"
ninja -C build-fuzz "fuzz/fuzz_$target" fuzz/seeds.stamp >/dev/null
mkdir -p "$dir/artifacts" "$dir/corpus/$target"
ticks=$(getconf CLK_TCK)

cpu_seconds() { # user + system CPU seconds of process $1 (all its threads), 0 once gone
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  stat=${stat##*) }                         # fields after "pid (comm) "
  set -- $stat                              # $12 = utime, $13 = stime (fields 14, 15 of stat)
  echo $(( (${12} + ${13}) / ticks ))
}

start=$(date +%s)
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  nice -n 19 "$dir/fuzz_$target" "$dir/corpus/$target" "$dir/seeds/$target" -runs="$runs" \
  -max_len=4194304 -timeout=300 -rss_limit_mb=2560 -print_final_stats=1 \
  -artifact_prefix="$dir/artifacts/$target-" > "$log" 2>&1 &
pid=$!
used=0 stopped=0
while kill -0 "$pid" 2>/dev/null; do
  sleep 5
  now=$(cpu_seconds "$pid")
  [ "$now" -gt 0 ] && used=$now
  if [ "$used" -ge "$cpu_budget" ] && [ "$stopped" = 0 ]; then
    kill -INT "$pid"; stopped=1
  fi
done
status=0
wait "$pid" || status=$?
# libFuzzer exits 72 when interrupted: that is our budget running out, not a finding.
if [ "$stopped" = 1 ] && [ "$status" = 72 ]; then status=0; fi
end=$(date +%s)
runs_done=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
echo "fuzz_$target: exit $status, ${runs_done:-?} runs in ${used} s CPU ($((end - start)) s wall)" | tee -a "$log"
exit "$status"
