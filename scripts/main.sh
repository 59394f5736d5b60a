#!/usr/bin/env bash
# Sets up (scripts/setup.sh: packages, build/), prepares the starter data the README's examples
# use (tools/starter_data.sh: build/nets/sf151.nnue, exported by Debian's stockfish 15.1; the
# positions file data/positions.fen is in the repository), then runs the main job: the
# description string and hashes of every architecture in archs/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash tools/starter_data.sh build
echo "main: starter data ready: build/nets/sf151.nnue (Stockfish 15.1's net), data/positions.fen" >&2
./build/tools/nnue arch archs/*.yaml
