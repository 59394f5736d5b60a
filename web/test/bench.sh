#!/usr/bin/env bash
# web/test/bench.sh [ROUNDS [WORKLOAD...]]: `nnue bench` native and in node (the tool compiled to
# WebAssembly by web/build.sh: scalar, SIMD128 and relaxed-SIMD builds), side by side in one run,
# alternating, on the chess corpus with Stockfish 15.1's net (sf151) and Stockfish 18's small net
# (sf18small), the default workloads, or Stockfish 19's (sf19: the net of Stockfish's own wasm
# build, stockfish.js 19). Prints ns/eval per round, the median of each and the median ratios wasm /
# native, and each side's fastest round with their ratio (the figure to quote: these VMs flip
# between two speeds). Needs the native build (build/), build/nets/sf151.nnue
# (tools/starter_data.sh) and the release nets (scripts/fetch_nets.py). Nothing else should run
# meanwhile. NODE names the node to run the wasm with (default: the node on PATH); its V8
# version is printed first, since a newer V8 runs the same module faster (docs/web.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
shift $(($# > 0 ? 1 : 0))
wanted=${*:-sf151 sf18small}
shared=${NNUE_SHARED_DIR:-../shared}
nets=${NNUE_NETS_DIR:-$HOME/.cache/nnue-nets}
# name:net:arch:iterations
workloads=("sf151:build/nets/sf151.nnue:sfnnv5:2" "sf18small:$nets/nn-37f18f62d772.nnue:sfnnv8small:4"
  "sf19:$nets/nn-1a298aa575a0.nnue:sfnnv16:3")
names=" ${workloads[*]%%:*} "
for w in $wanted; do
  [[ $names == *" $w "* ]] || { echo "bench: unknown workload '$w' (one of:${names% })" >&2; exit 2; }
done
corpus=$shared/oracle/chess/corpusA.fen
[ -f "$corpus" ] || corpus=tests/reference/chess/corpusA.fen
node=${NODE:-node}
echo "bench: wasm in $node $($node --version), V8 $($node -p process.versions.v8)"
. web/test/node_relaxed_flag.sh
relaxed=$(node_relaxed_flag "$node")
declare -A cmd=([native]="build/tools/nnue"
  [wasm-scalar]="$node build-wasm/nnue-cli-scalar.js"
  [wasm-simd128]="$node build-wasm/nnue-cli-simd128.js"
  [wasm-relaxed]="$node $relaxed build-wasm/nnue-cli-relaxed-simd.js")
order=(native wasm-scalar wasm-simd128 wasm-relaxed)
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for workload in "${workloads[@]}"; do
  IFS=: read -r name net arch iters <<<"$workload"
  [[ " $wanted " == *" $name "* ]] || continue
  [ -f "$net" ] || { echo "bench: no $net: $name skipped"; continue; }
  declare -A times=()
  for ((r = 1; r <= rounds; r++)); do
    for who in "${order[@]}"; do
      line=$(${cmd[$who]} bench --net "$net" --arch "$arch" --file "$corpus" --iter "$iters" --mode incremental 2>/dev/null |
        grep '^bench ')
      ns=$(sed -n 's/.*ns\/eval=\([0-9.]*\).*/\1/p' <<<"$line")
      sum=$(sed -n 's/.*checksum_total=\(-*[0-9]*\).*/\1/p' <<<"$line")
      isa=$(sed -n 's/.* isa=\([a-z0-9-]*\).*/\1/p' <<<"$line")
      echo "round $r $name $who ns/eval=$ns checksum_total=$sum isa=$isa"
      times[$who]+="$ns "
    done
  done
  base=$(tr ' ' '\n' <<<"${times[native]}" | grep . | median)
  fast=$(tr ' ' '\n' <<<"${times[native]}" | grep . | sort -g | head -1)
  for who in "${order[@]}"; do
    m=$(tr ' ' '\n' <<<"${times[$who]}" | grep . | median)
    f=$(tr ' ' '\n' <<<"${times[$who]}" | grep . | sort -g | head -1)
    printf 'median %-10s %-13s ns/eval=%-9s ratio to native %.2f; fastest round %s ns, %.2f\n' "$name" "$who" "$m" \
      "$(echo "$m / $base" | bc -l)" "$f" "$(echo "$f / $fast" | bc -l)"
  done
  unset times
done
