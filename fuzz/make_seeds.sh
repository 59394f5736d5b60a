#!/usr/bin/env bash
# fuzz/make_seeds.sh SRC OUT NNUE_TOOL: the fuzz targets' seed corpora, from small real files:
#   OUT/seeds/positions  fuzz/seeds/positions (FEN/SFEN|UCI/USI move lines) + the first oracle
#                        positions when ../shared is there
#   OUT/seeds/arch       every YAML of archs/ and tests/, and fuzz/seeds/arch (graphs past the
#                        loader's limits: sizes that wrapped, descriptions that grew exponentially)
#   OUT/seeds/net        `nnue init` nets (two seeds each) for fuzz_net's small chess archs
#   OUT/seeds/net_shogi  the same for fuzz_net_shogi's YaneuraOu-layout HalfKP arch
#   OUT/seeds/net_threats, net_sfnn  the same for fuzz/archs/threats_w8.yaml, sfnn_shogi_w8.yaml
#   OUT/seeds/arch_net   "YAML\n#NET\n" + net for the chess archs
#   OUT/seeds/protocol   fuzz/seeds/protocol (UCI/USI lines a GUI sends) + a line one character
#                        past the 65536 limit followed by a command, and a line of exactly the limit
#   OUT/seeds/match      fuzz/seeds/match (a game byte, then a fake engine's lines: fuzz/fuzz_match.c)
#   OUT/seeds/boards     per net of fuzz_boards: a few moves evaluated, then a square or a byte
#                        of the board view changed, pushed and evaluated (fuzz/fuzz_boards.c)
#   OUT/seeds/training   fuzz/seeds/training (a format byte, then a bullet, .plain or .binpack
#                        file: fuzz/fuzz_training.c) + games.binpack and games.plain of the
#                        reference data when ../shared is there
# and an empty writable corpus OUT/corpus/TARGET for each (libFuzzer adds what it finds there).
set -euo pipefail
# A failing step names itself (a bare non-zero exit under ninja says nothing). No pipe here may
# have a reader that stops early: under pipefail the writer's SIGPIPE would fail the script, by race.
trap 'echo "make_seeds.sh: line $LINENO failed (exit $?): $BASH_COMMAND" >&2' ERR
src=$1 out=$2 tool=$3
rm -rf "$out/seeds"
targets="positions arch net net_shogi net_threats net_sfnn arch_net protocol boards training match threats extension net_raw"
for t in $targets; do mkdir -p "$out/seeds/$t"; done
for t in $targets; do mkdir -p "$out/corpus/$t"; done
cp "$src"/fuzz/seeds/positions/* "$out/seeds/positions/"
cp "$src"/fuzz/seeds/protocol/* "$out/seeds/protocol/"
{ head -c 65537 /dev/zero | tr '\0' x; printf 'isready\nposition startpos moves e2e4\n'; } > "$out/seeds/protocol/long-line"
{ printf 'isready'; head -c 65529 /dev/zero | tr '\0' ' '; printf '\ngo depth 1\n'; } > "$out/seeds/protocol/limit-line"
cp "$src"/fuzz/seeds/match/* "$out/seeds/match/"
cp "$src"/fuzz/seeds/arch/* "$out/seeds/arch/"
cp "$src"/fuzz/seeds/training/* "$out/seeds/training/"
shared=${NNUE_SHARED_DIR:-$src/../shared}
if [ -f "$shared/oracle/chess/corpusA.fen" ]; then
  head -n 20 "$shared/oracle/chess/corpusA.fen" | grep -v '^#' | split -l 1 - "$out/seeds/positions/fen-"
fi
if [ -f "$shared/oracle/chess/training/games.binpack" ]; then
  { printf '\002'; cat "$shared/oracle/chess/training/games.binpack"; } > "$out/seeds/training/games-binpack"
  { printf '\006'; cat "$shared/oracle/chess/training/games.binpack"; } > "$out/seeds/training/games-binpack-stream"
  { printf '\001'; head -n 600 "$shared/oracle/chess/training/games.plain"; } > "$out/seeds/training/games-plain"
fi
if [ -f "$shared/oracle/shogi/corpusA.sfen" ]; then
  head -n 20 "$shared/oracle/shogi/corpusA.sfen" | grep -v '^#' | split -l 1 - "$out/seeds/positions/sfen-"
fi
for y in "$src"/archs/*.yaml "$src"/tests/*/*.yaml "$src"/fuzz/archs/*.yaml "$src"/docs/examples/*.yaml; do
  cp "$y" "$out/seeds/arch/$(basename "$(dirname "$y")")-$(basename "$y")"
done
for seed in 1 2; do
  "$tool" init --seed "$seed" "$src/tests/threads/tiny_shogi.yaml" "$out/seeds/net_shogi/tiny_shogi-$seed.bin" >/dev/null
  "$tool" init --seed "$seed" "$src/fuzz/archs/threats_w8.yaml" "$out/seeds/net_threats/threats-$seed.nnue" >/dev/null
  "$tool" init --seed "$seed" "$src/fuzz/archs/sfnn_shogi_w8.yaml" "$out/seeds/net_sfnn/sfnn-$seed.bin" >/dev/null
done
for y in tests/nets/tiny_sf.yaml tests/nets/tiny_sf_leb128.yaml tests/nets/tiny_raw.yaml; do
  name=$(basename "$y" .yaml)
  for seed in 1 2; do
    "$tool" init --seed "$seed" "$src/$y" "$out/seeds/net/$name-$seed.nnue" >/dev/null
  done
  { cat "$src/$y"; printf '#NET\n'; cat "$out/seeds/net/$name-1.nnue"; } > "$out/seeds/arch_net/$name"
done
# fuzz_threats scripts: net byte, then opcodes (0 M: a move with its own lists; 1 M K edits...: a
# move with edited lists; 2: pop), fuzz/fuzz_threats.c; edit bytes are list, entry, field, value.
for net in 0 1 2 3; do
  printf "\\x0$net\\x00\\x0c\\x00\\x03\\x01\\x05\\x01\\x01\\x00\\x01\\x00\\x00\\x00\\x02" > "$out/seeds/threats/moves-$net"
  printf "\\x0$net\\x01\\x04\\x02\\x01\\x00\\x01\\x3f\\x01\\x00\\x03\\x3f\\x00\\x07\\x02\\x41\\x00" > "$out/seeds/threats/edits-$net"
done
# fuzz_extension: pool byte, a set descriptor (name length, name, flags, dims, bounds), a layer
# descriptor (name, inputs, value types, keys), plies (fault byte, move), the layer's shape.
printf '\x00\x06Hostile\x00\x07\x10\x04\x05\x0blayer name!\x09\x00\x00\x02\x03a b\x05alpha\x00\x05\x04\x01\x02\x02\x03\x00\x01\x01\x00\x00\x01\x04\x01\x05\x07' > "$out/seeds/extension/mixed"
printf '\x01\x04Fuzz\x01\x00\x00\x00\x03abc\x09\x00\x00\x00\x00\x03\x00\x01\x00\x02\x00\x01\x00\x00\x00\x00\x00\x00' > "$out/seeds/extension/clean"
# fuzz_net_raw: nets of its CBNF and varint archs, one CBNF net with its payload as a zstd frame
# (flag bit 0), and a header-less zstd frame.
for y in cbnf_w8 varint_w8; do
  "$tool" init --seed 1 "$src/fuzz/archs/$y.yaml" "$out/seeds/net_raw/$y.bin" >/dev/null
done
if command -v zstd >/dev/null; then
  { head -c 6 "$out/seeds/net_raw/cbnf_w8.bin"; printf '\x0f'; dd if="$out/seeds/net_raw/cbnf_w8.bin" bs=1 skip=7 count=57 status=none;
    tail -c +65 "$out/seeds/net_raw/cbnf_w8.bin" | zstd -q -c; } > "$out/seeds/net_raw/cbnf_w8-zstd.bin"
  zstd -q -c "$out/seeds/net_raw/varint_w8.bin" > "$out/seeds/net_raw/varint_w8.zst"
fi
# fuzz_boards scripts: net byte, then (opcode, operand) pairs (fuzz/fuzz_boards.c).
for net in 0 1 2 3 4 5 6 7 8 9 a; do
  printf "\\x0$net\\x00\\x03\\x04\\x00\\x00\\x11\\x04\\x00\\x07\\x01\\x00\\x05\\x04\\x00" > "$out/seeds/boards/moves-$net"
  printf "\\x0$net\\x00\\x01\\x04\\x00\\x01\\x05\\x24\\x06\\x00\\x04\\x00\\x02\\x02\\xc8\\x04\\x00" > "$out/seeds/boards/mutate-$net"
done
