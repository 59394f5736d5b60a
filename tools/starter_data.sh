#!/usr/bin/env bash
# Prepares the data the README's examples use, in BUILD (default build/): BUILD/nets/sf151.nnue,
# Stockfish 15.1's net (nn-ad9b42354671), exported by Debian's stockfish 15.1 with its own
# `export_net` command. The positions file, data/positions.fen, is in the repository.
set -euo pipefail
build="${1:-build}"
net="$build/nets/sf151.nnue"
mkdir -p "$build/nets"
if [ "$(stat -c %s "$net" 2>/dev/null || echo 0)" != 47001499 ]; then
  tmp="$net.tmp$$"
  printf 'export_net %s\nquit\n' "$tmp" | /usr/games/stockfish >/dev/null
  [ "$(stat -c %s "$tmp" 2>/dev/null || echo 0)" = 47001499 ] || { rm -f "$tmp"; echo "starter_data: /usr/games/stockfish did not export its 47,001,499-byte net" >&2; exit 1; }
  mv "$tmp" "$net"
fi
