#!/bin/sh
# examples/stockfish/test_bench_19.sh SRC BUILD SHARED: Stockfish 19's code on libnnue searches
# exactly as the unmodified code does. Builds the patched engine (build.sh --version 19; an engine
# folder built before from the same tarball and patch is reused), loads Stockfish 19's net
# (nn-1a298aa575a0.nnue, threat inputs: do_move's own threat records go to the library through
# nnue_state_push_threats) and checks:
#  - `bench` (16 MB hash, 1 thread, depth 13) searches NODES nodes, the count the unmodified tree
#    (stockfish-19-762dd1da-src.tar.xz, built with -DNNUE_EMBEDDING_OFF) prints on this net with
#    the same compiler and flags: one evaluation that differs anywhere in the search changes it;
#  - the `eval` command's NNUE and final evaluations (the library's net output on a state made
#    for the position, then Stockfish's blend) are the unmodified tree's on a few positions.
# Skips (77), naming the file, without Stockfish 19's source (SHARED/engines-src) or its net
# ($NNUE_NETS_DIR, else ~/.cache/nnue-nets: scripts/fetch_nets.py sf19 fetches it).
set -eu
src=$1 build=$2 shared=$3
NODES=2244493
tarball=$shared/engines-src/stockfish-19-762dd1da-src.tar.xz
net=${NNUE_NETS_DIR:-${HOME:-/tmp}/.cache/nnue-nets}/nn-1a298aa575a0.nnue
[ -f "$tarball" ] || { echo "skip: no $tarball (the companion data ../shared)"; exit 77; }
[ -f "$net" ] || { echo "skip: no $net (Stockfish 19's net: python3 scripts/fetch_nets.py sf19)"; exit 77; }
fail() { echo "test_bench_19: $*" >&2; exit 1; }

engine=$(bash "$src/examples/stockfish/build.sh" --version 19 --build "$build" --src "$tarball") ||
  fail "build.sh --version 19 failed"
run() { printf 'setoption name EvalFile value %s\n%s\nquit\n' "$net" "$1" | "$engine" 2>&1; }

out=$(run bench)
got=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched *: *//p')
[ "$got" = "$NODES" ] || { printf '%s\n' "$out" | tail -n 5 >&2;
  fail "bench searched '$got' nodes, the unmodified Stockfish 19 code $NODES"; }
printf '%s\n' "$out" | grep -q 'NNUE evaluation using .* by libnnue' ||
  fail "bench did not say it evaluates by libnnue"

# Each line: a FEN, then the unmodified tree's NNUE evaluation (internal units) and final one.
while IFS='|' read -r fen nnue final; do
  got=$(run "position fen $fen
eval" | sed -n -e 's/^NNUE evaluation  *\([-+0-9]*\) (side.*/\1/p' \
                -e 's/^Final evaluation  *\([-+.0-9]*\) .*/\1/p' | tr '\n' ' ')
  [ "$got" = "$nnue $final " ] || fail "eval of $fen: '$got', the unmodified tree '$nnue $final '"
done <<'END'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|-1|+0.00
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10|-560|-1.91
8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 1|-6|+0.02
END

echo "test_bench_19: bench $NODES nodes as the unmodified Stockfish 19 code, eval alike ($engine)"
