#!/bin/sh
# examples/stockfish/test_bench.sh SRC BUILD SHARED: Stockfish 15.1 on libnnue searches exactly
# as Stockfish 15.1 does. Builds the patched engine (build.sh; an engine folder built before
# from the same tarball, patch and net is reused) and checks:
#  - `bench` (16 MB hash, 1 thread, depth 13) searches 3467381 nodes, the count Debian's
#    stockfish 15.1 and the unmodified engine built from the same source print on this net: one
#    evaluation that differs anywhere in the search changes it;
#  - `bench 16 1 9` searches as many nodes as Debian's /usr/games/stockfish (run here);
#  - the `eval` command's NNUE and final evaluations (the library's net output without a
#    search stack, then Stockfish's blend) are Debian's on a few positions.
# Skips (77), naming the file, without Stockfish's source (SHARED/engines-src) or Debian's
# stockfish (which exports the net).
set -eu
src=$1 build=$2 shared=$3
tarball=$shared/engines-src/stockfish-15.1-src.tar.xz
debian=/usr/games/stockfish
[ -f "$tarball" ] || { echo "skip: no $tarball (the companion data ../shared)"; exit 77; }
[ -x "$debian" ] || { echo "skip: no $debian (Debian's stockfish 15.1 exports the net)"; exit 77; }
"$debian" < /dev/null | head -n 1 | grep -q '^Stockfish 15\.1 ' ||
  { echo "skip: $debian is not Stockfish 15.1 ($("$debian" < /dev/null | head -n 1))"; exit 77; }
fail() { echo "test_bench: $*" >&2; exit 1; }

engine=$(bash "$src/examples/stockfish/build.sh" --build "$build" --src "$tarball") || fail "build.sh failed"
nodes() { "$@" 2>&1 >/dev/null | sed -n 's/^Nodes searched *: *//p'; }

got=$(nodes "$engine" bench)
[ "$got" = 3467381 ] || fail "bench searched '$got' nodes, Stockfish 15.1 searches 3467381"
n9=$(nodes "$debian" bench 16 1 9)
got=$(nodes "$engine" bench 16 1 9)
[ -n "$n9" ] && [ "$got" = "$n9" ] || fail "bench 16 1 9 searched '$got' nodes, Debian's stockfish '$n9'"

for fen in 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' \
           'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3' \
           '8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 1' \
           'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10'; do
  ev() { printf 'position fen %s\neval\nquit\n' "$fen" | "$1" | grep -E '^(NNUE|Final) evaluation'; }
  want=$(ev "$debian") got=$(ev "$engine")
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "eval of $fen: '$got', Debian's stockfish '$want'"
done
echo "test_bench: bench 3467381 nodes, bench 16 1 9 $n9 nodes as Debian's stockfish 15.1, eval alike ($engine)"
