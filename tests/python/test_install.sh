#!/bin/sh
# tests/python/test_install.sh SRC PYTHON NNUE_TOOL: docs/python.md's install as a user follows
# it: a fresh venv over Debian's packages (python3-venv, python3-mesonpy, python3-cffi,
# python3-numpy) made by PYTHON (/usr/bin/python3, as the docs say: another python3 first on
# PATH, pyenv's say, lacks Debian's packages), pip install --no-build-isolation SRC, then
# `python3 -c "import nnue; ..."` evaluates Stockfish 18's net on a FEN equal to the CLI. Exit
# 77 only when the net is absent and cannot be fetched; an interpreter without the packages
# fails, saying which.
# NNUE_JOBS limits the build's parallel jobs (a shared machine).
set -eu
src=$1 py=$2 tool=$3
nets="${NNUE_NETS_DIR:-$HOME/.cache/nnue-nets}"
net="$nets/nn-c288c895ea92.nnue"
[ -f "$net" ] || /usr/bin/python3 "$src/scripts/fetch_nets.py" --dir "$nets" sf18 >/dev/null || true
[ -f "$net" ] || { echo "SKIP: $net is absent and scripts/fetch_nets.py could not fetch it"; exit 77; }
missing=$("$py" -c '
import importlib.util
print(" ".join(m for m in ("venv", "mesonpy", "cffi", "numpy") if importlib.util.find_spec(m) is None))' 2>&1) ||
  missing="(the interpreter does not run: $missing)"
[ -z "$missing" ] ||
  { echo "FAIL: $py lacks $missing: docs/python.md's install needs Debian's python3 with python3-venv" \
      "python3-mesonpy python3-cffi python3-numpy (scripts/setup.sh installs them)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset NNUE_LIBRARY PYTHONPATH
"$py" -m venv --system-site-packages "$tmp/venv"
jobs=""
[ -n "${NNUE_JOBS:-}" ] && jobs="--config-settings=compile-args=-j$NNUE_JOBS"
CC="${CC:-clang}" "$tmp/venv/bin/pip" install --no-build-isolation --no-deps -q $jobs "$src" >"$tmp/pip.log" 2>&1 ||
  { cat "$tmp/pip.log"; echo "FAIL: pip install"; exit 1; }
fen='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10'
cd "$tmp"   # not the source tree: the installed package, not python/
got=$("$tmp/venv/bin/python3" -c "
import sys, nnue
assert nnue.library_path.startswith(sys.prefix), nnue.library_path
e = nnue.Net.load(sys.argv[1]).evaluate_one(sys.argv[2])
print(e['bucket'], e['psqt'], e['positional'], e['total'], e['scaled'])" "$net" "$fen")
want=$("$tool" eval --net "$net" --fen "$fen" --quiet | tail -n 1 | cut -f2-6 | tr '\t' ' ')
echo "python: $got"
echo "cli:    $want"
[ -n "$got" ] && [ "$got" = "$want" ] || { echo "FAIL: the installed package differs from the CLI"; exit 1; }
echo "ok: pip install in a fresh venv evaluates Stockfish 18's net as the CLI does"
