#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs the main job: the description string
# and hashes of every architecture in archs/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/tools/nnue arch archs/*.yaml
